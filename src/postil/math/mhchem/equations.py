r"""`\ce{…}` read as an equation: words between spaces, operators and arrows.

mhchem's reading (the manual's "Chemical Equations", "Reaction Arrows", "Equation
Operators", "Precipitate and Gas"): `+`, `-`, `=` with a space on each side are operators, a
`+` or `-` ending the argument a charge; a number, fraction or letter before a formula is its
coefficient, with a thin space; an arrow takes `[above][below]` texts; `v` and `^` alone are
a precipitate and a gas; `,` and `;` between formulas a list; two formulas side by side keep
a space between them. Each word is read by `formulas.Formula`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from postil.math.mhchem.formulas import Formula, coefficient_tex
from postil.math.mhchem.grammar import (
    ADDUCT,
    ALONE,
    ARROW,
    ARROWS,
    COEFFICIENT_WORD,
    COMMAND,
    FORMULA_START,
    GAS,
    GREEK,
    LOPSIDED,
    NUMBER,
    OPERATORS,
    SIGNS,
    ChemError,
    skip_group,
)
from postil.math.mhchem.units import translate_pu


def translate_ce(argument: str, base: int = 0) -> str:
    r"""Return the TeX of a `\ce{…}` argument: `2H2 + O2 -> 2H2O` → `{2\,\mathrm{H}_{2} …}`.

    The TeX is one group, unless it holds `&` or `\\` (an `aligned`'s cells and rows).

    Args:
        argument: the argument, without its braces.
        base: its offset in what the offsets of errors count from.

    Raises:
        ChemError: a construct postil does not read, at its offset.
    """
    tex = Equation(argument, base).read()
    return tex if "&" in tex or "\\\\" in tex else "{" + tex + "}"


@dataclass
class Equation:
    r"""A cursor over `\ce`'s argument (or an arrow's text, which is mhchem again).

    Attributes:
        text: the argument.
        base: its offset in the outermost `\ce`'s argument, for errors.
        pos: the offset read so far.
    """

    text: str
    base: int = 0
    pos: int = 0

    def read(self) -> str:
        """Read the whole argument; return its TeX."""
        out: list[str] = []
        spaced, kind = True, ""
        while self.pos < len(self.text):
            if self.text[self.pos].isspace():
                self.pos += 1
                spaced = True
                continue
            piece, next_kind = self._item(self.text[self.pos :], spaced, bool(out))
            if spaced and kind == "word" and next_kind in ("word", "command"):
                out.append("~")  # two formulas side by side keep their space
            out.append(piece)
            kind, spaced = next_kind, False
        return "".join(out)

    def _item(self, rest: str, spaced: bool, started: bool) -> tuple[str, str]:
        """Read one arrow, operator, escape or word at `pos`; return (TeX, its kind: "word",
        "command" or "")."""
        alone = len(rest) == 1 or rest[1].isspace()
        if arrow := ARROW.match(rest):
            self.pos += arrow.end()
            return self._arrow(arrow.group(0)), ""
        if spaced and alone and rest[0] in "+-=":
            self.pos += 1
            if started and rest[0] != "=" and not rest[1:].strip():
                return f"{{}}^{{{rest[0]}}}", ""  # `\ce{\beta +}`: the charge before it
            return f" {{}}{OPERATORS[rest[0]]}{{}} ", ""  # also `[+ 2OH-]`'s first `+`
        if spaced and alone and started and rest[0] in "^v*.":
            self.pos += 1
            return (GAS[rest[0]] if rest[0] in GAS else ADDUCT), ""
        if spaced and started and rest[:3] in ("(v)", "(^)") and not rest[3:4].strip():
            self.pos += 3
            return GAS[rest[:3]], ""
        if re.match(r"\\ca(?![A-Za-z])", rest):
            self.pos += 3
            return r"{\sim}", ""  # circa, before what follows
        if op := re.match(r"\\(?:pm|approx)(?![A-Za-z])", rest):
            self.pos += op.end()
            return f" {{}}{OPERATORS[op.group(0)]}{{}} ", ""
        if rest.startswith(("&", "\\\\")):
            width = 1 if rest[0] == "&" else 2
            self.pos += width
            return rest[:width] + " ", ""
        return self._word()

    def _word(self) -> tuple[str, str]:
        """Read a word: a coefficient before a formula, a number, or a formula."""
        end, start = self._word_end(), self.pos
        word, self.pos = self.text[start:end], end
        separator = ""
        if word[-1:] in ",;" and len(word) > 1 and end < len(self.text):
            word, separator = word[:-1], f"{{{word[-1]}}}\\mkern6mu "  # `A, B; C`: a list
        following = self.text[end:].lstrip()
        if COEFFICIENT_WORD.fullmatch(word) and not separator:
            if FORMULA_START.match(following) and not ARROW.match(following):
                if not ALONE.match(following):
                    return coefficient_tex(word, self.base + start, read_nested) + r"\,", ""
            if NUMBER.fullmatch(word):
                return word.replace(",", "{,}"), "word"
        tex = Formula(word, self.base + start, read_nested).read()
        if re.fullmatch(r"\\[A-Za-z]+", word) and not GREEK.fullmatch(word):
            return tex, "command"  # `A \cdot B`: spaced before, as mhchem's `~\cdot`
        return tex + separator, "" if separator else "word"

    def _word_end(self) -> int:
        """Return where the word at `pos` ends: a space, an arrow, `&` (groups skipped)."""
        index = self.pos
        while index < len(self.text):
            char = self.text[index]
            if char.isspace() or char == "&" or ARROW.match(self.text, index):
                break
            if char in "{$":
                index = skip_group(self.text, index, self.base)
                continue
            if self.text.startswith("\\\\", index):
                break
            index += 1
        return max(index, self.pos + 1)

    def _arrow(self, arrow: str) -> str:
        """Return the TeX of `arrow` with its `[above]` and `[below]` texts if they follow."""
        above = self._label()
        below = self._label() if above else ""
        up = arrow_text(above) if above or not below else ""
        down = f"[{arrow_text(below)}]" if below else ""
        if arrow in LOPSIDED:
            long, lift, short, drop = LOPSIDED[arrow]
            short = rf"\mathllap{{\raise{drop}{{\mathord{{{short}}}}}\hspace{{0.9em}}}}"
            return rf"\mathrel{{\raise{lift}{{{long}{down}{{{up}}}}}{short}}}"
        return rf"{ARROWS[arrow]}{down}{{{up}}}"

    def _label(self) -> str:
        """Read an arrow's `[…]` text (mhchem, `$math$` or `{text}`); its TeX, "" if none."""
        if not self.text.startswith("[", self.pos):
            return ""
        depth, index = 0, self.pos
        while index < len(self.text):
            char = self.text[index]
            if char in "{$":
                index = skip_group(self.text, index, self.base)
                continue
            depth += {"[": 1, "]": -1}.get(char, 0)
            if depth == 0:
                break
            index += 1
        else:
            raise ChemError("an arrow's `[` is never closed", self.base + self.pos, "add its `]`")
        inner, start = self.text[self.pos + 1 : index], self.pos + 1
        self.pos = index + 1
        stripped = inner.strip()
        if re.fullmatch(r"\$[^$]*\$", stripped):  # mhchem sets it upright (`{\rm …}`)
            return (
                rf"\mathrm{{{math_tex(stripped[1:-1], self.base + start + inner.index('$') + 1)}}}"
            )
        if re.fullmatch(r"\{[^{}]*\}", stripped):
            return rf"\text{{{stripped[1:-1]}}}"
        return Equation(inner, self.base + start).read()


