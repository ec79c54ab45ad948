"""Render the site's pages with Jinja2: posts, index pages, 404, and generated assets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


def render_site(
    site: Site, env: jinja2.Environment, extra_assets: dict[str, Callable[[], str]]
) -> list[OutputFile]:
    """Render every page of the site.

    Args:
        site: the collected site.
        env: the template environment (`postil.theme.create_template_env`).
        extra_assets: generated text assets by output path (e.g. "css/pygments.css").

    Returns:
        The output files, in a deterministic order.

    Raises:
        TemplateError: a template is missing or fails (names the template and line).
    """
    env.globals.update(site_context(site))
    env.globals["stylesheets"] = STYLESHEETS
    outputs: list[OutputFile] = []
    for i, rendered in enumerate(site.posts):
        outputs.append(
            _page(env, "post.html", rendered.post.output_rel, post_context(site, i, rendered))
        )
    for rendered in site.pages:
        ctx = post_context(site, -1, rendered) | {
            "bibtex": None,
            "apa": None,
            "newer": None,
            "older": None,
        }
        outputs.append(_page(env, "page.html", rendered.post.output_rel, ctx))
    for pager in paginate(site.posts, site.config.paginate):
        ctx = {
            "page_title": "",
            "canonical": site.config.base_url + page_url(pager.number),
            "pager": pager,
        }
        outputs.append(_page(env, "index.html", page_url(pager.number) + "index.html", ctx))
    outputs.append(
        _page(env, "404.html", "404.html", {"page_title": "Page not found", "canonical": ""})
    )
    outputs.extend(OutputFile(rel, make().encode()) for rel, make in sorted(extra_assets.items()))
    outputs.append(OutputFile(".nojekyll", b""))
    if site.config.cname:
        outputs.append(OutputFile("CNAME", site.config.cname.encode() + b"\n"))
    return outputs


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
