"""Attribute lists as Pandoc, Quarto and kramdown write them: read, then made safe.

`read_attributes` reads `{#id .class key=value}` (Pandoc, Quarto, Djot) and kramdown's
inline attribute lists `{: .class}` / `{:target="_blank"}`; the grammar is mdit-py-plugins'
(`mdit_py_plugins.attrs.parse`, Djot's), after two widenings it lacks: kramdown's leading
`:` and unquoted values with any non-space character (Pandoc's `width=60%`), and single
quotes (kramdown). `clean_attributes` applies postil's allow-list (see its docstring and
docs/markdown.md, "Attributes").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mdit_py_plugins.attrs.parse import ParseError, parse

_ITEM = re.compile(
    r"""\s*(?:
        (?P<word>[#.][^\s"'={}]+)
      | (?P<key>[A-Za-z_][-\w:]*)=
        (?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s"'{}]+))
      | (?P<dash>-)(?=\s|$)
    )""",
    re.X,
)

KRAMDOWN_WORD = re.compile(r"[#.][\w-]+")
KRAMDOWN_WORDS = re.compile(r"(?:[#.][\w-]+){2,}")
r"""Ids and classes written together in a kramdown list, `{:.circle.shadow}`, `{:#x.wide}`:
kramdown scans its list for them one after another (`ALD_TYPE_CLASS_NAME`, whose names are
`[\w-]`), so each is one (TeXt's documented image styles). Pandoc reads `{.a.b}` as one
class `a.b` (its identifiers hold `.`), so only a kramdown list is split."""

_UNESCAPE = re.compile(r'\\([_*"])')
_BRACES_AWAY = str.maketrans("{}", "\ue000\ue001")
_BRACES_BACK = str.maketrans("\ue000\ue001", "{}")

EVENT_HANDLER = re.compile(r"on[a-z]+\Z")
"""Attribute names that run script (`onclick`, `onerror`, …): always dropped."""

URL_ATTRIBUTES = frozenset(
    {"href", "src", "srcset", "action", "formaction", "xlink:href", "poster", "background"}
    | {"cite", "ping", "manifest", "codebase", "data", "longdesc", "usemap", "formtarget"}
)
"""Attributes holding a URL: the Markdown link or image sets its own, attributes may not."""

HTML_ATTRIBUTES = frozenset(
    {"id", "class", "title", "lang", "dir", "role", "width", "height", "alt", "target"}
    | {"rel", "loading", "decoding", "style", "hidden", "tabindex", "translate", "align"}
)
"""Attributes kept as written (after the checks of `clean_attributes`)."""

UNSAFE_STYLE = re.compile(
    r"url\s*\(|expression\s*\(|javascript:|@import|behavio|binding|[\\<]", re.I
)
"""CSS that can load or run something: `url(`, IE's `expression(`, escapes that hide them."""

DATA_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")
"""A name that may become `data-<name>` (Pandoc's rule for attributes HTML does not know)."""

PIXELS = re.compile(r"(\d+)(?:px)?\Z")
"""A width or height in pixels, as the HTML `width`/`height` attributes take it."""


@dataclass(frozen=True)
class Cleaned:
    """Attributes after the allow-list: what is kept and what was dropped, with why."""

    kept: dict[str, str] = field(default_factory=dict)
    dropped: tuple[tuple[str, str], ...] = ()


def attribute_end(src: str, pos: int, end: int | None = None) -> int:
    """Return the index after the `}` closing the attribute list at `src[pos]`, or -1.

    Braces inside quoted values do not count; a line break ends the search (attribute lists
    are one line). `src[pos]` must be `{`.
    """
    end = len(src) if end is None else end
    quote = ""
    for i in range(pos + 1, end):
        char = src[i]
        if char == "\n":
            return -1
        if quote:
            quote = "" if char == quote and src[i - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char == "{":
            return -1
        elif char == "}":
            return i + 1
    return -1


def read_attributes(text: str) -> dict[str, str] | None:
    """Return the attributes of one whole attribute list `{…}`, or None if it is not one.

    `{#id .a .b key=value key2="v w"}` → `{"id": "id", "class": "a b", "key": "value", …}`;
    kramdown's `{: .a}` and `{:key='v'}` read the same. Pandoc's `{-}` is the class
    `unnumbered`. Not attribute lists (None): Liquid and Jinja tags (`{% … %}`, `{{ … }}`),
    kramdown extensions (`{::comment}`), empty braces, and anything the grammar rejects.
    """
    if len(text) < 3 or text[0] != "{" or text[-1] != "}" or text[1] in "%{" or text[1:3] == "::":
        return None
    body = text[1:-1]
    kramdown = body.startswith(":")
    body = body[1:] if kramdown else body
    parts, pos = [], 0
    while pos < len(body):
        if not body[pos:].strip():
            break
        match = _ITEM.match(body, pos)
        if not match:
            return None
        if kramdown and match["word"] and KRAMDOWN_WORDS.fullmatch(match["word"]):
            parts += KRAMDOWN_WORD.findall(match["word"])  # `{:.a.b}`: classes a and b
        else:
            parts.append(_djot_item(match))
        pos = match.end()
    if not parts:
        return None
    try:
        _, attrs = parse("{" + " ".join(parts) + "}")
    except ParseError:
        return None
    return {key: _restore(value) for key, value in attrs.items()} or None


def _restore(value: str) -> str:
    r"""Undo `_djot_item`'s stand-ins for braces; drop the backslash of `\"` (Djot keeps it,
    Pandoc and kramdown do not) and of Markdown's `\_` and `\*` (kramdown posts write
    `{:target="\_blank"}`). Other backslashes stay: a title may hold TeX."""
    return _UNESCAPE.sub(r"\1", value).translate(_BRACES_BACK)


def _djot_item(match: re.Match[str]) -> str:
    """Return one item of an attribute list in the Djot form mdit-py-plugins parses.

    Pandoc's identifiers hold `.` (its Markdown reader's `identifier`: letters, digits and
    `-_:.`), so Quarto posts label `{#exr-2.15}` and `{#fig-exr-3.21-loc}`; Djot's grammar
    ends an id at `.`, so such an id is handed over as `id="…"`."""
    if match["word"]:
        word = match["word"]
        return f'id="{word[1:]}"' if word[0] == "#" and "." in word else word
    if match["dash"]:
        return ".unnumbered"
    value = match["dq"] if match["dq"] is not None else match["sq"] or match["bare"] or ""
    if match["sq"] is not None:
        value = value.replace('"', '\\"')
    # Djot's grammar refuses braces in values; TeX in a title (`title="$\sqrt{d}$"`) has them.
    return f'{match["key"]}="{value.translate(_BRACES_AWAY)}"'


def clean_attributes(attrs: dict[str, str]) -> Cleaned:
    """Apply postil's allow-list to attributes read from a post.

    Kept as written: `id`, `class`, `title`, `lang`, `dir`, `role`, `alt`, `rel`, `loading`,
    `decoding`, `hidden`, `tabindex`, `translate`, `align`, `data-*`, `aria-*`; `target`
    (a `_blank` target also gets `rel="noopener"`); `style` unless it can load or run
    something (`url(`, `expression(`, `javascript:`, `@import`, backslash escapes).
    `width`/`height`: a number of pixels (`300`, `300px`) stays the attribute, any other
    length (`60%`, `20em`) becomes CSS in `style` (Pandoc's HTML writer does the same).
    Other names HTML does not know become `data-<name>` (Pandoc's rule: Quarto's
    `fig-align=center` → `data-fig-align`). Dropped, with the reason: event handlers
    (`on*`), URL attributes (`href`, `src`, …: the link or image gives its own) and names
    that are not `[a-z][a-z0-9-]*`.
    """
    kept: dict[str, str] = {}
    dropped: list[tuple[str, str]] = []
    for raw_name, value in attrs.items():
        name = raw_name.lower()
        reason = _refusal(name, value)
        if reason:
            dropped.append((raw_name, reason))
        elif name in ("width", "height"):
            _dimension(kept, name, value)
        elif name in HTML_ATTRIBUTES or name.startswith(("data-", "aria-")):
            kept[name] = value if name != "style" else _join_style(kept.get("style"), value)
        else:
            kept[f"data-{name}"] = value
    if kept.get("target") == "_blank":
        rel = kept.get("rel", "").split()
        kept["rel"] = " ".join(rel + ["noopener"] if "noopener" not in rel else rel)
    return Cleaned(kept, tuple(dropped))


def _refusal(name: str, value: str) -> str:
    """Return why attribute `name=value` may not be written into a page, or ""."""
    if EVENT_HANDLER.match(name):
        return "event handlers run script, which posts may not carry"
    if name in URL_ATTRIBUTES:
        return "URLs come from the Markdown link or image itself"
    if name == "style" and UNSAFE_STYLE.search(value):
        return "this CSS could load or run something (url(), expression(), escapes)"
    known = name in HTML_ATTRIBUTES or name.startswith(("data-", "aria-"))
    if not known and not DATA_NAME.match(name):
        return "not an HTML attribute name"
    return ""


def _dimension(kept: dict[str, str], name: str, value: str) -> None:
    """Keep a pixel width/height as the attribute, any other length as CSS (Pandoc)."""
    value = value.strip()
    pixels = PIXELS.match(value)
    if pixels:
        kept[name] = pixels.group(1)
    elif value and not UNSAFE_STYLE.search(value) and ";" not in value:
        kept["style"] = _join_style(kept.get("style"), f"{name}:{value}")


def _join_style(before: str | None, style: str) -> str:
    """Return two CSS declaration lists as one."""
    if not before:
        return style
    return before.rstrip("; ") + ";" + style
