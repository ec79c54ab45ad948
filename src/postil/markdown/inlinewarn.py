"""Warnings that inline rules find, reported at path:line:col once the blocks are known.

An inline rule sees its paragraph's text (`StateInline.src`) but not the paragraph's line in
the post; `warn_inline` notes the problem with its offset in that text, and the core rule
`report_inline` finds the paragraph and warns at the line and column in the source
(`tagsyntax.locate`). Used for an unpaired `$$` and for a LaTeX environment written in a
paragraph that postil does not typeset (`postil.markdown.math`).
"""

from __future__ import annotations

from typing import Any

from markdown_it.rules_inline import StateInline

from postil.markdown.state import get_state
from postil.markdown.tagsyntax import BlockLines, locate

KEY = "inline_warnings"
"""The `RenderState.extra` key of the problems noted: (paragraph text, offset, message)."""
SEEN = "inline_warnings_seen"
"""The `RenderState.extra` key of the noted problems' keys, so noting one is a set look-up
(a paragraph of 4,000 warnings took 1.9 s when each was compared with all before it)."""

UNCLOSED_DOLLARS = (
    "`$$` opens a formula that is never closed in this paragraph; add the closing `$$` "
    "after its TeX, or remove the extra `$$`"
)
"""An unpaired `$$` in a paragraph: `$` alone is often a price and stays text silently, but
`$$` is never one; an extra `$$` (`$$X=(x_1, x_m$$)$$`) shifts every later pair, which
kramdown and MathJax garble without saying where."""


def warn_inline(state: StateInline, offset: int, message: str, warned: str = "") -> None:
    """Note `message` about `state.src[offset]` for `report_inline` (once per place).

    Args:
        warned: a key of markdown-it's `env` holding the lines a block rule has warned
            about already (`math._warn_unclosed`'s `_math_unclosed`): no second warning there.
    """
    extra = get_state(state.env).extra
    noted, seen = extra.setdefault(KEY, []), extra.setdefault(SEEN, set())
    # The parse's token list tells two paragraphs of the same text apart (kept alive in
    # `noted`, so its identity is not reused before `report_inline`).
    key = (state.src, offset, message, warned, id(state.tokens))
    if key not in seen:
        seen.add(key)
        noted.append((state.src, offset, message, warned, state.tokens))


def report_inline(state: Any) -> None:
    """Core rule: warn about each problem `warn_inline` noted, in document order: the n-th
    paragraph parsed with a text gets the problems of the n-th parse of that text.

    Costs one look-up in a post without any.
    """
    doc = get_state(state.env)
    noted: list[tuple[str, int, str, str, list[Any]]] = doc.extra.pop(KEY, [])
    doc.extra.pop(SEEN, None)
    if not noted:
        return
    by_text: dict[str, dict[int, tuple[list[Any], list[tuple[int, str, str]]]]] = {}
    for text, offset, message, warned, parse in noted:
        parses = by_text.setdefault(text, {})
        parses.setdefault(id(parse), (parse, []))[1].append((offset, message, warned))
    for block in state.tokens:
        if block.type == "inline" and by_text.get(block.content):
            parses = by_text[block.content]
            _, problems = parses.pop(next(iter(parses)))
            line0 = block.map[0] if block.map else 0
            lines = BlockLines(block.content) if len(problems) > 1 else None
            for offset, message, warned in sorted(problems):
                line, column = locate(doc, line0, block.content, offset, lines)
                if not warned or line not in state.env.get(warned, ()):
                    doc.warn(line, column, message)
