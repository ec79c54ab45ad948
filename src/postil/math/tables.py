"""Tables (`mtable`) styled with CSS that Chromium honours: alignment, rules, spacing.

Chromium's MathML Core ignores `columnalign`, `columnlines`, `rowlines`, `columnspacing`
and `rowspacing` (https://w3c.github.io/mathml-core/#table-or-matrix-mtable), so each is
turned into inline `style` on the cells: `text-align`, `border-*` and `padding-*`. What an
environment adds (padding, display style, multline's alignment) is in `environments.py`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import has_markers, marker, read_marker

RULE = "0.06em"
DATA_SPAN_RULES = "data-span-rules"  # a `\multicolumn` cell's own rules: "", "l", "r", "lr"
DATA_CLINE = "data-cline"  # a cell a `\cline` rules (below it, or above the first row)
DATA_CLINE_SIDE = "data-cline-side"
DATA_FRAME = "data-frame"  # the rules at an array's edges: "l", "r", "t", "b" (`_frame`)
DATA_COLSEP = "data-colsep"  # an array's boundaries between columns (`column_boundaries`)
DATA_DOUBLE_ABOVE = "data-double-above"  # a row after `\hline\hline`: a double rule above it
DOUBLE_RULE = "0.18em"  # `||`, `\hline\hline`: two rules of RULE with RULE between (CSS double)
ARRAYCOLSEP = "5pt"


def align_css(align: str) -> str:
    """Return CSS that aligns a cell's content `left` or `right` in Chromium and elsewhere.

    Chromium lays out the children of `<mtd>` as block-level math boxes, which plain
    `text-align` does not move; its UA stylesheet centres them with `-webkit-center`, so
    `-webkit-left`/`-webkit-right` are needed (other browsers keep the standard value).
    """
    return f"text-align:{align};text-align:-webkit-{align}"


def add_style(el: ET.Element, css: str) -> None:
    """Append CSS declarations (`"text-align:left"`) to the element's `style` attribute."""
    old = el.get("style", "").rstrip("; ")
    el.set("style", f"{old};{css}" if old else css)


def cells(table: ET.Element) -> list[list[ET.Element]]:
    """Return the table's cells row by row."""
    return [[c for c in row if c.tag == "mtd"] for row in table if row.tag == "mtr"]


def _lines(value: str, count: int) -> list[str]:
    """Expand a MathML line list (`"solid none"`) to `count` entries, repeating the last."""
    words = value.split() or ["none"]
    return [words[min(i, len(words) - 1)] for i in range(count)]


def style_table(table: ET.Element) -> None:
    """Move one mtable's alignment, rule and spacing attributes into cell styles."""
    rows = cells(table)
    width = max((len(r) for r in rows), default=0)
    col_lines = _lines(table.attrib.pop("columnlines", "none"), max(width - 1, 0))
    row_lines = _lines(table.attrib.pop("rowlines", "none"), max(len(rows) - 1, 0))
    for j, rule in enumerate(boundary_rules(table.get(DATA_COLSEP, ""))[1:-1]):
        if j < len(col_lines) and col_lines[j] != "none" and rule in ("dashed", "double"):
            col_lines[j] = rule
    doubles = [row.get(DATA_DOUBLE_ABOVE) for row in table if row.tag == "mtr"]
    table.attrib.pop("rowspacing", None)
    table.attrib.pop("columnspacing", None)
    _frame(rows, table.attrib.pop(DATA_FRAME, ""))
    for i, row in enumerate(rows):
        column = 0
        for cell in row:
            column += int(cell.get("columnspan", "1"))
            j = column - 1  # the cell's last column
            align = cell.attrib.pop("columnalign", None)
            if align and align != "center":
                add_style(cell, align_css(align))
            rules = cell.attrib.pop(DATA_SPAN_RULES, None)
            if rules is not None:  # a `\multicolumn`'s own rules replace the columns'
                if "l" in rules:
                    add_style(cell, f"border-left:{RULE} solid")
                if "r" in rules:
                    add_style(cell, f"border-right:{RULE} solid")
            elif j < len(col_lines) and col_lines[j] != "none":
                add_style(cell, _border("right", col_lines[j]))
            if i < len(row_lines) and row_lines[i] != "none":
                double = i + 1 < len(doubles) and doubles[i + 1]
                add_style(cell, _border("bottom", "double" if double else row_lines[i]))
            elif style := cell.attrib.pop(DATA_CLINE, None):
                add_style(cell, f"border-{cell.get(DATA_CLINE_SIDE, 'bottom')}:{RULE} {style}")
            cell.attrib.pop(DATA_CLINE_SIDE, None)


