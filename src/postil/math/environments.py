r"""Environments: everything postil knows about `\begin{…}…\end{…}`, in one place.

For each KaTeX environment:

- **Table structure**: `ENVIRONMENTS` maps it onto the latex2mathml environment that builds
  the same rows and columns (`align` -> `split`, `gather` -> `matrix`, `cases` -> `cases`)
  and names its *style*; `rewrite_environments` does the mapping, leaving a style marker
  (`markers.marker("env", style)`) that becomes `data-env` on the `mtable`.
- **Fences**: `rcases`/`drcases` become `\left.` + `array` + `\right\}`; `pmatrix`,
  `bmatrix`, … become `\left(` + `matrix` + `\right)` (`MATRIX_FENCES`, as amsmath defines
  them), so the fences stretch; `*matrix*` loses its star (`unstar_matrices`).
- **Rows**: `top_level_rows` splits at `\\`; display math with several top-level rows is
  set as `gathered` (`wrap_rows`). A row gap `\\[6pt]` becomes a `gap` marker
  (`rewrite_row_gaps`) and then bottom padding on its row (`apply_row_gaps`).
- **Cells as groups**: `scope_switches` ends a `\color` switch at the end of its cell.
- **Styling**: `style_environment` adds each style's cell padding, alignment and display
  style (TeX's spacing); `STYLES` lists them.
- **Numbering hooks**: `NUMBERED_TOP` says which whole-formula environments number their
  rows (`equation` and `multline` once, `align`, `gather` every row), `split_numbering`
  reads `\label`/`\tag`/`\nonumber` out of each row (`numbering.py` draws the numbers).
- **`eqnarray`** (LaTeX's, which MathJax has): an `rcl` display-style array, every row
  numbered (`eqnarray*`: none).
- **Unsupported**: `UNSUPPORTED_ENVS` (`tikzcd`, `xy`, …) and every name not in
  `KNOWN_ENVS` are refused with their name. (`prooftree` never gets here: the
  `prooftrees` pass, `proofs.py`, has rewritten it.)
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.errors import MathSyntaxError, MathUnsupportedError
from postil.math.intertext import ROW_MARK
from postil.math.macros import read_group
from postil.math.markers import DATA_ENV, DATA_TOP, has_markers, marker, read_marker
from postil.math.numbering import EquationRow
from postil.math.styles import DISPLAY_ENVS
from postil.math.tables import (
    ARRAYCOLSEP,
    DATA_COLSEP,
    add_style,
    align_css,
    boundary_paddings,
    cells,
)

# KaTeX environment -> (latex2mathml environment, style name for `style_environment`).
ENVIRONMENTS: dict[str, tuple[str, str]] = {
    "aligned": ("split", "aligned"),
    "split": ("split", "aligned"),
    "align": ("split", "aligned"),
    "align*": ("split", "aligned"),
    "flalign": ("split", "aligned"),
    "flalign*": ("split", "aligned"),
    "alignat": ("split", "alignat"),
    "alignat*": ("split", "alignat"),
    "alignedat": ("split", "alignat"),
    "gathered": ("matrix", "gathered"),
    "gather": ("matrix", "gathered"),
    "gather*": ("matrix", "gathered"),
    "multline": ("matrix", "multline"),
    "multline*": ("matrix", "multline"),
    "cases": ("cases", "cases"),
    "dcases": ("cases", "dcases"),
    "array": ("array", "array"),
    "darray": ("array", "darray"),
    "subarray": ("array", "subarray"),
    "matrix": ("matrix", "matrix"),
    "smallmatrix": ("smallmatrix", "smallmatrix"),
}
# A fenced matrix -> the `\left`/`\right` delimiters amsmath puts around its `matrix`
# (amsmath.sty: `\def\pmatrix{\left(\matrix}`…): they stretch to the table's height.
MATRIX_FENCES: dict[str, tuple[str, str]] = {
    "pmatrix": ("(", ")"),
    "bmatrix": ("[", "]"),
    "Bmatrix": (r"\{", r"\}"),
    "vmatrix": ("|", "|"),
    "Vmatrix": (r"\|", r"\|"),
}
# LaTeX's `eqnarray` (MathJax has it, KaTeX not): three columns, right, centre and left, in
# display style, `\arraycolsep` on both sides of each (latex.ltx), every row numbered.
EQNARRAY = ("darray", "{rcl}")
NUMBERED_TOP = re.compile(
    r"\s*\\begin\{(equation|align|flalign|alignat|gather|multline|eqnarray)(\*?)\}(.*)"
    r"\\end\{\1\2\}\s*",
    re.DOTALL,
)
UNSUPPORTED_ENVS = frozenset("tikzcd xy picture tabular".split())
KNOWN_ENVS = frozenset(
    [*ENVIRONMENTS, *MATRIX_FENCES, *(f"{m}*" for m in [*MATRIX_FENCES, "matrix"])]
    + "equation equation* eqnarray eqnarray* rcases drcases".split()
    + "cases* dcases* rcases* drcases*".split()  # parcolumns.rewrite_starred_cases
    + ["CD"]  # amscd.rewrite_cd
)
"""Every environment postil typesets; any other `\\begin{…}` in math is an error (it would
be dropped, its content shown as if it were not there). Display math in Markdown may also
be one of these on its own (`postil.markdown.math`, as MathJax finds environments)."""
BEGIN = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
# The optional vertical position of an environment that a line of other math may sit beside
# (`\begin{aligned}[t]`, `\begin{array}[b]{cc}`): dropped, so it is centred on the axis as
# without it; MathML Core has no way to set a table's baseline to its first or last row.
POSITION = re.compile(
    r"(\\begin\s*\{(?:aligned|alignedat|gathered|array|darray|subarray|split)\})\s*\[[tbc]\]"
)
# A tag may hold groups two deep (`\tag{$x^{2}$}`, `\tag{\text{ii}}`).
ROW_COMMANDS = re.compile(
    r"\\(label|tag\*?)\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}|\\(nonumber|notag)(?![A-Za-z])"
)
# Style -> padding of the cell that starts a column pair, in `aligned`-like styles.
PAIR_GAP = {"aligned": "2em", "alignat": "0"}
# Style -> half the space between matrix columns; none outside the first and last column.
# amsmath's `matrix` is an array with `\arraycolsep` (5pt, a fixed length in TeX too) on
# each side of a column and `\hskip -\arraycolsep` at both ends; `smallmatrix` puts
# `\thickspace` (5mu) between columns (amsmath.sty).
COLUMN_HALF_GAP = {"matrix": "5pt", "smallmatrix": "0.1389em"}
# Array-like styles -> their `\arraystretch` (LaTeX: 1; `cases` sets 1.2, latex.ltx and
# amsmath.sty). Their rows are TeX's: no padding, an invisible strut in every row instead.
ARRAY_STRETCH = {"array": 1.0, "darray": 1.0, "matrix": 1.0, "cases": 1.2, "dcases": 1.2}
# LaTeX's array strut (`\@arstrut`): 0.7 and 0.3 of `\baselineskip` (12pt at 10pt, 1.2em)
# above and below the baseline, times `\arraystretch`; rows are never closer than that.
# Where a row's ink is deeper or taller than the strut, TeX keeps `\lineskip` (1pt) between
# rows: that is bottom padding here, taken from the strut's depth so that rows of letters
# keep their 1.2em.
STRUT_HEIGHT_EM = 0.84
STRUT_DEPTH_EM = 0.36
LINESKIP_EM = 0.1
# `array`: `\arraycolsep` (5pt) on both sides of every column, the table's ends included.
ARRAY_COLUMN_PADDING = "padding-left:5pt;padding-right:5pt"
# Vertical padding of a row of a display environment: MathML Core's own cell padding (0.5ex,
# about 0.22em) plus half of TeX's `\jot` (3pt = 0.3em at 10pt) above and below.
JOT_PADDING = "0.37em"
STYLES = frozenset(style for _, style in ENVIRONMENTS.values())


# What `top_level_rows` looks at: a backslash with the character after it (a `\begin` or
# `\end` opens or closes), a brace. Letters and the rest are skipped by the regex.
ROW_SCAN = re.compile(r"\\(?:begin|end|.)|[{}]", re.DOTALL)


def top_level_rows(latex: str) -> list[str]:
    r"""Split `latex` at the `\\` that are not inside braces or an environment.

    A brace right after a `\\` (`\\{`) counts as escaped, as a character-by-character
    scan that steps over each backslash and the character after it would count it.
    """
    if "\\\\" not in latex:
        return [latex]
    rows, depth, start = [], 0, 0
    for match in ROW_SCAN.finditer(latex):
        token, at = match.group(), match.start()
        if token == "{" or token == "}":
            if latex[at - 1 : at] != "\\":
                depth += 1 if token == "{" else -1
        elif token == "\\begin":
            depth += 1
        elif token == "\\end":
            depth -= 1
        elif token == "\\\\" and depth == 0:
            rows.append(latex[start:at])
            start = at + 2
    rows.append(latex[start:])
    return rows


def _row(latex: str, numbered: bool) -> tuple[EquationRow, str]:
    r"""Read `\label`, `\tag`, `\nonumber` out of one row; return the row and the rest."""
    if ROW_MARK in latex:  # a line of `\\intertext`: never numbered
        numbered = False
    if "\\label" not in latex and "\\tag" not in latex and "\\no" not in latex:
        return EquationRow(None, None, False, numbered), latex  # no `ROW_COMMANDS`
    label = tag = None
    star = False
    for match in ROW_COMMANDS.finditer(latex):
        if match.group(1) == "label":
            label = match.group(2).strip()
        elif match.group(1):
            tag, star = match.group(2).strip(), match.group(1) == "tag*"
        else:
            numbered = False
    rest = ROW_COMMANDS.sub(" ", latex)
    return EquationRow(label, tag, star, numbered or (label is not None and tag is None)), rest


def split_numbering(latex: str, display: bool) -> tuple[str, tuple[EquationRow, ...]]:
    r"""Find the equation rows of a formula and take `\label`/`\tag`/`\nonumber` out.

    A whole-formula `equation`/`align`/`gather`/`multline`/`eqnarray` (not starred) numbers
    its rows (`multline` and `equation` once); other display math is numbered when it has a
    `\label`; `\tag` always shows. Inline math has no rows.
    """
    top = NUMBERED_TOP.fullmatch(latex) if display else None
    if top is None:
        row, rest = _row(latex, False)
        return rest, (row,) if display else ()
    if top.group(1) == "equation":
        row, rest = _row(top.group(3), not top.group(2))
        return rest, (row,)
    env, star, body = top.groups()
    columns = ""
    if env == "alignat":
        count = re.match(r"\s*(\{\d+\})", body)
        columns = count.group(1) if count else ""
        body = body[count.end() :] if count else body
    parts = top_level_rows(body)
    if env in ("multline",):
        rows = [_row(p, False)[0] for p in parts]
        label = next((r.label for r in rows if r.label), None)
        tagged = next((r for r in rows if r.tag is not None), EquationRow())
        merged = EquationRow(label, tagged.tag, tagged.star_tag, not star and tagged.tag is None)
        inner = r"\\".join(_row(p, False)[1] for p in parts)
        return rf"\begin{{multline*}}{inner}\end{{multline*}}", (merged,)
    pairs = [_row(p, not star) for p in parts]
    if len(pairs) > 1 and not pairs[-1][1].strip():
        pairs.pop()  # a trailing `\\` makes no row
    inner = r"\\".join(rest for _, rest in pairs)
    # `alignat` keeps its own spacing: no space between column pairs but what is written.
    target = {"gather": "gathered", "alignat": "alignedat"}.get(env, "aligned")
    if env == "eqnarray":
        target, columns = EQNARRAY
    begin = rf"\begin{{{target}}}{columns}"
    return rf"{begin}{inner}\end{{{target}}}", tuple(r for r, _ in pairs)


def rewrite_environments(latex: str) -> str:
    """Map KaTeX environments onto latex2mathml's, leaving a style marker before each."""

    def replace(match: re.Match[str]) -> str:
        which, name = match.groups()
        if name in UNSUPPORTED_ENVS:
            raise MathUnsupportedError(
                f"environment {name} is not supported", match.start(), f"\\begin{{{name}}}"
            )
        if name == "equation" or name == "equation*":
            return " "
        if name in ("rcases", "drcases"):  # the brace on the right
            style = "dcases" if name == "drcases" else "cases"
            if which == "end":
                return r"\end{array}\right\}"
            return r"\left." + marker("env", style) + r"\begin{array}{ll}"
        if name in MATRIX_FENCES:
            left, right = MATRIX_FENCES[name]
            if which == "end":
                return rf"\end{{matrix}}\right{right}"
            return rf"\left{left}" + marker("env", "matrix") + r"\begin{matrix}"
        if name in ("eqnarray", "eqnarray*"):  # inside other math: no numbers
            name = EQNARRAY[0]
            if which == "begin":
                return marker("env", ENVIRONMENTS[name][1]) + r"\begin{array}" + EQNARRAY[1]
        if name not in ENVIRONMENTS:
            if name in KNOWN_ENVS:
                return match.group(0)
            raise MathUnsupportedError(
                f"environment {name} is not supported", match.start(), f"\\{which}{{{name}}}"
            )
        target, style = ENVIRONMENTS[name]
        if which == "end":
            return rf"\end{{{target}}}"
        skip = ""
        if name.startswith("alignat") or name == "alignedat":
            skip = "\ue002"  # the column count argument, removed below
        return marker("env", style) + rf"\begin{{{target}}}" + skip

    if "[" in latex:  # `\begin{aligned}[t]`: the vertical position (MathJax reads it)
        latex = POSITION.sub(r"\1", latex)
    if "&" in latex:  # `c & \end{…}`: a last row whose last cell is empty is a row in TeX,
        latex = LAST_EMPTY_CELL.sub("&{}", latex)  # which latex2mathml dropped whole
    out = BEGIN.sub(replace, latex)
    if TOP in out:  # `\begin{aligned}[t]`: its marker's style gets `:t` (`top_align`)
        out = TOP_MARKER.sub(r"\1:t", out).replace(TOP, "")
    return re.sub("\ue002\\s*\\{\\d+\\}", "", out) if "\ue002" in out else out


