"""Stable, unique heading ids, a `¶` anchor per heading, and the table of contents."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.ids import element_ids
from postil.markdown.mathdoc import emptiness, error_span
from postil.markdown.rendered import TocEntry
from postil.markdown.state import RenderState, get_state
from postil.math import MathError, latex_to_mathml
from postil.math.text import tex_source, text_of, without_tex
from postil.slugs import (  # noqa: F401  (this module's names before postil.slugs)
    APOSTROPHES,
    FALLBACK_SLUG,
    RESERVED_IDS,
    RESERVED_PREFIXES,
    slug_for,
)

SECTION_IDS = {"notes": "footnote_block_open", "references": "cite_references"}
"""Reserved ids of sections a post has only sometimes, with the token that makes each: an
id the author gives a heading (`## References {#references}`) is theirs without a warning
when the post has no such section."""

UNLISTED = "unlisted"
"""Pandoc's class for a heading left out of the table of contents (`## Aside {.unlisted}`)."""


def heading_plugin(md: MarkdownIt) -> None:
    """Give every heading a stable id and an anchor link; record h2/h3 as the toc.

    Syntax: any ATX or setext heading::

        ## The one line

    Output::

        <h2 id="the-one-line">The one line<a class="heading-anchor" href="#the-one-line"
        aria-label="Link to section: The one line"></a></h2>

    The id is the Unicode-aware slug of the heading's text (python-slugify with
    `allow_unicode`, so "Über σ" → "über-σ"), math read as text and never its TeX control
    words (`## The $\\displaystyle S$ matrix` → "the-s-matrix"); a repeat gets "-1", "-2"
    (GitHub's and kramdown's numbering); a slug that is reserved ("notes") or starts with a
    note/figure prefix ("fn-") gets "sec-" in front; an id already used by a figure or table
    is skipped the same way. An id written after the text (`## Results {#results}`, attrs
    plugin) is kept as given, and a heading with the class `unlisted` stays out of the toc.
    The anchor's `¶` glyph is drawn by CSS (`::after`), so copied text stays clean.
    `state.extra["toc"]` receives `TocEntry(level, id, text, html)` for every heading, in
    order (html: the text escaped, math as MathML); a table of contents lists the levels
    `postil.markdown.rendered.contents` picks. CSS class: heading-anchor.
    """
    md.core.ruler.push("heading_ids", heading_ids)
    md.add_render_rule("heading_close", render_heading_close)


MATH_TOKENS = frozenset({"math_inline", "math_inline_display"})
"""The math plugin's formulas inside a paragraph or heading."""


def inline_text(inline: Token, doc: RenderState | None = None) -> str:
    """Return the plain text of an inline token: text, code and math as text, no markup.

    Math is readable text (`postil.math.text`: `$\\alpha$` is "α"), with the macros in
    force at the formula (set by the math plugin's `math_resolve`). Footnote markers and
    HTML are left out. Whitespace runs collapse to one space.
    """
    return _collapse(part[0] for part in _parts(inline, doc))


def _collapse(parts: Iterable[str]) -> str:
    return " ".join("".join(parts).split())


def _parts(inline: Token, doc: RenderState | None) -> list[tuple[str, str, str]]:
    """Return (text, HTML, id text) pieces of an inline token's content.

    HTML is the escaped text, and each formula's MathML (from the same conversion the body
    makes, so the math cache holds it once); the id text of a formula is its text without
    TeX control words, for the TeX it may fall back to.
    """
    parts: list[tuple[str, str, str]] = []
    for child in inline.children or []:
        if child.type in MATH_TOKENS:
            text, html = _formula(child, doc)
            parts.append((text, html, without_tex(text)))
        elif child.type in ("text", "code_inline", "text_special") or child.type == "math_ref":
            parts.append((child.content, escapeHtml(child.content), child.content))
        elif child.type in ("softbreak", "hardbreak"):
            parts.append((" ", " ", " "))
        elif child.type == "image":
            parts += _parts(child, doc)
    return parts


