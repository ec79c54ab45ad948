"""Render the site: every page and generated file as a `PageJob`, then the jobs to files.

Pages: posts, stand-alone pages, the paginated index, tag pages and the tag index, the
archive, 404. Generated files: Atom and RSS feeds, sitemap.xml, robots.txt, assets,
.nojekyll, CNAME. Template contexts are built in `postil.contexts`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from operator import is_
from typing import Any, NamedTuple, overload

import jinja2
from jinja2 import nodes
from markupsafe import Markup

from postil.contexts import (
    BodyHTML,
    archive_context,
    index_context,
    not_found_context,
    post_context,
    search_context,
    standalone_context,
    tag_context,
    tags_context,
)
from postil.errors import Location, TemplateError
from postil.feeds import atom_feed, feed_posts, rss_feed
from postil.model import OutputData, OutputFile, Pieces, RenderedPost, Site
from postil.redirects import Redirect, redirect_page, redirects
from postil.site import Paginator, page_url, paginate, tag_slugs
from postil.sitemap import robots_txt, sitemap_xml, writes_robots

__all__ = ["PageJob", "PageJobs", "PageSpec", "Paginator", "page_jobs", "paginate", "render_job"]

SEARCH_PAGE = "search/index.html"
"""The search page of a site with `search: true` (`postil.search`); not in the sitemap."""

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
"""A URL's scheme (RFC 3986, section 3.1): `mailto:`, `https:`."""

STYLESHEETS = ("css/base.css", "css/article.css", "css/math.css", "css/pygments.css")


def site_context(site: Site) -> dict[str, Any]:
    """Return the template globals: `site`, `url(rel)`, `abs_url(rel)` and `base`.

    `url("posts/x/")` is root-absolute with the base path (`/blog/posts/x/`), so a link works
    from a page at any depth, 404.html included; a URL with a scheme or a host
    (`mailto:a@b.org`, `https://…`, `//cdn…`: a `nav` link of postil.yaml) is returned as it
    is. `abs_url` adds the scheme and host.
    """
    config = site.config
    base = config.base_path

    def url(rel: str = "") -> str:
        if rel.startswith("//") or SCHEME.match(rel):
            return rel
        return base + rel.lstrip("/")

    def abs_url(rel: str = "") -> str:
        return config.base_url + rel.lstrip("/")

    return {"site": config, "url": url, "abs_url": abs_url, "base": base}


@dataclass(frozen=True)
class PageJob:
    """One page to render: which template, where, from what, and which posts it shows.

    Attributes:
        rel: output path relative to the output directory.
        template: the Jinja2 template name.
        context: builds the template context when called (so unchanged pages cost nothing).
        deps: URLs of the posts whose content or metadata the page shows; the dev server
            re-renders a page only when one of them (or a template or the config) changes.
            `None` means the page depends on every post (sitemap, archive, tag index).
        produce: for files that are not templates (feeds, sitemap, robots.txt), makes the
            file's bytes (or `Pieces`: the feeds); `template` is then "" and `context` unused.
        lazy: costly to make and rarely looked at while writing (feeds): the dev server makes
            it on its first request instead of on every save.
    """

    rel: str
    template: str
    context: Callable[[], dict[str, Any]]
    deps: frozenset[str] | None
    produce: Callable[[], OutputData] | None = None
    lazy: bool = False


class PageSpec(NamedTuple):
    """Where a page or generated file goes and what it shows: a `PageJob` without what
    renders it, which is all the write stage needs of a page it does not render.

    Attributes: as `PageJob`'s.
    """

    rel: str
    template: str
    deps: frozenset[str] | None
    lazy: bool = False


