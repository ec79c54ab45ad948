r"""Token kinds by TeX math class: ordinary symbols as `<mi>`, operators as `<mo>`, prefix signs.

latex2mathml picks `<mo>` for every character in U+2190–U+22FF and `<mi>` for the rest, so
`\infty` is `<mo>∞</mo>` (Chromium pads it like an operator: "− ∞") and `\pm` is
`<mi>±</mi>` (no space: "x±y"). The kind of a symbol is its TeX math class instead:
Ord symbols are identifiers, Bin/Rel/Op/Open/Close/Punct are operators (MathML Core
§3.2.4, The TeXbook ch. 17). The classes come from the unicode-math table latex2mathml
ships (`unimathsymbols.txt`, column "category") and, for ASCII, plain TeX's `\mathcode`s
(The TeXbook, Appendix B). `mark_prefix_operators` then applies TeX's rule that a Bin
atom with no operand before it is unary (Appendix G, rule 5) as `form="prefix"`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache, lru_cache
from pathlib import Path

import latex2mathml.symbols_parser

from postil.math.tree import FUNCTION_NAMES, local

FIXED = "data-fixed"  # set on tokens whose kind a marker chose (symbols.GLYPH_COMMANDS)
OPERATOR_CLASSES = frozenset("mathbin mathrel mathop mathopen mathclose mathpunct".split())
ORD_CLASSES = frozenset(("mathord", "mathalpha"))
# Plain TeX's \mathcode classes of the ASCII symbols (plain.tex; The TeXbook p. 344).
ASCII_CLASSES = {
    **dict.fromkeys("./", "mathord"),
    **dict.fromkeys("+-*", "mathbin"),
    **dict.fromkeys(":=<>", "mathrel"),
    **dict.fromkeys("([{", "mathopen"),
    **dict.fromkeys(")]}!?", "mathclose"),
    **dict.fromkeys(",;", "mathpunct"),
    "|": "mathfence",
}
# Where TeX's command differs from unicode-math's class for the character: `\vdots` is a
# box and `\ddots` an Inner atom in plain TeX, never a relation; `\ldots`, `\cdots` are
# Inner (no relation/operator padding, which Chromium's dictionary would add); amssymb
# makes `\therefore`, `\because` and the dashed and circle arrows relations, `\bigcirc` a
# binary operator, `\blacklozenge` ordinary; the moustaches are delimiters.
OVERRIDES = {
    **dict.fromkeys("⋮⋱⋰…⋯⧫", "mathord"),
    **dict.fromkeys("∴∵⇠⇢↺↻", "mathrel"),
    "◯": "mathbin",
    "⎰": "mathopen",
    "⎱": "mathclose",
}
PRIMES = frozenset("′″‴⁗‵‶‷")
VARIATION_SELECTORS = str.maketrans("", "", "\ufe00\ufe0e\ufe0f")
ACCENT_PARENTS = ("mover", "munder", "munderover")
PREFIX_SIGNS = frozenset("−+±∓")
# A relation written `:` gets TeX's thick spaces; Chromium's dictionary spaces it as
# punctuation (0 before, thin after), which is `\colon` (symbols.GLYPH_COMMANDS).
REL_SPACE = "0.2778em"


@cache
def tex_classes() -> dict[str, str]:
    """Return character -> unicode-math category (`mathord`, `mathbin`, …) for math symbols.

    Read from latex2mathml's copy of unimathsymbols.txt (fields separated by `^`: code
    point, character, LaTeX, unicode-math name, Unicode class, category, …); every code
    point has one category there. ASCII entries come from `ASCII_CLASSES` instead.
    """
    classes: dict[str, str] = {}
    table = Path(latex2mathml.symbols_parser.SYMBOLS_FILE).read_text(encoding="utf-8")
    for line in table.splitlines():
        fields = line.split("^")
        if line.startswith("#") or len(fields) < 6 or not fields[5]:
            continue
        char = chr(int(fields[0], 16))
        if not char.isascii():
            classes.setdefault(char, fields[5])
    return {**classes, **ASCII_CLASSES, **OVERRIDES}


@lru_cache(maxsize=4096)
def symbol_class(text: str) -> str | None:
    """Return the TeX class of a one-symbol token text (variation selectors ignored), or None.

    Memoised: a formula's tokens are mostly the same few symbols.
    """
    bare = text.translate(VARIATION_SELECTORS)
    if len(bare) != 1 or bare.isalnum():
        return None
    return tex_classes().get(bare)


def _is_bare_fence(el: ET.Element) -> bool:
    """Tell whether a `|`/`‖` token is a plain symbol, not a `\\left`, `\\big` or `\\lvert` one."""
    if local(el) == "mi":
        return True
    return el.get("stretchy") == "false" and set(el.attrib) <= {"stretchy", "fence"}


def _make(el: ET.Element, tag: str) -> None:
    """Retag a token, dropping the operator attributes an `<mi>` cannot carry."""
    el.tag = tag
    if tag == "mi":
        for attr in ("stretchy", "fence", "form", "lspace", "rspace", "separator"):
            el.attrib.pop(attr, None)


def _is_delimiter(el: ET.Element) -> bool:
    """Tell whether `el` is a `\\left`/`\\right` or `\\big` delimiter (keeps its `<mo>`)."""
    return el.get("stretchy") == "true" or el.get("fence") == "true" or "minsize" in el.attrib


def _classify(el: ET.Element) -> None:
    """Give one token the tag (and the spacing attributes) of its TeX class."""
    text = el.text or ""
    if _is_delimiter(el):
        return
    if text and set(text) <= PRIMES:
        _make(el, "mo")
        el.set("lspace", "0em")
        el.set("rspace", "0em")
        return
    cls = symbol_class(text)
    if len(text) == 1 and text.isalpha():
        cls = "mathalpha"  # a letter is an identifier (`\omicron` comes as `<mo>ο</mo>`)
    if cls in ORD_CLASSES or cls == "mathfence" and _is_bare_fence(el):
        _make(el, "mi")
    elif cls in OPERATOR_CLASSES or cls == "mathfence":
        if local(el) == "mi" and text == ":":
            el.attrib.update(lspace=REL_SPACE, rspace=REL_SPACE)
        _make(el, "mo")
        if cls in ("mathopen", "mathclose", "mathfence") and "stretchy" not in el.attrib:
            el.set("stretchy", "false")  # TeX never stretches a delimiter without \left


def classify_tokens(root: ET.Element) -> None:
    """Make every one-symbol `<mi>`/`<mo>` under `root` the kind its TeX class says.

    Ord (`∞ ∂ ∇ ∀ ∃ ∅ ⊤ ⊥ ∠ ℏ | ‖ /`) -> `<mi>`; Bin, Rel, Op, Open, Close, Punct (`± ⟹ ⟨ ⨁`)
    -> `<mo>`; primes -> `<mo>` without side space (as MathML and Temml write them).
    Accents (the script of `mover`/`munder`), letters, digits and tokens a marker fixed
    are left alone.
    """
    for parent in root.iter():
        if not len(parent):
            continue
        accents = local(parent) in ACCENT_PARENTS
        for index, el in enumerate(parent):
            if local(el) in ("mi", "mo") and not (accents and index) and FIXED not in el.attrib:
                _classify(el)


def _core(el: ET.Element) -> ET.Element:
    """Return the token an embellished operator is built on (`∑` of `\\sum_i`), else `el`."""
    while local(el) in ("msub", "msup", "msubsup", *ACCENT_PARENTS) and len(el):
        el = el[0]
    return el


def _expects_operand(prev: ET.Element | None) -> bool:
    """Tell whether a sign after `prev` is unary: nothing, or Bin/Op/Rel/Open/Punct before it.

    The TeXbook, Appendix G, rule 5; a function application (U+2061 after `\\log`) is an
    Op atom, and a sign after a prefix sign is unary too (`--x`).
    """
    if prev is None:
        return True
    core = _core(prev)
    if local(core) == "mi":
        return (core.text or "") in FUNCTION_NAMES  # `\log -x`: no U+2061 before a sign
    if local(core) != "mo":
        return False
    text = core.text or ""
    if text == "\u2061" or core.get("form") == "prefix":
        return True
    if core.get("form") == "postfix" or core.get("lspace") == "0em" == core.get("rspace"):
        return False  # a `\right` delimiter or a prime closes an operand
    return symbol_class(text) in ("mathbin", "mathop", "mathrel", "mathopen", "mathpunct") or (
        len(text) > 1 and not text.isalpha()  # `::=`, `:≈`: compound relations
    )


def _is_space(el: ET.Element) -> bool:
    """Tell whether `el` is only spacing (TeX's rule 5 looks past glue)."""
    return local(el) == "mspace" or (local(el) == "mtext" and not (el.text or "").strip())


SCRIPTS = frozenset(("msub", "msup", "msubsup"))
ROW_TAGS = frozenset(("math", "mrow", "mtd", "msqrt", "mstyle", "mpadded", "mphantom", "menclose"))


def mark_prefix_operators(root: ET.Element) -> None:
    """Set `form="prefix"` on every unary `−`, `+`, `±`, `∓`: `-x`, `= -1`, `(-a)`, `e^{-x}`.

    Chromium chooses an operator's form from its place in the row (MathML Core §3.2.4.2):
    a sign in the middle gets binary spacing even after `=` or `(`. With the prefix form it
    takes the dictionary's prefix spacing, none before the operand (Temml does the same).
    """
    for parent in root.iter():
        if local(parent) in SCRIPTS:  # a lone sign as a script, `x^+`, is a list of its own
            for el in list(parent)[1:]:
                if _is_sign(el):
                    el.set("form", "prefix")
        if local(parent) not in ROW_TAGS:
            continue
        prev: ET.Element | None = None
        for el in parent:
            if _is_space(el):
                continue
            if _is_sign(el) and _expects_operand(prev):
                el.set("form", "prefix")
            prev = el


def _is_sign(el: ET.Element) -> bool:
    """Tell whether `el` is a `−`, `+`, `±` or `∓` operator with no form chosen yet."""
    return local(el) == "mo" and (el.text or "") in PREFIX_SIGNS and "form" not in el.attrib
