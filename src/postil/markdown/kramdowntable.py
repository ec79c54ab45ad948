"""kramdown's tables (Jekyll's Markdown): separator lines anywhere, a footer, no header.

kramdown's syntax page, "Tables": every line of a table starts with `|`; a line of dashes
(`|---+---|`, `|:--|--:|`, `+` or `|` between columns) is a separator line, which makes the
rows above it the header when it follows the first rows, starts the table when it comes
first, and else splits the body into parts (or ends the table); a line of equal signs
(`|===+===|`) starts the footer; a table need not have a header. GFM's pipe tables, which
CommonMark's readers follow, know none of these: the syntax page's own example showed its
first line as a paragraph, each separator as a row of dashes and the footer line as a row
of nested `<mark>`s (minad/olelo#47 quotes it; notslang/atom-tidy-markdown#60 its body
separators). A table GFM reads the same (a header, one separator under it, rows) is left
to the pipe table rule. The tokens are the pipe tables' (`table_open` … `td_close`, one
`tbody` a part, a `tfoot`), so the table plugin wraps and names it. No CSS classes.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.fancylist import PANDOC_SUFFIXES
from postil.markdown.mathdoc import protect_pipes
from postil.markdown.state import get_state

SEPARATOR = re.compile(r"\|[-+|: \t]*--[-+|: \t]*")
"""A separator line: dashes, with `:`, `+` and `|` (kramdown's `TABLE_SEP_LINE`, but two
dashes in a row: a body row of `| - | - |` placeholders stays a row, as GFM reads it)."""
GFM_DELIMITER = re.compile(r"\|[-+|: \t]*-[-+|: \t]*")
"""A separator line of single dashes (`|-|-|`, `| :- | -: |`): under the first row it is
GFM's delimiter row (one dash a cell is enough: GFM spec, "Tables"; kramdown reads it so
too), so the table is the pipe table rule's (gitea, Obsidian and hand-typed tables write
it; jrblevin/markdown-mode#374 is one); elsewhere a row of placeholders (`SEPARATOR`)."""
FOOTER = re.compile(r"\|[=+|: \t]*==[=+|: \t]*")
"""A footer separator line: equal signs (kramdown's `TABLE_FSEP_LINE`, two in a row)."""
CELL_BAR = re.compile(r"\\.|`+|\|")
"""What splitting a row into cells looks at: escapes, code span fences, bars."""


def kramdowntable_plugin(md: MarkdownIt) -> None:
    """Read kramdown's tables (see the module); before the pipe table rule."""
    md.block.ruler.before("table", "kramdown_table", kramdown_table)


