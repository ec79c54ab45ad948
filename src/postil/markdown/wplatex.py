r"""WordPress' LaTeX shortcodes, as posts exported from WordPress still write them.

WordPress.com and Jetpack's "Beautiful Math" (`modules/latex.php`) typeset
`$latex e^{i\pi} + 1 = 0$` and `[latex]…[/latex]` as inline math: `$latex` then `=` or
white space opens, the first `$` not escaped by one backslash closes (`latex_markup`), and
`&fg=000000`, `&bg=ffffff`, `&s=2` (text colour, background, size) are options, taken out
of the TeX before it is set (`latex_src`). knitr's WordPress output (`knit2wp`) writes
display math as `$$latex …$$`. Exports keep all of it, and an export's HTML-to-Markdown
converter escaped Markdown in the TeX as in any text: exitwp's html2text `_` and `*`
(`$latex E\_n$`, `$latex z^\*$`), wordpress-export-to-markdown's Turndown every backslash
too (`$latex \\mu\_1$`, `$latex \\{3, 5\\}$`).

Read as anything else, `latex` is five variables, the options an alignment `&` and
letters, and `\_` an underscore glyph, without a word. postil reads the shortcodes as
WordPress did, inline (display for `$$latex`): the TeX without its options, `\_` and
`\*` as `_` and `*` (an export cannot tell them from TeX's own `\_`, which WordPress' TeX
rarely needs), and, when every backslash is doubled, Markdown's escapes all read as
kramdown reads them.
`$LaTeX$`, with no space after the word, is no shortcode (Jetpack's pattern).

Markdown's `$latex…$` and `[latex]…[/latex]` are read here (an inline rule before the
math plugin's, so only on a `$` or `[`; a line opening with `$$latex` is a paragraph,
not the math plugin's `$$` block); in raw HTML blocks (WordPress' own HTML kept in
the post) `postil.markdown.mathhtml` asks `shortcode_at`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, paragraph
from markdown_it.rules_inline import StateInline

from postil.markdown.mathescape import KRAMDOWN_ESCAPES, SINGLE_COMMAND, unescape

OPENER = re.compile(r"(\$\$?)latex(?:=\s*|\s+)|\[latex(?:\s[^\]\n]*)?\]", re.IGNORECASE)
"""`$latex ` or `$latex=` (Jetpack's opener), knitr's `$$latex `, the `[latex]` shortcode
(its `[latex s=2]` options left out)."""

AT_OPENER = re.compile(r"\$\$?latex|\[latex", re.IGNORECASE)
"""What every opener starts with: the inline rule's first test at a `$` or `[`."""

OPTIONS = re.compile(r"(?:&(?:amp;)?(?:fg|bg)=[0-9a-f]{6}\s*|&(?:amp;)?s=-?[0-9]{1,2}\s*)+$", re.I)
"""Jetpack's options at the end of the TeX (`&fg=000000`, `&bg=ffffff`, `&s=2`; `&amp;`
as an HTML export writes it)."""

ESCAPES = frozenset("_*[]")
"""The converters' escapes removed from the TeX: Markdown's `\\_`, `\\*`, `\\[` and `\\]` (as TeX
inside inline math, `\\[` and `\\]` would open and close display math)."""


class Shortcode(NamedTuple):
    """One LaTeX shortcode in a text: offsets into it."""

    start: int
    """The opener's `$` or `[`."""
    tex_start: int
    """The TeX's first character."""
    tex_stop: int
    """The end of the TeX, before any options."""
    end: int
    """After the closer."""
    display: bool
    """knitr's `$$latex` (display math); the others are inline."""


def shortcode_at(text: str, pos: int, stop: int | None = None) -> Shortcode | None:
    """Return the LaTeX shortcode opening at `text[pos]`, or None (no opener, or never
    closed before `stop`)."""
    stop = len(text) if stop is None else stop
    opener = OPENER.match(text, pos, stop)
    if opener is None:
        return None
    inner = opener.end()
    if opener.group(1) is None:  # `[latex]…[/latex]`
        close = text.lower().find("[/latex]", inner, stop)
        if close < 0 or "`" in text[inner:close]:  # a code span between: Markdown's first
            return None
        return _shortcode(text, pos, inner, close, close + 8, False)
    display = opener.group(1) == "$$"
    close = _closing_dollar(text, inner, stop, 2 if display else 1)
    if close < 0 or close == inner:
        return None
    return _shortcode(text, pos, inner, close, close + (2 if display else 1), display)


def _closing_dollar(text: str, pos: int, stop: int, width: int) -> int:
    """Return where `$` (`$$` when `width` is 2) closes a shortcode, or -1: the first one
    not escaped by exactly one backslash (Jetpack's `(?<!\\\\)\\$`; `\\$` is TeX's dollar),
    unless that one is before a digit: then -1. A `$` before a digit is a price (`costs
    $4`), as postil's `$` rule reads it (Pandoc's): a post mentioning the `$latex`
    shortcode in prose is not typeset from there to its next price."""
    closer = "$" * width
    while (found := text.find(closer, pos, stop)) >= 0:
        slashes = len(text[:found]) - len(text[:found].rstrip("\\"))
        after = found + width
        if slashes != 1:
            return -1 if after < len(text) and text[after].isdigit() else found
        pos = found + 1
    return -1


def _shortcode(text: str, start: int, inner: int, close: int, end: int, display: bool) -> Shortcode:
    """Return the shortcode with its options (`OPTIONS`) left out of the TeX."""
    options = OPTIONS.search(text, inner, close)
    return Shortcode(start, inner, options.start() if options else close, end, display)


def tex_of(text: str, found: Shortcode) -> tuple[str, tuple[int, ...]]:
    """Return a shortcode's TeX as WordPress set it (`ESCAPES` and HTML's character
    references decoded) and the offsets `mathescape.source_offset` maps back."""
    tex = _trimmed(text[found.tex_start : found.tex_stop])
    return unescape(tex, KRAMDOWN_ESCAPES if _turndown(tex) else ESCAPES)


def _turndown(tex: str) -> bool:
    r"""Tell whether a shortcode's TeX has every backslash doubled, as Turndown
    (wordpress-export-to-markdown) writes it: `\\mu`, `\\{3, 5\\}` (no command with its
    single backslash, and a `\\`, which inline math has no use for as a row break)."""
    return "\\\\" in tex and SINGLE_COMMAND.search(tex) is None


def _trimmed(tex: str) -> str:
    """Return `tex` without white space around it, but TeX's control space `\\ ` kept."""
    tex = tex.lstrip()
    trimmed = tex.rstrip()
    return (
        tex[: len(trimmed) + 1] if trimmed.endswith("\\") and len(tex) > len(trimmed) else trimmed
    )


def wp_latex_inline(state: StateInline, silent: bool) -> bool:
    """Inline rule: a LaTeX shortcode at `state.pos` as a math token (module docstring).
    `[latex]` is a link when the post defines the reference `[latex]: url`."""
    src, pos = state.src, state.pos
    if AT_OPENER.match(src, pos) is None:  # most `$` and `[`: one match in C
        return False
    if src[pos] == "[" and "LATEX" in (state.env.get("references") or {}):
        return False
    found = shortcode_at(src, pos, state.posMax)
    if found is None:
        return False
    if not silent:
        kind = "math_inline_display" if found.display else "math_inline"
        token = state.push(kind, "math", 0)
        lead = len(src[found.tex_start : found.tex_stop]) - len(
            src[found.tex_start : found.tex_stop].lstrip()
        )
        token.content, removed = tex_of(src, found)
        token.meta = {
            "offset": found.tex_start + lead,
            "delims": (src[pos : found.tex_start + lead], src[found.tex_stop : found.end]),
            "removed": removed,
        }
    state.pos = found.end
    return True


def wp_latex_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a line opening with knitr's `$$latex` starts a paragraph (whose inline
    rule reads it, display math), not the math plugin's `$$` block of TeX `latex …`."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("$$", begin) or state.sCount[start_line] - state.blkIndent >= 4:
        return False
    if OPENER.match(state.src, begin) is None:
        return False
    return bool(paragraph(state, start_line, end_line, silent))


def wplatex_plugin(md: MarkdownIt) -> None:
    """Read WordPress' `$latex …$`, `$$latex …$$` and `[latex]…[/latex]` as math."""
    md.inline.ruler.before("math_inline", "wp_latex", wp_latex_inline)
    md.block.ruler.before("math_block", "wp_latex_block", wp_latex_block)
