"""Links to this page's headings written with another generator's ids land on postil's.

A post written for mdBook, GitHub, VuePress, kramdown or Pandoc links to its headings by
the ids that generator gives them, often through a table of contents the author's editor
wrote (`[1.1. Edge detection](#11-edge-detection)`); postil's id of that heading is
`1-1-edge-detection` (`postil.slugs.slug_for`), and postil's ids stay as they are. A
fragment that is no id of the page but one heading's id under another generator's rule
(`postil.slugs.FOREIGN_SLUGS`) is pointed at that heading's postil id; one that two
headings have is a warning naming both. The page's title counts as its first heading when
it is the opening `# Heading` (it carries its id, `FrontMatter.title_id`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.heading import SECTION_IDS
from postil.markdown.ids import element_ids
from postil.markdown.references import label_page, locate
from postil.markdown.rendered import AnchorLink
from postil.markdown.state import RenderState, get_state
from postil.slugs import RESERVED_IDS, RESERVED_PREFIXES, foreign_ids


def fragments_plugin(md: MarkdownIt) -> None:
    """Point `#fragment` links written with another generator's heading ids at postil's.

    Syntax::

        - [1.1. Edge detection](#11-edge-detection)     GitHub's and mdBook's id
        - [1.1. Edge detection](#_1-1-edge-detection)   VuePress' id

        ## 1.1. Edge detection

    Output: both links get `href="#1-1-edge-detection"`, the heading's id. A fragment that
    is an id of the page (any heading's, figure's or raw HTML's), or names no heading under
    any rule, is left as written (`postil.anchors` warns about the latter). No CSS classes.
    """
    md.core.ruler.push("heading_fragments", heading_fragments)


def heading_fragments(state: StateCore) -> None:
    """Rewrite this document's links to other generators' heading ids (see the plugin).

    In a document parsed in groups the gathering run collects every heading and id and
    keeps them in `facts` at its last group, so a link in the first group finds a heading
    of the last; a document of one group finds them in its own tokens.
    """
    doc = get_state(state.env)
    run = doc.groups
    if run.ahead:
        carry = run.carry.setdefault("fragments", {"closes": [], "ids": set()})
        _gather(state.tokens, carry)
        if run.last:
            run.facts["fragments"] = _headings_and_ids(carry)
            run.facts["fragment_sources"] = _sources(carry["closes"])
        return
    fragments = {link.fragment for link in doc.extra.get("anchor_links", ()) if not link.target}
    if not fragments:
        return  # the links plugin recorded no link to this page: nothing to look at
    headings, ids = run.facts.get("fragments") or _headings_and_ids(
        _gather(state.tokens, {"closes": [], "ids": set()})
    )
    if doc.title_id and doc.title_text:
        headings = [(doc.title_id, doc.title_text), *headings]
    html_ids = {found[0] for found in doc.extra.get("html_ids", ())}
    known = ids | html_ids | (RESERVED_IDS - SECTION_IDS.keys()) | {doc.title_id}
    known |= _to_other_pages(doc, state.tokens, fragments - known)
    moved = _to_references(doc, state.tokens, fragments - known)
    if not headings or fragments <= known | moved.keys():
        _move_anchor_links(doc, moved)
        return
    links = [link for link in _fragment_links(state.tokens) if link[2] not in known | moved.keys()]
    sources = run.facts.get("fragment_sources") or _sources(state.tokens)
    if doc.title_id and doc.title_text:
        sources = [doc.title_text, *sources]
    aliases = _aliases([text for _, text in headings], sources)
    for block, token, fragment in links:
        found = sorted(aliases.get(fragment, ()))
        if len(found) == 1:
            moved[fragment] = headings[found[0]][0]
            token.attrSet("href", "#" + moved[fragment])
        elif len(found) > 1:
            _ambiguous(doc, block, token, fragment, [headings[i] for i in found])
            moved[fragment] = ""
    _move_anchor_links(doc, moved)


def _to_other_pages(doc: RenderState, tokens: list[Token], unknown: set[str]) -> set[str]:
    """Point each link to `#label`, no id of the page but a section label of another page
    (`references.label_page`: a MyST `(label)=` target, or in a bookdown book a heading's
    id), at that page's section, and have `postil.anchors` check it there; return the
    fragments moved."""
    pages = {frag: found for frag in unknown if (found := label_page(doc, frag)) is not None}
    if not pages:
        return set()
    for _, token, fragment in _fragment_links(tokens):
        if fragment in pages:
            token.attrSet("href", pages[fragment][2])
    doc.extra["anchor_links"] = [
        AnchorLink(pages[link.fragment][0], link.fragment, link.location)
        if not link.target and link.fragment in pages
        else link
        for link in doc.extra.get("anchor_links", ())
    ]
    return set(pages)


def _to_references(doc: RenderState, tokens: list[Token], unknown: set[str]) -> dict[str, str]:
    """Point each link to `#KEY`, a cited work's key that is no id of the page, at its
    References entry (`#ref-KEY`, `postil.markdown.cite`): jekyll-scholar gives an entry
    its key as id, so its posts link `[Flajolet and Martin (1985)](#flajolet1985)`.
    Return the fragments moved (fragment -> id)."""
    data = doc.extra.get("cite")
    keys = unknown & set(data.works) if data is not None and unknown else set()
    if not keys:
        return {}
    for _, token, fragment in _fragment_links(tokens):
        if fragment in keys:
            token.attrSet("href", "#ref-" + fragment)
    return {key: "ref-" + key for key in keys}


def _headings_and_ids(carry: dict[str, Any]) -> tuple[list[tuple[str, str]], set[str]]:
    """Return the (id, text as written) of every heading gathered and every id of the
    document.

    The headings are read at the end: the gathering run of a document parsed in groups
    gives every heading its id only at its last group (`postil.markdown.heading`).
    """
    headings = [
        (str(close.meta["anchor"][0]), str(close.meta.get("heading_text", "")))
        for close in carry["closes"]
        if close.meta.get("anchor")
    ]
    return headings, carry["ids"] | {given for given, _ in headings}


def _aliases(texts: list[str], sources: list[str]) -> dict[str, set[int]]:
    """Return other generators' ids of the headings (`postil.slugs.foreign_ids`), from
    their text and from their text with each formula as written (`$q_1$`, as generators
    that leave math to the browser slug it), when the two differ."""
    aliases = foreign_ids(texts)
    if len(sources) == len(texts) and sources != texts:
        for alias, indices in foreign_ids(sources).items():
            aliases.setdefault(alias, set()).update(indices)
    return aliases


def _sources(tokens: list[Token]) -> list[str]:
    """Return each heading's text with its formulas as written (`heading._source_text`)."""
    return [
        str(token.meta.get("heading_source", ""))
        for token in tokens
        if token.type == "heading_close" and token.meta.get("anchor")
    ]


def _gather(tokens: list[Token], carry: dict[str, Any]) -> dict[str, Any]:
    """Add the heading closes (their id and text come later) and every other element id
    of `tokens` to `carry`, the Notes' and References' ids only where the page has them
    (`#references` in a post without citations is its own `## References` heading's,
    under kramdown's and GitHub's rule)."""
    carry["closes"] += [token for token in tokens if token.type == "heading_close"]
    carry["ids"] |= element_ids(tokens)
    kinds = {token.type for token in tokens}
    carry["ids"] |= {name for name, kind in SECTION_IDS.items() if kind in kinds}
    return carry


def _fragment_links(tokens: list[Token]) -> list[tuple[Token, Token, str]]:
    """Return (block, link_open, decoded fragment) of every `#fragment` link of `tokens`
    whose fragment could be another generator's id (not a note's, figure's, equation's)."""
    found = []
    for block in tokens:
        for token in block.children or () if block.type == "inline" else ():
            href = token.attrs.get("href") if token.type == "link_open" else None
            if not isinstance(href, str) or not href.startswith("#") or len(href) < 2:
                continue
            fragment = unquote(href[1:])
            if not fragment.startswith(RESERVED_PREFIXES):
                found.append((block, token, fragment))
    return found


def _ambiguous(
    doc: RenderState, block: Token, token: Token, fragment: str, headings: list[tuple[str, str]]
) -> None:
    """Warn that `fragment` is another generator's id of several headings."""
    line0, col = locate(doc, block.map, str(token.attrs.get("href", "")))
    named = " and ".join(f"`{text}` (id `{given}`)" for given, text in headings[:3])
    doc.warn(
        line0,
        col,
        f"link to `#{fragment}`: this page has no such anchor, and other generators' "
        f"heading ids give it to more than one heading: {named}; link to the id of the "
        "one you mean",
    )


def _move_anchor_links(doc: RenderState, moved: dict[str, str]) -> None:
    """Change the fragments the links plugin recorded for `postil.anchors` to match
    (a fragment moved to "" was reported here and is no longer checked)."""
    links = doc.extra.get("anchor_links")
    if not moved or not links:
        return
    kept: list[AnchorLink] = []
    for link in links:
        if link.target or link.fragment not in moved:
            kept.append(link)
        elif moved[link.fragment]:
            kept.append(AnchorLink(link.target, moved[link.fragment], link.location))
    doc.extra["anchor_links"] = kept
