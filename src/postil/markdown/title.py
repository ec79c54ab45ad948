r"""Math in front matter text: a title or subtitle as HTML with MathML, and as plain text.

    title: The $\alpha$-divergence and \(O(n^2)\) sorting

The `$…$` and `\(…\)` spans are found by the math plugin's own inline rule
(`postil.markdown.math.math_inline`: Pandoc's rule, so `$5 and $10` stays text and `\$` is a
dollar) in a parser that knows nothing else: the rest of a title is text, not Markdown.
Each formula is converted as inline math with the post's macros and math cache
(`RenderState`); its plain text is read back from that MathML (`postil.math.text`). A
formula that fails is reported like body math, at its place in the front matter
(`post.md:2:12`), and shows its TeX in a `math-error` span.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from html import escape

from markdown_it import MarkdownIt

from postil.errors import Diagnostic, Location, Severity
from postil.markdown.math import math_inline
from postil.markdown.mathdoc import error_span
from postil.markdown.rendered import TitleText
from postil.markdown.state import RenderState
from postil.math import latex_to_mathml
from postil.math.engine import is_blank
from postil.math.errors import MathError
from postil.math.text import tex_source, text_of, to_plain_text, without_tex
from postil.mathfont import formula_chars
from postil.model import TextAt

MATH_TOKENS = ("math_inline", "math_inline_display")


@cache
def title_parser() -> MarkdownIt:
    """Return the parser of front matter text: only `\\` escapes and inline math."""
    md = MarkdownIt("zero").enable("escape")
    md.inline.ruler.before("escape", "math_inline", math_inline)
    return md


def split_math(text: str) -> tuple[tuple[str, str], ...]:
    r"""Return `text` as ("text", …) and ("math", TeX) pieces, in order.

    `\$` is a literal dollar in the text pieces; `\ref{…}`-like commands stay text.
    """
    return tuple((kind, content) for kind, content, _ in _pieces(text))


def _pieces(text: str) -> list[tuple[str, str, int]]:
    """Return the (kind, content, offset of a formula's TeX in `text`) pieces of `text`."""
    tokens = title_parser().parseInline(text, {})
    pieces: list[tuple[str, str, int]] = []
    for child in tokens[0].children or [] if tokens else []:
        if child.type in MATH_TOKENS:
            pieces.append(("math", child.content, child.meta["offset"]))
            continue
        content = child.content
        if child.type == "math_ref":
            content = f"\\{child.meta['kind']}{{{child.meta['label']}}}"
        if pieces and pieces[-1][0] == "text":
            content = pieces.pop()[1] + content
        pieces.append(("text", content, 0))
    return pieces


def render_title(text: str, at: TextAt, state: RenderState, line: str = "") -> TitleText:
    """Render a front matter text with math for the page and for plain-text uses.

    Args:
        text: the title or subtitle as written (already one line).
        at: where it is written in the file (`FrontMatter.title_at`).
        state: the post's render state: macros, math cache; receives the diagnostics.
        line: the file line it is written on, for the excerpt under a message.

    Returns:
        The `TitleText`: escaped text and MathML; plain text; the pieces.
    """
    html: list[str] = []
    plain: list[str] = []
    pieces = _pieces(text)
    for kind, content, offset in pieces:
        if kind == "text":
            html.append(escape(content, quote=False))
            plain.append(content)
        elif not is_blank(content):
            mathml, words = _formula(content, state, at, offset, line)
            html.append(mathml)
            plain.append(words)
    parts = tuple((kind, content) for kind, content, _ in pieces)
    return TitleText("".join(html), " ".join("".join(plain).split()), parts)


def _formula(latex: str, state: RenderState, at: TextAt, offset: int, line: str) -> tuple[str, str]:
    """Return (MathML or a `math-error` span, plain text) of one formula, reporting errors."""
    try:
        mathml = latex_to_mathml(latex, macros=state.macros, cache=state.math_cache)
    except MathError as exc:
        col = at.col + offset + exc.offset if at.verbatim else at.col
        where = Location(state.path, at.line, col)  # a warning, as in the body (`mathdoc`)
        state.add(Diagnostic(Severity.WARNING, where, exc.message, line))
        return error_span(latex, exc), tex_source(latex)
    state.math_chars |= formula_chars(mathml)  # the math font's subset draws titles too
    return mathml, text_of(mathml, latex)


def slug_text(text: str, macros: Mapping[str, str] | None = None) -> str:
    """Return the words a slug is made of from a front matter text: its text, and each
    formula's readable text without TeX (`postil.math.text.without_tex`); no diagnostics."""
    words = [
        without_tex(to_plain_text(content, macros=macros)) if kind == "math" else content
        for kind, content, _ in _pieces(text)
    ]
    return " ".join("".join(words).split())
