"""Local references in a post (links, images, raw HTML `src`/`href`/…): what to write in the
page, and which output file must exist for it to work.

Shared by the links plugin (Markdown links and images) and the raw HTML plugin; the files
are checked once every page is known (`postil.linkcheck.check_references`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from typing import NamedTuple
from urllib.parse import quote, unquote, urlsplit

import mdurl

from postil.content.discover import SOURCE_SUFFIXES, is_source
from postil.content.posts import tag_slug
from postil.markdown.bookdown import BOOKDOWN_SUFFIXES
from postil.markdown.rendered import AnchorLink, Reference, SourceLink
from postil.markdown.state import RenderState

CONTENT_DIR = "content"
"""Where sources live, relative to the site root; `/x.md` in a link means `content/x.md`."""

PELICAN_LINK = re.compile(
    r"(?:\{|%7[Bb])(?P<braced>filename|static|attach|tag|category|index)(?:\}|%7[Dd])"
    r"|(?:\||%7[Cc])(?P<barred>filename|static|attach|tag|category)(?:\||%7[Cc])"
)
"""Pelican's internal links ("Linking to internal content"): `{filename}`, `{static}`,
`{attach}` before a path relative to the file or, with `/`, to `content/`; `{tag}name`,
`{category}name`, `{index}`; Pelican 3.4's `|filename|` form. Markdown-it has percent-encoded
the braces and bars by the time a link is read."""

_SLASHES = re.compile(r"/{2,}")
"""A run of slashes inside a root-absolute path, which web servers read as one (nginx's
`merge_slashes`, GitHub Pages; knitr writes `assets/post//plot-1.svg` for a `fig.path`
ending in `/`)."""

_URL_SAFE = "/!$&'()*+,;=:@~-._"
"""Characters kept as they are when an output path is written as a URL path (RFC 3986 pchar)."""


class Resolved(NamedTuple):
    """A local reference resolved.

    Attributes:
        url: what to write in the page, or None for a link to a missing source file
            (reported at once; left as written).
        target: the output rel that must exist for `url` to work ("" for none to check).
        beside: for a relative path that names no content asset, the file it was looked
            for beside the post (`content/posts/a.png`), before the page's URL; "" otherwise.
    """

    url: str | None
    target: str = ""
    beside: str = ""


def resolve(url: str, state: RenderState) -> Resolved:
    """Resolve a reference written in the post `state.path`.

    - Pelican's `{filename}`, `{static}`, `{attach}` (`PELICAN_LINK`) read the path after
      them as any other (`{static}/images/a.png` is `/images/a.png`, `content/images/a.png`
      published); `{tag}name` and `{category}name` are the tag's page, `{index}` the home.
    - External (scheme or host) and fragment-only references are left alone.
    - `other.md#x`, Zola's `@/posts/other.md#x`: the URL of that post or page
      (`state.links`), None when there is none.
    - `/img/a.png`: under the base path; `img/a.png` must be published (`/img//a.png`
      too, its slashes merged as a web server merges them). A root path that is a post's
      or page's URL in other letter case is that URL (`_page_in_other_case`).
    - `plot.png`, `../img/a.png`: relative to the post's source file first (the same
      Markdown previews in an editor and on GitHub), then to the URL its generator gave
      the page (`_beside_page_url`): a content asset there (`state.assets`) is written as
      its published URL; otherwise the browser's reading, relative to the page's URL,
      must name a published file.
    """
    pelican = PELICAN_LINK.match(url)
    if pelican is not None:
        kind, url = pelican["braced"] or pelican["barred"], url[pelican.end() :]
        if kind in ("tag", "category"):  # categories join the tags (`frontmatter`)
            slug = tag_slug(unquote(url).split("#")[0])
            return Resolved(f"{state.base_path}tags/{slug}/", f"tags/{slug}/index.html")
        if kind == "index":
            return Resolved(state.base_path + url, "index.html")
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return Resolved(url)
    path = unquote(parts.path)
    tail = (f"?{parts.query}" if parts.query else "") + (
        f"#{parts.fragment}" if parts.fragment else ""
    )
    if is_source(path):  # a link to a source file is a link to its page
        page = state.links.get(source_path(state.path, path))
        return Resolved(None if page is None else state.base_path + page + tail)
    if path.startswith("/"):  # `a//b` is `a/b` to a web server: knitr's `fig.path` + `/`
        page = _page_in_other_case(path, state) if path != path.lower() else None
        page = page or _page_at_generator_url(state, path)
        if page is not None:  # Jekyll keeps a file name's capitals in its URL; postil's slug
            return Resolved(state.base_path + page + tail)  # is lower case (`make_slug`)
        written = _SLASHES.sub("/", parts.path).lstrip("/")
        return Resolved(state.base_path + written + tail, _SLASHES.sub("/", path).lstrip("/"))
    asset = state.assets.get(source_path(state.path, path)) or _beside_page_url(state, path)
    if asset is not None:
        return Resolved(state.base_path + quote(asset, safe=_URL_SAFE) + tail, asset)
    page = _page_at_generator_url(state, path)
    if page is not None:
        return Resolved(state.base_path + page + tail)
    page_url = state.links.get(state.path, "")
    target = posixpath.normpath(posixpath.join(page_url, path))
    return Resolved(url, target, source_path(state.path, path))


FOLDER_PAGES = ("", "/index", "/_index")
"""What a generator's URL `a/b/` is the page of: `a/b.md`, the bundle `a/b/index.md`, the
section `a/b/_index.md` (Hugo's and Zola's URLs, Jekyll's and Eleventy's folders)."""


def _page_at_generator_url(state: RenderState, path: str) -> str | None:
    """Return the URL of the post or page whose source file its generator published at
    the URL the folder-like `path` names, or None.

    Hugo publishes `content/cryptography/dh_dlog.md` at `cryptography/dh_dlog/` (its file's
    path: Hugo keeps underscores and capitals), so a Hextra page links `dh_dlog/` from
    `cryptography/`, `../../cryptography/` from `introduction/security_hardness/`, and
    `/cryptography/dh_dlog/` from anywhere; postil's slug of that page is `dh-dlog`. A
    relative `path` is read from the URL the generator gave this page, then from its file's
    folder; a root path from `content/`; in any letter case, as Hugo's URLs are lower case.
    A path naming a file (`a.png`) is none.
    """
    name = path.rstrip("/")
    stem, extension = posixpath.splitext(posixpath.basename(name))
    if extension.lower() in (".html", ".htm") and stem:
        return _page_of_html_name(state, stem)
    if extension or not name:
        return None
    if path.startswith("/"):
        bases = [CONTENT_DIR]
    else:
        stem = posixpath.splitext(state.path)[0]
        folder = (
            posixpath.dirname(stem) if posixpath.basename(stem) in ("index", "_index") else stem
        )
        bases = [folder, posixpath.dirname(state.path)]
    wanted = [
        posixpath.normpath(posixpath.join(base, name.lstrip("/"))) + page + suffix
        for base in bases
        for page in FOLDER_PAGES
        for suffix in SOURCE_SUFFIXES
    ]
    for source in wanted:
        url = state.links.get(source)
        if url is not None:
            return url
    # Hugo makes URLs lower case (`DH_DLog.md` is `dh_dlog/`): one pass, for this link only
    lowered = {source.lower(): rank for rank, source in enumerate(wanted)}
    found = [
        (lowered[rel.lower()], url) for rel, url in state.links.items() if rel.lower() in lowered
    ]
    return min(found)[1] if found else None


def _page_of_html_name(state: RenderState, name: str) -> str | None:
    """Return the URL of the one post or page that another generator published as
    `name.html` (in any folder), or None: the one whose URL's last part, or whose source
    file's name, is `name`, in any letter case.

    Pelican's default `ARTICLE_URL` is `{slug}.html`, Jekyll's `permalink: /:title.html`
    and its dated `/2020/01/15/:title.html`, Hugo's `uglyURLs` `posts/x.html`: posts link
    each other so, and postil publishes them at `posts/x/`. Tried after the content
    assets; a post or page of that name is taken over a file of that name in `static/`,
    which a site moved from those generators does not have (they wrote the page there).
    """
    wanted = name.lower()
    found = {
        url
        for rel, url in state.links.items()
        if url.rstrip("/").rpartition("/")[2].lower() == wanted
        or posixpath.splitext(posixpath.basename(rel))[0].lower() == wanted
    }
    return found.pop() if len(found) == 1 else None


def _beside_page_url(state: RenderState, path: str) -> str | None:
    """Return the published URL of the content asset that the relative `path` names from
    the URL its generator gave the page, or None.

    Hugo, Zola and Eleventy publish `quantum/gates.md` at `quantum/gates/`, so a browser
    reads its `../images/x.png` as `quantum/images/x.png`: a Hugo docs page's images
    beside its file (`content/quantum/images/`) are named so. Tried only after the
    file-relative reading, which it never overrides; a bundle's `index.md` already has its
    folder as its URL.
    """
    stem, _ = posixpath.splitext(state.path)
    if posixpath.basename(stem) in ("index", "_index"):
        return None
    return state.assets.get(source_path(stem + "/index.md", path))


def _page_in_other_case(path: str, state: RenderState) -> str | None:
    """Return the URL of the one post or page whose URL is the root path `path` in other
    letter case (`/posts/Separation-of-Variables/` for `posts/separation-of-variables/`:
    Jekyll's `:title` keeps the file name's capitals), or None."""
    wanted = path.strip("/").lower()
    if not wanted or wanted == path.strip("/"):
        return None
    pages = {page for page in state.links.values() if page.strip("/").lower() == wanted}
    return pages.pop() if len(pages) == 1 and path.strip("/") + "/" not in pages else None


def source_path(source_rel: str, path: str) -> str:
    """Return the site-root-relative path of `path` written in `source_rel`.

    A relative path is relative to the linking file's directory; a root-absolute one
    (`/posts/b.md`) to `content/`, the root of the sources (Hugo's `ref` convention), and so
    is Zola's internal link `@/posts/b.md`.
    """
    if path.startswith(("/", "@/")):
        return posixpath.normpath(CONTENT_DIR + path.removeprefix("@"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(source_rel), path))


UNCHECKED_URLS = "template_left_out"
"""The `meta` key of a raw HTML token holding the attribute values that lost their start
to a template tag that gave nothing (`postil.markdown.template`): the raw HTML plugin
leaves them unchecked, since the tag's own warning names the cause."""


def record(
    state: RenderState, written: str, resolved: Resolved, line0: int | None, col: int
) -> None:
    """Remember that the page needs the output file `resolved.target` (`postil.outputs`).

    Kept by the core rule recording it (`state.phase`: links, then raw HTML), so that a
    document parsed in groups lists them in the order of one parsed whole (`references`).
    """
    if resolved.target:
        found = state.extra.setdefault("references", {}).setdefault(state.phase[0], [])
        location = state.location(line0, col)
        found.append(Reference(resolved.target, written, location, resolved.beside))


def record_source_link(
    state: RenderState, source: str, written: str, line0: int | None, col: int
) -> None:
    """Remember a link to the source file `source` that no page of the build has, for
    `postil.sourcelinks` to tell why (a draft, a post to come, no such file) once every
    source is known; the link is left as written."""
    found = SourceLink(source, written, state.location(line0, col))
    state.extra.setdefault("source_links", []).append(found)


def record_fragment(
    state: RenderState,
    url: str,
    line0: int | None,
    col: int,
    raw_html: bool = False,
    resolved: Resolved | None = None,
) -> None:
    """Remember a reference's `#fragment` so `postil.anchors` can check it once all pages
    exist: `#x` (this page), `b.md#x` (another post's file) and a post's or page's URL
    (`/posts/b/#x`, `../b/#x`, a `permalink:`), at 0-based body line `line0` and 1-based
    column `col`; nothing for a URL without a fragment, an external one or one naming a
    file that is no page (`plot.svg#icon`, `/tags/x/#y`).

    Args:
        raw_html: the reference is in raw HTML (an `<a href>`): kept apart
            (`extra["html_anchor_links"]`), since `postil.markdown.fragments` moves the
            fragments of Markdown links only, and joined to the others in source order when
            the post is rendered (`postil.markdown.render_markdown`).
        resolved: what `resolve` made of `url`, which names the page a URL is.
    """
    parts = urlsplit(url)
    if not parts.fragment or parts.scheme or parts.netloc:
        return
    if parts.path and is_source(parts.path):
        target = source_path(state.path, unquote(parts.path))
    elif parts.path:  # a URL: the page published there, when one is (session 44)
        page = _page_source(state, resolved) if resolved is not None else None
        if page is None:
            return
        target = page
    else:
        target = ""
    key = "html_anchor_links" if raw_html else "anchor_links"
    found = AnchorLink(target, unquote(parts.fragment), state.location(line0, col))
    state.extra.setdefault(key, []).append(found)


_SOURCES_BY_URL: list[tuple[Mapping[str, str], dict[str, str]]] = []
"""The last links map seen and its inverse (URL → source rel), kept for the next post: every
post of a build (and of a worker process) reads one map, through its own recording view
(`postil.render.LinkReads.underlying`), which records only the entry found; a URL that
names no page is not recorded, so a warm build checks a link's fragment again once the
linking post is rendered again, as it does the file a `b.md#x` link names."""


def _page_source(state: RenderState, resolved: Resolved) -> str | None:
    """Return the source rel of the post or page that a resolved URL reference names
    (`/posts/b/`, `/posts/b`, `/posts/b/index.html`, `../b/`, `/2016/01/15/b.html`), or
    None when it names none (a file, a tag page, a missing page: the reference check's)."""
    if resolved.target:
        path = resolved.target
    elif resolved.url is not None and resolved.url.startswith(state.base_path):
        path = unquote(urlsplit(resolved.url).path)[len(state.base_path) :]
    else:
        return None
    links: Mapping[str, str] = getattr(state.links, "underlying", state.links)
    if not _SOURCES_BY_URL or _SOURCES_BY_URL[0][0] is not links:
        _SOURCES_BY_URL[:] = [(links, {page: rel for rel, page in links.items()})]
    by_url = _SOURCES_BY_URL[0][1]
    path = path.removesuffix("index.html").strip("/")
    rel = by_url.get(path + "/") or by_url.get(path)
    if rel is not None:  # read through `state.links`, so the render cache records this one
        state.links.get(rel)
    return rel


def anchor_links(state: RenderState) -> list[AnchorLink]:
    """Return the fragment links `record_fragment` recorded, Markdown's and raw HTML's, in
    the order they are written (by line and column; Markdown's first at one place)."""
    links: list[AnchorLink] = list(state.extra.get("anchor_links", ()))
    html: list[AnchorLink] = state.extra.get("html_anchor_links", [])
    if html:
        links = sorted(links + html, key=lambda link: (link.location.line, link.location.col))
    return links


def references(state: RenderState) -> list[Reference]:
    """Return what `record` recorded: rule by rule, each in document order."""
    by_rule = state.extra.get("references", {})
    return [found for rule in sorted(by_rule) for found in by_rule[rule]]


CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
"""A code span on a line (CommonMark: a run of backticks closed by a run as long)."""


URL_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%/?#&=+:@!$;,"
)
"""Characters that continue a URL (RFC 3986's unreserved, reserved and `%`): `/notes/`
followed by one of them is the start of a longer URL (`/notes/a/`), not the link."""


