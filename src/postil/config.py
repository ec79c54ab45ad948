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
    ConfigFailed,
    Diagnostic,
    Location,
    Severity,
    did_you_mean,
    read_utf8,
)
from postil.macrodefs import read_macros
from postil.model import DEFAULT_MERMAID_URL, SiteConfig
from postil.yamlnodes import (
    Field,
    YamlFieldError,
    as_bool,
    as_int,
    as_text,
    as_text_list,
    compose_mapping,
    each_error,
    mapping_fields,
    read_all,
    yaml_error_location,
    yaml_error_message,
)

CONFIG_NAME = "postil.yaml"


def _nav(field: Field) -> tuple[tuple[str, str], ...]:
    """Read `nav:`, a list of `{label: …, url: …}`; every item's problem at once."""
    if not isinstance(field.node, yaml.SequenceNode):
        raise YamlFieldError("`nav` must be a list of `{label: …, url: …}`", field.line0, 0)
    items = [
        Field("nav", item, item.start_mark.line, item.start_mark.column)
        for item in field.node.value
    ]
    return tuple(pair for _, pair in read_all(items, _nav_item))


def _nav_item(item: Field) -> tuple[str, str]:
    """Read one `nav` item: (label, url)."""
    entry = {f.key: as_text(f) for f in mapping_fields(item.node, "each `nav` item")}
    if set(entry) != {"label", "url"}:
        raise YamlFieldError(
            "each `nav` item needs exactly `label` and `url`", item.line0, item.col0
        )
    return entry["label"], entry["url"]


MATH_KEYS = ("macros", "macros_from", "double_dollar_in_text", "code_spans")
DOUBLE_DOLLAR_READINGS = ("inline", "display")
CODE_SPAN_READINGS = ("code", "math")


def _math(field: Field) -> dict[str, Any]:
    """Read `math:`: `macros`, `double_dollar_in_text` and `code_spans` (docs/math.md,
    "Syntax"); every unknown key and bad value at once (`read_all`)."""
    pairs = read_all(mapping_fields(field.node, "`math`"), _math_value)
    return {f"math_{sub.key}": value for sub, value in pairs}  # SiteConfig's names


def _math_value(sub: Field) -> Any:
    """Read one key of `math:` (`_math`'s pairs are its key and this value)."""
    if sub.key == "macros":
        return read_macros(sub)
    if sub.key == "macros_from":  # read by `_macro_files` once the site's folder is known
        return tuple(path.strip() for path in as_text_list(sub) if path.strip())
    if sub.key == "double_dollar_in_text":
        return _double_dollar(sub)
    if sub.key == "code_spans":
        return _code_spans(sub)
    raise YamlFieldError(
        f"unknown key `math.{sub.key}`; known: {', '.join(MATH_KEYS)}", sub.line0, sub.col0
    )


def _double_dollar(fld: Field) -> str:
    """Read `math.double_dollar_in_text`: `inline` or `display`."""
    meaning = "`math.double_dollar_in_text` is `inline` (kramdown, Jekyll) or `display` (Pandoc)"
    return _one_of(fld, DOUBLE_DOLLAR_READINGS, meaning)


def _code_spans(fld: Field) -> str:
    """Read `math.code_spans`: `code` or `math` (`markdown/mathcode.py`)."""
    meaning = (
        "`math.code_spans` is `code` (CommonMark) or `math` (math-code.js: `` `$x$` `` is a "
        "formula)"
    )
    return _one_of(fld, CODE_SPAN_READINGS, meaning)


