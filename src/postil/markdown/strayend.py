"""Closing tags in a post's raw HTML that close the page's elements, not the post's.

A post's HTML goes inside the theme's page: its `<main>`, `<article>` and the `<div>` of
the post's body. A browser's HTML parser closes, at a `</div>` when no `<div>` the post
opened is open, the nearest open `<div>` of the page — the theme's (WHATWG HTML, "an end
tag whose tag name is one of …": it generates implied end tags up to the matching element in
scope). So `</div></div></article></main>` in a post, left from a template pasted in or an
exported page, moves the rest of the post, its notes and bibliography out of the article,
its column and its styles, silently. `stray_end_tags` warns at each such closing tag of a
structural element (`STRUCTURAL`); the author owns raw HTML, so it stays as written.

The open elements are counted over the post's raw HTML in order (`html_block` and
`html_inline` tokens, one stack across them: a `<div>` block before Markdown and its
`</div>` block after it pair), each closing tag popping to its element as a parser does.
"""

from __future__ import annotations

from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.rawhtml import VOID_ELEMENTS
from postil.markdown.references import locate
from postil.markdown.state import RenderState, get_state

STRUCTURAL = frozenset(
    "html body main article section aside header footer nav div figure details blockquote "
    "table form".split()
)
"""The elements whose stray closing tag closes the theme's layout around the post (a
stray `</p>` or `</span>` closes nothing of it)."""


def strayend_plugin(md: MarkdownIt) -> None:
    """Warn at closing tags in raw HTML that close the page's elements (`stray_end_tags`),
    once the raw HTML is final (after `rawhtml`, which closes `<div/>`). No CSS classes."""
    md.core.ruler.after("rawhtml", "stray_end_tags", stray_end_tags)


def stray_end_tags(state: StateCore) -> None:
    """Core rule: warn at each closing tag of a `STRUCTURAL` element in the post's raw HTML
    that closes no element the post opened before it (see the module doc)."""
    if "</" not in state.src:
        return
    doc = get_state(state.env)
    opened: list[str] = doc.groups.carry.setdefault("stray_end_open", [])
    for token in state.tokens:
        if token.type == "html_block":
            _scan(doc, token, token.map, opened)
        elif token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "html_inline":
                    _scan(doc, child, token.map, opened)


def _scan(doc: RenderState, token: Token, block_map: list[int] | None, opened: list[str]) -> None:
    """Follow one raw HTML token's tags on the stack `opened`, warning at each stray one."""
    if "<" not in token.content:
        return
    finder = _EndTags(opened)
    finder.feed(token.content)
    finder.close()
    seen: dict[str, int] = doc.groups.carry.setdefault("stray_end_seen", {})
    for tag in finder.stray:
        key = f"{block_map[0] if block_map else -1}:{tag}"
        seen[key] = seen.get(key, 0) + 1
        line0, col = locate(doc, block_map, f"</{tag}", nth=seen[key] - 1)
        doc.warn(
            line0,
            col,
            f"`</{tag}>` closes no `<{tag}>` this post opened: it would close an element of "
            "the page around the post, and what follows would fall out of the article's "
            "column and styles; remove it (or open the element in the post)",
        )


class _EndTags(HTMLParser):
    """Pair the tags of raw HTML on a stack of open elements; `stray` gets the names of the
    structural closing tags that pair with none."""

    def __init__(self, opened: list[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.opened = opened
        self.stray: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID_ELEMENTS:
            self.opened.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.opened:
            del self.opened[len(self.opened) - 1 - self.opened[::-1].index(tag) :]
        elif tag in STRUCTURAL:
            self.stray.append(tag)
