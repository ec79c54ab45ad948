"""Franklin.jl's page variables: `@def` lines and a `+++` block of Julia assignments.

Franklin (a static site generator of the Julia community, franklinjl.org, "Page variables")
sets a page's variables two ways, and a page may use both:

    +++
    title = "Inference for epidemic models"
    date = Date(2023, 4, 22)
    tags = ["julia", "bayes"]
    +++
    @def hascode = true
    @def rss = "A short description."

The `+++` block is Julia code, not TOML: its values are Julia expressions (`Date(2023, 4,
22)`, `true`, vectors `["a", "b"]`), so Hugo's TOML reader stopped the build at the first
`Date(`. Each `@def name = value` line sets one variable; Franklin reads them anywhere in the
page, and pages write them first. postil reads both into front matter fields, the `+++`
block only where it is no TOML (`read_julia_block`), and `@def` lines that open the body
(`read_def_lines`). A value is a Julia literal (`julia_value`): a string, a number, `true` or
`false`, `nothing`, a vector or tuple of literals, `Date(y, m, d)` or `Date("y-m-d")`; any
other expression is kept as its text, which the field's own rule then reports; a `# comment`
after a value is Julia's and left out (`strip_comment`).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from postil.content.headers import Header, _node
from postil.errors import ContentError, Location
from postil.model import SourceFile
from postil.yamlnodes import Field

DEF_LINE = re.compile(r"@def\s+([A-Za-z_]\w*)\s*=\s*(.*?)\s*")
"""A Franklin `@def name = value` line; groups: the name, the value as written."""

ASSIGNMENT = re.compile(r"(?:const\s+)?([A-Za-z_]\w*)\s*=(?!=)\s*(.*?)\s*")
"""One assignment of a `+++` block: `name = value`."""

JULIA_STATEMENT = re.compile(r"(?:using|import)\s+[\w., :]+|#.*")
"""A line of a `+++` block that sets no variable: `using Dates`, a comment."""

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TRIPLE = re.compile(r'"""((?:[^\\]|\\.)*?)"""', re.S)
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_DATE_CALL = re.compile(r"Date\(\s*(\d{4})\s*,\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)")
_DATE_TEXT = re.compile(r'Date\(\s*"(\d{4})-(\d{1,2})-(\d{1,2})"\s*\)')


def julia_value(text: str) -> Any:
    """Return the Python value of a Julia literal written in a page variable, or `text`
    itself when it is another expression (module docstring).

    `"a\\"b"` -> `a"b`; `Date(2023, 4, 22)` -> a `date`; `["a", "b"]` and `("a", "b")` ->
    a list; `true` -> True; `nothing` -> None; `3`, `2.5` -> numbers.
    """
    text = text.strip()
    triple = _TRIPLE.fullmatch(text)
    if triple:  # Julia drops a newline right after the opening quotes
        return re.sub(r"\\(.)", r"\1", triple.group(1).removeprefix("\n"))
    string = _STRING.fullmatch(text)
    if string:
        return re.sub(r"\\(.)", r"\1", string.group(1))
    if text in ("true", "false"):
        return text == "true"
    if text == "nothing":
        return None
    if _NUMBER.fullmatch(text):
        return float(text) if re.search(r"[.eE]", text) else int(text)
    found = _DATE_CALL.fullmatch(text) or _DATE_TEXT.fullmatch(text)
    if found:
        try:
            return date(*(int(part) for part in found.groups()))
        except ValueError:
            return text
    if len(text) >= 2 and (text[0], text[-1]) in (("[", "]"), ("(", ")")):
        items = _split_items(text[1:-1])
        if items is not None:
            values = [julia_value(item) for item in items]
            unread = [
                item
                for item, value in zip(items, values, strict=True)
                if isinstance(value, str) and not _STRING.fullmatch(item.strip())
            ]
            if not unread:  # every item a literal; else the whole is an expression
                return values
    return text


def strip_comment(text: str) -> str:
    """Return a Julia value without the `# comment` after it (a `#` in a string is text)."""
    if "#" not in text:
        return text
    quoted = ""
    i = 0
    while i < len(text):
        if quoted:
            if text[i] == "\\":
                i += 1
            elif text.startswith(quoted, i):
                i += len(quoted) - 1
                quoted = ""
        elif text.startswith('"""', i):
            quoted, i = '"""', i + 2
        elif text[i] == '"':
            quoted = '"'
        elif text[i] == "#":
            return text[:i].rstrip()
        i += 1
    return text


def _glued_to_string(written: str) -> bool:
    """Tell if a value's opening string is followed at once by a name, which neither TOML
    nor Julia reads: `title = "hello"date = 2015-08-17`, a line Hugo's archetype once wrote
    without its line break (gohugoio/hugo#419); read as Julia text it was the title, and the
    date was lost silently."""
    string = _STRING.match(written)
    return string is not None and bool(re.match(r"\s*[A-Za-z_]", written[string.end() :]))


def _unfinished(text: str) -> bool:
    """Tell if a value goes on to the next line: a triple-quoted string not closed, or
    more brackets opened than closed outside strings."""
    if text.count('"""') % 2:
        return True
    plain = _STRING.sub("", _TRIPLE.sub("", text))
    return sum(plain.count(c) for c in "([{") > sum(plain.count(c) for c in ")]}")


