"""Attributes on images, links, code, headings and blocks (Pandoc, Quarto and kramdown)."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.attrlist import attribute_end, clean_attributes, read_attributes
from postil.markdown.state import RenderState, get_state
from postil.markdown.theorem import THEOREMS

KRAMDOWN_TOC = re.compile(r"\{:\s*toc\s*\}")
"""kramdown's table of contents marker, after a one-item list (`* TOC`) that it replaces."""

INLINE_TARGETS = ("image", "link_close", "code_inline")
"""Inline tokens an attribute list written right after them (no space) applies to."""


IMAGE_SHORTHANDS = {"w": "width", "h": "height"}
"""Chirpy's names for an image's size (`![a](a.png){: w="700" h="400" }`: its "Writing a New
Post", Size), read as `width` and `height`."""

CAPTION_PREFIX = re.compile(r"(?:[Tt]able)?:(?=\s)")
"""A paragraph right after or right before a table starting with this (`Table:`, `table:`
or `:`) is its caption: Pandoc's syntax, which Quarto writes `: Caption {#tbl-x}`. Read by
the table plugin; here so that such a paragraph's attribute list is left to it."""

QUARTO_LABEL = re.compile(f"(?:{'|'.join(('eq', 'fig', 'tbl', 'sec', *THEOREMS))})-")
"""The id of a Quarto cross-reference label (`postil.markdown.xref`)."""

SPAN_CLOSES = frozenset({"em_close", "strong_close", "s_close", "mark_close"})
"""Inline elements a list touching their end applies to (`_span_attributes`)."""

SPAN_ATTRIBUTES = re.compile(r"[*_~=]\{")
"""A list touching the closing delimiter of emphasis, a strikethrough or a mark: the only
texts `_span_attributes` looks at (one search per paragraph)."""

RAW_ATTRIBUTE = re.compile(r"\{=([A-Za-z][\w-]*)\}")
"""Pandoc's raw attribute after a code span (`` `<b>x</b>`{=html} ``): its format."""


def attrs_plugin(md: MarkdownIt) -> None:
    """Read attribute lists after images, links, code spans and headings, and around blocks.

    Syntax (Pandoc/Quarto, then kramdown's inline attribute lists)::

        ![Loss](loss.png){width=60% .bordered}      → <img … class="bordered" style="width:60%">
        [the paper](https://x.org){target="_blank"} → <a … target="_blank" rel="noopener">
        ## Results {#results .unlisted}             → <h2 id="results" class="unlisted">
        `<b>x</b>`{=html} `\\LaTeX`{=latex}           → <b>x</b> (raw HTML; other formats go)
        A paragraph.
        {: .lead}                                   → <p class="lead">  (kramdown: the block before)

        {.note}
        A paragraph.                                → <p class="note">  (Djot: the block after)

        A paragraph {.lead}                         → <p class="lead">  (markdown-it-attrs,
        - item {.red}                               → <li class="red">   which VitePress
        | cell {.c} |                               → <td class="c">     bundles)
        | a |⏎| - |⏎| 1 |⏎⏎{.wide}                   → <table class="wide">
        *red*{.red} **b**{: .x}                     → <em class="red">, <strong class="x">

    An attribute list must touch the inline element it follows (`![a](b.png) {.x}` stays
    text, except the figure plugin's `{#fig-id}`): an image, a link, a code span, emphasis,
    a strikethrough or a mark (kramdown's span IAL); at the end of a paragraph's, a tight
    list item's or a table cell's text, after a space, it is the block's (markdown-it-attrs'
    "end of block"; not kramdown's span `{: …}` nor `{-}`, nor a Quarto label such as
    `{#fig-x}`, nor after a bracket). A line holding only an attribute list applies to the block
    right before it when written kramdown's way (`{: …}`, no blank line between), otherwise
    to the next block; with neither it is a warning. One under a table is the table's
    (markdown-it-attrs' table form), right under its last row or after a blank line, unless
    it touches a block after it. kramdown's `* TOC` + `{:toc}` is
    dropped (the page shows its own table of contents). Attributes pass
    `postil.markdown.attrlist.clean_attributes` (the allow-list); each dropped one is a
    warning at its line. Heading ids given this way replace the slug (heading plugin); the
    attributes as written are kept in `token.meta["attrs"]` (image sizing reads `width`).
    No CSS classes of its own.
    """
    md.inline.ruler.push("attrs_inline", attrs_inline)
    md.block.ruler.before(
        "paragraph", "attrs_block", attrs_block, {"alt": ["paragraph", "blockquote", "list"]}
    )
    md.core.ruler.after("block", "attrs_attach", attrs_attach)
    md.core.ruler.after("inline", "attrs_heading", attrs_heading)


