"""Raw HTML in posts: its local references resolved and checked like Markdown's.

Raw HTML is the way to size an image, embed a video or lay out a picture; its `src` must
reach the same files, under the same base path, as `![](…)` does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape
from html.parser import HTMLParser

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.references import locate, record, resolve
from postil.markdown.state import RenderState, get_state

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
    (a missing one is a warning at its line). A tag none of this changes is written exactly
    as it was. The ids raw HTML defines are recorded (`state.extra["html_ids"]`: (id,
    0-based body line, 1-based column)) so headings avoid them and `postil.markdown.ids`
    checks them. No CSS classes.
    """
    md.core.ruler.after("links", "rawhtml", rewrite_raw_html)
    md.core.ruler.after("block", "excerpt_markers", excerpt_markers)


def rewrite_raw_html(state: StateCore) -> None:
    """Rewrite the references of every `html_block` and `html_inline` token."""
    render_state = get_state(state.env)
    for token in state.tokens:
        if token.type == "html_block":
            _rewrite_token(render_state, token, token.map)
        elif token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "html_inline":
                    _rewrite_token(render_state, child, token.map)


def _rewrite_token(render_state: RenderState, token: Token, block_map: list[int] | None) -> None:
    """Rewrite one raw HTML token's references in place, recording what must be checked."""

    def rewrite(value: str) -> str:
        new, target = resolve(value, render_state)
        line0, col = locate(render_state, block_map, value)
        if new is None:
            render_state.warn(
                line0,
                col,
                f"link to `{value}`: no published post or page has that source file; fix "
                "the path (it is relative to this file) or link to the URL",
            )
            return value
        record(render_state, value, target, line0, col)
        return new

    def found_id(value: str) -> None:
        line0, col = locate(render_state, block_map, f'"{value}"')
        render_state.extra.setdefault("html_ids", []).append((value, line0, col + 1))

    jsx = render_state.path.lower().endswith(".mdx")
    token.content = rewrite_html(token.content, rewrite, found_id, JSX_ATTRIBUTES if jsx else {})


def rewrite_html(
    html: str,
    rewrite: Callable[[str], str],
    found_id: Callable[[str], None] | None = None,
    renamed: Mapping[str, str] | None = None,
) -> str:
    """Return `html` with every URL of its start tags mapped through `rewrite`.

    Tags whose URLs all map to themselves keep their exact text; a changed tag is written
    again from its parsed attributes (values quoted and escaped). `found_id` is called with
    the value of every `id` attribute. `renamed` maps attribute names (lower case) to the
    names written instead (`JSX_ATTRIBUTES` in MDX).
    """
    renamed = renamed or {}
    parser = _TagFinder()
    parser.feed(html)
    parser.close()
    starts: list[int] = []
    out, done = [], 0
    for (line, offset), raw, attrs in parser.tags:
        if found_id is not None:
            for name, value in attrs:
                if name == "id" and value:
                    found_id(value)
        new = [
            (renamed.get(name, name), _rewrite_value(name, value, rewrite)) for name, value in attrs
        ]
        if new == attrs:
            continue
        starts = starts or _line_starts(html)
        at = starts[line - 1] + offset
        out += [html[done:at], _tag_text(raw, new)]
        done = at + len(raw)
    return "".join(out) + html[done:] if out else html


def _rewrite_value(name: str, value: str | None, rewrite: Callable[[str], str]) -> str | None:
    """Return an attribute's value with its URLs rewritten."""
    if not value:
        return value
    if name in URL_ATTRS:
        return rewrite(value.strip())
    if name == "srcset":
        return ", ".join(_srcset_candidate(part, rewrite) for part in value.split(","))
    if name == "style":
        return _CSS_URL.sub(lambda m: f"url({m[1]}{rewrite(m[2].strip())}{m[1]})", value)
    return value


def _srcset_candidate(candidate: str, rewrite: Callable[[str], str]) -> str:
    """Rewrite the URL of one `srcset` candidate (`img-2x.png 2x`), keeping its descriptor."""
    url, _, descriptor = candidate.strip().partition(" ")
    return f"{rewrite(url)} {descriptor.strip()}".strip() if url else candidate


def _tag_text(raw: str, attrs: list[tuple[str, str | None]]) -> str:
    """Return a start tag with `attrs`, in the case and closing style of `raw`."""
    name = re.match(r"<\s*([^\s/>]+)", raw)
    tag = name[1] if name else "span"
    parts = [tag] + [k if v is None else f'{k}="{escape(v, quote=True)}"' for k, v in attrs]
    return "<" + " ".join(parts) + (" />" if raw.rstrip().endswith("/>") else ">")


def _line_starts(text: str) -> list[int]:
    """Return the offset of the first character of each line of `text`."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


class _TagFinder(HTMLParser):
    """Collect every start tag: ((line, offset), its raw text, its attributes)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[tuple[int, int], str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text()
        if raw is not None:
            self.tags.append((self.getpos(), raw, attrs))

    handle_startendtag = handle_starttag


def excerpt_markers(state: StateCore) -> None:
    """Core rule: write every summary break of another generator (`EXCERPT_MARKER`) on a
    line of its own as `<!--more-->`, the one `summary_html` reads."""
    for token in state.tokens:
        if token.type == "html_block" and EXCERPT_MARKER.fullmatch(token.content):
            token.content = MORE_MARKER + "\n"
