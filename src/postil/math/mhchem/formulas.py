r"""One word of `\ce{…}` read as a formula: coefficient, isotope, elements, scripts, bonds.

mhchem's reading (the manual's "Chemical Formulas" to "Other Symbols and Shortcuts"):
element symbols upright, one `\mathrm{…}` a run; digits after an element or bracket a
subscript; `+`/`-` ending the word, or `^…`, a charge; `^{II}` an oxidation state;
`^{227}_{90}` before an element (or `^3` inside a formula before one) its isotope;
`(aq)` a state of aggregation; `.`/`*` an addition compound; `-`, `=`, `#`, `\bond{…}` bonds,
but `-` after a Greek letter or `$…$` before a letter a hyphen; `$…$` math, `{…}` text;
Kröger–Vink's `^x`, dots and primes stacked over the site (`Li^x_{Li,1-2x}`).
"""

from __future__ import annotations

import re

from postil.math.mhchem.grammar import (
    ADDUCT,
    BONDS,
    CHARGE,
    COEFFICIENT,
    GREEK,
    ORBITAL,
    PREFIX,
    RADICAL,
    ROMAN,
    SITE,
    STATE,
    ChemError,
    Reader,
    skip_group,
)


def coefficient_tex(word: str, offset: int, read: Reader) -> str:
    """Return the TeX of a coefficient: `2`, `0.5`, `1/2` (a text-style fraction), `(1/2)`
    (as written), `2n`, `$x$` (`read` reads the math)."""
    if fraction := re.fullmatch(r"(\d+)/(\d+)", word):
        return rf"\tfrac{{{fraction.group(1)}}}{{{fraction.group(2)}}}"
    if "$" in word:
        before, math = word.split("$", 1)
        return before + read(math.rstrip("$"), offset + len(before) + 1, True) + " "
    return word


