r"""Math in Markdown: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, ```` ```math ````, bare environments,
GitHub's and GitLab's `` $`…`$ ``, Hugo Book's `{{< katex >}}`, jekyll-katex's
`{% katex %}`, Hugo Blox's `{{< math >}}$$…$${{< /math >}}`, a theme's
`{{< math >}}TeX{{< /math >}}`.

    Inline $x^2$, \(x^2\) and $$x^2$$ (kramdown's); it costs $5 and $10 (no math: Pandoc's
    rule for `$`). A sentence, then display math right under it:
    $$
    \operatorname{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2 \label{eq:var}
    $$
    As \eqref{eq:var} shows, and \\(x\_i\\) as kramdown posts write it for MathJax, …

`$$…$$` is display math on lines of its own and inline math inside a line of text, as
kramdown (Jekyll) reads it; a site that writes `$$` mid-sentence for display math, as
Pandoc reads it, sets `math: double_dollar_in_text: display`. In a heading all math is
inline. `\\(…\\)` and `\\[…\\]` lose Markdown's escapes (`\_`, `\*`, `\\`, `\{`) as
kramdown removed them before MathJax saw the TeX (`postil.markdown.mathescape`).

Rules: `math_inline` (inline, before `escape`), `math_block` (block, may interrupt a
paragraph), `math_fence` (core: re-types ```` ```math ```` fences), `math_table_pipes`
(the `table` block rule wrapped so `|` inside `$…$` does not split a cell), `math_heading`
(core: display math in a heading becomes inline) and `math_resolve` (core, after inline:
macros in document order, equation numbers, reference checks; see
`postil.markdown.mathdoc.math_resolve`). Token types: `math_inline`,
`math_inline_display`, `math_block`, `math_ref`.

CSS classes: `math-display` (wrapper of display math: a focusable, labelled group, since a
wide formula scrolls), `math-error` (a formula that could
not be converted; holds its TeX source in `<code>`), `eqref` (a reference in prose).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, NamedTuple

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import table as table_rule
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown import bookdown
from postil.markdown.forem import FOREM_ESCAPES, forem_katex_display, is_forem
from postil.markdown.inlinewarn import UNCLOSED_DOLLARS, report_inline, warn_inline
from postil.markdown.mathbracket import (
    AMBIGUOUS_BRACKETS,
    PROSE,
    formula_shaped,
    parenthesised_prose,
    writes_backslash_math,
)
from postil.markdown.mathcore import (
    math_alt,
    math_escapes,
    math_fence,
    math_heading,
    math_nobreak,
)
from postil.markdown.mathdoc import (
    PIPE,
    is_end_mark,
    math_resolve,
    protect_pipes,
    render_formula,
)
from postil.markdown.mathescape import (
    DOLLAR_ESCAPES,
    KRAMDOWN_ESCAPES,
    TEX_GROUPING,
    balanced_braces,
    doubled_backslashes,
    escaped_subscripts,
    markdown_unescaped,
    unescape,
    unescape_subscripts,
)
from postil.markdown.mathhtml import BEGIN_ENV, DISPLAY_ATTRS
from postil.markdown.mathlazy import continue_lazily, lazy_line
from postil.markdown.mathprose import math_definitions
from postil.markdown.mathquote import math_quote_lazy
from postil.markdown.mathref import only_reference, reference_meta
from postil.markdown.mathtilde import math_tilde_plugin
from postil.markdown.mathwrap import math_list_plugin
from postil.markdown.state import KATEX_MIXED, RenderState, get_state, is_mdx
from postil.markdown.tagsyntax import find_closer, shortcode_params
from postil.math import anchor_id
from postil.math.delimiters import CJK, Closers, closers_for
from postil.math.engine import is_blank
from postil.mathfont import formula_chars

TEXT_ENV = re.compile(r"\\begin\{[A-Za-z]+\*?\}")  # one `BEGIN_ENV` did not match
TEXT_ENV_SHOWN = (
    "`{env}` is LaTeX that postil does not typeset (only math environments, docs/math.md), "
    "so it shows as text; write it as Markdown, a code block or an image"
)
UNSUPPORTED_MATH_ENVS = {
    "xy": "Xy-pic's diagram; draw it as an image",
    "tikzcd": "tikz-cd's commutative diagram; draw it as an image",
}
"""Math environments KaTeX or MathJax draw that postil's math does not, with the fix."""


def text_environment(begin: str) -> str:
    r"""Return the warning for `\begin{name}` that postil does not typeset (`TEXT_ENV`)."""
    name = begin[len("\\begin{") : -1]
    if name in UNSUPPORTED_MATH_ENVS:
        what = UNSUPPORTED_MATH_ENVS[name]
        return f"`{begin}` is a math environment postil does not support ({what}); it shows as text"
    return TEXT_ENV_SHOWN.format(env=begin)


