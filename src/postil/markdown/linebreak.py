r"""Line breaks written as other Markdown processors read them: kramdown's `\\` at a line's end.

kramdown (Jekyll's Markdown) ends a line with a hard break where it ends in two spaces or in
two backslashes (its parser's `LINE_BREAK`, `/(  |\\\\)(?=\n)/`; "Line Breaks" in its syntax
page). CommonMark reads `\\` as an escaped backslash, so without this rule a post moved from
Jekyll shows a stray `\` at the end of each such line and no break: math posts write it
often, from the habit of TeX's `\\`. A backslash escape is otherwise CommonMark's.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline


def linebreak_plugin(md: MarkdownIt) -> None:
    r"""Read `\\` right before a line's end inside a paragraph as a hard line break.

    Syntax::

        Let $P = A^{-1}$. \\
        Then $x = Pb$.

    Output: `Let … .<br />` then the next line. `\\` anywhere else (`a \\ b`, at the end of
    a paragraph, in code) is still an escaped backslash; math reads its own `\\` before this
    rule. CSS classes: none.
    """
    md.inline.ruler.before("escape", "kramdown_break", kramdown_break)


def kramdown_break(state: StateInline, silent: bool) -> bool:
    r"""Inline rule: `\\` followed by a newline is a `hardbreak` (the next line's leading
    spaces go, as after markdown-it's own breaks)."""
    pos, src = state.pos, state.src
    if not src.startswith("\\\\\n", pos) or pos + 2 >= state.posMax:
        return False
    if not silent:
        state.push("hardbreak", "br", 0)
    pos += 3
    while pos < state.posMax and src[pos] in " \t":
        pos += 1
    state.pos = pos
    return True
