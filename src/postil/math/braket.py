r"""Dirac's bra-ket notation as the physics package writes it, and braket.sty's reading.

physics (MathJax's `physics` extension, mathjax/MathJax-src `ts/input/tex/physics`, section
2.6 of the package's manual): `\ket{\psi}` |ψ⟩, `\bra{\phi}` ⟨φ|, joined into one ⟨φ|ψ⟩
when a ket follows a bra; `\braket{a}{b}` ⟨a|b⟩ and `\braket{a}` ⟨a|a⟩; `\ketbra`,
`\expval`, `\mel`. The fences stretch (`\left…\right`, the inner bars `\middle`); one star
sets them at text size. KaTeX's and braket.sty's `\braket{a|b}`, one argument holding its
own bar, keeps that reading. Each handler takes a `TexReader` after the command's name and
returns the TeX it stands for (`physics.HANDLERS` lists them); a missing argument raises
`MathSyntaxError` at the command (`TexReader.missing`).
"""

from __future__ import annotations

import re

from postil.math.texreader import TexReader


def braket_form(stars: int, *parts: str) -> str:
    r"""Return ⟨a|b|c⟩ (two or three parts): stretchy, at the ends only, or unstretched."""
    if stars == 1:
        return r"\langle{" + r"}\vert{".join(parts) + r"}\rangle"
    if stars == 2 or len(parts) == 2:
        return r"\left\langle{" + r"}\middle\vert{".join(parts) + r"}\right\rangle"
    # Two pairs with the middle part between (Chromium stretches each pair); each pair in
    # braces is an Ord atom, so no Inner thin space opens between the bars and the middle
    # (physics sets one `\left…\middle…\right` group, whose bars have no spaces).
    first, middle, last = parts
    return (
        rf"{{\left\langle{{{first}}}\right\vert}}{{{middle}}}"
        rf"{{\left\vert{{{last}}}\right\rangle}}"
    )


def bra(reader: TexReader) -> str:
    r"""`\bra{a}`: ⟨a|; `\bra{a}\ket{b}` is one ⟨a|b⟩ (physics joins them)."""
    star = reader.star()
    bra = reader.argument(r"\bra{…}")
    after = reader.pos
    if reader.peek() == "\\" and re.match(r"\\ket(?![A-Za-z])", reader.latex[reader.pos :]):
        reader.pos += 4
        star = reader.star() or star
        if reader.peek() == "{":
            return braket_form(int(star), bra, reader.braced(""))
    reader.pos = after
    return rf"\langle{{{bra}}}\vert" if star else rf"\left\langle{{{bra}}}\right\vert"


def ket(reader: TexReader) -> str:
    r"""`\ket{a}`: |a⟩, stretchy; `\ket*{a}` unstretched."""
    star, ket = reader.star(), reader.argument(r"\ket{…}")
    return rf"\vert{{{ket}}}\rangle" if star else rf"\left\vert{{{ket}}}\right\rangle"


BARS = re.compile(r"(?<!\\)\||\\(?:vert|mid|lvert|rvert)(?![A-Za-z])")


def _top_level_bar(text: str) -> bool:
    r"""Return whether `text` has a bar outside braces (braket.sty's `\braket{a|b}`)."""
    depth = 0
    for index, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0) if text[index - 1 : index] != "\\" else 0
        if depth == 0 and BARS.match(text, index):
            return True
    return False


def inner_product(reader: TexReader) -> str:
    r"""`\braket{a}{b}`: ⟨a|b⟩; `\braket{a}`: ⟨a|a⟩ (physics); `\braket{a|b}` as written."""
    star = reader.star()
    bra = reader.argument(r"\braket{…}{…}")
    ket = reader.group()
    if ket is None and _top_level_bar(bra):  # braket.sty's and KaTeX's one argument
        return rf"{{\langle{{{bra}}}\rangle}}"
    return braket_form(int(star), bra, bra if ket is None else ket)


def outer_product(reader: TexReader) -> str:
    r"""`\ketbra{a}{b}`, `\op{a}{b}`: |a⟩⟨b|; one argument: |a⟩⟨a|."""
    star = reader.star()
    ket = reader.argument(rf"{reader.name}{{…}}{{…}}")
    bra = reader.group()
    bra = ket if bra is None else bra
    if star:
        return rf"\vert{{{ket}}}\rangle\!\langle{{{bra}}}\vert"
    return rf"\left\vert{{{ket}}}\middle\rangle\!\middle\langle{{{bra}}}\right\vert"


def expectation(reader: TexReader) -> str:
    r"""`\expval{A}`: ⟨A⟩; `\expval{A}{\psi}`: ⟨ψ|A|ψ⟩."""
    stars = reader.star() + (reader.star() if reader.latex[reader.pos - 1] == "*" else 0)
    operator = reader.argument(rf"{reader.name}{{…}}")
    state = reader.group()
    if state is None:
        return (
            rf"\langle{{{operator}}}\rangle"
            if stars
            else rf"\left\langle{{{operator}}}\right\rangle"
        )
    return braket_form(stars, state, operator, state)


def matrix_element(reader: TexReader) -> str:
    r"""`\mel{a}{H}{b}`: ⟨a|H|b⟩."""
    stars = reader.star() + (reader.star() if reader.latex[reader.pos - 1] == "*" else 0)
    how = rf"{reader.name}{{…}}{{…}}{{…}}"
    return braket_form(stars, reader.braced(how), reader.braced(how), reader.braced(how))
