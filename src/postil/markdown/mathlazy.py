"""Display math and lazy continuation lines in list items and block quotes.

CommonMark lets a paragraph inside a list item or a block quote go on with lines that lack
the container's indentation or `>` ("laziness", spec sections "Block quotes" and "List
items": *paragraph continuation text*). For CommonMark, and for every reader that sees
`$$…$$` as text inside a paragraph (Pandoc's `tex_math_dollars`, kramdown, markdown-it-
texmath's inline rule, MathJax typesetting the page in the browser), a formula is such
paragraph text, so in

    1. This is an equation
        $$2x + 3$$
    and this line is lazy.

    > $$
    f(n) = n^2
    $$

the third line stays in the item, and the whole formula in the quote. postil reads a
formula on lines of its own as a display block, which interrupts the paragraph; these
helpers keep the container around it:

- `lazy_line` tells whether a line is such a lazy continuation: a quote's lazy line
  (markdown-it gives it `sCount` -1 once the quote accepted it), or a line outdented from
  the list item that no block rule would start instead of paragraph text;
- `continue_lazily`, after a display formula, reads the lazy lines that follow it as a
  paragraph of the same container (so "and this line is lazy." stays in the item).

The math block rule (`postil.markdown.math.math_block`) also looks for a formula's closing
delimiter across lazy lines. A display formula that starts on a lazy line after a quote's
paragraph is moved into the quote by `postil.markdown.mathquote`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown_it.rules_block import StateBlock


def lazy_line(state: StateBlock, line: int, end_line: int, skip: Callable[..., Any]) -> bool:
    """Tell whether `line` continues a paragraph of the current container lazily.

    Args:
        state: the block state, inside the list item's or quote's own parse.
        line: the line to judge.
        end_line: the container's last line (exclusive).
        skip: the rule not to ask whether it would start a block there (the math block
            rule itself, which is what asks).

    Returns:
        True for a quote's lazy line (`sCount` -1: the quote already checked that no block
        starts there) and for a non-blank line outdented from the list item on which no
        rule that may interrupt a paragraph starts a block (a new item `2. next`, a
        heading, a fence, a quote end the paragraph, as in CommonMark).
    """
    if line >= end_line or state.isEmpty(line):
        return False
    if state.sCount[line] < 0:
        return True
    if state.sCount[line] >= state.blkIndent:
        return False
    parent = state.parentType
    state.parentType = "paragraph"
    try:
        rules = state.md.block.ruler.getRules("paragraph")
        return not any(rule(state, line, end_line, True) for rule in rules if rule is not skip)
    finally:
        state.parentType = parent


def continue_lazily(state: StateBlock, end_line: int, skip: Callable[..., Any]) -> None:
    """After a display formula ending on the line before `state.line`, read the lazy lines
    that follow it (`lazy_line`) as a paragraph of the same container, with markdown-it's
    own paragraph rule (which goes on up to a blank line or a block that interrupts it).
    Nothing happens when the next line is blank, indented into the container, or starts
    another block."""
    line = state.line
    if not lazy_line(state, line, end_line, skip):
        return
    ruler = state.md.block.ruler
    paragraph = ruler.__rules__[ruler.__find__("paragraph")].fn
    paragraph(state, line, end_line, False)
