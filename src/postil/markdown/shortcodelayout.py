"""Hugo themes' layout shortcodes: columns and cards.

Hugo Book's and Geekdoc's `columns`: `{{< columns >}}` … `<--->` … `{{< /columns >}}`: the
Markdown between the tags, cut at each line that is only `<--->`, is one column a part
(Hugo Book's `layouts/shortcodes/columns.html` splits `.Inner` at that marker into
`<div class="book-columns">`'s divs, Geekdoc's likewise). Left as Markdown, the marker
showed as text and the parts ran on as one column. The columns sit side by side when the
text column is wide enough and stack on a phone (`.columns` in base.css).

Hextra's `{{< cards >}}` of `{{< card link="…" title="…" subtitle="…" >}}` and Docsy's
`{{< cardpane >}}` of paired `{{< card header="…" >}}…{{< /card >}}`: a grid of cards, each
a link (its `link`, `href` or `url`) or a box holding its Markdown (`.cards` in base.css).
Hugo reads shortcodes before Markdown, so the card tags may be indented any amount.
"""

from __future__ import annotations

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock

from postil.markdown.tagsyntax import Tag, scan_tag, shortcode_params, tokenize_lines

COLUMNS = frozenset({"columns"})
"""The paired shortcode whose content is cut into columns."""

MARKER = "<--->"
"""The line that ends one column and begins the next."""


def push_columns(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a `columns` shortcode on lines `start` to `close` (its tags' lines): a
    `columns` div holding one `column` div a part of the lines between, the parts cut at
    `MARKER` lines (at the container's indent or less than 4 spaces in). A part with no
    text still makes its column, as Hugo Book's template does."""
    del tag  # `columns` takes no parameters
    cuts = [
        line
        for line in range(start + 1, close)
        if state.sCount[line] - state.blkIndent < 4
        and state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        == MARKER
    ]
    opening = state.push("columns_open", "div", 1)
    opening.attrs, opening.map = {"class": "columns"}, [start, close + 1]
    for first, last in zip([start, *cuts], [*cuts, close], strict=True):
        column = state.push("column_open", "div", 1)
        column.attrs, column.map = {"class": "column"}, [first, last + 1]
        tokenize_lines(state, first + 1, last)
        state.push("column_close", "div", -1).map = [last, last + 1]
    state.push("columns_close", "div", -1).map = [close, close + 1]


CARDS = frozenset({"cards", "cardpane"})
"""Paired shortcodes holding a grid of `card`s (Hextra's `cards`, Docsy's `cardpane`)."""

CARD_LINK_PARAMS = ("link", "href", "url")
"""A card's link, as Hextra (`link`), Docsy (`url` in its `card` list) and others name it."""


def push_cards(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a `cards` or `cardpane` shortcode on lines `start` to `close`: a `cards` div of
    its `card` shortcodes (`card_html`), a paired one holding the Markdown between its
    tags; other lines between are Markdown, as written."""
    del tag
    opening = state.push("cards_open", "div", 1)
    opening.attrs, opening.map = {"class": "cards"}, [start, close + 1]
    line, text_from = start + 1, start + 1
    while line < close:
        card = _card_tag(state, line)
        if card is None:
            line += 1
            continue
        if text_from < line:
            tokenize_lines(state, text_from, line)
        end = _card_closer(state, line, close) if not card.inner.endswith("/") else None
        if end is None:
            html = state.push("html_block", "", 0)
            html.map, html.content = [line, line + 1], card_html(card) + "\n"
            line += 1
        else:
            _push_boxed_card(state, line, end, card)
            line = end + 1
        text_from = line
    if text_from < close:
        tokenize_lines(state, text_from, close)
    state.push("cards_close", "div", -1).map = [close, close + 1]


def _card_tag(state: StateBlock, line: int, closing: bool = False) -> Tag | None:
    """Return the `card` shortcode alone on `line` at any indent (the closing `/card` when
    `closing`), else None."""
    begin, end = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    found = scan_tag(state.src, begin, end) if state.src.startswith("{{", begin) else None
    if found is None or found.kind != "shortcode" or state.src[found.end : end].strip():
        return None
    if found.closing != closing or found.name.lstrip("/") != "card":
        return None
    return found


def _card_closer(state: StateBlock, line: int, close: int) -> int | None:
    """Return the line of the `{{< /card >}}` closing the card opened on `line`, before the
    set's closing line `close`; None when the card is a single tag (Hextra's)."""
    for after in range(line + 1, close):
        if _card_tag(state, after) is not None:
            return None
        if _card_tag(state, after, closing=True) is not None:
            return after
    return None


def _card_fields(card: Tag) -> dict[str, str]:
    """Return a card shortcode's named parameters (its first positional one is its title)."""
    positional, named = shortcode_params(card.args)
    if positional and "title" not in named:
        named["title"] = positional[0]
    return named


def card_html(card: Tag) -> str:
    """Return the HTML of one single-tag card: a link (`CARD_LINK_PARAMS`) or, without one,
    a box, holding its `image`, `title` (or Docsy's `header`) and `subtitle` as text. The
    link is read by the raw HTML rule as any other (`rawhtml`), so a page's path is
    checked and made the page's URL."""
    fields = _card_fields(card)
    href = next((fields[name] for name in CARD_LINK_PARAMS if fields.get(name)), "")
    title = fields.get("title") or fields.get("header") or ""
    parts = []
    if fields.get("image"):
        parts.append(f'<img class="card-image" src="{escapeHtml(fields["image"])}" alt="">')
    parts.append(f'<span class="card-title">{escapeHtml(title)}</span>')
    if fields.get("subtitle"):
        parts.append(f'<span class="card-subtitle">{escapeHtml(fields["subtitle"])}</span>')
    if href:
        return f'<a class="card" href="{escapeHtml(href)}">{"".join(parts)}</a>'
    return f'<div class="card">{"".join(parts)}</div>'


def _push_boxed_card(state: StateBlock, line: int, end: int, card: Tag) -> None:
    """Push a paired card (Docsy's `{{< card header="…" >}}…{{< /card >}}`, lines `line` to
    `end`): a box with its header, its Markdown, and its `footer`."""
    fields = _card_fields(card)
    opening = state.push("card_open", "div", 1)
    opening.attrs, opening.map = {"class": "card"}, [line, end + 1]
    for key, css in (("title", "card-title"), ("header", "card-title")):
        if fields.get(key):
            _push_inline_paragraph(state, line, fields[key], css)
            break
    tokenize_lines(state, line + 1, end)
    if fields.get("footer"):
        _push_inline_paragraph(state, end, fields["footer"], "card-footer")
    state.push("card_close", "div", -1).map = [end, end + 1]


def _push_inline_paragraph(state: StateBlock, line: int, text: str, css: str) -> None:
    """Push a paragraph of class `css` whose Markdown is `text` (a card's header, footer)."""
    opening = state.push("paragraph_open", "p", 1)
    opening.attrs, opening.map = {"class": css}, [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = text, [line, line + 1], []
    state.push("paragraph_close", "p", -1)