class PageJobs(Sequence[PageJob]):
    """The page jobs of a site (`page_jobs`): each `PageJob` is made when first looked up,
    and `specs` tells every page's place without making any (a dev server's rebuild
    renders a handful of 1,000s of pages).

    Args:
        site: the collected site.
        layout: its `_Layout`.
    """

    def __init__(self, site: Site, layout: _Layout) -> None:
        self._site = site
        self._layout = layout
        self._made: dict[int, PageJob] = {}
        self.specs: tuple[PageSpec, ...] = layout.specs

    def __len__(self) -> int:
        return len(self.specs)

    @overload
    def __getitem__(self, index: int) -> PageJob: ...

    @overload
    def __getitem__(self, index: slice) -> list[PageJob]: ...

    def __getitem__(self, index: int | slice) -> PageJob | list[PageJob]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self.specs))[index]]
        at = range(len(self.specs))[index]  # IndexError past the end, as a list's
        job = self._made.get(at)
        if job is None:
            job = self._made[at] = _job(self._site, self._layout, at)
        return job

    def __iter__(self) -> Iterator[PageJob]:
        return (self[i] for i in range(len(self.specs)))


def page_jobs(site: Site, memo: dict[str, Any] | None = None) -> PageJobs:
    """Return every page and generated file of the site as a `PageJob`, in a fixed order.

    List pages (index, tag pages) depend on the posts they show; the tag index, archive,
    feeds and sitemap show every post (`deps=None`); 404 and robots.txt show none;
    robots.txt is made only for a site at its host's root (`writes_robots`); a redirect
    page (`postil.redirects`) depends on the post it sends to. Adding
    or removing a post, or changing its date, tags or draft state, moves posts between
    list pages: the dev server must then re-list the jobs, not only re-render by deps.

    Args:
        memo: a scratch dictionary (`BuildCache.memo`): it keeps the jobs of the last site
            asked for, so the checks and the write stage of one build list them once, and
            the `_Layout` of the last site, reused while the site's shape is the same (an
            edit to a post's body).
    """
    memo = memo if memo is not None else {}
    if memo.get("site") is site:
        jobs: PageJobs = memo["jobs"]
        return jobs
    last = memo.get("layout")
    if last is not None and _same_shape(last[0], site):
        layout = last[1]
    else:
        layout = _layout(site)
    jobs = PageJobs(site, layout)
    memo.update(site=site, jobs=jobs, layout=(site, layout))
    return jobs


@dataclass(frozen=True)
class _ListPage:
    """One page of a list of posts, by its place in the site (`_Layout.lists`).

    Attributes:
        rel: its output path.
        tag: the index of its tag in `Site.tags`, or -1 for the list of every post.
        start: where its posts start in that list (they end `SiteConfig.paginate` later).
        pager: its `Paginator`, whose items are replaced by the posts of the site rendered.
        deps: the URLs of its posts.
    """

    rel: str
    tag: int
    start: int
    pager: Paginator
    deps: frozenset[str]


@dataclass(frozen=True)
class _Layout:
    """What the page jobs of a site take from its shape alone (every post's URL, output
    path and front matter in order, the pages', the previews, the configuration), so a
    site of the same shape reuses it.

    Attributes:
        specs: every page's `PageSpec`, in job order.
        makers: how to make each page's job: (kind, index into its list).
        lists: the index pages, then each tag's pages.
        slugs: each tag's slug (`tag_slugs`).
        sitemap: the sitemap's entries (`_sitemap_entries`).
        redirects: the redirect pages of the posts' `aliases:` (`postil.redirects`).
    """

    specs: tuple[PageSpec, ...]
    makers: tuple[tuple[str, int], ...]
    lists: tuple[_ListPage, ...]
    slugs: dict[str, str]
    sitemap: list[tuple[str, datetime | None]]
    redirects: tuple[Redirect, ...] = ()


def _same_shape(a: Site, b: Site) -> bool:
    """Return whether two sites have the same shape (see `_Layout`)."""
    return (
        len(a.posts) == len(b.posts)
        and len(a.pages) == len(b.pages)
        and a.previews == b.previews
        and a.config == b.config
        and _same_places(a.posts, b.posts)
        and _same_places(a.pages, b.pages)
    )


def _same_places(a: tuple[RenderedPost, ...], b: tuple[RenderedPost, ...]) -> bool:
    """Return whether the posts of `a` and `b` (as long) have the same places, looking
    closer only at those that are not the very same `Post` (found in C: an edit makes one)."""
    now = [r.post for r in b]
    moved = [i for i, same in enumerate(map(is_, [r.post for r in a], now)) if not same]
    return all(_same_place(a[i], b[i]) for i in moved)


