r"""Math inside raw HTML blocks, typeset at build time as MathJax typesets it in the browser.

A Markdown processor leaves an HTML block alone (`<div class="note">…</div>`, `<center>`,
a `<table>` written by hand), and the posts of Jekyll, Hugo and Pelican sites put math in
them because MathJax, running over the finished page, typesets it wherever it is; a hidden
`<div>` of `$\newcommand…$` is how many of them define their macros. postil typesets math at
build time, so `find_formulas` finds it in the block's text: `$$…$$` and `\[…\]` (display),
`\(…\)` and `$…$` (inline, by the same rules as in Markdown:
`postil.math.delimiters.Closers`), a math environment up to its own `\end` (display:
MathJax's `processEnvironments` typesets `<p>\begin{equation}…\end{equation}</p>`), and
`\eqref{x}`/`\ref{x}` (links to the equation: MathJax's `processRefs`), WordPress'
`$latex …$` (inline: `postil.markdown.wplatex`). Not
inside tags, comments, `<code>`, `<pre>`, `<script>`, `<style>`, `<textarea>`, `<svg>` or
`<math>`, and not across a tag: a formula lies in one run of text. HTML's character
references in the TeX are decoded first (`$a &lt; b$` is `a < b`). MathJax or KaTeX loaded
or configured by the post itself is left out, its macros kept (`postil.markdown.mathloader`).
The formulas are math tokens like the others (`postil.markdown.mathdoc.math_resolve`
gives them their macros, numbers and labels; errors are reported at their line and column);
`postil.markdown.math.render_html_block` writes them in place of their TeX.
"""

from __future__ import annotations

import re
from html import unescape
from typing import NamedTuple

from markdown_it.token import Token

from postil.markdown.mathloader import LOADER_URL, browser_math, config_macros
from postil.markdown.mathref import only_reference, reference_meta
from postil.markdown.wplatex import Shortcode, shortcode_at, tex_of
from postil.math.delimiters import Closers, escaped
from postil.math.environments import KNOWN_ENVS

SKIPPED = frozenset({"code", "pre", "script", "style", "textarea", "svg", "math", "kbd", "samp"})
"""Elements whose text is never math."""

# A wide formula scrolls sideways (math.css), so its wrapper must take keyboard focus
# (axe's scrollable-region-focusable) and then needs a role and a name: `group`, not the
# `region` landmark, so a post with many equations does not fill the landmark list.
DISPLAY_ATTRS = 'class="math-display" tabindex="0" role="group" aria-label="Equation"'
"""The attributes of display math's wrapper (`math.render_math` uses them too)."""

PIECE = re.compile(
    r"<!--.*?-->|<![^>]*>|<\?.*?\?>"  # comments, declarations, processing instructions
    r"""|<(/?)([A-Za-z][\w:-]*)(?:[^>"']|"[^"]*"|'[^']*')*>""",  # a tag, quoted values kept
    re.S,
)
"""What ends a run of HTML text: a comment, declaration or processing instruction, or a tag
(group 1 "/" for an end tag, group 2 its name)."""
# Display math may be a bare environment at the start of a line: MathJax finds any
# `\begin{…}…\end{…}` in text (its `processEnvironments`, on by default) and typesets it as
# display math, and Pelican's render_math and MkDocs' arithmatex keep it from Markdown.
# A known environment at a line start; a starred one may be written `align\*` (ox-hugo
# escapes the star from Markdown's emphasis: `ESCAPED_ENV_TELL` then unescapes the TeX).
BEGIN_ENV = re.compile(
    r"\\begin\{("
    + "|".join(
        re.escape(e) + (r"|" + re.escape(e[:-1] + "\\*") if e.endswith("*") else "")
        for e in sorted(KNOWN_ENVS | {"prooftree"}, key=len, reverse=True)
    )
    + r")\}"
)
# bussproofs' `prooftree` too: MathJax typesets one written bare in the text when its
# `bussproofs` package is loaded, and `postil.math.proofs` draws it in math.
_OPENERS = re.compile(r"\$\$|\$|\\\[|\\\(|" + BEGIN_ENV.pattern + r"|\\(eqref|ref)\{([^{}\n]*)\}")
_CLOSERS = {"$$": "$$", "\\[": "\\]", "\\(": "\\)"}


class HtmlFormula(NamedTuple):
    """One formula in an HTML block: its math token, whether it is display math, and where
    its delimiters start and end in the block's HTML. A MathJax or KaTeX element the post
    loads itself (`postil.markdown.mathloader`) is one too: its token holds the macros its
    configuration defines, or is None; either way the element is left out."""

    token: Token | None
    display: bool
    start: int
    end: int


def may_hold_math(html: str) -> bool:
    """Tell if an HTML block has a math delimiter, or MathJax or KaTeX in it (most have none)."""
    if "$" in html or "\\(" in html or "\\[" in html or "\\begin{" in html or "ref{" in html:
        return True
    return ("<script" in html or "<link" in html) and LOADER_URL.search(html) is not None


def find_formulas(block: Token) -> list[HtmlFormula]:
    """Return the formulas in the text of an `html_block` token, in order (module doc)."""
    html = block.content
    found: list[HtmlFormula] = []
    pos, skipped = 0, list[str]()
    for piece in PIECE.finditer(html):
        if not skipped:
            found += _in_text(html, pos, piece.start(), block)
        closing, name = piece.group(1), (piece.group(2) or "").lower()
        if name in ("script", "link") and not closing and not skipped:
            loader = _browser_math(html, piece, block)
            found += [loader] if loader else []
        if name in SKIPPED and not piece.group(0).endswith("/>"):
            if not closing:
                skipped.append(name)
            elif skipped and skipped[-1] == name:
                skipped.pop()
        pos = piece.end()
    if not skipped:
        found += _in_text(html, pos, len(html), block)
    return found


