r"""Highlighted text, `==marked==`, as MkDocs Material (pymdownx.mark), Obsidian, Typora write it.

A run of `==` opens or closes a highlight by the same flanking rules as `~~strikethrough~~`
(CommonMark's delimiter runs): `==key idea==` is `<mark>key idea</mark>`, while `a == b`
(spaces on both sides) and `x==y and a==b` (inside words: pymdownx.mark's `smart_mark`)
stay text, as does `$a == b$` (math is read first) and code. Written the way markdown-it's
strikethrough rule is: a tokenizer that records delimiter runs, and a pass after the
emphasis pairs them.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter

EQUALS = 0x3D
"""The marker character, `=`."""


def mark_plugin(md: MarkdownIt) -> None:
    """Read `==text==` as `<mark>text</mark>`.

    Syntax::

        The ==one sentence to remember== of the proof.

    Output: `<p>The <mark>one sentence to remember</mark> of the proof.</p>`. Runs of more
    than two `=` leave their extra characters as text; unpaired runs stay text. CSS classes:
    none (the browser's own `mark` style).
    """
    md.inline.ruler.before("emphasis", "mark", mark_tokenize)
    md.inline.ruler2.before("emphasis", "mark", mark_pairs)


def mark_tokenize(state: StateInline, silent: bool) -> bool:
    """Inline rule: push each `==` of a run as a text token and record it as a delimiter."""
    if silent or state.src[state.pos] != "=":
        return False
    scanned = state.scanDelims(state.pos, True)
    length = scanned.length
    if length < 2:
        return False
    end = state.pos + length
    before = state.src[state.pos - 1] if state.pos > 0 else " "
    after = state.src[end] if end < state.posMax else " "
    intraword = before.isalnum() and after.isalnum()  # pymdownx's smart_mark: `x==y`
    if length % 2:
        token = state.push("text", "", 0)
        token.content = "="
        length -= 1
    for _ in range(length // 2):
        token = state.push("text", "", 0)
        token.content = "=="
        state.delimiters.append(
            Delimiter(
                marker=EQUALS,
                length=0,  # no "rule of 3": pairs are counted in twos
                token=len(state.tokens) - 1,
                end=-1,
                open=scanned.can_open and not intraword,
                close=scanned.can_close and not intraword,
            )
        )
    state.pos += scanned.length
    return True


def mark_pairs(state: StateInline) -> None:
    """Post-process rule: turn each paired `==` delimiter into `mark_open`/`mark_close`, at
    the top level and inside every nested delimiter list (links, emphasis)."""
    if "==" not in state.src:  # most paragraphs: no run to pair
        return
    _pair(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _pair(state, meta["delimiters"])


def _pair(state: StateInline, delimiters: list[Delimiter]) -> None:
    """Pair one delimiter list's `==` runs; a lone `=` of an odd run moves after the closings."""
    lone: list[int] = []
    for opener in delimiters:
        if opener.marker != EQUALS or opener.end == -1:
            continue
        closer = delimiters[opener.end]
        opening, closing = state.tokens[opener.token], state.tokens[closer.token]
        opening.type, opening.nesting = "mark_open", 1
        closing.type, closing.nesting = "mark_close", -1
        for token in (opening, closing):
            token.tag, token.markup, token.content = "mark", "==", ""
        before = state.tokens[closer.token - 1]
        if before.type == "text" and before.content == "=":
            lone.append(closer.token - 1)
    while lone:  # `===x===` is `=` + `==` + …: the single `=` goes after the closing tags
        index = lone.pop()
        last = index + 1
        while last < len(state.tokens) and state.tokens[last].type == "mark_close":
            last += 1
        last -= 1
        if index != last:
            state.tokens[index], state.tokens[last] = state.tokens[last], state.tokens[index]
