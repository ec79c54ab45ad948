"""Obsidian's comments: `%%…%%` inside a line and `%%` … `%%` as a block, left out.

Obsidian's help, "Basic formatting syntax", Comments: text between `%%` marks "is only
visible in Editing view", so a note's comments are the author's notes to self; publishers of
Obsidian vaults (Quartz, Digital Garden, mkdocs-publisher) leave them out, and a page that
showed them published what was never meant to be read (oleeskild/obsidian-digital-garden#112,
mkdocs-publisher/mkdocs-publisher#46). A `%%` with no closing `%%` after it stays text, and
so does `\\%%`, and a `%%` with a word right after it closes nothing (Jupyter's `%%timeit`
named in prose); `%%` in code, math, links and raw HTML is theirs (their rules read it first).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

MARK = "%%"
CLOSING = re.compile(r"%%(?!\w)")
"""A closing `%%`: none with a word right after it (`%%bash`, Jupyter's cell magic, which
prose names as `%%timeit and %%bash`), as no comment of Obsidian's ends so; the `%%` before
such a one opens no comment."""


def comment_plugin(md: MarkdownIt) -> None:
    """Leave Obsidian's `%%` comments out of the page.

    Syntax::

        Published text %%a note to self%% goes on.

        %%
        A block comment, over lines
        and blank lines.
        %%

    Output: `<p>Published text  goes on.</p>` and nothing for the block. CSS classes: none.
    """
    md.block.ruler.before("paragraph", "comment_block", comment_block, {"alt": ["paragraph"]})
    md.inline.ruler.push("comment_span", comment_span)


def comment_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a line opening with `%%`, up to the line a closing `%%` ends (the same
    one or a later one, blank lines between), is dropped; text after the closing `%%` on
    its line makes it a comment inside a paragraph (`comment_span`) instead. It ends a
    paragraph only across a blank line (`silent`: the paragraph's question), which would
    end the paragraph and leave `comment_span` no closing `%%` to find."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith(MARK, pos):
        return False
    close = _closing(state.src, pos, state.eMarks[end - 1])
    if close < 0:
        return False
    last = start
    while state.eMarks[last] < close + len(MARK):
        last += 1
    if state.src[close + len(MARK) : state.eMarks[last]].strip():
        return False
    if silent:
        return _opens(state, start) and any(state.isEmpty(n) for n in range(start + 1, last))
    state.line = last + 1
    return True


def _opens(state: StateBlock, line: int) -> bool:
    """Tell whether the `%%` opening `line`, inside a paragraph, opens a comment: the
    paragraph's lines above it hold an even number of `%%` (an odd one closes theirs)."""
    marks = 0
    while line > 0 and not state.isEmpty(line - 1):
        line -= 1
        marks += state.src.count(MARK, state.bMarks[line], state.eMarks[line])
    return marks % 2 == 0


def comment_span(state: StateInline, silent: bool) -> bool:
    """Inline rule: `%%…%%` inside a paragraph (across its lines too) is dropped; a `%%`
    right after a digit is a percent sign typed twice (`growth was 50%% of target`), no
    comment's opening."""
    if not state.src.startswith(MARK, state.pos):
        return False
    if state.pos and state.src[state.pos - 1].isdigit():
        return False
    close = _closing(state.src, state.pos, state.posMax)
    if close < 0:
        return False
    state.pos = close + len(MARK)
    return True


def _closing(src: str, opening: int, end: int) -> int:
    """Return where the `%%` closing the one at `opening` starts (before `end`), or -1: the
    next `%%`, unless a word follows it (then the first was no comment either)."""
    close = src.find(MARK, opening + len(MARK), end)
    return close if close >= 0 and CLOSING.match(src, close) else -1