LAST_EMPTY_CELL = re.compile(r"(?:(?<!\\)|(?<=\\\\))&(?=\s*\\end\s*\{)")
"""An `&` whose cell, the last of its environment, is empty (`a & b \\\\ c & \\end{…}`)."""


TOP = "\ue003"
"""Left before `\\begin{aligned}` (and `gathered`, `array`, …) whose option was `[t]`."""
TOP_MARKER = re.compile(TOP + "(" + re.escape(marker("env", "")[:-1]) + "[A-Za-z*]+)")
"""`TOP` and the environment marker `rewrite_environments` put after it."""


BRACKET_AFTER_BEGIN = re.compile(r"\\begin\s*\{([A-Za-z]+\*?)\}(\s*)\[")
"""An environment whose body (or option) starts with `[`."""
NO_OPTION = frozenset(
    "matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases dcases rcases split "
    "align align* equation equation* gather gather* multline multline* flalign flalign*".split()
)
"""Environments that take no optional argument: a `[` after `\\begin` starts the body."""
POSITIONED = frozenset("aligned gathered array subarray".split())
"""Environments whose optional argument is a vertical position, `[t]`, `[b]` or `[c]`."""
POSITION_OPTION = re.compile(r"\[\s*[tbc]\s*\]")


def shield_body_brackets(latex: str) -> str:
    r"""Keep a body that starts with `[` from being read as an option.

    latex2mathml reads a `[…]` right after `\begin{bmatrix}` or `\begin{aligned}` as column
    letters (what `bmatrix*`'s `[r]` is), so `\begin{bmatrix} [x]_B & [y]_B` stopped the
    build ("column letters may only be l, c, r"); amsmath's matrices take no option, and
    KaTeX and MathJax set `[x]_B` as the first cell. An empty group goes before such a
    `[`. A vertical position (`\begin{aligned}[t]`, `\begin{array}[b]{cc}`, amsmath's)
    is taken out, as latex2mathml cannot read it: `[t]` leaves `TOP` before the `\begin`,
    which `rewrite_environments` hands on to the table (`top_align`); `[b]` and `[c]`
    are dropped (centred on the axis: MathML Core has no way to put a table's last row on
    the baseline).
    """
    if "[" not in latex or "\\begin" not in latex:
        return latex
    out, pos = [], 0
    for found in BRACKET_AFTER_BEGIN.finditer(latex):
        env, bracket = found.group(1), found.end() - 1
        option = POSITION_OPTION.match(latex, bracket)
        if env in POSITIONED and option is not None:
            if "t" in option.group(0):  # read by `rewrite_environments`
                out += [latex[pos : found.start()], TOP, latex[found.start() : bracket]]
            else:
                out += [latex[pos:bracket]]
            pos = option.end()
            if latex[pos:].lstrip().startswith("["):  # `\begin{aligned}[t] [u]_B`: a cell
                out += ["{}"]
        elif env in NO_OPTION or env in POSITIONED:
            out += [latex[pos:bracket], "{}"]
            pos = bracket
    return "".join(out) + latex[pos:]


