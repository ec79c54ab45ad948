r"""Font passes: math alphabets as Unicode characters, roman words as one identifier.

MathML Core renders `mathvariant` only as `normal` on a one-letter `<mi>` (which is how
capital Greek letters stand upright, as in TeX: `upright_greek_capitals`); every other
style (`\mathbf`, `\mathbb`, `\mathcal`, …) is drawn by using the Unicode math
alphanumeric characters (`alphabets.styled_text`), as Temml does.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from postil.math.alphabets import styled_text
from postil.math.mathml import POSITIONAL, TOKENS

GREEK_CAPITALS = frozenset(chr(c) for c in range(0x391, 0x3AA) if c != 0x3A2) | {"ϴ", "ϒ"}
UPRIGHT = GREEK_CAPITALS | {"∇"}
"""One-character identifiers TeX sets upright: the capital Greek letters and `\\nabla`
(plain.tex's `\\mathchardef\\nabla="0272`, class 0 in the upright symbol font, where
`\\partial`, `"0140`, is in the italic one); MathML Core draws a one-letter `<mi>` italic."""


def merge_letters(root: ET.Element) -> None:
    """Join runs of one-letter `<mi>` set in roman or italic into one `<mi>` (`\\mathrm{KL}`).

    TeX sets `\\mathrm{KL}` as one word; MathML Core draws a multi-letter `<mi>` upright,
    so `KL` is one identifier, as Temml and KaTeX write it. Bold and other alphabets
    keep one letter per `<mi>` (their characters carry the style). The children of a
    script, fraction or root are its parts, not a run: `{\rm R}^m` is R with the
    superscript m (joined, they were one `<mi>Rm</mi>` and an `<msup>` of one child).
    """
    if not any(el.get("mathvariant") in ("normal", "italic") for el in root.iter("mi")):
        return  # no letter to merge: skip the walk over every element's children
    for parent in root.iter():
        if len(parent) < 2 or parent.tag in POSITIONAL:
            continue
        kids = list(parent)
        for prev, el in zip(kids, kids[1:], strict=False):
            variant = el.get("mathvariant")
            if (
                variant in ("normal", "italic")
                and el.tag == prev.tag == "mi"
                and prev.get("mathvariant") == variant
                and (prev.text or "").isalpha()
                and (el.text or "").isalpha()
                and len(el.text or "") == 1
                and prev in list(parent)
            ):
                prev.text = (prev.text or "") + (el.text or "")
                parent.remove(el)
                kids[kids.index(el)] = prev


def upright_greek_capitals(root: ET.Element) -> None:
    """Set every capital Greek letter and `\\nabla` upright (`mathvariant="normal"`, `UPRIGHT`):
    `\\Sigma` is Σ, `\\nabla` ∇ (an italic 𝛻 in Chromium before; Temml writes it so too).

    TeX takes `\\Gamma` … `\\Omega` from the roman font (plain.tex gives them
    `\\mathcode"7000`, class 7: variable family, upright by default; The TeXbook p. 434),
    whereas MathML Core draws a one-letter `<mi>` italic. `\\varSigma` & co. come as the
    italic characters (`𝛴`) and stay so; `\\mathit{\\Sigma}` keeps its `mathvariant`.
    """
    for el in root.iter("mi"):
        text = el.text or ""
        if len(text) == 1 and text in UPRIGHT:
            el.attrib.setdefault("mathvariant", "normal")


def apply_mathvariant(root: ET.Element) -> None:
    """Replace `mathvariant` by Unicode math alphanumerics, which Chromium renders.

    `normal` stays on one-letter `<mi>` (MathML Core supports exactly that), and on `mtext`
    the styled characters are used as well (they survive copy-paste as math letters).
    `\boldsymbol` and `\bm` (latex2mathml's `bold-italic`) make a capital Greek letter bold
    and upright: TeX takes it from the bold roman font, class 7 as unstyled (math-core#214).
    """
    for el in root.iter():
        variant = el.attrib.get("mathvariant")
        if variant is None or el.tag not in TOKENS:
            continue
        if variant == "normal":
            if not (el.tag == "mi" and len(el.text or "") == 1):
                del el.attrib["mathvariant"]
            continue
        if variant == "bold-italic" and el.tag == "mi" and (el.text or "") in GREEK_CAPITALS:
            variant = "bold"  # `\boldsymbol{\Gamma}`: upright, as `upright_greek_capitals`
        if variant == "italic" and el.tag == "mi" and len(el.text or "") == 1:
            if len(styled_text(variant, el.text or "")) == 1:  # drawn italic by Chromium
                del el.attrib["mathvariant"]
                continue
        el.text = styled_text(variant, el.text or "")
        del el.attrib["mathvariant"]