def _border(side: str, style: str) -> str:
    """Return the CSS of one rule: LaTeX's `\\arrayrulewidth` (0.4pt), dashed (arydshln's
    `:` and `\\hdashline`), or two such rules close together (`||`, `\\hline\\hline`)."""
    return f"border-{side}:{DOUBLE_RULE if style == 'double' else RULE} {style}"


def _frame(rows: list[list[ET.Element]], frame: str) -> None:
    """Draw the rules at a table's edges: `l`, `r` (a `|` first or last in the preamble),
    `t`, `b` (an `\\hline` before the first row or after the last), `T`, `B` (a dashed
    one, `\\hdashline`)."""
    if not frame or not rows:
        return
    for row in rows:
        if "l" in frame and row:
            add_style(row[0], f"border-left:{RULE} solid")
        if "r" in frame and row:
            add_style(row[-1], f"border-right:{RULE} solid")
    for side, row in (("t", rows[0]), ("b", rows[-1])):
        style = "solid" if side in frame else "dashed" if side.upper() in frame else ""
        for cell in row if style else ():
            add_style(cell, f"border-{'top' if side == 't' else 'bottom'}:{RULE} {style}")


def style_tables(root: ET.Element) -> None:
    """Apply `style_table` to every mtable under `root` (environments add theirs after)."""
    for table in list(root.iter("mtable")):
        style_table(table)


# An array's preamble (the column spec): latex2mathml reads `l`, `c`, `r` and `|` only and
# draws anything else into the first cell as math (`{*{20}{l}}` showed "∗20l" there). The
# array package's other specifiers (array.sty §1, "The preamble options") are rewritten to
# those four before conversion.
ARRAY_BEGIN = re.compile(r"\\begin\s*\{(?:d?array|subarray)\}\s*(?:\[[^\]]*\]\s*)?(?=\{)")
PREAMBLE_TOKEN = re.compile(r"\s*([lcr|:]|[pmbwWX*@!<>]|\\[A-Za-z]+|\S)")
# `@{…}`/`!{…}` between columns is kept only when it is spacing (or nothing): content
# there has no MathML form, so anything else is reported rather than dropped.
SPACING_ONLY = re.compile(r"(?:\s|\\[,:;! ]|\\q?quad(?![A-Za-z])|\\hspace\*?\{[^{}]*\})*")
MAX_COLUMNS = 100


SPACES_EM = {"\\,": 3 / 18, "\\:": 4 / 18, "\\;": 5 / 18, "\\!": -3 / 18, "\\ ": 1 / 3}
SPACE_TOKEN = re.compile(r"\s+|\\([,:;! ])|\\(q?quad)(?![A-Za-z])|\\hspace\*?\{([^{}]*)\}")
LENGTH = re.compile(r"\s*(-?(?:\d+\.?\d*|\.\d+))\s*(pt|em|ex|mm|cm|in|bp|pc|dd|cc|sp|px|mu)\s*")
CSS_UNITS = {"bp": "pt", "dd": "pt", "cc": "pt", "sp": "pt"}  # close enough at a column's gap
CSS_FACTORS = {"bp": 1.0, "dd": 1.07, "cc": 12.84, "sp": 1 / 65536}


def spacing_css(content: str) -> str:
    """Return the width of `@{…}`/`!{…}` spacing (`\\,`, `\\quad`, `\\hspace{2pt}` …) as CSS.

    Raises:
        ValueError: the content is not spacing only (the caller reports it).
    """
    em, others, pos = 0.0, [], 0
    while pos < len(content):
        match = SPACE_TOKEN.match(content, pos)
        if match is None:
            raise ValueError(content)
        pos = match.end()
        if match.group(1):
            em += SPACES_EM["\\" + match.group(1)]
        elif match.group(2):
            em += 1 if match.group(2) == "quad" else 2
        elif match.group(3) is not None:
            length = LENGTH.fullmatch(match.group(3))
            if length is None:
                raise ValueError(content)
            number, unit = float(length.group(1)), length.group(2)
            if unit == "mu":
                em += number / 18
            else:
                others.append(f"{number * CSS_FACTORS.get(unit, 1):.4g}{CSS_UNITS.get(unit, unit)}")
    parts = ([f"{em:.4g}em"] if em or not others else []) + others
    return parts[0] if len(parts) == 1 else "calc(" + " + ".join(parts) + ")"