def _same_place(a: RenderedPost, b: RenderedPost) -> bool:
    p, q = a.post, b.post
    return p is q or (p.url == q.url and p.output_rel == q.output_rel and p.meta == q.meta)


def _layout(site: Site) -> _Layout:
    """Return the `_Layout` of `site`."""
    urls = [r.post.url for r in site.posts]
    specs = [
        PageSpec(r.post.output_rel, "post.html", frozenset(urls[max(i - 1, 0) : i + 2]))
        for i, r in enumerate(site.posts)
    ]
    specs += [PageSpec(r.post.output_rel, "page.html", frozenset([r.post.url])) for r in site.pages]
    makers = [("post", i) for i in range(len(site.posts))]
    makers += [("page", i) for i in range(len(site.pages))]
    size = site.config.paginate
    lists = [
        _ListPage(page_url(p.number) + "index.html", -1, (p.number - 1) * size, p, _urls(p.items))
        for p in paginate(site.posts, size)
    ]
    slugs = tag_slugs(site.tags)
    for number, (tag, posts) in enumerate(site.tags):
        prefix = f"tags/{slugs[tag]}/"
        for p in paginate(posts, size, prefix):
            rel = page_url(p.number, prefix) + "index.html"
            lists.append(_ListPage(rel, number, (p.number - 1) * size, p, _urls(p.items)))
    specs += [
        PageSpec(page.rel, "tag.html" if page.tag >= 0 else "index.html", page.deps)
        for page in lists
    ]
    makers += [("list", i) for i in range(len(lists))]
    specs.append(PageSpec("tags/index.html", "tags.html", None))
    specs.append(PageSpec("archive/index.html", "archive.html", None))
    specs.append(PageSpec("404.html", "404.html", frozenset()))
    makers += [("tags", 0), ("archive", 0), ("404", 0)]
    if site.config.search:
        specs.append(PageSpec(SEARCH_PAGE, "search.html", frozenset()))
        makers.append(("search", 0))
    sitemap = _sitemap_entries(site, [spec.rel for spec in specs])
    in_feeds = _urls(feed_posts(site))  # an edit to an older post leaves the feeds alone
    specs.append(PageSpec("feed.xml", "", in_feeds, lazy=True))
    specs.append(PageSpec("rss.xml", "", in_feeds, lazy=True))
    specs.append(PageSpec("sitemap.xml", "", None))
    makers += [("feed", 0), ("rss", 0), ("sitemap", 0)]
    if writes_robots(site.config.base_url):
        specs.append(PageSpec("robots.txt", "", frozenset()))
        makers.append(("robots", 0))
    moves = redirects(site)  # not in the sitemap: they only send the reader on
    specs += [PageSpec(move.rel, "", frozenset([move.target])) for move in moves]
    makers += [("redirect", i) for i in range(len(moves))]
    return _Layout(tuple(specs), tuple(makers), tuple(lists), slugs, sitemap, tuple(moves))


_SITE_CONTEXTS: dict[str, Callable[[Site], dict[str, Any]]] = {
    "tags": tags_context,
    "archive": archive_context,
    "404": not_found_context,
    "search": search_context,
}
"""The contexts of the pages made from the site alone, by their kind in `_Layout.makers`."""


def _job(site: Site, layout: _Layout, index: int) -> PageJob:
    """Return the job of the page `index` of `site`, whose layout is `layout`."""
    spec = layout.specs[index]
    kind, at = layout.makers[index]
    if kind == "list":
        return _list_job(site, layout, layout.lists[at])
    if kind == "post":
        context = partial(post_context, site, at, site.posts[at])
    elif kind == "page":
        context = partial(standalone_context, site, site.pages[at])
    elif kind in _SITE_CONTEXTS:
        context = partial(_SITE_CONTEXTS[kind], site)
    else:
        produce = _producer(site, layout, kind, at)
        return PageJob(spec.rel, "", partial(dict), spec.deps, produce=produce, lazy=spec.lazy)
    return PageJob(spec.rel, spec.template, context, spec.deps)


