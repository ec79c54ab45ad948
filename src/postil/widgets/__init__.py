"""Interactive figures ("widgets"): the registry and the types every widget module shares.

A widget named `temperature` is the module `postil.widgets.temperature` (or, for a third
party, an entry point named `temperature` in the group `postil.widgets` whose object has the
same attributes). The module defines `WIDGET`, a `Widget`: the option names it accepts, a
function that validates its YAML options into a frozen dataclass, and a function that
precomputes everything its template `templates/widgets/<name>.html` shows. The page's script
`static/js/widgets/<name>.js` only looks values up in the JSON the template embeds.

Adding a widget needs no change here nor in `postil.markdown.widget`: the name in the fence's
info string (```` ```{name} ````) finds the module.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

ENTRY_POINT_GROUP = "postil.widgets"
"""The entry-point group third-party packages use to add widgets (`name = "pkg.module"`)."""

COMMON_OPTIONS = ("caption", "name")
"""Options every widget accepts: the figure caption (Markdown) and its label `fig-…`."""

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


class OptionError(ValueError):
    """A widget option is missing or wrong; the message names it and says how to fix it."""


@dataclass(frozen=True)
class Widget:
    """What a widget module provides, as its module-level `WIDGET`.

    Attributes:
        name: the widget's name, as written in the fence (```` ```{temperature} ````).
        options: the option names `parse_options` understands, besides `COMMON_OPTIONS`;
            any other key is reported as unknown before `parse_options` runs.
        parse_options: validate the YAML mapping (common options removed) into the
            widget's options; raise `OptionError` naming the option and the fix.
        template_context: precompute the template's variables from those options.
    """

    name: str
    options: tuple[str, ...]
    parse_options: Callable[[Mapping[str, Any]], Any]
    template_context: Callable[[Any], dict[str, Any]]

    @property
    def template(self) -> str:
        """Return the Jinja2 template name, `widgets/<name>.html`."""
        return f"widgets/{self.name}.html"


def load_widget(name: str) -> Widget | None:
    """Return the widget called `name`, or None if no module or entry point defines it.

    Built-in modules (`postil.widgets.<name>`) win over entry points of the same name.

    Raises:
        ImportError: if the widget's module exists but fails to import (a bug, not content).
    """
    if not _NAME.match(name):
        return None
    module_name = f"{__name__}.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise
        return _load_entry_point(name)
    widget = getattr(module, "WIDGET", None)
    return widget if isinstance(widget, Widget) else None


def _load_entry_point(name: str) -> Widget | None:
    for point in entry_points(group=ENTRY_POINT_GROUP, name=name):
        loaded = point.load()
        widget = getattr(loaded, "WIDGET", loaded)
        if isinstance(widget, Widget):
            return widget
    return None


def known_widgets() -> list[str]:
    """Return the names of every widget available, sorted: built-in modules and entry points."""
    names = {info.name for info in pkgutil.iter_modules(__path__) if _NAME.match(info.name)}
    names.update(point.name for point in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(name for name in names if load_widget(name) is not None)


def compact_json(data: Any) -> str:
    """Return `data` as compact JSON that is safe inside an HTML `<script>` element.

    `<`, `>` and `&` are written as `\\u003c`-style escapes so no string can close the script
    (the same escaping as Jinja2's `tojson` filter, without its spaces).
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
