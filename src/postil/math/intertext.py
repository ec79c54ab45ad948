r"""amsmath's `\intertext{…}` and `\shortintertext{…}`: a line of text between the rows of
an alignment, which keeps its alignment across the text.

MathJax and KaTeX have no `\intertext` (mathjax/MathJax#736, KaTeX/KaTeX#3034); postil sets
it as a row of its own whose one cell spans the table, its text flush left: the rows above
and below stay one table, so their `&` columns still line up. The text is `\text{…}`, so
`$…$` inside it is math. amsmath puts the text at the page's left margin; here it starts
at the left edge of the formula's block.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import MARK, has_markers, marker, read_marker
from postil.math.tables import add_style, align_css

INTERTEXT = re.compile(r"(\\\\\s*)?\\(?:short)?intertext(?![A-Za-z])\s*")
ROW_MARK = MARK + "intertext"
"""What a row holding an `\\intertext` contains (`environments` does not number it)."""


def rewrite_intertext(latex: str) -> str:
    r"""Rewrite `\\ \intertext{T}` as a row of its own: `\\ <marker>\text{T} \\`.

    amsmath asks for the `\\` before it; a missing one is supplied, as the row above has to
    end there either way. `fix_intertext` makes the row one spanning cell.

    Raises:
        MathUnsupportedError: the text is not in braces (TeX would take one letter of
            `\intertext and so`).
    """
    if "intertext" not in latex:
        return latex
    out, pos = [], 0
    for match in INTERTEXT.finditer(latex):
        if match.start() < pos:
            continue
        command = "\\" + match.group().split("\\")[-1].strip()
        if latex[match.end() : match.end() + 1] != "{":
            raise MathUnsupportedError(
                f"{command} needs its text in braces: write {command}{{…}}", 0, command
            )
        text, end = read_group(latex, match.end())
        row = marker("intertext", "") + r"\text{" + text + "}"
        out += [latex[pos : match.start()], r"\\", row, r"\\"]
        pos = end
    rest = latex[pos:]
    if re.fullmatch(r"\s*(\\end\{[^{}]*\}\s*)?", rest) and out and out[-1] == r"\\":
        out.pop()  # the text ends the alignment: no empty row after it
    return "".join(out) + rest


def fix_intertext(root: ET.Element) -> None:
    """Make every row holding an `intertext` marker one left-aligned cell across its table.

    Runs after the equation numbers are placed, so the text spans their cells too.

    Raises:
        MathUnsupportedError: a marker outside every table: the `\\intertext` is not
            between rows (amsmath's "\\intertext not allowed here"); the page would show
            the marker's word.
    """
    if not has_markers(root, ("intertext",)):
        return
    for table in list(root.iter("mtable")):
        for row in [r for r in table if r.tag == "mtr"]:
            found = next((e for e in row.iter("mtext") if _is_intertext(e)), None)
            if found is None:
                continue
            width = max(_width(r) for r in table if r.tag == "mtr")
            holder = next(c for c in row if c.tag == "mtd" and found in list(c.iter()))
            for cell in [c for c in row if c is not holder]:
                row.remove(cell)
            _remove(holder, found)
            holder.set("columnspan", str(width))
            holder.set("style", "padding:0.25em 0")
            add_style(holder, align_css("left"))
    if any(_is_intertext(e) for e in root.iter("mtext")):
        raise MathUnsupportedError(
            "\\intertext works only between the rows of an alignment (align, gather, "
            "aligned…): put the text outside the formula, or the rows in an alignment",
            0,
            "\\intertext",
        )


def _is_intertext(el: ET.Element) -> bool:
    """Tell whether `el` is an `intertext` marker."""
    found = read_marker(el)
    return found is not None and found[0] == "intertext"


def _width(row: ET.Element) -> int:
    """Return the number of columns a table row covers."""
    return sum(int(c.get("columnspan", "1")) for c in row if c.tag == "mtd")


def _remove(ancestor: ET.Element, el: ET.Element) -> None:
    """Remove `el` from its parent under `ancestor`."""
    parent = next(p for p in ancestor.iter() if any(k is el for k in p))
    parent.remove(el)