def as_written(state: RenderState, block_map: list[int] | None, url: str) -> str:
    """Return a link's URL as the block's source writes it.

    markdown-it percent-encodes a link's destination (`normalizeLink`: `bild-ö.svg` is
    `bild-%C3%B6.svg`, a space `%20`), so a message quoting that, or a search for it in
    the source, found neither; `url` as it is when the source holds it (`%20` written so),
    else its decoded form (`mdurl.decode`, markdown-it's own reading for display)."""
    start, end = block_map or (0, 0)
    lines = state.source_lines[start:end]
    if "%" not in url or any(url in line for line in lines):
        return url
    return mdurl.decode(url)


def locate(
    state: RenderState,
    block_map: list[int] | None,
    text: str,
    outside_code: bool = False,
    whole_url: bool = False,
    nth: int = 0,
) -> tuple[int | None, int]:
    """Return (0-based body line, 1-based column) of the `nth` (0-based) place of `text`
    inside a block's source lines (the first place when there are fewer; the block's start
    when there is none); with `outside_code`, places outside code spans only (`` `Vec<T>` ``
    before the real `Vec<T>` on the line); with `whole_url`, places not followed by a
    character of a URL only (`/notes/` is not the start of an earlier `/notes/a/`)."""
    if not block_map:
        return None, 0
    start, end = block_map
    for line0 in range(start, min(end, len(state.source_lines))):
        line = state.source_lines[line0]
        if outside_code and "`" in line:
            line = CODE_SPAN.sub(lambda span: " " * len(span[0]), line)
        for col in _places(line, text, whole_url):
            if nth == 0:
                return line0, col + 1
            nth -= 1
    return locate(state, block_map, text, outside_code, whole_url) if nth else (start, 1)


