"""Read MDX's JavaScript pieces in Markdown text: JSX tags and `{…}` expressions.

Only as much JavaScript as MDX's own tokenizer needs (micromark-extension-mdx-jsx and
-mdx-expression, https://mdxjs.com/docs/what-is-mdx/): where a tag or an expression ends,
its attributes' string values, and whether an expression is a comment or a string literal.
postil runs no JavaScript, so anything else is only measured, never evaluated.
"""

from __future__ import annotations

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