def attrs_inline(state: StateInline, silent: bool) -> bool:
    """Read `{…}` right after an image, a link or a code span and set it on that token."""
    if state.src[state.pos] != "{" or state.pending or not state.tokens:
        return False
    last = state.tokens[-1]
    if last.type == "footnote_ref" and state.src.startswith("{:", state.pos):
        return _note_ial(state)
    if last.type not in INLINE_TARGETS:
        return False
    raw = RAW_ATTRIBUTE.match(state.src, state.pos, state.posMax)
    if raw is not None and last.type == "code_inline":
        if not silent:
            _raw_inline(state, raw.group(1))
        state.pos = raw.end()
        return True
    end = attribute_end(state.src, state.pos, state.posMax)
    attrs = read_attributes(state.src[state.pos : end]) if end > 0 else None
    if attrs is None:
        return False
    if not silent:
        target = _opening(state.tokens, len(state.tokens) - 1)
        apply_attributes(target, attrs)
    state.pos = end
    return True


def _note_ial(state: StateInline) -> bool:
    """Pass over kramdown's span IAL after a note reference (`[^1]{:.x}`): kramdown assigns
    it to the marker, which its HTML converter leaves without attributes (its author on
    gettalong/kramdown#194), so nothing is shown; it was shown as text. Pandoc reads no
    attributes there, and `{.x}` without the colon stays text as Pandoc leaves it."""
    end = attribute_end(state.src, state.pos, state.posMax)
    if end < 0 or read_attributes(state.src[state.pos : end]) is None:
        return False
    state.pos = end
    return True


def _raw_inline(state: StateInline, output_format: str) -> None:
    """Make the code span before a raw attribute raw HTML, or drop it when its format is
    another (Pandoc's raw inline: `{=latex}` is left out of HTML output)."""
    code = state.tokens[-1]
    if output_format.lower() in ("html", "html4", "html5"):
        code.type, code.tag, code.markup = "html_inline", "", ""
    else:
        state.tokens.pop()


def _opening(tokens: list[Token], index: int) -> Token:
    """Return the token that opens the element closed by `tokens[index]` (or that token)."""
    depth = 0
    for i in range(index, -1, -1):
        depth += tokens[i].nesting
        if depth >= 0:
            return tokens[i]
    return tokens[index]


def attrs_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Read a line holding only an attribute list as an `attrs_block` token."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{", pos):  # most lines: no slice made
        return False
    line = state.src[pos : state.eMarks[start]].rstrip()
    if attribute_end(line, 0) != len(line):
        return False
    toc = KRAMDOWN_TOC.fullmatch(line) is not None
    attrs = {} if toc else read_attributes(line)
    if attrs is None:
        return False
    if silent:
        # Only kramdown's `{: …}` ends the paragraph above it (its block IAL): a Djot line
        # `{k=v}` inside a paragraph may be TeX of a `$$` formula spanning lines. Any ends a
        # table, whose row it would be (arve0/markdown-it-attrs#113: `| a |⏎{.lorem}`).
        return line.startswith("{:") or state.parentType == "table"
    token = state.push("attrs_block", "", 0)
    token.map = [start, start + 1]
    token.meta = {"attrs": attrs, "kramdown": line.startswith("{:"), "text": line, "toc": toc}
    state.line = start + 1
    return True


def attrs_attach(state: StateCore) -> None:
    """Move every `attrs_block`'s attributes onto its block and drop the token."""
    tokens, doc = state.tokens, get_state(state.env)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type != "attrs_block":
            i += 1
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if after is not None and after.type == "attrs_block" and not token.meta["kramdown"]:
            after.meta["attrs"] = _merged(token.meta["attrs"], after.meta["attrs"])
        elif token.meta["toc"]:
            i = _drop_toc_placeholder(tokens, i)
        else:
            target = _block_target(tokens, i)
            if target is None:
                doc.warn(
                    token.map[0] if token.map else None,
                    1,
                    f"attribute list `{token.meta['text']}` belongs to no block; write it "
                    "on the line right after the block (kramdown) or right before it",
                )
            else:
                apply_attributes(target, token.meta["attrs"])
                report_dropped(doc, target, token.map[0] if token.map else None)
        del tokens[i]


def _drop_toc_placeholder(tokens: list[Token], index: int) -> int:
    """Remove the list a kramdown `{:toc}` line (at `index`) stands under, and return the
    line's new index: the page has its own table of contents. Anything but a list right
    before it is left alone."""
    if index == 0 or tokens[index - 1].type not in ("bullet_list_close", "ordered_list_close"):
        return index
    depth, start = 0, index - 1
    while start >= 0:
        depth += tokens[start].nesting
        if depth == 0:
            break
        start -= 1
    del tokens[start:index]
    return start


def _merged(first: dict[str, str], second: dict[str, str]) -> dict[str, str]:
    """Return two stacked attribute lists as one: classes add up, later values win."""
    merged = {**first, **second}
    if "class" in first and "class" in second:
        merged["class"] = f"{first['class']} {second['class']}"
    return merged


