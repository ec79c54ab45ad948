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

An image Logseq resized carries its size after it, `![x](a.png){:height 143, :width 749}`:
that is its width and height (`logseq_image_sizes`); the map showed as text.

Logseq's admonitions, `#+BEGIN_NOTE` … `#+END_NOTE` (also `TIP`, `IMPORTANT`, `CAUTION`,
`WARNING`, `PINNED`: mldoc's custom blocks, which Logseq shows as admonitions), are
callouts of that kind (`logseq_admonition`), and `#+BEGIN_QUOTE` a block quote; they
showed their `#+BEGIN_`/`#+END_` lines as text.

A block's `id:: <uuid>` is what Logseq's block references name: `((<uuid>))` in any block
shows the referenced block's text, linked to it (mldoc's `block_reference.ml`). The block
with the id gets it as its HTML id, and `logseq_block_refs` (core) makes a reference to
a block of the same page a link to it showing the block's first line; a reference to a
block of another page (its text is not known while this page renders) stays as written,
with a warning at it saying so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block.paragraph import paragraph
from markdown_it.token import Token

from postil.markdown.shortcodecallout import push_callout, push_quote
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import locate

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import StateBlock
    from markdown_it.rules_core import StateCore

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


BLOCK_UUID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)
"""A Logseq block's id (a UUID), as `id::` gives it and `((…))` names it."""

BLOCK_REF = re.compile(r"\(\((" + BLOCK_UUID.pattern + r")\)\)")
"""A Logseq block reference, `((6494c06d-09e2-430c-bd73-e8a336c3c06f))`."""

BLOCKS = "_logseq_blocks"
"""markdown-it's `env` key of the page's block ids: id -> the block's first line."""

OTHER_PAGE = (
    "Logseq block reference `(({id}))` names a block that is not on this page; postil "
    "shows the text of a referenced block of the same page only (the block with "
    "`id:: {id}`), so it is shown as written: copy the block's text in, or link to its page"
)
"""The warning at a reference to a block of another page."""


def logseq_plugin(md: MarkdownIt) -> None:
    """Register the block property rule (before setext headings and paragraphs, and ending
    a paragraph) and the empty bullet rule."""
    md.block.ruler.before(
        "lheading",
        "logseq_property",
        logseq_property,
        {"alt": ["paragraph"]},
    )
    md.block.ruler.before(
        "lheading", "logseq_admonition", logseq_admonition, {"alt": ["paragraph"]}
    )
    md.block.ruler.before("lheading", "empty_bullet", empty_bullet)  # after the blocks
    md.core.ruler.after("inline", "logseq_block_refs", logseq_block_refs)
    md.core.ruler.after("inline", "logseq_image_sizes", logseq_image_sizes)
    md.add_render_rule("logseq_property", _render_property)


