"""Tables (`mtable`) styled with CSS that Chromium honours: alignment, rules, spacing.

Chromium's MathML Core ignores `columnalign`, `columnlines`, `rowlines`, `columnspacing`
and `rowspacing` (https://w3c.github.io/mathml-core/#table-or-matrix-mtable), so each is
turned into inline `style` on the cells: `text-align`, `border-*` and `padding-*`. What an
environment adds (padding, display style, multline's alignment) is in `environments.py`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

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
