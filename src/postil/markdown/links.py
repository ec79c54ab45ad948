"""Links and images in posts that point inside the site, rewritten under the site's base path.

A site published as a GitHub Pages project site lives under a path (`/repo/`), so a link
written root-absolute in a post would escape it, and a link to another post's Markdown file
means nothing in the built site. This plugin fixes both before anything is rendered.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.rendered import AnchorLink
from postil.markdown.state import RenderState, get_state

SOURCE_SUFFIX = ".md"
"""A link whose path ends with this is a link to another post's source file."""

CONTENT_DIR = "content"
"""Where sources live, relative to the site root; `/x.md` in a link means `content/x.md`."""


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
      is not a post or page is reported with `state.warn` at the link's line (an error
      under `--strict`) and the link is left as written.
    - External links (with a scheme or host), fragments (`#fig-x`) and other relative paths
      are left alone.

    The core rule runs right after inline parsing, before the notes and figures plugins
    move tokens, so links inside notes and figure images are covered. No CSS classes.
    """
    md.core.ruler.after("inline", "links", rewrite_links)


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
            for token in _walk(children):
                _rewrite(render_state, block, token, id(token) in crossrefs)


def _walk(tokens: list[Token]) -> list[Token]:
    """Return the tokens and, depth first, their children (an image's alt text has tokens)."""
    found: list[Token] = []
    for token in tokens:
        found.append(token)
        if token.children:
            found.extend(_walk(token.children))
    return found


def _rewrite(render_state: RenderState, block: Token, token: Token, crossref: bool) -> None:
    name = "href" if token.type == "link_open" else "src" if token.type == "image" else ""
    value = token.attrs.get(name) if name else None
    if not isinstance(value, str):
        return
    target = internal_url(value, render_state.path, render_state.links, render_state.base_path)
    if name == "href" and target is not None and not crossref:
        _record_fragment(render_state, block, value)
    if target is None:
        line0, col = _locate(render_state, block, value)
        render_state.warn(
            line0,
            col,
            f"link to `{value}`: no published post or page has that source file "
            "(a draft or future post is left out); fix the path (it is relative to this "
            "file) or link to the URL",
        )
        return
    token.attrs[name] = target


def _record_fragment(render_state: RenderState, block: Token, url: str) -> None:
    """Remember a link's `#fragment` so `postil.anchors` can check it once all pages exist.

    Links to this page (`#x`) and to other posts' files (`b.md#x`) are recorded; empty link
    text cross-references (`[](#fig-x)`) are checked by the figure plugin instead.
    """
    parts = urlsplit(url)
    if not parts.fragment or parts.scheme or parts.netloc:
        return
    if parts.path and not parts.path.endswith(SOURCE_SUFFIX):
        return
    target = _resolve(render_state.path, unquote(parts.path)) if parts.path else ""
    line0, col = _locate(render_state, block, url)
    anchors = render_state.extra.setdefault("anchor_links", [])
    anchors.append(AnchorLink(target, unquote(parts.fragment), render_state.location(line0, col)))


def internal_url(url: str, source_rel: str, links: Mapping[str, str], base_path: str) -> str | None:
    """Return `url` as it must appear in the built page, or None for a missing source file.

    Args:
        url: the link as written in the post.
        source_rel: the linking file, relative to the site root (`content/posts/a.md`).
        links: source rel of every post and page -> its site-relative URL (`posts/b/`).
        base_path: the site's base path, starting and ending with "/".

    Returns:
        The rewritten URL (root-absolute, including the base path) for an internal link,
        `url` unchanged for external links, fragments and relative non-Markdown paths.
    """
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return url
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    query = f"?{parts.query}" if parts.query else ""
    if parts.path.endswith(SOURCE_SUFFIX):
        rel = _resolve(source_rel, unquote(parts.path))
        page = links.get(rel)
        return None if page is None else base_path + page + query + fragment
    if parts.path.startswith("/"):
        return base_path + url.lstrip("/")
    return url


def _resolve(source_rel: str, path: str) -> str:
    """Return the site-root-relative path of `path` written in `source_rel`.

    A relative path is relative to the linking file's directory; a root-absolute one
    (`/posts/b.md`) to `content/`, the root of the sources (Hugo's `ref` convention).
    """
    if path.startswith("/"):
        return posixpath.normpath(CONTENT_DIR + path)
    return posixpath.normpath(posixpath.join(posixpath.dirname(source_rel), path))


def _locate(render_state: RenderState, block: Token, url: str) -> tuple[int | None, int]:
    """Return (0-based body line, 1-based column) of `url` inside the block's source lines."""
    if not block.map:
        return None, 0
    start, end = block.map
    for line0 in range(start, min(end, len(render_state.source_lines))):
        col = render_state.source_lines[line0].find(url)
        if col >= 0:
            return line0, col + 1
    return start, 1
