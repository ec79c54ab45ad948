"""Load and validate `postil.yaml`, the site configuration.

Every key is checked: an unknown key is an error naming it (a typo must not be silently
ignored), and each value is converted by the explicit rules of `postil.yamlnodes`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from postil.bibliography.entries import CITATION_STYLES
from postil.errors import (
    ConfigError,
    Diagnostic,
    Location,
    Severity,
    did_you_mean,
    read_utf8,
)
from postil.macrodefs import read_macros
from postil.model import SiteConfig
from postil.yamlnodes import (
    Field,
    YamlFieldError,
    as_bool,
    as_int,
    as_text,
    as_text_list,
    compose_mapping,
    mapping_fields,
    yaml_error_location,
    yaml_error_message,
)

CONFIG_NAME = "postil.yaml"


def _nav(field: Field) -> tuple[tuple[str, str], ...]:
    if not isinstance(field.node, yaml.SequenceNode):
        raise YamlFieldError("`nav` must be a list of `{label: …, url: …}`", field.line0, 0)
    items = []
    for item in field.node.value:
        entry = {f.key: as_text(f) for f in mapping_fields(item, "each `nav` item")}
        if set(entry) != {"label", "url"}:
            raise YamlFieldError(
                "each `nav` item needs exactly `label` and `url`", item.start_mark.line, 0
            )
        items.append((entry["label"], entry["url"]))
    return tuple(items)


MATH_KEYS = ("macros", "double_dollar_in_text")
DOUBLE_DOLLAR_READINGS = ("inline", "display")


def _math(field: Field) -> dict[str, Any]:
    """Read `math:`: `macros` and `double_dollar_in_text` (docs/math.md, "Syntax")."""
    sub = {f.key: f for f in mapping_fields(field.node, "`math`")}
    unknown = set(sub) - set(MATH_KEYS)
    if unknown:
        key = sorted(unknown)[0]
        raise YamlFieldError(
            f"unknown key `math.{key}`; known: {', '.join(MATH_KEYS)}",
            sub[key].line0,
            sub[key].col0,
        )
    values: dict[str, Any] = {}
    if "macros" in sub:
        values["math_macros"] = read_macros(sub["macros"])
    if "double_dollar_in_text" in sub:
        values["math_double_dollar_in_text"] = _double_dollar(sub["double_dollar_in_text"])
    return values


def _double_dollar(fld: Field) -> str:
    reading = as_text(fld)
    if reading not in DOUBLE_DOLLAR_READINGS:
        raise YamlFieldError(
            f"`math.double_dollar_in_text` is `inline` (kramdown, Jekyll) or `display` "
            f"(Pandoc), not `{reading}`",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        )
    return reading


def citation_style(fld: Field) -> str:
    """Read a citation style name (`citation_style:` in postil.yaml and in front matter)."""
    style = as_text(fld).strip().lower()
    if style not in CITATION_STYLES:
        raise YamlFieldError(
            f"`{fld.key}` is one of {', '.join(CITATION_STYLES)}, not `{style}`",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        )
    return style


def _params(fld: Field) -> tuple[tuple[str, str], ...]:
    """Read `params:`, the site's own values (Jekyll's `_config.yml` keys a post reads as
    `{{ site.assets }}`, Hugo's `[params]`, Quarto's `_variables.yml`): text by name, a
    nested mapping's values by dotted name (`social.github`), in the order written."""
    values: list[tuple[str, str]] = []

    def read(node: yaml.Node, prefix: str) -> None:
        for sub in mapping_fields(node, f"`params{'.' + prefix[:-1] if prefix else ''}`"):
            if isinstance(sub.node, yaml.MappingNode):
                read(sub.node, f"{prefix}{sub.key}.")
            elif isinstance(sub.node, yaml.SequenceNode):
                raise YamlFieldError(
                    f"`params.{prefix}{sub.key}` must be text or a mapping, not a list: a "
                    "post shows a value as text",
                    sub.node.start_mark.line,
                    sub.node.start_mark.column,
                )
            else:
                values.append((prefix + sub.key, as_text(sub)))

    read(fld.node, "")
    return tuple(values)


def _bibliography(fld: Field) -> tuple[str, ...]:
    """Read `bibliography:`, one path or a list (checked against the site by `load_config`)."""
    return tuple(path.strip() for path in as_text_list(fld) if path.strip())


# key -> (SiteConfig attribute, converter); "" when the converter returns several attributes.
_FIELDS: dict[str, tuple[str, Callable[[Field], Any]]] = {
    "title": ("title", as_text),
    "author": ("author", as_text),
    "base_url": ("base_url", lambda f: _at(f, check_base_url)),
    "language": ("language", as_text),
    "description": ("description", as_text),
    "timezone": ("timezone", lambda f: _at(f, _check_timezone)),
    "paginate": ("paginate", lambda f: as_int(f, minimum=1)),
    "math": ("", _math),
    "cname": ("cname", as_text),
    "nav": ("nav", _nav),
    "footer": ("footer", as_text),
    "words_per_minute": ("words_per_minute", lambda f: as_int(f, minimum=1)),
    "feed_limit": ("feed_limit", as_int),
    "image": ("image", as_text),
    "bibliography": ("bibliography", _bibliography),
    "citation_style": ("citation_style", citation_style),
    "cite_this_post": ("cite_this_post", as_bool),
    "search": ("search", as_bool),
    "params": ("params", _params),
}
_REQUIRED = ("title", "author", "base_url")


