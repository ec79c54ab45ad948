"""File inclusions postil does not make: MkDocs snippets (`--8<--`), Quarto's include,
VitePress' code imports (`<<<`) and inclusions (`<!--@include: …-->`), and mdBook's
`{{#include}}`, `{{#rustdoc_include}}` and `{{#playground}}`.

pymdownx.snippets (MkDocs), Quarto's `{{< include >}}` and mdBook's `{{#include}}` (its
guide, "mdBook-specific features") paste another file into the page
before the Markdown is read, code blocks included. postil reads no files into a post (the
stages read only `content/`, and a post's cache key is its own text), so each inclusion is
left out with a warning at its line saying to paste the file's content there, rather than
shown as the marker's text.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.chunk import OPTION_LINE
from postil.markdown.state import RenderState, get_state

SNIPPET = re.compile(r"""[ \t]*--8<--[ \t]+("[^"\n]+"|'[^'\n]+'|[^\s"']\S*)[ \t]*""")
"""A snippet line, `--8<-- "path"` (pymdownx.snippets: quotes optional, `path:section`)."""

SNIPPET_BLOCK = re.compile(r"[ \t]*--8<--[ \t]*")
"""The fence of a block of snippet paths (one path a line, closed by another `--8<--`)."""

VITEPRESS_IMPORT = re.compile(r"[ \t]*<<<[ \t]+(\S+?)(?:\{[^}\n]*\})?(?:[ \t]+\[[^\]\n]*\])?[ \t]*")
"""VitePress' code import, `<<< @/snippets/a.js{2} [a.js]` (its guide, "Import Code
Snippets"): the path, without its highlighted lines and title."""

VITEPRESS_INCLUDE = re.compile(r"[ \t]*<!--[ \t]*@include:[ \t]*(\S+?)[ \t]*-->[ \t]*")
"""VitePress' Markdown inclusion, `<!--@include: ./parts/basics.md-->` ("Markdown File
Inclusion"); a comment to any other reader, so it vanished without a word."""

MDBOOK_INCLUDE = re.compile(
    r"[ \t]*\{\{#(?:include|rustdoc_include|playground)[ \t]+([^\s}]+)[^}\n]*\}\}[ \t]*"
)
"""mdBook's inclusion on a line of its own, in text or code: `{{#include file.rs:anchor}}`,
`{{#rustdoc_include file.rs:2:10}}`, `{{#playground ex.rs editable}}` (the path as
written, with its `:anchor` or `:lines`)."""

QUARTO_INCLUDE = re.compile(r"[ \t]*\{\{<[ \t]*include[ \t]+(\S[^>]*?)[ \t]*>\}\}[ \t]*")
"""Quarto's include shortcode alone on a line of code: `{{< include code/x.py >}}`."""


def include_plugin(md: MarkdownIt) -> None:
    """Leave out file inclusions with one warning each, in text and in code blocks.

    Syntax (MkDocs' pymdownx.snippets, Quarto, mdBook)::

        --8<-- "docs/snippets/setup.md"

        ```rust
        {{#include ../listings/main.rs:setup}}
        ```

        ```cpp
        --8<-- "code/gcd.cpp:core"
        ```

        ```{python}
        {{< include code/plot.py >}}
        ```

    A snippet line, or a `--8<--` … `--8<--` block of paths, is a block that renders
    nothing; in a code block the inclusion's line is removed, and a code block left empty
    (or holding only a chunk's `#|` options) is removed. (`{{< include >}}` in text is the
    shortcode plugin's.) No CSS classes.
    """
    md.block.ruler.before("html_block", "snippet", snippet_block, {"alt": ["paragraph"]})
    md.core.ruler.after("block", "include_code", include_code)
    md.add_render_rule("snippet", lambda *_: "")


def snippet_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a `--8<-- "path"` line, or a block of paths between `--8<--` lines."""
    if state.is_code_block(start_line):
        return False
    line = _line(state, start_line)
    one = SNIPPET.fullmatch(line) or VITEPRESS_IMPORT.fullmatch(line)
    one = one or VITEPRESS_INCLUDE.fullmatch(line) or MDBOOK_INCLUDE.fullmatch(line)
    paths = [one.group(1).strip("\"'")] if one else []
    last = start_line + 1
    if not paths and SNIPPET_BLOCK.fullmatch(line):
        last = _block_end(state, start_line, end_line)
        if last < 0:
            return False
        paths = [_line(state, at).strip() for at in range(start_line + 1, last - 1)]
    if not paths:
        return False
    if silent:
        return True
    token = state.push("snippet", "", 0)
    token.map, token.meta = [start_line, last], {"paths": [p for p in paths if p]}
    col = state.sCount[start_line] + 1
    _warn(get_state(state.env), start_line, col, ", ".join(f"`{p}`" for p in paths if p))
    state.line = last
    return True


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] : state.eMarks[line]]


def _block_end(state: StateBlock, start_line: int, end_line: int) -> int:
    """Return the line after the closing `--8<--` of a block of paths (-1: none before a blank)."""
    for line in range(start_line + 1, end_line):
        if state.isEmpty(line):
            return -1
        if SNIPPET_BLOCK.fullmatch(_line(state, line)):
            return line + 1
    return -1


def include_code(state: StateCore) -> None:
    """Core rule: remove inclusion lines from code blocks, with a warning at each."""
    doc = get_state(state.env)
    kept: list[Token] = []
    for token in state.tokens:
        content = token.content
        if token.type == "fence" and ("--8<--" in content or "{{<" in content or "{{#" in content):
            token.content = _without_inclusions(token, doc)
            if not OPTION_LINE.sub("", token.content).strip():
                continue  # nothing left but a chunk's `#|` options
        kept.append(token)
    state.tokens = kept


def _without_inclusions(token: Token, doc: RenderState) -> str:
    """Return a code block's text without its inclusion lines, warning at each."""
    lines = token.content.split("\n")
    first = token.map[0] + 1 if token.map else None
    kept = []
    for at, line in enumerate(lines):
        found = SNIPPET.fullmatch(line) or QUARTO_INCLUDE.fullmatch(line)
        found = found or MDBOOK_INCLUDE.fullmatch(line)
        if found is None:
            kept.append(line)
            continue
        col = len(line) - len(line.lstrip()) + 1
        source_col = _source_col(doc, first + at, line) if first is not None else col
        path = found.group(1).strip("\"'")
        _warn(doc, first + at if first is not None else None, source_col, f"`{path}`")
    return "\n".join(kept)


def _source_col(doc: RenderState, line0: int, line: str) -> int:
    """Return the 1-based column of a code line's text in the post (the fence may be indented)."""
    text = doc.source_lines[line0] if 0 <= line0 < len(doc.source_lines) else ""
    at = text.find(line.strip())
    return at + 1 if at >= 0 else 1


def _warn(doc: RenderState, line0: int | None, col: int, paths: str) -> None:
    doc.warn(
        line0,
        col,
        f"the file inclusion of {paths} is left out: postil does not read other files into "
        "a post; paste the file's content here",
    )