def kramdown_table(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: `|` lines with kramdown's separator, footer or headerless form (a `|`
    inside `$…$` is the formula's: `mathdoc.protect_pipes`, as for pipe tables)."""
    if state.is_code_block(start) or not _line(state, start).startswith("|"):
        return False
    src = protect_pipes(state.src, state.env)
    lines = []
    for line in range(start, end):
        text = src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if state.sCount[line] != state.sCount[start] or not text.startswith("|"):
            break
        lines.append(text)
    kinds = [
        "sep" if SEPARATOR.fullmatch(t) else "foot" if FOOTER.fullmatch(t) else "row" for t in lines
    ]
    if len(lines) > 1 and kinds[:2] == ["row", "row"] and GFM_DELIMITER.fullmatch(lines[1]):
        kinds[1] = "sep"
    pandoc = get_state(state.env).path.lower().endswith(PANDOC_SUFFIXES)
    if not _kramdowns(lines, kinds, headerless=not pandoc):  # Pandoc: `| ` is a line block
        return False
    if silent:
        return True
    _push_table(state, start, lines, kinds)
    state.line = start + len(lines)
    return True


def _kramdowns(lines: list[str], kinds: list[str], *, headerless: bool) -> bool:
    """Tell whether the `|` lines are a table only kramdown reads so: a separator first, a
    footer line, a second separator, or (no separator, when `headerless`) two rows or
    more, each of the same two cells or more and closed by `|`."""
    rows = [i for i, kind in enumerate(kinds) if kind == "row"]
    if not rows:
        return False
    if kinds[0] != "row" or "foot" in kinds or kinds.count("sep") > 1:
        return True
    if "sep" in kinds:  # one: GFM's pipe table unless `+` joins it or rows head it
        at = kinds.index("sep")
        return "+" in lines[at] or at > 1
    widths = {len(_cells(lines[i])) for i in rows}
    return (
        headerless
        and len(rows) > 1
        and all(lines[i].endswith("|") for i in rows)
        and len(widths) == 1 < min(widths)
    )


def _push_table(state: StateBlock, start: int, lines: list[str], kinds: list[str]) -> None:
    """Push the table's tokens: a header (the rows before a separator that follows the
    first rows), the body's parts and the footer."""
    first_row = kinds.index("row")
    header_end = next((i for i in range(first_row, len(kinds)) if kinds[i] != "row"), len(kinds))
    has_header = header_end < len(kinds) and kinds[header_end] == "sep"
    align_line = (
        lines[header_end]
        if has_header
        else next((t for t, k in zip(lines, kinds, strict=True) if k == "sep"), "")
    )
    rows = [(start + i, _cells(t)) for i, t in enumerate(lines) if kinds[i] == "row"]
    columns = max(len(cells) for _, cells in rows)
    aligns = (_aligns(align_line) + [""] * columns)[:columns]
    table = state.push("table_open", "table", 1)
    table.map = [start, start + len(lines)]
    section, cell, part = ("thead", "th", []) if has_header else ("tbody", "td", [])
    for i, kind in enumerate(kinds[first_row:], first_row):
        if kind == "row":
            part.append((start + i, _cells(lines[i])))
            continue
        _section(state, section, cell, part, columns, aligns)
        section, cell, part = (
            ("tfoot" if kind == "foot" or section == "tfoot" else "tbody"),
            "td",
            [],
        )
    _section(state, section, cell, part, columns, aligns)
    state.push("table_close", "table", -1)


def _section(
    state: StateBlock,
    name: str,
    cell: str,
    rows: list[tuple[int, list[str]]],
    columns: int,
    aligns: list[str],
) -> None:
    """Push a `thead`, `tbody` or `tfoot` of `rows` (line, cells), padded to `columns`."""
    if not rows:
        return
    state.push(f"{name}_open", name, 1)
    for line, cells in rows:
        state.push("tr_open", "tr", 1).map = [line, line + 1]
        for column in range(columns):
            opening = state.push(f"{cell}_open", cell, 1)
            if aligns[column]:
                opening.attrs["style"] = f"text-align:{aligns[column]}"
            inline = state.push("inline", "", 0)
            inline.content = cells[column] if column < len(cells) else ""
            inline.map, inline.children = [line, line + 1], []
            state.push(f"{cell}_close", cell, -1)
        state.push("tr_close", "tr", -1)
    state.push(f"{name}_close", name, -1)


def _cells(row: str) -> list[str]:
    """Return a row's cells: split at `|` outside code spans and escapes (`\\|`), the
    leading bar and a closing one dropped."""
    cells, begin, fence = [], 1, ""
    for found in CELL_BAR.finditer(row, 1):
        token = found.group()
        if token.startswith("`"):
            fence = "" if token == fence else fence or token
        elif token == "|" and not fence:
            cells.append(row[begin : found.start()].strip())
            begin = found.end()
    last = row[begin:].strip()
    if last or not row.rstrip().endswith("|"):
        cells.append(last)
    return cells


def _aligns(separator: str) -> list[str]:
    """Return each column's alignment from a separator line: `:--` left, `:-:` center,
    `--:` right (kramdown's, as GFM's)."""
    parts = [p.strip() for p in re.split(r"[|+]", separator.strip().strip("|+"))]
    return [
        "center"
        if p.startswith(":") and p.endswith(":") and len(p) > 1
        else "right"
        if p.endswith(":")
        else "left"
        if p.startswith(":")
        else ""
        for p in parts
    ]


def _line(state: StateBlock, line: int) -> str:
    """Return a line's text after its indentation, without trailing spaces."""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
