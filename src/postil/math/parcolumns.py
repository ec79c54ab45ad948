r"""Paragraph columns of an array (`p{3cm}`, `m{…}`, `b{…}`): their cells are text; and
the material of `@{…}` (`r@{.}l`) put into the cells beside it.

LaTeX sets a `p` column's cell as a paragraph in text mode, also inside math's `array`
(array.sty, "The preamble options": `p{wd}` is a `\parbox[t]{wd}`; in LaTeX's own words on
latex3/latex2e#297, "p columns are also typeset as text in an array"); `$…$` inside it is
math. latex2mathml reads every cell as math, so the words would be set as italic letters
run together. Each such cell is wrapped in `\text{…}` before the text pass reads it; the
column is then aligned flush left, as `tables.rewrite_array_preambles` sets it. The width
is not kept (a cell is as wide as its text).
"""

from __future__ import annotations

import re

from postil.math.macros import read_group
from postil.math.tables import ARRAY_BEGIN, apply_edits, column_kinds, material_placements

SEPARATOR = re.compile(
    r"\\\\\*?(?:\s*\[[^\]]*\])?|&|\\(begin|end)\s*\{[^{}]*\}|[{}]|\\[A-Za-z]+|\\."
)
r"""What the cell splitter looks at: a row's end (with its `*` and `[gap]`), a cell's end,
an environment's edge, braces; other commands are passed over whole (`\&` is no `&`)."""

ROW_RULES = re.compile(r"(?:\s*(?:\\hline(?![A-Za-z])|\\cline\s*\{[^{}]*\}))*\s*")
"""Rules at the start of a row's first cell: they stay outside the cell's text."""

NOT_TEXT = ("\\multicolumn", "\\begin", "\\text")
"""Cells left as written: a `\\multicolumn` has its own column type, a nested environment
would be an error in text mode, and a cell already `\\text` needs no second wrapping."""


STARRED_CASES = re.compile(r"\\begin\s*\{((?:d|r|dr)?cases)\*\}")


def rewrite_starred_cases(latex: str) -> str:
    r"""Rewrite mathtools' `cases*` (`dcases*`, `rcases*`, `drcases*`) as the unstarred
    environment whose second column is text: `\begin{cases*} 1 & if $x > 0$ \end{cases*}`
    -> `\begin{cases} 1 & \text{if $x > 0$} \end{cases}` (mathtools' manual, 3.4.3:
    "the second column is set in text mode"; MathJax's mathtools has it too).
    """
    edits: list[tuple[int, int, str]] = []
    for match in STARRED_CASES.finditer(latex):
        name = match.group(1)
        edits.append((match.start(), match.end(), f"\\begin{{{name}}}"))
        for column, start, end in _cells(latex, match.end()):
            cell = latex[start:end]
            if column == 1 and cell.strip() and not any(cmd in cell for cmd in NOT_TEXT):
                edits.append((start, end, "\\text{" + cell.strip() + "}"))
            if latex.startswith("\\end", end):  # the environment's own end
                close = re.compile(r"\\end\s*\{" + re.escape(name) + r"\*\}").match(latex, end)
                if close:
                    edits.append((close.start(), close.end(), f"\\end{{{name}}}"))
    return apply_edits(latex, edits)  # a cell inside one wrapped whole (a nested `cases*`): kept


def rewrite_paragraph_columns(latex: str) -> str:
    r"""Wrap every cell of an array's `p`/`m`/`b` columns in `\text{…}` (see the module).

    `\begin{array}{lp{4cm}} x & for all $x$ \end{array}` ->
    `\begin{array}{lp{4cm}} x & \text{for all $x$} \end{array}`.
    """
    if "cases*}" in latex:
        latex = rewrite_starred_cases(latex)
    if "array}" not in latex or not any(f"{kind}{{" in latex for kind in "pmb@"):
        return latex
    edits: list[tuple[int, int, str]] = []  # (start, end, what goes before/after the cell)
    for match in ARRAY_BEGIN.finditer(latex):
        spec, body = read_group(latex, match.end())
        kinds = column_kinds(spec)
        places = material_placements(spec) if "@" in spec else []
        if "p" not in kinds and not places:
            continue
        for column, start, end in _cells(latex, body):
            if column < len(kinds) and kinds[column] == "p":
                edits.append((start, end, "text"))
            edits += [(start, end, m) for c, after, m in places if c == column and after]
            edits += [(start, end, "^" + m) for c, after, m in places if c == column and not after]
    out, pos = [], 0
    for start, end, what in sorted(edits, key=lambda e: (e[0], e[2] != "text")):
        rules = ROW_RULES.match(latex, start, end)
        start = rules.end() if rules else start
        cell = latex[start:end]
        if what != "text":  # `@{…}` material: stuck to the cell's start or end
            if pos > start or "\\multicolumn" in cell:
                continue  # a `\multicolumn` cell has its own preamble, without it
            at = start if what.startswith("^") else end
            out += [latex[pos:at], "{", what.removeprefix("^"), "}"]
            pos = at
            continue
        if pos > start or not cell.strip() or any(cmd in cell for cmd in NOT_TEXT):
            continue  # a cell of an array nested in a wrapped cell was wrapped with it
        out += [latex[pos:start], "\\text{", cell.strip(), "}"]
        pos = end
    return "".join(out) + latex[pos:]


def _cells(latex: str, pos: int) -> list[tuple[int, int, int]]:
    """Return (column, start, end) of each cell of the environment whose body starts at
    `pos`, up to its `\\end{…}`: its `&` and `\\\\` at its own depth split them."""
    cells, column, start, depth = [], 0, pos, 0
    for match in SEPARATOR.finditer(latex, pos):
        token = match.group()
        if token in ("{", "}") or match.group(1):
            opening = token == "{" or match.group(1) == "begin"
            if not opening and depth == 0:  # the environment's own end (or a stray `}`)
                cells.append((column, start, match.start()))
                return cells
            depth += 1 if opening else -1
        elif depth == 0 and (token == "&" or token.startswith("\\\\")):
            cells.append((column, start, match.start()))
            column, start = (column + 1, match.end()) if token == "&" else (0, match.end())
    cells.append((column, start, len(latex)))
    return cells
