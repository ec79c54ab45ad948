"""Tables written in raw HTML scroll inside the column, as Markdown's tables do.

A post's own `<table>` (kramdown and Hugo authors write one for merged cells or a styled
result table) is as wide as its content: on a phone it made the whole page scroll
sideways. A raw HTML block that is a table is put in the same scroll region as a Markdown
table (`postil.markdown.table`: `<div class="table-wrap" role="region" tabindex="0">`,
focusable so the arrow keys scroll it, named for assistive technology), marked
`data-html` so the theme leaves the table's own look alone.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.math.text import to_plain_text

TABLE_TAG = re.compile(r"<(/?)table\b", re.I)
"""A raw table's opening or closing tag (group 1: `/` for a closing one)."""
_TABLE_START = re.compile(r"\s*(?:<!--.*?-->\s*)*<table\b", re.I | re.S)


def rawtable_plugin(md: MarkdownIt) -> None:
    """Put each table written as a raw HTML block in a scroll region.

    Syntax: a raw HTML block (or a run of them, as `postil.markdown.htmlblock` reads a
    table across blank lines) that starts with `<table` and ends with its `</table>`::

        <table>
          <tr><th>Rank</th><th>Team</th></tr>
          <tr><td>1</td><td>118</td></tr>
        </table>

    becomes `<div class="table-wrap" data-html role="region" tabindex="0" aria-label="Table:
    Rank, Team">` around the author's HTML, unchanged: it scrolls, and keeps the author's
    alignment, width and rules (`data-html`: article.css styles only Markdown's tables).
    The region is named by the table's `<caption>`, else its first row's header cells, else
    "Table". A table inside other raw HTML (`<font size="2"><table>…</table></font>`,
    `<div class="wide"><table>…`, `<details>`), or followed by more HTML or text in its
    block, gets the same region inside the author's HTML, written around its tags
    (`_wrap_inner_tables`); an outer table's inner tables are its own. One with Markdown
    blocks between its tags (a code block, a paragraph) is left as written. CSS classes:
    table-wrap.
    """
    md.core.ruler.after("rawhtml", "raw_tables", wrap_raw_tables)


def wrap_raw_tables(state: StateCore) -> None:
    """Insert the scroll region's opening and closing `html_block` tokens around each raw
    HTML table of the document."""
    tokens = state.tokens
    if not any(t.type == "html_block" and "<table" in t.content.lower() for t in tokens):
        return
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        end = _table_end(tokens, i) if token.type == "html_block" else None
        if end is None:
            out.append(token)
            i += 1
            continue
        name = _region_name(
            "".join(t.content for t in tokens[i : end + 1] if t.type == "html_block")
        )
        opening = Token("html_block", "", 0)
        opening.content = _opening(name) + "\n"
        closing = Token("html_block", "", 0)
        closing.content = "</div>\n"
        opening.level = closing.level = token.level
        opening.meta["table_region"] = closing.meta["table_region"] = True
        out += [opening, *tokens[i : end + 1], closing]
        for wrapped in tokens[i : end + 1]:
            wrapped.meta["table_region"] = True
        i = end + 1
    _wrap_inner_tables(out)
    state.tokens = out


def _opening(name: str) -> str:
    """Return the scroll region's opening tag, named `name`."""
    return (
        f'<div class="table-wrap" data-html role="region" tabindex="0" aria-label="{escape(name)}">'
    )


def _wrap_inner_tables(tokens: list[Token]) -> None:
    """Write the scroll region's tags around each outermost raw HTML table that
    `wrap_raw_tables` did not wrap whole: inside the author's HTML, around the table's own
    tags, in the `html_block` tokens' content (`raw_table_spans`)."""
    spans = [span for span in raw_table_spans(tokens) if "table_region" not in tokens[span[0]].meta]
    for first, at, last, end in reversed(spans):
        html = "".join(t.content for t in tokens[first : last + 1])
        name = _region_name(html[at : len(html) - len(tokens[last].content) + end])
        closing = tokens[last].content
        tokens[last].content = closing[:end] + "</div>" + closing[end:]
        opening = tokens[first].content
        tokens[first].content = opening[:at] + _opening(name) + opening[at:]


