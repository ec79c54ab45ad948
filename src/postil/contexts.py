"""Template contexts of each kind of page: post, stand-alone page, lists, archive, 404.

Every context carries the `<head>` data `base.html` reads: `page_title`, `canonical` (absolute
URL, or "" for pages that must not be indexed), `description`, `meta_tags` (Open Graph,
Twitter, Google Scholar) and `json_ld` (None or script-safe JSON).
"""

from __future__ import annotations

import textwrap
from typing import Any

from postil.citation import apa_reference, bibtex_entry, display_name
from postil.content.posts import tag_slug
from postil.htmlfilter import plain_text
from postil.markdown.rendered import RenderedMarkdown, TocEntry, contents
from postil.metadata import (
    MetaTag,
    blog_posting,
    page_meta,
    post_meta,
    scholar_meta,
    script_json,
    social_image,
)
from postil.model import Author, RenderedPost, Site, SiteConfig
from postil.site import Paginator, archive_years, page_url, tag_slugs

DESCRIPTION_LIMIT = 300
"""Longest meta description in characters; search engines show about 155–300."""


def head(site: Site, title: str, rel: str, description: str = "") -> dict[str, Any]:
    """Return the `<head>` context of a page at site-relative URL `rel` (no post metadata)."""
    url = site.config.base_url + rel
    return {
        "language": site.config.language,  # `<html lang>`; a post's own `lang:` overrides it
        "page_title": title,
        "canonical": url,
        "description": description,
        "meta_tags": page_meta(site.config, title, url, description, social_image(site.config)),
        "json_ld": None,
    }


def describe(site: Site, rendered: RenderedPost) -> str:
    """Return a post's description: `summary:`, else `subtitle:`, else its first paragraph.

    The summary's and subtitle's math is readable text, as the title's is in `<title>`
    (`RenderedPost.summary_text`, `subtitle_text`); the first paragraph
    is plain text with math as TeX, shortened at a word boundary to `DESCRIPTION_LIMIT`
    characters; a post with none of these gets the site's description.
    """
    text = rendered.summary_text or rendered.subtitle_text or plain_text(rendered.content.summary)
    text = text or site.config.description
    return textwrap.shorten(text, DESCRIPTION_LIMIT, placeholder=" …") if text else ""


