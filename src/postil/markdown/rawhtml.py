"""Raw HTML in posts: its local references resolved and checked like Markdown's.

Raw HTML is the way to size an image, embed a video or lay out a picture; its `src` must
reach the same files, under the same base path, as `![](…)` does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.alttext import no_alt_html, without_alt
from postil.markdown.references import (
    UNCHECKED_URLS,
    locate,
    record,
    record_fragment,
    record_source_link,
    resolve,
    source_path,
)
from postil.markdown.state import RenderState, get_state, is_mdx, reads_jsx

URL_ATTRS = frozenset({"src", "href", "poster"})
"""Attributes holding one URL (`<img src>`, `<a href>`, `<video poster>`)."""

JSX_ATTRIBUTES = {"classname": "class", "htmlfor": "for"}
"""HTML attributes as JSX names them (`className`, `htmlFor`; the parser lowercases names):
written in HTML form in an MDX source's raw HTML (`postil.markdown.mdx`)."""

EXCERPT_MARKER = re.compile(r"<!--\s*(?:more|truncate|PELICAN_END_SUMMARY)\s*-->\s*", re.I)
"""Other generators' summary breaks: Hexo's `<!-- more -->`, Docusaurus' `<!-- truncate -->`,
the Pelican summary plugin's `<!-- PELICAN_END_SUMMARY -->`."""

MORE_MARKER = "<!--more-->"
"""The summary break `postil.htmlfilter.summary_html` reads (Jekyll's, Hugo's, Pelican's)."""

VOID_ELEMENTS = frozenset(
    "area base br col embed hr img input link meta param source track wbr keygen".split()
)
"""HTML's void elements (WHATWG HTML, 13.1.2): their `/>` is allowed and changes nothing."""

TARGET_ATTRS = frozenset({"id", "name", "href"})
"""Attributes that make an element a link or a link target (`<a name="x"/>`,
`<span id="x"/>`, `<a href="…"/>`, which left the rest of the page a link)."""

TEXT_ELEMENTS = frozenset({"textarea", "title"})
"""Elements whose content HTML reads as text (RCDATA), not tags."""

FOREIGN_ROOTS = frozenset({"svg", "math"})
"""Elements whose content is SVG or MathML, where `<path/>` is an empty element."""

HTML_ELEMENTS = frozenset(
    """a abbr address area article aside audio b base bdi bdo blockquote body br button canvas
    caption cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i
    iframe img input ins kbd label legend li link main map mark menu meta meter nav noscript
    object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
    search section select slot small source span strong style sub summary sup table tbody td
    template textarea tfoot th thead time title tr track u ul var video wbr
    acronym applet basefont bgsound big blink center dir font frame frameset image isindex
    keygen listing marquee menuitem multicol nextid nobr noembed noframes plaintext rb rtc
    spacer strike tt xmp svg math""".split()
)
"""The elements of WHATWG HTML (its index of elements) and the obsolete ones browsers still
draw (its section 16, "Obsolete features"), and the roots of SVG and MathML."""

_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)(?=[\s/>])")
"""The name of an open or closing tag that is no custom element (those have a `-`)."""

