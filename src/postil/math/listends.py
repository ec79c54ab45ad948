r"""The spaces TeX leaves out at the ends of a math list and next to fences.

TeX puts its spaces between two atoms (The TeXbook, ch. 18, p. 170, Appendix G rule 20):
a relation has a thick space towards an ordinary neighbour but none at the start or end of
its list, none after an opening fence and none before a closing fence or punctuation;
punctuation has none at a list's ends; a binary operator at the end of a list or before
a relation, a closing fence or punctuation is an ordinary symbol (rule 6, and tex.web
§729 for a Bin that ends the list), so it has no spaces at all (mathjax/MathJax#1229). So
`$\Rightarrow$` in a sentence is the arrow alone, `$= 5$` continuing a derivation starts
at its `=`, `$A+$` and `(a+)` have no space after the `a`, `\left( = x \right)` none after
the fence, and `\begin{array}{rcl} a & = & b \end{array}` (or `eqnarray`, which braces
each entry) only the columns' `\arraycolsep` around its `=`.

Chromium spaces an operator by its dictionary entry for the form its place in the row gives
it (MathML Core §3.2.4.2): a relation first in its row takes the prefix form, which `=` and
the arrows lack, so the infix entry's thick spaces are used on both sides (a lone `⇒` in
prose measured 41 px wide for its 20 px glyph, inline math's padding included).
`space_list_ends` writes TeX's zeros explicitly.

A list here is what TeX sets as one: the formula, a group, a table cell, a root's or a
box's content, a `\left…\right` group. An `<mstyle>` (`\color`, a `\displaystyle` switch
inside a list) is part of the list around it. A row holding one operator and nothing else
but spaces is left alone unless it is the formula or a cell: it makes an embellished
operator (MathML Core §3.2.4.1), which Chromium spaces in the row around it by its core's
spaces, as TeX spaces `\overset{!}{=}` as a relation (a braced `{=}` is ordinary:
`tokens.mark_ordinary_groups`). An operator whose spaces a marker chose (`FIXED`:
`\colon`'s, `\bmod`'s kerns, which TeX keeps at a list's end) and a unary sign
(`form="prefix"`, `tokens.mark_prefix_operators`) keep theirs.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from postil.math.markers import FIXED
from postil.math.mathml import core
from postil.math.spacing import SPACED_CLASSES, ZERO, atom_class, neighbour_class

LISTS = frozenset(("mrow", "mtd", "msqrt", "mpadded", "mphantom", "menclose"))
"""Elements whose children TeX sets as one math list (with the formula's own row)."""

ORDINARY_AFTER_BIN = frozenset(("mathrel", "mathclose", "mathpunct"))
"""What makes a binary operator before it ordinary (rule 6)."""

CLOSING = frozenset(("mathclose", "mathpunct"))
"""What a relation has no space before."""


def space_list_ends(root: ET.Element) -> None:
    """Take Chromium's spaces off relations, binary operators and punctuation where TeX
    has none: at the ends of each list, after opening and before closing fences.

    `root` is a formula's row after `spacing.fix_atom_spacing` (scripts are unspaced
    already); an operator keeps the space TeX gives it on its other side.
    """
    for row in root.iter():
        if row is not root and row.tag not in LISTS:
            continue
        if row.find("mo") is None and row.find("mstyle") is None:
            continue  # no operator among its atoms (`_end_class`: None for each)
        atoms = _atoms(row)
        if len(atoms) == 1 and row is not root and row.tag != "mtd":
            continue  # an embellished operator: spaced in the list around it
        last = len(atoms) - 1
        for index, el in enumerate(atoms):
            if el.tag != "mo":
                continue  # what `_end_class` says first, without the call
            kind = _end_class(el)
            if kind is None:
                continue
            after = _side_class(atoms[index + 1]) if index < last else None
            if kind == "mathbin":
                if after is None or after in ORDINARY_AFTER_BIN:
                    el.attrib.update(lspace=ZERO, rspace=ZERO)
                continue
            if index == 0 or kind == "mathrel" and _side_class(atoms[index - 1]) == "mathopen":
                el.set("lspace", ZERO)
            if after is None or kind == "mathrel" and after in CLOSING:
                el.set("rspace", ZERO)


def _atoms(row: ET.Element) -> list[ET.Element]:
    """Return the atoms of the list `row` sets, in order: its children but spaces, with an
    `<mstyle>`'s children in its place (a style or colour switch inside the list)."""
    atoms: list[ET.Element] = []
    for child in row:
        tag = child.tag
        if tag == "mstyle":
            atoms += _atoms(child)
        elif tag != "mspace" and (tag != "mtext" or (child.text or "").strip()):
            atoms.append(child)  # not `is_space(child)`, without the call
    return atoms


def _end_class(el: ET.Element) -> str | None:
    """Return the class of an operator whose spaces `space_list_ends` may take away: a
    relation, punctuation or binary operator, not a unary sign, a delimiter (whatever its
    symbol) nor one a marker fixed."""
    attrib = el.attrib
    if el.tag != "mo" or FIXED in attrib or attrib.get("form") == "prefix":
        return None
    if attrib.get("fence") == "true" or "minsize" in attrib:
        return None  # a delimiter, `\right\downarrow`, `\big|`: Open or Close in TeX
    kind = atom_class(el)
    return kind if kind in SPACED_CLASSES else None


def _side_class(el: ET.Element) -> str | None:
    """Return the TeX class of an operator's neighbour (`spacing.neighbour_class`), a bar
    counted by the side `tokens.mark_prefix_operators` gave it: `|x|`'s first is opening."""
    kind = neighbour_class(el)
    if kind == "mathfence":
        return {"prefix": "mathopen", "postfix": "mathclose"}.get(core(el).get("form", ""))
    return kind


THIN_BEFORE_OP = frozenset(("mathord", "mathclose", "inner", "mathfence"))
"""What has a thin space before a large operator after it (Ord–Op, Close–Op, Inner–Op)."""
NONE_AFTER_OP = frozenset(("mathrel", "mathopen", "mathclose", "mathpunct"))
"""What takes away a large operator's thin space after it (Op–Open, Op–Close, Op–Punct 0;
Op–Rel is the relation's own thick space)."""


def space_large_operators(root: ET.Element) -> None:
    r"""Give each large operator (`\sum`, `\prod`, `\int` …, scripted or not) TeX's spaces.

    The TeXbook, ch. 18, p. 170: an Op atom has a thin space (3mu) towards an Ord, Close or
    Inner atom and another Op, and nothing of its own towards a relation or binary
    operator (theirs is the whole space), an opening or closing delimiter or punctuation,
    nor at a list's ends. Chromium's operator dictionary gives ∑ a thin space on both
    sides wherever it stands, added to its neighbour's: `a = \sum x` was 8mu after the `=`
    (TeX: 5), `\sum_i \sum_j` 6mu apart (TeX: 3), `(\sum x)` 3mu inside the parenthesis
    (TeX: none). The core `<mo>` of the embellished operator carries the spaces (MathML
    Core §3.2.4.1). Function names (`\log`) are `<mi>`s spaced by `spacing.apply_functions`.
    """
    for row in root.iter():
        if row is not root and row.tag not in LISTS:
            continue
        atoms = _atoms(row)
        for index, el in enumerate(atoms):
            token = core(el)
            if token.tag != "mo" or FIXED in token.attrib or atom_class(token) != "mathop":
                continue
            before = _op_neighbour(atoms[index - 1]) if index else None
            after = _op_neighbour(atoms[index + 1]) if index + 1 < len(atoms) else None
            # Chromium's own spaces are the thin ones (the dictionary's, in every form)
            if before not in THIN_BEFORE_OP:
                token.set("lspace", ZERO)
            if after is None or after in NONE_AFTER_OP:
                token.set("rspace", ZERO)


def _op_neighbour(el: ET.Element) -> str | None:
    r"""Return the class of a large operator's neighbour: a function application (U+2061,
    after `\log`) is the name's Op side, a bar by its place (`_side_class`)."""
    if el.tag == "mo" and el.text == "\u2061":
        return "mathop"
    return _side_class(el)
