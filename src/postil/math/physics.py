r"""The physics package's commands (MathJax's `physics` extension) as TeX rewrites.

Posts about quantum mechanics and machine learning load `physics` in MathJax
(`\require{physics}`) for `\abs{x}`, `\qty(…)`, `\dv{f}{x}`, `\ket{\psi}`, `\expval{A}`,
`\comm{A}{B}` … Each is rewritten here into TeX latex2mathml reads, after the `macros`
pass: a post's own `\newcommand{\abs}…`, `\DeclarePairedDelimiter\abs…` or site macro of
the same name is expanded there first, so it always wins, and a macro's body may use
these commands. The meanings, optional arguments and stars follow MathJax's physics
(mathjax/MathJax-src `ts/input/tex/physics`; the LaTeX package's manual, section 2):
automatic bracing stretches (`\left…\right`), the starred form does not; `\dd` and `\dv`
set an upright d. Names LaTeX already gives another meaning (`\Re` ℜ, `\Im` ℑ, `\sin(…)`
unstretched) keep it: a post that never loads physics means those; `\div` is ÷ after an
operand and physics' divergence where no operand comes before it. Also here:
mathtools' `\smashoperator[lr]{…}` (the operator as it is; its limits are not smashed).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from postil.math.braket import bra, expectation, inner_product, ket, matrix_element, outer_product
from postil.math.errors import MathSyntaxError
from postil.math.texreader import TexReader

Handler = Callable[[TexReader], str]
PAIRS = {"(": ")", "[": "]", "|": "|"}
MAX_REWRITES = 2000
COMMAND = re.compile(r"\\(?:([A-Za-z]+)|.)", re.DOTALL)


def _fences(opening: str, closing: str, body: str, star: bool, size: str | None) -> str:
    r"""Return `body` between fences: stretchy (`\left`), at a `\big` size, or as written."""
    if star:
        return f"{opening} {body} {closing}"
    if size:
        return rf"\{size}l{opening} {body} \{size}r{closing}"
    return rf"\left{opening} {body} \right{closing}"


def _auto_fence(reader: TexReader) -> str:
    """Read `(…)` or `[…]` if one follows (physics sizes no other fence after an operator),
    as stretchy fences; else ""."""
    opening = reader.peek()
    if opening not in "([" or not opening:
        return ""
    body = reader.fenced(opening, PAIRS[opening])
    return _fences(opening, PAIRS[opening], body, False, None)


def _quantity(reader: TexReader) -> str:
    r"""`\qty(…)`, `\qty[…]`, `\qty|…|`, `\qty{…}` (braces shown): stretchy fences."""
    size, opening = reader.size(), reader.peek()
    if opening == "{":
        return _fences(r"\{", r"\}", reader.braced(""), False, size)
    if opening not in PAIRS or not opening:
        raise reader.missing(rf"{reader.name}(…), {reader.name}[…], {reader.name}|…| or {{…}}")
    closing = PAIRS[opening]
    body = reader.fenced(opening, closing)
    bars = {"|": (r"\vert", r"\vert")}.get(opening, (opening, closing))
    return _fences(*bars, body, False, size)


def _bracing(opening: str, closing: str, before: str = "") -> Handler:
    r"""Make a handler of `\abs{x}`-like commands: `before` then `{x}` in fixed fences."""

    def handler(reader: TexReader) -> str:
        star, size = reader.star(), reader.size()
        body = reader.braced(rf"{reader.name}{{…}}")
        return before + _fences(opening, closing, body, star, size)

    return handler


def _commutator(opening: str, closing: str) -> Handler:
    r"""Make a handler of `\comm{A}{B}`-like commands: `[A,B]` in stretchy fences."""

    def handler(reader: TexReader) -> str:
        star, size = reader.star(), reader.size()
        how = rf"{reader.name}{{…}}{{…}}"
        first, second = reader.braced(how), reader.braced(how)
        return _fences(opening, closing, f"{first},{second}", star, size)

    return handler


def _evaluated(reader: TexReader) -> str:
    r"""`\eval{x}_a^b`, `\eval(x)|_a^b`: a bar as tall as an integral after `x`."""
    reader.star()
    opening = reader.peek()
    if opening in ("(", "["):
        body = reader.fenced(opening, "|")
        return rf"\left{opening} {body} \vphantom{{\int}}\right|"
    body = reader.braced(rf"{reader.name}{{…}}_a^b or {reader.name}(…|_a^b")
    return rf"\left. {body} \vphantom{{\int}}\right|"


GREEK_LOWER = re.compile(
    r"\\(?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi"
    r"|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega)"
)


def _vector(template: str) -> Handler:
    r"""Make a handler of `\vb`-like commands: bold upright, starred bold italic; a
    lowercase Greek letter is bold only starred (no upright bold one in TeX's fonts)."""

    def handler(reader: TexReader) -> str:
        star = reader.star()
        body = reader.argument(rf"{reader.name}{{…}}")
        if not star and GREEK_LOWER.fullmatch(body.strip()):
            return template.format(body)
        font = r"\boldsymbol" if star else r"\mathbf"
        return template.format(f"{font}{{{body}}}")

    return handler


def _applied(operator: str) -> Handler:
    r"""Make a handler of `\grad`-like operators: `(…)` or `[…]` after them stretch."""

    def handler(reader: TexReader) -> str:
        return operator + " " + _auto_fence(reader)

    return handler


def _divergence_or_division(reader: TexReader) -> str:
    r"""`\div`: LaTeX's ÷ after an operand (`a \div b`); physics' divergence ∇⋅ where no
    operand precedes it and one follows (`= \div{\vb{E}}`, `\div\vb{E}` first), since a
    binary ÷ needs an operand on each side. Returned unchanged when it stays ÷."""
    before = reader.latex[: reader.start].rstrip()[-1:]
    after = reader.peek()
    if (before != "" and (before.isalnum() or before in ")]}|'")) or after in ("", "}", "&"):
        return reader.latex[reader.start : reader.pos]
    if after == "\\" and reader.latex.startswith(("\\\\", "\\right", "\\end"), reader.pos):
        return reader.latex[reader.start : reader.pos]
    return _applied(NABLA + r"\cdot")(reader)


def _function(name: str) -> Handler:
    r"""Make a handler of a function name (`\tr`): `\operatorname`, `(…)` after it stretching."""
    return _applied(rf"\operatorname{{{name}}}")


def _differential(symbol: str) -> Handler:
    r"""Make a handler of `\dd`/`\var`: `\dd{x}`, `\dd[3]{x}`, `\dd x`, `\dd(x)`."""

    def handler(reader: TexReader) -> str:
        power = reader.optional()
        operator = symbol + (f"^{{{power}}}" if power is not None else "")
        if reader.peek() == "(":
            return operator + _auto_fence(reader)
        if reader.peek() == "{":
            return _operator_spaces(reader, f"{operator} {{{reader.braced('')}}}")
        return f"{operator} "

    return handler


def _operator_spaces(reader: TexReader, atom: str) -> str:
    r"""Space `atom` as TeX spaces an Op atom (physics' `\dd{x}`): a thin space after an
    operand before it and before an operand after it (The TeXbook, ch. 18)."""
    before = reader.latex[: reader.start].rstrip()[-1:]
    after = reader.peek()
    space_before = before != "" and (before.isalnum() or before in ")]}|'")
    return (r"\," if space_before else "") + atom + (r"\," if after.isalnum() else "")


def _derivative(symbol: str, most: int) -> Handler:
    r"""Make a handler of `\dv`/`\pdv`/`\fdv`: `\dv[n]{f}{x}`, `\dv{x}`, `\pdv{f}{x}{y}`."""

    def handler(reader: TexReader) -> str:
        star, order = reader.star(), reader.optional()
        args = [reader.braced(rf"{reader.name}{{f}}{{x}}")]
        while len(args) < most and reader.peek() == "{":
            args.append(reader.braced(""))
        top, bottom = (args[0], args[1:]) if len(args) > 1 else ("", args)
        up = down = f"^{{{order}}}" if order is not None else ""
        if len(bottom) > 1:
            up, down = f"^{{{len(bottom)}}}", ""
        under = " ".join(f"{symbol} {{{x}}}" for x in bottom[:1]) + down
        under += "".join(f" {symbol} {{{x}}}" for x in bottom[1:])
        over = f"{symbol}{up} {{{top}}}" if top else f"{symbol}{up}"
        fraction = f"{{{over}}}/{{{under}}}" if star else rf"\frac{{{over}}}{{{under}}}"
        return fraction + _auto_fence(reader)

    return handler


def _flat_fraction(reader: TexReader) -> str:
    r"""`\flatfrac{a}{b}`: a/b on one line."""
    how = rf"{reader.name}{{…}}{{…}}"
    return f"{{{reader.braced(how)}}}/{{{reader.braced(how)}}}"


MATRIX_FENCES = {"(": "pmatrix", "[": "bmatrix", "|": "vmatrix", "{": "matrix"}


def _matrix(fixed: str | None) -> Handler:
    r"""Make a handler of `\mqty(…)` (its fence picks the matrix) or `\pmqty{…}` & co."""

    def handler(reader: TexReader) -> str:
        reader.star()
        opening = reader.peek()
        if fixed is not None:
            body = reader.braced(rf"{reader.name}{{a & b \\ c & d}}")
            return rf"\begin{{{fixed}}} {body} \end{{{fixed}}}"
        if opening not in MATRIX_FENCES or not opening:
            raise reader.missing(rf"{reader.name}(a & b \\ c & d)")
        if opening == "{":
            body = reader.braced("")
        else:
            body = reader.fenced(opening, PAIRS[opening])
        name = MATRIX_FENCES[opening]
        return rf"\begin{{{name}}} {body} \end{{{name}}}"

    return handler


def _small_matrix(fence: str | None) -> Handler:
    r"""Make a handler of `\smqty(…)` (its fence) or `\spmqty{…}` & co.: a `smallmatrix`
    between stretchy fences."""

    def handler(reader: TexReader) -> str:
        reader.star()
        opening = fence or reader.peek()
        if fence is not None or opening == "{":
            body = reader.braced(rf"{reader.name}{{a & b \\ c & d}}")
        elif opening in PAIRS and opening:
            body = reader.fenced(opening, PAIRS[opening])
        else:
            raise reader.missing(rf"{reader.name}(a & b \\ c & d)")
        table = rf"\begin{{smallmatrix}} {body} \end{{smallmatrix}}"
        if opening == "{":
            return table
        return _fences(
            *{"|": (r"\vert", r"\vert")}.get(opening, (opening, PAIRS[opening])), table, False, None
        )

    return handler


PAULI = {"0": r"1 & 0 \\ 0 & 1", "x": r"0 & 1 \\ 1 & 0", "y": r"0 & -i \\ i & 0"}
PAULI |= {"z": r"1 & 0 \\ 0 & -1", "1": PAULI["x"], "2": PAULI["y"]}
PAULI["3"] = PAULI["z"]


def _pauli(reader: TexReader) -> str:
    r"""`\pmat{x}`: the rows of Pauli's matrix σx (0 the identity; 1, 2, 3 or x, y, z), to be
    put in a matrix (`\mqty(\pmat{x})`), as physics has them."""
    which = reader.braced(r"\pmat{x}").strip()
    if which not in PAULI:
        message = (
            rf"\pmat{{{which}}} names no Pauli matrix: write \pmat{{0}}, {{x}}, {{y}} or {{z}}"
        )
        raise MathSyntaxError(message, reader.start, reader.name)
    return PAULI[which]


def _identity(reader: TexReader) -> str:
    r"""`\imat{n}`: the rows of the n×n identity matrix (`\mqty(\imat{3})`), as physics has them."""
    size = reader.braced(r"\imat{n}").strip()
    if not size.isdigit() or not 0 < int(size) <= 50:
        message = rf"\imat{{{size}}} needs a size from 1 to 50: write \imat{{3}}"
        raise MathSyntaxError(message, reader.start, reader.name)
    n = int(size)
    return r" \\ ".join(" & ".join("1" if i == j else "0" for j in range(n)) for i in range(n))


def _quick_text(word: str | None) -> Handler:
    r"""Make a handler of `\qq{text}` (or `\qand`, …): the text with a quad on each side."""

    def handler(reader: TexReader) -> str:
        star = reader.star()
        text = word if word is not None else reader.braced(rf"{reader.name}{{…}}")
        return ("" if star else r"\quad") + rf"\text{{{text}}}\quad "

    return handler


def _smash_operator(reader: TexReader) -> str:
    r"""mathtools' `\smashoperator[lr]{\sum_…}`: the operator (its limits take their room)."""
    reader.optional()
    return "{" + reader.argument(r"\smashoperator{\sum_{…}}") + "}"


DIFF_D = r"\mathrm{d}"
NABLA = r"\boldsymbol{\nabla}"
QUICK_WORDS = "if then else otherwise unless given using assume since let for all even odd"
HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(("qty", "quantity"), _quantity),
    "pqty": _bracing("(", ")"),
    "bqty": _bracing("[", "]"),
    **dict.fromkeys(("vqty", "abs", "absolutevalue"), _bracing(r"\vert", r"\vert")),
    "Bqty": _bracing(r"\{", r"\}"),
    "norm": _bracing(r"\Vert", r"\Vert"),
    "order": _bracing("(", ")", r"\mathcal{O}"),
    **dict.fromkeys(("eval", "evaluated"), _evaluated),
    **dict.fromkeys(("comm", "commutator"), _commutator("[", "]")),
    **dict.fromkeys(("acomm", "anticommutator", "pb", "poissonbracket"), _commutator(r"\{", r"\}")),
    **dict.fromkeys(("vb", "vectorbold"), _vector("{}")),
    **dict.fromkeys(("va", "vectorarrow"), _vector(r"\vec{{{}}}")),
    **dict.fromkeys(("vu", "vectorunit"), _vector(r"\hat{{{}}}")),
    **dict.fromkeys(("grad", "gradient"), _applied(NABLA)),
    "divergence": _applied(NABLA + r"\cdot"),
    "div": _divergence_or_division,
    **dict.fromkeys(("curl",), _applied(NABLA + r"\times")),
    "laplacian": _applied(r"\nabla^2"),
    **dict.fromkeys(("cross", "crossproduct", "cp"), lambda reader: r"\times "),
    **dict.fromkeys(("vdot", "dotproduct"), lambda reader: r"\cdot "),
    **{name: _function(name) for name in ("tr", "Tr", "rank", "erf", "Res")},
    "trace": _function("tr"),
    "Trace": _function("Tr"),
    **dict.fromkeys(("pv", "principalvalue"), _applied(r"\mathcal{P}")),
    "PV": _applied(r"\operatorname{P.V.}"),
    **dict.fromkeys(("dd", "differential"), _differential(DIFF_D)),
    **dict.fromkeys(("var", "variation"), _differential(r"\delta")),
    **dict.fromkeys(("dv", "derivative"), _derivative(DIFF_D, 2)),
    **dict.fromkeys(("pdv", "partialderivative", "pderivative"), _derivative(r"\partial", 3)),
    **dict.fromkeys(("fdv", "functionalderivative", "fderivative"), _derivative(r"\delta", 2)),
    "flatfrac": _flat_fraction,
    "bra": bra,
    "ket": ket,
    **dict.fromkeys(("braket", "innerproduct", "ip"), inner_product),
    **dict.fromkeys(("ketbra", "outerproduct", "dyad", "op"), outer_product),
    **dict.fromkeys(("expval", "expectationvalue", "ev"), expectation),
    **dict.fromkeys(("mel", "matrixel", "matrixelement"), matrix_element),
    **dict.fromkeys(("mqty", "matrixquantity"), _matrix(None)),
    **dict.fromkeys(("pmqty", "Pmqty"), _matrix("pmatrix")),
    "bmqty": _matrix("bmatrix"),
    **dict.fromkeys(("vmqty", "mdet", "matrixdeterminant"), _matrix("vmatrix")),
    **dict.fromkeys(("smqty", "smallmatrixquantity"), _small_matrix(None)),
    **{"spmqty": _small_matrix("("), "sPmqty": _small_matrix("(")},
    **{"sbmqty": _small_matrix("["), "svmqty": _small_matrix("|"), "smdet": _small_matrix("|")},
    **dict.fromkeys(("pmat", "paulimatrix"), _pauli),
    **dict.fromkeys(("imat", "identitymatrix"), _identity),
    **dict.fromkeys(("qq", "qqtext"), _quick_text(None)),
    **{f"q{word}": _quick_text(word) for word in QUICK_WORDS.split()},
    **{"qand": _quick_text("and"), "qor": _quick_text("or"), "qas": _quick_text("as")},
    **{"qin": _quick_text("in"), "qcc": _quick_text("c.c.")},
    **dict.fromkeys(("qc", "qcomma"), lambda reader: r"\text{,}\quad "),
    "smashoperator": _smash_operator,
}


