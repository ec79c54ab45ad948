"""Distill's elements in Markdown posts, as al-folio's `distill` layout and the ICLR blog
posts write them.

Distill (distill.pub's `template.v2.js`, which al-folio's `distill` layout loads) turns
custom elements into a typeset article in the browser. Posts written for it use three of
them in their Markdown; postil passed them through as unknown elements, so a citation
showed nothing and a footnote's text stood in the sentence (942 `<d-cite>` and 132
`<d-footnote>` in one year of ICLR blog posts):

- `<d-cite key="a,b"></d-cite>`: a citation of the works `a` and `b` of the post's
  `bibliography:`; here the cluster Pandoc's `[@a; @b]` is (`postil.markdown.cite`: its
  margin references and References list), warned when the post names no bibliography;
- `<d-footnote>text</d-footnote>`: a footnote written where it belongs; here a note as
  `^[text]` makes one (`postil.markdown.sidenote.push_inline_note`), its text Markdown;
- `<d-code block language="python">` … `</d-code>` on lines of their own: a code block in
  that language, its lines' common indentation taken off; `<d-code language="x">code</d-code>`
  in a sentence is inline code.

Source: Distill's guide (distill.pub/guide, "Citations", "Footnotes", "Code"), al-folio's
`_posts/2018-12-22-distill.md`.
"""

from __future__ import annotations

import re
from textwrap import dedent

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.cite import CiteItem, push_cluster
from postil.markdown.inlinewarn import warn_inline
from postil.markdown.mathhtml import PIECE, SKIPPED
from postil.markdown.scholar import CITE_TAG
from postil.markdown.sidenote import push_inline_note

