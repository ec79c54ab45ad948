r"""Math inside raw HTML blocks, typeset at build time as MathJax typesets it in the browser.

A Markdown processor leaves an HTML block alone (`<div class="note">…</div>`, `<center>`,
a `<table>` written by hand), and the posts of Jekyll, Hugo and Pelican sites put math in
them because MathJax, running over the finished page, typesets it wherever it is. postil
typesets math at build time, so `render_html_block` finds it in the block's text: `$$…$$`
and `\[…\]` (display), `\(…\)` and `$…$` (inline, by the same rules as in Markdown:
`postil.math.delimiters.Closers`). Not inside tags, comments, `<code>`, `<pre>`,
`<script>`, `<style>`, `<textarea>`, `<svg>` or `<math>`, and not across a tag: a formula
lies in one run of text. HTML's character references in the TeX are decoded first
(`$a &lt; b$` is `a < b`). Errors are reported at their line and column like any formula's;
the formulas take no part in equation numbering (`\label` in them numbers from 1).
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from markdown_it.token import Token

from postil.markdown.mathdoc import render_formula
from postil.markdown.state import RenderState, get_state
from postil.math.delimiters import Closers
from postil.mathfont import formula_chars

SKIPPED = frozenset({"code", "pre", "script", "style", "textarea", "svg", "math", "kbd", "samp"})
"""Elements whose text is never math."""

_PIECE = re.compile(
    r"<!--.*?-->|<![^>]*>|<\?.*?\?>"  # comments, declarations, processing instructions
    r"""|<(/?)([A-Za-z][\w:-]*)(?:[^>"']|"[^"]*"|'[^']*')*>""",  # a tag, quoted values kept
    re.S,
)
_OPENERS = re.compile(r"\$\$|\$|\\\[|\\\(")
_CLOSERS = {"$$": "$$", "\\[": "\\]", "\\(": "\\)"}
# A wide formula scrolls sideways (math.css), so its wrapper must take keyboard focus
# (axe's scrollable-region-focusable) and then needs a role and a name: `group`, not the
# `region` landmark, so a post with many equations does not fill the landmark list.
DISPLAY_ATTRS = 'class="math-display" tabindex="0" role="group" aria-label="Equation"'
"""The attributes of display math's wrapper (`math.render_math` uses them too)."""


def render_html_block(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Render an `html_block` token with the math in its text typeset (see the module doc)."""
    token = tokens[idx]
    html = token.content
    if "$" not in html and "\\(" not in html and "\\[" not in html:
        return html
    doc = get_state(env)
    out: list[str] = []
    pos, skipped = 0, list[str]()
    for piece in _PIECE.finditer(html):
        text = html[pos : piece.start()]
        out.append(text if skipped else _typeset(text, pos, token, doc))
        out.append(piece.group(0))
        closing, name = piece.group(1), (piece.group(2) or "").lower()
        if name in SKIPPED and not piece.group(0).endswith("/>"):
            if not closing:
                skipped.append(name)
            elif skipped and skipped[-1] == name:
                skipped.pop()
        pos = piece.end()
    tail = html[pos:]
    out.append(tail if skipped else _typeset(tail, pos, token, doc))
    return "".join(out)


def _typeset(text: str, at: int, block: Token, doc: RenderState) -> str:
    """Return a run of text with each formula in it as MathML (`at`: its offset in the block)."""
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return text
    out: list[str] = []
    pos = 0
    closers = Closers(text)
    search = 0
    while (opener := _OPENERS.search(text, search)) is not None:
        start, delimiter = opener.start(), opener.group(0)
        if _escaped(text, start):
            search = start + 1
            continue
        inner = opener.end()
        if delimiter == "$":
            valid = inner < len(text) and not text[inner].isspace()
            close = closers.dollar(inner, len(text)) if valid else -1
        else:
            close = text.find(_CLOSERS[delimiter], inner)
            close = close if close > inner else -1
        if close < 0:
            search = start + len(delimiter)
            continue
        end = close + (1 if delimiter == "$" else 2)
        display = delimiter in ("$$", "\\[")
        out += [text[pos:start], _formula(text[inner:close], display, at + inner, block, doc)]
        pos = search = end
    out.append(text[pos:])
    return "".join(out)


def _escaped(text: str, pos: int) -> bool:
    """Tell if the character at `pos` follows an odd run of backslashes (`\\$`)."""
    run = pos
    while run > 0 and text[run - 1] == "\\":
        run -= 1
    return (pos - run) % 2 == 1


def _formula(tex: str, display: bool, offset: int, block: Token, doc: RenderState) -> str:
    """Typeset one formula found at `offset` in `block`'s HTML; errors are reported there."""
    token = Token("math_block" if display else "math_inline", "math", 0)
    token.content = unescape(tex)
    token.map = block.map
    line0 = block.map[0] if block.map else 0
    token.meta = {"where": (line0, block.content, 0), "offset": offset}
    html = render_formula(token, display, doc)
    if html.startswith("<math"):  # not a `math-error` span
        doc.math_chars |= formula_chars(html)
    return f"<span {DISPLAY_ATTRS}>{html}</span>" if display and html else html