ANY_COMMAND = re.compile(
    r"\\(?:" + "|".join(sorted(map(re.escape, HANDLERS), key=len, reverse=True)) + r")(?![A-Za-z])"
)
"""Any physics command: one search in C tells the formulas without one (nearly all) apart."""


def rewrite_physics(latex: str) -> str:
    r"""Rewrite every physics command of `HANDLERS` into TeX latex2mathml reads.

    Commands inside a rewritten command's arguments are rewritten in turn (the scan
    resumes at the rewrite's start).

    Raises:
        MathSyntaxError: a command without its argument, or a fence never closed, at the
            command's offset in `latex`, or -1 when it lies in what an earlier rewrite
            made (a command in another's argument: the caller locates it by name).
    """
    if "\\" not in latex or ANY_COMMAND.search(latex) is None:
        return latex
    pos, delta, limit = 0, 0, 0
    for _ in range(MAX_REWRITES):
        match = _next_command(latex, pos)
        if match is None:
            return latex
        reader = TexReader(latex, match.start(), match.end(), match.group(0))
        try:
            replacement = HANDLERS[match.group(1)](reader)
        except MathSyntaxError as exc:
            offset = exc.offset - delta if exc.offset >= limit else -1
            raise MathSyntaxError(exc.message, offset, exc.command) from None
        if replacement == latex[match.start() : reader.pos]:
            pos = reader.pos  # left as written (`a \div b`)
            continue
        grown = len(replacement) - (reader.pos - match.start())
        limit = max(limit + grown, match.start() + len(replacement))
        delta += grown
        latex = latex[: match.start()] + replacement + latex[reader.pos :]
        pos = match.start()
    raise MathSyntaxError("the physics commands nest too deeply to rewrite", 0)


def _next_command(latex: str, pos: int) -> re.Match[str] | None:
    """Return the next physics command at or after `pos` (`\\\\` and `\\{` skipped)."""
    for match in COMMAND.finditer(latex, pos):
        if match.group(1) in HANDLERS:
            return match
    return None
