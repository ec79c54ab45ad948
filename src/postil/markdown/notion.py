r"""Pages exported from Notion as Markdown: its callouts and its lost equations.

Notion's "Export → Markdown & CSV" writes a callout block as raw HTML around Markdown, its
icon first, without a blank line after `<aside>`:

    <aside>
    💡 If you use the **median**, use $IQR$ as the spread.

    </aside>

CommonMark ends that HTML block at the blank line, so the callout's first paragraph was
shown as written (`**median**` with its stars). Here `<aside>` alone on its line up to a
`</aside>` line is the callout: an `<aside class="callout callout-note">` whose lines are
Markdown, the icon kept as the text's first character (Notion shows it there). An
`<aside>` whose text does not open with an icon (Distill's and al-folio's margin notes:
`<aside>⏎<p>…`) or that has attributes stays raw HTML.

Notion keeps an inline equation as the character `⁍` (U+204D) with the TeX beside it in
its own format (`["⁍", [["e", "x^2"]]]`, jamalex/notion-py#247); where its export misses the
TeX it writes the `⁍` alone, often as `$$⏎⁍⏎$$`. That formula is lost from the file: each
is reported at its place, saying to copy the formula from the Notion page.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import get_state
from postil.markdown.tagsyntax import tokenize_lines

ASIDE_OPEN = re.compile(r" {0,3}<aside>[ \t]*")
ASIDE_CLOSE = re.compile(r" {0,3}</aside>[ \t]*")
LOST = "\u204d"
"""Notion's placeholder for an inline equation (`⁍`)."""

MATH_TOKENS = frozenset({"math_inline", "math_inline_display", "math_block"})


def notion_plugin(md: MarkdownIt) -> None:
    """Read Notion's `<aside>` callouts and report its lost equations (module docstring).

    CSS classes: `callout`, `callout-note` (the callout plugin's look, without a title).
    """
    before = "html_block_across" if "html_block_across" in _rule_names(md) else "html_block"
    md.block.ruler.before(before, "notion_aside", notion_aside, {"alt": ["paragraph"]})
    md.core.ruler.after("inline", "notion_lost_math", notion_lost_math)
    md.add_render_rule("notion_aside_open", render_notion_aside_open)
    md.add_render_rule("notion_aside_close", lambda *args: "</aside>\n")


def _rule_names(md: MarkdownIt) -> list[str]:
    return [rule.name for rule in md.block.ruler.__rules__]


def notion_aside(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: `<aside>` alone on line `start`, its Markdown, a `</aside>` line."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    begin, stop = state.bMarks[start] + state.tShift[start], state.eMarks[start]
    if not state.src.startswith("<aside>", begin) or not ASIDE_OPEN.fullmatch(
        state.src, begin, stop
    ):
        return False
    close = _closing_line(state, start, end)
    if close is None or not _icon_first(state, start + 1, close):
        return False
    if silent:
        return True
    opening = state.push("notion_aside_open", "aside", 1)
    opening.map = [start, close + 1]
    tokenize_lines(state, start + 1, close)
    state.push("notion_aside_close", "aside", -1).map = [close, close + 1]
    state.line = close + 1
    return True


def _closing_line(state: StateBlock, start: int, end: int) -> int | None:
    """Return the line of the `</aside>` that closes the callout, or None (another `<aside>`
    first, or a line outdented out of the container)."""
    for line in range(start + 1, end):
        begin, stop = state.bMarks[line] + state.tShift[line], state.eMarks[line]
        if begin < stop and state.sCount[line] < state.blkIndent:
            return None
        if ASIDE_CLOSE.fullmatch(state.src, begin, stop):
            return line
        if ASIDE_OPEN.fullmatch(state.src, begin, stop):
            return None
    return None


def _icon_first(state: StateBlock, first: int, close: int) -> bool:
    """Tell whether the callout's first text is an icon, as Notion writes it (an emoji, a
    symbol of Unicode's category So: 💡, 📁, ⚠️); Distill's and al-folio's `<aside>` margin
    notes open with text or a tag and stay raw HTML."""
    for line in range(first, close):
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if text:
            return unicodedata.category(text[0]) == "So"
    return False


def render_notion_aside_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open the callout: the callout plugin's `<aside>`, without a title."""
    return '<aside class="callout callout-note" role="note">\n'


def notion_lost_math(state: StateCore) -> None:
    """Warn at each formula that is only Notion's `⁍`: the equation is not in the file."""
    if LOST not in state.src:
        return
    doc = get_state(state.env)
    message = (
        "this formula is only `⁍`, Notion's placeholder for an equation its export did "
        "not write: the equation is not in the file; copy it from the Notion page"
    )
    for token in state.tokens:
        if token.type in MATH_TOKENS and token.content.strip() == LOST and token.map:
            doc.warn(token.map[0], 1, message)
        for child in token.children or ():
            if child.type in MATH_TOKENS and child.content.strip() == LOST and token.map:
                line, col = _place(token, child)
                doc.warn(line, col, message)


def _place(parent: Token, child: Token) -> tuple[int, int]:
    """Return the body line and 1-based column of an inline formula (its `offset` in the
    paragraph's text, counted from the paragraph's first line)."""
    assert parent.map is not None
    offset = (child.meta or {}).get("offset", 0)
    before = parent.content[:offset]
    line = parent.map[0] + before.count("\n")
    return line, offset - (before.rfind("\n") + 1)