_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]*)\1\s*\)""")


def rawhtml_plugin(md: MarkdownIt) -> None:
    """Resolve the local references of raw HTML as the links plugin does for Markdown.

    Syntax (raw HTML blocks and inline tags)::

        <img src="/img/loss.png" width="320" alt="Loss">
        <video src="clip.mp4" poster="clip.jpg" controls></video>
        <div style="background: url('/img/bg.png')"></div>

    Every `src`, `href`, `poster`, each URL of `srcset`, and each `url(…)` of an inline
    `style` is read like a Markdown link (`postil.markdown.references.resolve`):
    root-absolute paths get the base path (`/blog/img/loss.png`), paths relative to the
    post's file that name a content asset become its published URL, links to `.md` files
    become the page's URL, and every file the page needs is checked once the site is known
    (a missing one is a warning at its line). In a raw HTML block, an element HTML does
    not close with `/>` gets its closing tag (`<div id="w"/>` → `<div id="w"></div>`, as
    kramdown and MDX read it; `rewrite_html`), and so does a link target in a paragraph
    (`<a name="x"/>`). A tag none of this changes is written exactly as it was. The ids
    raw HTML defines are recorded (`state.extra["html_ids"]`: (id, 0-based body line,
    1-based column)) so headings avoid them and `postil.markdown.ids` checks them. A tag in
    a paragraph that names no HTML element (`std::unique_ptr<T>`) is a warning
    (`unknown_tags`). No CSS classes.
    """
    md.core.ruler.after("links", "rawhtml", rewrite_raw_html)
    md.core.ruler.after("rawhtml", "unknown_tags", unknown_tags)
    md.core.ruler.after("block", "excerpt_markers", excerpt_markers)


MERMAID_ELEMENT = re.compile(
    r"""<(?:div|pre)\b[^<>]*?\sclass\s*=\s*(["']?)(?:[^"'<>]*\s)?mermaid(?:\s[^"'<>]*)?\1[\s/>]""",
    re.I,
)
"""A `<div class="mermaid">` or `<pre class="mermaid">` in raw HTML: a diagram written as
Mermaid's own page-level setup reads it (Jekyll posts that load Mermaid in their layout);
the page loads postil's diagram script for it (`postil.markdown.diagram`)."""


def rewrite_raw_html(state: StateCore) -> None:
    """Rewrite the references of every `html_block` and `html_inline` token, and close the
    self-closed elements of the blocks."""
    render_state = get_state(state.env)
    # an `<svg>` open in raw HTML blocks (one across a blank line is several; a document
    # parsed in groups carries it from group to group)
    blocks: list[int] = render_state.groups.carry.setdefault("rawhtml_foreign", [0])
    for token in state.tokens:
        if token.type == "html_block":
            _rewrite_token(render_state, token, token.map, blocks, {})
            continue
        blocks[0] = 0  # Markdown's own block (`<p>`, `<li>`, `<pre>` …) ends SVG, as in HTML
        if token.type == "inline" and token.children:
            seen: dict[str, int] = {}  # tags warned in this block: the next is further on
            for child in token.children:
                if child.type == "html_inline":
                    _rewrite_token(render_state, child, token.map, None, seen)


def _rewrite_token(
    render_state: RenderState,
    token: Token,
    block_map: list[int] | None,
    foreign: list[int] | None,
    seen: dict[str, int],
) -> None:
    """Rewrite one raw HTML token's references in place, recording what must be checked;
    `foreign`: None, or the depth of SVG and MathML open before a block (`rewrite_html`);
    `seen`: how often each tag warned about was found in the block so far."""

    unchecked = token.meta.get(UNCHECKED_URLS, ()) if token.meta else ()

    def rewrite(value: str) -> str:
        if value in unchecked:  # its start was a template tag that gave nothing
            return value
        resolved = resolve(value, render_state)
        key = "\0" + value  # apart from the tags `no_alt` counts in `seen`
        nth = seen[key] = seen.get(key, -1) + 1
        line0, col = _locate_value(render_state, block_map, value, nth)
        if resolved.url is None:
            source = source_path(render_state.path, unquote(urlsplit(value).path))
            record_source_link(render_state, source, value, line0, col)
            return value
        record(render_state, value, resolved, line0, col)
        if "#" in value:
            record_fragment(render_state, value, line0, col, raw_html=True, resolved=resolved)
        return resolved.url

    def found_id(value: str) -> None:
        line0, col = locate(render_state, block_map, f'"{value}"')
        render_state.extra.setdefault("html_ids", []).append((value, line0, col + 1))

    if "data-qmd" in token.content:
        _warn_quarto_markdown(render_state, token, block_map)

    def no_alt(tag: str) -> None:
        first = tag.split("\n", 1)[0]
        nth = seen[first] = seen.get(first, -1) + 1
        line0, col = locate(render_state, block_map, first, nth=nth)
        render_state.warn_each("html image alt", line0, col, no_alt_html)

    if "mermaid" in token.content and MERMAID_ELEMENT.search(token.content):
        render_state.diagrams.add("mermaid")  # the author's own diagram: the page draws it
    jsx = reads_jsx(render_state)
    renamed = JSX_ATTRIBUTES if jsx else {}
    token.content = rewrite_html(token.content, rewrite, found_id, renamed, foreign, no_alt)