ESCAPED = re.compile(r"\\.", re.S)
# Hugo Book's `{{< katex [display] >}}TeX{{< /katex >}}`, jekyll-katex's
# `{% katex [display] %}TeX{% endkatex %}` and hexo-math's `{% math %}`, `{% mathjax %}`,
# `{% katex '{"displayMode": true}' %}` (raw TeX between the tags).
KATEX_OPEN = re.compile(
    r"\{\{[<%]\s*katex(?![\w/-])([^}]*?)\s*[>%]\}\}"
    r"|\{%-?\s*(?P<name>katex|mathjax|math)(?![\w-])([^%]*?)\s*-?%\}"
)
HEXO_MATH = frozenset({"math", "mathjax"})
"""hexo-math's tags, display math on lines of their own (its README's "block" form)."""
FALSE_WORDS = frozenset({"", "false", "0", "no", "off"})
"""Shortcode argument values that switch an option off."""
KATEX_CLOSE = re.compile(r"\{\{[<%]\s*/katex\s*[>%]\}\}|\{%-?\s*end(?:katex|mathjax|math)\s*-?%\}")
# A theme's `{{< math >}}TeX{{< /math >}}` holding bare TeX (hugo-theme-fuji: display, or
# inline with `{{< math "inline" >}}`); one around `$$…$$` is Hugo Blox's wrapper.
HUGO_MATH_OPEN = re.compile(r"\{\{<\s*math(?![\w/-])([^}]*?)\s*>\}\}")
HUGO_MATH_CLOSE = re.compile(r"\{\{<\s*/\s*math\s*>\}\}")
DELIMITED = re.compile(r"\$|\\[\[(]")
"""A math delimiter: the content of a `{{< math >}}` holding one is Hugo Blox's formula."""
KRAMDOWN_TELL = re.compile(r"(?<!\\)\\\\\\?[{}|_*#]")  # `\\{`, `\\\}`: see `_unescaped`
# TeX's spaces escaped for a Markdown processor (`x\\,dx`, `a\\;b`), as Zola's and Hugo's
# posts for KaTeX in the browser write them: as raw TeX a line break, then punctuation.
ESCAPED_SPACE_TELL = re.compile(r"(?<!\\)\\\\[,;:!]")
# A dollar formula's rows or spaces escaped for a Markdown processor (Hugo without
# passthrough, Zola: `a & b \\\\ c & d`, `g(x)\\,dx`): four backslashes, or `ESCAPED_SPACE_TELL`.
ESCAPED_ROWS_TELL = re.compile(r"\\{4}|" + ESCAPED_SPACE_TELL.pattern)
# A delimiter after a sizing command, escaped for Markdown (Hugo without passthrough:
# `\Big\[`, `\big\\{`, `\left\\|`): as raw TeX no delimiter follows it, an error; the
# Markdown processor left `\Big[`, `\big\{`, `\left\|` for KaTeX.
ESCAPED_DELIMITER_TELL = re.compile(
    r"\\(?:left|right|middle|[bB]igg?[lrm]?)(?![A-Za-z])\s*(?:\\\\[{}|]|\\[\[\]])"
)
# A bare environment's TeX escaped for a Markdown processor (ox-hugo's `\begin{align\*}`,
# `x\_i`, `\\\\` for a row break; a Jekyll post's `a \\\ b`, kramdown's `\\` and a
# control space, which is `\\ ` to MathJax): `\_` or `\*` after an even run of
# backslashes, four backslashes, three before a space, or `KRAMDOWN_TELL`.
ESCAPED_ENV_TELL = re.compile(
    r"(?<!\\)(?:\\\\)*\\[_*]|\\{4}|(?<!\\)\\{3}(?=\s)|" + KRAMDOWN_TELL.pattern
)
REF = re.compile(r"\\(eqref|ref)\{([^{}\n]+)\}")
CLOSERS = {"$$$": "$$$", "$$": "$$", "\\\\[": "\\\\]", "\\[": "\\]"}
"""Display math's delimiters at a line's start, longest first: `$$$` is Outline's export
of a math block and Haroopad's and markdown-notes' delimiter (`TRIPLE`)."""
TRIPLE = "$$$"
"""Three dollars around a formula: Outline exports its math blocks so (outline/outline#5555),
Haroopad (rhiokim/haroopad#501) and nicbou/markdown-notes#14 write them; each `$` used to
be shown, the inner ones inside the formula. Read as `$$…$$` (display or inline alike)."""
SLANG_FOLLOWERS = frozenset(" \t.,;:!?)]'\"")
"""What follows money slang's `$$$` on a line ("costs $$$ to run", "$$$."), never the
first character of a formula (`_slang_dollars`)."""
# The backslash delimiters of inline math: kramdown-escaped ones first (`\\(` holds `\(`).
BACKSLASH_DELIMITERS = {
    "\\\\(": ("\\\\)", "math_inline"),
    "\\\\[": ("\\\\]", "math_inline_display"),
    "\\(": ("\\)", "math_inline"),
    "\\[": ("\\]", "math_inline_display"),
}
LONE_SPACED = (
    "`{tex}` stays text: inline math with a space inside one `$` only closes around TeX "
    "with a command, script, brace or `=`, or variables around an operator (Typora and "
    "MathJax close it anywhere, but `$A $B` may be shell variables); write it without the "
    "space inside the `$` for math, or `\\$` for a dollar sign"
)
"""The warning of `$y $` and `$ y$` left as text in Latin prose (`Closers.lone_spaced`);
beside CJK text they are math (`Closers._beside_cjk`)."""
GITHUB_INLINE_OPEN, GITHUB_INLINE_CLOSE = "$`", "`$"
"""GitHub's and GitLab's inline math delimiters (`_github_inline`)."""
MATHJAX_ESCAPED_DOLLAR = "\\\\$"
r"""`\\$`: a dollar sign escaped for Markdown and then for MathJax (`_mathjax_escaped_dollar`)."""
KRAMDOWN_INLINE_ESCAPE = "\\$$"
r"""kramdown's escape of a math block's first dollar: `\$$ x $$` opening a paragraph is inline
math (`_kramdown_escaped_block`)."""
MATH_WRAPPER_OPEN = re.compile(r"\{\{([<%])\s*math\s*[>%]\}\}[ \t]*")
"""Hugo Blox's (Wowchemy's) `{{< math >}}` glued to the display formula it wraps:
`{{< math >}}$$` opening a line (the shortcode only passes its content through)."""
MATH_WRAPPER_CLOSE = re.compile(r"[ \t]*\{\{[<%]\s*/math\s*[>%]\}\}[ \t]*")
"""The wrapper's end after the closing delimiter: `$${{< /math >}}`."""
QUARTO_LABEL = re.compile(
    r"[ \t]*(?:\{#(eq[-:][\w:.-]*\w)\}"
    r"|\(((?=[\w:.-]*[A-Za-z])(?=[\w.]*[:_-]|[\w:.-]{4})[\w:.-]*\w)\))[ \t]*"
)
"""Quarto's label after a display formula's closing `$$`: `$$ … $$ {#eq-mass}` (pandoc-crossref's
`{#eq:mass}` too, lierdakil/pandoc-crossref#131); MyST's
is in parentheses, `$$ … $$ (eq-mass)` (MyST-Parser's `dollarmath` with labels), with a
letter in it and a `:`, `_` or `-` or four characters: `$$ … $$ (1)`, `(ii)`, `(a)` and
`(2.3)` are numbers written by hand, not labels (unless the post refers to one: `SHORT_LABEL`),
shown as the formula's number (`HAND_NUMBER`)."""
HAND_NUMBER = re.compile(
    r"[ \t]*\((\d+(?:\.\d+)*[a-z]?|[A-Z]\.\d+|[ivxlc]+|[IVXLC]+|[A-Za-z]|\*{1,3}|[†‡]+)\)[ \t]*"
)
"""An equation number written after a display formula's closing `$$`: `(2)`, `(3.1)`, `(4b)`,
`(A.1)`, `(ii)`, `(a)`, `(*)` (markdown-it-texmath's `$$ … $$ (1)`); a MyST label that the
post never refers to, `(d2)`, is none."""
SELF_NUMBERED = re.compile(
    r"\\(?:tag|label)\b|\\begin\{(?:equation|align|flalign|alignat|gather|multline|eqnarray)\b"
)
"""TeX that numbers its formula itself, which a hand-written number does not override."""
SHORT_LABEL = re.compile(r"[ \t]*\(((?=[\w:.-]*[A-Za-z])[\w:.-]*\w)\)[ \t]*")
"""MyST's label in parentheses of any length with a letter (`$$ … $$ (d1)`): a label only
when the post's source refers to it with `` {eq}`d1` ``, so `(ii)` and `(a)` written by
hand after a formula stay text."""


