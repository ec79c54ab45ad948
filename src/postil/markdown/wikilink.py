"""Wikilinks and embeds of Obsidian, Quartz, Foam and Logseq: `[[Note]]`, `![[image.png]]`.

Obsidian finds the note a wikilink names by its file name anywhere in the vault (the path
is only needed when two files share a name), and a heading by its text. postil reads
them so:

- `[[Note]]`, `[[Note|the text]]`, `[[folder/Note]]`, `[[Note.md]]`: a link to the post or
  page whose source file is named `Note` (case does not matter; a `Note/index.md` is named
  `Note` too), shown as the note's name or the text after `|`;
- `[[Note#Some heading]]`, `[[#Some heading]]`: to that heading, whose id is the slug
  postil gives it (`postil.markdown.heading.slug_for`), checked like any link's fragment;
  `[[Note#^block-id]]` (a block reference) links to the block whose text ends with
  ` ^block-id`, or the quote, callout, list or table followed by a `^block-id` line
  (Obsidian's block id, taken out of the text and made the block's id by `block_ids`);
- `![[plot.png]]`, `![[plot.png|300]]`, `![[plot.png|300x200]]`, `![[plot.png|A plot]]`:
  the image file of that name among the content's files, the number its width (and
  height), other text its alt text;
- `![[Note]]`, embedding another note, is shown as a link to it with a warning;
- Dendron writes the text first, `[[the text|note.name#heading]]` (Dendron's "Links":
  `[[alias|link]]`): when the part before `|` names no file and the part after it does,
  the part after it is the target.

The links and images made are ordinary `link_open`/`image` tokens whose targets are
content-root paths (`@/posts/note.md#id`), which the links plugin turns into URLs and
checks like any other. A name no published file has, or that several share, is a warning
at its place and the wikilink shows its text (`[[Missing note|the text]]` is "the text"),
as Obsidian and Quartz show an unresolved link; `[[0]]`, naming nothing, stays as written.
Source: Obsidian's help, "Internal links", "Link to blocks" and "Embed files".
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.heading import RESERVED_IDS, RESERVED_PREFIXES, slug_for
from postil.markdown.inlinewarn import warn_inline
from postil.markdown.references import CONTENT_DIR, locate
from postil.markdown.state import RenderState, get_state

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n|]*)(?:\|((?:[^\[\]\n]|\[[^\[\]\n]*\])*))?\]\]")
"""`[[target|text]]` or `![[target|size or alt]]`, on one line; the text may hold one
level of brackets (`[[Note|[x]{.smallcaps}]]`)."""

SIZE = re.compile(r"(\d+)(?:x(\d+))?")
"""An embedded image's size: `300` or `300x200` pixels."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp")
"""Files an embed shows as an image (Obsidian's image formats)."""

_INDEX: list[tuple[Mapping[str, str], dict[str, list[str]], dict[str, list[str]]]] = []
"""The last name index made and the mapping it was made from (the build shares one
mapping among its posts, so the index is made once per build, not once per post)."""


def wikilink_plugin(md: MarkdownIt) -> None:
    """Read `[[Note]]` links and `![[file]]` embeds (see the module).

    Syntax::

        See [[Attention from scratch#The softmax|the softmax]] and ![[heatmap.png|400]].

    → `<a href="/posts/attention-from-scratch/#the-softmax">the softmax</a>` and
    `<img src="/posts/heatmap.png" alt="heatmap.png" width="400">`. No CSS classes.
    """
    md.inline.ruler.before("link", "wikilink", wikilink)
    md.core.ruler.after("inline", "wikilink_check", wikilink_check)
    md.core.ruler.after("inline", "block_ids", block_ids)


