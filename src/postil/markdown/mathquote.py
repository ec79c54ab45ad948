"""Display math on a block quote's lazy continuation lines belongs to the quote.

CommonMark keeps a line that follows a quote's paragraph without a `>` in the quote, as a
lazy continuation of that paragraph ("Block quotes", laziness); Pandoc, whose `$$` is
inline syntax, keeps a `$$` line there too. postil's display-math block rule interrupts
a paragraph (so that `$$ … $$ (label)` after a sentence is a numbered block), which also
ended the quote:

    > The identity
    $$ a = b $$ (eq:ab)

was a quote, then the formula outside it. `math_quote_lazy` puts such a formula, and the
lazy lines after it up to a blank line, back at the end of the innermost quote, after the
paragraph or formula it continues. A quote inside a list item (`1. > The identity⏎$$ a = b $$
(eq:ab)`) gets its formula the same way: the math block rule ends the quote there and keeps
the formula in the item (`math._indent_lazy_lines`), and this rule moves it into the quote,
where CommonMark's laziness has it. (Lazy lines after a formula inside the quote, and a
formula opened in the quote and closed on lazy lines, are read by the math block rule
itself: `postil.markdown.mathlazy`.)
"""

from __future__ import annotations

from typing import Any

from markdown_it.token import Token

_MOVABLE = {"math_block", "paragraph_open", "paragraph_close", "inline"}
"""What a lazy continuation line can be after a quote's paragraph: display math or text."""


def math_quote_lazy(state: Any) -> None:
    """Core rule (after `block`): move display math that lazily continues a block quote's
    last paragraph (no blank line, no `>`) into the quote, with the lines after it up to a
    blank line. Nothing else moves: a blank line or any other block ends the quote."""
    tokens: list[Token] = state.tokens
    i = 0
    while i < len(tokens):
        if tokens[i].type == "math_block" and _lazy_after_quote(tokens, i):
            i = _move_into_quote(tokens, i)
        i += 1


def _lazy_after_quote(tokens: list[Token], at: int) -> bool:
    """Return whether the math block at `at` right follows the close of one or more quotes
    whose last block is a paragraph or a display formula (`> $$x$$⏎$$y$$`: to CommonMark
    both are paragraph text) ending on the line before it."""
    k = at - 1
    while k >= 0 and tokens[k].type == "blockquote_close":
        k -= 1
    if k == at - 1 or k < 1 or tokens[k].type not in ("paragraph_close", "math_block"):
        return False
    opening = _paragraph_open(tokens, k) if tokens[k].type == "paragraph_close" else tokens[k]
    end = opening.map[1] if opening is not None and opening.map else None
    line = tokens[at].map
    return end is not None and line is not None and line[0] == end


def _paragraph_open(tokens: list[Token], close: int) -> Token | None:
    """Return the `paragraph_open` of the `paragraph_close` at `close`."""
    for k in range(close - 1, -1, -1):
        if tokens[k].type == "paragraph_open":
            return tokens[k]
    return None


def _move_into_quote(tokens: list[Token], at: int) -> int:
    """Move the math block at `at` and the blocks after it with no blank line between into
    the innermost quote before it; return the index of the last token moved."""
    first_close = at - 1
    while tokens[first_close - 1].type == "blockquote_close":
        first_close -= 1
    level = tokens[first_close - 1].level
    end = at + 1
    last_line = (tokens[at].map or [0, 0])[1]
    while end < len(tokens) and tokens[end].type in _MOVABLE:
        token = tokens[end]
        if token.type in ("math_block", "paragraph_open"):
            lines = token.map
            if lines is None or lines[0] != last_line:
                break
            last_line = lines[1]
        end += 1
    if tokens[end - 1].type == "paragraph_open":  # never split a paragraph
        end -= 1
    moved = tokens[at:end]
    for token in moved:
        token.level = level + (token.type == "inline")
        # a tight list hides its items' paragraphs, not a quote's (`- > q⏎$$x$$⏎text`)
        token.hidden = False
    closes = tokens[first_close:at]
    tokens[first_close:end] = moved + closes
    return first_close + len(moved) - 1
