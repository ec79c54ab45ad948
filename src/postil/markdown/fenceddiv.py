"""Pandoc's fenced divs (`::: {.class}` … `:::`), nested as Pandoc nests them.

A div opens with three or more colons and attributes (or a word), and closes with a line of
at least as many colons and nothing else. The opening fence may end in colons too
(`::: Warning ::::::`, `::: {.note} :::`): Pandoc's manual, "Extension: fenced_divs": "The
attributes may optionally be followed by another string of consecutive colons" (its
reader's `divFenceStart` skips them); they are not part of the attributes or a title.
Divs nest: an opening line inside a div opens an inner one, so a `:::` closes the innermost
open div, whatever the number of colons
(Pandoc's manual: "Fenced divs can be nested. Opening fences are distinguished because they
*must* have attributes"); one may open on a list item's first line (`- ::: {.b}`), and
the item's indented `:::` closes it. A `:::` line inside a code fence of the div is code. The tokens
are those of mdit-py-plugins' container plugin (`container_div_open`/`_close`, the
parameters in `info`), which `postil.markdown.callout` turns into callouts and divs.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.common.utils import isStrSpace
from markdown_it.rules_block import StateBlock

FENCE = re.compile(r"(:{3,})(.*)")
TRAILING_COLONS = re.compile(r"(?:(?<=\})[ \t]*|[ \t]+):+[ \t]*$")
"""The colons an opening fence may end in, after its attributes or its word."""
CODE_FENCE = re.compile(r"(`{3,}|~{3,})")
ITEM_OPENING = re.compile(r"(?:[-+*]|\d{1,9}[.)])[ \t]+:{3,}(.*)")
"""A list item whose first line opens a div: its closing `:::`, indented as the item's
text, closes that div, not the one the list is in."""


def fenced_div_plugin(md: MarkdownIt, validate: Callable[[str], bool]) -> None:
    """Register the fenced div block rule; `validate(params)` accepts an opening line's
    text after its colons (attributes, or a word). No CSS classes."""

    def fenced_div(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        opening = _fence(state, start)
        if opening is None or not opening[1].strip() or not validate(opening[1]):
            return False
        if silent:
            return True
        close, closed = _closing_line(state, start, end, validate)
        old_parent, old_max = state.parentType, state.lineMax
        state.parentType, state.lineMax = "container", close
        token = state.push("container_div_open", "div", 1)
        token.markup, token.block, token.info = opening[0], True, opening[1]
        token.map = [start, close]
        state.md.block.tokenize(state, start + 1, close)
        token = state.push("container_div_close", "div", -1)
        token.markup, token.block = ":" * len(opening[0]), True
        state.parentType, state.lineMax = old_parent, old_max
        state.line = close + (1 if closed else 0)
        return True

    md.block.ruler.before(
        "fence", "fenced_div", fenced_div, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


def _fence(state: StateBlock, line: int) -> tuple[str, str] | None:
    """Return (colons, the rest) of a colon fence line at the block's indent, else None."""
    if state.sCount[line] - state.blkIndent >= 4:
        return None  # an indented code block
    start, end = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    if not state.src.startswith(":::", start):
        return None
    found = FENCE.match(state.src, start, end)
    if found is None:
        return None
    rest = found.group(2)
    if rest.endswith(":") and (trimmed := TRAILING_COLONS.sub("", rest)).strip():
        rest = trimmed  # `::: Warning ::::::` (but `::: :::` is no opening fence)
    return found.group(1), rest


def _closing_line(
    state: StateBlock, start: int, end: int, validate: Callable[[str], bool]
) -> tuple[int, bool]:
    """Return (the line the div opened at `start` ends before, whether that line is its
    closing fence): with none, the div runs to the end of its parent block (`end`, or a
    line indented less than the block), as markdown-it's containers do."""
    depth, code = 1, ""
    for line in range(start + 1, end):
        first = state.bMarks[line] + state.tShift[line]
        if first < state.eMarks[line] and state.sCount[line] < state.blkIndent:
            return line, False  # a line less indented than the div ends its parent block
        text = state.src[first : state.eMarks[line]]
        fence = CODE_FENCE.match(text)
        if code:
            if fence and fence.group(1)[0] == code[0] and len(fence.group(1)) >= len(code):
                code = "" if not text[fence.end() :].strip() else code
            continue
        if fence and state.sCount[line] - state.blkIndent < 4:
            code = fence.group(1)
            continue
        colons = _fence(state, line)
        if colons is None:
            item = ITEM_OPENING.match(text)  # `- ::: {.b}`: a div in a list item (jgm/pandoc#4281)
            depth += bool(item and validate(TRAILING_COLONS.sub("", item.group(1))))
            continue
        rest = colons[1]
        if all(isStrSpace(c) for c in rest):
            depth -= 1
            if depth == 0:
                return line, True
        elif validate(rest):
            depth += 1
    return end, False