def wikilink(state: StateInline, silent: bool) -> bool:
    """Inline rule: a wikilink or an embed that names a published file (see the module);
    one that names none is left to the other rules (CommonMark's reading), and
    `wikilink_check` reports it."""
    start = state.pos
    if not state.src.startswith("[[", start + (state.src[start] == "!")):
        return False
    match = WIKILINK.match(state.src, start, state.posMax)
    if match is None or not match.group(2).strip():
        return False
    embed, target, label = match.group(1) == "!", match.group(2).strip(), match.group(3)
    name, _, fragment = target.partition("#")
    image = embed and name.lower().endswith(IMAGE_SUFFIXES)
    found = _find(get_state(state.env), name.strip(), image=image)
    if found is None and label and not image:  # Dendron's `[[label|note.name#heading]]`
        other, _, other_fragment = label.strip().partition("#")
        found = _find(get_state(state.env), other.strip(), image=False)
        if found is not None:
            label, fragment = target, other_fragment
    if found is None:
        if not re.search(r"[^\W\d_]", target) or _reference(state, match):
            return False  # `[[0]]`: brackets in prose; `[[x]]` with `[x]: url`: a link
        if not embed and _link_after(state, match.end()):
            return False  # `[[PDF]](https://…)`, `[[PDF]][1]`: CommonMark's link of `[PDF]`
        # An embed, or brackets in more brackets or before `:` (`[[[x]]]`, `[[x]]: url`),
        # stays as written (CommonMark's reading); a link shows its text, as Obsidian and
        # Quartz show a link to no note
        written = (
            embed
            or state.src[start - 1 : start] in ("[", "!")  # `![[x]]` left by the embed
            or state.src.startswith(":", match.end())
        )
        if not silent and state.src[start - 1 : start] != "!":  # the embed warned there
            warn_inline(state, start, _missing(get_state(state.env), match, written))
        if written:
            return False
        if not silent:
            state.push("text", "", 0).content = label or _shown(target)
        state.pos = match.end()
        return True
    if not silent:
        if image:
            _push_image(state, found, name.strip(), label)
        else:
            _push_link(state, found, fragment, label or _shown(target), match.group(0))
            if embed:
                state.tokens[-1].meta["embedded"] = match.group(0)  # the link_close
    state.pos = match.end()
    return True


def _link_after(state: StateInline, pos: int) -> bool:
    """Tell whether a link's destination follows a wikilink's `]]` at `pos`: `(`, or
    `[label]` of a reference the document defines (kramdown's and CommonMark's `[[PDF]](url)`
    is a link whose text is `[PDF]`, as academic posts write it after a citation)."""
    if state.src.startswith("(", pos):
        return True
    if not state.src.startswith("[", pos):
        return False
    close = state.src.find("]", pos + 1, state.posMax)
    references = state.env.get("references") or {}
    return close > pos and normalizeReference(state.src[pos + 1 : close]) in references


def _reference(state: StateInline, match: re.Match[str]) -> bool:
    """Tell whether the text inside a wikilink's outer brackets is a link reference
    defined in the document (`[[x]]` with `[x]: /url`: CommonMark's link in brackets)."""
    references = state.env.get("references")
    if not references or match.group(3) is not None:
        return False
    return normalizeReference(match.group(2)) in references


BLOCK_ID = re.compile(r"(?:(?<=\s)|\A)\^([A-Za-z0-9-]+)[ \t]*\Z")
"""Obsidian's block id at the end of a block's text: ` ^abc123`."""
BLOCK_ID_NAME = re.compile(r"[A-Za-z0-9-]+")
BLOCK_ID_ALONE = re.compile(r"\^[A-Za-z0-9-]+[ \t]*")
"""A paragraph's whole text when it is an Obsidian block id naming the block before it."""


def block_ids(state: StateCore) -> None:
    """Core rule: an Obsidian block id (` ^abc123` ending a paragraph or a list item's
    text, or on the text's next line, Obsidian's "Link to a block in a note") is taken out
    of the text and made the id of its block, where `[[#^abc123]]` and `[[Note#^abc123]]`
    lead; in a tight list item, of the item. An id alone in a paragraph right after a quote,
    callout, list or table is that block's id, as Obsidian writes one for such a "structured
    block" (and Quartz's `ofm.ts` reads it for a quote), and the paragraph goes."""
    tokens, gone = state.tokens, set[int]()
    for index, inline in enumerate(tokens):
        if inline.type != "inline" or "^" not in inline.content or not inline.children:
            continue
        given = _take_block_id(inline)
        if given is None:
            continue
        block = _structured_block(tokens, index) if not inline.children else None
        if block is not None:
            gone.update((index - 1, index, index + 1))  # the id's own paragraph
        else:
            block = next((t for t in reversed(tokens[:index]) if t.nesting == 1), None)
            if block is not None and block.hidden:  # a tight list's paragraph: its item
                is_item = (t for t in reversed(tokens[:index]) if t.type == "list_item_open")
                block = next(is_item, block)
        _give_block_id(state, inline, block, given)
    if gone:
        state.tokens = [token for index, token in enumerate(tokens) if index not in gone]


