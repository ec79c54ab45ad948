r"""Highlighted text, `==marked==`, as MkDocs Material (pymdownx.mark), Obsidian, Typora write it.

A run of `==` opens or closes a highlight by the same flanking rules as `~~strikethrough~~`
(CommonMark's delimiter runs): `==key idea==` is `<mark>key idea</mark>`, while `a == b`
(spaces on both sides) and `x==y and a==b` (inside words: pymdownx.mark's `smart_mark`)
stay text, as does `$a == b$` (math is read first) and code. Beside CJK text, which has no
spaces between words, a run still opens and closes (`即==损失函数==，`, `的==**x**==`), as
Typora and Obsidian highlight it (`flanking`). Written the way markdown-it's
strikethrough rule is: a tokenizer that records delimiter runs, and a pass after the
emphasis pairs them.

Logseq writes a highlight `^^marked^^` as well (mldoc's inline `Highlight`, Logseq's
"Text formatting": `==Highlight with equal sign== and ^^Highlight with carets^^`); such
runs of two carets pair by the same rules (their own marker: `==a^^` is no pair). It was
a superscript between two stray carets (`^<sup>shared</sup>^`). A single caret is Pandoc's
superscript as before (`x^2^`), and `2^^3` inside a word stays text.
"""

from __future__ import annotations

from unicodedata import east_asian_width

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter

EQUALS = 0x3D
"""The marker character, `=`."""

CARET = 0x5E
"""Logseq's marker character, `^` (runs of two)."""


def mark_plugin(md: MarkdownIt) -> None:
    """Read `==text==` as `<mark>text</mark>`.

    Syntax::

        The ==one sentence to remember== of the proof.

    Output: `<p>The <mark>one sentence to remember</mark> of the proof.</p>`. Runs of more
    than two `=` leave their extra characters as text; unpaired runs stay text. CSS classes:
    none (the browser's own `mark` style).
    """
    md.inline.ruler.before("emphasis", "mark", mark_tokenize)  # before Pandoc's `x^2^`
    md.inline.ruler2.before("emphasis", "mark", mark_pairs)


def mark_tokenize(state: StateInline, silent: bool) -> bool:
    """Inline rule: push each `==` of a run as a text token and record it as a delimiter."""
    char = state.src[state.pos]
    if silent or char not in "=^":
        return False
    end = state.pos
    while end < state.posMax and state.src[end] == char:
        end += 1
    length = end - state.pos
    if length < 2 or (char == "^" and length % 2):
        return False  # `^` and `^^^`: Pandoc's superscripts
    before = state.src[state.pos - 1] if state.pos > 0 else " "
    after = state.src[end] if end < state.posMax else " "
    can_open, can_close = flanking(before, after)
    # pymdownx's smart_mark: `x==y`; CJK, written without spaces, is not a word to it here
    intraword = before.isalnum() and after.isalnum() and not (is_cjk(before) or is_cjk(after))
    if length % 2:
        token = state.push("text", "", 0)
        token.content = "="
        length -= 1
    for _ in range(length // 2):
        token = state.push("text", "", 0)
        token.content = char * 2
        state.delimiters.append(
            Delimiter(
                marker=ord(char),
                length=0,  # no "rule of 3": pairs are counted in twos
                token=len(state.tokens) - 1,
                end=-1,
                open=can_open and not intraword,
                close=can_close and not intraword,
            )
        )
    state.pos = end
    return True


def is_cjk(char: str) -> bool:
    """Tell whether `char` is a CJK character as markdown-cjk-friendly's amendment to
    CommonMark defines one: East Asian Width W, F or H (not an emoji), or Hangul."""
    code = ord(char)
    if 0x1F000 <= code <= 0x1FAFF:  # emoji are wide too
        return False
    return east_asian_width(char) in ("W", "F", "H") or 0x1100 <= code <= 0x11FF


def flanking(before: str, after: str) -> tuple[bool, bool]:
    """Return whether a delimiter run between `before` and `after` (" " at a line's ends)
    is left-flanking and right-flanking, by CommonMark's rules with the CJK-friendly
    amendment (tats-u/markdown-cjk-friendly, `specification.md` §6.2; markdown-it-cjk-friendly
    is its markdown-it plugin): beside a CJK character, a run before or after punctuation
    still flanks (`的==**x**==`, `)==是`), as Typora and Obsidian highlight it, where
    CommonMark's rules alone would not.
    """

    def punct(char: str) -> bool:  # "non-CJK punctuation" of the amendment
        return (isMdAsciiPunct(ord(char)) or isPunctChar(char)) and not is_cjk(char)

    space_before, space_after = isWhiteSpace(ord(before)), isWhiteSpace(ord(after))
    left = not space_after and (not punct(after) or space_before or punct(before) or is_cjk(before))
    right = not space_before and (not punct(before) or space_after or punct(after) or is_cjk(after))
    return left, right


def mark_pairs(state: StateInline) -> None:
    """Post-process rule: turn each paired `==` delimiter into `mark_open`/`mark_close`, at
    the top level and inside every nested delimiter list (links, emphasis)."""
    if "==" not in state.src and "^^" not in state.src:  # most paragraphs: no run to pair
        return
    _pair(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _pair(state, meta["delimiters"])


def _pair(state: StateInline, delimiters: list[Delimiter]) -> None:
    """Pair one delimiter list's `==` runs; a lone `=` of an odd run moves after the closings."""
    lone: list[int] = []
    for opener in delimiters:
        if opener.marker not in (EQUALS, CARET) or opener.end == -1:
            continue
        closer = delimiters[opener.end]
        opening, closing = state.tokens[opener.token], state.tokens[closer.token]
        markup = opening.content
        opening.type, opening.nesting = "mark_open", 1
        closing.type, closing.nesting = "mark_close", -1
        for token in (opening, closing):
            token.tag, token.markup, token.content = "mark", markup, ""
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