def math_plugin(md: MarkdownIt) -> None:
    """Register postil's math syntax on `md` (see the module docstring)."""
    md.inline.ruler.before("escape", "math_inline", math_inline)
    md.block.ruler.before(
        "fence", "math_block", math_block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.block.ruler.at("table", math_table_pipes, {"alt": ["paragraph", "reference"]})
    image = md.inline.ruler.__rules__[md.inline.ruler.__find__("image")].fn
    md.inline.ruler.at("image", _in_description(image))
    math_tilde_plugin(md)  # a formula's `~~~` line stays in its paragraph: `mathtilde.py`
    math_list_plugin(md)  # and its `+ b` or `- 2` line too: `mathwrap.py`
    md.core.ruler.after("block", "math_fence", math_fence)
    md.core.ruler.after("math_fence", "math_quote_lazy", math_quote_lazy)  # `mathquote.py`
    md.core.ruler.after("math_fence", "math_definitions", math_definitions)  # `mathprose.py`
    md.core.ruler.after("inline", "math_resolve", math_resolve)
    md.core.ruler.after("inline", "inline_warnings", report_inline)  # `inlinewarn.py`
    md.core.ruler.after("inline", "math_heading", math_heading)  # so: before math_resolve
    md.core.ruler.after("inline", "math_escapes", math_escapes)  # before both
    md.core.ruler.after("math_resolve", "math_nobreak", math_nobreak)
    md.core.ruler.after("math_resolve", "math_alt", math_alt)
    md.add_render_rule("math_nobreak_open", lambda *args: '<span class="math-nobreak">')
    md.add_render_rule("math_nobreak_close", lambda *args: "</span>")
    for kind in ("math_inline", "math_inline_display", "math_block"):
        md.add_render_rule(kind, render_math)
    md.add_render_rule("math_ref", render_math_ref)
    md.add_render_rule("html_block", render_html_block)  # math in raw HTML: `mathhtml`


def _in_description(image: Any) -> Any:
    r"""Return markdown-it's image rule noting, while it parses an image's description, that
    the text is one (`_escaped_brackets` reads `\[1\]` there as brackets, as in a link's
    text: `![\[Manny\]](x.jpg)` had the alt "Manny", markedjs/marked#1681's case)."""

    def image_rule(state: StateInline, silent: bool) -> bool:
        extra = get_state(state.env).extra
        extra["in_description"] = extra.get("in_description", 0) + 1
        try:
            return bool(image(state, silent))
        finally:
            extra["in_description"] -= 1

    return image_rule


def math_inline(state: StateInline, silent: bool) -> bool:
    r"""Parse `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, `\\(…\\)`, `\\[…\\]`, `\eqref{…}` at `state.pos`."""
    src, pos, end = state.src, state.pos, state.posMax
    if src[pos] not in "$\\{":
        return False
    if src[pos] == "{":
        return _katex_inline(state, silent)
    if src.startswith(MATHJAX_ESCAPED_DOLLAR, pos):
        return _mathjax_escaped_dollar(state, silent)
    if pos == 0 and src.startswith(KRAMDOWN_INLINE_ESCAPE, pos):
        return _kramdown_escaped_block(state, silent)
    if src.startswith(GITHUB_INLINE_OPEN, pos):
        return _github_inline(state, silent)
    closers = closers_for(src, state.env)  # one scan per paragraph: linear, not O(n²)
    triple = src.startswith(TRIPLE, pos) and src[pos + 3 : pos + 4] != "$"
    if triple and _slang_dollars(src, pos + 3, end):  # `a few $$$ ( or no $$$ )`: text
        if not silent:
            state.push("text", "", 0).content = TRIPLE
        state.pos += 3
        return True
    if triple and (close := closers.find(TRIPLE, pos + 3, end)) > pos + 3:
        kind = _double_dollar_kind(state, src[pos + 3 : close])
        return _emit(state, silent, kind, pos + 3, close, close + 3)
    if src.startswith("$$", pos):
        close = closers.find("$$", pos + 2, end)
        if close < 0 and not silent:  # text, and a warning (`inlinewarn`)
            if not _shows_dollars(src, pos):
                warn_inline(state, pos, UNCLOSED_DOLLARS, "_math_unclosed")
            state.push("text", "", 0).content = "$$"
            state.pos += 2
            return True
        if close < 0 or close == pos + 2:
            return False
        kind = _double_dollar_kind(state, src[pos + 2 : close])
        return _emit(state, silent, kind, pos + 2, close, close + 2)
    if src[pos] == "$":
        if pos + 1 >= end:
            return False
        # Pandoc's rule first; then MathJax's reading for `$ x $` and `$\mathbb{E}(X) = $`,
        # which Pandoc's leaves as text (`Closers.spaced_dollar`)
        close = -1 if src[pos + 1].isspace() else closers.dollar(pos + 1, end)
        if close < 0:  # `$10 … x_1 $` is a price, `$2, 3, \dots $` a formula
            close = closers.spaced_dollar(pos + 1, end)
        if close < 0 and is_mdx(state.env):  # remark-math's reading: `$ 0.16 $m` is math
            close = closers.spaced_pair(pos + 1, end)
        if close < 0:
            if not silent:
                _warn_lone_spaced(state, closers, pos)
            return False
        return _emit(state, silent, "math_inline", pos + 1, close, close + 1)
    if src.startswith("\\begin", pos):
        return _environment(state, silent)
    for opener, (closer, kind) in BACKSLASH_DELIMITERS.items():
        if src.startswith(opener, pos):
            close = closers.find(closer, pos + len(opener), end)
            if close < 0 or _escaped_brackets(state, opener, pos, close + len(closer), silent):
                return False
            return _emit(state, silent, kind, pos + len(opener), close, close + len(closer))
    return _math_ref(state, silent)


PROSE_REACH = 80
r"""How far along its line `_escaped_brackets` looks for a word beside `\[…\]` (bounded, so
a line of thousands of pairs stays linear)."""


def _escaped_brackets(
    state: StateInline, opener: str, pos: int, end: int, silent: bool = True
) -> bool:
    r"""Tell whether `\[…\]` or `\(…\)` from `pos` to `end` is Markdown's escaped brackets
    in a line of prose, not math.

    CommonMark's `\[` is an escaped `[` (jgm in jgm/pandoc#2707: it "is needed for an
    escaped bracket"), and Pandoc's markdown writer, R Markdown's `md_document`, Prettier
    and mdformat write it for every literal bracket: `median\[IQR\]`, `R\[-1\]C\[-1\]`,
    `[\[4\]][src]`. MathJax's and Pandoc's `tex_math_single_backslash` read `\[…\]` as
    display math, which postil keeps for TeX. The pair is brackets when its content is not
    TeX (no command and no math sign, or a run of four words: `_tex_run`, the test `$$`
    runs take) and it sits inside a line of prose: `\[…\]` on one line with a letter or
    digit beside it on that line (within `PROSE_REACH`), or inside a link's text; `\(…\)`
    glued to a word (`f\(x\)`: `where \(x\) is` stays math) or holding a sentence
    (`parenthesised_prose`). A pair spanning lines, or
    alone on its line, stays math; the kramdown-escaped `\\[` never comes here. A pair in
    prose that reads as a formula without any TeX sign (`\[f(x)\]`) is math in a post that
    writes other backslash-delimited formulas, otherwise brackets with a warning
    (`postil.markdown.mathbracket`; none when `silent`).
    """
    if opener not in ("\\[", "\\("):
        return False
    src = state.src
    content = src[pos + 2 : end - 2]
    if _tex_run(content):
        return False
    if opener == "\\(":
        return (pos > 0 and _word_char(src[pos - 1])) or parenthesised_prose(content)
    if _bracketed_prose(content):  # `\[do something...\]`, even alone on its line
        return True
    if "\n" in content:
        return False
    if state.linkLevel > 0 or get_state(state.env).extra.get("in_description"):
        return True  # in a link's text or an image's description: never display math
    before = src[max(0, pos - PROSE_REACH) : pos].rpartition("\n")[2]
    after = src[end : end + PROSE_REACH].partition("\n")[0]
    if not (any(_word_char(c) for c in before) or any(_word_char(c) for c in after)):
        return False
    return _prose_brackets(state, pos, content, silent)


def _prose_brackets(state: StateInline, pos: int, content: str, silent: bool) -> bool:
    r"""Tell whether `\[content\]` at `pos`, in a line of prose and holding no TeX, is
    brackets: yes unless it reads as a formula (`formula_shaped`) in a post that writes
    backslash-delimited math; a formula-shaped one left as brackets is warned about."""
    if not formula_shaped(content):
        return True
    if writes_backslash_math(state.env):
        return False
    if not silent:
        written = state.src[pos : pos + len(content) + 4]
        warn_inline(state, pos, AMBIGUOUS_BRACKETS.format(written=written, content=content))
    return True


SPACED_WORDS = re.compile(
    r"(?<![\\A-Za-z])(?:[A-Za-z]{3,}[.,;:!?]*[ \t]+[A-Za-z]{2,}"
    r"|[A-Za-z]{2,}[.,;:!?]*[ \t]+[A-Za-z]{3,}|[0-9]+[.,;:][ \t]+[0-9])"
)
"""Words TeX would set glued together, as one italic run: `do something`, `36. 49.` (two
words of two and three letters or more, or numbers after a full stop, apart by a space)."""


def _bracketed_prose(content: str) -> bool:
    r"""Tell whether the content of a one-line `\[…\]` is words in Markdown's escaped
    brackets, not display math, wherever the pair stands: no command or math sign, and
    words that TeX, which drops spaces in math, would glue into one (`SPACED_WORDS`).
    Hashnode's editor and Turndown-style converters escape every literal bracket, so code
    written as prose in a post (`if \[ condition \]; then⏎    \[do something...\]`) or
    a printed array (`> \[36. 49. 64.\]`) has pairs alone on their lines; as math they
    would read `dosomething...` and `36.49.64.`, which no author means.
    """
    return (
        "\n" not in content and not TEX_SIGN.search(content) and bool(SPACED_WORDS.search(content))
    )


def _word_char(char: str) -> bool:
    r"""Tell whether `char` makes prose an escaped bracket sits in: a letter or digit of a
    script written with spaces. CJK text is written without them, so `其中\(x\)是实数` and
    `公式\[x\]如下` are math glued to words, as MathJax and Pandoc read them."""
    return char.isalnum() and CJK.match(char) is None


def _warn_lone_spaced(state: StateInline, closers: Closers, pos: int) -> None:
    """Warn that `$y $` at `pos` stays text (`LONE_SPACED`), once a paragraph: the first
    tells the author what to fix, and a paragraph of thousands costs no more than one."""
    warned: set[str] = state.env.setdefault("_math_lone_spaced", set())
    if state.src in warned:
        return
    lone = closers.lone_spaced(pos + 1, state.posMax)
    if lone >= 0:
        warned.add(state.src)
        warn_inline(state, pos, LONE_SPACED.format(tex=state.src[pos : lone + 1]))


def _environment(state: StateInline, silent: bool) -> bool:
    r"""Parse a math environment inside a paragraph's text as display math: `so
    \begin{equation} E = mc^2 \end{equation} holds`, as MathJax's `processEnvironments`
    (on by default) typesets it in the browser. Only the environments postil typesets
    (`BEGIN_ENV`), closed by their own `\end` in the same paragraph; others stay text.
    """
    found = BEGIN_ENV.match(state.src, state.pos)
    if found is None:
        other = TEXT_ENV.match(state.src, state.pos)
        if other is not None and not silent and not _inside_environment(state.src, state.pos):
            warn_inline(state, state.pos, text_environment(other.group()))
        return False
    closer = "\\end{" + found.group(1) + "}"
    close = state.src.find(closer, found.end(), state.posMax)
    if close < 0:
        if not silent:
            shown = f"`{found.group()}` is never ended in this paragraph, so it shows as text"
            warn_inline(state, state.pos, f"{shown}; add `{closer}` after its TeX")
        return False
    end = close + len(closer)
    return _emit(state, silent, "math_inline_display", state.pos, end, end)


def _inside_environment(src: str, pos: int) -> bool:
    r"""Tell whether `pos` lies inside an environment begun earlier in `src` (and not ended
    before `pos`): `\begin{algorithmic}` inside `\begin{algorithm}` is warned about once,
    at the outer one, as the block rule does (`_warn_text_environment`)."""
    for begun in TEXT_ENV.finditer(src, 0, pos):
        ended = src.find(begun.group().replace("\\begin", "\\end", 1), begun.end())
        if ended < 0 or ended > pos:
            return True
    return False


def _mathjax_escaped_dollar(state: StateInline, silent: bool) -> bool:
    r"""Read `\\$` as a literal `$`, as the page's MathJax or KaTeX did.

    Posts written for math typeset in the browser (Jekyll's kramdown, Hugo's Goldmark) write a
    dollar sign that is no math as `\\$`: the Markdown processor turns it into `\$`, which
    MathJax's `processEscapes` (and KaTeX's auto-render) show as `$` and never read as a
    delimiter. postil typesets math while it reads the Markdown, so it takes the three
    characters as one `$` of text. `\$` alone is Markdown's own escape of `$` (the `escape`
    rule); a `\\` before anything else is Markdown's escaped backslash.
    """
    if not silent:
        state.push("text", "", 0).content = "$"
    state.pos += len(MATHJAX_ESCAPED_DOLLAR)
    return True


def _kramdown_escaped_block(state: StateInline, silent: bool) -> bool:
    r"""Parse kramdown's `\$$ x^2 $$` opening a paragraph as inline math `x^2`.

    kramdown's syntax page ("Math Blocks"): "If you have a paragraph that looks like a math
    block but should actually be a paragraph with just an inline math statement, you need
    to escape the first dollar sign"; Chirpy's docs give it for inline math in a list item
    (`- \$$ x $$`). Its math block parser (`parser/kramdown/math.rb`, `BLOCK_MATH_START`)
    drops the backslash when the `$$…$$` after it starts a block and its closing `$$` ends
    a line, and the paragraph's `$$…$$` is then inline math (its test
    `span/math/normal`: `\$$5+5$$` gives `\(5+5\)`). Anywhere else `\$` is kramdown's
    escaped dollar: `\$$ x $$ more` and `\$\$ x $$` stay text (`_shows_dollars`).
    """
    src, start = state.src, state.pos + len(KRAMDOWN_INLINE_ESCAPE)
    close = src.find("$$", start, state.posMax)
    if close <= start or is_blank(src[start:close]):
        return False
    line_end = src.find("\n", close)
    if src[close + 2 : line_end if line_end >= 0 else state.posMax].strip(" \t"):
        return False  # text after the closing `$$`: the backslash escapes a dollar
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.content, removed, reading = _reading(src[start:close].replace(PIPE, "|"), "$$")
        _note_reading(state.env, token, "", reading, "$$")
        token.meta = {"offset": start, "delims": (KRAMDOWN_INLINE_ESCAPE, "$$"), "removed": removed}
    state.pos = close + 2
    return True


def _shows_dollars(src: str, pos: int) -> bool:
    r"""Tell whether an unclosed `$$` at `pos` follows an escaped double dollar in its
    paragraph (`text \$\$ not math $$ here.`, `\$$ x $$ more`): the author writes
    dollars as text, which kramdown shows silently, so no warning is due."""
    return "\\$\\$" in src[:pos] or "\\$$" in src[:pos]


def _github_inline(state: StateInline, silent: bool) -> bool:
    r"""Parse GitHub's and GitLab's inline math, `` $`\sqrt{x}`$ ``, at `state.pos`.

    GitHub ("Writing mathematical expressions") and GitLab ("Math equations") read the TeX
    between `` $` `` and `` `$ `` as it is, like a code span's text (a line break in it
    too); their display math is a ```` ```math ```` fence (`math_fence`). Without a
    closing `` `$ `` in the paragraph, `` $` `` is no math: the `$` is text and the
    backtick opens a code span, as on GitHub.
    """
    start = state.pos + len(GITHUB_INLINE_OPEN)
    close = state.src.find(GITHUB_INLINE_CLOSE, start, state.posMax)
    if close <= start:
        return False
    return _emit(state, silent, "math_inline", start, close, close + len(GITHUB_INLINE_CLOSE))


def _katex_inline(state: StateInline, silent: bool) -> bool:
    """Parse Hugo Book's `{{< katex >}}…{{< /katex >}}` or jekyll-katex's
    `{% katex %}…{% endkatex %}` (hexo-math's `{% math %}`, `{% mathjax %}` too) in a line
    (`display`: display math)."""
    opening = KATEX_OPEN.match(state.src, state.pos)
    if opening is None:
        return _hugo_math_inline(state, silent)
    if (opening.group(1) or "").endswith("/"):
        return False  # Hugo Book's `{{< katex />}}` loads KaTeX: it holds no formula
    closing = KATEX_CLOSE.search(state.src, opening.end(), state.posMax)
    if closing is None:
        return False
    forem = is_forem(state.env) and opening["name"] == "katex"  # dev.to's own tag
    kind = "math_inline_display" if katex_display(opening, forem) else "math_inline"
    _emit(state, silent, kind, opening.end(), closing.start(), closing.end())
    if forem and not silent:  # dev.to's Markdown ran first: its escapes are gone
        token = state.tokens[-1]
        tex = state.src[opening.end() : closing.start()]
        token.content, token.meta["removed"] = unescape(tex, FOREM_ESCAPES)
    return True


def _hugo_math_inline(state: StateInline, silent: bool) -> bool:
    """Parse a theme's `{{< math >}}TeX{{< /math >}}` holding bare TeX in a line of text:
    display math unless it says `inline` (`hugo_math_display`)."""
    opening = HUGO_MATH_OPEN.match(state.src, state.pos)
    if opening is None:
        return False
    closing = HUGO_MATH_CLOSE.search(state.src, opening.end(), state.posMax)
    if closing is None or DELIMITED.search(state.src, opening.end(), closing.start()):
        return False  # Hugo Blox's wrapper around `$$…$$`: the shortcode plugin's
    kind = "math_inline_display" if hugo_math_display(opening) else "math_inline"
    return _emit(state, silent, kind, opening.end(), closing.start(), closing.end())


def hugo_math_display(opening: re.Match[str]) -> bool:
    """Tell whether a theme's `{{< math >}}` is display math: unless an `inline` word
    (hugo-theme-fuji's `{{< math "inline" >}}`), `inline=true` or `display=false`."""
    positional, named = shortcode_params(opening.group(1))
    inline = named.get("inline", "false").strip().lower() not in FALSE_WORDS
    shown = named.get("display", "true").strip().lower() not in FALSE_WORDS
    return "inline" not in positional and not inline and shown


def katex_display(opening: re.Match[str], forem: bool = False) -> bool:
    """Tell whether a `KATEX_OPEN` tag asks for display math: a `display` word (jekyll-katex's
    `{% katex display %}`, Hugo Book's first form) or a `display=` value that is not false
    (Hugo Book's template tests `.Get "display"`, so `display=true` and `display=1` count;
    `display=false` is read as the author means it, inline). In a dev.to post (`forem`:
    `postil.markdown.forem`) every `{% katex %}` is display unless it says `inline`.
    """
    arguments = opening.group(1) or opening.group(3) or ""
    if forem and opening["name"] == "katex":
        return forem_katex_display(arguments)
    if '"displayMode": true' in arguments.replace("'", '"'):  # hexo-math's KaTeX options
        return True
    positional, named = shortcode_params(arguments)
    if "display" in positional:
        return True
    value = named.get("display")
    return value is not None and value.strip().lower() not in FALSE_WORDS


def _slang_dollars(src: str, after: int, end: int) -> bool:
    """Tell whether an inline `$$$` ending at `after` is money slang ("costs $$$."), not a
    formula's opener: a space, a closing punctuation mark or the paragraph's end follows
    it, where Haroopad's inline formula starts at once (`$$$a \\ne 0$$$`; Pandoc's rule
    for `$`). A pair of slang `$$$` read as delimiters swallowed the text between them
    (retext-project/retext#626)."""
    return after >= end or src[after] in SLANG_FOLLOWERS


def _double_dollar_kind(state: StateInline, latex: str) -> str:
    r"""Return the token type of `$$…$$` inside a paragraph or heading (see the module doc).

    Inline when it shares its line with text (kramdown's reading: `where $$x$$ is`);
    display when its TeX starts or ends a line (`where⏎$$⏎x⏎$$⏎is`, as Pandoc and MathJax
    read it), everywhere when the site sets `math: double_dollar_in_text: display`, and in
    a post that writes jekyll-katex's `{% katexmm %}` (`liquid.KATEX_MIXED`: its mixed mode
    renders every `$$…$$` in display mode, as KaTeX's auto-render does).
    """
    on_own_lines = latex.lstrip(" \t").startswith("\n") or latex.rstrip(" \t").endswith("\n")
    doc = get_state(state.env)
    if on_own_lines or doc.double_dollar_in_text == "display" or doc.extra.get(KATEX_MIXED):
        return "math_inline_display"
    return "math_inline"


def _math_ref(state: StateInline, silent: bool) -> bool:
    r"""Parse `\eqref{…}`/`\ref{…}` in prose as a `math_ref` token; bookdown's
    `\@ref(eq:x)` as `\ref{eq:x}` (`postil.markdown.bookdown`)."""
    if state.src.startswith("\\@ref(", state.pos):
        return _bookdown_ref(state, silent)
    # `\\eqref{x}`: escaped for Markdown, which Pandoc and kramdown output as `\eqref{x}`
    # for MathJax's `processRefs` to link in the browser
    at = state.pos + 1 if state.src.startswith("\\\\", state.pos) else state.pos
    ref = REF.match(state.src, at) if state.src[state.pos] == "\\" else None
    if ref is None or not ref.group(2).strip():
        return False
    if not silent:
        token = state.push("math_ref", "a", 0)
        token.meta = {"kind": ref.group(1), "label": ref.group(2).strip(), "offset": state.pos}
    state.pos = ref.end()
    return True


def _bookdown_ref(state: StateInline, silent: bool) -> bool:
    r"""Parse bookdown's `\@ref(eq:x)` as a `math_ref`; one to a theorem, figure, table or
    heading as the xref plugin's reference to the element of that id (`bookdown.target_ids`),
    its number alone as bookdown prints it."""
    ref = bookdown.REF.match(state.src, state.pos)
    if ref is None:
        return False
    label = ref.group(1)
    if not label.startswith("eq:"):
        if "xref" not in state.md.inline.ruler.get_all_rules():
            return False  # (the math plugin alone: text)
        if not silent:
            token = state.push("xref", "", 0)
            token.content = ref.group(0)
            token.meta = {"label": label, "kind": "target", "bare": True, "pos": state.pos}
            token.meta["bookdown"] = label
            get_state(state.env).extra["id_citations"] = True  # the page's ids are wanted
        state.pos = ref.end()
        return True
    if not silent:
        token = state.push("math_ref", "a", 0)
        token.meta = {"kind": "ref", "label": label, "offset": state.pos}
    state.pos = ref.end()
    return True


def _emit(state: StateInline, silent: bool, kind: str, start: int, stop: int, end: int) -> bool:
    """Push a math token for `state.src[start:stop]` (unless silent); move to `end`.

    A `$…$` read as raw TeX is noted for `mathcore.math_escapes`, which reads it again
    with Markdown's escapes removed when another formula of the post shows they were."""
    if not silent:
        delims = (state.src[state.pos : start], state.src[stop:end])
        raw = state.src[start:stop].replace(PIPE, "|")
        content, removed, reading = _reading(raw, delims[0])
        only = only_reference(content) if kind != "math_block" else None
        if only is not None:
            state.push("math_ref", "a", 0).meta = reference_meta(
                only, start + (only.start("ref") if content == raw else 0)
            )
        else:
            token = state.push(kind, "math", 0)
            token.content = content
            token.meta = {"offset": start, "delims": delims, "removed": removed}
            _note_reading(state.env, token, raw, reading, delims[0])
    state.pos = end
    return True


def _note_reading(env: Any, token: Token, raw: str, reading: str, opener: str) -> None:
    """Note in the post's state that a formula lost all of Markdown's escapes (`reading`
    "markdown"), or keep a `$…$` (`opener` "$") read otherwise, with `raw`, its TeX as
    written, to be read again if one did (`mathcore.math_escapes`)."""
    extra = get_state(env).extra
    if reading == "markdown":
        extra["math_escaped"] = True
    elif opener == "$":
        extra.setdefault("math_raw_dollars", []).append((token, raw))


def _unescaped(latex: str, opener: str) -> tuple[str, tuple[int, ...]]:
    """Return the TeX the author meant and the escapes removed (`_reading`)."""
    content, removed, _ = _reading(latex, opener)
    return content, removed


def _reading(latex: str, opener: str) -> tuple[str, tuple[int, ...], str]:
    r"""Return the TeX the author meant: Markdown's escapes removed as `mathescape` says;
    the offsets of the backslashes removed; how it was read: "markdown" when the formula
    shows that its Markdown processor removed every escape (read below;
    `mathcore.math_escapes` then reads the post's other `$…$` so too), "subscripts" when
    only its `\_` subscripts were, "raw" otherwise.

    `$…$` whose TeX has `\\{`, `\\}`, `\\|`, `\\_`, `\\*` or `\\#` outside an environment was
    written for kramdown, where a single `$` is no math syntax, so Markdown's escapes were
    removed before MathJax read it (`$\\{x\\}$` meant the set `\{x\}`): read it as kramdown
    did. As raw TeX those are a line break, which inline math has no use for, then a group.
    `\\,`, `\\;`, `\\:` and `\\!` tell the same (`ESCAPED_SPACE_TELL`: a post whose
    Markdown processor, Zola's or Hugo's, ran before KaTeX in the browser wrote `x\\,dx`).
    In any `$…$` or `$$…$$` (an environment in it too), four backslashes or those escaped
    spaces tell the same (`ESCAPED_ROWS_TELL`): Hugo's Goldmark without passthrough and
    Zola's Markdown read `$$` as text, so their posts wrote a row break `\\\\`; as raw TeX
    that is two row breaks, an empty row no author means. So does a formula whose every
    command has its backslash doubled (`mathescape.doubled_backslashes`: `\\mu x\_n`, as
    Turndown, wordpress-export-to-markdown's converter, writes TeX), and so does a sizing
    command before an escaped delimiter (`ESCAPED_DELIMITER_TELL`: `\Big\[`, `\big\\{`,
    an error as raw TeX). `\_` alone tells
    nothing there: it is TeX's underscore (`\text{my\_var}`) in Pandoc's and kramdown's
    raw `$$`; but `\_` in a subscript's place (`y\_{t+1}`, `\sum\_i`: `escaped_subscripts`)
    was written for a processor that removed it (Hugo without passthrough, marked), and only
    that escape is undone with the raw TeX's (`unescape_subscripts`; one in a text argument stays):
    the rest is TeX as written.
    A bare environment (no opener: `\begin{align}` at a line start) was a paragraph to the
    Markdown processor of Hugo and Jekyll, so it lost its escapes too; its TeX is read so
    when it shows them (`ESCAPED_ENV_TELL`: ox-hugo writes `\begin{align\*}`, `x\_i` and
    `\\\\` for a row break), and raw otherwise (Pandoc's and Quarto's reading).
    Read so, a `\{` or `\}` keeps its backslash when the braces pair with them shown
    (`SHOWN_BRACES_KEPT`): `\\(\left\{ x \right.\\)` and the set `\\(\{1, 2\}\\)`
    mean TeX's braces, which kramdown and mdBook lost (a `\left{` error, no braces shown:
    rust-lang/mdBook#1660, #2248); `\{(x_i)}_{i}` pairs only as a group and loses it.
    """
    kramdown = (
        opener.startswith("\\\\")
        or (opener == "$" and "\\begin" not in latex and _kramdown_tell(latex))
        or (opener == "$" and _balanced_as_kramdown(latex))
        or (opener in ("$", "$$") and ESCAPED_ROWS_TELL.search(latex) is not None)
        or (opener in ("$", "$$") and ESCAPED_DELIMITER_TELL.search(latex) is not None)
        or (opener in ("$", "$$") and doubled_backslashes(latex))  # Turndown's `\\mu x\_n`
        or (not opener and ESCAPED_ENV_TELL.search(latex) is not None)
    )
    if kramdown:
        return (*markdown_unescaped(latex), "markdown")
    if "\\_" in latex and escaped_subscripts(latex):
        return (*unescape_subscripts(latex), "subscripts")
    return (*unescape(latex, DOLLAR_ESCAPES), "raw")


def _kramdown_tell(latex: str) -> bool:
    r"""Tell whether `$…$`'s `\\{`, `\\}`, `\\_` … (`KRAMDOWN_TELL`) say it was written for
    kramdown, unless its braces pair only as raw TeX: `$y\in { 0,1 \\}$` (a Typora note;
    Typora reads TeX as written: a group holding a line break) read as kramdown's would
    leave `{` open, as `\\}` became `\}`, a brace shown. No reading but the raw one parses,
    so it is taken (MathJax after kramdown would have shown an error there)."""
    if KRAMDOWN_TELL.search(latex) is None:
        return False
    if "{" not in ESCAPED.sub("", latex):
        return True
    return balanced_braces(unescape(latex, KRAMDOWN_ESCAPES)[0]) or not balanced_braces(latex)


def _balanced_as_kramdown(latex: str) -> bool:
    r"""Tell whether `$…$`'s braces balance only once kramdown's `\{`/`\}` escapes are
    undone: `$\{(x_i, y_i)}_{i}$` is no TeX (its `}` closes nothing), but kramdown read
    `\{` as `{`, and MathJax typeset the group."""
    if "\\{" not in latex and "\\}" not in latex:
        return False
    return not balanced_braces(latex) and balanced_braces(unescape(latex, KRAMDOWN_ESCAPES)[0])


def _block_opener(line: str) -> tuple[str, str] | None:
    """Return (opening delimiter, closing delimiter) if `line` opens display math."""
    for opener, closer in CLOSERS.items():
        if line.startswith(opener) and not (opener == TRIPLE and line[3:4] == "$"):
            return opener, closer  # `$$$$` is an empty `$$…$$`, no `$$$`
    env = BEGIN_ENV.match(line)
    if env:
        return "", "\\end{" + env.group(1) + "}"
    return None


def math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    r"""Parse display math starting a line: `$$…$$`, `\[…\]`, `\\[…\\]`, `\begin{align}…`.

    The first closing delimiter after the opener must end its line: `$$a$$ is` starts a
    paragraph with inline math; Quarto's label may follow it (`$$ … $$ {#eq-x}`: the
    formula is numbered, as with `\label{eq-x}`). A blank line inside is allowed only while
    the formula is clearly unfinished (`_unfinished`); a `$$` that is never closed is left
    as text with a warning at its line.

    Lazy continuation lines (`postil.markdown.mathlazy`): a formula line outdented inside
    a list item (`- text⏎$$⏎x⏎$$`, `- text⏎$$x$$`) goes on the item's paragraph, where the
    inline rule reads the formula as display math (on a quote's lazy line in a list item,
    `1. > q⏎$$x$$`, it ends the quote and `mathquote` moves it back in); a formula opened
    inside a list item or quote may go on, and close, on lazy lines (`> $$⏎x⏎$$`); and lazy
    lines right after a formula stay in its container as a paragraph (`1. a⏎   $$x$$⏎lazy`),
    as CommonMark, which reads the formula as paragraph text, keeps them there.
    """
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith(("$", "\\", "{{", "{%"), begin):  # how every opener begins
        return False
    wrapper = MATH_WRAPPER_OPEN.match(state.src, begin, state.eMarks[start_line])
    if wrapper:  # Hugo Blox's `{{< math >}}$$`: the formula starts after the tag
        begin = wrapper.end()
    delims = _block_opener(state.src[begin : state.eMarks[start_line]])
    if wrapper and (delims is None or not delims[0]):
        line = state.src[state.bMarks[start_line] + state.tShift[start_line] : wrapper.end()]
        # bare TeX up to `{{< /math >}}` is a theme's formula; else the shortcode plugin's
        return _hugo_math_block(state, start_line, end_line, silent, line.rstrip())
    if delims is None:
        if state.src.startswith("\\begin", begin):
            _warn_text_environment(state, start_line, begin)
        return _katex_block(state, start_line, end_line, silent)
    opener, closer = delims
    if not opener and state.parentType == "paragraph" and _inline_math_open(state, begin):
        return False  # `$f = ⏎\begin{cases}…\end{cases}$`: the environment is inline math's
    if not opener and state.parentType == "blockquote" and _quote_math_open(state, start_line):
        return False  # `> $$⏎f =⏎\begin{cases}…`: a lazy line of the quote's open formula
    if silent and opener == "$$" and _closes_inline(state, begin):
        return False  # it closes the paragraph's formula (`> $$⏎a⏎> $$`): no interruption
    lazy = 0 <= state.sCount[start_line] < state.blkIndent  # outdented in a list item
    scan = _find_closer(state, start_line, end_line, begin + len(opener), closer, lazy)
    if (
        scan.pos < 0
        and opener == "$$"
        and not (silent and _closes_inline(state, begin))
        and not _closed_in_lazy_lines(state, scan.line, end_line, begin + len(opener))
    ):
        _warn_unclosed(state, start_line, begin, scan.blank)
    closing_tag = _wrapper_close(state, scan, closer) if wrapper else None
    if closing_tag is not None:
        scan = scan._replace(ends_line=True)
    label = _quarto_label(state, scan, opener, closer)
    number = "" if label else _hand_number(state, scan, opener, begin)
    if scan.pos < 0 or not (scan.ends_line or label or number):
        return False
    if opener == "\\[" and _bracketed_prose(state.src[begin + 2 : scan.pos]):
        return False  # Markdown's escaped brackets around words: a paragraph's text
    if lazy:  # outdented in a list item: a lazy line of its paragraph or quote (`mathlazy`)
        if not (silent and state.parentType in ("paragraph", "blockquote")):
            return False
        # the formula goes on in the item; one on a quote's lazy line (`1. > q⏎$$x$$`) is
        # moved back into the quote by `mathquote`
        _indent_lazy_lines(state, start_line, scan.line)
        return True
    if silent:
        return True
    stop = scan.pos + (len(closer) if not opener else 0)
    token = state.push("math_block", "math", 0)
    source = _lines_between(state, start_line, begin + len(opener), stop)
    token.content, removed, reading = _reading(source, opener)
    _note_reading(state.env, token, source, reading, opener)
    if label or number:  # numbered as `\label` numbers it; `@eq-…` and `\eqref` refer to it
        tex = token.content.rstrip()
        mark = f"\\label{{{label}}}" if label else f"\\tag{{{number}}}"
        token.content = f"{tex} {mark}{token.content[len(tex) :]}"
    token.map = [start_line, scan.line + 1]
    col0 = begin + len(opener) - state.bMarks[start_line]
    token.meta = {"col0": col0, "delims": delims, "removed": removed, "source": source}
    state.line = closing_tag if closing_tag is not None else scan.line + 1
    continue_lazily(state, end_line, math_block)
    return True


def _indent_lazy_lines(state: StateBlock, first: int, last: int) -> None:
    """Mark the lines `first`…`last` of a formula that interrupts a list item's paragraph
    on lazy lines (`1. text⏎$$x$$`) as indented into the item, so that the item's parse
    goes on with the formula (as a block of the item) instead of ending at its outdented
    line; CommonMark keeps these lines in the item as lazy paragraph text. markdown-it's
    block quote rule marks its lazy lines through `sCount` the same way."""
    for line in range(first, last + 1):
        state.sCount[line] = max(state.sCount[line], state.blkIndent)


def _wrapper_close(state: StateBlock, scan: _Scan, closer: str) -> int | None:
    """Return the line after the `{{< /math >}}` that closes a Hugo Blox wrapper opened on the
    formula's first line: right after the closing delimiter (`$${{< /math >}}`) or alone on
    the next line; None when neither (the formula then stands without its wrapper's end,
    which the shortcode plugin reports if it comes later)."""
    if scan.pos < 0:
        return None
    after = scan.pos + len(closer)
    if MATH_WRAPPER_CLOSE.fullmatch(state.src, after, state.eMarks[scan.line]):
        return scan.line + 1
    if scan.ends_line and scan.line + 1 < state.lineMax:
        line = scan.line + 1
        first = state.bMarks[line] + state.tShift[line]
        if MATH_WRAPPER_CLOSE.fullmatch(state.src, first, state.eMarks[line]):
            return line + 1
    return None


def _lines_between(state: StateBlock, start_line: int, start: int, stop: int) -> str:
    """Return the source from offset `start` on line `start_line` to offset `stop`, each line
    without its container's markers: inside a block quote every line starts after its `>`
    (markdown-it's `bMarks` there), which a plain slice of the source would keep in the TeX."""
    parts, line = [], start_line
    while line < state.lineMax and state.bMarks[line] <= stop:
        first = start if line == start_line else state.bMarks[line]
        parts.append(state.src[first : min(state.eMarks[line], stop)])
        if state.eMarks[line] >= stop:
            break
        line += 1
    return "\n".join(parts)


def _katex_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Parse a `{{< katex display >}}` (or `{% katex display %}`, hexo-math's `{% math %}`,
    `{% mathjax %}`) line, TeX lines and its closing tag's line as display math (a katex tag
    without `display` makes the lines a paragraph: `_katex_inline`)."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    line = state.src[begin : state.eMarks[start_line]].rstrip()
    opening = KATEX_OPEN.fullmatch(line)
    if opening is None:
        return _hugo_math_block(state, start_line, end_line, silent, line)
    forem = opening["name"] == "katex" and is_forem(state.env)
    if not (katex_display(opening, forem) or opening["name"] in HEXO_MATH):
        return False
    name = opening["name"]
    close = find_closer(state, start_line, end_line, f"end{name}" if name else "katex")
    if close is None:
        return False
    return _emit_katex_block(state, start_line, close, silent, line, forem)