def _give_block_id(state: StateCore, inline: Token, block: Token | None, given: str) -> None:
    """Make `given` the id of `block`, or warn at `inline` when the page has that id."""
    taken = state.env.setdefault("_block_ids", set())
    if given in taken or given in RESERVED_IDS or given.startswith(RESERVED_PREFIXES):
        get_state(state.env).warn(
            inline.map[0] if inline.map else None,
            1,
            f"block id `^{given}` is already an id of this page, so this block does not "
            "get it; give the block another id",
        )
    elif block is not None and "id" not in block.attrs:
        block.attrs["id"] = given
        block.meta = {**(block.meta or {}), "block_id": given}  # headings avoid it
        taken.add(given)


def _take_block_id(inline: Token) -> str | None:
    """Return the block id ending `inline`'s text and take it (and a line break before it)
    out of its children, leaving none when the id was all the text; None if it has none."""
    children = inline.children or []
    last = children[-1]
    found = BLOCK_ID.search(last.content) if last.type == "text" else None
    before = children[-2].type if len(children) > 1 else ""
    if found is None or not (found.start() or before in ("", *_BEFORE_ID)):
        return None  # `x^2` split by other tokens is no id
    if not re.search("[A-Za-z]", found.group(1)) and len(found.group(1)) < 5:
        return None  # `10 ^6` in prose; Obsidian's own ids are six letters and digits
    last.content = last.content[: found.start()].rstrip()
    if not last.content and before in ("", "softbreak", "hardbreak"):
        del children[-2 if before else -1 :]  # the id's own line, and its line break
    return found.group(1)


_BEFORE_ID = ("math_inline", "softbreak", "hardbreak")
"""Inline tokens an id may follow as the first thing of its text token: a formula ending
the text (`$x$ ^id`), or a line break (the id on the text's next line)."""


def _structured_block(tokens: list[Token], index: int) -> Token | None:
    """Return the opening token of the quote, callout, list or table closed right before the
    paragraph whose inline token is `tokens[index]`; None when no such block comes right
    before it (a paragraph keeps an id of its own)."""
    opening, closed = tokens[index - 1], tokens[index - 2] if index >= 2 else None
    if closed is None or closed.nesting != -1 or closed.type == "paragraph_close":
        return None
    if closed.level != opening.level:
        return None
    return next(
        (t for t in reversed(tokens[: index - 2]) if t.nesting == 1 and t.level == closed.level),
        None,
    )


def wikilink_check(state: StateCore) -> None:
    """Core rule: warn at each embedded note (shown as a link); a wikilink that names no
    published file, or several, was warned at by the inline rule."""
    doc = get_state(state.env)
    for block in state.tokens:
        if block.type != "inline" or not block.children or "[[" not in block.content:
            continue  # most blocks hold no wikilink: no walk over their tokens
        for token in block.children:
            if token.type == "link_close" and token.meta.get("embedded"):
                _report_embed(doc, block, token.meta["embedded"])


def _missing(doc: RenderState, match: re.Match[str], written: bool) -> str:
    """Return the warning for a wikilink that names no published file, or several, shown
    as `written` or as its text."""
    name = match.group(2).partition("#")[0].strip()
    image = bool(match.group(1)) and name.lower().endswith(IMAGE_SUFFIXES)
    found = candidates(doc, name, image=image) if name else []
    if len(found) > 1:
        where = ", ".join(found[:4]) + (", …" if len(found) > 4 else "")
        folder = posixpath.basename(posixpath.dirname(found[0]))
        problem = (
            f"{len(found)} files are named `{name}` ({where}); write its folder too, "
            f"e.g. `[[{folder}/{name}]]`"
        )
    else:
        problem = (
            f"no published post, page or file is named `{name}` (wikilinks name a file, "
            "`[[other-note]]` for other-note.md); fix the name, or link to the file, e.g. "
            "`[text](other.md)`"
        )
    shown = "as written" if written else "as its text, not a link"
    return f"wikilink `{match.group(0)}` is shown {shown}: {problem}"


def _report_embed(doc: RenderState, block: Token, written: str) -> None:
    """Warn that embedding a note shows a link to it instead."""
    doc.warn(
        *locate(doc, block.map, written),
        f"`{written}` embeds a note, which postil does not do: it is shown as a link to the "
        "note; copy its text in, or write `[[…]]` without the `!`",
    )


