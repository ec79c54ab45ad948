r"""Logseq's block properties: `key:: value` lines under a block.

Logseq (an outliner: every block is a `- ` bullet) keeps a block's properties on the lines
right after the block's first line, one `key:: value` a line (mldoc's
`lib/syntax/markdown_property.ml`):

    - ## Existence of Parent Hamiltonian #card
      collapsed:: true
      id:: 6494c06d-09e2-430c-bd73-e8a336c3c06f
      type:: [[Course]]

Most of them are Logseq's own and never shown: `hidden-built-in-properties` in logseq/
logseq's `deps/graph-parser/src/logseq/graph_parser/property.cljs` (`id`, `collapsed`,
`heading`, `background-color`, `query-table`, the task markers …) and the ones its
features register (the flashcards' `card-last-interval`, `card-repeats` …, numbered lists'
`logseq.order-list-type`: every `card-` and `logseq.` key). The others it shows as the
block's properties, `key: value` with the value's page references linked.

`logseq_property` is a block rule that also ends a paragraph (markdown-it's `alt`): a line
of a hidden property is left out (it showed as text, 1,618 lines on one graph's 8 pages),
any other is a `<div class="property">` holding the key and the value's Markdown. The
line must be a key (a letter, then letters, digits, `_`, `-`, `.`), `::`, a space or the
line's end: `std::vector`, Haskell's `f :: Int` and `a::b` are text. Obsidian's Dataview
writes inline fields the same way, and shows them so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block.paragraph import paragraph

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import StateBlock
    from markdown_it.token import Token

PROPERTY = re.compile(r"([A-Za-z][\w.-]*)::(?:[ \t]+(.*?))?[ \t]*")
"""A property line after its indent: key and value (None: empty)."""

HIDDEN = frozenset(
    {"id", "custom-id", "custom_id", "background-color", "background_color", "heading"}
    | {"collapsed", "created-at", "updated-at", "last-modified-at", "created_at"}
    | {"last_modified_at", "query-table", "query-properties", "query-sort-by"}
    | {"query-sort-desc", "ls-type", "hl-type", "hl-page", "hl-stamp", "hl-color"}
    # the task markers (`markers` in property.cljs)
    | {"now", "later", "todo", "doing", "done", "wait", "waiting", "canceled", "cancelled"}
    | {"started", "in-progress"}
)
"""Logseq's hidden built-in properties (`hidden-built-in-properties`, property.cljs)."""

HIDDEN_PREFIXES = ("card-", "logseq.")
"""Keys Logseq's features register as hidden: flashcards (`card-next-schedule` …),
numbered lists and whiteboards (`logseq.order-list-type`, `logseq.tldraw.shape` …)."""


def is_hidden(key: str) -> bool:
    """Tell if Logseq never shows a property of this key (`HIDDEN`, `HIDDEN_PREFIXES`)."""
    key = key.lower()
    return key in HIDDEN or key.startswith(HIDDEN_PREFIXES)


def logseq_plugin(md: MarkdownIt) -> None:
    """Register the block property rule (before setext headings and paragraphs, and ending
    a paragraph) and the empty bullet rule."""
    md.block.ruler.before(
        "lheading",
        "logseq_property",
        logseq_property,
        {"alt": ["paragraph"]},
    )
    md.block.ruler.before("lheading", "empty_bullet", empty_bullet)
    md.add_render_rule("logseq_property", _render_property)


def logseq_property(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a `key:: value` line is a property; a hidden one leaves nothing."""
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    end = state.eMarks[start_line]
    if "::" not in state.src[begin:end]:
        return False
    found = PROPERTY.fullmatch(state.src, begin, end)
    if found is None:
        return False
    if silent:
        return True
    state.line = start_line + 1
    key, value = found.group(1), found.group(2) or ""
    if is_hidden(key) or not value:
        return True
    token = state.push("logseq_property", "div", 1)
    token.map = [start_line, start_line + 1]
    token.info = key
    inline = state.push("inline", "", 0)
    inline.content = value
    inline.map = [start_line, start_line + 1]
    inline.children = []
    token.meta = {"col0": found.start(2) - state.bMarks[start_line]}
    state.push("logseq_property_close", "div", -1)
    return True


def empty_bullet(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: in a list item, a paragraph followed by a line that is one `-` is a
    paragraph, and the `-` an empty list item, not a setext heading's underline.

    CommonMark makes `- text⏎  -` a level-2 heading (a setext underline may be a single
    `-`), but an outliner's empty child bullet is written so: Logseq writes `-` for an
    empty block, and its pages turned the text above each one into a heading (mldoc reads
    every `-` starting a line as a block). Only a lone `-` inside a list item counts:
    `Text⏎-` outside a list and `---` underlines are CommonMark's headings still.
    """
    # in a list item's content (`parentType` is no guide: markdown-it's `lheading` leaves
    # it "paragraph" when it finds no underline)
    if silent or state.blkIndent <= 0 or state.is_code_block(start_line):
        return False
    dash = _lone_dash(state, start_line)
    if dash < 0:
        return False
    limit = state.lineMax
    state.lineMax = dash  # markdown-it's paragraph rule reads up to `lineMax`
    try:
        return paragraph(state, start_line, dash, False)
    finally:
        state.lineMax = limit


def _lone_dash(state: StateBlock, start_line: int) -> int:
    """Return the line of the setext underline `-` that would end the paragraph starting
    at `start_line` (markdown-it's `lheading` scan), or -1 (none, or another underline)."""
    rules = state.md.block.ruler.getRules("paragraph")
    line = start_line + 1
    while line < state.lineMax and not state.isEmpty(line):
        indent = state.sCount[line] - state.blkIndent
        if indent > 3 or state.sCount[line] < 0:
            line += 1
            continue
        first = state.bMarks[line] + state.tShift[line]
        text = state.src[first : state.eMarks[line]].rstrip()
        if indent >= 0 and text and set(text) <= {"-", "="}:
            return line if text == "-" else -1
        if any(rule(state, line, state.lineMax, True) for rule in rules):
            return -1
        line += 1
    return -1


def _render_property(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Render a shown property's opening: its key, then the value's inline HTML."""
    key = escapeHtml(tokens[idx].info)
    return f'<div class="property"><span class="property-key">{key}</span>: '
