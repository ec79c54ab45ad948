"""Hugo Book's and Geekdoc's `columns` shortcode as side-by-side columns.

`{{< columns >}}` … `<--->` … `{{< /columns >}}`: the Markdown between the tags, cut at each
line that is only `<--->`, is one column a part (Hugo Book's `layouts/shortcodes/
columns.html` splits `.Inner` at that marker into `<div class="book-columns">`'s divs,
Geekdoc's likewise). Left as Markdown, the marker showed as text and the parts ran on as
one column. The columns sit side by side when the text column is wide enough and stack on
a phone (`.columns` in base.css).
"""

from __future__ import annotations

from markdown_it.rules_block import StateBlock

from postil.markdown.tagsyntax import Tag, tokenize_lines

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