def _source_text(inline: Token) -> str:
    """Return a heading's text with each formula as written, delimiters and all
    (`Analysis of $q_1$`): what GitHub, mdBook and other generators that leave math to the
    browser slug (their id `analysis-of-q_1`; badboy/mdbook-toc#48)."""
    pieces = []
    for child in inline.children or []:
        if child.type in MATH_TOKENS:
            opener, closer = (child.meta or {}).get("delims", ("$", "$"))
            pieces.append(f"{opener}{child.content}{closer}")
        elif child.type in ("text", "code_inline", "text_special", "math_ref"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
    return "".join(pieces).strip()


def _formula(token: Token, doc: RenderState | None) -> tuple[str, str]:
    """Return (plain text, MathML) of a formula in a heading; ("", "") for empty math.

    Errors are not reported here: the body's rendering of the same formula reports them.
    """
    if emptiness(token.content):
        return "", ""
    meta = token.meta or {}
    try:
        mathml = latex_to_mathml(
            token.content,
            macros=meta.get("macros", doc.macros if doc else None),
            equations=doc.equations if doc else None,
            cache=doc.math_cache if doc else None,
        )
    except MathError as exc:
        return tex_source(token.content), error_span(token.content, exc)
    return text_of(mathml, token.content), mathml


def heading_ids(state: StateCore) -> None:
    """Set a unique `id` on every heading and fill `state.extra["toc"]`.

    A slug must avoid every id the document's elements carry (`ids.element_ids`: figures,
    attribute lists, block ids) and its raw HTML ids, and the table of
    contents may be shown before its headings (`[TOC]`, `{:toc}`): in a document parsed in
    groups (`postil.markdown.state.GroupRun`) the gathering run keeps each heading and
    gives the ids at its last group, when every id is known; the later run starts from
    those ids and the table of contents and gives each group's headings their ids in turn.
    """
    doc = get_state(state.env)
    run = doc.groups
    carry = run.carry.setdefault("heading", {"headings": [], "figures": set()})
    if run.ahead:
        carry["figures"] |= element_ids(state.tokens)
        tokens = state.tokens
        carry["headings"] += [
            tokens[i : i + 3]
            for i, token in enumerate(tokens)
            if token.type == "heading_open" and i + 2 < len(tokens)
        ]
        if run.last:
            html_ids = {found[0] for found in doc.extra.get("html_ids", ())}
            used = _reserved(state.tokens, doc) | carry["figures"] | html_ids  # the last group's
            toc = _give_ids(carry["headings"], used, {}, doc)  # tokens end the document
            run.facts["heading"] = (_reserved(state.tokens, doc) | carry["figures"] | html_ids, toc)
        return
    if "used" not in carry:
        found = run.facts.get("heading")
        if found is None:
            used = _reserved(state.tokens, doc) | element_ids(state.tokens)
            used |= {found[0] for found in doc.extra.get("html_ids", ())}
            carry.update(used=used, last={}, toc=[])
        else:
            carry.update(used=set(found[0]), last={}, toc=list(found[1]))
        doc.extra["toc"] = carry["toc"]
    tokens = state.tokens
    triples = [
        tokens[i : i + 3]
        for i, token in enumerate(tokens)
        if token.type == "heading_open" and i + 2 < len(tokens)
    ]
    toc = _give_ids(triples, carry["used"], carry["last"], doc)
    if "heading" not in run.facts:
        carry["toc"] += toc


def _reserved(tokens: list[Token], doc: RenderState) -> set[str]:
    """Return the reserved ids (`RESERVED_IDS`) but the `SECTION_IDS` of sections that
    `tokens` (the document's, or its last group's: the sections come last) do not have,
    and the id of the page's title (`RenderState.title_id`): a `## Intro` under the title
    `# Intro` is `intro-1`, as GitHub and mdBook number it."""
    kinds = {token.type for token in tokens}
    reserved = set(RESERVED_IDS) - {n for n, kind in SECTION_IDS.items() if kind not in kinds}
    return reserved | ({doc.title_id} - {""})


def _give_ids(
    headings: list[list[Token]], used: set[str], last: dict[str, int], doc: RenderState
) -> list[TocEntry]:
    """Give each heading (open, inline, close) its id and anchor, in order; return the
    table of contents entries (every heading not `unlisted`)."""
    toc: list[TocEntry] = []
    for token, inline, close in headings:
        parts = _parts(inline, doc)
        text = _collapse(part[0] for part in parts)
        heading_id = _heading_id(token, parts, used, last, doc)
        used.add(heading_id)
        token.attrSet("id", heading_id)
        close.meta["anchor"] = (heading_id, text)
        # as written, spaces and all: GitHub's and mdBook's ids keep each space as a `-`
        close.meta["heading_text"] = "".join(part[0] for part in parts).strip()
        close.meta["heading_source"] = _source_text(inline)
        level = int(token.tag[1:])
        if UNLISTED not in str(token.attrs.get("class", "")).split():
            html = "".join(part[1] for part in parts).strip()
            toc.append(TocEntry(level, heading_id, text, html))
    return toc


def _heading_id(
    token: Token,
    parts: list[tuple[str, str, str]],
    used: set[str],
    last: dict[str, int],
    doc: RenderState,
) -> str:
    """Return the id a heading was given (`## Title {#id}`), else a unique slug of its text.

    A given id that another heading, figure or note already has is a warning; the heading
    keeps it (the author chose it, and links may use it).
    """
    given = token.attrs.get("id")
    if not given:
        return _unique(slug_for(_collapse(part[2] for part in parts)), used, last)
    if str(given) in used:
        doc.warn(
            token.map[0] if token.map else None,
            1,
            f"heading id {given!r} is already used on this page; give this heading its own id",
        )
    return str(given)


def _unique(slug: str, used: set[str], last: dict[str, int]) -> str:
    """Return `slug`, or `slug-1`, `slug-2`, … — the first not in `used`.

    The suffixes count repeats from 1, as GitHub, kramdown, Hugo (goldmark), Pandoc and
    markdown-it-anchor number them, so links written against those sites' ids land.

    `last` remembers the suffix last given to each slug (suffixes only grow), so a post with
    n equal headings costs O(n), not O(n²) (20,000 `## Notes` took 28 s before).
    """
    n = last.get(slug, 0)
    candidate = slug if n == 0 else f"{slug}-{n}"
    while candidate in used:
        n += 1
        candidate = f"{slug}-{n}"
    last[slug] = n
    return candidate


def render_heading_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close a heading, with an anchor link to it first (its `¶` comes from CSS)."""
    anchor = tokens[idx].meta.get("anchor")
    link = ""
    if anchor:
        heading_id, text = (escapeHtml(part) for part in anchor)
        link = (
            f'<a class="heading-anchor" href="#{heading_id}" '
            f'aria-label="Link to section: {text}"></a>'
        )
    return link + self.renderToken(tokens, idx, options, env)