LIQUID_RAW = {"liquid_raw_open": 1, "liquid_raw_close": -1}
"""The tokens of Liquid's `{% raw %}` and `{% endraw %}` lines (`postil.markdown.liquid`),
which Jekyll removes before kramdown reads the page: an attribute line beside one belongs
to the block on its other side (al-folio's and nbconvert's posts end a raw region with the
`{: …}` of the image after it)."""


def _block_target(tokens: list[Token], index: int) -> Token | None:
    """Return the opening token of the block an attribute line at `tokens[index]` is for."""
    token = tokens[index]
    first, last, lines, shift = index, index, 0, 0
    while first > 0 and tokens[first - 1].type in LIQUID_RAW:  # `{% raw %}⏎{: …}`
        first, lines = first - 1, lines + 1
        shift -= LIQUID_RAW[tokens[first].type]
    before = _opening(tokens, first - 1) if first > 0 else None
    adjacent = (
        before is not None
        and tokens[first - 1].nesting <= 0
        and before.level == token.level + shift
        and before.map is not None
        and token.map is not None
        and before.map[1] + lines == token.map[0]
    )
    shift = 0
    while last + 1 < len(tokens) and tokens[last + 1].type in LIQUID_RAW:  # `{: …}⏎{% endraw %}`
        last += 1
        shift += LIQUID_RAW[tokens[last].type]
    after = tokens[last + 1] if last + 1 < len(tokens) else None
    follows = after is not None and after.nesting >= 0 and after.level == token.level + shift
    if adjacent and (token.meta["kramdown"] or not follows):
        return before
    if _table_attributes(before, token, after):
        return before
    return after if follows else None


def _table_attributes(before: Token | None, token: Token, after: Token | None) -> bool:
    """Tell whether the attribute line `token` is markdown-it-attrs' list for the table
    `before` it: `{.x}` (not kramdown's `{: …}`) after a blank line below the table and not
    touching a block after it (VitePress bundles markdown-it-attrs; its tables take their
    list so, arve0/markdown-it-attrs#113)."""
    if before is None or before.type != "table_open" or token.meta["kramdown"]:
        return False
    if after is None or after.map is None or token.map is None:
        return True
    return after.map[0] != token.map[1]


def attrs_heading(state: StateCore) -> None:
    """Move a trailing `{…}` of a heading's, paragraph's, list item's or table cell's text
    onto that block, and one touching emphasis onto it; report dropped attributes."""
    tokens, doc = state.tokens, get_state(state.env)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            _heading_attributes(token, tokens[i + 1])
        elif token.type == "inline" and "{" in token.content:  # every list is written `{…}`
            _inline_attributes(tokens, i, doc)
        if token.meta and token.meta.get("dropped_attrs"):
            report_dropped(doc, token, token.map[0] if token.map else None)


def _inline_attributes(tokens: list[Token], index: int, doc: RenderState) -> None:
    """Read the lists of the inline token at `index` that end its block's text or touch
    emphasis, and report what the allow-list dropped from its elements."""
    inline = tokens[index]
    if inline.content.endswith("}") and index > 0:
        _block_end_attributes(tokens, index)
    if SPAN_ATTRIBUTES.search(inline.content):
        _span_attributes(inline)
    line0 = inline.map[0] if inline.map else None
    for child in inline.children or ():
        report_dropped(doc, child, line0)


def _span_attributes(inline: Token) -> None:
    """Move a list touching the end of emphasis, strong emphasis, a strikethrough or a mark
    (`*red*{.red}`, `**b**{: .x}`) onto that element: kramdown's span IAL ("Span IALs") and
    markdown-it-attrs' inline form. Emphasis is paired after the inline rules, so this is
    done on the finished tokens."""
    children = inline.children or []
    for index in range(1, len(children)):
        child = children[index]
        if child.type != "text" or children[index - 1].type not in SPAN_CLOSES:
            continue
        end = attribute_end(child.content, 0) if child.content.startswith("{") else -1
        attrs = read_attributes(child.content[:end]) if end > 0 else None
        if attrs is not None:
            apply_attributes(_opening(children, index - 1), attrs)
            child.content = child.content[end:]
    inline.children = [c for c in children if c.type != "text" or c.content]


def _heading_attributes(heading: Token, inline: Token) -> None:
    """Read `## Title {#id .class}`: strip the list from the text, set it on the heading."""
    attrs = _trailing_attributes(inline, spaced=False)
    if attrs is not None:
        apply_attributes(heading, attrs)


