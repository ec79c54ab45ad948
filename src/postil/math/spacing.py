"""Spacing passes: lengths Chromium understands, and TeX's spaces between atoms.

`fix_lengths` turns MathML's named spaces and TeX-only units into em and pt (Chromium
drops the others); `apply_functions` gives every function name (`\\log`, `\\operatorname`)
U+2061 and TeX's thin space before its argument (The TeXbook, ch. 18); `fix_atom_spacing`
applies the rules of TeX's spacing table that Chromium's operator dictionary lacks: 4mu
around every binary operator and 5mu around every relation where the dictionary has other
spaces (`\\times`, `\\cdot`: 3mu), no space between adjacent relations (`:=`), and none
around relations, binary operators and punctuation in script styles (`j=1` under a sum);
and `space_inner_dots` gives TeX's Inner atoms their thin spaces: `\\ldots`, `\\cdots`,
`\\ddots`, and every `\\left…\\right` group (`f\\left(x\\right)`, a `pmatrix` after a letter).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from postil.math.markers import BIN_SPACE, DATA_CLASS, DATA_OP, FIXED, REL_SPACE
from postil.math.mathml import (
    POSITIONAL,
    SCRIPTED_OR_STACKED,
    core,
    is_left_fence,
    is_left_right_group,
    is_space,
)
from postil.math.styles import SCRIPT, walk_styles
from postil.math.symbols import (
    CLOSE_FENCES,
    FUNCTION_NAMES,
    MISSPACED_BINS,
    MISSPACED_RELATIONS,
    OPEN_FENCES,
    RELATIONS_AND_PUNCT,
    symbol_class,
)
from postil.math.tables import add_style

# MathML's named space widths (MathML 3 §2.1.5.2) in em; Chromium drops named lengths.
NAMED_SPACES = {
    "veryverythinmathspace": 1 / 18,
    "verythinmathspace": 2 / 18,
    "thinmathspace": 3 / 18,
    "mediummathspace": 4 / 18,
    "thickmathspace": 5 / 18,
    "verythickmathspace": 6 / 18,
    "veryverythickmathspace": 7 / 18,
}
# TeX units CSS lacks, in pt (The TeXbook p. 57).
TEX_UNITS_PT = {"bp": 72.27 / 72, "dd": 1238 / 1157, "cc": 12 * 1238 / 1157, "sp": 1 / 65536}
THIN = "0.1667em"
ZERO = "0em"
ROWS = frozenset(("math", "mrow", "mtd", "msqrt", "mstyle", "mpadded", "mphantom", "menclose"))
SPACED_CLASSES = frozenset(("mathbin", "mathrel", "mathpunct"))
STYLE_LOWERING = SCRIPTED_OR_STACKED | {"mfrac", "mroot", "mstyle"}
"""The elements under which `walk_styles` can reach a script style; without any, every
element of a formula is in display or text style."""
# plain.tex and amsmath define `\ldots`, `\cdots` and `\ddots` as `\mathinner{…}`.
INNER_DOTS = frozenset("…⋯⋱")
# Neighbours that leave no space to an Inner atom on that side, or bring their own
# (The TeXbook p. 170: Bin and Rel supply theirs, none after Open or before Close;
# punctuation's thin space after it is Chromium's dictionary's `rspace`).
NO_SPACE_BEFORE_INNER = frozenset(("mathbin", "mathrel", "mathopen", "mathpunct", "mathop"))
NO_SPACE_AFTER_INNER = frozenset(("mathbin", "mathrel", "mathclose", "mathop"))
# A large operator (`\sum`, `\int`) has Chromium's dictionary's thin spaces on both sides,
# which are TeX's Op-Inner and Inner-Op spaces: adding ours made `\int\cdots\int` 2/6 em.


@lru_cache(maxsize=1024)
def _css_length(value: str) -> str:
    """Return a CSS length for a MathML/TeX length (`thinmathspace`, `3mu`, `2bp`)."""
    value = value.strip()
    negative = value.startswith("negative")
    name = value[len("negative") :] if negative else value
    if name in NAMED_SPACES:
        return f"{-NAMED_SPACES[name] if negative else NAMED_SPACES[name]:.4g}em"
    match = re.fullmatch(r"([+-]?(?:\d+\.?\d*|\.\d+))\s*(mu|bp|dd|cc|sp)", name)
    if match:
        number, unit = float(match.group(1)), match.group(2)
        if unit == "mu":
            return f"{number / 18:.4g}em"
        return f"{number * TEX_UNITS_PT[unit]:.4g}pt"
    return value


LENGTH_ATTRIBUTES_IN_ORDER = ("width", "height", "depth", "lspace", "rspace", "voffset")
LENGTH_ATTRIBUTES = frozenset(LENGTH_ATTRIBUTES_IN_ORDER)


def fix_lengths(root: ET.Element) -> None:
    """Rewrite named and TeX-only lengths on spaces and operators as CSS lengths (em, pt).

    A `\\rule` (latex2mathml's black `<mspace>`) is drawn in the text's colour, as TeX
    draws rules: black was invisible in the dark scheme and ignored `\\color`.
    A negative space (`\\!`, `\\negthinspace`, `\\mkern-3mu`, `\\hspace{-1em}`) becomes a
    negative left margin: MathML Core's `<mspace width>` takes no negative length, and
    Chromium sets `<mspace width="-0.1667em">` as no space at all.
    """
    for el in root.iter():
        attrib = el.attrib
        if not attrib or LENGTH_ATTRIBUTES.isdisjoint(attrib):
            continue  # no length: most elements (one test in C instead of six)
        if el.tag == "mpadded" and "voffset" in attrib and _signed(attrib):
            _pad_raised_box(el)
        for attr in LENGTH_ATTRIBUTES_IN_ORDER:
            if attr in attrib:
                attrib[attr] = _css_length(attrib[attr])
        width = el.get("width", "")
        if el.tag == "mspace" and width.startswith("-") and _is_nonzero(width):
            del el.attrib["width"]
            add_style(el, f"margin-left:{width}")
        if el.tag == "mspace" and attrib.get("mathbackground") == "black":
            del attrib["mathbackground"]  # a `\rule`: ink of the text's colour, as TeX's
            add_style(el, "background:currentcolor")


def _signed(attrib: dict[str, str]) -> bool:
    """Tell whether an `<mpadded>`'s height and depth are MathML 3's signed increments
    (`height="+2pt" depth="-2pt"`), which MathML Core does not read."""
    height, depth = attrib.get("height", ""), attrib.get("depth", "")
    return height[:1] in ("+", "-") and depth[:1] in ("+", "-")


def _pad_raised_box(el: ET.Element) -> None:
    """Give a raised or lowered box (`\\raise`, `\\lower`, `\\raisebox`) the room TeX gives
    it: padding above a raised box, below a lowered one, as Temml writes it; latex2mathml's
    signed increments were not read by Chromium, and a negative one came out `+-3em`
    (`\\raisebox{-3em}{}` did not lengthen a `\\left…\\right` pair around it, KaTeX#2697)."""
    offset = _css_length(el.attrib.pop("voffset"))
    del el.attrib["height"], el.attrib["depth"]
    size = offset.lstrip("+-")
    el.set("voffset", offset.lstrip("+"))
    if _is_nonzero(offset):
        side = f"0 0 {size} 0" if offset.startswith("-") else f"{size} 0 0 0"
        add_style(el, f"padding:{side}")


def _is_nonzero(length: str) -> bool:
    """Tell whether a CSS length (`-0.1667em`, `-0pt`) is other than zero."""
    number = re.match(r"[+-]?(?:\d+\.?\d*|\.\d+)", length)
    return number is not None and float(number.group(0)) != 0


def _is_function_name(el: ET.Element) -> bool:
    """Tell whether `el` (maybe scripted) is a function name like `log` or `softmax`.

    A name under or over something (`\\underset{x}{\\operatorname{argmin}}`,
    `\\underset{\\theta}{\\arg\\min}`: a group of names only) is one too: amsmath's
    `\\underset` makes its base an Op atom (`\\mathop{…}\\limits`), spaced as a name.
    """
    stacked = False
    while el.tag in SCRIPTED_OR_STACKED and len(el):
        el, stacked = el[0], True
    if stacked and el.tag == "mrow" and len(el) and el.get(DATA_OP) != "1":
        names = [k for k in el if not is_space(k) and (k.text or "") != "\u2061"]
        return bool(names) and all(_is_function_name(k) for k in names)
    if el.get(DATA_OP) == "1":
        return True
    if el.tag != "mi" and el.tag != "mo":
        return False
    text = (el.text or "").replace("\u2009", "").replace("\u2006", "").replace(" ", "")
    if el.tag == "mi":
        return text in FUNCTION_NAMES or el.get(DATA_OP) == "1"
    return el.tag == "mo" and len(text) > 1 and text.isalpha() and "lspace" not in el.attrib


def _word_tokens(root: ET.Element) -> set[int]:
    """Return the ids of the elements under `root` for which `_is_function_name` can hold
    without descending: those marked `DATA_OP`, and the `<mi>`s and `<mo>`s of more than one
    character (no name has one). A scripted or stacked element may be a name through its
    base; any other is one only if it is in this set (empty: no name in the formula)."""
    words: set[int] = set()
    for el in root.iter():
        if el.attrib and DATA_OP in el.attrib:
            words.add(id(el))
            continue
        tag, text = el.tag, el.text
        if (tag == "mi" or tag == "mo") and text and len(text) > 1:
            words.add(id(el))
    return words


def _name_to_mi(el: ET.Element) -> None:
    """Make the base of a function name an `<mi>` (an `<mo>` word gets operator padding)."""
    while el.tag in SCRIPTED_OR_STACKED and len(el):
        el = el[0]
    if el.tag == "mo":
        el.tag = "mi"
        for attr in ("stretchy", "fence", "form", "lspace", "rspace", "movablelimits"):
            el.attrib.pop(attr, None)
    el.attrib.pop(DATA_OP, None)


def apply_functions(root: ET.Element) -> None:
    """Give every function name U+2061 and TeX's spacing: `log p`, `sin(x)`, `softmax(x)`.

    TeX puts a thin space between an Op atom and a following Ord atom but none before an
    opening fence (The TeXbook, ch. 18, rule 20); Chromium gives U+2061 no width, so the
    thin space is an explicit `<mspace>`.
    """
    words = _word_tokens(root)
    if not words:
        return
    for parent in list(root.iter()):
        if not len(parent) or parent.tag in POSITIONAL:
            continue
        kids = list(parent)
        names: set[int] = set()
        for i in range(len(kids) - 1, -1, -1):
            kid = kids[i]
            if id(kid) not in words and kid.tag not in SCRIPTED_OR_STACKED:
                continue  # a token or row that is no name (most children: no call)
            if not _is_function_name(kid):
                continue
            names.add(id(kid))
            _name_to_mi(kid)
            atom = next((k for k in kids[i + 1 :] if not is_space(k)), None)
            if atom is not None and not _starts_with_relation_or_end(atom):
                apply = ET.Element("mo")
                apply.text = "\u2061"
                parent.insert(i + 1, apply)
                if not _is_plain_open_fence(atom):
                    parent.insert(i + 2, ET.Element("mspace", width=THIN))
        if not names:
            continue
        kids = list(parent)  # with the spaces after the names
        for i in range(len(kids) - 1, 0, -1):
            if id(kids[i]) in names and _follows_operand(kids[:i]):
                parent.insert(i, ET.Element("mspace", width=THIN))


def _follows_operand(before: list[ET.Element]) -> bool:
    r"""Tell whether a function name comes right after an operand: `n \log n`, `2\sin x`,
    `f(x)\max`, `\frac{a}{b}\log` get TeX's thin space before the name (Ord, Close,
    Inner or Op before an Op atom: The TeXbook, ch. 18, rule 20); after an operator, a
    relation, an opening fence or at the start none (Chromium spaces those operators)."""
    if len(before) > 1 and before[-1].tag == "mspace" and before[-2].text == "\u2061":
        return False  # `\min_G \max_D`: the name before has its thin space after it already
    prev = next((k for k in reversed(before) if not is_space(k)), None)
    if prev is None or (prev.tag == "mi" and not prev.text and not len(prev)):
        return False  # the start, or the empty `<mi>` an alignment `&` leaves
    if atom_class(core(prev)) == "mathop":
        return False  # `\sum_i \log p_i`: the large operator's own thin space is Op-Op's
    if prev.tag != "mo":
        return True
    text = prev.text or ""
    return text in CLOSE_FENCES or (text in ("|", "‖") and prev.get("form") == "postfix")


def _is_plain_open_fence(el: ET.Element) -> bool:
    """Tell whether `el` is a non-stretchy opening fence, as in `\\log(x)` (TeX: no space).

    A `\\left(` group is an Inner atom in TeX and gets the thin space (The TeXbook p. 170).
    """
    return el.tag == "mo" and (el.text or "") in OPEN_FENCES and el.get("stretchy") != "true"


def _starts_with_relation_or_end(el: ET.Element) -> bool:
    """Tell whether a function name followed by `el` stands alone (`f = \\log`, `\\max,`)."""
    if el.tag == "mo":
        return (el.text or "") in RELATIONS_AND_PUNCT
    return False


def atom_class(el: ET.Element) -> str | None:
    """Return the TeX class of an operator token (`mathrel`, `mathbin`, …), or None.

    A compound of symbols with a relation in it (`≈:`, `∷≈`) is a relation; `\\colon`'s
    `:` (a marker fixed it, without the relation's spaces) is punctuation; a word with
    TeX's medium spaces (`\\bmod`) a binary operator.
    """
    if el.tag != "mo":
        return None
    attrib = el.attrib
    text = el.text or ""
    if attrib:  # most operators have none: the look-ups below are for the others
        if DATA_CLASS in attrib:
            return attrib[DATA_CLASS]  # `\mathrel{\#}` (`tokens.flatten_class_tokens`)
        lspace = attrib.get("lspace")
        if text == ":" and FIXED in attrib and lspace != REL_SPACE:
            return "mathpunct"
        if lspace == BIN_SPACE:
            return "mathbin"
    if len(text) > 1 and not text.isalpha():
        classes = {symbol_class(char) for char in text}
        return "mathrel" if "mathrel" in classes else None
    return symbol_class(text)


def fix_atom_spacing(root: ET.Element, display: bool) -> set[str | None]:
    """Give relations, binary operators and punctuation the spaces TeX gives them.

    The TeXbook, ch. 18, p. 170 (Appendix G, rule 20): between two relations there is no
    space (`:=`, `=:`, `\\leq\\leq`, `:\\Leftrightarrow`); in script and scriptscript style
    the thin, medium and thick spaces in parentheses in the table are left out, that is
    every space around a relation, a binary operator and after punctuation (`j=1` under
    a sum, `x^{n-1}`, `a_{i,j}`). Chromium scales its dictionary's spaces in scripts but
    keeps them (WPT `mo-lspace-rspace-with-positive-scriptlevel`), so both are explicit.

    Returns:
        The classes (`atom_class`) the formula's operators have, or may have after this
        change: a binary operator by its `lspace` alone (`BIN_SPACE`) counts with its
        symbol's class as well, which it has once a script takes that space away. Only with
        a relation, binary operator or punctuation can `listends.space_list_ends` find work,
        only with `mathop` `listends.space_large_operators` (which re-reads each class).
    """
    # What the walk can change, known from the operators before it (it only takes spaces
    # away, which never makes an atom a relation or spaced): most formulas need no walk.
    operators = list(root.iter("mo"))
    classes = [atom_class(el) for el in operators]
    relations = classes.count("mathrel") >= 2  # `_join_relations` needs two
    found = set(classes)
    spaced = not SPACED_CLASSES.isdisjoint(found)
    if "mathbin" in found:
        found.update(
            symbol_class(el.text or "") for el in operators if el.get("lspace") == BIN_SPACE
        )
    misspaced = False
    for el in operators:  # loops, not `any` over generators: most formulas stop early
        if el.text in MISSPACED:
            misspaced = True
            break
    dots = False
    for el in root.iter("mi"):
        if el.text in INNER_DOTS:
            dots = True
            break
    else:  # or a `\left` fence (`fence="true"` read first: most operators have none)
        dots = any(el.get("fence") == "true" and is_left_fence(el) for el in operators)
    if not relations and not dots and not misspaced and not spaced:
        return found
    for el in root.iter():
        if el.tag in STYLE_LOWERING:
            break
    else:
        # Nothing is in a script style (29 % of the formulas that get here): only the rows'
        # relations and dots need work, found without following the styles.
        if misspaced:
            for el in operators:
                _space_as_tex(el)
        for row in [el for el in root.iter() if el.tag in ROWS]:
            if relations and len(row) > 1:
                _join_relations(row)
            if dots:
                space_inner_dots(row)
        return found
    for el, style in walk_styles(root, display):
        tag = el.tag
        if tag in ROWS:
            if relations and len(el) > 1:  # a pair of relations needs two children
                _join_relations(el)
            if style < SCRIPT and dots:  # `space_inner_dots` needs dots or a `\left`
                space_inner_dots(el)
            continue
        if tag != "mo":
            continue
        if style >= SCRIPT:
            if atom_class(el) in SPACED_CLASSES and el.get("form") != "prefix":
                el.set("lspace", ZERO)
                el.set("rspace", ZERO)
        elif misspaced:
            _space_as_tex(el)
    return found


MISSPACED = MISSPACED_BINS | MISSPACED_RELATIONS


def _space_as_tex(el: ET.Element) -> None:
    """Give a binary operator or relation that Chromium's dictionary misspaces TeX's spaces.

    `symbols.MISSPACED_BINS` get 4mu on each side, `MISSPACED_RELATIONS` 5mu (The TeXbook,
    p. 170), where no pass chose a space already (a unary `\\times` has none, a relation
    joined to the next has none on that side: `_join_relations` runs on rows first, so
    each side is filled only if empty). `el` is an `<mo>` in text or display style.
    """
    text = el.text or ""
    if text not in MISSPACED or el.get("form") == "prefix":
        return
    kind = atom_class(el)
    if kind == "mathbin" and text in MISSPACED_BINS:
        space = BIN_SPACE
    elif kind == "mathrel" and text in MISSPACED_RELATIONS:
        space = REL_SPACE
    else:
        return
    attrib = el.attrib
    if "lspace" not in attrib:
        attrib["lspace"] = space
    if "rspace" not in attrib:
        attrib["rspace"] = space


def _join_relations(row: ET.Element) -> None:
    """Remove the space between adjacent relation atoms of one row (spaces between kept)."""
    prev: ET.Element | None = None
    prev_is_relation = False  # each atom's class is read once, and again after a change
    for el in row:
        if is_space(el):
            continue
        here = core(el)
        is_relation = atom_class(here) == "mathrel"
        if prev is not None and prev_is_relation and is_relation:
            prev.set("rspace", ZERO)
            here.set("lspace", ZERO)
            is_relation = atom_class(here) == "mathrel"  # `lspace` may change a `:`'s class
        prev, prev_is_relation = here, is_relation


def _is_inner_dots(el: ET.Element) -> bool:
    """Tell whether `el` is `\\ldots`, `\\cdots` or `\\ddots` (an `<mi>` of `INNER_DOTS`)."""
    return el.tag == "mi" and (el.text or "") in INNER_DOTS


def _is_inner(el: ET.Element) -> bool:
    """Tell whether `el` is an Inner atom: dots (`_is_inner_dots`) or a `\\left…\\right` group."""
    return _is_inner_dots(el) or is_left_right_group(el)


def _spaced_before(row: ET.Element, position: int) -> bool:
    """Tell whether the child at `position` follows a function name's thin space.

    `apply_functions` already gave `\\exp\\left(x\\right)` the Op–Inner thin space
    (after U+2061, before any space the author wrote: `\\operatorname{f}\\!\\left(`); a
    second one would double it.
    """
    index = position - 1
    while index >= 0 and is_space(row[index]):
        index -= 1
    return index < position - 1 and index >= 0 and (row[index].text or "") == "\u2061"


def _spaced_after(row: ET.Element, position: int) -> bool:
    r"""Tell whether the child after `position` is a function name with its thin space.

    `apply_functions` already gave `\left(A\right)\sin x` and `\ldots\log n` the
    Inner–Op thin space (before the name, after the group); a second one would double it.
    """
    index = position + 1
    while index < len(row) and is_space(row[index]):
        index += 1
    if index == position + 1 or index == len(row):
        return False
    name = row[index]
    applied = index + 1 < len(row) and (row[index + 1].text or "") == "\u2061"
    return applied or _is_function_name(name)


def neighbour_class(el: ET.Element | None, empty: str = "mathord") -> str | None:
    r"""Return the TeX class of an Inner atom's neighbour that decides the space to it.

    None for no neighbour; `inner` for dots; a unary sign (`form="prefix"`) is Ord; a
    stretched fence is Open or Close by its form; anything not an operator is Ord. An
    empty class atom, `\mathopen{}` before a `\left` and `\mathclose{}` after a
    `\right` (the mleftright package's idiom, `f\mathopen{}\left(x\right)`, to take the
    Inner spaces away; latex2mathml writes both alike) is `empty`: Open before the group,
    Close after it.
    """
    if el is None:
        return None
    if _is_inner(el):
        return "inner"
    if el.tag == "mrow" and len(el) and all(_empty_atom_part(part) for part in el):
        return empty
    token = core(el)
    if token.tag != "mo":
        return "mathord"
    form = token.get("form")
    if token.get("fence") == "true" and form in ("prefix", "postfix"):
        return "mathopen" if form == "prefix" else "mathclose"
    kind = atom_class(token)
    if kind == "mathbin" and form == "prefix":
        return "mathord"
    return kind or "mathord"


def _empty_atom_part(el: ET.Element) -> bool:
    """Tell whether `el` is a part of an empty class atom as `tokens.flatten_class_tokens`
    writes it: a zero-width `<mspace>` or an empty `<mrow>`."""
    if el.tag == "mspace":
        return el.get("width") in ("0em", "0", "0px")
    return el.tag == "mrow" and not len(el) and not (el.text or "").strip()


def space_inner_dots(row: ET.Element) -> None:
    """Put TeX's thin spaces around the Inner atoms of one row (text or display style).

    Inner atoms are `\\ldots`, `\\cdots`, `\\ddots` (`\\mathinner` in plain.tex and
    amsmath) and `\\left…\\right` groups (The TeXbook, Appendix G, rule 15e), so also the
    matrices and `cases` amsmath builds with `\\left`. The TeXbook p. 170: an Inner atom has
    a thin space on each side, except after Open and before Close; next to Bin and Rel
    theirs is the only space, and after Punct its own thin space (so `x_1, \\ldots, x_n` has
    one thin space on each side of the dots, `a + \\cdots + z` only the medium spaces of
    `+`, and `f\\left(x\\right)` a thin space between `f` and the parenthesis, as
    `\\left` gives in LaTeX; the mleftright package exists to remove it). Spaces the
    author wrote are kept and not counted as atoms; a function name's thin space is the
    Op–Inner space already. In script styles TeX adds none (the caller skips them).
    """
    kids = [k for k in row if not is_space(k) and (k.text or "") != "\u2061"]
    for index, el in enumerate(kids):
        if not _is_inner(el):
            continue
        before = neighbour_class(kids[index - 1] if index else None, "mathopen")
        after = neighbour_class(kids[index + 1] if index + 1 < len(kids) else None, "mathclose")
        position = list(row).index(el)
        if (
            after is not None
            and after not in NO_SPACE_AFTER_INNER
            and not _spaced_after(row, position)
        ):
            row.insert(position + 1, ET.Element("mspace", width=THIN))
        if (
            before not in (None, "inner")
            and before not in NO_SPACE_BEFORE_INNER
            and not _spaced_before(row, position)
        ):
            row.insert(position, ET.Element("mspace", width=THIN))
