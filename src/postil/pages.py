"""Render the site's pages with Jinja2: posts, index pages, 404, and generated assets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import jinja2
from markupsafe import Markup

from postil.citation import apa_reference, bibtex_entry
from postil.errors import TemplateError
from postil.model import OutputFile, RenderedPost, Site

STYLESHEETS = ("css/base.css", "css/article.css", "css/math.css", "css/pygments.css")
WIDGET_STYLESHEET = "css/widgets.css"


@dataclass(frozen=True)
class Paginator:
    """One index page: its posts, number (1-based), count, and the site-relative neighbours."""

    items: tuple[RenderedPost, ...]
    number: int
    count: int
    prev_url: str | None
    next_url: str | None


def page_url(number: int, prefix: str = "") -> str:
    """Return the site-relative URL of index page `number`: "" for 1, "page/2/" for 2, …"""
    return prefix if number == 1 else f"{prefix}page/{number}/"


def paginate(posts: tuple[RenderedPost, ...], size: int, prefix: str = "") -> list[Paginator]:
    """Split posts into pages of `size` (an empty site still has one, empty, page)."""
    chunks = [posts[i : i + size] for i in range(0, len(posts), size)] or [()]
    count = len(chunks)
    return [
        Paginator(
            items=chunk,
            number=n,
            count=count,
            prev_url=page_url(n - 1, prefix) if n > 1 else None,
            next_url=page_url(n + 1, prefix) if n < count else None,
        )
        for n, chunk in enumerate(chunks, start=1)
    ]


def site_context(site: Site) -> dict[str, Any]:
    """Return the template globals: `site`, `url(rel)`, `abs_url(rel)` and `stylesheets`."""
    config = site.config
    base = config.base_path

    def url(rel: str = "") -> str:
        return base + rel.lstrip("/")

    def abs_url(rel: str = "") -> str:
        return config.base_url + rel.lstrip("/")

    return {"site": config, "url": url, "abs_url": abs_url, "base": base}


def post_context(site: Site, index: int, rendered: RenderedPost) -> dict[str, Any]:
    """Return the context of one post page: the post, its neighbours and its citation."""
    config = site.config
    post, meta = rendered.post, rendered.post.meta
    authors = meta.authors or (config.author,)
    absolute = config.base_url + post.url
    newer = site.posts[index - 1] if index > 0 else None
    older = site.posts[index + 1] if 0 <= index < len(site.posts) - 1 else None
    cite = meta.citation and meta.date is not None
    year = meta.date.year if meta.date else 0
    return {
        "page_title": meta.title,
        "canonical": absolute,
        "description": meta.summary or meta.subtitle or config.description,
        "post": rendered,
        "meta": meta,
        "authors": authors,
        "content": Markup(rendered.content.html),
        "toc": rendered.content.toc,
        "widgets": sorted(rendered.content.widgets),
        "newer": newer,
        "older": older,
        "bibtex": bibtex_entry(authors, year, meta.title, absolute) if cite else None,
        "apa": apa_reference(authors, year, meta.title, config.title, absolute) if cite else None,
    }


@dataclass(frozen=True)
class PageJob:
    """One page to render: which template, where, from what, and which posts it shows.

    Attributes:
        rel: output path relative to the output directory.
        template: the Jinja2 template name.
        context: builds the template context when called (so unchanged pages cost nothing).
        deps: URLs of the posts whose content or metadata the page shows; the dev server
            re-renders a page only when one of them (or a template or the config) changes.
            `None` means the page depends on every post (feeds, sitemaps).
    """

    rel: str
    template: str
    context: Callable[[], dict[str, Any]]
    deps: frozenset[str] | None


def page_jobs(site: Site) -> list[PageJob]:
    """Return every page of the site as a `PageJob`, in a deterministic order."""
    jobs: list[PageJob] = []
    posts = site.posts
    for i, rendered in enumerate(posts):
        neighbours = [p.post.url for p in posts[max(i - 1, 0) : i + 2]]
        jobs.append(
            PageJob(
                rendered.post.output_rel,
                "post.html",
                partial(post_context, site, i, rendered),
                frozenset(neighbours),
            )
        )
    for rendered in site.pages:
        jobs.append(
            PageJob(
                rendered.post.output_rel,
                "page.html",
                partial(_standalone_context, site, rendered),
                frozenset([rendered.post.url]),
            )
        )
    for pager in paginate(site.posts, site.config.paginate):
        rel = page_url(pager.number) + "index.html"
        ctx = {"page_title": "", "canonical": site.config.base_url + page_url(pager.number)}
        jobs.append(PageJob(rel, "index.html", partial(dict, ctx, pager=pager), _urls(pager.items)))
    not_found = {"page_title": "Page not found", "canonical": ""}
    jobs.append(PageJob("404.html", "404.html", partial(dict, not_found), frozenset()))
    return jobs


def _urls(items: tuple[RenderedPost, ...]) -> frozenset[str]:
    return frozenset(r.post.url for r in items)


def _standalone_context(site: Site, rendered: RenderedPost) -> dict[str, Any]:
    ctx = post_context(site, -1, rendered)
    return ctx | {"bibtex": None, "apa": None, "newer": None, "older": None}


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
    return _page(env, job.template, job.rel, job.context())


def site_files(site: Site, extra_assets: dict[str, Callable[[], str]]) -> list[OutputFile]:
    """Return the generated non-page files: assets such as the Pygments CSS, .nojekyll, CNAME."""
    outputs = [OutputFile(rel, make().encode()) for rel, make in sorted(extra_assets.items())]
    outputs.append(OutputFile(".nojekyll", b""))
    if site.config.cname:
        outputs.append(OutputFile("CNAME", site.config.cname.encode() + b"\n"))
    return outputs


def render_site(
    site: Site, env: jinja2.Environment, extra_assets: dict[str, Callable[[], str]]
) -> list[OutputFile]:
    """Render every page of the site and the generated files.

    Args:
        site: the collected site.
        env: the template environment (`postil.theme.create_template_env`).
        extra_assets: generated text assets by output path (e.g. "css/pygments.css").

    Returns:
        The output files, in a deterministic order.

    Raises:
        TemplateError: a template is missing or fails (names the template and line).
    """
    prepare_env(site, env)
    outputs = [render_job(env, job) for job in page_jobs(site)]
    return outputs + site_files(site, extra_assets)


def _page(env: jinja2.Environment, template: str, rel: str, ctx: dict[str, Any]) -> OutputFile:
    ctx = {"description": "", "page_rel": rel.removesuffix("index.html"), **ctx}
    try:
        html = env.get_template(template).render(ctx)
    except jinja2.TemplateSyntaxError as e:
        raise TemplateError(f"template syntax error: {e.message}", _template_location(e)) from e
    except jinja2.TemplateError as e:
        raise TemplateError(f"rendering {rel} with {template} failed: {e}") from e
    return OutputFile(rel, html.encode("utf-8"))


def _template_location(e: jinja2.TemplateSyntaxError):  # type: ignore[no-untyped-def]
    from postil.errors import Location

    return Location(e.filename or e.name or "<template>", e.lineno or 0)
