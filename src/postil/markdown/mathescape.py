r"""Markdown's backslash escapes inside math, removed as the Markdown processor removed them.

Posts written for Jekyll (kramdown) and MathJax put inline math between `\\(` and `\\)`:
kramdown turns `\\` into `\`, so MathJax sees `\(…\)`. The Markdown processor also removed
the backslash of every other escape inside (`\_` → `_`, `\*` → `*`, `\\` → `\`, `\{` → `{`),
which authors wrote to keep `_` and `*` from becoming emphasis. `unescape` removes them
the same way, before the TeX reaches the converter (but `\{` and `\}` that pair as shown
braces keep their backslash, `SHOWN_BRACES_KEPT`: the author meant them shown):

    >>> unescape(r"\sum\_i \log p(y\_i \mid x\_i)", KRAMDOWN_ESCAPES)[0]
    '\\sum_i \\log p(y_i \\mid x_i)'

In `$…$`, `$$…$$`, `\(…\)` and `\[…\]` the TeX is raw (Pandoc's reading, and kramdown's for
`$$`): only `\*` and `\~` are removed there (`DOLLAR_ESCAPES`), because TeX's `\*` (a
discretionary multiplication sign, drawn only at a line break) never shows in a page and
`\~` (a text accent) is an error in math mode, while Hugo posts write `W^{\*\top}` to keep
Goldmark from reading `*` as emphasis and Zola posts `[\~]` to keep `~` from striking text
through: their Markdown left `*` and `~` (a no-break space) for KaTeX.

HTML's character references (`&lt;`, `&amp;`, `&#39;`, `&#x2264;`) are decoded in every
formula: posts moved from WordPress or Blogger, and posts whose Markdown processor left `$`
alone (Hugo's Goldmark without passthrough), wrote `a &lt; b` and `x &amp;= y` where the
browser decoded them before MathJax read the TeX. In TeX itself `&lt;` is an alignment tab
followed by the letters `lt;`, which no author means. Only references ending in `;` are read
(`CHARACTER_REFERENCE`), and a name HTML does not know (`&foo;`) stays as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from html import unescape as decode_html

KRAMDOWN_ESCAPES = frozenset("\\.*_+`<>()[]{}#!:|\"'$=-")
r"""The characters kramdown unescapes (`Kramdown::Parser::Kramdown::ESCAPED_CHARS`).

