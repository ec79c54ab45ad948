"""Widget fences: interactive figures computed in Python, enhanced by a small script.

Syntax: a fenced block whose info string is a widget's name in braces, with YAML options:

    ```{temperature}
    tokens: [The, cat, sat]
    query: sat
    scores: [0.5, 2.0]
    caption: Attention weights for the query “sat”.
    name: fig-cat
    ```

A core rule re-types such `fence` tokens to `widget` (the code plugin keeps `fence`), parses
and validates the options with the widget's module (`postil.widgets.<name>`, see
`postil.widgets.load_widget`), parses the caption as inline Markdown, marks the token as a
figure for the figure plugin (`token.meta["figure"]`, numbered into `meta["figure_number"]`)
and records the widget's name in `RenderState.widgets` so the page loads its script.
`render_widget` renders `templates/widgets/<name>.html` with the widget's precomputed data.

Problems are reported, never raised: an unknown widget, YAML syntax (at the file line of the
mistake), a missing/unknown/wrong option (at the fence's line). The block then renders as
its source in `<pre class="widget-error">`.

CSS classes: `figure`, `figure-label` (shared with the figure plugin), `widget`,
`widget-<name>` (from the templates), `widget-error`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import jinja2
import yaml
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from markupsafe import Markup

from postil.errors import TemplateError
from postil.markdown.state import RenderState, get_state
from postil.widgets import COMMON_OPTIONS, OptionError, Widget, known_widgets, load_widget
from postil.yamlnodes import (
    YamlFieldError,
    compose_mapping,
    load_yaml,
    spaces_for_tabs,
    yaml_error_location,
    yaml_error_message,
)

WIDGET_INFO = re.compile(r"\{(?![.#])([^{}\s]+)\}\s*\Z")
"""A widget fence's info string: `{name}`, nothing else (`{.html}` is Pandoc's code class)."""

FIGURE_LABEL = re.compile(r"fig-[A-Za-z0-9_-]+\Z")


def widget_plugin(md: MarkdownIt) -> None:
    """Register the `widget` core rule and the `widget` renderer on `md`.

    The core rule runs right after block parsing, so widgets are figures before any later
    core rule (the figure plugin's numbering) runs.
    """
    md.core.ruler.after("block", "widget", widget_block)
    md.add_render_rule("widget", render_widget)


def widget_block(state: StateCore) -> None:
    """Re-type every `{name}` fence to a `widget` token and validate its options."""
    for token in state.tokens:
        if token.type != "fence":
            continue
        match = WIDGET_INFO.match(token.info.strip())
        if match:
            token.type = "widget"
            token.meta["widget"] = {"name": match.group(1)}
            _prepare(token, match.group(1), state)


def _prepare(token: Token, name: str, core: StateCore) -> None:
    """Fill `token.meta` for a valid widget, or report why it is not one."""
    state = get_state(core.env)
    line0 = token.map[0] if token.map else None
    widget = load_widget(name)
    if widget is None:
        known = ", ".join(known_widgets()) or "none"
        state.error(line0, 1, f"unknown widget `{{{name}}}`; known widgets: {known}")
        return
    raw = _load_yaml(token, name, state)
    if raw is None:
        return
    try:
        options = _parse(widget, raw)
    except OptionError as e:
        state.error(line0, 1, f"widget `{name}`: {e}")
        return
    token.meta["widget"].update(options=options, figure_id=raw.get("name"))
    token.meta["figure"] = {"id": raw.get("name"), "kind": "figure"}
    token.children = _parse_caption(raw["caption"], core)
    state.widgets.add(name)


def _load_yaml(token: Token, name: str, state: RenderState) -> dict[str, Any] | None:
    """Return the fence body as a mapping, or report why it is none as front matter's YAML
    is reported (`postil.yamlnodes`: the problem in words, an opening never closed at the
    opening, a key written twice, a tab used for indentation), at its line and column in
    the post's file."""
    text = spaces_for_tabs(token.content)
    try:
        fields = compose_mapping(text, what=f"widget `{name}`'s options")
        raw = load_yaml(text) if fields else {}
    except yaml.MarkedYAMLError as e:
        where = yaml_error_location(e, state.path, 0)
        _report(state, token, where.line, where.col, f"widget `{name}`: {yaml_error_message(e)}")
        return None
    except YamlFieldError as e:
        message = e.message if e.message.startswith("widget") else f"widget `{name}`: {e.message}"
        _report(state, token, e.line0, e.col0 + 1, message)
        return None
    return raw


def _report(state: RenderState, token: Token, line0: int, col: int, message: str) -> None:
    """Report an error at 0-based line `line0` and 1-based column `col` of a widget fence's
    body, in the post's file (the body starts after the fence line; a fence in a list item
    or quote is indented there, which the body's text is not)."""
    if token.map is None:
        state.error(None, 1, message)
        return
    body0 = token.map[0] + 1 + line0
    lines = token.content.split("\n")
    written = lines[line0] if line0 < len(lines) else ""
    source = state.source_lines[body0] if body0 < len(state.source_lines) else ""
    indent = source.find(written) if written else 0
    state.error(body0, col + max(indent, 0), message)


def _parse(widget: Widget, raw: dict[Any, Any]) -> Any:
    """Check the common options and unknown keys, then let the widget parse its own."""
    allowed = COMMON_OPTIONS + widget.options
    for key in raw:
        if key not in allowed:
            raise OptionError(f"unknown option `{key}`; the options are {', '.join(allowed)}")
    caption = raw.get("caption")
    if not isinstance(caption, str) or not caption.strip():
        raise OptionError("option `caption` is missing; add `caption: …` (a widget is a figure)")
    label = raw.get("name")
    if label is not None and not (isinstance(label, str) and FIGURE_LABEL.match(label)):
        raise OptionError(f"`name` is {label!r}; write a figure label like `fig-attention`")
    return widget.parse_options({k: v for k, v in raw.items() if k not in COMMON_OPTIONS})


def _parse_caption(caption: str, core: StateCore) -> list[Token]:
    """Parse the caption as inline Markdown (emphasis, code, math) into child tokens."""
    children: list[Token] = []
    core.md.inline.parse(caption.strip(), core.md, core.env, children)
    for child in children:
        # core's `text_join` rule (which turns escapes into text) only visits `inline` tokens
        if child.type == "text_special":
            child.type = "text"
    return children


def render_widget(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    """Render a widget token through its template, or its source if its options were wrong.

    Raises:
        TemplateError: if the widget's template is missing or fails (a theme bug).
    """
    token = tokens[idx]
    meta = token.meta.get("widget", {})
    widget = load_widget(meta.get("name", ""))
    if widget is None or "options" not in meta:
        return f'<pre class="widget-error"><code>{escapeHtml(token.content)}</code></pre>\n'
    state = get_state(env)
    context = widget.template_context(meta["options"])
    context.update(
        widget_name=widget.name,
        widget_id=meta["figure_id"] or _anonymous_id(state),
        figure_id=meta["figure_id"],
        figure_number=token.meta.get("figure_number"),
        caption=Markup(self.renderInline(token.children or [], options, env)),
    )
    templates = state.templates if state.templates is not None else _default_templates()
    try:
        html = templates.get_template(widget.template).render(context)
    except jinja2.TemplateError as e:
        raise TemplateError(f"widget template `{widget.template}` failed: {e}") from e
    return html if html.endswith("\n") else html + "\n"


def _anonymous_id(state: RenderState) -> str:
    """Return `widget-1`, `widget-2`, … for widgets without a `name`, unique in the page."""
    count = state.extra.setdefault("widget", {}).get("anonymous", 0) + 1
    state.extra["widget"]["anonymous"] = count
    return f"widget-{count}"


@lru_cache(maxsize=1)
def _default_templates() -> jinja2.Environment:
    from postil.theme import create_template_env

    return create_template_env(None)