def raw_table_spans(tokens: list[Token]) -> list[tuple[int, int, int, int]]:
    """Return where each outermost raw HTML table is: (index of the `html_block` holding its
    `<table`, the tag's offset there, index of the one holding its `</table>`, the offset
    after that tag's `>`). A table whose tags have anything but raw HTML blocks of its level
    between them (Markdown in a cell: CommonMark's example 191) is none."""
    spans: list[tuple[int, int, int, int]] = []
    depth, start, level = 0, (0, 0), 0
    for i, token in enumerate(tokens):
        if token.type != "html_block" or (depth and token.level != level):
            depth = 0  # Markdown between a table's tags: that table is left as written
            if token.type != "html_block":
                continue
        for found in TABLE_TAG.finditer(token.content):
            if not found.group(1):
                if depth == 0:
                    start, level = (i, found.start()), token.level
                depth += 1
            elif depth:
                depth -= 1
                close = token.content.find(">", found.end())
                if depth == 0 and close >= 0:
                    spans.append((*start, i, close + 1))
    return spans


def _table_end(tokens: list[Token], start: int) -> int | None:
    """Return the index of the `html_block` that closes the table `tokens[start]` opens, or
    None when `tokens[start]` does not start with a table, the table does not end a raw
    block, or anything but raw HTML blocks is between its tags (CommonMark's example 191:
    an indented `<td>` after a blank line is a code block inside the table)."""
    first = tokens[start]
    if not _TABLE_START.match(first.content):
        return None
    depth = 0
    for i in range(start, len(tokens)):
        token = tokens[i]
        if token.type != "html_block" or token.level != first.level:
            return None  # Markdown between the table's tags: its cells are not plain HTML
        for found in TABLE_TAG.finditer(token.content):
            depth += -1 if found.group(1) else 1
            if depth == 0:
                rest = token.content[found.end() :]
                return i if re.fullmatch(r"\s*>\s*", rest) else None
    return None


class _TableName(HTMLParser):
    """Read a table's caption and the text of its first row's header cells; a table inside
    a cell (a nested table) has its own, which are not read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.caption: list[str] = []
        self.headers: list[str] = []
        self.into: str | None = None  # "caption" or "th" while inside one
        self.depth = 0  # tables open
        self.first_row_done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.depth += 1
        elif self.depth == 1 and tag == "caption":
            self.into = "caption"
        elif self.depth == 1 and tag == "th" and not self.first_row_done:
            self.into = "th"
            self.headers.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.depth -= 1
        elif self.depth == 1 and tag in ("caption", "th"):
            self.into = None
        elif self.depth == 1 and tag == "tr":
            self.first_row_done = True

    def handle_data(self, data: str) -> None:
        if self.depth != 1:
            return
        if self.into == "caption":
            self.caption.append(data)
        elif self.into == "th":
            self.headers[-1] += data


def _region_name(html: str) -> str:
    """Return "Table: <caption>", "Table: A, B" (the first row's header cells) or "Table"."""
    reader, fed = _TableName(), 0
    for row_end in re.finditer(r"</tr\s*>", html, re.I):  # up to the first row, not a long table
        reader.feed(html[fed : row_end.end()])
        fed = row_end.end()
        if reader.first_row_done:
            break
    else:
        reader.feed(html[fed:])
    caption = _readable(" ".join("".join(reader.caption).split()))
    headers = [_readable(" ".join(h.split())) for h in reader.headers if h.strip()]
    if caption:
        return f"Table: {caption}"
    return f"Table: {', '.join(headers)}" if headers else "Table"


_FORMULA = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)")


def _readable(text: str) -> str:
    """Return a caption or header cell's text with each formula as readable text (`$\\alpha$`
    → `α`), as a Markdown table's name reads its math (`math.text.to_plain_text`)."""
    if "$" not in text and "\\(" not in text:
        return text
    return _FORMULA.sub(lambda m: to_plain_text(next(g for g in m.groups() if g)), text)
