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

RULE = "0.06em"


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
    table.attrib.pop("rowspacing", None)
    table.attrib.pop("columnspacing", None)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            align = cell.attrib.pop("columnalign", None)
            if align and align != "center":
                add_style(cell, align_css(align))
            if j < len(col_lines) and col_lines[j] != "none":
                add_style(cell, f"border-right:{RULE} {col_lines[j]}")
            if i < len(row_lines) and row_lines[i] != "none":
                add_style(cell, f"border-bottom:{RULE} {row_lines[i]}")


def style_tables(root: ET.Element) -> None:
    """Apply `style_table` to every mtable under `root` (environments add theirs after)."""
    for table in list(root.iter("mtable")):
        style_table(table)


# An array's preamble (the column spec): latex2mathml reads `l`, `c`, `r` and `|` only and
# draws anything else into the first cell as math (`{*{20}{l}}` showed "∗20l" there). The
# array package's other specifiers (array.sty §1, "The preamble options") are rewritten to
# those four before conversion.
ARRAY_BEGIN = re.compile(r"\\begin\s*\{(?:d?array|subarray)\}\s*(?:\[[^\]]*\]\s*)?(?=\{)")
PREAMBLE_TOKEN = re.compile(r"\s*([lcr|:]|[pmbwWX*@!<>]|\\[A-Za-z]+|.)")
# `@{…}`/`!{…}` between columns is kept only when it is spacing (or nothing): content
# there has no MathML form, so anything else is reported rather than dropped.
SPACING_ONLY = re.compile(r"(?:\s|\\[,:;! ]|\\q?quad(?![A-Za-z])|\\hspace\*?\{[^{}]*\})*")
MAX_COLUMNS = 100


def rewrite_array_preambles(latex: str) -> str:
    r"""Rewrite the preamble of every `array` to the `l`, `c`, `r`, `|` latex2mathml reads.

    `*{3}{c}` -> `ccc` (repeated, nested too), `p{2cm}`/`m{…}`/`b{…}` -> `l` (a paragraph
    column is set flush left), `w{c}{2cm}`/`W{…}{…}` -> its alignment, `>{…}`/`<{…}` (code
    before or after each cell) dropped, `@{}`/`!{}` with nothing or only spacing dropped;
    `:` (arydshln's dashed rule) is drawn solid. The source of the rules: array.sty's
    documentation, "The preamble options".

    Raises:
        MathUnsupportedError: `@{…}`/`!{…}` holding content, or a letter that is no column
            type (named as written).
    """
    if "array}" not in latex:
        return latex
    out, pos = [], 0
    for match in ARRAY_BEGIN.finditer(latex):
        if match.start() < pos:
            continue
        spec, end = read_group(latex, match.end())
        out += [latex[pos : match.end()], "{", _preamble(spec), "}"]
        pos = end
    return "".join(out) + latex[pos:] if out else latex


def _preamble(spec: str) -> str:
    """Return one array preamble as `l`/`c`/`r`/`|` letters (see `rewrite_array_preambles`)."""
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
            columns.append(_preamble(body) * min(repeat, MAX_COLUMNS))
        elif token in "pmb":
            _, pos = read_group(spec, pos)
            columns.append("l")
        elif token in "wW":
            align, pos = read_group(spec, pos)
            _, pos = read_group(spec, pos)
            columns.append(align.strip() if align.strip() in ("l", "c", "r") else "l")
        elif token in "<>":
            _, pos = read_group(spec, pos)
        elif token in "@!":
            content, pos = read_group(spec, pos)
            if not SPACING_ONLY.fullmatch(content):
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