def _one_of(fld: Field, readings: tuple[str, ...], meaning: str) -> str:
    """Return the field's text when it is one of `readings`; else raise at its value with
    `meaning` (what the key is) and what was written."""
    reading = as_text(fld)
    if reading not in readings:
        raise YamlFieldError(
            f"{meaning}, not `{reading}`", fld.node.start_mark.line, fld.node.start_mark.column
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
    nested mapping's values by dotted name (`social.github`), in the order written; every
    value that is a list at once (`read_all`)."""
    return tuple(_param_values(fld.node, ""))


def _param_values(node: yaml.Node, prefix: str) -> list[tuple[str, str]]:
    """Return the (dotted name, text) pairs of one mapping of `params:`."""

    def read(sub: Field) -> list[tuple[str, str]]:
        if isinstance(sub.node, yaml.MappingNode):
            return _param_values(sub.node, f"{prefix}{sub.key}.")
        if isinstance(sub.node, yaml.SequenceNode):
            raise YamlFieldError(
                f"`params.{prefix}{sub.key}` must be text or a mapping, not a list: a "
                "post shows a value as text",
                sub.node.start_mark.line,
                sub.node.start_mark.column,
            )
        return [(prefix + sub.key, as_text(sub))]

    subs = mapping_fields(node, f"`params{'.' + prefix[:-1] if prefix else ''}`")
    return [pair for _, pairs in read_all(subs, read) for pair in pairs]


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
    "mermaid": ("mermaid_url", lambda f: _at(f, _check_mermaid)),
    "params": ("params", _params),
}
_REQUIRED = ("title", "author", "base_url")


def load_config(root: Path, base_url: str | None = None) -> SiteConfig:
    """Read `root/postil.yaml` and return the validated `SiteConfig`.

    Every problem of the file is found in one run, as the build collects every post's
    errors before it fails (`build.run`): a site moved from another generator often has
    several, and fixing them one rebuild at a time is slow.

    Args:
        root: the site directory.
        base_url: overrides `base_url` from the file (the `--base-url` flag).

    Raises:
        ConfigError: the file is missing, cannot be read or is not UTF-8; the flag's
            base URL is no absolute http(s) URL.
        ConfigFailed: every problem of the file, each at its line and column with how to
            fix it: unknown and repeated keys, values of the wrong type, missing required
            keys, `bibliography:` files that are not in the site (a YAML syntax error
            alone: nothing after it can be read).
    """
    path = root / CONFIG_NAME
    if not path.exists():
        raise ConfigError(f"no {CONFIG_NAME} in {root}; create one with title, author, base_url")
    text = read_utf8(path, CONFIG_NAME, ConfigError).replace("\r\n", "\n")
    problems: list[YamlFieldError] = []
    fields = _fields(text, problems)
    values = _values(fields, problems)
    if "bibliography" in values:
        problems += _missing_bibliography(root, fields)
    found: list[Diagnostic] = []  # problems inside the macro files, at their places
    if values.get("math_macros_from"):
        values["math_macros"] = _macro_files(root, fields, values, problems, found)
    if base_url is not None:
        values["base_url"] = base_url
    written = {fld.key for fld in fields} | set(values)  # a bad value is no missing key
    problems += [_missing_key(key) for key in _REQUIRED if key not in written]
    if problems or found:
        raise ConfigFailed(sorted(_diagnostics(problems, text) + found, key=_config_first))
    if base_url is not None:
        try:
            values["base_url"] = check_base_url(base_url)
        except ConfigError as e:
            raise ConfigError(f"--base-url: {e.message}") from e
    return SiteConfig(root=root, **values)


def value_location(root: Path, key: str, *inside: int | str) -> Location:
    """Return where a value of the site's `postil.yaml` is written, for a message about it:
    `key`'s value, or through `inside` a list item's or a mapping's value in it
    (`value_location(root, "nav", 2, "url")`: the third nav item's `url`).

    The file was read by `load_config` before; one that cannot be read again, or no longer
    holds that value (an edit since), gives the file without a line.
    """
    try:
        text = (root / CONFIG_NAME).read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        node = next((f.node for f in compose_mapping(text) or () if f.key == key), None)
    except (OSError, ValueError, yaml.YAMLError, YamlFieldError):
        return Location(CONFIG_NAME)
    for step in inside:
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step] if step < len(node.value) else None
        elif isinstance(node, yaml.MappingNode) and isinstance(step, str):
            node = next((v for k, v in node.value if k.value == step), None)
        else:
            node = None
    if node is None:
        return Location(CONFIG_NAME)
    return Location(CONFIG_NAME, node.start_mark.line + 1, node.start_mark.column + 1)


def _fields(text: str, problems: list[YamlFieldError]) -> list[Field]:
    """Return the file's top-level fields, a repeated key, an unknown key and a document
    that is no mapping added to `problems`.

    Raises:
        ConfigFailed: a YAML syntax error (nothing after it can be read).
    """
    repeated: list[Field] = []
    try:
        fields = compose_mapping(text, repeated) or []
    except yaml.MarkedYAMLError as e:
        where = yaml_error_location(e, CONFIG_NAME, 1)
        raise ConfigFailed([_diagnostic(where, yaml_error_message(e), text)]) from e
    except YamlFieldError as e:
        problems.append(e)
        return []
    for earlier in repeated:
        later = next(fld for fld in fields if fld.key == earlier.key)
        message = (
            f"duplicate key `{later.key}`: it is already set on line {earlier.line0 + 1}; keep one"
        )
        problems.append(YamlFieldError(message, later.line0, later.col0))
    problems += [_unknown_key(fld) for fld in fields if fld.key not in _FIELDS]
    return fields


def _values(fields: list[Field], problems: list[YamlFieldError]) -> dict[str, Any]:
    """Return the `SiteConfig` values of the known fields; each field that cannot be read
    adds its problems (all of them: `each_error`) to `problems`."""
    values: dict[str, Any] = {}
    for fld in fields:
        if fld.key not in _FIELDS:
            continue
        name, convert = _FIELDS[fld.key]
        try:
            value = convert(fld)
        except YamlFieldError as e:
            problems += each_error(e)
            continue
        if name:
            values[name] = value
        else:
            values.update(value)
    return values


def _missing_bibliography(root: Path, fields: list[Field]) -> list[YamlFieldError]:
    """Return a problem at each path of `bibliography:` that is no file of the site."""
    fld = next(fld for fld in fields if fld.key == "bibliography")
    nodes = fld.node.value if isinstance(fld.node, yaml.SequenceNode) else [fld.node]
    return [
        YamlFieldError(
            f"bibliography `{node.value.strip()}` is not a file of the site; write its path "
            "from the site's directory (postil.yaml's)",
            node.start_mark.line,
            node.start_mark.column,
        )
        for node in nodes
        if node.value.strip() and not (root / node.value.strip()).is_file()
    ]


def _macro_files(
    root: Path,
    fields: list[Field],
    values: dict[str, Any],
    problems: list[YamlFieldError],
    found: list[Diagnostic],
) -> tuple[tuple[str, str], ...]:
    """Return the site's macros: those of the files `math.macros_from` names, in order
    (`postil.macrofiles`), then `math.macros` (which wins). A path that is no file of the
    site adds a problem at its value in postil.yaml; a problem inside a file, an error at
    its place there, to `found`."""
    from postil.macrofiles import MacroFileError, read_macro_file

    math = next(fld for fld in fields if fld.key == "math")
    sub = next(f for f in mapping_fields(math.node, "`math`") if f.key == "macros_from")
    nodes = sub.node.value if isinstance(sub.node, yaml.SequenceNode) else [sub.node]
    macros: dict[str, str] = {}
    for node in nodes:
        rel = str(node.value).strip()
        at = (node.start_mark.line, node.start_mark.column)
        if not rel:
            continue
        if not (root / rel).is_file():
            message = (
                f"`math.macros_from`: `{rel}` is not a file of the site; write its path from "
                "the site's directory (postil.yaml's)"
            )
            problems.append(YamlFieldError(message, *at))
            continue
        try:
            macros |= read_macro_file(root / rel, rel)
        except MacroFileError as e:
            if e.line:
                where = Location(rel, e.line, e.col)
                found.append(Diagnostic(Severity.ERROR, where, e.message, e.source_line))
            else:
                problems.append(YamlFieldError(e.message, *at))
    return tuple(sorted((macros | dict(values.get("math_macros", ()))).items()))


def _config_first(diagnostic: Diagnostic) -> tuple[bool, Location]:
    """Sort key of a config's problems: postil.yaml's first, then the files it names."""
    return diagnostic.location.path != CONFIG_NAME, diagnostic.location


def _missing_key(key: str) -> YamlFieldError:
    example = {"title": "My notes", "author": "Ada Lovelace", "base_url": "https://example.org/"}
    return YamlFieldError(f"missing key `{key}`; add a line `{key}: {example[key]}`", 0, 0)


def _diagnostics(problems: list[YamlFieldError], text: str) -> list[Diagnostic]:
    """Return the problems as errors at their places in postil.yaml, in file order, each
    with its source line for the excerpt."""
    found = [
        _diagnostic(Location(CONFIG_NAME, p.line0 + 1, p.col0 + 1), p.message, text)
        for p in problems
    ]
    return sorted(found, key=lambda d: d.location)


def _diagnostic(where: Location, message: str, text: str) -> Diagnostic:
    lines = text.split("\n")
    line = lines[where.line - 1] if 0 < where.line <= len(lines) else ""
    return Diagnostic(Severity.ERROR, where, message, line)


def _unknown_key(fld: Field) -> YamlFieldError:
    """Return the problem of a key postil does not know, with the nearest known key as a
    suggestion (`errors.did_you_mean`), else the known keys."""
    suggestion = did_you_mean(fld.key, _FIELDS)
    if suggestion:
        message = f"unknown key `{fld.key}`{suggestion}"
    else:
        message = f"unknown key `{fld.key}`; known keys: {', '.join(sorted(_FIELDS))}"
    return YamlFieldError(message, fld.line0, fld.col0)


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


def _check_mermaid(value: str) -> str:
    """Return the `mermaid:` setting as the script's URL: `false` → "" (diagrams shown as
    their source), `true` → `DEFAULT_MERMAID_URL`, else an absolute http(s) URL or a path
    from the site's root (`/js/mermaid.esm.min.mjs`, a copy the site publishes itself).

    Raises:
        ConfigError: anything else (a relative path, another scheme).
    """
    text = value.strip()
    if text.lower() in ("true", "false"):
        return DEFAULT_MERMAID_URL if text.lower() == "true" else ""
    parts = urlsplit(text)
    absolute = parts.scheme in ("http", "https") and bool(parts.netloc)
    if absolute or not parts.scheme and not parts.netloc and text.startswith("/"):
        return text
    raise ConfigError(
        f"mermaid `{value}` must be true, false, an http(s) URL of Mermaid's ES module "
        f"(default {DEFAULT_MERMAID_URL}) or a path from the site's root such as "
        "/js/mermaid.esm.min.mjs"
    )


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
