"""Table of contents markers of other tools as postil's table of contents: kramdown's
`* TOC` + `{:toc}`, and the one-line markers of Python-Markdown, markdown-it's plugins,
VitePress, Hexo and GitLab (`[TOC]`, `[[toc]]`, `@[toc]`, `${toc}`, `[[_TOC_]]`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from postil.markdown.rendered import TocEntry, contents
from postil.markdown.state import get_state

ITEM = re.compile(r" {0,3}(?:[*+-]|\d{1,9}[.)])[ \t]+\S.*")
"""The one-item list kramdown replaces: `* TOC`, `1. Contents`."""

MARKER = re.compile(r" {0,3}\{:\s*toc\s*\}[ \t]*")
"""kramdown's reference to its table of contents, on the line after the list item."""

LINE_MARKER = re.compile(
    r" {0,3}(?:\[TOC\]|\[\[_?TOC_?\]\]|@\[TOC\]|\$\{TOC\}|\\toc|\\tableofcontents)[ \t]*", re.I
)
"""A table of contents marker alone on its line: `[TOC]` (Python-Markdown's `toc`
extension, MkDocs, Pelican), `[[toc]]` (markdown-it-table-of-contents, VuePress,
VitePress), `@[toc]` (markdown-it-toc-and-anchor: Hexo's markdown-it renderers),
`${toc}` (markdown-it-toc-done-right), `[[_TOC_]]` (GitLab, Azure DevOps), `\toc`
(Franklin.jl) and LaTeX's `\tableofcontents` (in Pandoc Markdown)."""

REFERENCE = re.compile(r"^ {0,3}\[toc\]:", re.I | re.M)
"""A link reference definition named `toc`, which makes a `[TOC]` line a link."""


def toc_plugin(md: MarkdownIt) -> None:
    """Put the table of contents where kramdown's `{:toc}` marker asks for it.

    Syntax (kramdown's, or one marker alone on its line, in its own paragraph)::

        * TOC
        {:toc}

        [TOC]

    Output: `<nav class="toc toc-inline" aria-label="Contents"><ol>` with a link per
    section (`##` in most posts: `rendered.contents`) and a nested `<ol>` for its headings
    of the next level (the heading plugin's `state.extra["toc"]`). `state.extra["toc_placed"]`
    is set, so the page template does not show the table of contents a second time. CSS
    classes: toc, toc-inline.
    """
    md.block.ruler.before(
        "list", "kramdown_toc", kramdown_toc, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    md.block.ruler.before("list", "toc_marker", toc_marker)
    md.add_render_rule("kramdown_toc", render_kramdown_toc)


def kramdown_toc(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a one-item list line followed by a `{:toc}` line."""
    if start + 1 >= end or state.sCount[start] - state.blkIndent >= 4:
        return False
    marker = state.bMarks[start + 1] + state.tShift[start + 1]
    if not state.src.startswith("{", marker):  # `MARKER` can match nothing else
        return False
    if not ITEM.fullmatch(_line(state, start)) or not MARKER.fullmatch(_line(state, start + 1)):
        return False
    return _place(state, start, 2, silent)


def toc_marker(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a `LINE_MARKER` line (`[TOC]`, `[[toc]]`, `@[toc]`, …) as a paragraph of
    its own; `[TOC]` and `[[toc]]` stay links when the post defines a `[toc]:` reference."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    first = state.src[pos] if pos < state.eMarks[start] else ""
    if not first or first not in "[@$\\" or not LINE_MARKER.fullmatch(_line(state, start)):
        return False
    if first == "[" and REFERENCE.search(state.src):
        return False
    return _place(state, start, 1, silent)


def _place(state: StateBlock, start: int, lines: int, silent: bool) -> bool:
    """Put the table of contents for the marker on `lines` lines from `start`; mark it placed."""
    if not silent:
        token = state.push("kramdown_toc", "nav", 0)
        token.map = [start, start + lines]
        get_state(state.env).extra["toc_placed"] = True
    state.line = start + lines
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def render_kramdown_toc(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render the post's table of contents: its sections, each with its headings of the
    next level used below them (`rendered.contents`)."""
    groups = contents(get_state(env).extra.get("toc", ()))
    if not groups:
        return ""
    items = []
    for entry, children in groups:
        inner = "".join(f"<li>{_link(child)}</li>\n" for child in children)
        items.append(f"<li>{_link(entry)}" + (f"<ol>\n{inner}</ol>\n" if inner else "") + "</li>\n")
    return (
        f'<nav class="toc toc-inline" aria-label="Contents">\n<ol>\n{"".join(items)}</ol>\n</nav>\n'
    )


def _link(entry: TocEntry) -> str:
    return f'<a href="#{escapeHtml(entry.id)}">{entry.html or escapeHtml(entry.text)}</a>'
