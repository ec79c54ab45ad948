r"""mhchem's vocabulary: arrows, bonds, operators, the patterns its parser reads, its error.

The TeX each construct becomes is mhchem's (the manual, https://mhchem.github.io/MathJax-mhchem/,
and the TeX mhchem 3.3 emits), in forms latex2mathml lays out: `\xrightarrow` & co. for the
reaction arrows, rules for the dashed bonds.
"""

from __future__ import annotations

import re
from collections.abc import Callable

SIGNS = ("\\ce", "\\cf", "\\pu")
"""Substrings that mark a formula mhchem may change (the passes' cheap test)."""
COMMAND = re.compile(r"\\(ce|cee|cf|pu)(?![A-Za-z])")

Reader = Callable[[str, int, bool], str]
"""Reads mhchem nested in a formula (`equations.read_nested`): (text, its offset in the
argument, whether it is `$…$` math, whose own `\\ce` it translates) -> TeX."""

# mhchem's arrows, longest first, and the extensible arrow each one is here.
ARROW = re.compile(r"<-->|<=>>|<<=>|<=>|<->|->|<-|→|⟶|⇌")
ARROWS = {
    "->": r"\xrightarrow",
    "→": r"\xrightarrow",
    "⟶": r"\xrightarrow",
    "<-": r"\xleftarrow",
    "<->": r"\xleftrightarrow",
    "<-->": r"\xtofrom",
    "<=>": r"\xrightleftharpoons",
    "⇌": r"\xrightleftharpoons",
}
# An equilibrium lying to one side (mhchem's \rightequilibrium, \leftequilibrium): the
# long harpoon, which carries the texts, raised or lowered as in ⇌, and the short one laid
# over its right half (\mathllap), the other way: (long, its shift, short, its shift).
LOPSIDED = {
    "<=>>": (r"\xrightharpoonup", "0.12em", r"\leftharpoondown", "-0.15em"),
    "<<=>": (r"\xleftharpoondown", "-0.15em", r"\rightharpoonup", "0.12em"),
}
BONDS = {
    "-": "{-}",
    "1": "{-}",
    "=": "{=}",
    "2": "{=}",
    "#": r"{\equiv}",
    "3": r"{\equiv}",
    "...": r"{{\cdot}{\cdot}{\cdot}}",
    "....": r"{{\cdot}{\cdot}{\cdot}{\cdot}}",
    "->": r"{\rightarrow}",
    "<-": r"{\leftarrow}",
}
DASH = r"\rule{0.15em}{0.06em}"
LINE = r"\rule{0.65em}{0.06em}"
DASHES = rf"{DASH}\kern0.1em{DASH}\kern0.1em{DASH}"
# Partial bonds, drawn with rules as mhchem draws them: dashes, lines under or between.
BONDS |= {
    "~": rf"{{\kern0.1em\raise0.25em{{{DASHES}}}\kern0.1em}}",
    "~-": rf"{{\kern0.1em\mathrlap{{\raise0.13em{{{LINE}}}}}\raise0.34em{{{DASHES}}}\kern0.1em}}",
    "~=": (
        rf"{{\kern0.1em\mathrlap{{\raise0.05em{{{LINE}}}}}\mathrlap{{\raise0.27em{{{LINE}}}}}"
        rf"\raise0.48em{{{DASHES}}}\kern0.1em}}"
    ),
    "-~-": (
        rf"{{\kern0.1em\mathrlap{{\raise0.05em{{{LINE}}}}}\mathrlap{{\raise0.48em{{{LINE}}}}}"
        rf"\raise0.27em{{{DASHES}}}\kern0.1em}}"
    ),
}
BONDS["~--"] = BONDS["~="]
# A precipitate's ↓ and a gas's ↑, relations as mhchem writes them.
GAS = {"^": r" \uparrow{} ", "v": r" \downarrow{} "}
GAS |= {"(^)": GAS["^"], "(v)": GAS["v"]}
OPERATORS = {"+": "+", "-": "-", "=": "=", "\\pm": r"\pm", "\\approx": r"\approx"}
ADDUCT = r"\,{\cdot}\,"
RADICAL = r"\mkern1mu{\bullet}\mkern1mu "
GREEK = re.compile(
    r"\\(?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi"
    r"|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi"
    r"|Sigma|Upsilon|Phi|Psi|Omega)(?![A-Za-z])"
)
ROMAN = re.compile(r"[IVX]+")
# A state of aggregation, `(aq)`, `(aq,$\infty$)`, `($c$)`, `(\ca$c$)`; not `(en)3`.
STATE = re.compile(r"\(([a-z]{1,3}|(?:\\ca)?\$[^$()]*\$)((?:,[^()]*)?)\)(?!\d)")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?|[.,]\d+")
COEFFICIENT = re.compile(r"\d+/\d+(?![\d.])|\d+(?:[.,]\d+)?(?=[A-Z(\[\\a-z])")
COEFFICIENT_WORD = re.compile(r"\d*[a-z]|\d*\$[^$]*\$|\d+(?:[.,]\d+)?|\(?\d+/\d+\)?")
FORMULA_START = re.compile(r"[A-Za-z(\[\\^_${]")
ALONE = re.compile(r"[v^](?:\s|$)")
ORBITAL = re.compile(r"(\d)([spdf])(?=\^|$)")
PREFIX = re.compile(r"([a-z])-(?=[A-Z])")  # n-Pr, t-Bu: an italic prefix and a hyphen
CHARGE = re.compile(r"\d*[+-]|\d*'+|\d+|\*|\.+[+-]?|x(?![A-Za-z])")
# A Kröger–Vink site in a subscript (`_{Li,1-2x}`, `_i`): the site upright, then the rest.
SITE = re.compile(r"([A-Z][a-z]{0,2}|i)(?:,(.*))?", re.DOTALL)


class ChemError(Exception):
    """An mhchem construct postil does not read, at an offset into the argument.

    Args:
        what: the construct (`` superscript `^{.}` ``), or what is wrong with the input.
        offset: its offset in the argument.
        fix: how to fix input that is wrong (an unclosed `[`), or "" when the construct is
            mhchem's but not read here.
    """

    def __init__(self, what: str, offset: int, fix: str = "") -> None:
        super().__init__(what)
        self.what, self.offset, self.fix = what, offset, fix


def skip_group(text: str, index: int, base: int) -> int:
    """Return the offset after the `{…}` or `$…$` that starts at `index`.

    Raises:
        ChemError: it is never closed (at `base + index`).
    """
    if text[index] == "$":
        end = text.find("$", index + 1)
        if end < 0:
            raise ChemError("`$` is never closed", base + index, "add the closing `$`")
        return end + 1
    depth = 0
    for end in range(index, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0) if text[end - 1 : end] != "\\" else 0
        if depth == 0:
            return end + 1
    raise ChemError("`{` is never closed", base + index, "add its `}`")
