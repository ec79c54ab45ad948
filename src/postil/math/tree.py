"""Post-processing of latex2mathml's MathML tree into MathML Core that Chromium lays out right.

Each pass takes the `<math>` Element and changes it in place. The rules come from MathML
Core (https://w3c.github.io/mathml-core/), TeX's spacing table (The TeXbook, ch. 18) and
the checks of `../shared/math/math_check.py`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.alphabets import styled_text

ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")
TOKENS = ("mi", "mn", "mo", "mtext", "ms")
# TeX's \log-like operators (The TeXbook p. 162) and amsmath's additions.
FUNCTION_NAMES = frozenset(
    """arccos arcsin arctan arctg arcctg arg argmax argmin ch cos cosh cot cotg coth csc ctg cth
    cosec deg det dim exp gcd hom inf ker lg lim liminf limsup ln log max min Pr sec sh sin
    sinh sup tan tanh tg th injlim projlim plim""".split()
)
# Operators whose scripts go under/over in display style (TeX's \displaylimits default).
LIMIT_OPERATORS = frozenset("∑∏∐⋀⋁⋂⋃⨀⨁⨂⨄⨆")
LIMIT_NAMES = frozenset("lim liminf limsup max min sup inf det gcd Pr injlim projlim plim".split())
OPEN_FENCES = frozenset("([{|‖⟨⌈⌊〈")
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
SCRIPTED = ("msub", "msup", "msubsup")
UNDER_OVER = {"msub": "munder", "msup": "mover", "msubsup": "munderover"}
SCRIPTED_OR_STACKED = frozenset(SCRIPTED + tuple(UNDER_OVER.values()))
THIN = "0.1667em"


def local(el: ET.Element) -> str:
    """Return an element's tag without namespace."""
    tag = el.tag
    return tag if "}" not in tag else tag.rsplit("}", 1)[-1]


def decode_entities(root: ET.Element) -> None:
    """Turn latex2mathml's `&#x…;` strings into characters (it serialises with unescape())."""
    for el in root.iter():
        if el.text and "&#x" in el.text:
            el.text = ENTITY.sub(lambda m: chr(int(m.group(1), 16)), el.text)


def merge_letters(root: ET.Element) -> None:
    """Join runs of one-letter `<mi>` set in roman or italic into one `<mi>` (`\\mathrm{KL}`).

    TeX sets `\\mathrm{KL}` as one word; MathML Core draws a multi-letter `<mi>` upright,
    so `KL` is one identifier, as Temml and KaTeX write it. Bold and other alphabets
    keep one letter per `<mi>` (their characters carry the style).
    """
    for parent in root.iter():
        if len(parent) < 2:
            continue
        kids = list(parent)
        for prev, el in zip(kids, kids[1:], strict=False):
            variant = el.get("mathvariant")
            if (
                variant in ("normal", "italic")
                and local(el) == local(prev) == "mi"
                and prev.get("mathvariant") == variant
                and (prev.text or "").isalpha()
                and (el.text or "").isalpha()
                and len(el.text or "") == 1
                and prev in list(parent)
            ):
                prev.text = (prev.text or "") + (el.text or "")
                parent.remove(el)
                kids[kids.index(el)] = prev


def apply_mathvariant(root: ET.Element) -> None:
    """Replace `mathvariant` by Unicode math alphanumerics, which Chromium renders.

    `normal` stays on one-letter `<mi>` (MathML Core supports exactly that), and on `mtext`
    the styled characters are used as well (they survive copy-paste as math letters).
    """
    for el in root.iter():
        variant = el.attrib.get("mathvariant")
        if variant is None or local(el) not in TOKENS:
            continue
        if variant == "normal":
            if not (local(el) == "mi" and len(el.text or "") == 1):
                del el.attrib["mathvariant"]
            continue
        if variant == "italic" and local(el) == "mi" and len(el.text or "") == 1:
            del el.attrib["mathvariant"]
            continue
        el.text = styled_text(variant, el.text or "")
        del el.attrib["mathvariant"]


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


def fix_lengths(root: ET.Element) -> None:
    """Rewrite named and TeX-only lengths on spaces and operators as CSS lengths (em, pt)."""
    for el in root.iter():
        if not el.attrib:
            continue
        for attr in ("width", "height", "depth", "lspace", "rspace", "voffset"):
            if attr in el.attrib:
                el.attrib[attr] = _css_length(el.attrib[attr])


def _is_function_name(el: ET.Element) -> bool:
    """Tell whether `el` (maybe scripted) is a function name like `log` or `softmax`."""
    while local(el) in SCRIPTED_OR_STACKED and len(el):
        el = el[0]
    text = (el.text or "").replace("\u2009", "").replace("\u2006", "").replace(" ", "")
    if local(el) == "mi":
        return text in FUNCTION_NAMES or el.get("data-op") == "1"
    return local(el) == "mo" and len(text) > 1 and text.isalpha() and "lspace" not in el.attrib


