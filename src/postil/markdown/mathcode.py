r"""Math written in code spans, as Yihui Xie's `math-code.js` reads it.

Hugo sites of blogdown's hugo-lithium theme and of the themes that copied its script
(hugo-ht, hugo-xmin and others; VuePress and Hexo blogs too) write formulas as code spans,
`` `$x$` ``, `` `$$…$$` ``, `` `\(x\)` ``, `` `\[…\]` ``, `` `\begin{align}…\end{align}` ``:
Markdown leaves the TeX in a code span alone (no escapes to double, no `_` read as
emphasis), and the script, before MathJax runs, takes the `<code>` off every code span
outside `<pre>` whose whole text is such a formula. Source: yihui/hugo-lithium,
`static/js/math-code.js` (its regular expressions are `MATH_CODE`'s), and Yihui Xie's
"The Best Way to Support LaTeX Math in Markdown with MathJax" (2018).

The site says which reading it wants (`math: code_spans:` in postil.yaml,
`RenderState.code_spans`): `code` (the default) shows them as code, as CommonMark and every
generator without the script do; `math` reads each as its formula (`$…$` and `\(…\)`
inline; `$$…$$`, `\[…\]` and an environment displayed, as MathJax reads them). A post
showing the syntax names one or two such spans; a post written this way names dozens, so
with the default reading a post of `WARN_AFTER` or more gets one warning, at the span that
makes the count (a post rendered in groups has no earlier group's inline state to warn in).
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from postil.markdown.inlinewarn import warn_inline
from postil.markdown.state import get_state

OPENING = re.compile(r"(`+)( ?)(\$|\\\(|\\\[|\\begin\{)")
"""A code span's backticks followed by what opens a formula (the quick test: any other
code span is left to markdown-it's rule at once)."""

MATH_CODE = (
    (re.compile(r"\$([^$](?:.*[^$])?)\$", re.S), "math_inline"),
    (re.compile(r"\$\$(.+)\$\$", re.S), "math_inline_display"),
    (re.compile(r"\\\((.+)\\\)", re.S), "math_inline"),
    (re.compile(r"\\\[(.+)\\\]", re.S), "math_inline_display"),
    (re.compile(r"(\\begin\{([^}]+)\}.+\\end\{\2\})", re.S), "math_inline_display"),
)
r"""A code span's whole text that math-code.js makes a formula, the TeX as group 1, and the
token it becomes. `$a$ and $b$` is no formula (a `$` inside the TeX): the script would
give MathJax `\(a$ and $b\)`."""

WARN_AFTER = 3
"""How many code spans holding formulas make a post's warning (see the module)."""

MESSAGE = (
    "this code span and {more} before it in this post hold TeX the way math-code.js reads "
    "it (blogdown's hugo-lithium and the Hugo themes that load the script); they show as "
    "code. If they are formulas, set `math: code_spans: math` in postil.yaml"
)
"""The warning at a post's `WARN_AFTER`-th such span."""


PLACEHOLDER = re.compile(r"[\s.…]*")
r"""What stands for "a formula" between delimiters in a post about writing math: `$...$`,
`\( … \)`, `$$...$$` show the delimiters, never a formula (nor count as one)."""


def mathcode_plugin(md: MarkdownIt) -> None:
    """Register `math_code_span` before markdown-it's code span rule."""
    md.inline.ruler.before("backticks", "math_code_span", math_code_span)


def math_code_span(state: StateInline, silent: bool) -> bool:
    """Inline rule: a code span whose text is a formula (see the module)."""
    src, pos = state.src, state.pos
    if src[pos] != "`":
        return False
    opening = OPENING.match(src, pos, state.posMax)
    if opening is None:
        return False
    found = _formula(src, pos, len(opening.group(1)), state.posMax)
    if found is None:
        return False
    kind, tex_start, tex_stop, end = found
    doc = get_state(state.env)
    if doc.code_spans != "math":
        if not silent:
            _count(state, pos)
        return False
    if not silent:
        token = state.push(kind, "math", 0)
        token.content = src[tex_start:tex_stop]
        token.markup = "$$" if kind == "math_inline_display" else "$"
        delims = (src[pos:tex_start], src[tex_stop:end])
        token.meta = {"offset": tex_start, "delims": delims, "removed": ()}
    state.pos = end
    return True


def _formula(src: str, pos: int, ticks: int, end: int) -> tuple[str, int, int, int] | None:
    """Return the token kind, the TeX's start and stop in `src`, and the end of the code
    span opened by `ticks` backticks at `pos`, when its text is a formula; else None.

    The span closes at the next run of exactly as many backticks (CommonMark's rule); one
    space inside each end is taken off when both are there (CommonMark's too)."""
    start = pos + ticks
    close = _closer(src, start, ticks, end)
    if close < 0:
        return None
    text_start, text_stop = start, close
    text = src[start:close]
    if len(text) > 2 and text[0] in " \n" and text[-1] in " \n" and text.strip():
        text_start, text_stop = start + 1, close - 1
    for pattern, kind in MATH_CODE:
        found = pattern.fullmatch(src, text_start, text_stop)
        if found is None or kind == "math_inline" and "$" in found.group(1):
            continue
        if PLACEHOLDER.fullmatch(found.group(1)):  # `$...$`: the delimiters, shown as code
            return None
        return kind, found.start(1), found.end(1), close + ticks
    return None


def _closer(src: str, start: int, ticks: int, end: int) -> int:
    """Return where the run of exactly `ticks` backticks closing a code span begins in
    `src[start:end]`, or -1."""
    run = "`" * ticks
    at = src.find(run, start, end)
    while at >= 0:
        stop = at + ticks
        while stop < end and src[stop] == "`":
            stop += 1
        if stop - at == ticks:
            return at
        at = src.find(run, stop, end)
    return -1


def _count(state: StateInline, pos: int) -> None:
    """Count a formula left as code; warn at the post's `WARN_AFTER`-th (the count is the
    post's `RenderState`'s, kept across render groups)."""
    extra: dict[str, Any] = get_state(state.env).extra
    seen = extra["math_code_spans"] = extra.get("math_code_spans", 0) + 1
    if seen == WARN_AFTER:
        warn_inline(state, pos, MESSAGE.format(more=WARN_AFTER - 1))