def _places(line: str, text: str, whole_url: bool) -> Iterator[int]:
    """Yield the 0-based columns where `text` occurs in `line` (as a whole URL: `URL_CHARS`)."""
    col = line.find(text)
    while col >= 0:
        if not whole_url or line[col + len(text) : col + len(text) + 1] not in URL_CHARS:
            yield col
        col = line.find(text, col + 1)


def published(target: str, outputs: Mapping[str, object] | frozenset[str]) -> bool:
    """Return whether an output rel is in the site: a file, or a directory with an index."""
    if target in ("", "."):
        return "index.html" in outputs
    bare = target.rstrip("/")
    return (not target.endswith("/") and bare in outputs) or f"{bare}/index.html" in outputs


def label_page(state: RenderState, label: str) -> tuple[str, str, str] | None:
    """Return (source path, heading text, href) of the section another page labels
    `label` (`RenderState.labels`), or None: none does, two do, it is this page's, or it is
    an R Markdown heading's id and this page is no R Markdown (bookdown resolves a book's
    section ids across its chapters; elsewhere `#id` means the page's own). The lookups
    are recorded, so the post renders again when the label or the page's URL changes."""
    where = state.labels.get(label) if state.labels else None
    if where is None or where[0] == state.path:
        return None
    if where[0].lower().endswith(BOOKDOWN_SUFFIXES) and not state.path.lower().endswith(
        BOOKDOWN_SUFFIXES
    ):
        return None
    url = state.links.get(where[0])
    if url is None:
        return None
    return where[0], where[1], f"{state.base_path}{url}#{label}"