CITE = re.compile(
    r"""<d-cite\s+key\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))\s*(?:/>|>\s*</d-cite\s*>)""",
    re.I,
)
"""`<d-cite key="a,b"></d-cite>` (or `/>`): group 1, 2 or 3 the keys."""
HAS_ELEMENT = re.compile(r"<d-(?:cite|footnote)|\{%-?\s*cite\s", re.I)
"""What a raw HTML block holds when it holds a citation or a note (most hold neither)."""
PIECE_OR_CITE = re.compile(rf"{PIECE.pattern}|(?P<scholar>{CITE_TAG.pattern})", re.S)
"""A tag, comment … (`PIECE`: groups 1 and 2 a closing slash and the name), or
jekyll-scholar's `{% cite … %}` (group `scholar`)."""
FOOTNOTE_TAG = re.compile(r"<(/?)d-footnote\s*>", re.I)
"""The start and end tags of a footnote."""
CODE_SPAN = re.compile(r"<d-code(?:\s[^>]*)?>(.*?)</d-code\s*>", re.I | re.S)
"""Inline code: group 1 the code."""
CODE_BLOCK = re.compile(r"<d-code(?=[\s>])([^>]*)>\s*$", re.I)
"""A code block's start tag on a line of its own: group 1 its attributes."""
BLOCK_ATTRIBUTE = re.compile(r"(?:^|\s)block(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|\S+))?(?=\s|$)")
LANGUAGE = re.compile(r"""language\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
CODE_END = re.compile(r"\s*</d-code\s*>\s*$", re.I)


def distill_plugin(md: MarkdownIt) -> None:
    """Read Distill's `<d-cite>`, `<d-footnote>` and `<d-code>` (module doc).

    Syntax::

        As shown <d-cite key="vaswani2017"></d-cite>.<d-footnote>A note.</d-footnote>

        <d-code block language="python">
          x = 1
        </d-code>

    Output: the citation, note and code plugins' (their CSS classes).
    """
    md.inline.ruler.before("html_inline", "distill_inline", distill_inline)
    md.core.ruler.after("block", "distill_html", distill_html)
    md.block.ruler.before("html_block", "distill_code", distill_code, {"alt": ["paragraph"]})


def distill_inline(state: StateInline, silent: bool) -> bool:
    """Inline rule: `<d-cite>`, `<d-footnote>…</d-footnote>` or `<d-code>…</d-code>`."""
    src, start = state.src, state.pos
    if not src.startswith("<d-", start) and not src.startswith("<D-", start):
        return False
    head = src[start : start + 12].lower()
    if head.startswith("<d-cite"):
        return _cite(state, silent)
    if head.startswith("<d-footnote"):
        return _footnote(state, silent)
    if head.startswith("<d-code"):
        found = CODE_SPAN.match(src, start, state.posMax)
        if found is None:
            return False
        if not silent:
            state.push("code_inline", "code", 0).content = found.group(1)
        state.pos = found.end()
        return True
    return False


def distill_html(state: StateCore) -> None:
    """Core rule: a `<d-cite>` or `<d-footnote>` in the text of a raw HTML block
    (`<p class="legend">… <d-cite key="x"></d-cite></p>`, a `<summary>`'s note) is an
    inline token between the block's two parts, which the inline rules read as in a
    paragraph: Distill's elements work wherever they are in the page. So is
    jekyll-scholar's `{% cite key %}` (`postil.markdown.scholar`), which Jekyll's Liquid
    evaluates in a figure's HTML caption as anywhere else (it was left out, warned)."""
    if not any(t.type == "html_block" and HAS_ELEMENT.search(t.content) for t in state.tokens):
        return
    tokens: list[Token] = []
    for token in state.tokens:
        found = _elements(token.content) if token.type == "html_block" else []
        if not found:
            tokens.append(token)
            continue
        line0, pos = (token.map or [0])[0], 0
        for start, end in found:
            tokens += _html_part(token, token.content[pos:start], line0)
            inline = Token("inline", "", 0)
            line = line0 + token.content.count("\n", 0, start)
            inline.content, inline.map, inline.children = (
                token.content[start:end],
                [line, line + 1],
                [],
            )
            tokens.append(inline)
            pos = end
        tokens += _html_part(token, token.content[pos:], line0 + token.content.count("\n", 0, pos))
    state.tokens = tokens


def _elements(html: str) -> list[tuple[int, int]]:
    """Return (start, end) of each `<d-cite>` and `<d-footnote>` element and `{% cite %}`
    tag in the text of `html`: outside `<code>`, `<pre>`, scripts and the other `SKIPPED`
    elements."""
    if not HAS_ELEMENT.search(html):
        return []
    found: list[tuple[int, int]] = []
    skipped: list[str] = []
    after = 0
    for piece in PIECE_OR_CITE.finditer(html):
        if piece.start() < after:
            continue
        if piece.group("scholar"):
            if not skipped:
                found.append(piece.span())
            continue
        closing, name = piece.group(1), (piece.group(2) or "").lower()
        if name in SKIPPED and not piece.group(0).endswith("/>"):
            if not closing:
                skipped.append(name)
            elif skipped and skipped[-1] == name:
                skipped.pop()
        if skipped or closing or name not in ("d-cite", "d-footnote"):
            continue
        end = _element_end(html, piece.start(), name)
        if end > 0:
            found.append((piece.start(), end))
            after = end
    return found


def _element_end(html: str, start: int, name: str) -> int:
    """Return where the `<d-cite>` or `<d-footnote>` at `start` ends, or -1."""
    if name == "d-cite":
        cite = CITE.match(html, start)
        return cite.end() if cite else -1
    depth = 0
    for tag in FOOTNOTE_TAG.finditer(html, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return -1


def _html_part(block: Token, html: str, line: int) -> list[Token]:
    """Return a copy of `block` holding `html` from body line `line`, or none when blank."""
    if not html.strip():
        return []
    part = Token("html_block", "", 0, map=[line, line + html.count("\n") + 1], block=True)
    part.content = html
    return [part]


def _cite(state: StateInline, silent: bool) -> bool:
    found = CITE.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    keys = next(group for group in found.groups() if group is not None)
    items = [CiteItem(key.strip()) for key in keys.split(",") if key.strip()]
    if not items:
        if not silent:
            warn_inline(state, state.pos, f"`{found.group(0)}` names no work, so it shows nothing")
        return False  # `key=""`: the raw element, as written
    if not silent:  # without a bibliography the keys in brackets: the element shows nothing
        shown = "[" + ", ".join(item.key for item in items) + "]"
        push_cluster(state, found.group(0), items, shown=shown)
    state.pos = found.end()
    return True


def _footnote(state: StateInline, silent: bool) -> bool:
    """A `<d-footnote>` and its text up to the matching end tag (nested ones counted)."""
    opening = FOOTNOTE_TAG.match(state.src, state.pos, state.posMax)
    if opening is None or opening.group(1):
        return False
    depth = 0
    for tag in FOOTNOTE_TAG.finditer(state.src, state.pos, state.posMax):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            if not silent:
                push_inline_note(state, state.pos, opening.end(), tag.start(), margin=False)
            state.pos = tag.end()
            return True
    if not silent:
        warn_inline(
            state,
            state.pos,
            "`<d-footnote>` is not closed by `</d-footnote>` in its paragraph, so its text "
            "stands in the sentence: a note cannot hold a blank line; join its paragraphs",
        )
    return False  # never closed: markdown-it's raw HTML rule keeps it as written


def distill_code(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: `<d-code block language="x">` on a line of its own, up to the line that
    ends with `</d-code>`, is a code block in language x."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    first = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    opening = CODE_BLOCK.match(first)
    if opening is None or not BLOCK_ATTRIBUTE.search(opening.group(1)):
        return False
    for line in range(start + 1, end):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        closing = CODE_END.search(text)
        if closing is None:
            continue
        if silent:
            return True
        body = state.getLines(start + 1, line, 0, True) + text[: closing.start()]
        language = LANGUAGE.search(opening.group(1))
        token = state.push("fence", "code", 0)
        token.info = next((g for g in language.groups() if g), "") if language else ""
        token.content = dedent(body).strip("\n") + "\n"
        token.markup = "<d-code>"  # no fence of backticks: `nesting.unclosed_fence` skips it
        token.map = [start, line + 1]
        state.line = line + 1
        return True
    return False