CommonMark escapes every ASCII punctuation character; kramdown's set leaves TeX's `\,`,
`\;`, `\%`, `\&` alone, so posts whose math MathJax read after kramdown keep them, and a
post written for a CommonMark processor (where `\,` would have lost its backslash) wrote
`\\,`, which this set turns into `\,` as well.
"""

SHOWN_BRACES_KEPT = KRAMDOWN_ESCAPES - {"{", "}"}
r"""kramdown's escapes but `\{` and `\}`, for math whose `\{`/`\}` pair as shown braces
(`math._unescaped`): an author who escaped a brace in TeX meant the brace shown."""

DOLLAR_ESCAPES = frozenset("*~")
"""The escapes removed from raw-TeX math (`$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]`)."""

SCRIPT_ESCAPES = DOLLAR_ESCAPES | {"_"}
"""The escapes removed from raw-TeX math that writes its subscripts `x\\_i`
(`escaped_subscripts`)."""

ESCAPED_SUBSCRIPT = re.compile(
    r"(?<=[^\W_]|[}\)\]|'!])\\_(?=\{|\\[A-Za-z]|\d|[^\W\d_](?![^\W\d_]))"
)
r"""`\_` in a subscript's place: after a letter, digit, `}`, `)`, `]`, `|`, `'` or `!` (the
end of a command name is letters too: `\nabla\_y`), before a group, a command, a digit or
one letter (`y\_0`, `\sum\_{i}`, `f\_\theta`, `p\_i^2`). A name's underscore (`Loss\_Fn`,
`original\_loss`: letters on both sides) is not one."""

TEXT_ARGUMENT = re.compile(
    r"\\(?:text[a-z]*|mbox|hbox|mathrm|mathtt|mathsf|mathit|operatorname\*?)\s*\{"
)
r"""A command whose argument is text or a name, where `\_` is TeX's underscore as meant
(`\text{my\_var}`, `\texttt{sum\_of\_f}`, `\operatorname{arg\_max}`)."""

CHARACTER_REFERENCE = re.compile(
    r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
)
"""An HTML character reference with its `;` (HTML, "Character references"): named,
decimal or hexadecimal."""


def unescape(tex: str, escapable: frozenset[str]) -> tuple[str, tuple[int, ...]]:
    r"""Return `tex` without the backslash of each escape `\c` with `c` in `escapable`, and
    with HTML's character references decoded (`&lt;` → `<`; see the module docstring).

    Reads left to right as Markdown does: `\\` is one escape (of `\` when `\` is
    escapable, else a TeX control symbol kept whole), so `\\_` is `\_` or stays `\\_`.

    Returns:
        The text, and one offset in it for each source character removed (ascending): the
        offset of the character after a removed backslash, and after a decoded reference,
        so that `source_offset` maps every character back to where it was written (a
        decoded reference to its `&`).
    """
    escapes = "\\" in tex and _escape_pattern(escapable).search(tex) is not None
    if not escapes and ("&" not in tex or CHARACTER_REFERENCE.search(tex) is None):
        return tex, ()  # nothing to remove (most formulas)
    out: list[str] = []
    removed: list[int] = []
    pos, size = 0, len(tex)
    while pos < size:
        char = tex[pos]
        if char == "&" and (reference := CHARACTER_REFERENCE.match(tex, pos)) is not None:
            written = reference.group()
            decoded = decode_html(written)
            if decoded != written:  # a name HTML knows
                out.extend(decoded)  # one item a character: offsets are `len(out)`
                removed += [len(out)] * (len(written) - len(decoded))
                pos = reference.end()
                continue
        if char != "\\" or pos + 1 == size:
            out.append(char)
            pos += 1
            continue
        follower = tex[pos + 1]
        if follower in escapable:
            removed.append(len(out))
            out.append(follower)
        else:
            out += [char, follower]
        pos += 2
    return "".join(out), tuple(removed)


DOUBLED_COMMAND = re.compile(r"(?<!\\)\\\\[A-Za-z]{2}")
"""A command of two letters or more written with two backslashes (`\\\\mu`, `\\\\frac`): as
TeX, a row break then a word of italic letters, which no author means. After one letter
(`c\\\\d+e`) it is a row break before a variable, as KaTeX and MathJax read it."""

SINGLE_COMMAND = re.compile(r"(?<!\\)\\[A-Za-z]")
"""A command written with its one backslash (`\\mu`)."""


def doubled_backslashes(tex: str) -> bool:
    r"""Tell whether every command of `tex` has its backslash doubled (`\\mu x\_n`), as a
    converter that escapes Markdown in all text writes TeX: Turndown
    (wordpress-export-to-markdown, its `escape` doubles `\`, escapes `_`, `*`, `[`, `]`) and
    Hugo or Zola posts written for a Markdown processor that runs before the browser's math.
    A formula with one command written with its single backslash (`\begin{pmatrix} a \\b
    \end{pmatrix}`, a row break before a letter) is TeX as written, and so is one whose
    doubled commands are all one letter (`a+b=c\\d+e=f`: a row break before `d`)."""
    if "\\\\" not in tex:  # most formulas: no `\\` at all
        return False
    return DOUBLED_COMMAND.search(tex) is not None and SINGLE_COMMAND.search(tex) is None


def escaped_subscripts(tex: str) -> bool:
    r"""Tell whether `tex` writes a subscript `x\_i` (`ESCAPED_SUBSCRIPT`) outside a text
    argument (`TEXT_ARGUMENT`).

    A Markdown processor that reads `$` as text (Hugo's Goldmark without passthrough,
    hexo-renderer-marked) turns `\_` into `_` before KaTeX or MathJax in the browser reads
    the TeX, so its posts escape every subscript (`y\_{t+1} = y\_t`) to keep `_` from
    becoming emphasis. As raw TeX `\_` is an underscore glyph, which no author means after
    a variable and before its index. TeX's underscore in a name stays (`\text{my\_var}`)."""
    found = ESCAPED_SUBSCRIPT.search(tex)
    if found is None:
        return False
    texts = _text_arguments(tex)
    while found is not None:
        if not _within(found.start(), texts):
            return True
        found = ESCAPED_SUBSCRIPT.search(tex, found.end())
    return False


def unescape_subscripts(
    tex: str, escapable: frozenset[str] = SCRIPT_ESCAPES
) -> tuple[str, tuple[int, ...]]:
    r"""`unescape(tex, escapable)` for a formula that `escaped_subscripts`: every `\_` is
    `_` but those in a text argument, which stay TeX's underscore
    (`\operatorname{arg\_max}_x`, `\mathrm{max\_iter}`); same result shape as `unescape`.
    `escapable` holds `_` (`SCRIPT_ESCAPES`, or kramdown's set for a post that lost its
    escapes: `markdown_unescaped`)."""
    texts = _text_arguments(tex)
    if not texts:
        return unescape(tex, escapable)
    kept = [i for i in range(len(tex) - 1) if tex.startswith("\\_", i) and _within(i, texts)]
    masked = list(tex)
    for i in kept:
        masked[i] = "\0"  # no escape: `\0_` stays as written, then becomes `\_` again
    out, removed = unescape("".join(masked), escapable)
    return out.replace("\0", "\\"), removed


def _text_arguments(tex: str) -> list[tuple[int, int]]:
    """Return the spans (the `{` to after its `}`) of `tex`'s text arguments."""
    return [(m.end() - 1, _group_end(tex, m.end() - 1)) for m in TEXT_ARGUMENT.finditer(tex)]


def _within(pos: int, spans: list[tuple[int, int]]) -> bool:
    """Tell whether `pos` lies inside one of `spans` (after its `{`, before its end)."""
    return any(start < pos < end for start, end in spans)


def _group_end(tex: str, start: int) -> int:
    r"""Return the index after the `}` closing the group whose `{` is at `start` (`\{` and
    `\}` are no braces), or the end of `tex`."""
    depth, pos = 0, start
    while pos < len(tex):
        char = tex[pos]
        if char == "\\":
            pos += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        pos += 1
        if depth == 0:
            return pos
    return pos


@lru_cache(maxsize=8)
def _escape_pattern(escapable: frozenset[str]) -> re.Pattern[str]:
    """Return a pattern that finds a backslash before a character of `escapable`."""
    return re.compile("\\\\[" + "".join(re.escape(c) for c in sorted(escapable)) + "]")


def source_offset(offset: int, removed: Sequence[int]) -> int:
    """Map an offset in unescaped TeX back to the TeX as written (see `unescape`)."""
    return offset + bisect_right(removed, offset) if removed else offset


TEX_GROUPING = re.compile(r"\\.|[{}]", re.S)
"""A TeX control symbol (`\\{` is no group) or a brace."""


def balanced_braces(latex: str) -> bool:
    """Tell whether the TeX's braces pair (`\\{` and `\\}` are no braces)."""
    depth = 0
    for token in TEX_GROUPING.findall(latex):
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth < 0:
            return False
    return depth == 0


def markdown_unescaped(latex: str, formula_alone: bool = True) -> tuple[str, tuple[int, ...]]:
    r"""Return TeX written for a Markdown processor that removed its escapes (kramdown's
    set, `KRAMDOWN_ESCAPES`), a `\{` and `\}` that pair as shown braces kept
    (`SHOWN_BRACES_KEPT`), and the offsets of the backslashes removed (`unescape`).

    With `formula_alone` False (the formula told nothing, its post did:
    `mathcore.math_escapes`) a `\_` is TeX's underscore unless the formula writes
    subscripts so (`escaped_subscripts`), and then one in a text argument still is."""
    escapable = SHOWN_BRACES_KEPT if balanced_braces(latex) else KRAMDOWN_ESCAPES
    if formula_alone:
        return unescape(latex, escapable)
    if "\\_" in latex and escaped_subscripts(latex):
        return unescape_subscripts(latex, escapable)
    return unescape(latex, escapable - {"_"})
