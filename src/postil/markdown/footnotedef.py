r"""A footnote definition whose text starts on the line after `[^id]:`.

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

A label holding spaces, `[^my note]`, is Python-Markdown's (MkDocs', Pelican's): its
`footnotes` extension reads any label up to `]` (`FOOTNOTE_RE = r'\[\^([^\]]*)\]'`, the
definitions alike), as PHP Markdown Extra and Djot do (lepture/mistune#377,
kivikakk/comrak#271, jgm/djot#208). cmark-gfm and markdown-it refuse the space, so the
definition became a link reference (`[^my note]` a link to its first word) or a paragraph,
silently. `spaced_label` reads such a label with its spaces stood in by `SPACE_STAND_IN`,
the label's key from then on; `written` gives it back as written, for messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown_it.rules_block import StateBlock

from postil.markdown.state import get_state

SPACE_STAND_IN = "\u00a0"
"""What a space of a footnote label is in its key: a character mdit-py-plugins' rules read
as part of a label (they stop at a space), which no message shows differently."""

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
        line_end = state.eMarks[start]
        close = state.src.find("]", begin + 2, line_end)
        label = state.src[begin + 2 : close]
        key = spaced_label(label) if close > 0 else None
        if key is None or not state.src.startswith(":", close + 1):
            return footnote_def(state, start, end, silent)
        if not silent and not state.src[close + 2 : line_end].strip():
            _indent_next_lines(state, start, end, label)
        return with_label_key(state, begin + 2, close, key, footnote_def, start, end, silent)

    return footnote_def_next_line


def spaced_label(label: str) -> str | None:
    """Return the key of a footnote label: the label itself, or a label holding spaces with
    each space stood in by `SPACE_STAND_IN` (Python-Markdown's reading); None for no label
    (empty, a line break, a tab, or a space at either end)."""
    if not label or "\n" in label or "\t" in label or label.strip(" ") != label:
        return None
    return label.replace(" ", SPACE_STAND_IN)


def written(label: str) -> str:
    """Return a footnote label as the post writes it (its spaces back)."""
    return label.replace(SPACE_STAND_IN, " ")


def with_label_key(
    state: Any, start: int, end: int, key: str, rule: Callable[..., bool], *args: Any
) -> bool:
    """Run `rule(state, *args)` with the label at `state.src[start:end]` read as `key` (the
    same length: no position moves), giving the source back after it."""
    if key == state.src[start:end]:
        return bool(rule(state, *args))
    src = state.src
    state.src = src[:start] + key + src[end:]
    try:
        return bool(rule(state, *args))
    finally:
        state.src = src


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