def _first_leaf_text(el: ET.Element) -> str:
    """Return the text of the first token under `el` ("" if none)."""
    for leaf in el.iter():
        if local(leaf) in TOKENS:
            return leaf.text or ""
    return ""


def _name_to_mi(el: ET.Element) -> None:
    """Make the base of a function name an `<mi>` (an `<mo>` word gets operator padding)."""
    while local(el) in SCRIPTED_OR_STACKED and len(el):
        el = el[0]
    if local(el) == "mo":
        el.tag = "mi"
        for attr in ("stretchy", "fence", "form", "lspace", "rspace"):
            el.attrib.pop(attr, None)
    el.attrib.pop("data-op", None)


def apply_functions(root: ET.Element) -> None:
    """Give every function name U+2061 and TeX's spacing: `log p`, `sin(x)`, `softmax(x)`.

    TeX puts a thin space between an Op atom and a following Ord atom but none before an
    opening fence (The TeXbook, ch. 18, rule 20); Chromium gives U+2061 no width, so the
    thin space is an explicit `<mspace>`.
    """
    for parent in list(root.iter()):
        if not len(parent) or local(parent) in POSITIONAL:
            continue
        kids = list(parent)
        for i in range(len(kids) - 1, -1, -1):
            if not _is_function_name(kids[i]):
                continue
            _name_to_mi(kids[i])
            atom = next((k for k in kids[i + 1 :] if not _is_space(k)), None)
            if atom is None or _starts_with_relation_or_end(atom):
                continue
            apply = ET.Element("mo")
            apply.text = "\u2061"
            parent.insert(i + 1, apply)
            if not _is_plain_open_fence(atom):
                parent.insert(i + 2, ET.Element("mspace", width=THIN))


def _is_plain_open_fence(el: ET.Element) -> bool:
    """Tell whether `el` is a non-stretchy opening fence, as in `\\log(x)` (TeX: no space).

    A `\\left(` group is an Inner atom in TeX and gets the thin space (The TeXbook p. 170).
    """
    return local(el) == "mo" and (el.text or "") in OPEN_FENCES and el.get("stretchy") != "true"


POSITIONAL = frozenset(
    ("msub", "msup", "msubsup", "munder", "mover", "munderover", "mfrac", "mroot", "mmultiscripts")
)
RELATIONS_AND_PUNCT = frozenset("=<>≤≥≈≠∈∉⊂⊆→←↦,;:.)]}|∼≡≔∝⟩⌉⌋+−±∓×⋅·")


def _is_space(el: ET.Element) -> bool:
    """Tell whether `el` is explicit spacing (mspace, or an mtext of spaces)."""
    return local(el) == "mspace" or (local(el) == "mtext" and not (el.text or "").strip())


def _starts_with_relation_or_end(el: ET.Element) -> bool:
    """Tell whether a function name followed by `el` stands alone (`f = \\log`, `\\max,`)."""
    if local(el) == "mo":
        return (el.text or "") in RELATIONS_AND_PUNCT
    return False


def apply_limits(root: ET.Element, display: bool) -> None:
    """Stack the scripts of ∑, ∏, lim, max, `\\operatorname*` under/over in display style.

    latex2mathml writes `\\lim_{x}` as `<msub>`, which Chromium draws beside the operator.
    TeX puts such limits under/over only in display style, which fractions, scripts and
    (unless `displaystyle`) table cells leave (The TeXbook, ch. 17), so the style is
    tracked down the tree; `\\displaystyle` (an `mstyle`) turns it back on.
    """
    _limits(root, display)


def _limits(el: ET.Element, display: bool) -> None:
    """Apply `apply_limits` to `el` in the given style, then to its children."""
    tag = local(el)
    if tag in ("mstyle", "mtable") and el.get("displaystyle") in ("true", "false"):
        display = el.get("displaystyle") == "true"
    elif tag == "mtable":
        display = False
    if display and tag in SCRIPTED and len(el) and _takes_limits(el[0]):
        el.tag = UNDER_OVER[tag]
        tag = el.tag
    for index, child in enumerate(el):
        keeps = tag not in POSITIONAL or (index == 0 and tag != "mfrac")
        _limits(child, display and keeps)


def _takes_limits(base: ET.Element) -> bool:
    """Tell whether a script base is a big operator or a limit-taking name."""
    if base.get("data-limits") == "0":
        return False
    text = (base.text or "").replace("\u2009", "").replace("\u2006", "")
    return base.get("data-limits") == "1" or text in LIMIT_OPERATORS or text in LIMIT_NAMES


def clean_markers(root: ET.Element) -> None:
    """Drop the private `data-*` attributes the passes used to talk to each other."""
    for el in root.iter():
        for attr in [a for a in el.attrib if a.startswith("data-")]:
            del el.attrib[attr]