def load_config(root: Path, base_url: str | None = None) -> SiteConfig:
    """Read `root/postil.yaml` and return the validated `SiteConfig`.

    Args:
        root: the site directory.
        base_url: overrides `base_url` from the file (the `--base-url` flag).

    Raises:
        ConfigError: the file is missing or unreadable, has a YAML syntax error, an unknown or
            duplicate key, a value of the wrong type, or a missing required key; the error
            carries the file's line and column.
    """
    path = root / CONFIG_NAME
    if not path.exists():
        raise ConfigError(f"no {CONFIG_NAME} in {root}; create one with title, author, base_url")
    text = read_utf8(path, CONFIG_NAME, ConfigError)
    values = _parse(text)
    _check_bibliography(root, text, values.get("bibliography", ()))
    if base_url is not None:
        values["base_url"] = base_url
    missing = [key for key in _REQUIRED if key not in values]
    if missing:
        raise ConfigError(f"missing key `{missing[0]}`; add it", Location(CONFIG_NAME, 1, 1))
    if base_url is not None:
        try:
            values["base_url"] = check_base_url(base_url)
        except ConfigError as e:
            raise ConfigError(f"--base-url: {e.message}") from e
    return SiteConfig(root=root, **values)


def _parse(text: str) -> dict[str, Any]:
    try:
        fields = compose_mapping(text.replace("\r\n", "\n")) or []
        unknown = [fld for fld in fields if fld.key not in _FIELDS]
        if unknown:
            raise YamlFieldError(_unknown_keys(unknown), unknown[0].line0, unknown[0].col0)
        values: dict[str, Any] = {}
        for fld in fields:
            name, convert = _FIELDS[fld.key]
            if name:
                values[name] = convert(fld)
            else:
                values.update(convert(fld))
        return values
    except yaml.MarkedYAMLError as e:
        raise ConfigError(yaml_error_message(e), yaml_error_location(e, CONFIG_NAME, 1)) from e
    except YamlFieldError as e:
        raise ConfigError(e.message, Location(CONFIG_NAME, e.line0 + 1, e.col0 + 1)) from e


def _check_bibliography(root: Path, text: str, paths: tuple[str, ...]) -> None:
    """Raise `ConfigError` at its line for a `bibliography:` file that is not in the site."""
    for path in paths:
        if not (root / path).is_file():
            lines = text.split("\n")
            line = next((i for i, s in enumerate(lines, 1) if path in s), 1)
            col = lines[line - 1].find(path) + 1 if path in lines[line - 1] else 1
            raise ConfigError(
                f"bibliography `{path}` is not a file of the site; write its path from the "
                "site's directory (postil.yaml's)",
                Location(CONFIG_NAME, line, col),
            )


def _unknown_keys(fields: list[Field]) -> str:
    """Name every unknown key, with the nearest known key as a suggestion (difflib)."""
    named = []
    for fld in fields:
        named.append(f"`{fld.key}` on line {fld.line0 + 1}{did_you_mean(fld.key, _FIELDS)}")
    noun = "key" if len(named) == 1 else "keys"
    return f"unknown {noun} {', '.join(named)}; known keys: {', '.join(sorted(_FIELDS))}"


def _at(fld: Field, check: Callable[[str], str]) -> str:
    """Run a value check on a field's text; its error is reported at the value's position."""
    try:
        return check(as_text(fld))
    except ConfigError as e:
        raise YamlFieldError(e.message, fld.node.start_mark.line, fld.node.start_mark.column) from e


def check_base_url(url: str) -> str:
    """Return `url` ending in "/"; raise `ConfigError` unless it is an absolute http(s) URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(
            f"base_url `{url}` must be an absolute http(s) URL such as https://user.github.io/repo/"
        )
    return url if url.endswith("/") else url + "/"


def _check_timezone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ConfigError(f"unknown timezone `{name}`; use an IANA name like Europe/Berlin") from e
    return name


def config_warnings(config: SiteConfig) -> list[Diagnostic]:
    """Return the warnings about values that cannot be right for a published site.

    A base URL on a `.invalid` host (the placeholder `postil init` writes; RFC 2606 reserves
    the name never to resolve) gives every feed, canonical link and sitemap entry a dead
    address; the warning is at the key's line of `postil.yaml`. `--base-url` replaces it.
    """
    host = urlsplit(config.base_url).hostname or ""
    if host != "invalid" and not host.endswith(".invalid"):
        return []
    return [
        Diagnostic(
            Severity.WARNING,
            key_location(config.root, "base_url"),
            f"base_url `{config.base_url}` is a placeholder; set it to the address the site "
            "will be published at (the GitHub Pages workflow passes its own with --base-url)",
        )
    ]


def key_location(root: Path, key: str) -> Location:
    """Return where top-level `key`'s value is in `root/postil.yaml`, as file:line:col (the
    file alone if the key is not there or the file cannot be read)."""
    try:
        text = (root / CONFIG_NAME).read_text(encoding="utf-8-sig")
        fields = compose_mapping(text.replace("\r\n", "\n")) or []
    except (OSError, UnicodeDecodeError, yaml.YAMLError, YamlFieldError):
        return Location(CONFIG_NAME)
    for fld in fields:
        if fld.key == key:
            mark = fld.node.start_mark
            return Location(CONFIG_NAME, mark.line + 1, mark.column + 1)
    return Location(CONFIG_NAME)