class Gap:
    """What an array preamble puts between two columns (or at an edge): rules (`|`, `:`),
    `@{…}` (replaces the two `\\arraycolsep`s) and `!{…}` (keeps them), array.sty's
    "The preamble options"."""

    def __init__(self) -> None:
        self.rules = ""
        self.at: str | None = None
        self.bang: str | None = None

    def merge(self, other: Gap) -> None:
        """Add what `other`, the same boundary seen from a repeated `*{n}{…}`, holds."""
        self.rules += other.rules
        if other.at is not None:
            self.at = (self.at or "") + other.at
        if other.bang is not None:
            self.bang = (self.bang or "") + other.bang

    def rule_style(self) -> str:
        """Return the boundary's rule: "", "solid", "dashed" (`:` alone) or "double"."""
        if not self.rules:
            return ""
        if len(self.rules) > 1:
            return "double"
        return "dashed" if self.rules == ":" else "solid"


def column_boundaries(spec: str) -> tuple[str, list[Gap]]:
    """Return an array preamble's columns (`l`, `c`, `r`, `p`) and the n + 1 boundaries
    around and between them."""
    columns, gaps, pos = [], [Gap()], 0
    while pos < len(spec):
        match = PREAMBLE_TOKEN.match(spec, pos)
        if match is None:
            break
        token, pos = match.group(1), match.end()
        if token in "lcr":
            columns.append(token)
            gaps.append(Gap())
        elif token in "|:":
            gaps[-1].rules += token
        elif token == "*":
            count, pos = read_group(spec, pos)
            body, pos = read_group(spec, pos)
            inner_columns, inner_gaps = column_boundaries(body)
            repeat = int(count) if count.strip().isdigit() else 0
            for _ in range(min(repeat, MAX_COLUMNS)):
                gaps[-1].merge(inner_gaps[0])
                columns += inner_columns
                for gap in inner_gaps[1:]:
                    gaps.append(Gap())
                    gaps[-1].merge(gap)
        elif token in "pmbwW":
            first, pos = read_group(spec, pos)
            if token in "wW":
                _, pos = read_group(spec, pos)
            columns.append("p" if token in "pmb" else (first.strip() or "l")[0])
            gaps.append(Gap())
        elif token in "<>":
            _, pos = read_group(spec, pos)
        elif token == "@":
            content, pos = read_group(spec, pos)
            gaps[-1].at = (gaps[-1].at or "") + content
        elif token == "!":
            content, pos = read_group(spec, pos)
            gaps[-1].bang = (gaps[-1].bang or "") + content
    return "".join(columns), gaps


def material_placements(spec: str) -> list[tuple[int, bool, str]]:
    r"""Return where the material of each `@{…}` that is not spacing goes: (column, after?,
    content). `r@{.}l` sets a decimal point between a right- and a left-aligned column: it
    is appended to every cell of the `r` column (or put before every cell of an `l` column
    after it), where it stands exactly as between the columns.

    Raises:
        MathUnsupportedError: material between columns it cannot stick to (`c@{:}c`), or
            in `!{…}`, with the way to write it.
    """
    columns, gaps = column_boundaries(spec)
    placements = []
    for b, gap in enumerate(gaps):
        for token, content in (("@", gap.at), ("!", gap.bang)):
            if content is None or SPACING_ONLY.fullmatch(content):
                continue
            left = columns[b - 1] if b > 0 else ""
            right = columns[b] if b < len(columns) else ""
            if token == "@" and left == "r":
                placements.append((b - 1, True, content))
            elif token == "@" and right == "l":
                placements.append((b, False, content))
            else:
                raise MathUnsupportedError(
                    f"`{token}{{{content}}}` between array columns is supported only after an "
                    "`r` column or before an `l` one (`r@{.}l`): put that content in a "
                    "column of its own",
                    0,
                    token,
                )
    return placements