def _hugo_math_block(
    state: StateBlock, start_line: int, end_line: int, silent: bool, line: str
) -> bool:
    """Parse a theme's `{{< math >}}` line, bare TeX lines and `{{< /math >}}` as display
    math; an inline one on lines of its own as a paragraph, whose inline rule reads it
    (`_hugo_math_inline`), not as the shortcode plugin's wrapper."""
    opening = HUGO_MATH_OPEN.fullmatch(line)
    if opening is None:
        return False
    close = find_closer(state, start_line, end_line, "math")
    if close is None:
        return False
    body = state.src[state.eMarks[start_line] : state.bMarks[close]]
    if DELIMITED.search(body):
        return False  # Hugo Blox's wrapper around `$$…$$`: the shortcode plugin's
    if hugo_math_display(opening):
        return _emit_katex_block(state, start_line, close, silent, line, False)
    if not silent:
        state.push("paragraph_open", "p", 1).map = [start_line, close + 1]
        inline = state.push("inline", "", 0)
        inline.content = state.getLines(start_line, close + 1, state.blkIndent, False).strip()
        inline.map, inline.children = [start_line, close + 1], []
        state.push("paragraph_close", "p", -1)
        state.line = close + 1
    return True


def _emit_katex_block(
    state: StateBlock, start_line: int, close: int, silent: bool, line: str, forem: bool
) -> bool:
    """Push the display formula between a math tag's line and its closing tag's line."""
    if silent:
        return True
    closer = state.src[state.bMarks[close] + state.tShift[close] : state.eMarks[close]].strip()
    source = _lines_between(
        state, start_line, state.eMarks[start_line], state.bMarks[close] + state.tShift[close]
    )
    token = state.push("math_block", "math", 0)
    token.content, removed = unescape(source, FOREM_ESCAPES) if forem else _unescaped(source, line)
    token.map = [start_line, close + 1]
    col0 = state.eMarks[start_line] - state.bMarks[start_line]
    token.meta = {"col0": col0, "delims": (line, closer), "removed": removed, "source": source}
    state.line = close + 1
    return True


