"""Links and images in posts that point inside the site, rewritten under the site's base path.

A site published as a GitHub Pages project site lives under a path (`/repo/`), so a link
written root-absolute in a post would escape it, and a link to another post's Markdown file
means nothing in the built site. This plugin fixes both before anything is rendered.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.inlinewarn import warn_inline
from postil.markdown.references import (
    Resolved,
    as_written,
    locate,
    record,
    record_fragment,
    record_source_link,
    resolve,
    source_path,
)
from postil.markdown.state import RenderState, get_state


def links_plugin(md: MarkdownIt) -> None:
    """Rewrite internal links and image sources to the URLs of the built site.

    Syntax (ordinary CommonMark links and images)::

        ![Loss curve](/img/loss.png)         root-absolute: put under the base path
        See [the mask](other-post.md#mask)   another post's file: that post's URL
        and [about](../about.md).            paths are relative to the linking file

    With the base path `/blog/`, the output is `<img src="/blog/img/loss.png" …>`,
    `<a href="/blog/posts/other-post/#mask">` and `<a href="/blog/about/">`. The rules:

    - A root-absolute path (`/x`, not `//host/x`) is always taken as relative to the site's
      root and gets the base path in front (`state.base_path`), so the same post works on a
      user site and a project site. Write `/img/x.png`, never `/blog/img/x.png`.
    - A path ending in `.md` is resolved against the linking file's directory (or, when it
      starts with `/`, against `content/`) and looked up
      in `state.links` (source rel -> site-relative URL); the fragment is kept. A file that
      is not a post or page of this build is left as written and recorded
      (`references.record_source_link`): once every source is known, `postil.sourcelinks`
      warns at the link's line and column why (an error under `--strict`).
    - Any other relative path (`plot.png`, `../img/a.png`) is read relative to the linking
      file first, as an editor or GitHub previews it: a file of `content/` there is
      published (`postil.assets`), and the reference becomes its published URL under the
      base path (`plot.png` beside `posts/a.md` -> `/blog/posts/plot.png`). Otherwise it
      is left as written, and the browser's reading (relative to the page) must name a
      published file.
    - External links (with a scheme or host) and fragments are left alone.
    - Every reference that must find a file of the built site (`/img/x.png`, a relative
      path) is recorded (`RenderedMarkdown.references`) and checked once every output
      file is known: a missing one is a warning at its line (`postil.linkcheck`).

    The core rule runs right after inline parsing, before the notes and figures plugins
    move tokens, so links inside notes and figure images are covered. A link whose URL
    markdown-it refuses (`javascript:`, `vbscript:`, `file:`, `data:` but images') stays
    text, as in every CommonMark renderer, with a warning at it (`_refused_link`). No CSS
    classes.
    """
    md.core.ruler.after("inline", "links", rewrite_links)
    link = md.inline.ruler.__rules__[md.inline.ruler.__find__("link")].fn
    md.inline.ruler.at("link", _refused_link(link))


REFUSED = re.compile(r"\[[^\[\]\n]*\]\(\s*<?\s*(javascript|vbscript|file|data):", re.I)
"""A link's text and a URL of a scheme markdown-it's `validateLink` refuses (its
`BAD_PROTO_RE`; `data:` images are the image rule's)."""


def _refused_link(link: Any) -> Any:
    """Return markdown-it's link rule warning where it made no link of a URL it refuses:
    `[run](javascript:alert(1))` was shown as written, silently."""

    def link_rule(state: StateInline, silent: bool) -> bool:
        if link(state, silent):
            return True
        found = None if silent else REFUSED.match(state.src, state.pos)
        if found is not None:
            warn_inline(
                state,
                state.pos,
                f"a link to a `{found[1].lower()}:` URL is shown as its text: Markdown makes "
                "no link of `javascript:`, `vbscript:`, `file:` or `data:` URLs (they run code "
                "or read the reader's files); link to a web page (https://…) instead",
            )
        return False

    return link_rule


def rewrite_links(state: StateCore) -> None:
    """Rewrite `href` of every `link_open` and `src` of every `image` in the document."""
    render_state = get_state(state.env)
    for block in state.tokens:
        if block.type == "inline" and block.children:
            children = block.children
            crossrefs = {
                id(token)
                for token, after in zip(children, children[1:], strict=False)
                if token.type == "link_open" and after.type == "link_close"
            }
            seen: dict[str, int] = {}  # URLs located in this block: the next is further on
            for token in _walk(children):
                if token.type == "link_open" or token.type == "image":  # `_rewrite` skips others
                    _rewrite(render_state, block, token, id(token) in crossrefs, seen)


def _walk(tokens: list[Token]) -> list[Token]:
    """Return the tokens and, depth first, their children (an image's alt text has tokens)."""
    found: list[Token] = []
    for token in tokens:
        found.append(token)
        if token.children:
            found.extend(_walk(token.children))
    return found


def _rewrite(
    render_state: RenderState, block: Token, token: Token, crossref: bool, seen: dict[str, int]
) -> None:
    name = "href" if token.type == "link_open" else "src" if token.type == "image" else ""
    value = token.attrs.get(name) if name else None
    if not isinstance(value, str):
        return
    resolved = resolve(_in_media_path(render_state, token, value), render_state)
    # A link another syntax made (a wikilink's `[[note#Heading]]`) is found by its text
    # as written, which its href is not; markdown-it percent-encoded the rest.
    written = token.meta.get("written") if token.meta else None
    written = written or as_written(render_state, block.map, value)
    if name == "href" and resolved.url is not None and not crossref:
        _record_fragment(render_state, block, value, written, resolved)
    nth = seen[written] = seen.get(written, -1) + 1
    line0, col = locate(render_state, block.map, written, whole_url=True, nth=nth)
    if token.type == "image":  # where the image's source is written, for its warnings
        token.meta["place"] = (written, line0, col)
    if resolved.url is None:
        source = source_path(render_state.path, unquote(urlsplit(value).path))
        record_source_link(render_state, source, written, line0, col)
        return
    record(render_state, written, resolved, line0, col)
    token.attrs[name] = resolved.url
    if token.type == "image" and resolved.target:
        token.meta["file"] = resolved.target  # the image's output rel, for its size


def _in_media_path(render_state: RenderState, token: Token, url: str) -> str:
    """Return an image's relative `url` read from the post's media folder, when its front
    matter names one (Chirpy's `media_subpath: /assets/img/x`: `a.png` is
    `/assets/img/x/a.png`); any other URL as it is."""
    parts = urlsplit(url)
    if not render_state.media_path or token.type != "image" or not parts.path:
        return url
    if parts.scheme or parts.netloc or url.startswith(("/", "@/")):
        return url
    return posixpath.normpath(posixpath.join("/" + render_state.media_path.strip("/"), url))


def _record_fragment(
    render_state: RenderState, block: Token, url: str, written: str, resolved: Resolved
) -> None:
    """Remember a link's `#fragment` so `postil.anchors` can check it once all pages exist
    (`references.record_fragment`), at the link's text as `written` in the source; empty
    link text cross-references (`[](#fig-x)`) are checked by the figure plugin instead."""
    if "#" in url:
        line0, col = locate(render_state, block.map, written)
        record_fragment(render_state, url, line0, col, resolved=resolved)