def _colsep_payload(gaps: list[Gap]) -> str:
    """Return the `colsep` marker's payload, or "" when every boundary is LaTeX's default
    (two `\\arraycolsep`s, solid or no rules): `pad|rule` per boundary, `;` between, where
    pad is `@width` (`@{…}`: the width instead of the column gaps), `!width` (`!{…}`: the
    width besides them) or "" and rule "", "solid", "dashed" or "double"."""
    entries, special = [], False
    for gap in gaps:
        pad = ""
        if gap.at is not None:
            pad = "@" + (spacing_css(gap.at) if SPACING_ONLY.fullmatch(gap.at) else "0em")
        if gap.bang is not None and SPACING_ONLY.fullmatch(gap.bang):
            width = spacing_css(gap.bang)
            pad = "" if width == "0em" else "!" + width
        rule = gap.rule_style()
        special = special or bool(pad) or rule in ("dashed", "double")
        entries.append(f"{pad}|{rule}")
    return ";".join(entries) if special else ""


def boundary_rules(payload: str) -> list[str]:
    """Return the rule style of each boundary a `colsep` payload holds ([] for none)."""
    return [entry.partition("|")[2] for entry in payload.split(";")] if payload else []


def boundary_paddings(payload: str) -> list[str]:
    """Return the pad of each boundary a `colsep` payload holds ([] for none)."""
    return [entry.partition("|")[0] for entry in payload.split(";")] if payload else []


def rewrite_array_preambles(latex: str) -> str:
    r"""Rewrite the preamble of every `array` to the `l`, `c`, `r`, `|` latex2mathml reads.

    `*{3}{c}` -> `ccc` (repeated, nested too), `p{2cm}`/`m{…}`/`b{…}` -> `l` (a paragraph
    column is set flush left), `w{c}{2cm}`/`W{…}{…}` -> its alignment, `>{…}`/`<{…}` (code
    before or after each cell) dropped, `@{…}`/`!{…}` taken out, runs of rules (`||`, `:`)
    one `|`. The source of the rules: array.sty's documentation, "The preamble options".

    What the letters cannot say is left in a `colsep` marker before the table
    (`_colsep_payload`): the width `@{…}` puts instead of the two `\arraycolsep`s (0 for
    material, which `parcolumns` puts into the cells beside it) or `!{…}` adds to them, and
    which rules are dashed (`:`) or double (`||`); `environments.style_environment` pads the
    cells and `style_table` draws the rules by it.

    The rules at the table's edges, which latex2mathml misplaces (a `|` before the first
    column shifted every column rule by one, an `\hline` before the first row was drawn
    under it, one after the last row not at all), are taken out and left in a `frame`
    marker before the table for `fix_spans`.

    Raises:
        MathUnsupportedError: `@{…}` holding material it cannot place, `!{…}` holding
            material (`material_placements`), or a letter that is no column type (named as
            written).
    """
    if "array}" not in latex:
        return latex
    edits: list[tuple[int, int, str]] = []
    for match in ARRAY_BEGIN.finditer(latex):
        spec, end = read_group(latex, match.end())
        material_placements(spec)  # raises at material it cannot place
        columns = _preamble(spec, materials=True)
        frame = ("l" if columns.startswith("|") else "") + ("r" if columns.endswith("|") else "")
        colsep = _colsep_payload(column_boundaries(spec)[1])
        body, edges = _edge_rules(latex, end, edits)
        frame += edges
        head = (marker("frame", frame) if frame else "") + (
            marker("colsep", colsep) if colsep else ""
        )
        edits.append((match.start(), match.start(), head))
        edits.append((match.end(), end, "{" + re.sub(r"\|+", "|", columns.strip("|")) + "}"))
    return apply_edits(latex, edits)


def apply_edits(latex: str, edits: list[tuple[int, int, str]]) -> str:
    """Return `latex` with each (start, stop, text) of `edits` replacing `latex[start:stop]`,
    in order of place; an edit starting inside one made already is dropped (a cell inside
    a cell wrapped whole)."""
    out, pos = [], 0
    for start, stop, text in sorted(edits):
        if start < pos:
            continue
        out += [latex[pos:start], text]
        pos = stop
    return "".join(out) + latex[pos:]


