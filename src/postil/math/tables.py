"""Tables (`mtable`) styled with CSS that Chromium honours.

Chromium's MathML Core ignores `columnalign`, `columnlines`, `rowlines`, `columnspacing`
and `rowspacing` (https://w3c.github.io/mathml-core/#table-or-matrix-mtable), so each is
turned into inline `style` on the cells: `text-align`, `border-*` and `padding-*`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from postil.math.tree import local

RULE = "0.06em"
ALIGN_WORDS = {"l": "left", "c": "center", "r": "right"}


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


def _cells(table: ET.Element) -> list[list[ET.Element]]:
    """Return the table's cells row by row."""
    return [[c for c in row if local(c) == "mtd"] for row in table if local(row) == "mtr"]


def _lines(value: str, count: int) -> list[str]:
    """Expand a MathML line list (`"solid none"`) to `count` entries, repeating the last."""
    words = value.split() or ["none"]
    return [words[min(i, len(words) - 1)] for i in range(count)]


def style_table(table: ET.Element) -> None:
    """Move one mtable's alignment, rule and spacing attributes into cell styles."""
    rows = _cells(table)
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


# Environment -> (display style, column padding per pair start, padding of other cells).
PAIR_GAP = {"aligned": "2em", "alignat": "0"}
DISPLAY_ENVS = frozenset(("aligned", "alignat", "gathered", "multline", "dcases", "darray"))


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


def style_environment(table: ET.Element, env: str) -> None:
    """Add the cell padding and display style of one environment (TeX's spacing).

    `aligned`: right/left column pairs set flush with 2em between pairs (amsmath); `cases`:
    1em before the condition column; `gathered`, `subarray`: no side padding; `multline`:
    first line left, last right (`multline_align`). Every row
    of a display environment gets TeX's `\\jot` (3pt) above and below.
    """
    if env in DISPLAY_ENVS:
        table.set("displaystyle", "true")
    rows = _cells(table)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if env == "multline":
                add_style(cell, f"padding:0.15em 0;{multline_align(i, len(rows))}")
            elif env in PAIR_GAP:
                gap = PAIR_GAP[env] if j and j % 2 == 0 else "0"
                add_style(cell, f"padding:0.15em 0 0.15em {gap}")
            elif env in ("cases", "dcases"):
                add_style(cell, f"padding:0.1em 0 0.1em {'1em' if j else '0'}")
            elif env in ("gathered", "subarray"):
                add_style(cell, "padding:0.15em 0" if env == "gathered" else "padding:0")


def style_tables(root: ET.Element) -> None:
    """Apply `style_table` and the environment styles to every mtable under `root`."""
    for table in [el for el in root.iter() if local(el) == "mtable"]:
        style_table(table)
        env = table.get("data-env")
        if env:
            style_environment(table, env)
