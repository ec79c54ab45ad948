r"""mathtools' paired delimiters: `\DeclarePairedDelimiter\abs{\lvert}{\rvert}` and its X form.

A paired delimiter is a macro with a star and an optional size: `\abs{x}` is `x` between
the delimiters at their natural size, `\abs*{x}` between `\left…\right` ones that stretch,
`\abs[\big]{x}` between `\bigl…\bigr` ones (mathtools' manual, section 3.6.1).
`\DeclarePairedDelimiterX\inner[2]{\langle}{\rangle}{#1, #2}` takes n arguments into its
body, where `\delimsize` is the size (`\middle` for the star) so inner bars can follow it.

Such a definition is kept among the post's macros as one string (`PAIRED`, then the
delimiters and the body), so it travels with them from formula to formula and into the
cache key like any macro, and `macros.expand_macros` hands its calls to `expand_paired`.
"""

from __future__ import annotations

import re

from postil.math.errors import MathSyntaxError
from postil.math.texreader import macro_arity, read_group, substitute_arguments

PAIRED = "\x00paired\x00"
SIZE = re.compile(r"\s*\[\s*\\([A-Za-z]+)\s*\]")
DELIMSIZE = re.compile(r"\\delimsize(?![A-Za-z])")


def is_paired(body: str) -> bool:
    """Return whether a macro body is a paired delimiter's (`PAIRED`)."""
    return body.startswith(PAIRED)


def paired_body(opening: str, closing: str, body: str = "#1") -> str:
    r"""Return the macro body of a paired delimiter: `PAIRED`, the fences, the body.

    Args:
        opening, closing: the delimiters as written (`\lvert`, `\rvert`).
        body: what goes between them, with `#1`…`#9` (`#1` for the plain form).
    """
    return f"{PAIRED}{opening}\x00{closing}\x00{body}"


def read_paired_definition(latex: str, pos: int, extended: bool) -> tuple[str, str, int]:
    r"""Read `\abs{\lvert}{\rvert}` (or the X form's `\inner[2]{…}{…}{body}`) at `pos`.

    Returns:
        (the name without backslash, its `paired_body`, the offset after the definition).

    Raises:
        MathSyntaxError: the name, a delimiter or the body is missing.
    """
    raw_name, pos = read_group(latex, pos)
    arity = re.match(r"\s*\[(\d)\]", latex[pos:]) if extended else None
    if arity:
        pos += arity.end()
    opening, pos = read_group(latex, pos)
    closing, pos = read_group(latex, pos)
    body = "#1"
    if extended:
        body, pos = read_group(latex, pos)
    return raw_name.strip().lstrip("\\"), paired_body(opening, closing, body), pos


def expand_paired(latex: str, start: int, pos: int, body: str) -> tuple[str, int]:
    r"""Expand the call of a paired delimiter whose name spans `start`…`pos` in `latex`.

    Returns:
        (`latex` with the call replaced by its expansion, `start`).

    Raises:
        MathSyntaxError: an argument is missing, at the call.
    """
    opening, closing, inner = body[len(PAIRED) :].split("\x00", 2)
    star = latex[pos : pos + 1] == "*"
    pos += star
    size = SIZE.match(latex, pos)
    if size:
        pos = size.end()
    args = []
    for _ in range(macro_arity(inner)):
        if latex[pos:].strip()[:1] in ("", "}", "&"):
            name = latex[start:pos].split("*")[0].split("[")[0]
            message = f"{name} is missing its argument: write {name}{{…}}"
            raise MathSyntaxError(message, start, name)
        arg, pos = read_group(latex, pos)
        args.append(arg)
    inner = substitute_arguments(inner, args)
    fences = _fences(opening, closing, star, size.group(1) if size else None)
    inner = DELIMSIZE.sub(lambda _: fences[2], inner)
    return latex[:start] + f"{fences[0]} {inner} {fences[1]}" + latex[pos:], start


def _fences(opening: str, closing: str, star: bool, size: str | None) -> tuple[str, str, str]:
    r"""Return (the opening fence, the closing one, what `\delimsize` stands for)."""
    if star:
        return rf"\left{opening}", rf"\right{closing}", r"\middle"
    if size:
        return rf"\{size}l{opening}", rf"\{size}r{closing}", rf"\{size}"
    return opening, closing, ""
