r"""TeX's `~` spaces starting a line of a formula that spans lines: formula text, not a fence.

kramdown posts typeset by MathJax in the browser write a long formula over several lines of
one paragraph and indent its later lines with TeX's ties, each a no-break space:

    $\displaystyle
    ~~~~~~~~~~=\text{tr}\big(\log(I+Y^{-1}\Delta Y)\big)
    $

CommonMark reads the `~~~…` line as a tilde code fence (its info string may hold anything),
which interrupts the paragraph and, unclosed, turns the rest of the list item or post into
code. kramdown's fence needs a one-word info string and a closing fence, so the line stays
paragraph text there, and MathJax reads the formula across it. `math_tilde_fence` runs
markdown-it's fence rule, except where a paragraph asks whether a `~~~` line ends it while
the paragraph leaves a `$` or `$$` open and a `$` follows before the paragraph's next blank
line: the line is then the formula's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

BlockRule = Callable[[StateBlock, int, int, bool], bool]

ESCAPED = re.compile(r"\\.", re.S)
r"""A backslash escape (`\$` is no delimiter)."""


def math_tilde_plugin(md: MarkdownIt) -> None:
    """Wrap markdown-it's fence rule so a formula's `~~~` line does not end its paragraph."""
    index = md.block.ruler.__find__("fence")
    rule = md.block.ruler.__rules__[index]
    md.block.ruler.at("fence", _guarded(rule.fn), {"alt": rule.alt})


def _guarded(fence: BlockRule) -> BlockRule:
    def math_tilde_fence(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if silent and state.parentType == "paragraph" and in_formula(state, start, end):
            return False
        return fence(state, start, end, silent)

    return math_tilde_fence


def in_formula(state: StateBlock, line: int, end: int) -> bool:
    """Tell whether `line`, which a paragraph begun at `state.line` asks about (a silent
    call), is a `~~~` line inside a formula: the paragraph's text before it leaves a `$` or
    `$$` open (escapes not counted) and a `$` closes it on this line or a later one before
    the next blank line (or `end`)."""
    begin = state.bMarks[line] + state.tShift[line]
    if not state.src.startswith("~~~", begin):
        return False
    before = ESCAPED.sub("", state.src[state.bMarks[state.line] : begin])
    doubles = before.count("$$")
    if doubles % 2 == 0 and (before.count("$") - 2 * doubles) % 2 == 0:
        return False
    last = line
    while last + 1 < end and not state.isEmpty(last + 1):
        last += 1
    return "$" in ESCAPED.sub("", state.src[begin : state.eMarks[last]])