TOP_RULES = re.compile(r"(?:\s*\\h(?:dash)?line(?![A-Za-z]))+")
BOTTOM_RULES = re.compile(r"(?:\\\\)?(?:\s*\\h(?:dash)?line(?![A-Za-z]))+\s*$")
MATRIX_BEGIN = re.compile(r"\\begin\s*\{(?:[pbBvV]?matrix|smallmatrix)\*?\}(?:\s*\[[^\]]*\])?")


def _edge_rules(latex: str, start: int, edits: list[tuple[int, int, str]]) -> tuple[int, str]:
    """Take the rules before the first row and after the last row of the table whose body
    starts at `start` out (into `edits`); return (where the body starts, the `frame`
    letters: `t`/`b` a rule, `T`/`B` a dashed one, `\\hdashline`)."""
    top = TOP_RULES.match(latex, start)
    body, frame = (top.end(), _rule_letter(top[0], "t")) if top else (start, "")
    if body > start:
        edits.append((start, body, ""))
    closing = _matching_end(latex, body)
    bottom = BOTTOM_RULES.search(latex, body, closing) if closing is not None else None
    if bottom is not None and closing is not None:
        frame += _rule_letter(bottom[0], "b")
        edits.append((bottom.start(), closing, ""))
    return body, frame


def _rule_letter(rules: str, side: str) -> str:
    """Return `side` for rules holding a solid `\\hline`, upper case for dashed ones only."""
    return side if "hline" in rules.replace("hdashline", "") else side.upper()


def rewrite_matrix_edges(latex: str) -> str:
    r"""Take a matrix's rules before its first row and after its last out into a `frame`
    marker, as `rewrite_array_preambles` does for an array: latex2mathml drew an `\hline`
    before a matrix's first row under that row, and dropped it in a one-row matrix
    (mathjax/MathJax#519's `\begin{matrix}\hdashline a & b\end{matrix}`)."""
    if "matrix" not in latex or ("\\hline" not in latex and "\\hdashline" not in latex):
        return latex
    edits: list[tuple[int, int, str]] = []
    for match in MATRIX_BEGIN.finditer(latex):
        _, frame = _edge_rules(latex, match.end(), edits)
        if frame:
            edits.append((match.start(), match.start(), marker("frame", frame)))
    return apply_edits(latex, edits)


BEGIN_OR_END = re.compile(r"\\(begin|end)\s*\{[^{}]*\}")


def _matching_end(latex: str, pos: int) -> int | None:
    """Return the offset of the `\\end{…}` that closes the environment whose body starts at
    `pos`, or None."""
    depth = 0
    for match in BEGIN_OR_END.finditer(latex, pos):
        if match.group(1) == "begin":
            depth += 1
        elif depth == 0:
            return match.start()
        else:
            depth -= 1
    return None


def _preamble(spec: str, paragraphs: bool = False, materials: bool = False) -> str:
    """Return one array preamble as `l`/`c`/`r`/`|` letters (see `rewrite_array_preambles`);
    with `paragraphs`, a `p`/`m`/`b` column is `p` (`column_kinds`); with `materials`,
    `@{…}` holding material is passed over (`material_placements` placed it)."""
    columns, pos = [], 0
    while pos < len(spec):
        match = PREAMBLE_TOKEN.match(spec, pos)
        if match is None:  # only trailing spaces are left
            break
        token, pos = match.group(1), match.end()
        if token in "lcr|":
            columns.append(token)
        elif token == ":":
            columns.append("|")
        elif token == "*":
            count, pos = read_group(spec, pos)
            body, pos = read_group(spec, pos)
            repeat = int(count) if count.strip().isdigit() else 0
            columns.append(_preamble(body, paragraphs, materials) * min(repeat, MAX_COLUMNS))
        elif token in "pmb":
            _, pos = read_group(spec, pos)
            columns.append("p" if paragraphs else "l")
        elif token in "wW":
            align, pos = read_group(spec, pos)
            _, pos = read_group(spec, pos)
            columns.append(align.strip() if align.strip() in ("l", "c", "r") else "l")
        elif token in "<>":
            _, pos = read_group(spec, pos)
        elif token in "@!":
            content, pos = read_group(spec, pos)
            if not SPACING_ONLY.fullmatch(content) and not (materials and token == "@"):
                raise MathUnsupportedError(
                    f"`{token}{{{content}}}` between array columns is not supported: "
                    "put that content in a column of its own",
                    0,
                    token,
                )
        else:
            raise MathUnsupportedError(
                f"unsupported array column type `{token}`: use l, c, r or p{{…}}", 0, token
            )
    return "".join(columns)