PLAIN_MATRIX = re.compile(
    r"\\(matrix|pmatrix|bmatrix|Bmatrix|vmatrix|Vmatrix|smallmatrix|cases)(?![A-Za-z*])\s*(?=\{)"
)
r"""A matrix or `cases` written as a command with its rows in braces: `\pmatrix{a & b \\ c & d}`."""


def rewrite_plain_matrices(latex: str) -> str:
    r"""Rewrite plain TeX's `\matrix{…}`, `\pmatrix{…}`, `\cases{…}` (and MathJax's
    `\bmatrix{…}` kin) as their environments, `\begin{pmatrix}…\end{pmatrix}`.

    plain.tex defines `\def\pmatrix#1{\left(\matrix{#1}\right)}` and `\cases` with
    `\left\{`: the fences stretch to the rows, as the environments' do. latex2mathml reads
    the command forms itself, with fences of the text's size around a table of several rows
    and none of the environments' spacing (a Quarto blog's 22 `\bmatrix{…}`). Columns are
    1em apart in both (plain's `\quad`, amsmath's two `\arraycolsep`). A group left open
    is left as written, for the parser to report.
    """
    out, pos = [], 0
    for match in PLAIN_MATRIX.finditer(latex):
        if match.start() < pos:
            continue
        try:
            body, end = read_group(latex, match.end())
        except MathSyntaxError:
            break
        name = match.group(1)
        out += [latex[pos : match.start()], f"\\begin{{{name}}}"]
        out += [rewrite_plain_matrices(body), f"\\end{{{name}}}"]
        pos = end
    return "".join(out) + latex[pos:]