def arrow_text(label: str) -> str:
    r"""Return an arrow's text at least as wide as mhchem's shortest arrow (2em of script):
    `\hspace{2em}` for none, a short one centred on that width, a longer one as it is."""
    if not label:
        return r"\hspace{2em}"
    visible = re.sub(r"\\(?:mathrm|text|mathit)|[{}_^\s]", "", label)
    if len(re.sub(r"\\[A-Za-z]+", "x", visible)) <= 3:
        return rf"\hspace{{1em}}\mathclap{{{label}}}\hspace{{1em}}"
    return label


def read_nested(text: str, offset: int, math: bool) -> str:
    """Read mhchem nested in a formula: `$…$` math (`math_tex`) or mhchem (`\\frac{…}`'s
    arguments); see `grammar.Reader`."""
    return math_tex(text, offset) if math else Equation(text, offset).read()


def math_tex(math: str, offset: int) -> str:
    r"""Return the TeX of `$…$` math inside mhchem, its own `\ce` and `\pu` translated.

    Args:
        math: the math without its dollars.
        offset: its offset, from which the errors of a `\ce` in it count.
    """
    if not any(sign in math for sign in SIGNS):
        return math
    out, last = [], 0
    for match, start, end in find_commands(math, offset):
        translate = translate_pu if match.group(1) == "pu" else translate_ce
        out += [
            math[last : match.start()],
            translate(math[start + 1 : end - 1], offset + start + 1),
        ]
        last = end
    return "".join(out) + math[last:]


def find_commands(latex: str, base: int = 0) -> Iterator[tuple[re.Match[str], int, int]]:
    r"""Yield each `\ce`, `\cee`, `\cf`, `\pu` of `latex` not inside another's argument:
    (its match, the offset of its `{`, the offset after its `}`).

    Raises:
        ChemError: a command without a `{…}` argument, or one never closed (at `base` +
            its offset).
    """
    last = 0
    for match in COMMAND.finditer(latex):
        if match.start() < last:
            continue  # inside an argument already found (`\ce{… \pu{…} …}`)
        start = match.end()
        while start < len(latex) and latex[start].isspace():
            start += 1
        if not latex.startswith("{", start):
            name = match.group(1)
            fix = f"write \\{name}{{H2O}}"
            raise ChemError("its argument is not in braces", base + match.start(), fix)
        last = skip_group(latex, start, base)
        yield match, start, last