def _producer(site: Site, layout: _Layout, kind: str, at: int) -> Callable[[], OutputData]:
    """Return what makes the generated file of `kind` (feed, rss, sitemap, robots, the
    redirect page `at` of `_Layout.redirects`)."""
    if kind == "redirect":
        target = layout.redirects[at].target
        config = site.config
        return partial(redirect_page, config.base_url, config.base_path, config.language, target)
    if kind == "feed":
        return partial(atom_feed, site)
    if kind == "rss":
        return partial(rss_feed, site)
    if kind == "sitemap":
        return partial(sitemap_xml, layout.sitemap)
    return partial(robots_txt, site.config.base_url)


def _list_job(site: Site, layout: _Layout, page: _ListPage) -> PageJob:
    """Return the job of one page of a list, its posts taken from `site`."""
    posts = site.posts if page.tag < 0 else site.tags[page.tag][1]
    last = page.pager
    items = posts[page.start : page.start + site.config.paginate]
    pager = Paginator(items, last.number, last.count, last.prev_url, last.next_url)
    if page.tag < 0:
        return PageJob(page.rel, "index.html", partial(index_context, site, pager), page.deps)
    tag = site.tags[page.tag][0]
    context = partial(tag_context, site, tag, layout.slugs[tag], pager)
    return PageJob(page.rel, "tag.html", context, page.deps)


def _sitemap_entries(site: Site, rels: list[str]) -> list[tuple[str, datetime | None]]:
    """Return (absolute URL, lastmod) of every HTML page but 404.html and the previews
    (drafts, future posts: `Site.previews`), in job order."""
    lastmod: dict[str, datetime | None] = {
        r.post.output_rel: r.post.meta.updated or r.post.meta.date for r in site.posts + site.pages
    }
    hidden = {r.post.output_rel for r in site.posts + site.pages if r.post.url in site.previews}
    return [
        (site.config.base_url + rel.removesuffix("index.html"), lastmod.get(rel))
        for rel in rels
        if rel.endswith((".html", ".htm"))
        and rel not in hidden
        and rel not in (SEARCH_PAGE, "404.html")
    ]


def _urls(items: tuple[RenderedPost, ...]) -> frozenset[str]:
    return frozenset([r.post.url for r in items])


def prepare_env(site: Site, env: jinja2.Environment) -> jinja2.Environment:
    """Install the site's template globals (`site`, `url`, `abs_url`, `stylesheets`) into `env`."""
    env.globals.update(site_context(site))
    env.globals["stylesheets"] = STYLESHEETS
    return env


def scan_templates(env: jinja2.Environment) -> None:
    """Read every template of `env` now for what rendering any page asks of them once
    (`_bare_content`, ≈ 30 ms; kept on `env`). `parallel.render_pages` calls it before its
    workers fork, so that they inherit the answer instead of each parsing every template
    (issue 20); a build that renders no page never pays it."""
    _bare_content(env)


def render_job(env: jinja2.Environment, job: PageJob) -> OutputFile:
    """Render one page job with an environment prepared by `prepare_env`.

    Raises:
        TemplateError: the template is missing, has a syntax error, or fails while rendering.
    """
    if job.produce is not None:
        return OutputFile(job.rel, job.produce())
    return _page(env, job.template, job.rel, job.context())


def site_files(site: Site, extra_assets: dict[str, Callable[[], bytes]]) -> list[OutputFile]:
    """Return the generated non-page files: assets (the Pygments CSS, the math font), .nojekyll,
    CNAME."""
    outputs = [OutputFile(rel, make()) for rel, make in sorted(extra_assets.items())]
    outputs.append(OutputFile(".nojekyll", b""))
    if site.config.cname:
        outputs.append(OutputFile("CNAME", site.config.cname.encode() + b"\n"))
    return outputs


def load_template(env: jinja2.Environment, name: str) -> jinja2.Template:
    """Return the compiled template `name`.

    Raises:
        TemplateError: it is missing or has a syntax error (names the file and line).
    """
    try:
        return env.get_template(name)
    except jinja2.TemplateSyntaxError as e:
        raise TemplateError(f"template syntax error: {e.message}", _template_location(e)) from e
    except jinja2.TemplateError as e:
        raise TemplateError(f"cannot load template {name}: {e}") from e