def unstar_matrices(latex: str) -> str:
    r"""Rewrite `pmatrix*` and its kin as `pmatrix` (latex2mathml has no starred matrices)."""
    if "matrix*" in latex:
        latex = re.sub(r"\\(begin|end)\{([pbBvV]?matrix)\*\}", r"\\\1{\2}", latex)
    return latex


def wrap_rows(latex: str, display: bool) -> str:
    r"""Set display math with several top-level rows (`a \\ b`) as a `gathered` environment.

    A first row that starts with `[` (`[(1+x)^a]^{(n)} = … \\ …`) gets an empty group
    before it, as `shield_body_brackets` gives a written environment's body: latex2mathml
    would read `[…]` after `\begin{gathered}` as column letters, and the formula failed.
    """
    if display and "\\\\" in latex and len(top_level_rows(latex)) > 1:
        end = "\n" if "%" in latex else ""  # a comment on the last row ends at its line
        shield = "{}" if latex.lstrip().startswith("[") else ""
        return rf"\begin{{gathered}}{shield}{latex}{end}\end{{gathered}}"
    return latex


def multline_align(row: int, rows: int) -> str:
    """Return the alignment of row `row` of `rows` in `multline`: first left, last right.

    amsmath (`amsldoc`, §3.2): the first line is set flush left, the last flush right and
    the ones between centred; a single line is centred.
    """
    if rows > 1 and row == 0:
        return align_css("left")
    if rows > 1 and row == rows - 1:
        return align_css("right")
    return align_css("center")


