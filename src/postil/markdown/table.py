"""Tables in a focusable horizontal-scroll wrapper; Pandoc-style numbered table captions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.attrlist import attribute_end, read_attributes
from postil.markdown.attrs import CAPTION_PREFIX, apply_attributes, report_dropped
from postil.markdown.heading import inline_text
from postil.markdown.state import RenderState, get_state


def table_plugin(md: MarkdownIt) -> None:
    """Wrap every table in a scroll region; number tables that have a caption.

    Syntax (Pandoc's table captions: the paragraph after the table, blank line between)::

        | Variant | Memory |
        | --- | --- |
        | Flash attention | $O(n)$ |

        Table: Memory of attention variants. {#tbl-memory}

    Output::

        <figure id="tbl-memory" class="table"><figcaption><span class="figure-label">Table 1
        </span> Memory of attention variants.</figcaption>
        <div class="table-wrap" role="region" tabindex="0" aria-label="Table 1"><table>…
        </table></div></figure>

    An uncaptioned table gets only the wrapper, labelled by its column headers
    ("Table: Variant, Memory"). The region is focusable because axe-core's
    scrollable-region-focusable rule requires keyboard access to scrolled content. Captioned
    tables carry `meta["figure"] = {"id": …, "kind": "table"}` for the figure plugin to number;
    `[](#tbl-memory)` then reads "Table 1". CSS classes: table, table-wrap, figure-label.
    """
    rule = md.block.ruler.__rules__[md.block.ruler.__find__("table")]
    md.block.ruler.at("table", _caption_ends_table(rule.fn), {"alt": list(rule.alt)})
    md.core.ruler.after("inline", "table_caption", table_caption)
    md.add_render_rule("table_open", render_table_open)
    md.add_render_rule("table_close", render_table_close)
    md.add_render_rule("table_caption_open", render_table_caption_open)
    md.add_render_rule("table_caption_close", render_table_caption_close)


BlockRule = Callable[[StateBlock, int, int, bool], bool]


def _caption_ends_table(table_rule: BlockRule) -> BlockRule:
    """Wrap the pipe table rule so that a caption line right under the table ends it.

    GFM reads every line after a table's rows, up to a blank line, as one more row; Pandoc
    reads a line holding no `|` as no row, so `: Caption` or `Table: Caption` written on the
    line under the last row is the table's caption (quarto-dev/quarto-markdown#28). The
    table then ends at that line, which `table_caption` reads as it reads a caption after a
    blank line.
    """

    def pipe_table(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if start_line + 2 > end_line:
            return False
        at = state.bMarks[start_line + 1] + state.tShift[start_line + 1]
        if at >= state.eMarks[start_line + 1] or state.src[at] not in "|-:":
            return False  # the table rule's own first test: most lines start no table
        if not silent:
            end_line = _caption_line(state, start_line, end_line)
        return table_rule(state, start_line, end_line, silent)

    return pipe_table


def _caption_line(state: StateBlock, start_line: int, end_line: int) -> int:
    """Return the line of a caption written right under the pipe table starting at
    `start_line` (a line without `|` that starts `:` or `Table:`), else `end_line`."""
    src, line = state.src, start_line + 1
    if "|" not in src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]:
        return end_line  # no pipe table starts here (or one the table rule refuses)
    for line in range(start_line + 2, end_line):
        text = src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if "|" in text:
            continue
        is_caption = text and state.sCount[line] - state.blkIndent < 4
        return line if is_caption and CAPTION_PREFIX.match(text) else end_line
    return end_line


def table_caption(state: StateCore) -> None:
    """Move a `Table: …` paragraph that follows a table before it, as a caption; one that
    comes right before its table is its caption where it is."""
    tokens = state.tokens
    i = 0
    while i < len(tokens) - 3:
        if (
            tokens[i].type == "table_close"
            and "caption" not in tokens[i].meta  # one caption a table: the one before it
            and _is_caption(tokens[i + 1 : i + 4])
        ):
            start = _table_start(tokens, i)
            caption = tokens[i + 1 : i + 4]
            _make_caption(caption, tokens[start], tokens[i], get_state(state.env))
            tokens[start:start] = caption
            del tokens[i + 4 : i + 7]
            i += 3
        elif (
            tokens[i].type == "paragraph_open"
            and tokens[i + 3].type == "table_open"
            and tokens[i + 3].level == tokens[i].level
            and "caption" not in tokens[i + 3].meta
            and _is_caption(tokens[i : i + 3])
        ):
            close = next(
                j
                for j in range(i + 4, len(tokens))
                if tokens[j].type == "table_close" and tokens[j].level == tokens[i + 3].level
            )
            _make_caption(tokens[i : i + 3], tokens[i + 3], tokens[close], get_state(state.env))
            i += 3
        i += 1


def _is_caption(tokens: list[Token]) -> bool:
    """Return whether three tokens are a paragraph whose text starts with `Table:`."""
    if len(tokens) < 3 or tokens[0].type != "paragraph_open" or tokens[1].type != "inline":
        return False
    children = tokens[1].children or []
    return (
        bool(children)
        and children[0].type == "text"
        and CAPTION_PREFIX.match(children[0].content) is not None
    )


def _table_start(tokens: list[Token], close: int) -> int:
    """Return the index of the `table_open` matching the `table_close` at `close`."""
    for j in range(close, -1, -1):
        if tokens[j].type == "table_open" and tokens[j].level == tokens[close].level:
            return j
    raise ValueError("table_close without table_open")  # markdown-it never produces this


def _make_caption(
    caption: list[Token], table_open: Token, table_close: Token, doc: RenderState
) -> None:
    """Re-type a caption paragraph, strip `Table:` and its attribute list, link it to its
    table.

    The attribute list ending the caption (Quarto's `: Caption {#tbl-x .striped}`) gives
    the table's id (its number's target), Quarto's column classes (`column-margin`, …)
    place the whole table, and its other attributes go on the `<table>` through the
    allow-list (each refused one a warning).
    """
    opening, inline, closing = caption
    children = inline.children or []
    prefix = CAPTION_PREFIX.match(children[0].content)
    children[0].content = children[0].content[prefix.end() if prefix else 0 :].lstrip()
    attrs = _trailing_attributes(children)
    figure_id = attrs.pop("id", None)
    classes = attrs.pop("class", "").split()
    columns = [c for c in classes if c.startswith("column-")]
    rest = [c for c in classes if c not in columns]
    if rest or attrs:
        apply_attributes(table_open, attrs | ({"class": " ".join(rest)} if rest else {}))
        report_dropped(doc, table_open, table_open.map[0] if table_open.map else None)
    opening.type, opening.tag = "table_caption_open", "figure"
    opening.meta = {"figure": {"id": figure_id, "kind": "table"}, "classes": columns}
    opening.map = table_open.map
    closing.type, closing.tag = "table_caption_close", "figure"
    table_open.meta["caption"] = opening
    table_close.meta["caption"] = opening


def _trailing_attributes(children: list[Token]) -> dict[str, str]:
    """Take a whole attribute list off the end of a caption's last text and return it."""
    last = children[-1] if children and children[-1].type == "text" else None
    text = last.content.rstrip() if last is not None else ""
    start = text.rfind("{")
    while start >= 0 and attribute_end(text, start) != len(text):
        start = text.rfind("{", 0, start)
    attrs = read_attributes(text[start:]) if start >= 0 else None
    if last is None or attrs is None:
        return {}
    last.content = text[:start].rstrip()
    return attrs


def render_table_caption_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open the table's figure and its numbered caption."""
    meta = tokens[idx].meta
    figure_id = meta["figure"]["id"]
    id_attr = f' id="{escapeHtml(figure_id)}"' if figure_id else ""
    classes = escapeHtml(" ".join(["table", *meta.get("classes", ())]))
    return (
        f'<figure{id_attr} class="{classes}">\n'
        f'<figcaption><span class="figure-label">{_label(tokens[idx])}</span> '
    )


def render_table_caption_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close the table's caption (the figure closes after the table)."""
    return "</figcaption>\n"


def _label(caption_open: Token) -> str:
    """Return "Table N" for a caption token numbered by the figure plugin, else "Table"."""
    number = caption_open.meta.get("figure_number")
    return f"Table {number}" if number else "Table"


def render_table_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Open the scroll region and the table, naming the region for assistive technology."""
    caption = tokens[idx].meta.get("caption")
    name = _label(caption) if caption else _header_name(tokens, idx, env)
    return (
        f'<div class="table-wrap" role="region" tabindex="0" aria-label="{escapeHtml(name)}">\n'
        + self.renderToken(tokens, idx, options, env)
    )


def _header_name(tokens: Sequence[Token], idx: int, env: Any) -> str:
    """Return "Table: A, B, C" from the header cells of the table opening at `idx` (math
    as readable text); "Table" for a table without a header row (a grid table with no `+==+`
    line), whose cells name nothing."""
    headers: list[str] = []
    for token in islice(tokens, idx + 1, None):  # not a copy of the rest of the document
        if token.type in ("thead_close", "table_close", "tbody_open"):
            break
        if token.type == "inline":
            headers.append(inline_text(token, get_state(env)))
    named = [header for header in headers if header]
    return "Table: " + ", ".join(named) if named else "Table"


def render_table_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Close the table, the scroll region and, for a captioned table, its figure."""
    end = "</figure>\n" if tokens[idx].meta.get("caption") else ""
    return self.renderToken(tokens, idx, options, env) + "</div>\n" + end