def _quarto_label(state: StateBlock, scan: _Scan, opener: str, closer: str) -> str:
    """Return the Quarto or MyST label written after the closing `$$` (`$$ {#eq-x}`,
    `$$ (eq-x)`), or ""."""
    if opener != "$$" or scan.pos < 0 or scan.ends_line:
        return ""
    after, end = scan.pos + len(closer), state.eMarks[scan.line]
    found = QUARTO_LABEL.fullmatch(state.src, after, end)
    if found:
        return found.group(1) or found.group(2)
    short = SHORT_LABEL.fullmatch(state.src, after, end)
    roles = ("eq", "math:numref")  # `mystrole.EQUATION_ROLES`
    referred = short is not None and any(f"{{{r}}}`{short.group(1)}`" in state.src for r in roles)
    return short.group(1) if short is not None and referred else ""


def _hand_number(state: StateBlock, scan: _Scan, opener: str, begin: int) -> str:
    """Return the equation number written by hand after the closing `$$` (`$$ … $$ (2)`,
    `(3.1)`, `(ii)`) that no label reading took, or "".

    markdown-it-texmath's documented syntax shows it as the formula's number; MathJax
    previews showed it as text on a line under the formula
    (shd101wyy/markdown-preview-enhanced#1368), which no author meant. It is the formula's
    `\\tag`, unless the formula numbers itself (a `\\tag`, `\\label` or numbered environment).
    """
    if opener != "$$" or scan.pos < 0 or scan.ends_line:
        return ""
    found = HAND_NUMBER.fullmatch(state.src, scan.pos + len(opener), state.eMarks[scan.line])
    if found is None or SELF_NUMBERED.search(state.src, begin, scan.pos):
        return ""
    return found.group(1)


