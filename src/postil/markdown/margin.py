"""Margin content and page columns: Quarto's column classes and MyST's margin directives.

Quarto lays an article out on a grid with a margin column and lets a post put blocks in
it or across it; MyST (Jupyter Book, mystmd) has directives for the same. postil's page
has the margin column its sidenotes use, so these go there instead of sitting in the text
as if nothing were asked:

- Quarto: `::: {.column-margin}` and `::: {.aside}` (a block in the margin), `{.aside}`
  becoming `column-margin`; `[text]{.aside}` is a margin note (`postil.markdown.span`).
  The page columns (`.column-page`, `.column-screen`, `.column-body-outset`, their
  `-inset` and `-right` forms) keep their classes, which the theme widens over the margin
  column.
- MyST: ```` ```{margin} ````, ```` ```{aside} ```` (mystmd's name for it) and
  ```` ```{sidebar} Title ```` (Sphinx's, shown as margin content under its title), with
  backticks or colons, their body Markdown.

Distill's layout classes on raw HTML (`l-gutter` in the margin; `l-page`, `l-screen`,
`l-body-outset` and their forms wide: al-folio's Distill posts) are styled the same way.

CSS classes (article.css): column-margin (floated into the margin column on wide screens,
an aside in the text on narrow ones), margin-title, and Quarto's page column classes.
Sources: Quarto's "Article Layout" guide; MyST's "Asides and sidebars" (`{aside}`,
`{margin}`, `{sidebar}`).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore

from postil.markdown.tagsyntax import tokenize_lines

MARGIN_DIRECTIVES = frozenset({"margin", "aside", "sidebar"})
"""MyST directives whose body goes in the margin (`{sidebar}`'s argument is its title)."""

MARGIN_CLASS = "column-margin"
"""The class of a block in the margin column (Quarto's name, which the theme styles)."""


def margin_plugin(md: MarkdownIt) -> None:
    """Make Quarto's `.aside` div a margin block (see the module).

    Syntax::

        ::: {.aside}
        Shown in the margin.
        :::

    → `<div class="column-margin">`; the callout plugin makes the `<div>` of a fenced div
    and must come first. MyST's directives are pushed by `postil.markdown.myst` through
    `push_margin`.
    """
    md.core.ruler.after("callout_tokens", "margin_divs", margin_divs)


def margin_divs(state: StateCore) -> None:
    """Core rule: give every fenced `<div>` with Quarto's class `aside` the margin's class."""
    for token in state.tokens:
        if token.type != "div_open":
            continue
        classes = token.attrs.get("class", "")
        if isinstance(classes, str) and "aside" in classes.split():
            kept = [c for c in classes.split() if c not in ("aside", MARGIN_CLASS)]
            token.attrs["class"] = " ".join([MARGIN_CLASS, *kept])


def push_margin(
    state: StateBlock, lines: tuple[int, int, int], title: str, classes: str = ""
) -> None:
    """Push a MyST margin directive: a `column-margin` div around its body's blocks, with
    `title` (a `{sidebar}`'s argument; "" for none) as its first paragraph.

    Args:
        state: the block state, at the directive's opening fence.
        lines: the 0-based lines of the opening fence, the body's first line (after the
            options) and the closing fence.
        title: the title, Markdown.
        classes: the directive's `:class:` option, added to the div's class.
    """
    start, body, close = lines
    opening = state.push("div_open", "div", 1)
    opening.attrs = {"class": " ".join([MARGIN_CLASS, *classes.split()])}
    opening.map = [start, close + 1]
    if title:
        _push_title(state, title, start)
    tokenize_lines(state, body, close)
    state.push("div_close", "div", -1).map = [close, close + 1]


def _push_title(state: StateBlock, title: str, line0: int) -> None:
    """Push `<p class="margin-title"><strong>title</strong></p>`."""
    paragraph = state.push("paragraph_open", "p", 1)
    paragraph.attrs = {"class": "margin-title"}
    paragraph.map = [line0, line0 + 1]
    inline = state.push("inline", "", 0)  # its children come from the inline parse
    inline.content, inline.map, inline.children = f"**{title}**", [line0, line0 + 1], []
    state.push("paragraph_close", "p", -1)