def _column_padding(half_gap: str, column: int, columns: int) -> str:
    """Return the side padding of a matrix cell: `half_gap` inside, 0 at the table's ends."""
    left = "0" if column == 0 else half_gap
    right = "0" if column == columns - 1 else half_gap
    return f"padding-left:{left};padding-right:{right}"


def style_environment(table: ET.Element, env: str, stretch: float | None = None) -> None:
    """Add the cell padding and display style of one environment (TeX's spacing).

    `aligned`: right/left column pairs set flush with 2em between pairs (amsmath); `cases`:
    1em before the condition column; `matrix`, `smallmatrix`: `COLUMN_HALF_GAP` between
    columns, none at the ends; `array`: 5pt on both sides of every column; `gathered`,
    `subarray`: no side padding; `multline`: first line left, last right
    (`multline_align`). Every row of a display environment gets `JOT_PADDING` above and
    below; the rows of an array-like style (`ARRAY_STRETCH`) get LaTeX's strut
    (`add_strut`) scaled by `stretch` (a `\\arraystretch` the formula set; `cases` keeps
    its own 1.2, as in LaTeX, where `cases` sets it inside its group).
    """
    if env in DISPLAY_ENVS:
        table.set("displaystyle", "true")
    rows = cells(table)
    pads = boundary_paddings(table.get(DATA_COLSEP, "")) if env in ("array", "darray") else []
    columns = [_first_columns(row) for row in rows]
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if env == "multline":
                add_style(cell, f"padding:{JOT_PADDING} 0;{multline_align(i, len(rows))}")
            elif env in PAIR_GAP:
                gap = PAIR_GAP[env] if j and j % 2 == 0 else "0"
                add_style(cell, f"padding:{JOT_PADDING} 0 {JOT_PADDING} {gap}")
            elif env in ("cases", "dcases"):
                add_style(cell, f"padding:0 0 {LINESKIP_EM}em {'1em' if j else '0'}")
            elif env in COLUMN_HALF_GAP:
                add_style(cell, _column_padding(COLUMN_HALF_GAP[env], j, len(row)))
                if env in ARRAY_STRETCH:
                    add_style(cell, f"padding-top:0;padding-bottom:{LINESKIP_EM}em")
            elif env in ("array", "darray"):
                sides = _boundary_padding(pads, columns[i][j], cell) if pads else None
                add_style(cell, sides or ARRAY_COLUMN_PADDING)
                add_style(cell, f"padding-top:0;padding-bottom:{LINESKIP_EM}em")
            elif env in ("gathered", "subarray"):
                add_style(cell, f"padding:{JOT_PADDING} 0" if env == "gathered" else "padding:0")
        if env in ARRAY_STRETCH and row:
            own = ARRAY_STRETCH[env]
            add_strut(row[0], own if env in ("cases", "dcases") or stretch is None else stretch)


