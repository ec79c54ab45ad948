"""Read MDX's JavaScript pieces in Markdown text: JSX tags and `{…}` expressions.

Only as much JavaScript as MDX's own tokenizer needs (micromark-extension-mdx-jsx and
-mdx-expression, https://mdxjs.com/docs/what-is-mdx/): where a tag or an expression ends,
its attributes' string values, and whether an expression is a comment or a string literal.
postil runs no JavaScript, so anything else is only measured, never evaluated.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:[.:-][\w$]+)*")
_ATTRIBUTE = re.compile(r"[A-Za-z_$][\w$:.-]*")
_SPACE = re.compile(r"\s*")
_STRING = re.compile(r"""\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`$\\]*)`)\s*""")
_COMMENT = re.compile(r"\s*(?:/\*(.*?)\*/\s*)+", re.DOTALL)
_ESCAPE = re.compile(r"\\(.)")


@dataclass(frozen=True)
class JsxTag:
    """A JSX tag as written: `<Tabs groupId="os">`, `</Tabs>`, `<Image src="a.png" />`.

    Attributes:
        name: the element's name (`Tabs`, `Foo.Bar`); "" for a fragment `<>`.
        attrs: attribute name -> its string value (`label="A"` and `label={'A'}` both
            give "A", `width={300}` "300"; another expression its source text in braces; a
            bare name "true").
        closing: a closing tag (`</Tabs>`).
        self_closing: ends with `/>`.
        start, end: offsets of `<` and just after `>` in the text it was read from.
    """

    name: str
    attrs: dict[str, str] = field(default_factory=dict)
    closing: bool = False
    self_closing: bool = False
    start: int = 0
    end: int = 0

    @property
    def component(self) -> bool:
        """Whether MDX reads it as a component (capitalised or dotted name, or a fragment)
        rather than an HTML element (`<div>`, `<details>`)."""
        return not self.name or self.name[0].isupper() or "." in self.name


def read_tag(text: str, start: int) -> JsxTag | None:
    """Return the JSX tag that starts at `text[start]` (a `<`), or None if there is none.

    Attributes may span lines. Returns None for anything MDX would not read as a tag
    (a `<` followed by a space or a digit, an attribute without a closing quote).
    """
    if not text.startswith("<", start):
        return None
    pos = start + 1
    closing = text.startswith("/", pos)
    pos += closing
    name_match = _NAME.match(text, pos)
    name = name_match.group() if name_match else ""
    pos = name_match.end() if name_match else pos
    attrs: dict[str, str] = {}
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if text.startswith("/>", pos) and not closing:
            return JsxTag(name, attrs, closing, True, start, pos + 2)
        if text.startswith(">", pos):
            return JsxTag(name, attrs, closing, False, start, pos + 1)
        if closing or not name:
            return None
        pos = _attribute(text, pos, attrs)
        if pos < 0:
            return None


def _attribute(text: str, pos: int, attrs: dict[str, str]) -> int:
    """Read one attribute (or `{...spread}`) at `pos` into `attrs`; return the offset after
    it, or -1 if it is malformed."""
    if text.startswith("{", pos):
        return expression_end(text, pos) or -1
    found = _ATTRIBUTE.match(text, pos)
    if found is None:
        return -1
    name, pos = found.group(), found.end()
    after = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
    if not text.startswith("=", after):
        attrs[name] = "true"
        return pos
    pos = _SPACE.match(text, after + 1).end()  # type: ignore[union-attr]
    if text.startswith("{", pos):
        end = expression_end(text, pos)
        if end is None:
            return -1
        source = text[pos + 1 : end - 1]
        literal = source.strip() if source.strip().isdigit() else string_literal(source)
        attrs[name] = literal if literal is not None else text[pos:end]
        return end
    quote = text[pos : pos + 1]
    if quote not in ('"', "'"):
        return -1
    close = text.find(quote, pos + 1)
    if close < 0:
        return -1
    attrs[name] = text[pos + 1 : close]
    return close + 1


def expression_end(text: str, start: int) -> int | None:
    """Return the offset just after the `}` that closes the `{` at `text[start]`, or None
    if it is never closed. Braces inside strings, template literals and comments do not
    count (`{'}'}` is one expression)."""
    depth = 0
    pos = start
    while pos < len(text):
        char = text[pos]
        if char in "\"'`":
            pos = _string_end(text, pos)
            if pos < 0:
                return None
            continue
        if text.startswith("/*", pos):
            close = text.find("*/", pos + 2)
            if close < 0:
                return None
            pos = close + 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    return None


def unfinished(code: str) -> bool:
    """Return whether JavaScript `code` leaves a bracket, brace or parenthesis open (outside
    strings and comments): an ESM statement with a blank line inside a function body goes
    on past it."""
    depth = 0
    pos = 0
    while pos < len(code):
        char = code[pos]
        if char in "\"'`":
            pos = _string_end(code, pos)
            if pos < 0:
                return True
            continue
        if code.startswith("/*", pos):
            close = code.find("*/", pos + 2)
            if close < 0:
                return True
            pos = close + 2
            continue
        if code.startswith("//", pos):
            pos = code.find("\n", pos) % (len(code) + 1) or len(code)
            continue
        depth += (char in "([{") - (char in ")]}")
        pos += 1
    return depth > 0


def _string_end(text: str, start: int) -> int:
    """Return the offset after the string or template literal at `text[start]`, or -1."""
    quote = text[start]
    pos = start + 1
    while pos < len(text):
        if text[pos] == "\\":
            pos += 2
            continue
        if text[pos] == quote:
            return pos + 1
        if text[pos] == "\n" and quote != "`":
            return -1
        pos += 1
    return -1


def string_literal(source: str) -> str | None:
    """Return the value of an expression that is one string literal (`'<'`, `"a"`,
    a template literal without `${}`), or None. Backslash escapes give their character."""
    found = _STRING.fullmatch(source)
    if found is None:
        return None
    value = next(group for group in found.groups() if group is not None)
    return _ESCAPE.sub(r"\1", value)


def comment_text(source: str) -> str | None:
    """Return the text of an expression that holds only comments (`/* truncate */`), their
    texts joined and stripped, or None if it holds anything else."""
    found = _COMMENT.fullmatch(source)
    if found is None:
        return None
    return " ".join(part.strip() for part in re.findall(r"/\*(.*?)\*/", source, re.DOTALL))


JSX_NAMES = {"className": "class", "htmlFor": "for"}
"""HTML attributes JSX names otherwise (React's `className`, `htmlFor`)."""
UNITLESS = frozenset(
    "animationIterationCount columnCount flex flexGrow flexShrink fontWeight gridColumn "
    "gridRow lineHeight opacity order orphans widows zIndex zoom fillOpacity strokeOpacity "
    "strokeWidth".split()
)
"""Style properties whose numbers React writes as they are; any other number is pixels
(React DOM's `isUnitlessNumber`: `{width: 300}` is `width: 300px`)."""
_STYLE_ENTRY = re.compile(
    r"""\s*(?:([A-Za-z_$][\w$]*)|"([^"\\]*)"|'([^'\\]*)')\s*:\s*"""
    r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?|-?\.\d+))\s*(?:,|$)"""
)


def html_start_tag(tag: JsxTag) -> tuple[str, list[str]]:
    """Return an HTML element's JSX start tag written as HTML, and the attributes left out.

    String values stay (escaped again), `className`/`htmlFor` are `class`/`for`, a
    `style={{…}}` object of string and number values is its CSS (`{{textAlign:
    'center', width: 300}}` → `text-align: center; width: 300px`, React's reading);
    any other expression (`onClick={f}`, `style={s}`) is left out and named in the list.
    """
    parts, dropped = [tag.name], []
    for name, value in tag.attrs.items():
        if value.startswith("{") and value.endswith("}"):
            css = style_css(value[1:-1]) if name == "style" else None
            if css is None:
                dropped.append(f"{name}={value}")
                continue
            value = css
        parts.append(f'{JSX_NAMES.get(name, name)}="{html.escape(html.unescape(value))}"')
    return "<" + " ".join(parts) + (" />" if tag.self_closing else ">"), dropped


def style_css(source: str) -> str | None:
    """Return the CSS of a JSX style object `{key: 'value', …}` whose values are string or
    number literals, or None for anything else (a variable, a call, a spread)."""
    inner = source.strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        return None
    inner, declarations, pos = inner[1:-1].strip(), [], 0
    while pos < len(inner):
        found = _STYLE_ENTRY.match(inner, pos)
        if found is None or found.end() == pos:
            return None
        key = next(group for group in found.groups()[:3] if group is not None)
        text = next((group for group in found.groups()[3:5] if group is not None), None)
        number = found.group(6)
        if text is None:
            text = number if key in UNITLESS or float(number) == 0 else f"{number}px"
        declarations.append(f"{_css_name(key)}: " + _ESCAPE.sub(r"\1", text))
        pos = found.end()
    return "; ".join(declarations)


def _css_name(key: str) -> str:
    """Return the CSS property a JSX style key names (`maxWidth` → `max-width`,
    `WebkitTransform` → `-webkit-transform`; a quoted `"--gap"` as written)."""
    if key.startswith("-"):
        return key
    kebab = re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), key)
    return "-" + kebab[1:] if kebab.startswith("-") else kebab.lstrip("-")


def jsx_html(html_text: str) -> tuple[str, list[tuple[JsxTag, str]]]:
    """Return raw HTML of an MDX post with each HTML element's start tag that holds a
    JavaScript expression written as HTML (`html_start_tag`), and (tag, attribute) for
    each attribute left out. Components' tags (`<Viewer height={3}>`) stay as written."""
    out, dropped, pos = [], [], 0
    at = html_text.find("={", pos)
    while at >= 0:
        start = html_text.rfind("<", pos, at)
        tag = read_tag(html_text, start) if start >= 0 else None
        if tag is None or tag.component or tag.closing or tag.end <= at:
            at = html_text.find("={", at + 2)
            continue
        written, left_out = html_start_tag(tag)
        out += [html_text[pos:start], written]
        dropped += [(tag, attribute) for attribute in left_out]
        pos = tag.end
        at = html_text.find("={", pos)
    return "".join(out) + html_text[pos:], dropped


def template_text(source: str) -> str | None:
    """Return the text of an expression that is one string: a template literal without
    `${…}` (`` `a $5 line` `` keeps its `$`), or a quoted string (`string_literal`); None
    for anything else."""
    inner = source.strip()
    if len(inner) < 2 or not (inner.startswith("`") and inner.endswith("`")):
        return string_literal(source)
    body = inner[1:-1]
    if "${" in body or re.search(r"(?<!\\)`", body):
        return None
    return _ESCAPE.sub(r"\1", body)