def _page(env: jinja2.Environment, template: str, rel: str, ctx: dict[str, Any]) -> OutputFile:
    defaults = {
        "description": "",
        "meta_tags": (),
        "json_ld": None,
        "canonical": "",
        "math": False,
        "mermaid_src": "",
    }
    ctx = defaults | {"page_rel": rel.removesuffix("index.html")} | ctx
    compiled = load_template(env, template)
    body = ctx.get("content")
    marker = None
    if isinstance(body, BodyHTML):
        marker = f"<!--postil-body-{secrets.token_hex(16)}-->" if _bare_content(env) else None
        ctx["content"] = Markup(marker or body.content.html)
    try:
        html = compiled.render(ctx)
    except jinja2.TemplateSyntaxError as e:  # an included or extended template
        raise TemplateError(f"template syntax error: {e.message}", _template_location(e)) from e
    except (jinja2.TemplateError, ArithmeticError, LookupError, TypeError, ValueError) as e:
        # an undefined name, or an expression of the template failing (`{{ 1 // 0 }}`)
        where = _failing_line(e)
        named = "" if where else f" with {template}"
        message = f"rendering {rel}{named} failed: {type(e).__name__}: {e}"
        raise TemplateError(message, where) from e
    if marker is not None and isinstance(body, BodyHTML) and marker in html:
        return OutputFile(rel, _spliced(html.encode("utf-8"), marker, body.content.html_bytes))
    return OutputFile(rel, html.encode("utf-8"))


SPLICE_WHOLE_BYTES = 1 << 20
"""A page whose body has at most this many bytes is joined into one `bytes` (one write);
a larger one is given as `Pieces` (head, body, tail), so a 20 MB post's 55 MB body is
written from where it is instead of copied into its page (issue 19). Tests set it to 0, so
every page with a body takes the pieces' path."""


def _spliced(page: bytes, marker: str, body: bytes) -> OutputData:
    """Return `page` with `body` where `marker` stands: whole, or as `Pieces` for a large
    body (`SPLICE_WHOLE_BYTES`); the same bytes either way."""
    around = page.split(marker.encode())
    if len(body) <= SPLICE_WHOLE_BYTES:
        return body.join(around)
    pieces = [around[0]]
    for part in around[1:]:
        pieces += (body, part)
    return Pieces(tuple(pieces))


def _bare_content(env: jinja2.Environment) -> bool:
    """Return whether every template of `env` uses the name `content` only as a whole output
    (`{{ content }}`): then a marker can stand for the body while the page renders (`_page`).

    Any other use (a filter, a test, a loop variable of that name) or a loader that cannot
    list its templates gives False, and the body is passed as decoded HTML. Cached on `env`.
    """
    known = getattr(env, "_postil_bare_content", None)
    if known is None:
        try:
            names = env.list_templates()
            known = all(_bare_in(env.parse(env.loader.get_source(env, n)[0])) for n in names)  # type: ignore[union-attr]
        except (TypeError, jinja2.TemplateError, OSError, UnicodeDecodeError):
            known = False
        env._postil_bare_content = known  # type: ignore[attr-defined]
    return bool(known)


def _bare_in(node: nodes.Node, parent: nodes.Node | None = None, captured: bool = False) -> bool:
    """Return whether `content` appears under `node` only as a whole output, not captured by
    a `{% filter %}`, `{% set %}…{% endset %}`, macro or call block (which could change or
    measure the marker)."""
    if isinstance(node, nodes.Name) and node.name == "content":
        return isinstance(parent, nodes.Output) and not captured
    captured = captured or isinstance(
        node, (nodes.FilterBlock, nodes.AssignBlock, nodes.Macro, nodes.CallBlock)
    )
    return all(_bare_in(child, node, captured) for child in node.iter_child_nodes())


def _failing_line(e: BaseException) -> Location | None:
    """Return the template file and line where rendering raised `e`: the innermost frame of
    its traceback that Jinja rewrote to point at template source (its globals hold
    `__jinja_exception__`, jinja2.debug.fake_traceback), or None when there is none."""
    found, tb = None, e.__traceback__
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            found = Location(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _template_location(e: jinja2.TemplateSyntaxError) -> Location:
    return Location(e.filename or e.name or "<template>", e.lineno or 0)