def _first_columns(row: list[ET.Element]) -> list[int]:
    """Return the first column of each cell of a row (a `columnspan` covers several)."""
    firsts, column = [], 0
    for cell in row:
        firsts.append(column)
        column += int(cell.get("columnspan", "1"))
    return firsts


def _boundary_padding(pads: list[str], first: int, cell: ET.Element) -> str:
    """Return the side padding of a cell of an array whose preamble has `@{…}`/`!{…}`
    (`tables.Gap`; `first` is the cell's first column).

    `@{x}` replaces the `\\arraycolsep` on both sides of its boundary by x: the column before
    it ends x before the next, which starts at once; `!{x}` keeps them and adds x (array.sty,
    "The preamble options"). At the array's edges the same holds for its first and last
    column (`@{}cc@{}` sets the table flush with what is around it).
    """
    last = first + int(cell.get("columnspan", "1"))
    left = right = ARRAYCOLSEP
    pad = pads[first] if first < len(pads) else ""
    if pad and first == 0:  # the left edge: only this column's side
        left = _pad_width(pad)
    elif pad.startswith("@"):  # the column before holds the width
        left = "0"
    if last < len(pads) and pads[last]:
        right = _pad_width(pads[last])
    return f"padding-left:{left};padding-right:{right}"


def _pad_width(pad: str) -> str:
    """Return the width a boundary's pad (`@1em`, `!0.1667em`) leaves beside a column."""
    width = pad[1:]
    return width if pad[0] == "@" else f"calc({ARRAYCOLSEP} + {width})"


def add_strut(cell: ET.Element, stretch: float) -> None:
    """Give a table row LaTeX's array strut: an invisible `<mspace>` in its first cell.

    `\\@arstrut` (latex.ltx) is 0.7 `\\baselineskip` high and 0.3 deep, times
    `\\arraystretch`; a row is at least that tall, so rows of single letters sit 1.2em apart
    (1.44em in `cases`) and taller rows push their neighbours away, as in TeX.
    """
    strut = ET.SubElement(cell, "mspace")
    strut.set("height", f"{STRUT_HEIGHT_EM * stretch:.4g}em")
    strut.set("depth", f"{max(0.0, STRUT_DEPTH_EM * stretch - LINESKIP_EM):.4g}em")


def array_stretch(definitions: dict[str, str]) -> float | None:
    """Return the `\\arraystretch` a formula's or post's macros set (`\\def\\arraystretch{1.4}`).

    None when unset or not a positive number (LaTeX would stop at such a value; the
    table keeps its own spacing instead).
    """
    value = definitions.get("arraystretch", "").strip()
    try:
        number = float(value)
    except ValueError:
        return None
    return number if 0 < number <= 10 else None


def top_align(table: ET.Element) -> None:
    r"""Put the first row of `\begin{aligned}[t]` (`gathered`, `array`, …) on the baseline.

    amsmath's `[t]` aligns the environment's top row with the text beside it, where a table
    is otherwise centred on the math axis. Chromium lays out an `mtable` whose CSS display
    is `inline-block` as a CSS table, whose baseline is its first row's (CSS 2, 17.5.1),
    and the row beside it aligns with that baseline; columns stay aligned. (`[b]` has no
    such means: no CSS display puts a table's last row on the baseline in a math row.)
    """
    add_style(table, "display:inline-block")