def _unclosed_at(text: str) -> tuple[str, int] | None:
    """Return the quote or bracket of `text` that is never closed and its index, or None:
    an odd `\"\"\"`, a `"` whose string does not end, a `(`, `[` or `{` never matched."""
    openers: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        for quote in ('"""', '"'):
            if text.startswith(quote, i):
                end = text.find(quote, i + len(quote))
                while end != -1 and quote == '"' and text[end - 1] == "\\":
                    end = text.find(quote, end + 1)
                if end == -1:
                    return quote, i
                i = end + len(quote)
                break
        else:
            if text[i] in "([{":
                openers.append((text[i], i))
            elif text[i] in ")]}" and openers:
                openers.pop()
            i += 1
    return openers[-1] if openers else None


def _check_closed(written: str, name: str, rel: str, line: int, col0: int) -> None:
    """Raise an error at the quote or bracket of a `+++` value that is never closed
    (`title = "Draft`, `tags = ["a"` up to the closing `+++`): no TOML and no Julia
    either, so neither Hugo nor Franklin builds it; read as text, its value would silently
    keep the quote (session 44)."""
    found = _unclosed_at(written)
    if found is None:
        return
    opener, index = found
    first_line = written.split("\n", 1)[0]
    col = col0 + index + 1 if index < len(first_line) else col0 + 1
    closer = {"(": ")", "[": "]", "{": "}"}.get(opener, opener)
    raise ContentError(
        f"`{name}`: this `{opener}` is never closed before the closing `+++`; close it with"
        f" `{closer}`",
        Location(rel, line, col),
    )


def _split_items(inner: str) -> list[str] | None:
    """Split a vector's or tuple's content at its top-level commas (not in strings or
    brackets); None when its brackets or quotes do not pair up."""
    items, depth, start, quoted, i = [], 0, 0, False, 0
    while i < len(inner):
        char = inner[i]
        if quoted:
            if char == "\\":
                i += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
        i += 1
    if quoted or depth:
        return None
    last = inner[start:]
    return [item for item in [*items, last] if item.strip()]


def read_julia_block(source: SourceFile, error: ContentError) -> Header:
    """Read a `+++` block that is no TOML as Franklin's Julia assignments.

    Args:
        source: the page, whose first line is `+++`.
        error: TOML's error for the block, raised again when the block is no Franklin block
            either (a line neither an assignment nor a `using`).

    Returns:
        The header: one field per assignment, its position the value's, and the body after
        the block with its leading `@def` lines read too (`read_def_lines`).
    """
    lines = source.text.split("\n")
    end = next(i for i in range(1, len(lines)) if lines[i].rstrip() == "+++")
    fields: list[Field] = []
    block = lines[1:end]
    line0 = 0
    while line0 < len(block):
        line = block[line0]
        assignment = ASSIGNMENT.fullmatch(line.strip())
        if assignment is None:
            if line.strip() and not JULIA_STATEMENT.fullmatch(line.strip()):
                raise error
            line0 += 1
            continue
        col0 = line.index(assignment.group(2), assignment.end(1)) if assignment.group(2) else 0
        written, more = strip_comment(assignment.group(2)), line0 + 1
        while _unfinished(written) and more < len(block):  # a vector or string goes on
            written, more = written + "\n" + strip_comment(block[more]), more + 1
        if not written or written.startswith("=") or _glued_to_string(written):
            raise error  # no Julia: TOML's error says more (`date = = 2024`)
        _check_closed(written, assignment.group(1), source.rel, line0 + 2, col0)
        value = julia_value(written)  # another expression (`1 + 2`, `:sym`) kept as text
        if value is not None:
            fields.append(Field(assignment.group(1), _node(value, line0, col0), line0, 0))
        line0 = more
    header = Header(fields, "\n".join(lines[end + 1 :]), end + 2, 2, "julia")
    return with_def_lines(header)


def with_def_lines(header: Header) -> Header:
    """Return `header` with the `@def` lines of its body read as fields too (after the
    header's own: Franklin sets the later one last). Those that open the body (with the
    blank lines between them) are taken out of it; one further down (after a command such
    as `\\enabletheorems`) stays in the body, where `postil.markdown.franklin` shows it as
    nothing. Lines in fenced code are text."""
    if "@def" not in header.body:
        return header
    lines = header.body.split("\n")
    found = read_def_lines(lines, header.body_line - header.first_line)
    if not found:
        return header
    fields = [*(header.fields or []), *(field for field, _ in found if field is not None)]
    opening = {index for _, index in found}
    skip = 0  # the `@def` lines that open the body, and the blank lines around them
    while skip < len(lines) and (skip in opening or not lines[skip].strip()):
        skip += 1
    body = "\n".join(lines[skip:])
    syntax = "julia"  # a Franklin page, whatever its `+++` block parsed as
    return Header(fields, body, header.body_line + skip, header.first_line, syntax)


FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
"""A fenced code block's opening or closing line (CommonMark)."""


def read_def_lines(lines: list[str], line0: int) -> list[tuple[Field | None, int]]:
    """Read the `@def name = value` lines of `lines` outside fenced code.

    Args:
        lines: the page's body lines.
        line0: the 0-based header line of `lines[0]` (fields are placed relative to the
            header's first line, `Header.first_line`).

    Returns:
        Each field (None for one set to `nothing`) with the index of its line in `lines`.
    """
    found: list[tuple[Field | None, int]] = []
    fence = ""
    for i, line in enumerate(lines):
        opening = FENCE.match(line)
        if opening:
            mark = opening.group(1)
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark) :]:
                fence = ""
            continue
        if fence or not line.startswith("@def"):
            continue
        match = DEF_LINE.fullmatch(line.strip())
        if match is None:
            continue
        col0 = line.index(match.group(2)) if match.group(2) else 0
        value = julia_value(strip_comment(match.group(2)))  # None: `nothing`, unset
        node = None if value is None else _node(value, line0 + i, col0)
        found.append((None if node is None else Field(match.group(1), node, line0 + i, 0), i))
    return found