class Formula:
    r"""A cursor over one word of `\ce`, writing its TeX.

    Attributes:
        text: the word.
        base: its offset in the `\ce` argument, for errors.
        read: reads what is nested in it (`$…$`, `\frac{…}{…}`'s arguments).
        pos: the offset read so far.
        out: the TeX so far.
        letters: element letters not yet written (one `\mathrm{…}` a run).
        last: what the TeX ends with: "" (nothing yet), "atom" (an element, a closing
            bracket, a Greek letter: digits after it are its subscript), "script" (a script
            or isotope: a charge after it goes on an empty base), "text", "state", "bond".
        hyphen: `-` here is a hyphen (after a Greek letter or `$…$`, through its scripts).
    """

    def __init__(self, text: str, base: int, read: Reader) -> None:
        self.text, self.base, self.pos, self.read_nested = text, base, 0, read
        self.out: list[str] = []
        self.letters, self.last, self.hyphen = "", "", False

    def read(self) -> str:
        """Read the word; return its TeX.

        Raises:
            ChemError: a construct postil does not read, at its offset.
        """
        if prefix := PREFIX.match(self.text):
            self.pos = prefix.end()
            self._emit(rf"{prefix.group(1)}\text{{-}}", "")
        self._coefficient()
        while self.pos < len(self.text):
            self._step(self.text[self.pos :])
        self._flush()
        return "".join(self.out)

    def fail(self, what: str, at: int | None = None) -> ChemError:
        """Return the error for `what` at `at` (default: `pos`)."""
        return ChemError(what, self.base + (self.pos if at is None else at))

    def _emit(self, tex: str, last: str, hyphen: bool = False) -> None:
        self._flush()
        self.out.append(tex)
        self.last, self.hyphen = last, hyphen

    def _flush(self) -> None:
        if self.letters:
            self.out.append(rf"\mathrm{{{self.letters}}}")
            self.letters = ""

    def _coefficient(self) -> None:
        """Read a coefficient glued to the formula (`2H2O`, `1/2O2`, `0.5H2O`), an orbital
        (`1s^2`, no space in it) or an isotope."""
        if orbital := ORBITAL.match(self.text, self.pos):
            self.pos = orbital.end()
            self._emit(rf"{orbital.group(1)}\mathrm{{{orbital.group(2)}}}", "atom", hyphen=True)
            return
        if match := COEFFICIENT.match(self.text, self.pos):
            self.pos = match.end()
            self._emit(coefficient_tex(match.group(0), self.base, self.read_nested) + r"\,", "")
        if self.text.startswith(("^", "_"), self.pos):
            self._isotope()

    def _isotope(self) -> None:
        r"""Read `^{227}_{90}` (either order, braces optional) and the element after it."""
        start, scripts = self.pos, {"^": "", "_": ""}
        while self.text[self.pos : self.pos + 1] in ("^", "_") and self.pos + 1 < len(self.text):
            mark = self.text[self.pos]
            self.pos += 1
            scripts[mark] = self._value(r"-?\d+", mark)
        element = re.match(r"\\[A-Za-z]+|[A-Z][a-z]*|[a-z]", self.text[self.pos :])
        numbers = all(re.fullmatch(r"-?\d*", value) for value in scripts.values())
        if not element or not numbers:
            raise self.fail("scripts before a formula that are no isotope", start)
        self.pos += element.end()
        symbol = element.group(0)
        mass, number = scripts["^"], scripts["_"]
        self._emit(rf"\prescript{{{mass}}}{{{number}}}{{\mathrm{{{symbol}}}}}", "script")

    def _value(self, bare: str, mark: str) -> str:
        """Read a script's value after `^` or `_`: `{…}` or `$…$` (as written, without its
        braces or dollars), or the `bare` pattern."""
        if self.text.startswith(("{", "$"), self.pos):
            end = skip_group(self.text, self.pos, self.base)
            value, self.pos = self.text[self.pos + 1 : end - 1], end
            return value
        match = re.compile(bare).match(self.text, self.pos)
        if not match or not match.group(0):
            raise self.fail(f"script `{mark}{self.text[self.pos : self.pos + 6]}`", self.pos - 1)
        self.pos = match.end()
        return match.group(0)

    def _script(self, mark: str, value: str) -> None:
        """Write `^{value}` or `_{value}` on what came before (an empty base after a script,
        as mhchem staggers a charge after a subscript)."""
        base = "{}" if self.last in ("script", "", "text", "state") and not self.letters else ""
        self._emit(f"{base}{mark}{{{value}}}", "script", self.hyphen)

    def _step(self, rest: str) -> None:  # noqa: C901 - one branch per mhchem construct
        """Read one construct of the formula at `pos`."""
        char = rest[0]
        if letters := re.match(r"[A-Z][a-z]*|[a-z]+", rest):
            self.pos += letters.end()
            self.letters += letters.group(0)
            self.last, self.hyphen = "atom", False
        elif char.isdigit():
            digits = re.match(r"\d+", rest)
            assert digits is not None
            if self.last not in ("atom", "script") and not self.letters:
                raise self.fail(f"number `{digits.group(0)}` inside a formula")
            self.pos += digits.end()
            self._script("_", digits.group(0))
        elif char in "+-" and (len(rest) == 1 or rest[1] in ")]"):
            self.pos += 1
            self._script("^", char)
        elif char == "^":
            self._superscript()
        elif char == "_":
            self._subscript()
        elif char == "'" and self.last in ("atom", "script"):
            self._primes()
        elif char == "-" and self.hyphen and re.match(r"-[A-Za-z\\]", rest):
            self.pos += 1
            self._emit(r"\text{-}", "bond")
        elif char in "-=#" and self.last in ("atom", "script", "text"):
            self.pos += 1
            self._emit(BONDS[char], "bond")
        elif char in ".*" and self.last in ("atom", "script"):
            self.pos += 1
            self._emit(ADDUCT, "")
            self._coefficient()
        elif char == "(" and self.last in ("atom", "script") and (state := STATE.match(rest)):
            self.pos += state.end()
            self._emit(rf"\mskip2mu {self._state(state)}", "state")
        elif char in "([])" or rest.startswith(("\\{", "\\}")):
            width = 2 if char == "\\" else 1
            self.pos += width
            self._emit(rest[:width], "atom" if rest[width - 1] in ")]}" else "")
        else:
            self._command_or_group(rest)

    def _command_or_group(self, rest: str) -> None:
        r"""Read a Greek letter, `\ca`, `\bond{…}`, a nested `\ce`/`\pu`, `$…$` or `{…}`."""
        if greek := GREEK.match(rest):
            self.pos += greek.end()
            self._emit(rf"\mathrm{{{greek.group(0)}}}", "atom", hyphen=True)
        elif re.match(r"\\ca(?![A-Za-z])", rest):
            self.pos += 3
            self._emit(r"{\sim}", "")
        elif rest.startswith("\\bond"):
            self._bond()
        elif re.match(r"\\(?:ce|pu)\s*\{", rest):
            end = skip_group(self.text, self.text.index("{", self.pos), self.base)
            self._emit(
                self.read_nested(self.text[self.pos : end], self.base + self.pos, True), "atom"
            )
            self.pos = end
        elif command := re.match(r"\\([A-Za-z]+)\s*", rest):
            self._command(command)
        elif rest[0] in "${":
            end = skip_group(self.text, self.pos, self.base)
            inner = self.text[self.pos + 1 : end - 1]
            if rest[0] == "$":
                math = self.read_nested(inner, self.base + self.pos + 1, True)
                self._emit(math + " ", "atom", hyphen=True)
            elif inner:
                self._emit(rf"{{\text{{{inner}}}}}", "text")
            else:
                self._emit("", "")  # `H{}^3HO`: `{}` ends what a script would attach to
            self.pos = end
        elif rest[0] == "°":
            self.pos += 1
            self._emit("°", "text")
        else:
            raise self.fail(f"`{rest[:12]}`")

    def _command(self, command: re.Match[str]) -> None:
        r"""Read another TeX command, as mhchem passes it on: `\color{c}{…}`, `\frac{…}{…}`,
        `\overset{…}{…}`, `\underset{…}{…}` with mhchem in their arguments; any other with
        its `{…}` arguments (`\text{Fe}`, `\mathrm{X}`), or alone (`\cdot`), as written."""
        name, start = command.group(1), self.pos
        self.pos = start + command.end()  # `command` matched the rest of the word
        arguments: list[tuple[str, int]] = []
        while self.text.startswith("{", self.pos) and len(arguments) < 2:
            end = skip_group(self.text, self.pos, self.base)
            arguments.append((self.text[self.pos + 1 : end - 1], self.base + self.pos + 1))
            self.pos = end
        if name in ("frac", "overset", "underset", "color") and len(arguments) == 2:
            first, second = (
                text if name == "color" and index == 0 else self.read_nested(text, offset, False)
                for index, (text, offset) in enumerate(arguments)
            )
            tex = rf"\{name}{{{first}}}{{{second}}}"
            self._emit("{" + tex + "}" if name == "color" else tex, "atom")
        elif arguments:
            self._emit(self.text[start : self.pos], "text")
        else:
            self._emit(self.text[start : self.pos].rstrip() + " ", "atom", hyphen=True)

    def _state(self, state: re.Match[str]) -> str:
        r"""Return a state of aggregation's TeX: `(\mathrm{aq})`, `(\mathrm{aq},\infty)`."""
        kind = state.group(1)
        if kind.startswith(("$", "\\ca")):
            kind = kind.replace("\\ca", r"{\sim}").replace("$", "")
        else:
            kind = rf"\mathrm{{{kind}}}"
        return f"({kind}{state.group(2).replace('$', '')})"

    def _superscript(self) -> None:
        r"""Read `^…`: a charge (`^2-`, `^{n+}`), an oxidation state (`^{II}`), a radical
        (`^{.-}`), an excited state (`^*`), Kröger–Vink's neutral `^x` and primes, or a mass
        number before an element (`H^3HO`)."""
        start = self.pos
        self.pos += 1
        value = self._value(CHARGE.pattern, "^")
        if value[-1] in "+-" and re.match(r"[A-Za-z\\]", self.text[self.pos : self.pos + 1]):
            self.pos -= 1  # `\eta^2-C2H4`: the `-` joins what follows (a hyphen or a bond)
            value = value[:-1]
        if value.isdigit() and re.match(r"[A-Z]", self.text[self.pos : self.pos + 1]):
            self.pos = start
            return self._isotope()
        self._attach_superscript(self._superscript_tex(value, start))

    def _superscript_tex(self, value: str, start: int) -> str:
        """Return a superscript's TeX (`value` as written between `^{` and `}`)."""
        if ROMAN.fullmatch(value):
            return rf"\mathrm{{{value}}}"
        if value == "x":
            return r"{\times}"
        if re.fullmatch(r"\d*'+", value):
            return value.replace("'", r"\prime ")
        if re.fullmatch(r"[\d().+\-]*\.[\d().+\-]*", value):
            return value.replace(".", RADICAL).rstrip()
        if re.fullmatch(r"[\w+\-*\\ ]*|\$[^$]*\$", value):
            return self.read_nested(value.replace(" ", "").strip("$"), self.base + start, True)
        raise self.fail(f"superscript `^{{{value}}}`", start)

    def _attach_superscript(self, tex: str) -> None:
        """Write a superscript; a subscript right after it (not a state) goes under it, as
        mhchem stacks Kröger–Vink's charge and site (`Li^x_{Li}`, `M^{..}_i`)."""
        if not self.text.startswith("_", self.pos):
            return self._script("^", tex)
        start = self.pos
        self.pos += 1
        value = self._value(r"\d+|[A-Za-z]|\\[A-Za-z]+", "_")
        if STATE.fullmatch(value):
            self._script("^", tex)
            return self._script("_", self._subscript_tex(value, start))
        base = "{}" if self.last in ("script", "", "text", "state") and not self.letters else ""
        self._emit(f"{base}^{{{tex}}}_{{{self._subscript_tex(value, start)}}}", "script")

    def _primes(self) -> None:
        """Read `'`, `''` after a formula: Kröger–Vink's negative charges, as primes."""
        primes = re.match(r"'+", self.text[self.pos :])
        assert primes is not None
        self.pos += primes.end()
        self._attach_superscript(r"\prime " * primes.end())

    def _subscript(self) -> None:
        r"""Read `_…`: digits, a letter, `{…}` (`{{red}}` text, `{(aq)}` a state), `$…$`, a
        Kröger–Vink site (`_{Li,1-2x}`)."""
        start = self.pos
        self.pos += 1
        value = self._value(r"\d+|[A-Za-z]|\\[A-Za-z]+", "_")
        self._script("_", self._subscript_tex(value, start))

    def _subscript_tex(self, value: str, start: int) -> str:
        """Return a subscript's TeX (`value` as written between `_{` and `}`)."""
        if state := STATE.fullmatch(value):
            return rf"\mskip1mu {self._state(state)}"
        if re.fullmatch(r"\{[^{}]*\}", value):
            return rf"\text{{{value[1:-1]}}}"
        if site := SITE.fullmatch(value):
            rest = site.group(2)
            after = "" if rest is None else r"{,}\mkern1mu " + rest.replace("$", "")
            return rf"\mathrm{{{site.group(1)}}}{after}"
        if re.fullmatch(r"[\w,.\-+\\ ]*|\$[^$]*\$", value):
            return self.read_nested(value.replace("$", ""), self.base + start, True)
        raise self.fail(f"subscript `_{{{value}}}`", start)

    def _bond(self) -> None:
        r"""Read `\bond{…}`."""
        start = self.pos
        self.pos += len("\\bond")
        if not self.text.startswith("{", self.pos):
            raise self.fail("\\bond without `{…}`", start)
        end = skip_group(self.text, self.pos, self.base)
        kind = self.text[self.pos + 1 : end - 1]
        if kind not in BONDS:
            raise self.fail(f"bond `\\bond{{{kind}}}`", start)
        self.pos = end
        self._emit(BONDS[kind], "bond")