def style_environments(root: ET.Element, stretch: float | None = None) -> None:
    """Apply `style_environment` to every mtable under `root` that an environment marked."""
    for table in list(root.iter("mtable")):
        env = table.get(DATA_ENV)
        if env:
            style_environment(table, env, stretch)
        if table.get(DATA_TOP):
            top_align(table)


ROW_GAP = re.compile(
    r"\\\\\*?\[\s*(-?(?:\d+\.?\d*|\.\d+)\s*(?:pt|em|ex|mm|cm|in|bp|pc|dd|cc|sp|px|mu))\s*\]"
)
GAP_UNITS = {"mu": "em"}  # 18mu = 1em; converted in `_gap_length`
UA_CELL_PADDING = "0.5ex"  # MathML Core's user-agent `mtd { padding: 0.5ex 0.4em }`


def rewrite_row_gaps(latex: str) -> str:
    r"""Turn `\\[6pt]` into `\\` after a `gap` marker that `apply_row_gaps` reads.

    The optional argument of `\\` must follow it directly (amsmath reads it with
    `\new@ifnextchar`, which does not skip spaces), so `a \\ [x, y]` keeps its interval.
    """
    if "\\\\" not in latex:
        return latex
    return ROW_GAP.sub(lambda m: marker("gap", m.group(1).replace(" ", "")) + r"\\", latex)


def _gap_length(length: str) -> str:
    """Return a TeX length as CSS: `6pt` stays, `9mu` becomes `0.5em` (18mu = 1em)."""
    if length.endswith("mu"):
        return f"{float(length[:-2]) / 18:.4g}em"
    return length


def _bottom_padding(cell: ET.Element) -> str:
    """Return the bottom padding a cell's inline style gives it (else the UA's 0.5ex)."""
    bottom = UA_CELL_PADDING
    for declaration in cell.get("style", "").split(";"):
        prop, _, value = declaration.partition(":")
        if prop.strip() == "padding":
            values = value.split()
            bottom = values[2] if len(values) > 2 else values[0]
        elif prop.strip() == "padding-bottom":
            bottom = value.strip()
    return bottom


def _drop_declaration(cell: ET.Element, prop: str) -> None:
    """Remove the declarations of one CSS property from a cell's `style`."""
    kept = [d for d in cell.get("style", "").split(";") if d and d.split(":")[0].strip() != prop]
    cell.set("style", ";".join(kept))


def _take_gap(row: ET.Element) -> str | None:
    """Remove the `gap` markers inside a table row; return the last one's length."""
    length = None
    for parent in list(row.iter()):
        for child in list(parent):
            found = read_marker(child)
            if found is not None and found[0] == "gap":
                length = found[1]
                parent.remove(child)
    return length


def apply_row_gaps(root: ET.Element) -> None:
    r"""Add each `\\[len]` below its row: `len` more bottom padding on every cell of the row.

    TeX adds the length to the depth of the row it ends (The TeXbook, ch. 22, `\noalign`
    after `\cr`; amsmath's `\\[len]`). A negative length shrinks the padding, down to 0
    (CSS clamps `calc()` in a property that takes no negative values). A marker outside a
    table (inline `a \\[2pt] b`) is dropped.
    """
    if not has_markers(root, ("gap",)):
        return
    for row in list(root.iter("mtr")):
        length = _take_gap(row)
        if length is None:
            continue
        for cell in row:
            if cell.tag == "mtd":
                base = _bottom_padding(cell)
                _drop_declaration(cell, "padding-bottom")
                extra = _gap_length(length)
                sign = "-" if extra.startswith("-") else "+"
                add_style(cell, f"padding-bottom:calc({base} {sign} {extra.lstrip('-')})")
    _take_gap(root)


# Switches that colour or style "the rest of the group": in TeX they end at the end of the
# cell too (`&`, `\\`: each cell is its own group), which latex2mathml does not know.
SWITCH = re.compile(r"\\(color)\s*(?=\{)")
STYLE_SWITCH = re.compile(
    r"\\\\|\\(?:(?:display|text|script|scriptscript)style|tiny|Tiny|scriptsize|footnotesize|small"
    r"|normalsize|large|Large|LARGE|huge|Huge|rm|bf|it|sf|tt|cal|frak)(?![A-Za-z])"
)
"""The style, size and old font switches latex2mathml knows (`\\displaystyle`, `\\small`,
`\\bf`), and `\\\\`, matched so that `\\\\tt` (a new row, then `tt`) is no `\\tt`."""
SCOPE_TOKEN = re.compile(
    r"\\(?:begin|end|left|right|middle|cr)(?![A-Za-z])|\\\\|\\[A-Za-z]+|\\.|[{}&]"
)
"""What opens or closes a switch's scope; a whole command name is one token, so that
`\\rightarrow`, `\\leftarrow` and `\\centering` are no `\\right`, `\\left` or `\\cr`."""


