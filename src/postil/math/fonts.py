r"""Font passes: math alphabets as Unicode characters, roman words as one identifier.

MathML Core renders `mathvariant` only as `normal` on a one-letter `<mi>` (which is how
capital Greek letters stand upright, as in TeX: `upright_greek_capitals`); every other
style (`\mathbf`, `\mathbb`, `\mathcal`, …) is drawn by using the Unicode math
alphanumeric characters (`alphabets.styled_text`), as Temml does.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.alphabets import styled_text
from postil.math.macros import read_group
from postil.math.markers import marker
from postil.math.mathml import POSITIONAL, TOKENS

GREEK_CAPITALS = frozenset(chr(c) for c in range(0x391, 0x3AA) if c != 0x3A2) | {"ϴ", "ϒ"}
UPRIGHT = GREEK_CAPITALS | {"∇"}
"""One-character identifiers TeX sets upright: the capital Greek letters and `\\nabla`
(plain.tex's `\\mathchardef\\nabla="0272`, class 0 in the upright symbol font, where
`\\partial`, `"0140`, is in the italic one); MathML Core draws a one-letter `<mi>` italic."""


DIGIT_FONTS = re.compile(r"\\(bf|sf)(?![A-Za-z])|\\mathsf\s*\{")
"""What sets digits in a font that latex2mathml leaves digits out of: the old switches `\\bf`
and `\\sf` (their letters only) and `\\mathsf{…}` (its letters only)."""
DIGIT_VARIANTS = {"bf": "bold", "sf": "sans-serif", None: "sans-serif"}
DIGIT = re.compile(r"\d")


def mark_digit_fonts(latex: str) -> str:
    r"""Put a `digits` marker after each font command whose digits latex2mathml leaves in the
    roman font: `{\bf 0}`, `\bf{1}`, `{\sf 2}`, `\mathsf{3}`.

    In TeX `\bf` and `\sf` switch the math font family for the rest of the group, digits
    and scripts included (`{\bf x^2}`: a bold 2), and `\mathsf{3}` is a sans-serif 3; the
    zero vector of old MathJax posts is `{\bf 0}`. The marker styles the digits after it in
    its group (`markers`: `digits`). Runs after the `text` pass, so a `\bf` inside
    `\text{…}` (text mode's, hidden behind stand-ins by then) is not read.
    """
    if not DIGIT.search(latex) or not DIGIT_FONTS.search(latex):
        return latex
    return DIGIT_FONTS.sub(lambda match: _digit_marker(latex, match), latex)


def _digit_marker(latex: str, match: re.Match[str]) -> str:
    """Return the font command at `match` with a `digits` marker after it, or as it is when
    no digit follows in its reach (the marker's `<mtext>` would leave an `<mrow>` behind)."""
    if match.group(1) is None:  # `\mathsf{`: its group
        reach = latex[match.end() : read_group(latex, match.end() - 1)[1]]
    else:
        reach = latex[match.end() :]
    if not DIGIT.search(reach):
        return match.group(0)
    return match.group(0) + marker("digits", DIGIT_VARIANTS[match.group(1)])


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
        if variant == "bold-italic" and el.tag == "mn":
            variant = "bold"  # `\bm{0}`: bold digits (TeX's are upright; Unicode has no others)
        if variant == "italic" and el.tag == "mi" and len(el.text or "") == 1:
            if len(styled_text(variant, el.text or "")) == 1:  # drawn italic by Chromium
                del el.attrib["mathvariant"]
                continue
        el.text = styled_text(variant, el.text or "")
        del el.attrib["mathvariant"]