class _Scan(NamedTuple):
    """Where a display formula's closing delimiter is (`pos` -1: nowhere)."""

    line: int
    pos: int
    ends_line: bool
    blank: int  # the blank line that ended the search, or -1


def _find_closer(
    state: StateBlock, start_line: int, end_line: int, pos: int, closer: str, lazy: bool
) -> _Scan:
    r"""Find the first `closer` from `pos` on, inside the container; say if it ends its line.

    `lazy`: the opener is outdented from its container (a paragraph's lazy continuation
    line), so the lines after it may be outdented too.

    A blank line ends the search (Pandoc's rule) unless the TeX before it is unfinished:
    `$$⏎⏎\boxed{…}⏎$$` is one formula, as MathJax reads it in a Hugo `rawhtml` shortcode;
    or unless only blank lines stand between it and the closing delimiter (`_closer_next`),
    or TeX and no prose does (`_closing_tex_run`: `…\end{cases}⏎⏎\tag{6}⏎$$`).
    """
    # a formula on a lazy line goes on over lines as outdented as its opener
    indent = min(state.sCount[start_line], state.blkIndent) if lazy else state.blkIndent
    for line in range(start_line, end_line):
        line_start = max(pos, state.bMarks[line] + state.tShift[line])
        text = state.src[line_start : state.eMarks[line]]
        if line > start_line and not text.strip():
            if (
                _unfinished(state.src[pos:line_start])
                or _closer_next(state, line, closer, indent)
                or _closing_tex_run(state, line, closer, indent)
            ):
                continue
            return _Scan(line, -1, False, line)
        outdented = line > start_line and state.sCount[line] < state.blkIndent and not lazy
        if outdented and not lazy_line(state, line, end_line, math_block):
            return _Scan(line, -1, False, -1)  # outside the container: the search stops
        found = text.find(closer)
        if found >= 0:
            ends_line = not text[found + len(closer) :].strip()
            return _Scan(line, line_start + found, ends_line, -1)
    return _Scan(end_line, -1, False, -1)