def _scope_end(latex: str, pos: int) -> int:
    r"""Return where a switch at `pos` stops: the end of its group or cell (`&`, `\\`)."""
    depth = 0
    for token in SCOPE_TOKEN.finditer(latex, pos):
        text = token.group(0)
        if text in ("{", "\\begin", "\\left"):
            depth += 1
        elif text in ("}", "\\end", "\\right"):
            depth -= 1
            if depth < 0:
                return token.start()
        elif depth == 0 and text in ("&", "\\\\", "\\cr", "\\middle"):
            return token.start()
    return len(latex)


def scope_switches(latex: str) -> str:
    r"""Brace each `\color{c}` switch with the rest of its cell: `{\color{c} …}`.

    In TeX `\color` colours to the end of the enclosing group, and every cell of an
    alignment is a group, so `a &= \color{red} b \\ c &= d` colours only `b`; latex2mathml
    instead swallows the rest of the table (`&`, `\\`) into the colour. A switch whose
    scope already ends at a group's end is left alone. `\color{c}{X}`, a group right after
    the colour, colours only `X`: MathJax reads `\color` with two arguments, and the posts
    written for it (Jekyll, Hugo) mean `\textcolor{c}{X}` by it. Style, size and font
    switches are braced with the rest of their cell as well (`_scope_style_switches`).
    """
    if "&" in latex or "\\\\" in latex or "\\cr" in latex:
        latex = _scope_style_switches(latex)
    if "\\color" not in latex:
        return latex
    out, pos = [], 0
    for match in SWITCH.finditer(latex):
        if match.start() < pos:
            continue
        _, after_colour = read_group(latex, match.end())
        argument = after_colour
        while argument < len(latex) and latex[argument].isspace():
            argument += 1
        if latex.startswith("{", argument):  # MathJax's `\color{c}{X}`: X only
            end = read_group(latex, argument)[1]
        else:
            end = _scope_end(latex, after_colour)
        if not latex[after_colour:end].strip():  # `x \color{red}`, `b \color{red} \\`:
            out.append(latex[pos : match.start()])  # it colours nothing (valid TeX), and
            pos = after_colour  # latex2mathml fails on a `\color` with nothing after it
            continue
        rest = latex[end : end + 1]
        if end == len(latex) or rest == "}":
            continue
        out.append(latex[pos : match.start()] + "{" + latex[match.start() : end] + "}")
        pos = end
    out.append(latex[pos:])
    return "".join(out)


def _scope_style_switches(latex: str) -> str:
    r"""Brace a style, size or font switch with the rest of its cell: `& {\displaystyle …} &`.

    latex2mathml builds a table cell one item at a time, so a switch standing directly in a
    cell (`\begin{cases} \displaystyle \frac{1}{2} & …`, `& \scriptstyle{\text{note}}`,
    `\bf x & y`) became an empty `<mstyle>` and what follows it kept the cell's style; in TeX
    it applies to the end of the cell, a group. So is one in the last row of display math
    whose rows become a `gathered` (`a \\ \small b`, the `rows` pass runs later). A switch
    whose scope ends at a group's end, or at the end of a formula of one row, is read right
    already and left alone; one with nothing after it in its cell does nothing in TeX and
    is dropped.
    """
    out, pos = [], 0
    for match in STYLE_SWITCH.finditer(latex):
        if match.start() < pos or match.group(0) == "\\\\":
            continue  # inside a switch braced already (its group applies it), or a new row
        end = _scope_end(latex, match.end())
        if end == len(latex) and "\\\\" not in latex[: match.start()]:
            continue  # the formula's end, in its only row: latex2mathml reads it so
        if latex.startswith(("}", "\\right", "\\middle"), end):
            continue
        out.append(latex[pos : match.start()])
        if latex[match.end() : end].strip():
            out.append("{" + latex[match.start() : end] + "}")
        pos = end
    out.append(latex[pos:])
    return "".join(out)