def logseq_property(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a `key:: value` line is a property; a hidden one leaves nothing."""
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    end = state.eMarks[start_line]
    if state.src.find("::", begin, end) < 0:
        return False
    found = PROPERTY.fullmatch(state.src, begin, end)
    if found is None:
        return False
    if silent:
        return True
    state.line = start_line + 1
    key, value = found.group(1), found.group(2) or ""
    if key.lower() == "id" and BLOCK_UUID.fullmatch(value):
        _give_block_id(state, value.lower())
    elif key.lower() == "heading":
        _make_heading(state, value.strip())
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


def _current_item(state: StateBlock) -> int:
    """Return the index of the `list_item_open` token of the list item being parsed (the
    block a property line belongs to), or -1 outside any list item."""
    depth = 0
    for index in range(len(state.tokens) - 1, -1, -1):
        token = state.tokens[index]
        if token.type == "list_item_close":
            depth += 1
        elif token.type == "list_item_open" and depth:
            depth -= 1
        elif token.type == "list_item_open":
            return index
    return -1


def _give_block_id(state: StateBlock, block_id: str) -> None:
    """Make `block_id` the HTML id of the list item the `id::` line is in, and note the
    item's first line for the references to it (`BLOCKS`)."""
    index = _current_item(state)
    if index < 0:
        return
    token = state.tokens[index]
    text = next((t.content for t in state.tokens[index:] if t.type == "inline"), "")
    blocks = state.env.setdefault(BLOCKS, {})
    if block_id not in blocks and "id" not in token.attrs:
        token.attrs["id"] = block_id
        blocks[block_id] = text.split("\n", 1)[0].strip()


def _make_heading(state: StateBlock, value: str) -> None:
    """Make the text of the block a `heading::` line is in a heading: `heading:: true` of
    the block's depth in the outline (a top-level block an `h1`, as Logseq's auto heading
    does: brianwisti/logseq-toggle-heading's README), `heading:: 2` that level; a block
    whose text is no paragraph is left alone."""
    index = _current_item(state)
    if index < 0 or not (value.lower() == "true" or value.isdigit()):
        return
    opening = state.tokens[index + 1] if index + 1 < len(state.tokens) else None
    if opening is None or opening.type != "paragraph_open":
        return
    closing = next((t for t in state.tokens[index + 2 :] if t.type == "paragraph_close"), None)
    if closing is None:
        return
    depth = sum(1 for t in state.tokens[: index + 1] if t.type == "list_item_open") - sum(
        1 for t in state.tokens[:index] if t.type == "list_item_close"
    )
    level = min(max(int(value) if value.isdigit() else depth, 1), 6)
    for token, kind in ((opening, "heading_open"), (closing, "heading_close")):
        token.type, token.tag, token.hidden, token.markup = kind, f"h{level}", False, "#" * level


def logseq_block_refs(state: StateCore) -> None:
    """Core rule: in the text the inline rules left, `((uuid))` is a link to the block of
    this page with that id showing its first line; a block of another page stays as
    written, with a warning at it. Costs one substring test of a document without `((`."""
    if "((" not in state.src:
        return  # most documents: one scan in C, not a walk over the tokens
    blocks = state.env.get(BLOCKS, {})
    doc = get_state(state.env)
    for inline in state.tokens:
        if inline.type != "inline" or "((" not in inline.content or not inline.children:
            continue
        children: list[Token] = []
        cursor, in_link = 0, 0
        for child in inline.children:
            in_link += {"link_open": 1, "link_close": -1}.get(child.type, 0)
            if child.type != "text" or "((" not in child.content:
                children.append(child)
                continue
            at = 0
            for found in BLOCK_REF.finditer(child.content):
                text = blocks.get(found.group(1).lower())
                offset = inline.content.find(found.group(0), cursor)
                cursor = offset + 1 if offset >= 0 else cursor
                if text is None:
                    line, col = locate(
                        doc, inline.map[0] if inline.map else 0, inline.content, max(offset, 0)
                    )
                    doc.warn(line, col, OTHER_PAGE.format(id=found.group(1)))
                    continue
                if found.start() > at:
                    children.append(_text(child.content[at : found.start()]))
                shown = _link(state, found.group(1).lower(), text)
                children.extend(shown[1:-1] if in_link else shown)  # no link in a link
                at = found.end()
            if at == 0:
                children.append(child)
            elif at < len(child.content):
                children.append(_text(child.content[at:]))
        inline.children = children


IMAGE_SIZE = re.compile(
    r"\{:(width|height)[ \t]+(\d+(?:\.\d+)?)(?:,?[ \t]*:(width|height)[ \t]+(\d+(?:\.\d+)?))?\}"
)
"""The size Logseq writes after an image it resized, an EDN map: `{:height 143, :width 749}`."""


def logseq_image_sizes(state: StateCore) -> None:
    """Core rule: an image followed by Logseq's size (`IMAGE_SIZE`) gets that width and
    height; the map showed as text after it. Costs one substring test of a document without
    `{:`."""
    if "{:" not in state.src:
        return
    for inline in state.tokens:
        if inline.type != "inline" or "{:" not in inline.content or not inline.children:
            continue
        children = inline.children
        for index in range(len(children) - 1):
            image, after = children[index], children[index + 1]
            if image.type != "image" or after.type != "text":
                continue
            found = IMAGE_SIZE.match(after.content)
            if found is None:
                continue
            for key, value in ((found.group(1), found.group(2)), (found.group(3), found.group(4))):
                if key:
                    image.attrs[key] = value.split(".", 1)[0]
            after.content = after.content[found.end() :]
        inline.children = [t for t in children if t.type != "text" or t.content]


def _text(content: str) -> Token:
    """Return a text token."""
    token = Token("text", "", 0)
    token.content = content
    return token


def _link(state: StateCore, block_id: str, text: str) -> list[Token]:
    """Return the tokens of a link to the block `block_id` showing `text` (its references
    shown as `…`: one level of quoting)."""
    opening = Token("link_open", "a", 1)
    opening.attrs = {"href": "#" + block_id, "class": "block-ref"}
    children: list[Token] = []
    state.md.inline.parse(BLOCK_REF.sub("…", text) or "…", state.md, state.env, children)
    return [opening, *children, Token("link_close", "a", -1)]


BEGIN = re.compile(r"#\+BEGIN_([A-Za-z]+)(?:[ \t]+.*)?", re.IGNORECASE)
"""The opening line of one of Logseq's `#+BEGIN_…` blocks."""

ADMONITIONS = {
    "NOTE": ("note", ""),
    "TIP": ("tip", ""),
    "IMPORTANT": ("important", ""),
    "CAUTION": ("caution", ""),
    "WARNING": ("warning", ""),
    "PINNED": ("note", "Pinned"),
}
"""Logseq's admonitions (its `admonition` component's types): callout kind and title."""


UNCLOSED = (
    "`{line}` is never closed in its block, so it is shown as text; add `#+END_{name}` "
    "on a line of its own after its content"
)
UNREAD = (
    "`{line}` opens a Logseq (Org-mode) block that postil does not read, so it is shown as "
    "text; write a fenced code block, a quote or plain text instead"
)


def logseq_admonition(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: `#+BEGIN_NOTE` … `#+END_NOTE` is a callout (`ADMONITIONS`) holding the
    Markdown between, `#+BEGIN_QUOTE` … `#+END_QUOTE` a block quote. The closing line may
    have a tag after it (`#+END_NOTE #card`: a flashcard's, left out); a block never
    closed inside its container stays text."""
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("#+", begin):
        return False
    found = BEGIN.fullmatch(state.src, begin, state.eMarks[start_line])
    if found is None:
        return False
    name, col = found.group(1).upper(), begin - state.bMarks[start_line] + 1
    if name not in ADMONITIONS and name != "QUOTE":
        if not silent and _end_line(state, start_line, end_line, name) >= 0:
            line = found.group(0).rstrip()
            get_state(state.env).warn(start_line, col, UNREAD.format(line=line))
        return False
    close = _end_line(state, start_line, end_line, name)
    if close < 0:
        if not silent:
            message = UNCLOSED.format(line=found.group(0).rstrip(), name=found.group(1))
            get_state(state.env).warn(start_line, col, message)
        return False
    if silent:
        return True
    if name == "QUOTE":
        push_quote(state, (start_line, close), {})
    else:
        kind, title = ADMONITIONS[name]
        meta: dict[str, str | None] = {"kind": kind, "title": title, "collapse": None}
        push_callout(state, (start_line, close), meta, found.group(0))
    state.line = close + 1
    return True


def _end_line(state: StateBlock, start_line: int, end_line: int, name: str) -> int:
    """Return the line of `#+END_<name>` in the container, or -1."""
    closing = re.compile(r"#\+END_" + name + r"(?:\s.*)?", re.IGNORECASE)
    for line in range(start_line + 1, end_line):
        if state.isEmpty(line):
            continue
        if state.sCount[line] < state.blkIndent:
            return -1
        first = state.bMarks[line] + state.tShift[line]
        if closing.fullmatch(state.src, first, state.eMarks[line]):
            return line
    return -1


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
    if not _has_lone_dash(state):
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


LONE_DASH = re.compile(r"^[ \t>]*-[ \t]*$", re.MULTILINE)
"""A line that is one `-` (after indentation or quote markers)."""


def _has_lone_dash(state: StateBlock) -> bool:
    """Tell (once a document, kept in `env`) whether any line is a lone `-`: a post
    without one pays one scan of its source for `empty_bullet`."""
    key = ("_lone_dash", len(state.src), hash(state.src))
    known = state.env.get("_lone_dash")
    if known is None or known[0] != key:
        known = (key, LONE_DASH.search(state.src) is not None)
        state.env["_lone_dash"] = known
    return bool(known[1])


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