def _locate_value(
    state: RenderState, block_map: list[int] | None, value: str, nth: int
) -> tuple[int | None, int]:
    """Return (0-based body line, 1-based column) of the `nth` (0-based) place of an
    attribute's `value` in a block's lines, as an attribute value is written (quoted, or
    after `=`): the same text in a Markdown link on the line (`[a](#x) <a href="#x">`) is
    not it; any place of the text when it is written no such way."""
    lines = state.source_lines[block_map[0] : block_map[1]] if block_map else []
    for quote in ('"', "'", "="):
        if any(quote + value in line for line in lines):
            line0, col = locate(state, block_map, quote + value, nth=nth)
            return line0, col + 1
    return locate(state, block_map, value, nth=nth)


QUARTO_MARKDOWN = re.compile(r"\sdata-qmd(?:-base64)?\s*=")
"""Quarto's Markdown in raw HTML (`<span data-qmd="_Header_"></span>` in a table cell,
quarto-dev/quarto-cli#5730): Quarto renders the value into the empty element."""


def _warn_quarto_markdown(
    render_state: RenderState, token: Token, block_map: list[int] | None
) -> None:
    """Warn once at the first `data-qmd` attribute of a raw HTML token: postil does not
    render it, so its element shows nothing."""
    found = QUARTO_MARKDOWN.search(token.content)
    if found is None:
        return
    line0, col = locate(render_state, block_map, found.group(0).strip())
    render_state.warn(
        line0,
        col,
        "`data-qmd` (Quarto's Markdown inside raw HTML) is not rendered, so its element "
        "shows nothing: write the content as HTML inside the element, or the table as a "
        "Markdown table",
    )


