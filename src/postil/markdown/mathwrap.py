r"""A formula wrapped onto a line that starts like a list item: formula text, not a list.

Authors break a long inline formula at an operator, and the next line of the paragraph then
starts with `+`, `-`, `*` or `1.`:

    The energy is $E = mc^2
    + \frac{1}{2}mv^2$ in total.

    before $$
    - 2
    $$ after

CommonMark lets a bullet list (or an ordered one starting at 1) interrupt a paragraph, so
markdown-it ends the paragraph inside the formula and starts a list with the rest of it:
both halves show as text (kivikakk/comrak#447, shd101wyy/markdown-preview-enhanced#1663).
Pandoc's Markdown needs a blank line before a list and reads the formula whole, and so does
MathJax typesetting a kramdown page. `math_list_plugin` wraps markdown-it's list rule:
where a paragraph asks whether such a line ends it (a silent call), the line does not when
a formula the paragraph opens before it (`$…$`, `$$…$$` or `\(…\)`, found with the inline
rule's own closers: `postil.math.delimiters`) closes on that line or later, before the next
blank line. A price before a list (`from $5:` then `- $10 for X`) opens no formula, so the
list starts there; a line outdented to an enclosing list's marker is that list's next item.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.math.delimiters import closers_for

BlockRule = Callable[[StateBlock, int, int, bool], bool]


def math_list_plugin(md: MarkdownIt) -> None:
    """Wrap markdown-it's list rule so a formula's line does not start a list inside it."""
    index = md.block.ruler.__find__("list")
    rule = md.block.ruler.__rules__[index]
    md.block.ruler.at("list", _guarded(rule.fn), {"alt": rule.alt})


def _guarded(list_rule: BlockRule) -> BlockRule:
    def math_list(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if (
            silent
            and state.parentType == "paragraph"
            and state.sCount[start] >= state.blkIndent  # not an enclosing list's next item
            and formula_across(state, start, end)
        ):
            return False
        return list_rule(state, start, end, silent)

    return math_list


def formula_across(state: StateBlock, line: int, end: int) -> bool:
    """Tell whether a formula that the paragraph begun at `state.line` opens before `line`
    closes on `line` or after it, before the paragraph's next blank line (or `end`).

    Called by a paragraph asking whether `line` ends it (a silent call), so `state.line` is
    the paragraph's first line.
    """
    first = state.bMarks[state.line]
    cut = state.bMarks[line] + state.tShift[line] - first
    before = state.src[first : first + cut]
    if "$" not in before and "\\(" not in before:
        return False  # most paragraphs a list follows: nothing open
    last = line
    while last + 1 < end and not state.isEmpty(last + 1):
        last += 1
    text = state.src[first : state.eMarks[last]]
    if before.count("\\(") > before.count("\\)") and "\\)" in text[cut:]:
        return True
    return _dollar_close(text, cut, state.env) >= cut


def _dollar_close(text: str, cut: int, env: MutableMapping[str, Any]) -> int:
    """Return where the formula open at `cut` closes, pairing `text`'s dollars as the inline
    rule does (`postil.markdown.math.math_inline`), or -1 when every formula opened before
    `cut` closes before it."""
    closers = closers_for(text, env)
    dollars = closers.unescaped_dollars()
    i = 0
    while i < len(dollars) and dollars[i] < cut:
        pos = dollars[i]
        double = text.startswith("$$", pos)
        width = 2 if double else 1
        if double:
            close = closers.find("$$", pos + 2, len(text))
        else:
            close = -1 if text[pos + 1 : pos + 2].isspace() else closers.dollar(pos + 1, len(text))
            if close < 0:
                close = closers.spaced_dollar(pos + 1, len(text))
        if close >= cut:
            return close
        after = close + width if close >= 0 else pos + width
        while i < len(dollars) and dollars[i] < after:
            i += 1
    return -1
