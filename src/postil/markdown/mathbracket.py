r"""`\[f(x)\]` in a line of prose: display math or Markdown's escaped brackets.

CommonMark reads `\[` as an escaped `[` (jgm in jgm/pandoc#2707), and Pandoc's markdown
writer, R Markdown's `md_document`, Prettier and mdformat write it for every literal
bracket (`median\[IQR\]`, `R\[-1\]C\[-1\]`); MathJax's default delimiters and Pandoc's
`tex_math_single_backslash` read it as display math (goessner/markdown-it-texmath#9,
goessner/mdmath#66: `\[f^2\] \(f^3\)` on one line is meant as math). `postil.markdown.math`
keeps a pair as math when its content is TeX (a command or a math sign), when it stands
alone on its line or spans lines; a pair inside prose whose content is no TeX is brackets.

That leaves formulas written without any TeX sign, such as `We have \[f(x)\] for all x`
or `the map \[T\] is`: letters and a function's arguments. They are math when the post
writes other formulas between backslash delimiters (the author writes for MathJax, whose
`\[` is display math); in a post without such formulas they stay brackets, with a warning
at their place saying how to write display math, so the reading is never silent.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from postil.markdown.state import get_state

FORMULA_SHAPED = re.compile(r"\s*[A-Za-z]'*\s*(?:\(\s*[\w ,.']{1,40}\))?\s*")
r"""Content of a pair that reads as a formula though it holds no TeX sign: one letter, maybe
primed, maybe applied to arguments (`f(x)`, `P(A)`, `g(x, y)`); not a word (`IQR`), a number
(`4`, `-1`) or a task box (`x`, `X`: `FORMULA_EXCLUDED`)."""

FORMULA_EXCLUDED = frozenset({"x", "X"})
"""A task list's ticked box, `\\[x\\]` once Prettier escapes it, is no formula."""

BACKSLASH_MATH = re.compile(r"\\\[(.{1,400}?)\\\]|\\\((.{1,400}?)\\\)", re.S)
r"""A pair of backslash delimiters anywhere in a post, with what it holds."""

PROSE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}(?:[ ,;:]+[A-Za-z]{2,}){3}")
"""Four words in a row outside commands: a sentence, not TeX."""

COMMAND = re.compile(r"\\[A-Za-z]")
"""A TeX command's start."""

TEX_SIGN = re.compile(r"[\\^_=+{}<>]")
"""What only TeX (or math) writes: a command, a script, a relation (as `math.TEX_SIGN`)."""

PAIRS_LOOKED_AT = 200
"""How many backslash pairs `writes_backslash_math` reads at most (a bound, so a post of
thousands of escaped brackets costs no more than this)."""

AMBIGUOUS_BRACKETS = (
    "`{written}` is read as the brackets `[{content}]` (CommonMark's escaped `[`), as the "
    "post writes no other formula between `\\[` and `\\]` or `\\(` and `\\)`; for display "
    "math put it on a line of its own or write `$${content}$$`, for brackets write "
    "`[{content}]`"
)
"""The warning for a formula-shaped `\\[…\\]` left as brackets in prose."""


def formula_shaped(content: str) -> bool:
    r"""Tell whether the content of `\[…\]` reads as a formula without any TeX sign."""
    if content.strip() in FORMULA_EXCLUDED:
        return False
    return FORMULA_SHAPED.fullmatch(content) is not None


def parenthesised_prose(content: str) -> bool:
    r"""Tell whether the content of `\(…\)` is a sentence in Markdown's escaped
    parentheses, not math, wherever the pair stands: no command and four words in a row
    (`PROSE`). Pandoc's markdown writer escapes every literal parenthesis, so a translated
    book's notes read `**二项独立模型**\(the binary independence model\)` and
    `\(We kept λ = 1/σ2 fixed in both methods.\)`; Goldmark, kramdown and Pandoc show
    them as parentheses, and as math they were one italic run of letters. Math with words
    in it writes them in `\text{…}`, a command."""
    return COMMAND.search(content) is None and PROSE.search(content) is not None


def _glued(body: str, pos: int) -> bool:
    """Tell whether the `\\(` at `pos` is glued to a word before it (`f\\(x\\)`: brackets)."""
    return pos > 0 and body[pos - 1].isalnum()


def writes_backslash_math(env: MutableMapping[str, Any]) -> bool:
    r"""Tell whether the post being rendered writes a formula between `\(`…`\)` (not glued
    to a word: `where \(x\) is`), or between `\[`…`\]` with TeX in it (a command or a math
    sign): its author writes for MathJax's delimiters. Read once per post from its body
    (`RenderState.source_lines`) and kept in the state; False when the body is not known."""
    doc = get_state(env)
    known = doc.extra.get("_writes_backslash_math")
    if known is None:
        known = False
        lines = doc.source_lines
        text = getattr(lines, "text", None)
        body = text if isinstance(text, str) else "\n".join(lines)
        for count, found in enumerate(BACKSLASH_MATH.finditer(body)):
            content = found.group(1) if found.group(1) is not None else found.group(2)
            # `\(x\)` not glued to a word is math whatever it holds (`math._escaped_brackets`)
            inline = found.group(2) is not None and not _glued(body, found.start())
            inline = inline and not parenthesised_prose(content)
            if inline or TEX_SIGN.search(content) or count >= PAIRS_LOOKED_AT:
                known = inline or TEX_SIGN.search(content) is not None
                break
        doc.extra["_writes_backslash_math"] = known
    return bool(known)