def column_kinds(spec: str) -> str:
    """Return an array preamble's columns, rules left out, as `l`, `c`, `r` and `p` (a
    paragraph column, `p{…}`, `m{…}` or `b{…}`): `{lp{3cm}|c}` -> "lpc"."""
    return _preamble(spec, paragraphs=True, materials=True).replace("|", "")


SPAN = re.compile(r"\\multicolumn(?![A-Za-z])\s*")
DOUBLE_HLINE = re.compile(r"\\hline(?:\s*\\hline(?![A-Za-z]))+")
"""`\\hline\\hline` between rows: a double rule (LaTeX sets the two `\\doublerulesep` apart)."""
CLINE = re.compile(r"\\c(dash)?line(?![A-Za-z])\s*\{\s*(\d+)\s*-\s*(\d+)\s*\}")
ANY_CLINE = re.compile(r"\\c(?:dash)?line(?![A-Za-z])")
"""`\\cline{2-3}` and arydshln's dashed `\\cdashline{2-3}` (arXiv/html_feedback#302)."""
ENVIRONMENT_EDGE = re.compile(r"\\(begin|end)\s*\{")
ROW_TOKENS = ("\\\\", "&", "\\cr", "\\end", "\\hline", "\\cline", "\\multicolumn")
"""What a `\\multicolumn` whose cell is missing takes as its third argument: the row goes on."""


def inside_environment(latex: str, pos: int) -> bool:
    """Tell whether `pos` is inside a `\\begin{…}` … `\\end{…}` of `latex` (rows are only there)."""
    depth = 0
    for match in ENVIRONMENT_EDGE.finditer(latex, 0, pos):
        depth += 1 if match.group(1) == "begin" else -1
    return depth > 0


def _table_only(latex: str, pos: int, command: str, example: str) -> None:
    """Raise if the `command` at `pos` is outside every environment: LaTeX's "Misplaced
    \\omit" (a cell command outside a table), where the page would show a marker."""
    if not inside_environment(latex, pos):
        raise MathUnsupportedError(
            f"{command} works only between the rows of a table (array, tabular, matrix, "
            f"align…): write it inside one, as in {example}",
            0,
            command,
        )


def rewrite_spans(latex: str) -> str:
    r"""Rewrite `\multicolumn{2}{c|}{x}` and `\cline{2-3}` in tables as markers for `fix_spans`.

    LaTeX's `\multicolumn{n}{spec}{content}` sets one cell across n columns, aligned and
    ruled by its own one-column `spec`; `\cline{i-j}` draws a rule under columns i to j of
    the row above (latex.ltx). latex2mathml knows neither. `\hline\hline` between rows
    (latex2mathml draws one rule) leaves a `dhline` marker in the next row: a double rule.

    Raises:
        MathUnsupportedError: either is malformed (no number, more than one column type,
            no cell content, a range `i-j` missing or backwards) or outside a table, each
            with the form to write; LaTeX stops at these too.
    """
    if "\\multicolumn" not in latex and "line" not in latex:
        return latex
    latex = DOUBLE_HLINE.sub(lambda m: "\\hline " + marker("dhline", ""), latex)
    if "\\multicolumn" not in latex and "\\cline" not in latex and "\\cdashline" not in latex:
        return latex
    latex = _rewrite_clines(latex)
    out, pos = [], 0
    for match in SPAN.finditer(latex):
        if match.start() < pos:
            continue
        _table_only(latex, match.start(), "\\multicolumn", "\\multicolumn{2}{c}{…}")
        count, end = read_group(latex, match.end())
        spec, end = read_group(latex, end)
        content, end = read_group(latex, end)
        columns = _preamble(spec)
        align = columns.strip("|") or "c"
        rules = ("l" if columns.startswith("|") else "") + ("r" if columns.endswith("|") else "")
        if not count.strip().isdigit() or len(align) != 1 or content.strip() in ROW_TOKENS:
            raise MathUnsupportedError(
                "\\multicolumn needs a number of columns, one column type and the cell's "
                "content: write \\multicolumn{2}{c}{…}",
                0,
                "\\multicolumn",
            )
        payload = f"{int(count)}:{align}:{rules}"
        out += [latex[pos : match.start()], marker("span", payload), "{", content, "}"]
        pos = end
    return "".join(out) + latex[pos:] if out else latex