def rewrite_html(
    html: str,
    rewrite: Callable[[str], str],
    found_id: Callable[[str], None] | None = None,
    renamed: Mapping[str, str] | None = None,
    foreign: list[int] | None = None,
    no_alt: Callable[[str], None] | None = None,
) -> str:
    """Return `html` with every URL of its start tags mapped through `rewrite`, and, in a raw
    HTML block, each element written self-closed that HTML does not close so given its
    closing tag.

    Tags whose URLs all map to themselves keep their exact text; a changed tag is written
    again from its parsed attributes (values quoted and escaped). `found_id` is called with
    the value of every `id` attribute, `no_alt` with each `<img>` tag that has no `alt` (nor
    a mark of decoration: `alttext.without_alt`). `renamed` maps attribute names (lower case) to the
    names written instead (`JSX_ATTRIBUTES` in MDX). `<a name="x"/>`, `<div id="w"/>`,
    `<iframe src="…" />` are written `<a name="x"></a>` …: kramdown, whose posts write
    them so, and MDX read them as empty elements; a browser reads an open one, which took
    the rest of the paragraph into a link, the rest of the post into a `<div>`, or hid it
    as an `<iframe>`'s fallback content. Void elements (`<br/>`, `<img … />`) are as written,
    and so is any element inside SVG or MathML (`<path d="…"/>`): `foreign` holds the depth
    of `<svg>` and `<math>` elements open before `html`, and is updated for the text after.
    With `foreign` None (raw HTML inside a paragraph) only a link or a link target is
    closed, an element with an `id`, `name` or `href` (`<a name="nice"/>A nice property…`:
    the open `<a>` took the paragraph, the next formula and heading into a link's colour in
    a kramdown post); other self-closed elements stay as written, as CommonMark passes
    inline raw HTML through unchanged (its examples 614–617, none of which has an `id`,
    `name` or `href`).
    """
    renamed = renamed or {}
    parser = _TagFinder()
    parser.foreign = foreign[0] if foreign is not None else 0
    parser.feed(html)
    parser.close()
    if foreign is not None:
        foreign[0] = parser.foreign
    else:  # inline: only a link or a link target (`<a name="x"/>`) is closed
        targets = {at for at, _, attrs in parser.tags if any(n in TARGET_ATTRS for n, _ in attrs)}
        parser.unclosed &= targets
    starts: list[int] = []
    out, done = [], 0
    for (line, offset), raw, attrs in parser.tags:
        if found_id is not None:
            for name, value in attrs:
                if name == "id" and value:
                    found_id(value)
        if no_alt is not None and raw[1:4].lower() == "img" and without_alt(_tag_name(raw), attrs):
            no_alt(raw)
        new = [
            (renamed.get(name, name), _rewrite_value(name, value, rewrite)) for name, value in attrs
        ]
        if raw[1:4].lower() == "svg" and _tag_name(raw).lower() == "svg":
            new += _view_box(new)
        unclosed = (line, offset) in parser.unclosed
        if new == attrs and not unclosed:
            continue
        starts = starts or _line_starts(html)
        at = starts[line - 1] + offset
        tag = raw if new == attrs else _tag_text(raw, new)
        if unclosed:  # `<a name="x"/>` → `<a name="x"></a>`, as kramdown and MDX read it
            tag = re.sub(r"\s*/>$", ">", tag) + f"</{_tag_name(raw)}>"
        out += [html[done:at], tag]
        done = at + len(raw)
    return "".join(out) + html[done:] if out else html


PIXELS = re.compile(r"\s*(\d+)(?:\.\d*)?\s*px\s*", re.I)
"""A `width` or `height` written in CSS pixels (`700px`), where HTML wants the number."""

SVG_LENGTH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*", re.I)
"""An SVG `width` or `height` in user units: a number, or pixels (not `%`, `em`, `cm`)."""


def _rewrite_value(name: str, value: str | None, rewrite: Callable[[str], str]) -> str | None:
    """Return an attribute's value with its URLs rewritten, and a `width` or `height` in
    pixels (`<img width="700px">`) as the number a browser reads from it (HTML's rules
    for parsing dimension values take the leading digits): the Nu Html Checker rejects
    the unit."""
    if not value:
        return value
    if name in ("width", "height"):
        pixels = PIXELS.fullmatch(value)
        return pixels[1] if pixels else value
    if name in URL_ATTRS:
        return rewrite(value.strip())
    if name == "srcset":
        return ", ".join(_srcset_candidate(part, rewrite) for part in value.split(","))
    if name == "style":
        return _CSS_URL.sub(lambda m: f"url({m[1]}{rewrite(m[2].strip())}{m[1]})", value)
    return value


