"""Pandoc's grid tables: cells of any Markdown between `+---+` borders and `|` bars.

Pandoc, Quarto and R Markdown posts write a table whose cells hold display math, lists or
several paragraphs as a grid (Pandoc's manual, "Grid tables")::

    +-----------+---------------------+
    | Estimand  | Formula             |
    +:==========+:====================+
    | ATE       | $$                  |
    |           | E[Y_1 - Y_0]        |
    |           | $$                  |
    +-----------+---------------------+

The columns are where the first border has its `+`; a `+===+` border ends the header; a `:`
at a border's column edge aligns the column, as in a pipe table. Each cell's text is read as
Markdown blocks; a cell of one paragraph shows its text without the `<p>` (Pandoc's "plain"
cell). The tokens are the pipe tables' (`table_open` … `td_close`), so the table plugin
wraps, captions and numbers a grid table like any other. Cells spanning columns or rows
(Pandoc 3's spans), tabs and wide characters do not line up with the border: such a table
is text, with a warning at the row. No CSS classes of its own.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from postil.markdown.nesting import fence_closed
from postil.markdown.state import get_state

BORDER = re.compile(r"\+(?:[-=:]+\+)+")
"""A grid table's border line: `+---+:==:+`."""


def gridtable_plugin(md: MarkdownIt) -> None:
    """Read Pandoc grid tables as tables (before paragraphs: a grid interrupts nothing)."""
    md.block.ruler.before("table", "grid_table", grid_table)


def grid_table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a grid table from its top border to its bottom border."""
    if state.is_code_block(start):
        return False
    first = _line(state, start)
    if not first.startswith("+") or "=" in first or BORDER.fullmatch(first) is None:
        return False
    bounds = [i for i, char in enumerate(first) if char == "+"]
    rows: list[tuple[int, list[str]]] = []
    lines: list[str] = []
    header, align_line, close = 0, first, -1
    for line in range(start + 1, end):
        text = _line(state, line)
        if state.sCount[line] != state.sCount[start] or text[:1] not in ("+", "|"):
            break
        if text.startswith("|"):
            lines.append(text)
            continue
        if BORDER.fullmatch(text) is None or len(text) != len(first):
            break
        rows.append((close + 1 if close >= 0 else start + 1, lines))
        lines, close = [], line
        if "=" in text and not header:  # Pandoc 3's second `+===+` starts a footer: body
            header, align_line = len(rows), text
    if close < 0 or lines or not any(row for _, row in rows):
        return False  # no bottom border after the last row, or no row at all
    misfit = next(
        (
            first_line + i
            for first_line, row in rows
            for i, text in enumerate(row)
            if len(text) != len(first) or any(text[b] != "|" for b in bounds)
        ),
        None,
    )
    if misfit is not None:  # a span, a tab, a wide character, a misaligned bar
        if not silent:
            get_state(state.env).warn(
                misfit,
                1,
                "this grid table row does not line up with the columns of its first border "
                "(cells spanning columns, tabs and wide characters are not read), so the "
                "table shows as text; put each `|` under a `+` of the border",
            )
        return False
    if silent:
        return True
    aligns = [_align(align_line[a + 1 : b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    table = state.push("table_open", "table", 1)
    table.map = [start, close + 1]
    if header:
        _section(state, "thead", "th", rows[:header], bounds, aligns)
    if rows[header:]:
        _section(state, "tbody", "td", rows[header:], bounds, aligns)
    state.push("table_close", "table", -1)
    state.line = close + 1
    return True


def _line(state: StateBlock, line: int) -> str:
    """Return a line's text after its indentation, without trailing spaces."""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()


def _align(border: str) -> str:
    """Return a column's alignment from its part of a border: `:--:` center, `--:` right."""
    left, right = border.startswith(":"), border.endswith(":")
    return "center" if left and right else "right" if right else "left" if left else ""


def _section(
    state: StateBlock,
    name: str,
    cell: str,
    rows: list[tuple[int, list[str]]],
    bounds: list[int],
    aligns: list[str],
) -> None:
    """Push a `thead` or `tbody` of `rows` (each its first line and its `|` lines)."""
    state.push(f"{name}_open", name, 1)
    for first_line, lines in rows:
        if not lines:
            continue
        row = state.push("tr_open", "tr", 1)
        row.map = [first_line, first_line + len(lines)]
        for column, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
            opening = state.push(f"{cell}_open", cell, 1)
            if aligns[column]:
                opening.attrs["style"] = f"text-align:{aligns[column]}"
            _cell_blocks(state, [line[a + 1 : b] for line in lines], first_line)
            state.push(f"{cell}_close", cell, -1)
        state.push("tr_close", "tr", -1)
    state.push(f"{name}_close", name, -1)


def _cell_blocks(state: StateBlock, pieces: list[str], first_line: int) -> None:
    """Parse a cell's text as Markdown blocks into `state.tokens`, at the cell's level; a
    cell of one paragraph drops its `<p>` (Pandoc's plain cell)."""
    width = min((len(p) - len(p.lstrip()) for p in pieces if p.strip()), default=0)
    text = "\n".join(piece[width:].rstrip() for piece in pieces).strip("\n")
    if not text:
        return
    tokens: list[Token] = []
    state.md.block.parse(text, state.md, state.env, tokens)
    offset = first_line + next(i for i, piece in enumerate(pieces) if piece.strip())
    text_lines = text.split("\n")
    for token in tokens:
        token.level += state.level
        if token.type == "fence":  # the row's `| ``` |` line is no closing line of the page's
            token.meta["fence_closed"] = fence_closed(token, text_lines)
        if token.map:
            token.map = [token.map[0] + offset, token.map[1] + offset]
    if [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]:
        tokens[0].hidden = tokens[2].hidden = True
    state.tokens.extend(tokens)