def _rewrite_clines(latex: str) -> str:
    """Rewrite every `\\cline{i-j}` as a marker (see `rewrite_spans`), raising at one that
    is malformed or outside a table."""
    out, pos = [], 0
    for match in ANY_CLINE.finditer(latex):
        whole = CLINE.match(latex, match.start())
        first, last = (int(whole.group(2)), int(whole.group(3))) if whole else (0, 0)
        if not whole or not 1 <= first <= last:
            raise MathUnsupportedError(
                "\\cline needs a range of columns, first to last, in braces: write "
                "\\cline{2-3} (or \\cline{2-2} for one column)",
                0,
                "\\cline",
            )
        name = match.group(0)
        _table_only(latex, match.start(), name, name + "{2-3}")
        dashed = ":dashed" if whole.group(1) else ""
        out += [latex[pos : match.start()], marker("cline", f"{first}-{last}{dashed}")]
        pos = whole.end()
    return "".join(out) + latex[pos:]


def fix_spans(root: ET.Element) -> None:
    """Turn `span` and `cline` markers into `columnspan`, alignment and rules on cells.

    Runs before `style_tables`, which turns the alignment and rules into cell CSS.
    """
    if not has_markers(root, ("frame", "colsep", "span", "cline", "dhline")):
        return
    for parent in list(root.iter()):
        for el in [e for e in parent if (read_marker(e) or ("", ""))[0] in TABLE_MARKERS]:
            index = list(parent).index(el)
            tables = (next(s.iter("mtable"), None) for s in list(parent)[index + 1 :])
            table = next((t for t in tables if t is not None), None)
            kind, payload = read_marker(el) or ("", "")
            if table is not None:
                table.set(TABLE_MARKERS[kind], payload)
            parent.remove(el)
    for table in list(root.iter("mtable")):
        rows = cells(table)
        for i, row in enumerate(rows):
            for cell in row:
                for el in [e for e in cell.iter("mtext") if read_marker(e)]:
                    kind, payload = read_marker(el) or ("", "")
                    if kind == "span":
                        count, align, rules = (payload.split(":") + [""])[:3]
                        if int(count) > 1:
                            cell.set("columnspan", count)
                        cell.set("columnalign", ALIGN_NAMES.get(align, "center"))
                        cell.set(DATA_SPAN_RULES, rules)
                    elif kind == "cline":
                        _cline(rows, i, payload)
                    elif kind == "dhline":
                        _row_of(table, cell).set(DATA_DOUBLE_ABOVE, "1")
                    else:
                        continue
                    _parent_of(cell, el).remove(el)


ALIGN_NAMES = {"l": "left", "c": "center", "r": "right"}
TABLE_MARKERS = {"frame": DATA_FRAME, "colsep": DATA_COLSEP}
"""Markers put before a table (its preamble's news) -> the attribute they become on it."""


def _row_of(table: ET.Element, cell: ET.Element) -> ET.Element:
    """Return the `mtr` of `table` that holds `cell`."""
    return next(row for row in table if row.tag == "mtr" and cell in list(row))


def _cline(rows: list[list[ET.Element]], index: int, payload: str) -> None:
    """Mark the cells of columns i..j of the row above row `index` (the first row: above it)."""
    columns, _, style = payload.partition(":")
    first, last = (int(n) for n in columns.split("-"))
    target, side = (rows[index - 1], "bottom") if index > 0 else (rows[index], "top")
    column = 0
    for cell in target:
        start = column + 1
        column += int(cell.get("columnspan", "1"))
        if start <= last and column >= first:
            cell.set(DATA_CLINE, style or "solid")
            cell.set(DATA_CLINE_SIDE, side)


def _parent_of(ancestor: ET.Element, el: ET.Element) -> ET.Element:
    """Return the parent of `el` under `ancestor`."""
    return next(p for p in ancestor.iter() if el in list(p))
