"""A footnote definition whose text starts on the line after `[^id]:`.

Prettier wraps a long definition so (markdown-it/markdown-it-footnote#36):

    [^1]:
      This is a footnote that is longer than the maximum line
      length, or even an entire paragraph.

Pandoc's `noteBlock` reads it as the note's text (`char ':'`, then `optional blankline`,
`optional indentSpaces`, then the lines up to a blank line), as Parsedown Extra does
(erusev/parsedown-extra#22). mdit-py-plugins' rule, like markdown-it-footnote's, wants
the text on the marker's line or indented by four spaces: the note was empty and its text
a paragraph of the page, silently. `footnote_def_next_line` marks those lines as indented
into the note before the rule reads it; an empty definition (a blank line or nothing after
`[^id]:`) is a warning at its marker.
"""

from __future__ import annotations

from collections.abc import Callable

from markdown_it.rules_block import StateBlock

from postil.markdown.state import get_state

NOTE_INDENT = 4
"""How far a definition's later blocks are indented into it (markdown-it-footnote, Pandoc)."""

EMPTY_NOTE = (
    "footnote `[^{label}]` has no text; write it after `[^{label}]:` or on the next line, "
    "and indent its later paragraphs by four spaces"
)
"""The warning for a definition with nothing after its marker."""


def next_line_definitions(footnote_def: Callable[..., bool]) -> Callable[..., bool]:
    """Return a block rule that runs `footnote_def` (mdit-py-plugins' rule) after marking a
    definition's text that starts on the next line as indented into the note."""

    def footnote_def_next_line(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        """Read `[^id]:` alone on its line with its text on the lines after it (Pandoc)."""
        begin = state.bMarks[start] + state.tShift[start]
        if not state.src.startswith("[^", begin):
            return False  # no definition (the rule's own first test), without calling it
        if silent:
            return footnote_def(state, start, end, silent)
        line_end = state.eMarks[start]
        close = state.src.find("]", begin + 2, line_end)  # the rule's label: no space, no `]`
        label = state.src[begin + 2 : close]
        if (
            label
            and " " not in label
            and state.src.startswith(":", close + 1)
            and not state.src[close + 2 : line_end].strip()
        ):
            _indent_next_lines(state, start, end, label)
        return footnote_def(state, start, end, silent)

    return footnote_def_next_line


def _indent_next_lines(state: StateBlock, start: int, end: int, label: str) -> None:
    """Mark the lines after the marker line `start`, up to a blank line or another
    definition, as indented into the note (Pandoc's `rawLines`); warn when there are none."""
    indent = state.blkIndent + NOTE_INDENT
    line = start + 1
    while line < end and not state.isEmpty(line):
        begin = state.bMarks[line] + state.tShift[line]
        if state.src.startswith("[^", begin):
            break
        state.sCount[line] = max(state.sCount[line], indent)
        line += 1
    if line == start + 1:
        column = state.tShift[start] + 1
        get_state(state.env).warn(start, column, EMPTY_NOTE.format(label=label))