def tag_links(site: Site, tags: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """Return (term name, site-relative URL of its page or None) for each tag of a post or
    page, its spelling read as the site's term of the same slug (`site.tag_slugs`): a post's
    `#Math` shows as the site's `math`; a page's tag, which lists no page, as written."""
    names = {slug: tag for tag, slug in tag_slugs(site.tags).items()}
    links: list[tuple[str, str | None]] = []
    for tag in tags:
        slug = tag_slug(tag)
        links.append((names[slug], f"tags/{slug}/") if slug in names else (tag, None))
    return list(dict.fromkeys(links))  # `Math` and `math` in one post: one term


def author_byline(people: tuple[Author, ...]) -> dict[str, Any]:
    """Return `byline` (name, url, affiliation numbers per author) and `affiliations`.

    Names are shown as `citation.display_name` reads them ("King, Jr., Martin Luther" as
    "Martin Luther King, Jr.").

    Affiliations are numbered in order of first mention, as papers do; with one affiliation
    in all, authors carry no number. Empty when front matter gave names only.
    """
    places = list(dict.fromkeys(place for person in people for place in person.affiliations))
    numbered = len(places) > 1
    byline = [
        {
            "name": display_name(person.name),
            "url": person.url,
            "marks": [places.index(p) + 1 for p in person.affiliations] if numbered else [],
        }
        for person in people
    ]
    return {"byline": byline, "affiliations": places}


def post_context(site: Site, index: int, rendered: RenderedPost) -> dict[str, Any]:
    """Return the context of post `index` of `site.posts`: body, neighbours, citation, metadata.

    The citation block is left out for `citation: false` and for posts without a date.
    Titles are plain text in `page_title`, metadata and the APA reference, and keep their
    math as `$…$` in BibTeX. The site's `cite_this_post: false` leaves the block out of
    every post (Google Scholar's tags stay).
    """
    config = site.config
    post, meta = rendered.post, rendered.post.meta
    authors = meta.authors or (config.author,)
    absolute = config.base_url + post.url
    description = describe(site, rendered)
    cite = meta.citation and meta.date is not None
    block = cite and config.cite_this_post
    year = meta.date.year if meta.date else 0
    tags: list[MetaTag] = post_meta(config, rendered, absolute, description)
    if cite:
        tags += scholar_meta(config, rendered, authors, absolute)
    ld = blog_posting(config, rendered, authors, absolute, description)
    title = rendered.title_text
    return head(site, title, post.url, description) | {
        "canonical": meta.canonical or absolute,  # a cross-post names its original
        "language": rendered.language(config.language),
        "meta_tags": tags,
        "json_ld": script_json(ld),
        "post": rendered,
        "meta": meta,
        "authors": tuple(display_name(name) for name in authors),  # the byline's
        **author_byline(meta.author_details),
        "content": BodyHTML(rendered.content),
        "toc": () if rendered.content.toc_placed else page_contents(rendered),
        "widgets": sorted(rendered.content.widgets),
        "math": bool(rendered.content.math_chars),
        "mermaid_src": mermaid_src(config, rendered.content),
        "tag_links": tag_links(site, meta.tags),
        "newer": site.posts[index - 1] if index > 0 else None,
        "older": site.posts[index + 1] if 0 <= index < len(site.posts) - 1 else None,
        "bibtex": _bibtex(config, rendered, authors, absolute) if block else None,
        "apa": apa_reference(authors, year, title, config.title, absolute, meta.doi)
        if block
        else None,
    }


def _bibtex(config: SiteConfig, rendered: RenderedPost, authors: tuple[str, ...], url: str) -> str:
    """Return the post's BibTeX entry (`postil.citation.bibtex_entry`); its `urldate` is the
    day of its last change (`updated:`, else `date:`), in the site's zone."""
    meta = rendered.post.meta
    assert meta.date is not None, "only posts with a date are cited"
    title = rendered.content.title
    changed = (meta.updated or meta.date).date().isoformat()
    parts = title.parts if title else ()
    text = rendered.title_text
    return bibtex_entry(authors, meta.date.year, text, url, parts, config.title, changed, meta.doi)


def mermaid_src(config: SiteConfig, content: RenderedMarkdown) -> str:
    """Return the URL of Mermaid's ES module for a page whose body has a diagram
    (`postil.markdown.diagram`), or "" when it has none or the site's `mermaid: false`
    shows diagrams as their source. A path from the site's root is put under its base
    path, as links are."""
    url = config.mermaid_url
    if "mermaid" not in content.diagrams or not url:
        return ""
    return config.base_path + url[1:] if url.startswith("/") else url


def standalone_context(site: Site, rendered: RenderedPost) -> dict[str, Any]:
    """Return the context of a stand-alone page (about.md): no citation, neighbours or JSON-LD."""
    ctx = post_context(site, -1, rendered)
    url = site.config.base_url + rendered.post.url
    image = social_image(site.config, rendered)
    meta_tags = page_meta(site.config, rendered.title_text, url, ctx["description"], image)
    return ctx | {"bibtex": None, "apa": None, "meta_tags": meta_tags, "json_ld": None}


def index_context(site: Site, pager: Paginator) -> dict[str, Any]:
    """Return the context of one page of the post list (the home page is page 1)."""
    title = "" if pager.number == 1 else f"Posts, page {pager.number}"
    return head(site, title, page_url(pager.number), site.config.description) | {"pager": pager}


def tag_context(site: Site, tag: str, slug: str, pager: Paginator) -> dict[str, Any]:
    """Return the context of one page of a tag's post list (`tags/<slug>/`)."""
    prefix = f"tags/{slug}/"
    title = f"Posts tagged “{tag}”"
    if pager.number > 1:
        title += f", page {pager.number}"
    return head(site, title, page_url(pager.number, prefix)) | {"tag": tag, "pager": pager}


def tags_context(site: Site) -> dict[str, Any]:
    """Return the context of the tag index: (tag, URL, number of posts), by tag name."""
    slugs = tag_slugs(site.tags)
    tags = [(tag, f"tags/{slugs[tag]}/", len(posts)) for tag, posts in site.tags]
    return head(site, "Tags", "tags/") | {"tags": tags}


def archive_context(site: Site) -> dict[str, Any]:
    """Return the context of the archive: posts grouped by year, newest first."""
    return head(site, "Archive", "archive/") | {"years": archive_years(site.posts)}


def search_context(site: Site) -> dict[str, Any]:
    """Return the context of the search page (`search: true`): kept out of search engines."""
    ctx = head(site, "Search", "search/")
    return ctx | {"meta_tags": [("name", "robots", "noindex")]}


def not_found_context(site: Site) -> dict[str, Any]:
    """Return the context of 404.html: no canonical URL, and `noindex` for crawlers."""
    ctx = head(site, "Page not found", "")
    return ctx | {"canonical": "", "meta_tags": [("name", "robots", "noindex")]}


class BodyHTML:
    """A post's body in a page's context, put into the page by `postil.pages.render_job`.

    Where every template uses `content` only as `{{ content }}`, the page is rendered with a
    marker in its place and the body's UTF-8 bytes are spliced in after, so a large body is
    never decoded to a `str` (four bytes a character with one math letter beyond U+FFFF);
    otherwise the template gets the decoded HTML as `Markup`.

    Attributes:
        content: the post's rendered Markdown.
    """

    def __init__(self, content: RenderedMarkdown) -> None:
        self.content = content


PAGE_CONTENTS_MOST = 25
"""The most entries the page's contents list shows with its subsections; a longer one
lists its sections only (it sits in the margin beside the post's start, and sidenotes clear
it)."""


def page_contents(rendered: RenderedPost) -> tuple[tuple[TocEntry, tuple[TocEntry, ...]], ...]:
    """Return the page's contents list (`rendered.contents`, its title's repetition left
    out; the template shows it from three entries, or one with `toc: true`). Each section
    keeps its subsections unless the whole would pass `PAGE_CONTENTS_MOST`, as Hugo's
    `.TableOfContents` (`##` and `###`) and Quarto's (`toc-depth`) nest them."""
    groups = contents(rendered.content.toc, rendered.title_text)
    count = sum(1 + len(children) for _, children in groups)
    if count > PAGE_CONTENTS_MOST:
        groups = tuple((entry, ()) for entry, _ in groups)
    return groups
