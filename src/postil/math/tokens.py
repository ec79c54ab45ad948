r"""Token passes: the character each token shows and its kind by TeX math class.

1. `resolve_symbols`: `\command` texts latex2mathml left in tokens become their characters
   (`symbols.MATH_SYMBOLS`, `TEXT_SYMBOLS`), and its glyph choices are fixed (`GLYPHS`).
2. `classify_tokens`: latex2mathml picks `<mo>` for every character in U+2190–U+22FF and
   `<mi>` for the rest, so `\infty` is `<mo>∞</mo>` (Chromium pads it like an operator:
   "− ∞") and `\pm` is `<mi>±</mi>` (no space: "x±y"). The kind of a symbol is its TeX
   math class instead (`symbols.symbol_class`): Ord -> `<mi>`, the others -> `<mo>`.
3. `mark_prefix_operators`: TeX's rule that a Bin atom with no operand before it is unary
   (The TeXbook, Appendix G, rule 5), as `form="prefix"`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from latex2mathml.symbols_parser import convert_symbol

from postil.math.markers import BIN_SPACE, DATA_CLASS, FIXED, REL_SPACE
from postil.math.mathml import SCRIPTED_OR_STACKED, is_space
from postil.math.mathml import core as embellished_core
from postil.math.symbols import (
    FUNCTION_NAMES,
    GLYPHS,
    MATH_SYMBOLS,
    OPERATOR_CLASSES,
    ORD_CLASSES,
    PREFIX_SIGNS,
    PRIMES,
    TEXT_SYMBOLS,
    symbol_class,
)
from postil.math.textmode import text_mode

ACCENT_PARENTS = frozenset(("mover", "munder", "munderover"))
SCRIPTS = frozenset(("msub", "msup", "msubsup"))
BARS = frozenset("|‖")
# Arrows the operator dictionary stretches vertically: as bare operators Chromium stretches
# them to their row's height (`\mathrm{CO}_2 \uparrow` drawn as tall as the subscript
# reaches); TeX stretches them only after `\left`, `\big` & co. (delimiters, kept apart).
VERTICAL_ARROWS = frozenset("↑↓↕⇑⇓⇕↾↿⇂⇃⇅⇵")
SIGNS_AND_BARS = PREFIX_SIGNS | BARS
"""The texts of the operators `mark_prefix_operators` gives a form (`_is_sign`, `_is_bar`)."""
BIN_AS_ORD = {"form": "prefix", "lspace": "0em", "rspace": "0em"}
"""A binary operator where TeX makes it ordinary (The TeXbook, Appendix G, rule 5)."""
UNARY_AFTER = frozenset(("mathbin", "mathop", "mathrel", "mathopen", "mathpunct"))
"""The classes after which a binary operator is unary (The TeXbook, Appendix G, rule 5)."""
ROW_TAGS = frozenset(("math", "mrow", "mtd", "msqrt", "mstyle", "mpadded", "mphantom", "menclose"))


def resolve_symbols(root: ET.Element) -> None:
    """Replace `\\command` texts latex2mathml left in tokens, and fix its glyph choices and
    its numbers written from their point (`_is_point_number`)."""
    if not _may_hold_symbols(root):
        return  # 1 formula in 70 of the benchmark corpus has one: no walk by parents
    for parent in list(root.iter()):
        if not len(parent):
            continue
        for index, el in enumerate(list(parent)):
            tag, text = el.tag, el.text or ""
            if tag == "mtext" and "\\" in text:
                el.text = text_mode(text)
            elif tag in ("mi", "mo") and text.startswith("\\"):
                _replace_command(parent, index, el, text)
            elif tag == "mo" and text in GLYPHS:
                el.text = GLYPHS[text]
            elif tag == "mi" and _is_point_number(text):
                el.tag = "mn"


def _is_point_number(text: str) -> bool:
    """Tell whether a token's text is a number written from its point, `.5`, `.05`: a number
    to TeX, KaTeX and Temml (`<mn>.5</mn>`); latex2mathml made it an identifier."""
    return text[:1] == "." and text[1:].isdigit()


def _may_hold_symbols(root: ET.Element) -> bool:
    """Tell whether `resolve_symbols` can change a token under `root` (one look at each)."""
    for el in root.iter():
        tag, text = el.tag, el.text
        if not text:
            continue
        if tag == "mtext" and "\\" in text or (tag == "mi" or tag == "mo") and text[0] == "\\":
            return True
        if tag == "mo" and text in GLYPHS or tag == "mi" and _is_point_number(text):
            return True
    return False


def _replace_command(parent: ET.Element, index: int, el: ET.Element, text: str) -> None:
    """Turn one `<mi>\\cmd</mi>` into the symbol(s) it stands for, if known."""
    if text in MATH_SYMBOLS:
        tag, chars = MATH_SYMBOLS[text]
        for offset, part in enumerate(chars.split(" ")):
            token = el if offset == 0 else ET.Element(tag)
            if offset:
                parent.insert(index + offset, token)
            token.tag, token.text = tag, part
            token.set(FIXED, "1")
            if part == ":":  # mathtools' colons are relations (`\vcentcolon`, `\colonapprox`)
                token.attrib.update(lspace=REL_SPACE, rspace=REL_SPACE)
        return
    if text in TEXT_SYMBOLS and text not in ("\\ ",):
        el.text = TEXT_SYMBOLS[text]
        return
    code = convert_symbol(text)
    if code:
        el.text = chr(int(code, 16))


def _classify_bar(el: ET.Element) -> None:
    """Make a `|`/`‖` that is not a `\\left`/`\\big` delimiter an unstretched operator.

    TeX's `|`, `\\vert`, `\\|`, `\\Vert` are ordinary symbols, `\\lvert`/`\\rvert` opening
    and closing ones: no space on either side against letters (`<mo lspace="0em"
    rspace="0em">`; as an `<mi>` it is not read as a fence, as an `<mo>` without them it
    gets the dictionary's infix spaces). Its side is set by `mark_prefix_operators`.
    """
    _make(el, "mo")
    el.attrib.update(stretchy="false", lspace="0em", rspace="0em")


def _make(el: ET.Element, tag: str) -> None:
    """Retag a token, dropping the operator attributes an `<mi>` cannot carry."""
    el.tag = tag
    if tag == "mi" and el.attrib:
        for attr in ("stretchy", "fence", "form", "lspace", "rspace", "separator"):
            el.attrib.pop(attr, None)


def merge_prime_scripts(root: ET.Element) -> None:
    r"""Make a superscript after primes one superscript: `f_2'^2` is `f_2^{\prime 2}`.

    TeX reads `'` as `^group\prime` that takes the primes after it and the superscript
    after them (The TeXbook, chapter 16; latex.ltx's `ctive@math@prime`), so `f'^2` and
    `f_2'^2` put the prime and the 2 in one superscript. latex2mathml does so for `f'^2` but
    nests `f_2'^2` as `msup(msubsup(f, 2, ′), 2)`: the 2 went above the prime, raised again
    (carloskiki/pulldown-latex#35 for the same complaint), and `f_2''^{n}` split its primes.
    """
    for parent in root.iter():
        for index, child in enumerate(parent):
            if child.tag != "msup" or len(child) != 2:
                continue
            inner, sup = child[0], child[1]
            if inner.tag != "msubsup" or len(inner) != 3 or not _all_primes(inner[2]):
                continue
            row = ET.Element("mrow")
            for part in (inner[2], sup):
                row.extend(list(part) if part.tag == "mrow" else [part])
            inner.remove(inner[2])
            inner.append(_one_prime_glyph(row))
            parent[index] = inner


PRIME_GLYPHS = {1: "′", 2: "″", 3: "‴", 4: "⁗"}
PRIME_COUNTS = {glyph: count for count, glyph in PRIME_GLYPHS.items()}


def _one_prime_glyph(row: ET.Element) -> ET.Element:
    """Return a row of primes only as one glyph (`y_3` and three primes, which latex2mathml
    splits as one prime then two, is the triple prime that `y` and three primes comes as:
    math-core#42); a row with anything else, or more than four primes, is `row`."""
    parts = list(row)
    counts = [PRIME_COUNTS.get(part.text or "", 0) for part in parts]
    if len(parts) < 2 or 0 in counts or sum(counts) not in PRIME_GLYPHS:
        return row
    parts[0].text = PRIME_GLYPHS[sum(counts)]
    return parts[0]


def _all_primes(el: ET.Element) -> bool:
    """Tell whether `el` is primes only: `<mo>′</mo>`, or a row of them."""
    parts = list(el) if el.tag == "mrow" else [el]
    return bool(parts) and all(
        part.tag in ("mo", "mi") and part.text and set(part.text) <= PRIMES for part in parts
    )


def _is_delimiter(el: ET.Element) -> bool:
    """Tell whether `el` is a `\\left`/`\\right` or `\\big` delimiter (keeps its `<mo>`)."""
    return el.get("stretchy") == "true" or el.get("fence") == "true" or "minsize" in el.attrib


MIDDLE_SPACE = "0.05em"
r"""The side spaces latex2mathml (after KaTeX's MathML) gives a `\middle` bar; TeX gives none:
e-TeX makes `\middle` a right noad, spaced as a Close atom on both sides (etex.ch,
`make_left_right`), so `\left\{ x \middle| x > 0 \right\}` has no space at the bar (authors
write `\;\middle|\;`, braket.sty `\,\middle|\,`); MathJax, which puts an empty Close atom
before the bar and an empty Open one after it, sets none either."""


def _classify(el: ET.Element) -> None:
    """Give one token the tag (and the spacing attributes) of its TeX class."""
    text = el.text or ""
    if _is_delimiter(el):
        if el.get("lspace") == MIDDLE_SPACE and el.get("fence") == "true" and not el.get("form"):
            el.attrib.update(lspace="0em", rspace="0em")  # a `\middle` bar (`MIDDLE_SPACE`)
        return
    if text and set(text) <= PRIMES:
        _make(el, "mo")
        el.set("lspace", "0em")
        el.set("rspace", "0em")
        return
    cls = symbol_class(text)
    if len(text) == 1 and text.isalpha():
        cls = "mathalpha"  # a letter is an identifier (`\omicron` comes as `<mo>ο</mo>`)
    if cls == "mathfence":
        _classify_bar(el)
    elif cls in ORD_CLASSES:
        _make(el, "mi")
    elif cls in OPERATOR_CLASSES:
        if el.tag == "mi" and text == ":":
            el.attrib.update(lspace=REL_SPACE, rspace=REL_SPACE)
        _make(el, "mo")
        if (cls in ("mathopen", "mathclose") or text in VERTICAL_ARROWS) and (
            "stretchy" not in el.attrib
        ):
            el.set("stretchy", "false")  # TeX never stretches a delimiter without \left


CLASS_COMMAND = re.compile(r"\\math(?:bin|rel|ord|punct|open|close)(?![A-Za-z])")
"""TeX's class commands whose argument latex2mathml writes inside a token element."""


def flatten_class_tokens(root: ET.Element) -> None:
    r"""Take the argument of `\mathbin`, `\mathrel`, `\mathord`, `\mathpunct`,
    `\mathopen` and `\mathclose` out of the token element latex2mathml wraps it in
    (`<mo lspace="0.22em"><mrow><mi>#</mi></mrow></mo>`: a token holds text only in MathML).

    One symbol becomes the token's text, keeping the class's spacing and kind (marked
    `FIXED`: `\mathbin{\#}` is an `<mo>` with a binary operator's spaces, as in Temml);
    more (`\mathrel{\sim\sim}`) become an `<mrow>` between `<mspace>`s of the class's
    widths (a relation's thick spaces where latex2mathml gives none). `\mathop` is
    rewritten before parsing (`rewrite.rewrite_mathop`).
    """
    for parent in list(root.iter()):
        for index, el in enumerate(list(parent)):
            if (el.tag != "mo" and el.tag != "mi") or not len(el):
                continue
            inner = list(el[0]) if len(el) == 1 and el[0].tag == "mrow" else list(el)
            if (
                len(inner) == 1
                and inner[0].tag in ("mi", "mo", "mn", "mtext")
                and not len(inner[0])
            ):
                el.text = inner[0].text
                if el.tag == "mo" and not el.attrib:  # `\mathrel`: a relation's thick spaces
                    el.attrib.update(
                        {"lspace": REL_SPACE, "rspace": REL_SPACE, DATA_CLASS: "mathrel"}
                    )
                elif el.get("lspace") == "0.22em":  # `\mathbin`: TeX's medium space
                    el.attrib.update(
                        {"lspace": BIN_SPACE, "rspace": BIN_SPACE, DATA_CLASS: "mathbin"}
                    )
                if "mathvariant" in inner[0].attrib:
                    el.set("mathvariant", inner[0].attrib["mathvariant"])
                el.remove(el[0])
                el.set(FIXED, "1")
                continue
            group = ET.Element("mrow")
            if el.tag == "mo":  # the class's spaces around the row
                left = el.get("lspace", REL_SPACE if not el.attrib else "0em")
                right = el.get("rspace", REL_SPACE if not el.attrib else "0em")
                group.append(ET.Element("mspace", width=left))
                ET.SubElement(group, "mrow").extend(inner)
                group.append(ET.Element("mspace", width=right))
            else:
                group.extend(inner)
            parent.remove(el)
            parent.insert(index, group)


def classify_tokens(root: ET.Element) -> None:
    """Make every one-symbol `<mi>`/`<mo>` under `root` the kind its TeX class says.

    Ord (`∞ ∂ ∇ ∀ ∃ ∅ ⊤ ⊥ ∠ ℏ /`) -> `<mi>`; Bin, Rel, Op, Open, Close, Punct (`± ⟹ ⟨ ⨁`)
    -> `<mo>`; `|` and `‖` -> unstretched `<mo>` without side space (`_classify_bar`);
    primes -> `<mo>` without side space (as MathML and Temml write them).
    Accents (the script of `mover`/`munder`), letters, digits and tokens a marker fixed
    are left alone.
    """
    accents: set[int] = set()  # the scripts of accent parents, met before them (pre-order)
    for el in root.iter():  # one loop over the elements, not one over each one's children
        tag = el.tag
        if tag in ACCENT_PARENTS:
            accents.update(map(id, el[1:]))
            continue
        if tag != "mi" and tag != "mo" or el is root or accents and id(el) in accents:
            continue
        if not el.attrib:
            text = el.text or ""
            if tag == "mi" and len(text) == 1 and text.isalpha():
                continue  # a letter is an `<mi>` already (what `_classify` would leave)
        elif FIXED in el.attrib:
            continue
        if el.text == "." and tag == "mo" and _is_delimiter(el):
            el.text = ""  # `\Bigl.`, `\middle.`: TeX's null delimiter, empty as `\left.` is
        attrs = tuple(el.attrib.items())
        el.tag, classified = _classified(tag, el.text or "", attrs)
        if classified != attrs:
            el.attrib.clear()
            el.attrib.update(classified)


Attributes = tuple[tuple[str, str], ...]


@lru_cache(maxsize=4096)
def _classified(tag: str, text: str, attrs: Attributes) -> tuple[str, Attributes]:
    """Return the tag and attributes (in order) `_classify` gives a token of this tag, text
    and attributes: it reads nothing else, and a formula's operators are mostly the same few
    (memoised, issue 20)."""
    el = ET.Element(tag, dict(attrs))
    el.text = text
    _classify(el)
    return el.tag, tuple(el.attrib.items())


def _expects_operand(prev: ET.Element | None) -> bool:
    """Tell whether a sign after `prev` is unary: nothing, or Bin/Op/Rel/Open/Punct before it.

    The TeXbook, Appendix G, rule 5; a function application (U+2061 after `\\log`) is an
    Op atom, and a sign after a prefix sign is unary too (`--x`).
    """
    if prev is None:
        return True
    core = embellished_core(prev)
    if core.tag == "mi":
        return (core.text or "") in FUNCTION_NAMES  # `\log -x`: no U+2061 before a sign
    if core.tag != "mo":
        return False
    text = core.text or ""
    if text == "\u2061" or core.get("form") == "prefix":
        return True
    kind = core.get(DATA_CLASS)
    if kind:  # a class command's or a `\big` form's atom: `\bigr) - x` has a binary minus
        return kind in UNARY_AFTER
    if core.get("fence") == "true" and core.get("stretchy") == "true" and not core.get("form"):
        return True  # a `\\middle` bar separates, like `\\mid`: an operand follows
    if core.get("form") == "postfix" or core.get("lspace") == "0em" == core.get("rspace"):
        return False  # a `\right` delimiter or a prime closes an operand
    return symbol_class(text) in UNARY_AFTER or (
        len(text) > 1 and not text.isalpha()  # `::=`, `:≈`: compound relations
    )


def mark_prefix_operators(root: ET.Element) -> None:
    """Set `form="prefix"` on every unary `−`, `+`, `±`, `∓`: `-x`, `= -1`, `(-a)`, `e^{-x}`;
    any other binary operator with no operand before it is an ordinary symbol, unspaced
    (`BIN_AS_ORD`: `f(\\cdot)`, `\\|\\cdot\\|`, `\\langle \\cdot, \\cdot \\rangle`).

    A `|` or `‖` gets the side its place says: `prefix` where an operand is expected
    (`|x|`'s first bar, so `|-x|` has a unary minus), `postfix` after one.

    Chromium chooses an operator's form from its place in the row (MathML Core §3.2.4.2):
    a sign in the middle gets binary spacing even after `=` or `(`. With the prefix form it
    takes the dictionary's prefix spacing, none before the operand (Temml does the same).
    The dictionary has no prefix entry for `×` or `·`: Chromium gives such an operator its
    default spaces, 0.2778em on each side (wider than the infix form's), hence the explicit
    zeros.
    """
    if not any(_may_be_unary(el.text or "") for el in root.iter("mo")):
        return  # no binary operator and no bar (most formulas of the benchmark corpus)
    for parent in root.iter():
        if parent.tag in SCRIPTS:  # a lone sign as a script, `x^+`, is a list of its own
            for el in list(parent)[1:]:
                if _is_sign(el):
                    el.set("form", "prefix")
        if parent.tag not in ROW_TAGS:
            continue
        prev: ET.Element | None = None
        ordinary = False  # `prev` is a binary operator made ordinary: an operand
        for el in parent:
            tag = el.tag
            if tag == "mspace" or tag == "mtext" and is_space(el):
                continue
            if tag != "mo" and tag not in SCRIPTED_OR_STACKED:
                ordinary, prev = False, el  # neither a sign nor (embellished) a bar
                continue
            expects = not ordinary and _expects_operand(prev)
            ordinary = False
            if _is_sign(el) and expects:
                el.set("form", "prefix")
            elif _is_bin(el) and expects:
                el.attrib.update(BIN_AS_ORD)
                ordinary = True  # `\|\cdot\|`: the bar after it closes
            elif _is_bar(embellished_core(el)):
                embellished_core(el).set("form", "prefix" if expects else "postfix")
            prev = el


def mark_ordinary_groups(root: ET.Element) -> None:
    r"""Take the spaces off an operator that is alone in a braced group: `3{,}14`, `a{=}b`.

    A `{…}` group is an Ord atom in TeX (The TeXbook, ch. 17, Appendix G rule 16), so the
    comma of `3{,}14` has no space after it (the TeXbook's decimal comma, which MathJax
    and KaTeX advise too) and `a{=}b` none around the equals sign. latex2mathml writes the
    group as an `<mrow>` holding the `<mo>`, which Chromium treats as an embellished
    operator and spaces by its dictionary. Only a group in a row counts: the base of
    `\overset{!}{=}` keeps its class, as amsmath's `\binrel@` does, and scripts are spaced
    by `spacing.fix_atom_spacing`.
    """
    for parent in root.iter():
        if parent.tag not in ROW_TAGS:
            continue
        for group in parent:
            if group.tag != "mrow" or len(group) != 1 or group.text:
                continue
            (token,) = group
            if token.tag == "mo" and not ORDINARY_KEEPS.intersection(token.attrib):
                token.attrib.update(lspace="0em", rspace="0em")


ORDINARY_KEEPS = frozenset(("lspace", "rspace", "form", "fence"))
"""An operator with any of these attributes has its spaces or side chosen already."""


@lru_cache(maxsize=512)
def _may_be_unary(text: str) -> bool:
    """Tell whether an operator's text is a sign, a bar or a binary operator."""
    return text in SIGNS_AND_BARS or symbol_class(text) == "mathbin"


def _is_bin(el: ET.Element) -> bool:
    """Tell whether `el` is a binary operator other than a sign, no form or spaces chosen.

    `\\times`, `\\cdot`, `\\circ`, `*`, `\\cup` …; not one whose spaces a pass chose
    (`\\bmod` with TeX's own kerns, a class command's `\\mathbin{\\#}`).
    """
    if el.tag != "mo" or "form" in el.attrib or "lspace" in el.attrib:
        return False
    return symbol_class(el.text or "") == "mathbin"


def _is_bar(el: ET.Element) -> bool:
    """Tell whether `el` is an unstretched `|`/`‖` with no side chosen (`_classify_bar`)."""
    return (
        el.tag == "mo"
        and (el.text or "") in BARS
        and el.get("stretchy") == "false"
        and "form" not in el.attrib
    )


def _is_sign(el: ET.Element) -> bool:
    """Tell whether `el` is a `−`, `+`, `±` or `∓` operator with no form chosen yet."""
    return el.tag == "mo" and (el.text or "") in PREFIX_SIGNS and "form" not in el.attrib