def _block_end_attributes(tokens: list[Token], index: int) -> None:
    """Read markdown-it-attrs' list at the end of a paragraph's, a tight list item's or a
    table cell's text (`text {.red}`, `- item {.red}`, `| cell {scope=col} |`), after a
    space and not kramdown's `{: …}` or pandoc-sidenote's `{-}`, onto that block (VitePress
    bundles markdown-it-attrs; arve0/markdown-it-attrs#142, #150)."""
    opening = tokens[index - 1]
    if opening.type == "paragraph_open" and opening.hidden and index > 1:
        if tokens[index - 2].type == "list_item_open":
            opening = tokens[index - 2]  # a tight item's hidden paragraph: the item
    if opening.type not in ("paragraph_open", "list_item_open", "th_open", "td_open"):
        return
    inline = tokens[index]
    if CAPTION_PREFIX.match(inline.content) or any(
        child.type == "image" for child in inline.children or ()
    ):
        return  # `: Caption {#tbl-x}`, `![a](b.png) {#fig-x}`: the figure plugin's labels
    attrs = _trailing_attributes(inline, spaced=True)
    if attrs is not None:
        apply_attributes(opening, attrs)


def _quarto_label(attrs: dict[str, str]) -> bool:
    """Tell whether an attribute list names a Quarto cross-reference label (`{#fig-x}`,
    `{#eq-x}`, `{#thm-x}`): the xref and figure plugins' business, not a block's id."""
    return QUARTO_LABEL.match(attrs.get("id", "")) is not None


def _trailing_attributes(inline: Token, *, spaced: bool) -> dict[str, str] | None:
    """Strip an attribute list that ends `inline`'s text and return it (None: there is
    none). `spaced`: only a list after a space, not kramdown's `{: …}` or `{-}` (for
    blocks other than headings, whose text may end so)."""
    children = inline.children or []
    run, text = _trailing_text(children)
    start = _list_start(text)
    if start < 0:
        return None
    written, before = text[start:], text[:start].rstrip()
    if spaced and (
        written.startswith("{:")
        or written == "{-}"
        or before.endswith("]")  # `[a] {.x}`: a Pandoc span with a space, text
        or (start > 0 and not text[start - 1].isspace())
        or (start == 0 and len(children) > run and children[-run - 1].type != "softbreak")
    ):
        return None
    attrs = read_attributes(written)
    if attrs is None or (spaced and _quarto_label(attrs)):
        return None
    last = children[len(children) - run]
    last.type, last.content = "text", before
    del children[len(children) - run + 1 :]
    if not last.content:
        children.pop()
        if children and children[-1].type == "softbreak":
            children.pop()  # `text⏎{.note}`: the list had a line of its own
    source = inline.content.rstrip()  # as written: its escapes may differ from the text's
    at = _list_start(source)
    inline.content = source[:at].rstrip() if at >= 0 else source
    return attrs


def _trailing_text(children: list[Token]) -> tuple[int, str]:
    """Return how many text tokens end `children` and their text joined (0, "" when the
    last is no text): `text_join` joins them later, and a backslash before a letter (TeX in
    a value, `{data-tex="e^{i\\pi}"}`) is a token of its own until then."""
    run = 0
    while run < len(children) and children[-1 - run].type in ("text", "text_special"):
        run += 1
    if not run or children[-1].type != "text":
        return 0, ""
    return run, "".join(child.content for child in children[len(children) - run :]).rstrip()


def _list_start(text: str) -> int:
    """Return where the attribute list ending `text` starts, or -1."""
    start = text.rfind("{")
    while start >= 0 and attribute_end(text, start) != len(text):
        start = text.rfind("{", 0, start)
    return start


def apply_attributes(token: Token, attrs: dict[str, str]) -> None:
    """Set the allowed `attrs` on `token` (classes add up); remember the dropped ones.

    `token.meta["attrs"]` receives the attributes as written; `token.meta["dropped_attrs"]`
    the refused ones with their reasons, for `report_dropped`.
    """
    if token.type == "image":
        attrs = {IMAGE_SHORTHANDS.get(name, name): value for name, value in attrs.items()}
    cleaned = clean_attributes(attrs)
    kept = dict(cleaned.kept)
    if "class" in kept and token.attrs.get("class"):
        kept["class"] = f"{token.attrs['class']} {kept['class']}"
    if "style" in kept and token.attrs.get("style"):
        kept["style"] = f"{token.attrs['style']};{kept['style']}"
    token.attrs.update(kept)
    token.meta = {**(token.meta or {}), "attrs": {**(token.meta or {}).get("attrs", {}), **attrs}}
    if cleaned.dropped:
        token.meta["dropped_attrs"] = cleaned.dropped


def report_dropped(doc: RenderState, token: Token, line0: int | None) -> None:
    """Warn once about each attribute the allow-list refused on `token`."""
    dropped = token.meta.pop("dropped_attrs", ()) if token.meta else ()
    for name, reason in dropped:
        doc.warn(line0, 1, f"attribute `{name}` is left out: {reason}; remove it")
