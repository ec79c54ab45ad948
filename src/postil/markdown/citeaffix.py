"""A citation's prefix and suffix as Markdown: `[see *especially* @key, the $n = 2$ case]`.

Pandoc parses a citation's prefix and suffix as inlines (its `Citation` holds
`citationPrefix :: [Inline]`), so emphasis, code and math in them are rendered; pandoc#7321
shows math in a suffix. A prefix or suffix with none of those signs (`p. 33`, "see") is
escaped text, as before. The cluster is one token rendered at once (`cite.render_cite`),
so its affixes are rendered here: `$…$` by the math layer (as formulas in titles are),
the rest by markdown-it's inline rules for emphasis, code spans, strikethrough, escapes
and entities only (a link or note inside a citation stays text).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from html import escape

from markdown_it import MarkdownIt

MARKUP = re.compile(r"[*_`$\\&~]")
"""A character that may start the Markdown an affix is read for."""
FORMULA = re.compile(r"(?<![\\$])\$(?=\S)((?:[^$\\]|\\.)+?)(?<=\S)\$(?!\$)")
"""Inline math `$…$` in an affix (Pandoc's rule: no space inside either dollar)."""


@lru_cache(maxsize=1)
def _inline_parser() -> MarkdownIt:
    """Return a parser of emphasis, code spans, strikethrough, escapes and entities only."""
    md = MarkdownIt("zero").enable(["emphasis", "backticks", "escape", "entity"])
    return md.enable("strikethrough")


def affix_html(text: str, formula: Callable[[str], str]) -> str:
    """Return a citation's prefix or suffix as HTML: `text` escaped when it holds no
    Markdown sign, else its inline Markdown rendered, each `$…$` by `formula(tex)`."""
    if not text or MARKUP.search(text) is None:
        return escape(text)
    out, done = [], 0
    for found in FORMULA.finditer(text):
        out += [_markdown(text[done : found.start()]), formula(found[1])]
        done = found.end()
    return "".join(out) + _markdown(text[done:])


def _markdown(text: str) -> str:
    """Return inline Markdown without math as HTML (escaped text when it has no sign)."""
    if not text or MARKUP.search(text) is None:
        return escape(text)
    return str(_inline_parser().renderInline(text))