def _view_box(attrs: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """Return `[("viewBox", "0 0 W H")]` for an `<svg>` sized by a `width` and `height` in
    pixels but without a `viewBox`, else `[]`.

    Without a viewBox an SVG's drawing keeps its size when CSS narrows the element, so a
    phone's column showed part of a `<svg width="800" height="400">` drawing and scrolled the
    page; with the viewBox of its own size (its user units are pixels: SVG 1.1, 7.2) it is
    drawn exactly as before at its written size and scales with the column like an image
    (`base.css`, `svg[viewBox]`)."""
    sizes = dict(attrs)
    if "viewbox" in sizes or "viewBox" in sizes:
        return []
    width, height = (SVG_LENGTH.fullmatch(sizes.get(k) or "") for k in ("width", "height"))
    if not (width and height):
        return []
    return [("viewBox", f"0 0 {width[1]} {height[1]}")]


def _srcset_candidate(candidate: str, rewrite: Callable[[str], str]) -> str:
    """Rewrite the URL of one `srcset` candidate (`img-2x.png 2x`), keeping its descriptor."""
    url, _, descriptor = candidate.strip().partition(" ")
    return f"{rewrite(url)} {descriptor.strip()}".strip() if url else candidate


def _tag_name(raw: str) -> str:
    """Return the element name of start tag `raw` as written (`<Catalog />` → `Catalog`)."""
    name = re.match(r"<\s*([^\s/>]+)", raw)
    return name[1] if name else "span"


def _tag_text(raw: str, attrs: list[tuple[str, str | None]]) -> str:
    """Return a start tag with `attrs`, in the case and closing style of `raw`."""
    parts = [_tag_name(raw)] + [
        k if v is None else f'{k}="{escape(v, quote=True)}"' for k, v in attrs
    ]
    return "<" + " ".join(parts) + (" />" if raw.rstrip().endswith("/>") else ">")


def _line_starts(text: str) -> list[int]:
    """Return the offset of the first character of each line of `text`."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


class _TagFinder(HTMLParser):
    """Collect every start tag: ((line, offset), its raw text, its attributes), and the
    positions of the elements written self-closed (`<a name="x"/>`) but HTML's void ones and
    those inside an `<svg>` or `<math>` (in HTML, `/>` closes nothing; in SVG it does)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[tuple[int, int], str, list[tuple[str, str | None]]]] = []
        self.unclosed: set[tuple[int, int]] = set()
        self.foreign = 0  # depth of <svg> and <math> elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text()
        if raw is not None:
            self.tags.append((self.getpos(), raw, attrs))
        self.foreign += tag in FOREIGN_ROOTS
        if tag in TEXT_ELEMENTS:  # `<textarea>`'s `<div/>` is text, shown as written
            self.set_cdata_mode(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in FOREIGN_ROOTS and self.foreign:
            self.foreign -= 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text()
        if raw is None:
            return
        self.tags.append((self.getpos(), raw, attrs))
        if not self.foreign and tag not in VOID_ELEMENTS:
            self.unclosed.add(self.getpos())


def unknown_tags(state: StateCore) -> None:
    """Core rule: warn at each tag in a paragraph that names no HTML element and has no
    partner: `std::unique_ptr<T>`, `#include <iostream>`, `[<stdexcept>](…)`; and at each
    such tag written self-closed, a component of Vue, MDX or a theme (`<BlockMath
    math="x"/>`, in a paragraph or alone on its line), which a Markdown post does not run.

    CommonMark reads `<T>` as raw HTML (its examples 613 and 623: any name), and a browser
    makes it an unknown, empty element: the reader sees `std::unique_ptr` (HackMD's sanitiser
    escapes tags it does not know and shows `<T>`; GitHub's drops them). postil keeps
    CommonMark's HTML and says where the text went. A tag counts when its name is no
    element of `HTML_ELEMENTS` and no custom element's (those have a `-`), and its partner
    (`</T>` after `<T>`, or `<T>` before `</T>`) is not in the same paragraph: `<T>x</T>`
    shows its `x`. A paragraph with inline `<svg>` or `<math>` (whose parts are no HTML
    elements), and MDX, where `<T>` is a component (`postil.markdown.mdx`), are left. Each
    tag is told once a post, at its first place outside code spans.
    """
    doc = get_state(state.env)
    if is_mdx(state.env) or "<" not in state.src:
        return
    told: set[str] = doc.groups.carry.setdefault("unknown_tags", set())
    for token in state.tokens:
        if token.type == "inline" and token.children:
            for child in _unknown_in_paragraph(token.children):
                _warn_unknown(doc, token, child.content, told)
        elif token.type == "html_block" and (alone := _COMPONENT.fullmatch(token.content.strip())):
            if alone[2].lower() not in HTML_ELEMENTS:
                _warn_unknown(doc, token, _written(doc, token, alone[1]), told)


_COMPONENT = re.compile(r"(<([A-Z][A-Za-z0-9]*)(?:\s[^<>]*)?)(?:/>|></\2>)")
"""A component alone on its lines, written self-closed (`<Catalog />`, which
`rewrite_raw_html` has closed: `<Catalog ></Catalog>`) or empty: its name capitalised, as
Vue's, MDX's and JSX's are (SVG's and MathML's elements are not)."""


def _written(doc: RenderState, token: Token, opening: str) -> str:
    """Return a component block as the post writes it: its first line, if it holds the
    whole tag, else the tag as self-closed."""
    line = token.map[0] if token.map else len(doc.source_lines)
    first = doc.source_lines[line].strip() if line < len(doc.source_lines) else ""
    return first if first.startswith(opening) and first.endswith(">") else f"{opening.rstrip()} />"


def _unknown_in_paragraph(children: list[Token]) -> list[Token]:
    """Return a paragraph's raw tags that name no HTML element and show nothing: written
    self-closed, or with no partner in the paragraph (see `unknown_tags`)."""
    tags = [
        (child, name.lower())
        for child in children
        if child.type == "html_inline" and (name := _tag_name_of(child.content))
    ]
    if any(name in FOREIGN_ROOTS for _, name in tags):
        return []
    first_open: dict[str, int] = {}
    last_close: dict[str, int] = {}
    for at, (child, name) in enumerate(tags):
        if child.content.startswith("</"):
            last_close[name] = at
        elif not child.content.endswith("/>"):
            first_open.setdefault(name, at)
    unknown = []
    for at, (child, name) in enumerate(tags):
        if name in HTML_ELEMENTS:
            continue
        if child.content.startswith("</"):
            if first_open.get(name, at) < at:  # `<T>x</T>`: an element with its text
                continue
        elif not child.content.endswith("/>") and last_close.get(name, at) > at:
            continue
        unknown.append(child)
    return unknown


def _warn_unknown(doc: RenderState, token: Token, tag: str, told: set[str]) -> None:
    """Warn once a post at `tag` (raw HTML of `token`) that a browser shows nothing for it;
    a component once a post by its name (a page of `<Badge text="…" />`s is one mistake)."""
    found = _TAG_NAME.match(tag) if tag.endswith("/>") else None
    key = f"<{found[1]} />" if found else tag
    if key in told:
        return
    told.add(key)  # once a post: a page of `Vec<T>` is one mistake
    line0, col = locate(doc, token.map, tag, outside_code=True)
    if tag.endswith("/>"):
        doc.warn(
            line0,
            col,
            f"`{tag}` names no HTML element, so a browser shows nothing for it: a component "
            "(Vue's, MDX's, a theme's) is not run in a Markdown post; write what it shows "
            "as Markdown or HTML, or remove it",
        )
        return
    escaped = tag.replace("<", "\\<", 1)
    doc.warn(
        line0,
        col,
        f"`{tag}` is read as an HTML tag, and names no HTML element: a browser shows "
        f"nothing for it; write `{escaped}` or put it in a code span (`` `…` ``) to show it",
    )


def _tag_name_of(html: str) -> str:
    """Return the element name of a raw open, closing or self-closed tag (`<T>` → `T`),
    "" for anything else: a comment, a custom element's tag (`<my-widget>`)."""
    found = _TAG_NAME.match(html)
    return found[1] if found else ""


def excerpt_markers(state: StateCore) -> None:
    """Core rule: write every summary break of another generator (`EXCERPT_MARKER`) on a
    line of its own as `<!--more-->`, the one `summary_html` reads."""
    for token in state.tokens:
        if token.type == "html_block" and EXCERPT_MARKER.fullmatch(token.content):
            token.content = MORE_MARKER + "\n"