def _closer_next(state: StateBlock, blank: int, closer: str, indent: int) -> bool:
    r"""Tell if the first line with text after the blank line `blank` starts with `closer`:
    `$$⏎⏎F⏎⏎$$`, as kramdown posts space their formulas, holds only blank lines around `F`
    (kramdown reads a `$$` block up to the next `$$`; MathJax ignores the blank lines).
    `indent`: the least indent of a line of the formula (its container's)."""
    line = blank
    while line < state.lineMax and state.isEmpty(line):
        line += 1
    if line >= state.lineMax or state.sCount[line] < indent:
        return False
    return state.src.startswith(closer, state.bMarks[line] + state.tShift[line])


def _closing_tex_run(state: StateBlock, blank: int, closer: str, indent: int) -> bool:
    r"""Tell if the lines after the blank line `blank` are runs of TeX, the last ending with
    `closer` at a line's end: `$$⏎F⏎⏎\tag{6}⏎$$` or `$$⏎A⏎⏎B⏎⏎C⏎$$`, one formula as kramdown
    and Hexo's kramed read a `$$` block (up to the next `$$`; their writers' MathJax never
    saw the blank lines). TeX means a command or a math sign and no run of four words
    (`_tex_run`): a paragraph of prose after an unclosed `$$` stays the warning it was.
    """
    line, first, limit = blank, -1, min(state.lineMax, blank + TEX_RUN_LINES)
    while line < limit:
        if state.isEmpty(line):  # several runs of TeX between blank lines: kramed's
            line, first = line + 1, -1  # and kramdown's `$$` block goes on to the `$$`
            continue
        first = line if first < 0 else first
        if state.sCount[line] < indent:
            return False
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if closer in text:
            run = state.src[state.bMarks[first] : state.bMarks[line]] + text[: -len(closer)]
            ends = text.endswith(closer) and text.find(closer) == len(text) - len(closer)
            # the closer alone on its line after a blank one: the runs before were TeX
            return ends and (not run.strip() or _tex_run(run))
        if line + 1 >= limit or state.isEmpty(line + 1):  # a run ends: TeX, or no formula
            if not _tex_run(state.src[state.bMarks[first] : state.eMarks[line]]):
                return False
        line += 1
    return False


def _tex_run(run: str) -> bool:
    """Tell whether a run of lines reads as TeX: a command or a math sign (`x^2 + y^2 = 1`),
    and no run of four words (`PROSE`)."""
    return bool(TEX_SIGN.search(run)) and PROSE.search(run) is None


TEX_SIGN = re.compile(r"[\\^_=+{}<>]")
"""What only TeX (or math) writes in a run of lines: a command, a script, a relation."""

TEX_RUN_LINES = 200
"""How far `_closing_tex_run` looks for the closer across runs of TeX (a formula that long
is a page of TeX; the bound keeps an unclosed `$$` from scanning the rest of a long post)."""


def _unfinished(latex: str) -> bool:
    """Tell if display math read so far clearly goes on: empty, an open `{` or environment."""
    if is_blank(latex):
        return True
    depth = 0
    for match in TEX_GROUPING.finditer(latex):
        depth += {"{": 1, "}": -1}.get(match.group(0), 0)
    return depth > 0 or latex.count("\\begin{") > latex.count("\\end{")


def _inline_math_open(state: StateBlock, begin: int) -> bool:
    r"""Tell if the paragraph before `begin` leaves inline math open: an odd number of `$$`
    (`$$⏎\begin{align}…\end{align}⏎$$.`, whose closing `$$` does not end its line, so the
    paragraph holds the formula) or of single `$` (escaped ones and `\$` not counted), or
    more `\(` than `\)`."""
    text = _prose(state.src[state.bMarks[state.line] : begin])
    doubles = text.count("$$")
    singles = text.count("$") - 2 * doubles
    return doubles % 2 == 1 or singles % 2 == 1 or text.count("\\(") > text.count("\\)")


def _quote_math_open(state: StateBlock, line: int) -> bool:
    r"""Tell if, while a block quote looks for its end (a silent call), the paragraph the
    quote holds before `line` leaves a `$$` open (an odd count): then a `\begin{…}` on
    that lazy line is TeX inside the formula, not a block that ends the quote."""
    first = line - 1
    while first > state.line and not state.isEmpty(first - 1):
        first -= 1
    return _prose(state.src[state.bMarks[first] : state.bMarks[line]]).count("$$") % 2 == 1


