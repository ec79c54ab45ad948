r"""mhchem's `\ce{…}` and `\pu{…}`: chemical equations, formulas and units, as TeX.

mhchem is a parser that turns chemists' shorthand into TeX (`\ce{SO4^2-}` →
`\mathrm{SO}_{4}{}^{2-}`); KaTeX (contrib/mhchem), MathJax and Temml typeset that TeX. This
module is postil's own reading of the same input syntax, written from the mhchem manual
(https://mhchem.github.io/MathJax-mhchem/) and checked against the TeX mhchem 3.3 emits, in
TeX latex2mathml reads: scripts on the element they follow, isotopes as `\prescript`,
reaction arrows as the extensible arrows (`\xrightarrow[below]{above}`). What it reads:

- equations: coefficients (`2H2O`, `2 H2O`, `1/2 O2`, `0.5 H2O`), stoichiometric variables
  (`n H2O`, `$x$ Na`), operators ` + `, ` = `, ` - ` between spaces, arrows `->`, `<-`,
  `<->`, `<-->`, `<=>`, `<=>>`, `<<=>` (also `→`, `⟶`, `⇌`) with `[above][below]` text,
  itself mhchem, `$math$` or `{text}`; `&` and `\\` as in an `aligned`;
- formulas: element symbols upright, digits after an element or bracket as subscripts,
  charges (`H+`, `OH-`, `SO4^2-`, `Y^{99+}`, `[AgCl2]-`), oxidation states (`Fe^{II}`),
  isotopes (`^{227}_{90}Th+`, `^{0}_{-1}n^{-}`), `_x`/`_{…}` subscripts, brackets, Greek
  letters (`\alpha-Fe`: a hyphen after a Greek letter or `$…$`), `$math$`, `{text}`, states
  (`(aq)`, `(s)`, `(aq,$\infty$)`), precipitate ` v` and gas ` ^`, addition compounds
  `.`/`*`, bonds `-`, `=`, `#` and `\bond{…}` (`-`, `=`, `#`, `1`–`3`, `~`, `~-`, `~=`,
  `~--`, `-~-`, `...`, `....`, `->`, `<-`);
- `\pu`: a number (`1,5`, `12345` with thin spaces, `1.2e3` as `1.2\cdot 10^{3}`, `1.2E3`,
  `1.2x10^3`, `1.2*10^3`) then units (`kJ mol-1`, `J*s`, `kJ/mol`, `kJ//mol` as a fraction,
  `m/s^2`, `°C`, `µm`, `\%`).

`\cee` and `\cf` are `\ce` (mhchem's aliases for MathJax 2). Anything else of mhchem's
grammar (electron dots, orbitals, `\color` inside `\ce`, ranges in `\pu`, …) raises
`MathUnsupportedError` naming the construct, so the build warns at `path:line:col` and the
page shows the TeX instead of a wrong formula.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from postil.math.errors import MathUnsupportedError
from postil.math.texreader import read_group

COMMAND = re.compile(r"\\(ce|cee|cf|pu)(?![A-Za-z])")
SIGNS = ("\\ce", "\\cf", "\\pu")
"""Substrings that mark a formula this module may change (the pass's cheap test)."""

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
# long harpoon, which carries the texts, and the short one under or over it.
LOPSIDED = {
    "<=>>": (r"\xrightharpoonup", r"\underset", r"\leftharpoondown"),
    "<<=>": (r"\xleftharpoondown", r"\overset", r"\rightharpoonup"),
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
GAS = {"^": r"\uparrow", "v": r"\downarrow"}
OPERATORS = {"+": "+", "-": "-", "=": "=", "\\pm": r"\pm", "\\approx": r"\approx"}
GREEK = re.compile(
    r"\\(?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi"
    r"|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi"
    r"|Sigma|Upsilon|Phi|Psi|Omega)(?![A-Za-z])"
)
ROMAN = re.compile(r"[IVX]+|0")
STATE = re.compile(r"\(([a-z]{1,3})((?:,[^()]*)?)\)")
NUMBER = re.compile(r"\d+(?:[.,]\d+)?|[.,]\d+")
COEFFICIENT = re.compile(r"\d+/\d+(?![\d.])|\d+(?:[.,]\d+)?(?=[A-Z(\[\\a-z$^{])")
FORMULA_START = re.compile(r"[A-Za-z(\[\\^_${]")
ALONE = re.compile(r"[v^](?:\s|$)")
ORBITAL = re.compile(r"(\d)([spdf])(?=\^|$)")
VARIABLE = re.compile(r"(\d*)([a-z]|\$[^$]*\$)$")


class ChemError(Exception):
    """An mhchem construct this module does not read, at an offset into the argument.

    Args:
        what: the construct (`` superscript `^{.}` ``), or what is wrong with the input.
        offset: its offset in the argument.
        fix: how to fix input that is wrong (an unclosed `[`), or "" when the construct is
            mhchem's but not read here.
    """

    def __init__(self, what: str, offset: int, fix: str = "") -> None:
        super().__init__(what)
        self.what, self.offset, self.fix = what, offset, fix


def rewrite_mhchem(latex: str) -> str:
    r"""Replace every `\ce{…}`, `\cee{…}`, `\cf{…}` and `\pu{…}` by the TeX mhchem makes.

    A `\ce` inside `\text{…}` is set as math there (`$…$`), as LaTeX's mhchem sets it.

    Raises:
        MathUnsupportedError: at the construct of the argument that is not read here, or
            at the command when it has no `{…}` argument.
    """
    if not any(sign in latex for sign in SIGNS):
        return latex
    out, last = [], 0
    for match in COMMAND.finditer(latex):
        if match.start() < last:
            continue  # inside an argument already translated (`\ce{… \pu{…} …}`)
        start = match.end()
        while start < len(latex) and latex[start].isspace():
            start += 1
        if not latex.startswith("{", start):
            message = f"\\{match.group(1)} needs its argument in braces: write \\ce{{H2O}}"
            raise MathUnsupportedError(message, match.start(), match.group(0))
        argument, end = read_group(latex, start)
        try:
            tex = translate_pu(argument) if match.group(1) == "pu" else translate_ce(argument)
        except ChemError as exc:
            message = (
                f"\\{match.group(1)}{{…}}: {exc.what}; {exc.fix}"
                if exc.fix
                else f"mhchem's {exc.what} in \\{match.group(1)}{{…}} is not supported; "
                "write that part as math (\\mathrm{…}, _{…}, ^{…})"
            )
            raise MathUnsupportedError(message, start + 1 + exc.offset, match.group(0)) from None
        if _in_text(latex, match.start()):
            tex = f"${tex}$"
        out += [latex[last : match.start()], tex]
        last = end
    return "".join(out) + latex[last:]


def _in_text(latex: str, offset: int) -> bool:
    r"""Tell whether `offset` lies in the text of a `\text{…}`-like group, outside `$…$`."""
    for match in re.finditer(r"\\(?:text|textrm|mbox|textnormal)\s*\{", latex[:offset]):
        depth, dollars = 1, 0
        for char in latex[match.end() : offset]:
            depth += {"{": 1, "}": -1}.get(char, 0)
            dollars += char == "$"
            if depth == 0:
                break
        if depth > 0 and dollars % 2 == 0:
            return True
    return False


def translate_ce(argument: str) -> str:
    r"""Return the TeX of a `\ce{…}` argument: `2H2 + O2 -> 2H2O` → `{2\,\mathrm{H}_{2} …}`.

    Raises:
        ChemError: a construct this module does not read, at its offset in `argument`.
    """
    tex = _Equation(argument).read()
    return tex if "&" in tex or "\\\\" in tex else "{" + tex + "}"


@dataclass
class _Equation:
    r"""A cursor over `\ce`'s argument, read as words between spaces, operators and arrows.

    Attributes:
        text: the argument.
        base: the argument's offset in the outer `\ce`'s (for a nested label's errors).
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
            char, rest = self.text[self.pos], self.text[self.pos :]
            if char.isspace():
                self.pos += 1
                spaced = True
                continue
            piece, next_kind = self._item(rest, spaced, bool(out))
            if spaced and kind == next_kind == "word":
                out.append("~")  # two formulas side by side keep their space
            out.append(piece)
            kind, spaced = next_kind, False
        return "".join(out)

    def _item(self, rest: str, spaced: bool, started: bool) -> tuple[str, str]:
        """Read one arrow, operator, escape or word at `pos`; return (TeX, "word" or "")."""
        alone = len(rest) == 1 or rest[1].isspace()
        if arrow := ARROW.match(rest):
            self.pos += arrow.end()
            return self._arrow(arrow.group(0)), ""
        if spaced and alone and rest[0] in "+-=" and started:
            self.pos += 1
            return f" {{}}{OPERATORS[rest[0]]}{{}} ", ""
        if spaced and alone and rest[0] in "^v" and started:
            self.pos += 1  # a relation's spaces; \mathord: an arrow in a row never stretches
            return rf"\;\mathord{{{GAS[rest[0]]}}}\; ", ""
        if op := re.match(r"\\(?:pm|approx)(?![A-Za-z])", rest):
            self.pos += op.end()
            return f" {{}}{OPERATORS[op.group(0)]}{{}} ", ""
        if rest.startswith(("&", "\\\\")):
            width = 1 if rest[0] == "&" else 2
            self.pos += width
            return rest[:width] + " ", ""
        end = self._word_end()
        word, start = self.text[self.pos : end], self.pos
        self.pos = end
        nxt = self.text[end:].lstrip()
        if VARIABLE.fullmatch(word) or NUMBER.fullmatch(word) or re.fullmatch(r"\d+/\d+", word):
            if FORMULA_START.match(nxt) and not ARROW.match(nxt) and not ALONE.match(nxt):
                return _coefficient(word) + r"\,", ""
            if NUMBER.fullmatch(word):
                return word.replace(",", "{,}"), "word"
        return _Formula(word, self.base + start).read(), "word"

    def _word_end(self) -> int:
        """Return where the word at `pos` ends: a space, an arrow, `&` (groups skipped)."""
        index = self.pos
        while index < len(self.text):
            char = self.text[index]
            if char.isspace() or char == "&" or ARROW.match(self.text, index):
                break
            if char in "{$":
                index = _skip_group(self.text, index, self.base)
                continue
            if self.text.startswith("\\\\", index):
                break
            index += 1
        return index

    def _arrow(self, arrow: str) -> str:
        """Return the TeX of `arrow` with its `[above]` and `[below]` texts if they follow."""
        above = self._label() or ""
        below = self._label() if above else ""
        up = _arrow_text(above) if above or not below else ""
        down = f"[{_arrow_text(below)}]" if below else ""
        if arrow in LOPSIDED:
            long, stack, short = LOPSIDED[arrow]
            return rf"\mathrel{{{stack}{{\textstyle\mathord{{{short}}}}}{{{long}{down}{{{up}}}}}}}"
        return rf"{ARROWS[arrow]}{down}{{{up}}}"

    def _label(self) -> str | None:
        """Read an arrow's `[…]` text (mhchem, `$math$` or `{text}`); its TeX or None."""
        if not self.text.startswith("[", self.pos):
            return None
        depth, index = 0, self.pos
        while index < len(self.text):
            char = self.text[index]
            if char in "{$":
                index = _skip_group(self.text, index, self.base)
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
        if re.fullmatch(r"\$[^$]*\$", stripped):
            return rf"\mathrm{{{stripped[1:-1]}}}"
        if re.fullmatch(r"\{[^{}]*\}", stripped):
            return rf"\text{{{stripped[1:-1]}}}"
        return _Equation(inner, self.base + start).read()


def _arrow_text(label: str) -> str:
    r"""Return an arrow's text at least as wide as mhchem's shortest arrow (2em of script):
    `\hspace{2em}` for none, a short one centred on that width, a longer one as it is."""
    if not label:
        return r"\hspace{2em}"
    visible = re.sub(r"\\(?:mathrm|text|mathit)|[{}_^\s]", "", label)
    if len(re.sub(r"\\[A-Za-z]+", "x", visible)) <= 3:
        return rf"\hspace{{1em}}\mathclap{{{label}}}\hspace{{1em}}"
    return label


def _skip_group(text: str, index: int, base: int) -> int:
    """Return the offset after the `{…}` or `$…$` that starts at `index`."""
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


def _coefficient(word: str) -> str:
    """Return the TeX of a coefficient: `2`, `0.5`, `1/2` (a text-style fraction), `2n`, `$x$`."""
    if fraction := re.fullmatch(r"(\d+)/(\d+)", word):
        return rf"\tfrac{{{fraction.group(1)}}}{{{fraction.group(2)}}}"
    if word.startswith("$"):
        return word[1:-1] + " "
    return word.replace("$", "")


@dataclass
class _Formula:
    r"""A cursor over one word of `\ce`: a formula with its coefficient, isotope, scripts.

    Attributes:
        text: the word.
        base: its offset in the `\ce` argument, for errors.
        pos: the offset read so far.
        out: the TeX so far.
        last: what the TeX ends with: "" (nothing), "atom" (an element, a bracket, a Greek
            letter: digits after it are a subscript), "script" (a subscript or charge:
            further scripts go on an empty base), "math" (a `$…$` or Greek letter: `-` after
            it is a hyphen), "bond".
        letters: element letters not yet written (one `\mathrm{…}` per run).
    """

    text: str
    base: int
    pos: int = 0
    last: str = ""

    def __post_init__(self) -> None:
        self.out: list[str] = []
        self.letters = ""

    def read(self) -> str:
        """Read the word; return its TeX."""
        self._coefficient()
        while self.pos < len(self.text):
            self._step(self.text[self.pos :])
        self._flush()
        return "".join(self.out)

    def fail(self, what: str, at: int | None = None) -> ChemError:
        """Return the error for `what` at `at` (default: `pos`)."""
        return ChemError(what, self.base + (self.pos if at is None else at))

    def _emit(self, tex: str, last: str) -> None:
        self._flush()
        self.out.append(tex)
        self.last = last

    def _flush(self) -> None:
        if self.letters:
            self.out.append(rf"\mathrm{{{self.letters}}}")
            self.letters = ""

    def _coefficient(self) -> None:
        """Read a coefficient glued to the formula (`2H2O`, `1/2O2`, `0.5H2O`) and isotopes."""
        if orbital := ORBITAL.match(self.text, self.pos):  # `1s^2`: no space in it
            self.pos = orbital.end()
            self._emit(rf"{orbital.group(1)}\mathrm{{{orbital.group(2)}}}", "atom")
            return
        if match := COEFFICIENT.match(self.text, self.pos):
            self.pos = match.end()
            self._emit(_coefficient(match.group(0)) + r"\,", "")
        if self.text.startswith(("^", "_"), self.pos):
            self._isotope()

    def _isotope(self) -> None:
        r"""Read `^{227}_{90}` (either order, braces optional) before an element."""
        scripts = {"^": "", "_": ""}
        while (
            self.pos < len(self.text)
            and self.text[self.pos] in "^_"
            and self.pos + 1 < len(self.text)
        ):
            mark = self.text[self.pos]
            self.pos += 1
            scripts[mark] = self._script_value(r"-?\d+")
        if not re.match(r"[A-Za-z\\]", self.text[self.pos : self.pos + 1]):
            raise self.fail("isotope without an element after it")
        element = re.match(r"\\[A-Za-z]+|[A-Z][a-z]*|[a-z]", self.text[self.pos :])
        assert element is not None
        self.pos += element.end()
        symbol = element.group(0)
        self._emit(  # "script": its charge goes on an empty base, level with others
            rf"\prescript{{{scripts['^']}}}{{{scripts['_']}}}{{\mathrm{{{symbol}}}}}", "script"
        )

    def _script_value(self, bare: str) -> str:
        """Read a script's value: `{…}` (as written), `$…$`, or the `bare` pattern."""
        if self.text.startswith(("{", "$"), self.pos):
            end = _skip_group(self.text, self.pos, self.base)
            value, self.pos = self.text[self.pos + 1 : end - 1], end
            return value
        match = re.compile(bare).match(self.text, self.pos)
        if not match or not match.group(0):
            raise self.fail("a script without a value")
        self.pos = match.end()
        return match.group(0)

    def _script(self, mark: str, value: str, last: str = "script") -> None:
        """Write `^{value}` or `_{value}` on what came before (an empty base after a script)."""
        base = "{}" if self.last in ("script", "") and not self.letters else ""
        self._emit(f"{base}{mark}{{{value}}}", last)

    def _step(self, rest: str) -> None:  # noqa: C901 - one branch per mhchem construct
        """Read one construct of the formula at `pos`."""
        char = rest[0]
        if element := re.match(r"[A-Z][a-z]*|[a-z]+", rest):
            self.letters += element.group(0)
            self.pos += element.end()
            self.last = "atom"
        elif char.isdigit():
            digits = re.match(r"\d+", rest)
            assert digits is not None
            self.pos += digits.end()
            if self.last not in ("atom", "script") and not self.letters:
                raise self.fail(f"number `{digits.group(0)}` inside a formula")
            self._script("_", digits.group(0))
        elif char in "+-" and (len(rest) == 1 or rest[1] in ")]"):
            self.pos += 1
            self._script("^", char)
        elif char == "^":
            self._superscript()
        elif char == "_":
            self.pos += 1
            self._script("_", self._script_value(r"[A-Za-z0-9]|\\[A-Za-z]+"))
        elif char in "-=#" and self.last in ("atom", "script", "math"):
            self.pos += 1
            hyphen = char == "-" and self.last == "math"
            self._emit(r"\text{-}" if hyphen else BONDS[char], "bond")
        elif char in ".*" and self.last in ("atom", "script"):
            self.pos += 1
            self._emit(r"\,{\cdot}\,", "")
            self._coefficient()
        elif char == "(" and (state := STATE.match(rest)) and self.last in ("atom", "script"):
            self.pos += state.end()
            extra = state.group(2).replace("$", "")
            self._emit(rf"\mskip2mu (\mathrm{{{state.group(1)}}}{extra})", "state")
        elif char in "([])":
            self.pos += 1
            self._emit(char, "atom" if char in ")]" else "")
        elif greek := GREEK.match(rest):
            self.pos += greek.end()
            self._emit(rf"\mathrm{{{greek.group(0)}}}", "math")
        elif nested := re.match(r"\\(ce|pu)\s*\{", rest):
            end = _skip_group(self.text, self.pos + nested.end() - 1, self.base)
            argument = self.text[self.pos + nested.end() : end - 1]
            inner = translate_pu(argument) if nested.group(1) == "pu" else translate_ce(argument)
            self._emit(inner, "atom")
            self.pos = end
        elif rest.startswith("\\bond"):
            self._bond()
        elif char == "$":
            end = _skip_group(self.text, self.pos, self.base)
            self._emit(self.text[self.pos + 1 : end - 1] + " ", "math")
            self.pos = end
        elif char == "{":
            end = _skip_group(self.text, self.pos, self.base)
            self._emit(rf"{{\text{{{self.text[self.pos + 1 : end - 1]}}}}}", "math")
            self.pos = end
        else:
            raise self.fail(_describe(rest))

    def _superscript(self) -> None:
        r"""Read `^…`: a charge (`^2-`, `^{n+}`), an oxidation state (`^{II}`)."""
        start = self.pos
        self.pos += 1
        value = self._script_value(r"\d*[+-]|\d+|[a-z][+-]")
        if ROMAN.fullmatch(value) and value != "0":
            self._script("^", rf"\mathrm{{{value}}}")
        elif re.fullmatch(r"[\w+\-\\ ]*", value) and "." not in value:
            self._script("^", value.replace(" ", ""))
        else:
            raise self.fail(f"superscript `^{{{value}}}`", start)

    def _bond(self) -> None:
        r"""Read `\bond{…}`."""
        start = self.pos
        self.pos += len("\\bond")
        if not self.text.startswith("{", self.pos):
            raise self.fail("\\bond without `{…}`", start)
        end = _skip_group(self.text, self.pos, self.base)
        kind = self.text[self.pos + 1 : end - 1]
        if kind not in BONDS:
            raise self.fail(f"bond `\\bond{{{kind}}}`", start)
        self.pos = end
        self._emit(BONDS[kind], "bond")


def _describe(rest: str) -> str:
    """Name the construct that starts `rest`, for the message."""
    if command := re.match(r"\\[A-Za-z]+", rest):
        return f"command {command.group(0)}"
    return f"`{rest[:12]}`"


# \pu: a number, then units.
PU_NUMBER = re.compile(
    r"(?P<sign>[+-]|−)?(?P<digits>\d+(?:[.,]\d+)?|[.,]\d+)"
    r"(?:\s*(?P<e>[eE])(?P<exp>[+-]?\d+)"
    r"|\s*(?P<times>[x×*·])\s*10\^(?:\{(?P<exp2>[+-]?\d+)\}|(?P<exp3>[+-]?\d+)))?"
)
UNIT = re.compile(
    r"(?P<name>°[A-Za-z]*|\\%|%|\\(?:mu|Omega|circ|degree)(?![A-Za-z])[A-Za-z]*"
    r"|[A-Za-zµμΩÅ]+)"
    r"(?:\^?(?P<power>[+-−]?\d+)|\^\{(?P<braced>[+-−]?\d+)\})?"
)


def translate_pu(argument: str) -> str:
    r"""Return the TeX of a `\pu{…}` argument: `123 kJ/mol` → `{123~\mathrm{kJ}/\mathrm{mol}}`.

    Raises:
        ChemError: a construct this module does not read, at its offset in `argument`.
    """
    text = argument.strip()
    lead = len(argument) - len(argument.lstrip())
    number = PU_NUMBER.match(text)
    parts = []
    rest_at = 0
    if number:
        parts.append(_pu_number(number))
        rest_at = number.end()
    units = text[rest_at:].strip()
    if units:
        units_at = lead + rest_at + (len(text[rest_at:]) - len(text[rest_at:].lstrip()))
        parts.append(_pu_units(units, units_at))
    return "{" + "~".join(parts) + "}"


def _pu_number(match: re.Match[str]) -> str:
    r"""Return a number's TeX: `12345` → `12\mkern2mu 345`, `1.2e3` → `1.2\cdot 10^{3}`."""
    sign = "-" if match.group("sign") in ("-", "−") else match.group("sign") or ""
    whole, point, fraction = re.match(r"(\d*)([.,]?)(\d*)", match.group("digits")).groups()  # type: ignore[union-attr]
    if len(whole) > 4:
        whole = re.sub(r"(?<=\d)(?=(\d{3})+$)", r"\\mkern2mu ", whole)
    if len(fraction) > 4:
        fraction = re.sub(r"(\d{3})(?=\d)", r"\1\\mkern2mu ", fraction)
    tex = sign + whole + ("{,}" if point == "," else point) + fraction
    exponent = match.group("exp") or match.group("exp2") or match.group("exp3")
    if exponent is not None:
        times = (
            r"\times" if match.group("e") == "E" or match.group("times") in ("x", "×") else r"\cdot"
        )
        tex += rf"{times} 10^{{{exponent}}}"
    return tex


def _pu_units(units: str, offset: int) -> str:
    r"""Return units' TeX: `kJ mol-1` → `\mathrm{kJ}\mkern3mu \mathrm{mol}^{-1}`;
    `kJ//mol` a fraction."""
    if "//" in units:
        numerator, denominator = units.split("//", 1)
        top = _pu_units(numerator.strip(), offset)
        bottom = _pu_units(denominator.strip(), offset + units.index("//") + 2)
        return rf"\tfrac{{{top}}}{{{bottom}}}"
    out, pos = [], 0
    separators = {" ": r"\mkern3mu ", "*": r"\mkern1mu{\cdot}\mkern1mu ", "/": "/"}
    separators |= {"·": separators["*"], ".": separators["*"]}
    while pos < len(units):
        if units[pos] in separators:
            run = re.match(r"\s*([*·./])?\s*", units[pos:])
            assert run is not None
            out.append(separators[run.group(1) or " "])
            pos += run.end()
            continue
        unit = UNIT.match(units, pos)
        if not unit:
            raise ChemError(f"unit `{units[pos : pos + 12]}`", offset + pos)
        out.append(_pu_unit(unit))
        pos = unit.end()
    return "".join(out)


def _pu_unit(unit: re.Match[str]) -> str:
    r"""Return one unit's TeX: `mol-1` → `\mathrm{mol}^{-1}`, `°C` → `{}^{\circ}\mathrm{C}`."""
    name = unit.group("name")
    power = unit.group("power") or unit.group("braced")
    if name.startswith(("°", "\\circ", "\\degree")):
        letters = re.sub(r"^(°|\\circ|\\degree)", "", name)
        tex = r"{}^{\circ}" + (rf"\mathrm{{{letters}}}" if letters else "")
    elif name in ("%", "\\%"):
        tex = r"\%"
    else:
        tex = rf"\mathrm{{{name}}}"
    if power:
        tex += f"^{{{power.replace('−', '-')}}}"
    return tex
