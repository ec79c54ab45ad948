"""Render the site: every page and generated file as a `PageJob`, then the jobs to files.

Pages: posts, stand-alone pages, the paginated index, tag pages and the tag index, the
archive, 404. Generated files: Atom and RSS feeds, sitemap.xml, robots.txt, assets,
.nojekyll, CNAME. Template contexts are built in `postil.contexts`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

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
from postil.model import OutputFile, RenderedPost, Site
from postil.site import Paginator, page_url, paginate, tag_slugs
from postil.sitemap import robots_txt, sitemap_xml, writes_robots

__all__ = ["PageJob", "Paginator", "page_jobs", "paginate", "render_job"]

SEARCH_PAGE = "search/index.html"
"""The search page of a site with `search: true` (`postil.search`); not in the sitemap."""

STYLESHEETS = ("css/base.css", "css/article.css", "css/math.css", "css/pygments.css")


def site_context(site: Site) -> dict[str, Any]:
    """Return the template globals: `site`, `url(rel)`, `abs_url(rel)` and `base`.

    `url("posts/x/")` is root-absolute with the base path (`/blog/posts/x/`), so a link works
    from a page at any depth, 404.html included; `abs_url` adds the scheme and host.
    """
    config = site.config
    base = config.base_path

    def url(rel: str = "") -> str:
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
            file's bytes; `template` is then "" and `context` unused.
        lazy: costly to make and rarely looked at while writing (feeds): the dev server makes
            it on its first request instead of on every save.
    """

    rel: str
    template: str
    context: Callable[[], dict[str, Any]]
    deps: frozenset[str] | None
    produce: Callable[[], bytes] | None = None
    lazy: bool = False


def page_jobs(site: Site) -> list[PageJob]:
    """Return every page and generated file of the site as a `PageJob`, in a fixed order.

    List pages (index, tag pages) depend on the posts they show; the tag index, archive,
    feeds and sitemap show every post (`deps=None`); 404 and robots.txt show none;
    robots.txt is made only for a site at its host's root (`writes_robots`). Adding
    or removing a post, or changing its date, tags or draft state, moves posts between
    list pages: the dev server must then re-list the jobs, not only re-render by deps.
    """
    jobs = _post_jobs(site) + _list_jobs(site)
    jobs.append(PageJob("archive/index.html", "archive.html", partial(archive_context, site), None))
    jobs.append(PageJob("404.html", "404.html", partial(not_found_context, site), frozenset()))
    if site.config.search:
        context = partial(search_context, site)
        jobs.append(PageJob(SEARCH_PAGE, "search.html", context, frozenset()))
    sitemap = _sitemap_entries(site, [job.rel for job in jobs])
    in_feeds = _urls(feed_posts(site))  # an edit to an older post leaves the feeds alone
    files: list[tuple[str, Callable[[], bytes], frozenset[str] | None, bool]] = [
        ("feed.xml", partial(atom_feed, site), in_feeds, True),
        ("rss.xml", partial(rss_feed, site), in_feeds, True),
        ("sitemap.xml", partial(sitemap_xml, sitemap), None, False),
    ]
    if writes_robots(site.config.base_url):
        files.append(("robots.txt", partial(robots_txt, site.config.base_url), frozenset(), False))
    for rel, make, deps, lazy in files:
        jobs.append(PageJob(rel, "", partial(dict), deps, produce=make, lazy=lazy))
    return jobs


def _post_jobs(site: Site) -> list[PageJob]:
    posts = site.posts
    jobs = []
    for i, rendered in enumerate(posts):
        neighbours = frozenset(p.post.url for p in posts[max(i - 1, 0) : i + 2])
        context = partial(post_context, site, i, rendered)
        jobs.append(PageJob(rendered.post.output_rel, "post.html", context, neighbours))
    for rendered in site.pages:
        context = partial(standalone_context, site, rendered)
        deps = frozenset([rendered.post.url])
        jobs.append(PageJob(rendered.post.output_rel, "page.html", context, deps))
    return jobs


def _list_jobs(site: Site) -> list[PageJob]:
    size = site.config.paginate
    jobs = [
        PageJob(
            page_url(p.number) + "index.html",
            "index.html",
            partial(index_context, site, p),
            _urls(p.items),
        )
        for p in paginate(site.posts, size)
    ]
    slugs = tag_slugs(site.tags)
    for tag, posts in site.tags:
        prefix = f"tags/{slugs[tag]}/"
        for pager in paginate(posts, size, prefix):
            context = partial(tag_context, site, tag, slugs[tag], pager)
            rel = page_url(pager.number, prefix) + "index.html"
            jobs.append(PageJob(rel, "tag.html", context, _urls(pager.items)))
    jobs.append(PageJob("tags/index.html", "tags.html", partial(tags_context, site), None))
    return jobs


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
        if rel.endswith("index.html") and rel not in hidden and rel != SEARCH_PAGE
    ]


def _urls(items: tuple[RenderedPost, ...]) -> frozenset[str]:
    return frozenset(r.post.url for r in items)


def prepare_env(site: Site, env: jinja2.Environment) -> jinja2.Environment:
    """Install the site's template globals (`site`, `url`, `abs_url`, `stylesheets`) into `env`."""
    env.globals.update(site_context(site))
    env.globals["stylesheets"] = STYLESHEETS
    return env


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
    defaults = {"description": "", "meta_tags": (), "json_ld": None, "canonical": "", "math": False}
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
        raise TemplateError(
            f"rendering {rel} with {template} failed: {type(e).__name__}: {e}"
        ) from e
    if marker is not None and isinstance(body, BodyHTML) and marker in html:
        return OutputFile(
            rel, body.content.html_bytes.join(html.encode("utf-8").split(marker.encode()))
        )
    return OutputFile(rel, html.encode("utf-8"))


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


def _template_location(e: jinja2.TemplateSyntaxError) -> Location:
    return Location(e.filename or e.name or "<template>", e.lineno or 0)
