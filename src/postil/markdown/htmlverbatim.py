"""Raw HTML that a blank line does not end for a browser or kramdown: scripts, style sheets
and notebook outputs whose HTML is indented.

`postil.markdown.htmlblock.html_block_across` asks these where an HTML block cut at a blank
line really ends. A browser reads `<script>`, `<style>` and `<textarea>` to their end tags,
and kramdown reads a block element to its end tag; nbconvert's Markdown writes a notebook's
outputs as they are, blank lines inside: pandas' `<div>⏎<style scoped>`, a plotly or Bokeh
`<script>`, and plotly's figure as `<div>`, blank lines, then the figure's `<div>` and
`<script>` indented twelve spaces and the end tag eight. CommonMark ends the block at the
first blank line, so the rest of a style sheet became an indented code block inside it, a
script's rest a paragraph (`<p>` in the JavaScript), and a plotly figure a code block of
its JSON.
"""

from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock

from postil.markdown.tagsyntax import left_container

VERBATIM = re.compile(r"<(script|style|textarea)(?=[\s>])[^>]*>", re.I)
"""An element whose content is never Markdown: a script's, a style sheet's (raw text to
the browser), a text area's. Not `<pre>`: CommonMark's example 148 cuts a `<pre>` in a
`<td>` at its blank line."""

ELEMENT = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
"""The name of the element an HTML block starts with (none for an end tag)."""

CODE_INDENT = 4
"""The indentation of an indented code block (CommonMark)."""


def element_end(src: str, element: re.Match[str], stop: int) -> int:
    """Return where the element that `element` opens ends (its own end tag, the same
    elements inside counted), or -1 when it does not end before `stop`."""
    name = re.escape(element.group(1))
    tags = re.compile(f"<(/?){name}(?=[\\s/>])", re.I)
    depth = 0
    for tag in tags.finditer(src, element.start(), stop):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.start()
    return -1


def verbatim_closer(state: StateBlock, start: int, stop: int, end: int) -> int | None:
    """Return the line holding the end tag of a `VERBATIM` element opened in lines
    `start`…`stop` but not closed there, when it lies before `end` inside the container;
    else None."""
    limit = state.eMarks[stop - 1]
    text = state.src[state.bMarks[start] : limit]
    pos = 0
    while (opener := VERBATIM.search(text, pos)) is not None:
        end_tag = _end_tag(opener)
        closed = end_tag.search(text, opener.end())
        if closed is not None:
            pos = closed.end()
            continue
        found = end_tag.search(state.src, limit, state.eMarks[end - 1]) if stop < end else None
        if found is None:
            return None
        return _line_within(state, stop, end, found.start())
    return None


def indented_element_closer(state: StateBlock, start: int, stop: int, end: int) -> int | None:
    """Return the line of the end tag of the element that line `start` opens, when every
    line after the blank line `stop` up to it, that end tag's line too, is indented as code
    and the first starts a tag (nbconvert's plotly figure); else None.

    A script's or style sheet's own lines do not count (plotly's JavaScript has lines at
    the margin). An author who shows HTML as an indented code block inside an element ends
    the element at the margin, and that reading is kept."""
    element = ELEMENT.match(state.src, state.bMarks[start] + state.tShift[start])
    first = next((at for at in range(stop, end) if not state.isEmpty(at)), None)
    if element is None or first is None or not _indented_tag(state, first):
        return None
    close = element_end(state.src, element, state.eMarks[end - 1])
    if close < 0:
        return None
    line = _line_within(state, stop, end, close)
    if line is None or not _all_indented(state, first, line):
        return None
    return line


def _indented_tag(state: StateBlock, line: int) -> bool:
    """Tell whether `line` is indented as code and starts with a tag."""
    text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
    return state.sCount[line] - state.blkIndent >= CODE_INDENT and text.startswith("<")


def _all_indented(state: StateBlock, first: int, last: int) -> bool:
    """Tell whether lines `first`…`last` are blank or indented as code, the lines inside
    a script or style sheet aside."""
    inside: re.Pattern[str] | None = None
    for line in range(first, last + 1):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        if inside is not None:
            inside = None if inside.search(text) else inside
            continue
        if not state.isEmpty(line) and state.sCount[line] - state.blkIndent < CODE_INDENT:
            return False
        opener = VERBATIM.search(text)
        if opener is not None and not _end_tag(opener).search(text, opener.end()):
            inside = _end_tag(opener)
    return True


def _end_tag(opener: re.Match[str]) -> re.Pattern[str]:
    """Return the pattern of the end tag of the `VERBATIM` element `opener` opens."""
    return re.compile(f"</{opener.group(1)}\\s*>", re.I)


def _line_within(state: StateBlock, stop: int, end: int, pos: int) -> int | None:
    """Return the line holding `pos`, from line `stop` on, or None when a line before it
    leaves the container (a list item's, a quote's)."""
    line = next(at for at in range(stop, end) if state.eMarks[at] >= pos)
    if any(left_container(state, at) for at in range(stop, line + 1)):
        return None
    return line
