r"""kramdown's extensions (Jekyll's Markdown): `{::comment}`, `{::nomarkdown}`, `{::options}`, `^`.

kramdown's syntax page, "Extensions": `{::comment}…{:/comment}` is left out of the page,
`{::nomarkdown}…{:/nomarkdown}` is written as it is (raw HTML, no Markdown read; its
formulas typeset, as MathJax typesets them on the page), both as a block of lines or
inside a line, closed by their name or by `{:/}`; `{::options key="value"
/}` sets converter options for the rest of the document. Without this plugin all three
showed as text. A line holding only `^` is kramdown's end-of-block marker (`end_of_block`).
An option changes nothing here: postil's reading is CommonMark's (with
Markdown read in block HTML only where CommonMark reads it).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.mathhtml import find_formulas, may_hold_math

OPENING = re.compile(r"\{::(comment|nomarkdown)(?:[ \t][^}]*)?\}")
"""An extension that takes content: `{::comment}`, `{::nomarkdown type="html"}`."""

OPTIONS = re.compile(r"\{::options(?:[ \t][^}]*)?/\}[ \t]*")
"""kramdown's `{::options parse_block_html="true" /}`, alone on its line."""


def _closing(name: str) -> re.Pattern[str]:
    """Return the pattern of what closes the extension `name`: `{:/name}` or `{:/}`."""
    return re.compile(r"\{:/(?:" + name + r")?\}")


def kramdown_plugin(md: MarkdownIt) -> None:
    """Read kramdown's `{::comment}`, `{::nomarkdown}` and `{::options … /}`.

    Syntax::

        {::comment}
        Notes to self, not published.
        {:/comment}

        Raw: {::nomarkdown}<span class="x">*as is*</span>{:/}

    Output: nothing for the comment; `<p>Raw: <span class="x">*as is*</span></p>`. An
    extension never closed stays text. CSS classes: none.
    """
    md.block.ruler.before(
        "html_block", "kramdown_extension", kramdown_block, {"alt": ["paragraph"]}
    )
    md.inline.ruler.before("escape", "kramdown_span", kramdown_span)
    md.block.ruler.before(
        "html_block", "kramdown_eob", end_of_block, {"alt": ["paragraph", "list", "blockquote"]}
    )


def end_of_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: kramdown's end-of-block marker, a line holding only `^`, ends the block
    before it and shows nothing (kramdown's syntax page, "End-Of-Block Marker": two code
    blocks, lists or quotes in a row). Without it the `^` began a paragraph that took the
    indented code after it as its lazy lines."""
    if state.sCount[start] > state.blkIndent:  # kramdown's `EOB_MARKER`: `^` first
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if state.src[pos : state.eMarks[start]].rstrip() != "^":
        return False
    if not silent:
        state.line = start + 1
    return True


def kramdown_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: an extension starting a line, up to its closing tag (on a later line or
    the same one): a comment is dropped, nomarkdown content is an `html_block`."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{::", pos):
        return False
    line_end = state.eMarks[start]
    if OPTIONS.fullmatch(state.src, pos, line_end):
        if not silent:
            state.line = start + 1
        return True
    opening = OPENING.match(state.src, pos, line_end)
    if opening is None:
        return False
    close = _closing(opening.group(1)).search(state.src, opening.end())
    if close is None:
        return False
    last = start
    while last < end and state.eMarks[last] < close.end():
        last += 1
    if last >= end or state.src[close.end() : state.eMarks[last]].strip():
        return False  # text after the closing tag: a span inside a paragraph
    if silent:
        return True
    if opening.group(1) == "nomarkdown":
        token = state.push("html_block", "", 0)
        token.content = state.src[opening.end() : close.start()].strip("\n") + "\n"
        token.map = [start, last + 1]
    state.line = last + 1
    return True


def kramdown_span(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{::comment}…{:/}` inside a line is dropped, `{::nomarkdown}…{:/}`
    written as raw HTML."""
    if not state.src.startswith("{::", state.pos):
        return False
    opening = OPENING.match(state.src, state.pos, state.posMax)
    if opening is None:
        return False
    close = _closing(opening.group(1)).search(state.src, opening.end(), state.posMax)
    if close is None:
        return False
    if not silent and opening.group(1) == "nomarkdown":
        _push_raw(state, opening.end(), close.start())
    state.pos = close.end()
    return True


def _push_raw(state: StateInline, start: int, end: int) -> None:
    """Push `state.src[start:end]`, nomarkdown content, as raw HTML, its formulas as math.

    kramdown writes the content as it is and MathJax, which Jekyll themes load, then
    typesets the page's `$…$`: posts wrap a formula in `{::nomarkdown}$x_1 * y_2${:/}` so
    that kramdown leaves its `_` and `*` alone (Chirpy blogs' advice). The formulas are
    found as in a raw HTML block (`postil.markdown.mathhtml.find_formulas`).
    """
    html = state.src[start:end]
    block = Token("html_block", "", 0)
    block.content = html
    pos = 0
    for formula in find_formulas(block) if may_hold_math(html) else []:
        found = formula.token
        if found is None or found.type == "math_ref":
            continue  # a loader, or `$\eqref{x}$`: kept as written
        offset = found.meta["offset"]
        if formula.start > pos:
            state.push("html_inline", "", 0).content = html[pos : formula.start]
        token = state.push("math_inline_display" if formula.display else "math_inline", "math", 0)
        token.content = found.content
        opener = html[formula.start : offset]
        closer = html[formula.end - (1 if opener == "$" else 2) : formula.end]
        token.meta = {"offset": start + offset, "delims": (opener, closer), "removed": ()}
        pos = formula.end
    if pos < len(html):
        state.push("html_inline", "", 0).content = html[pos:]
