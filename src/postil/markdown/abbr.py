r"""Abbreviations as kramdown, Python-Markdown, PHP Markdown Extra and MkDocs Material write them.

A line `*[HTML]: Hyper Text Markup Language` defines an abbreviation for the whole post
(kramdown's syntax page, "Abbreviations"; Python-Markdown's `abbr` extension, which
Pelican and MkDocs use) and is not shown; every occurrence of `HTML` in the text as a whole
word becomes `<abbr title="Hyper Text Markup Language">HTML</abbr>`, wherever the definition
stands (MkDocs Material's glossaries put them at the end). Without this plugin the
definitions showed as paragraphs of text.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import get_state

DEFINITION = re.compile(r"\*\[([^\]\n]+)\][ \t]*:[ \t]*(.*)")
"""A definition line: `*[label]: title` (kramdown allows spaces before the colon)."""

ABBREVIATIONS_KEY = "abbreviations"
"""`RenderState.extra` key: label -> title, every definition of the post (the last wins)."""


URL_LINKS = frozenset({"autolink", "linkify"})
"""The markup of links markdown-it makes of a bare URL (`<https://…>`, linkify's)."""


def abbr_plugin(md: MarkdownIt) -> None:
    """Read abbreviation definitions and mark their uses.

    Syntax::

        The HTML spec.

        *[HTML]: Hyper Text Markup Language

    Output: `<p>The <abbr title="Hyper Text Markup Language">HTML</abbr> spec.</p>`; the
    definition line itself is not shown. A definition may interrupt a paragraph, as in
    kramdown; in code (spans and blocks), math and raw HTML nothing is marked, and a label
    inside a longer word (`HTMLs`) is not either. CSS classes: none (`abbr[title]` is styled
    by `article.css`).
    """
    md.block.ruler.before(
        "reference", "abbr_definition", abbr_definition, {"alt": ["paragraph", "reference"]}
    )
    md.core.ruler.push("abbr", abbr_uses)


def abbr_definition(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: one `*[label]: title` line, remembered for the whole post."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if state.src[pos : pos + 2] != "*[":
        return False
    found = DEFINITION.fullmatch(state.src, pos, state.eMarks[start])
    if found is None or not found.group(1).strip():
        return False
    if silent:
        return True
    definitions = get_state(state.env).extra.setdefault(ABBREVIATIONS_KEY, {})
    definitions[found.group(1).strip()] = found.group(2).strip()
    state.line = start + 1
    return True


def abbr_uses(state: StateCore) -> None:
    """Core rule: split the text tokens at each whole-word use of a defined abbreviation."""
    definitions: dict[str, str] = get_state(state.env).extra.get(ABBREVIATIONS_KEY, {})
    if not definitions:
        return
    labels = sorted(definitions, key=len, reverse=True)  # `HTML5` before `HTML`
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, labels)) + r")(?!\w)")
    for block in state.tokens:
        if block.type == "inline" and block.children:
            block.children = _marked(block.children, pattern, definitions)


def _marked(children: list[Token], pattern: re.Pattern[str], titles: dict[str, str]) -> list[Token]:
    """Return `children` with each text token's uses of an abbreviation wrapped in `<abbr>`;
    not inside an autolink, whose text is its URL (Python-Markdown/markdown#1512 marked a
    use there)."""
    out: list[Token] = []
    in_url = False
    for token in children:
        if token.type in ("link_open", "link_close") and token.markup in URL_LINKS:
            in_url = token.type == "link_open"
        if in_url or token.type != "text" or not pattern.search(token.content):  # code, math
            out.append(token)
            continue
        pos = 0
        for use in pattern.finditer(token.content):
            if use.start() > pos:
                out.append(_text(token.content[pos : use.start()]))
            opening = Token("abbr_open", "abbr", 1)
            opening.attrs = {"title": titles[use.group(0)]}
            out += [opening, _text(use.group(0)), Token("abbr_close", "abbr", -1)]
            pos = use.end()
        if pos < len(token.content):
            out.append(_text(token.content[pos:]))
    return out


def _text(content: str) -> Token:
    """Return a text token holding `content`."""
    token = Token("text", "", 0)
    token.content = content
    return token