def _browser_math(html: str, tag: re.Match[str], block: Token) -> HtmlFormula | None:
    """Return the element starting with `tag` as a formula to leave out when it loads,
    configures or runs MathJax or KaTeX (a script up to its end tag), else None."""
    end = tag.end()
    body = ""
    if tag.group(2).lower() == "script":
        close = html.lower().find("</script", end)
        stop = html.find(">", close) if close >= 0 else -1
        if stop < 0:
            return None
        body, end = html[tag.end() : close], stop + 1
    if not browser_math(tag.group(0), body):
        return None
    definitions = config_macros(body) if body else ""
    if not definitions:
        return HtmlFormula(None, False, tag.start(), end)
    token = Token("math_inline", "math", 0)
    token.content, token.map = definitions, block.map
    line0 = block.map[0] if block.map else 0
    token.meta = {"where": (line0, html, 0), "offset": tag.start(), "html": True}
    return HtmlFormula(token, False, tag.start(), end)


def _environment(text: str, start: int, opener: re.Match[str], block: Token) -> list[HtmlFormula]:
    r"""Return the math environment `opener` begins in `text` (the run of text at `start`
    in the block's HTML) as display math up to its own `\end`, or nothing when it is never
    ended there or is written `align\*` (Markdown's escape, which an HTML block never
    undoes: MathJax would not know the name either)."""
    name = opener.group(1)
    closer = "\\end{" + name + "}"
    close = text.find(closer, opener.end())
    if close < 0 or "\\" in name:
        return []
    end = close + len(closer)
    token = Token("math_block", "math", 0)
    token.content, token.map = unescape(text[opener.start() : end]), block.map
    line0 = block.map[0] if block.map else 0
    token.meta = {
        "where": (line0, block.content, 0),
        "offset": start + opener.start(),
        "html": True,
    }
    return [HtmlFormula(token, True, start + opener.start(), start + end)]


def _reference(start: int, opener: re.Match[str], block: Token) -> list[HtmlFormula]:
    r"""Return `\eqref{x}`/`\ref{x}` in a run of text as a `math_ref` token (a link to the
    equation, as in Markdown text), or nothing for an empty label."""
    label = opener.group(3).strip()
    if not label:
        return []
    token = Token("math_ref", "a", 0)
    line0 = block.map[0] if block.map else 0
    at = start + opener.start()
    where = (line0, block.content, 0)
    token.meta = {"kind": opener.group(2), "label": label, "offset": at, "where": where}
    return [HtmlFormula(token, False, at, start + opener.end())]


def _wordpress(text: str, start: int, found: Shortcode, block: Token, html: str) -> HtmlFormula:
    """Return WordPress' `$latex …$` in a run of text as a formula (`postil.markdown.wplatex`)."""
    token = Token("math_block" if found.display else "math_inline", "math", 0)
    token.content, token.map = tex_of(text, found)[0], block.map
    line0 = block.map[0] if block.map else 0
    token.meta = {"where": (line0, html, 0), "offset": start + found.tex_start, "html": True}
    return HtmlFormula(token, found.display, start + found.start, start + found.end)


def _in_text(html: str, start: int, stop: int, block: Token) -> list[HtmlFormula]:
    """Return the formulas of the run of text `html[start:stop]`."""
    text = html[start:stop]
    if not may_hold_math(text):
        return []
    found: list[HtmlFormula] = []
    closers = Closers(text)
    search = 0
    while (opener := _OPENERS.search(text, search)) is not None:
        begin, delimiter = opener.start(), opener.group(0)
        if escaped(text, begin):
            search = begin + 1
            continue
        inner = opener.end()
        if opener.group(2) is not None:  # MathJax's `processRefs`: `\eqref{x}` in text
            found += _reference(start, opener, block)
            search = opener.end()
            continue
        if delimiter.startswith("\\begin"):  # MathJax's `processEnvironments`
            environment = _environment(text, start, opener, block)
            found += environment
            search = environment[0].end - start if environment else inner
            continue
        if delimiter[0] == "$" and (shortcode := shortcode_at(text, begin)) is not None:
            found.append(_wordpress(text, start, shortcode, block, html))  # `$latex …$`
            search = shortcode.end
            continue
        if delimiter == "$":  # Pandoc's rule, then MathJax's reading of `$x = $`, `$ x $`
            valid = inner < len(text) and not text[inner].isspace()
            close = closers.dollar(inner, len(text)) if valid else -1
            if close < 0 and inner < len(text):
                close = closers.spaced_dollar(inner, len(text))
        else:
            close = text.find(_CLOSERS[delimiter], inner)
            close = close if close > inner else -1
        if close < 0:
            search = begin + len(delimiter)
            continue
        end = close + (1 if delimiter == "$" else 2)
        display = delimiter in ("$$", "\\[")
        token = Token("math_block" if display else "math_inline", "math", 0)
        token.content, token.map = unescape(text[inner:close]), block.map
        line0 = block.map[0] if block.map else 0
        token.meta = {"where": (line0, html, 0), "offset": start + inner, "html": True}
        only = None if display else only_reference(token.content)
        if only is not None:  # `$\eqref{x}$`: a reference in prose, as in Markdown's text
            token = Token("math_ref", "a", 0)
            token.meta = {**reference_meta(only, start + inner), "where": (line0, html, 0)}
        found.append(HtmlFormula(token, display, start + begin, start + end))
        search = end
    return found
