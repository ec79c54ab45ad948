"""Math written inside raw HTML blocks, which postil does not typeset: one warning a block.

MathJax and KaTeX typeset `$…$` anywhere on the page once it is in the browser, so posts
of MkDocs, Jekyll and Hugo put formulas inside raw HTML (`<figcaption>` is the usual
place). postil converts math while it reads the Markdown, and a raw HTML block is not
Markdown, so its TeX would be shown as written: the block gets a warning at the formula's
line saying how to move it into Markdown.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from postil.markdown.state import get_state

FORMULA = re.compile(
    r"\$\$.+?\$\$|\\\(.+?\\\)|\\\[.+?\\\]|\$(?![\s$])(?:[^$\\]|\\.)*?(?<![\s\\])\$(?!\d)",
    re.S,
)
"""A formula in text: `$$…$$`, `\\(…\\)`, `\\[…\\]`, or `$…$` by Pandoc's rule (no space
inside the dollars, no digit after the closing one: `$5 and $10` is no formula)."""

SKIPPED = frozenset({"script", "style", "pre", "code", "textarea", "math", "svg"})
"""Elements whose text is not prose (code, scripts, MathML already)."""


def htmlmath_plugin(md: MarkdownIt) -> None:
    """Warn once per raw HTML block that holds TeX math in its text.

    Syntax that warns::

        <figure><img src="hull.svg">
        <figcaption>The hull of $y \\le 4x/7$.</figcaption></figure>

    The warning points at the first formula and says to write the caption in Markdown
    (`![The hull of $y \\le 4x/7$](hull.svg)` is a numbered figure with typeset math).
    Text inside `<code>`, `<pre>`, `<script>`, `<style>` and `<math>` is not looked at.
    No output; no CSS classes.
    """
    md.core.ruler.push("html_math", html_math)


def html_math(state: StateCore) -> None:
    """Core rule: warn at the first formula of each `html_block` token's text."""
    doc = get_state(state.env)
    for token in state.tokens:
        if token.type != "html_block" or ("$" not in token.content and "\\" not in token.content):
            continue
        formula = _first_formula(token.content)
        if formula is None:
            continue
        before = token.content[: token.content.find(formula)]
        line0 = (token.map[0] if token.map else 0) + before.count("\n")
        col = len(before) - (before.rfind("\n") + 1) + 1
        doc.warn(
            line0 if token.map else None,
            col,
            f"math in raw HTML (`{_short(formula)}`) is not typeset, postil converts math only "
            "in Markdown; write this part in Markdown (a caption as `![caption with $x$]"
            "(image.png)`), or put the formula outside the HTML block",
        )


def _first_formula(html: str) -> str | None:
    """Return the first formula in the prose text of `html`, or None."""
    parser = _Prose()
    parser.feed(html)
    parser.close()
    for text in parser.texts:
        found = FORMULA.search(text)
        if found and found[0] in html:
            return found[0]
    return None


def _short(formula: str) -> str:
    """Return a formula cut to 40 characters for a message."""
    one_line = " ".join(formula.split())
    return one_line if len(one_line) <= 40 else one_line[:39] + "…"


class _Prose(HTMLParser):
    """Collect the text outside `SKIPPED` elements (entities left as written)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.texts: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if not self._depth:
            self.texts.append(data)