def _closed_in_lazy_lines(state: StateBlock, line: int, end_line: int, pos: int) -> bool:
    """Tell if the search for a `$$`'s closer stopped at a lazy continuation line (inside a
    block quote, `> $$⏎a + b⏎> $$`: markdown-it marks it with a negative `sCount`) and a `$$`
    closes the formula before the paragraph ends: the paragraph takes those lines and the
    inline rule sets the formula, so it is not "never closed"."""
    if line >= end_line or state.sCount[line] >= 0:
        return False
    while line < end_line and not state.isEmpty(line):
        line += 1
    return state.src.find("$$", pos, state.eMarks[line - 1]) >= 0


def _closes_inline(state: StateBlock, begin: int) -> bool:
    """Tell if the `$$` at `begin`, inside a paragraph, closes a `$$` opened before it.

    While a paragraph asks whether a line ends it (a silent call), `state.line` is the
    paragraph's first line; an odd count of `$$` before this one leaves one open (those in
    code spans and escaped ones not counted: `_prose`).
    """
    return _prose(state.src[state.bMarks[state.line] : begin]).count("$$") % 2 == 1


CODE_SPAN_RUN = re.compile(r"(?<!\\)`+")
"""A run of backticks that may open a code span (one after a backslash is escaped)."""


def _prose(text: str) -> str:
    """Return `text` (a paragraph's lines so far) without its escaped characters and its
    closed code spans, whose dollars open and close no formula: `` the first `$$` is
    missing:⏎$$⏎x⏎$$ `` holds one formula, not an open `$$` and an unclosed one.

    A code span runs from a backtick run to the next run of the same length (CommonMark,
    "Code spans"); a run with no such closer is literal backticks.
    """
    if "`" not in text:
        return ESCAPED.sub("", text)
    kept = []
    at = 0
    while (opener := CODE_SPAN_RUN.search(text, at)) is not None:
        width = len(opener.group())
        closer = re.compile(f"(?<!`)`{{{width}}}(?!`)").search(text, opener.end())
        if closer is None:
            kept.append(text[at : opener.end()])
            at = opener.end()
            continue
        kept.append(text[at : opener.start()])
        at = closer.end()
    kept.append(text[at:])
    return ESCAPED.sub("", "".join(kept))


def _warn_text_environment(state: StateBlock, line: int, begin: int) -> None:
    """Warn once that the LaTeX environment starting `line` is not math postil typesets
    (`\\begin{algorithm}`, `\\begin{tikzpicture}`): its lines show as text (silent calls
    too: one in the middle of a paragraph is found by the paragraph's interruption check)."""
    found = TEXT_ENV.match(state.src, begin)
    warned = state.env.setdefault("_math_text_env", {"lines": set(), "until": -1})
    if found is None or line in warned["lines"] or begin < warned["until"]:
        return  # warned, or inside an environment warned about (`algorithmic` in `algorithm`)
    if _inline_math_open(state, begin):
        return
    warned["lines"].add(line)
    end = state.src.find(found.group().replace("\\begin", "\\end", 1), found.end())
    warned["until"] = end if end >= 0 else len(state.src)
    column = begin - state.src.rfind("\n", 0, begin)
    get_state(state.env).warn(line, column, text_environment(found.group()))


UNCLOSED_DISPLAY = (
    "`$$` opens display math that is never closed, so it shows as text; add a `$$` line "
    "where the formula ends, or write \\$$ for dollar signs"
)
"""The warning at a `$$` no `$$` closes (a blank line ends the search: `_warn_unclosed`)."""


def _warn_unclosed(state: StateBlock, line: int, begin: int, blank: int) -> None:
    """Warn once that the `$$` starting `line` is never closed (silent calls too).

    When a blank line stopped the search and a `$$` after it would have closed the
    formula, both lines are named in the message and that `$$` is not warned about again.
    """
    warned = state.env.setdefault("_math_unclosed", set())
    if line in warned:
        return
    warned.add(line)
    doc = get_state(state.env)
    message = UNCLOSED_DISPLAY
    closing = _next_dollars_line(state, blank) if blank >= 0 else -1
    if closing >= 0:
        warned.add(closing)
        message = (
            f"`$$` opens display math that is not closed before the blank line on line "
            f"{doc.body_line + blank}: a formula cannot hold a blank line; delete it "
            f"(the `$$` on line {doc.body_line + closing} closes it)"
        )
    doc.warn(line, begin - state.src.rfind("\n", 0, begin), message)  # 1-based column


def _next_dollars_line(state: StateBlock, blank: int) -> int:
    """Return the line holding `$$` in the text right after the blank line `blank` (-1: none).

    Only the next run of non-blank lines is searched: a `$$` after more prose opens the
    next formula rather than closing this one.
    """
    line = blank
    while line < state.lineMax and state.isEmpty(line):
        line += 1
    while line < state.lineMax and not state.isEmpty(line):
        if "$$" in state.src[state.bMarks[line] : state.eMarks[line]]:
            return line
        line += 1
    return -1


def math_table_pipes(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Run markdown-it's GFM `table` rule with `|` inside `$…$` hidden from its cell split.

    The pipes are swapped for a private-use character of the same length (so every offset
    stays valid) while the table rule runs, and restored by the inline math rule.
    Most lines start no table: the table rule's first test (the next line starts with
    `|`, `-` or `:`, never inside math) is made here first, without protecting anything.
    """
    if start_line + 2 > end_line:
        return False
    after = state.bMarks[start_line + 1] + state.tShift[start_line + 1]
    if after >= state.eMarks[start_line + 1] or state.src[after] not in "|-:":
        return False
    original = state.src
    state.src = protect_pipes(original, state.env)
    try:
        return table_rule(state, start_line, end_line, silent)
    finally:
        state.src = original


def render_math(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Render a math token as MathML (or a `math-error` span), wrapped for display math."""
    token = tokens[idx]
    display = token.type != "math_inline" or is_end_mark(token.content)
    state = get_state(env)
    html = render_formula(token, display, state)
    if not html:  # an empty formula (warned about) or one holding only definitions
        return ""
    if html.startswith("<math"):  # not a `math-error` span
        state.math_chars |= formula_chars(html)
    if token.type == "math_block":
        return f"<div {DISPLAY_ATTRS}>{html}</div>\n"
    if display:
        return f"<span {DISPLAY_ATTRS}>{html}</span>"
    return html


def render_html_block(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Render a raw HTML block with the formulas `math_resolve` found in it typeset in
    place of their TeX (`postil.markdown.mathhtml`)."""
    token = tokens[idx]
    formulas = (token.meta or {}).get("formulas")
    if not formulas:
        return str(token.content)
    state = get_state(env)
    html, out, pos = token.content, [], 0
    for formula in formulas:
        if formula.token is None:  # MathJax or KaTeX the post loaded itself: left out
            out += [html[pos : formula.start]]
            pos = formula.end
            continue
        if formula.token.type == "math_ref":
            out += [
                html[pos : formula.start],
                render_math_ref(self, [formula.token], 0, options, env),
            ]
            pos = formula.end
            continue
        mathml = render_formula(formula.token, formula.display, state)
        if mathml.startswith("<math"):  # not a `math-error` span
            state.math_chars |= formula_chars(mathml)
        if (formula.display or is_end_mark(formula.token.content)) and mathml:
            mathml = f"<span {DISPLAY_ATTRS}>{mathml}</span>"
        out += [html[pos : formula.start], mathml]
        pos = formula.end
    out.append(html[pos:])
    return "".join(out)


def render_math_ref(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    r"""Render `\eqref{x}` / `\ref{x}` in prose as a link to the numbered equation, or
    `\ref{x}` to a numbered figure, table or theorem of that id (its number)."""
    meta = tokens[idx].meta
    before, after = meta.get("around", ("", ""))
    return before + _reference_html(meta, get_state(env)) + after


def _reference_html(meta: dict[str, Any], doc: RenderState) -> str:
    """Return the link (or LaTeX's `??`) of one `math_ref` token's reference."""
    label = meta["label"]
    if label not in doc.equations and label in doc.figures:  # `\ref{thm:x}` to a theorem
        return f'<a class="eqref" href="{escape("#" + label)}">{doc.figures[label]}</a>'
    number = doc.equations.get(label)
    if number is None:  # reported (`mathdoc._check_refs`): LaTeX's ?? in bold, no link
        missing = "(??)" if meta["kind"] == "eqref" else "??"
        return f'<strong class="xref-missing">{missing}</strong>'
    text = f"({number})" if meta["kind"] == "eqref" else number
    href = escape("#" + anchor_id(label))
    return f'<a class="eqref" href="{href}">{escape(text)}</a>'