def _shown(target: str) -> str:
    """Return the text Obsidian shows for a link without `|text`: `Note > Heading`."""
    name, _, fragment = target.partition("#")
    name = posixpath.basename(name.strip()).removesuffix(".md")
    fragment = fragment.strip().lstrip("^")
    return f"{name} > {fragment}" if name and fragment else name or fragment


def _push_link(state: StateInline, source: str, fragment: str, text: str, written: str) -> None:
    """Push a link to the content file `source` ("" for this page) and `#fragment`; the
    link's `meta["written"]` is the `[[…]]` as written, where its warnings point."""
    fragment = fragment.strip()
    if fragment.startswith("^"):  # a block's id, as `block_ids` gives it
        anchor = "#" + fragment[1:].strip() if BLOCK_ID_NAME.fullmatch(fragment[1:]) else ""
    else:
        anchor = "#" + slug_for(fragment) if fragment else ""
    href = ("@/" + source.removeprefix(CONTENT_DIR + "/") if source else "") + anchor
    opening = state.push("link_open", "a", 1)
    opening.attrs = {"href": href or "#"}
    opening.markup, opening.info = "wikilink", "auto"
    opening.meta["written"] = written
    children: list[Token] = []
    state.md.inline.parse(text, state.md, state.env, children)
    state.tokens.extend(children)
    closing = state.push("link_close", "a", -1)
    closing.markup, closing.meta = "wikilink", {}


def _push_image(state: StateInline, source: str, name: str, label: str | None) -> None:
    """Push an image of the content file `source`, sized or described by `label`."""
    token = state.push("image", "img", 0)
    size = SIZE.fullmatch(label.strip()) if label else None
    alt = label.strip() if label and size is None else posixpath.basename(name)
    token.attrs = {"src": "@/" + source.removeprefix(CONTENT_DIR + "/"), "alt": ""}
    if size:
        token.attrs["width"] = size.group(1)
        if size.group(2):
            token.attrs["height"] = size.group(2)
    text = Token("text", "", 0)
    text.content = alt
    token.children, token.content = [text], alt


def _find(doc: RenderState, name: str, *, image: bool) -> str | None:
    """Return the content source a wikilink's name means ("" for this page), or None
    when no file or several files have that name (`candidates`)."""
    if not name:
        return ""
    found = candidates(doc, name, image=image)
    return found[0] if len(found) == 1 else None


def candidates(doc: RenderState, name: str, *, image: bool) -> list[str]:
    """Return the published sources (or, for an image, content files) a wikilink's name
    can mean: those whose file name is the name (case aside; `folder/Note` narrows it to a
    folder), else those whose file name has the name's slug (`[[Other note]]` for
    `other-note.md`, as Quartz reads a link)."""
    key = name.lower().removesuffix(".md")
    if image:
        return [s for s in doc.assets if _matches(s, name.lower())]
    by_name, by_slug = _names(doc.links)
    found = by_name.get(posixpath.basename(key), [])
    found = [s for s in found if _matches(s.rsplit(".", 1)[0], key)]
    if found:
        return found
    folder = posixpath.dirname(key)
    slugged = by_slug.get(slug_for(posixpath.basename(key)), [])
    return [s for s in slugged if not folder or _matches(posixpath.dirname(s), folder)]


def _matches(source: str, written: str) -> bool:
    """Whether the source path ends with the written name (`folder/Note` or `Note`)."""
    source = source.lower()
    return (
        source == f"{CONTENT_DIR}/{written}"
        or source.endswith("/" + written)
        or (source.endswith("/index") and source.removesuffix("/index").endswith("/" + written))
    )


def _names(links: Mapping[str, str]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return file name (lower case, no suffix; a bundle's `index` its folder's) -> the
    sources of that name, and the same by the name's slug; made once per mapping of
    sources (`_INDEX`)."""
    if _INDEX and _INDEX[0][0] is links:
        return _INDEX[0][1], _INDEX[0][2]
    names: dict[str, list[str]] = {}
    slugs: dict[str, list[str]] = {}
    for source in links:
        stem = posixpath.splitext(source)[0].lower()
        base = posixpath.basename(stem)
        if base == "index":
            base = posixpath.basename(posixpath.dirname(stem))
        names.setdefault(base, []).append(source)
        slugs.setdefault(slug_for(base), []).append(source)
    _INDEX[:] = [(links, names, slugs)]
    return names, slugs
