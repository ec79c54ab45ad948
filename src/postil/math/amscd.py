r"""Commutative diagrams: amscd's `CD` environment (MathJax's `amscd` extension, KaTeX's `CD`).

    \begin{CD}
    A @>f>> B \\
    @VgVV   @VVhV \\
    C @>>k> D
    \end{CD}

amscd's syntax (its documentation, "amscd.sty"; MathJax's `AmsCdMethods`, KaTeX's
`src/environments/cd.js`): rows alternate between objects joined by horizontal arrows and
rows of vertical arrows, one under each object. `@>a>b>` is a right arrow with `a` above and
`b` below, `@<a<b<` a left one; `@=` a long equals sign; `@VaVbV` a down arrow with `a` to its
left and `b` to its right, `@AaAbA` an up one; `@|` (or `@\|`) a double vertical line; `@.`
no arrow. Labels are in script style beside vertical arrows.

`rewrite_cd` writes each diagram as TeX the later passes know: an `array` of centred
columns, the objects and vertical arrows in its even columns, the horizontal arrows in the
odd ones, as x-arrows (`\xrightarrow[b]{a}`) padded to about amscd's least arrow width
(`\minCDarrowwidth`, 2.5pc), and vertical arrows `\Big` with their labels overlapping
outward (`\mathllap`, `\mathrlap`), so the arrow stays under its object as amscd sets it.
A row is a row of vertical arrows when its items are vertical ones (`V`, `A`, `|`), of
objects when they are horizontal (`>`, `<`, `=`); a row of `@.` only or of objects only
takes its place in the alternation. Any other character after `@` is an error at its place.
"""

from __future__ import annotations

import re

from postil.math.errors import MathSyntaxError

CD = re.compile(r"\\begin\s*\{CD\}(.*?)\\end\s*\{CD\}", re.S)
ROW_BREAK = re.compile(r"\\\\(?:\s*\[[^\]]*\])?")
ARROW_PAD = r"\hphantom{\quad}"
r"""Padding on each side of a horizontal arrow's labels: with the x-arrow's own 1em, about
amscd's `\minCDarrowwidth` (2.5pc) for short labels."""
HORIZONTAL = {">": r"\xrightarrow", "<": r"\xleftarrow"}
VERTICAL = {"V": r"\Big\downarrow", "A": r"\Big\uparrow"}


def rewrite_cd(latex: str) -> str:
    """Rewrite every `CD` environment of a formula as an array (see the module docstring).

    Raises:
        MathSyntaxError: an `@` followed by no arrow amscd has, or an arrow never closed.
    """
    if "{CD}" not in latex:
        return latex
    return CD.sub(lambda found: _diagram(found.group(1), found.start(1)), latex)


def _diagram(body: str, offset: int) -> str:
    """Return the array of one diagram's body (`offset`: where it starts in the formula)."""
    rows: list[list[str]] = []
    start = 0
    for index, found in enumerate([*ROW_BREAK.finditer(body), None]):
        end = found.start() if found else len(body)
        text = body[start:end]
        if found is not None or text.strip():
            rows.append(_row(text, offset + start, index))
        start = found.end() if found else end
    columns = max((len(row) for row in rows), default=1)
    lines = [" & ".join(row + [""] * (columns - len(row))) for row in rows]
    return rf"\begin{{array}}{{{'c' * columns}}}" + r" \\ ".join(lines) + r"\end{array}"


def _row(text: str, offset: int, index: int) -> list[str]:
    """Return the cells of one row: objects and horizontal arrows, or vertical arrows."""
    items = _items(text, offset)
    kinds = {kind for kind, *_ in items}
    vertical = bool(kinds & {"V", "A", "|"}) or (not kinds & {">", "<", "="} and index % 2 == 1)
    if vertical:
        cells: list[str] = []
        for kind, labels, _ in items:
            cells += [_vertical(kind, labels), ""]
        return cells[:-1]
    cells, pos = [], 0
    for kind, labels, (at, end) in items:
        cells += [text[pos:at].strip(), _horizontal(kind, labels)]
        pos = end
    return cells + [text[pos:].strip()]


def _items(text: str, offset: int) -> list[tuple[str, list[str], tuple[int, int]]]:
    """Return each `@` item of a row: its kind, its labels and where it is in `text`."""
    items: list[tuple[str, list[str], tuple[int, int]]] = []
    pos = text.find("@")
    while pos >= 0:
        kind = text[pos + 1 : pos + 2]
        if text.startswith("\\|", pos + 1):
            items.append(("|", [], (pos, pos + 3)))
        elif kind in "|=.":
            items.append((kind or ".", [], (pos, pos + 2)))
        elif kind in "<>VA":
            labels, end = _labels(text, pos + 2, kind, offset + pos)
            items.append((kind, labels, (pos, end)))
        else:
            raise MathSyntaxError(
                f"`@{kind}` in a CD diagram: amscd's arrows are @>>>, @<<<, @VVV, @AAA, "
                "@=, @| and @. (no arrow)",
                offset + pos,
            )
        pos = text.find("@", items[-1][2][1])
    return items


def _labels(text: str, pos: int, kind: str, at: int) -> tuple[list[str], int]:
    """Read the two labels of `@>a>b>` (up to the second and third `kind`), braces kept."""
    labels: list[str] = []
    depth, start = 0, pos
    while len(labels) < 2:
        if pos >= len(text):
            raise MathSyntaxError(f"arrow `@{kind}` in a CD diagram is never closed", at)
        char = text[pos]
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "\\":
            pos += 2
            continue
        if char == kind and depth == 0:
            labels.append(text[start:pos].strip())
            start = pos + 1
        pos += 1
    return labels, pos


def _horizontal(kind: str, labels: list[str]) -> str:
    """Return one horizontal arrow (or `=`, or nothing for `.`)."""
    if kind == ".":
        return ""
    if kind == "=":
        return rf"\xlongequal{{{ARROW_PAD}{ARROW_PAD}}}"
    above, below = (f"{ARROW_PAD}{{{label}}}{ARROW_PAD}" if label else "" for label in labels)
    if not above and not below:
        above = ARROW_PAD * 2  # the least width, without labels
    return HORIZONTAL[kind] + (f"[{below}]" if below else "") + f"{{{above}}}"


def _vertical(kind: str, labels: list[str]) -> str:
    """Return one vertical arrow (or double line, or nothing for `.`) with its labels."""
    if kind == ".":
        return ""
    arrow = r"\Big\Vert" if kind == "|" else VERTICAL[kind]
    left, right = labels or ["", ""]
    left = rf"\mathllap{{\scriptstyle {left}\,}}" if left else ""
    right = rf"\mathrlap{{\,\scriptstyle {right}}}" if right else ""
    return f"{left}{arrow}{right}"
