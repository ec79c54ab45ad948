r"""TeX macro definitions written as Markdown prose, read as Pandoc's `latex_macros` does.

Pandoc-based blogs (Hakyll, Quarto, R Markdown) and Franklin.jl posts define their macros
on lines of their own, outside any `$…$`:

    \newcommand{\R}{\mathbb{R}}
    \DeclareMathOperator*{\argmin}{arg\,min}

    Let $x \in \R^n$ and $\argmin_x f(x)$.

Pandoc's `latex_macros` extension (on by default for `markdown`) "will parse LaTeX macro
definitions and apply the resulting macros to all LaTeX math" and leaves the definitions
out of HTML output (pandoc MANUAL, "Extension: latex_macros"); its parser keeps the macro
table as it reads, so a definition applies to the math after it (`test/command/latex_macros`
in jgm/pandoc: `\newcommand{\my}{\phi}` then `$\my+\my$` on the next line gives
`$\phi+\phi$`). Franklin.jl reads `\newcommand` in Markdown the same way.

`math_definitions` (core, after the block parse) turns the definition lines at the start of
a paragraph into a `math_block` holding only definitions: the math plugin's scope
(`postil.markdown.mathdoc.math_resolve`) adds them to the macros in force from that point
of the post on, and such a block renders as nothing. Only lines of definitions count, from
the paragraph's first character: prose that mentions `\newcommand`, a definition in a code
span or a code block stays as it is. A paragraph that starts with a definition postil
cannot read is a warning at the definition, and stays text.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it.token import Token

from postil.markdown.state import get_state
from postil.math.engine import is_blank
from postil.math.errors import MathError
from postil.math.macros import extract_definitions

DEFINITION_START = re.compile(
    r"\\(?:newcommand|renewcommand|providecommand|DeclareMathOperator|DeclareRobustCommand"
    r"|def|gdef|edef|xdef|let|DeclarePairedDelimiter|definecolor)(?![A-Za-z])"
)
"""A paragraph that starts with one of these may be a block of TeX macro definitions."""

_ANY_DEFINITION = re.compile(r"^[ \t>*+\-0-9.)]*" + DEFINITION_START.pattern, re.M)
"""A line that starts with a definition, after any block quote or list markers: a post
without one has no paragraph `math_definitions` changes (one scan of the source, in C)."""


MOST_LINES = 64
"""The longest run of definition lines one paragraph may start with (a preamble's worth)."""


def math_definitions(state: Any) -> None:
    """Core rule: re-type leading definition lines of paragraphs as definition-only math.

    Costs nothing for a post with no paragraph starting with a backslash command that
    defines (`DEFINITION_START`).
    """
    if not _ANY_DEFINITION.search(state.src):
        return
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if (
            token.type == "inline"
            and i > 0
            and tokens[i - 1].type == "paragraph_open"
            and DEFINITION_START.match(token.content)
        ):
            i += _split_paragraph(state, tokens, i)
        i += 1


def _split_paragraph(state: Any, tokens: list[Token], i: int) -> int:
    """Take the definition lines off the front of the paragraph whose inline token is
    `tokens[i]`; return by how much the inline token's index moved (0 when nothing was
    taken, 1 when a block went before the paragraph, -1 when it replaced the paragraph)."""
    inline = tokens[i]
    lines = inline.content.split("\n")
    count = _definition_lines(state, inline, lines)
    if not count:
        return 0
    block = Token("math_block", "math", 0)
    block.content = "\n".join(lines[:count])
    block.block = True
    block.markup = ""
    start = (inline.map or [0, 0])[0]
    block.map = [start, start + count]
    block.meta = {"col0": 0, "delims": ("", ""), "prose_definitions": True}
    if count == len(lines):  # the whole paragraph: drop its open and close tokens
        tokens[i - 1 : i + 2] = [block]
        return -1
    inline.content = "\n".join(lines[count:])
    inline.map = [start + count, (inline.map or [0, start + count])[1]]
    tokens[i - 1].map = list(inline.map)
    tokens.insert(i - 1, block)
    return 1


def _definition_lines(state: Any, inline: Token, lines: list[str]) -> int:
    """Return how many leading `lines` hold definitions only (0 for none); warn when the
    first definition cannot be read.

    At most `MOST_LINES` lines are tried, longest first: each try reads its lines again, so
    a paragraph of thousands of lines that starts with a definition stays linear.
    """
    for count in range(min(len(lines), MOST_LINES), 0, -1):
        head = "\n".join(lines[:count])
        try:
            definitions, rest = extract_definitions(head)
        except MathError as exc:
            if count == 1:
                _warn_malformed(state, inline, lines, exc)
            continue
        if definitions and is_blank(rest):
            return count
    return 0


def _warn_malformed(state: Any, inline: Token, lines: list[str], exc: MathError) -> None:
    """Report a definition at a paragraph's start that cannot be read, at its place."""
    doc = get_state(state.env)
    line0 = (inline.map or [0])[0]
    source = doc.source_lines[line0] if 0 <= line0 < len(doc.source_lines) else ""
    col = max(source.find(lines[0]), 0) + min(exc.offset, len(lines[0])) + 1
    doc.warn(
        line0,
        col,
        f"this line reads as a TeX macro definition, but {exc.message}, so it shows as "
        "text and its macro is not defined: fix the definition "
        r"(`\newcommand{\name}{body}`, `\DeclareMathOperator{\name}{text}`)",
    )
