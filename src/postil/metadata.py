"""Machine-readable metadata in a page's `<head>`: Open Graph, Twitter, JSON-LD, Google Scholar.

Each function returns data, never markup: meta tags as `(attribute, name, content)` triples
that the template writes with autoescaping on, and JSON-LD as text that is safe inside
`<script type="application/ld+json">`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from markupsafe import Markup

from postil.bibliography.read import person
from postil.bibliography.style import cited_name, work_url
from postil.citation import display_name
from postil.markdown.rendered import CitedWork
from postil.model import RenderedPost, SiteConfig

MetaTag = tuple[str, str, str]
"""One `<meta>`: (attribute, name, content), e.g. ("property", "og:title", "Attention")."""

URL_SAFE = "/!$&'()*+,;=:@~-._%"
"""Characters a path keeps when written into a URL (RFC 3986 pchar, and `%` escapes)."""

_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def script_json(data: Any) -> Markup:
    """Return `data` as JSON that can sit inside a `<script>` element unchanged.

    `<`, `>` and `&` are written as JSON escapes (`\\u003c` …), so no `</script>` or `<!--`
    can end the element early (HTML Living Standard, "Restrictions for contents of script
    elements"); the JSON value is unchanged. Keys keep their order; output is deterministic.
    """
    text = json.dumps(data, ensure_ascii=False, indent=None, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_SAFE))


def page_meta(
    config: SiteConfig, title: str, url: str, description: str, image: str = ""
) -> list[MetaTag]:
    """Return Open Graph and Twitter tags of a page that is not a post (og:type website).

    Args:
        config: the site (name for og:site_name).
        title: the page's title, plain text.
        url: the page's absolute URL.
        description: one or two sentences, plain text ("" leaves the tags out).
        image: the absolute URL of the page's social image (`social_image`), or "": with
            one, the Twitter card is `summary_large_image`.

    See https://ogp.me/ and Twitter's "Cards markup" reference.
    """
    tags: list[MetaTag] = [
        ("property", "og:type", "website"),
        ("property", "og:site_name", config.title),
        ("property", "og:title", title or config.title),
        ("property", "og:url", url),
        ("name", "twitter:card", "summary"),
        ("name", "twitter:title", title or config.title),
    ]
    if description:
        tags += [
            ("property", "og:description", description),
            ("name", "twitter:description", description),
        ]
    if image:
        tags[4] = ("name", "twitter:card", "summary_large_image")
        tags += [("property", "og:image", image), ("name", "twitter:image", image)]
    return tags


def social_image(config: SiteConfig, rendered: RenderedPost | None = None) -> str:
    """Return the absolute URL of a page's social image, or "" when there is none.

    The post's `image:` (a URL; `/img/x.png` from the site's root; `cover.png` relative
    to the post's page, so a bundle's own file), else its first image
    (`RenderedMarkdown.images`), else the site's `image:` (postil.yaml). Crawlers need an
    absolute URL (https://ogp.me/#url).
    """
    if rendered is not None:
        written = rendered.post.meta.image
        if written:
            return _absolute(config, written, rendered.post.url)
        first = next((image for image in rendered.content.images if image), "")
        if first:
            return _absolute(config, first, "")
    return _absolute(config, config.image, "") if config.image else ""


def _absolute(config: SiteConfig, ref: str, page_url: str) -> str:
    """Return `ref` (a URL, a root-absolute path or a path relative to `page_url`) absolute."""
    if urlsplit(ref).scheme in ("http", "https"):
        return ref
    if ref.startswith("/"):
        return config.base_url + quote(ref.lstrip("/"), safe=URL_SAFE)
    return urljoin(config.base_url + page_url, quote(ref, safe=URL_SAFE))


def post_meta(
    config: SiteConfig, rendered: RenderedPost, url: str, description: str
) -> list[MetaTag]:
    """Return Open Graph (og:type article, with times and tags) and Twitter tags of a post
    (its title as plain text: `RenderedPost.title_text`)."""
    meta = rendered.post.meta
    image = social_image(config, rendered)
    tags = page_meta(config, rendered.title_text, url, description, image)
    tags[0] = ("property", "og:type", "article")
    if meta.date:
        tags.append(("property", "article:published_time", meta.date.isoformat()))
    if meta.updated:
        tags.append(("property", "article:modified_time", meta.updated.isoformat()))
    tags += [("property", "article:tag", tag) for tag in meta.tags]
    return tags


def scholar_meta(
    config: SiteConfig, rendered: RenderedPost, authors: tuple[str, ...], url: str
) -> list[MetaTag]:
    """Return Google Scholar's `citation_*` tags: title, each author, date, full-text URL,
    the post's DOI when it has one (`citation_doi`),
    and one `citation_reference` for each work the post cites.

    Dates are `YYYY/MM/DD` and authors one tag each, in order, as Google Scholar's
    inclusion guidelines ask (https://scholar.google.com/intl/en/scholar/inclusion.html).
    A post without a date has no `citation_publication_date`.
    """
    meta = rendered.post.meta
    tags: list[MetaTag] = [("name", "citation_title", rendered.title_text)]
    tags += [("name", "citation_author", display_name(author)) for author in authors]
    if meta.date:
        tags.append(("name", "citation_publication_date", meta.date.strftime("%Y/%m/%d")))
    tags += [
        ("name", "citation_language", rendered.language(config.language)),
        ("name", "citation_fulltext_html_url", url),
    ]
    if meta.doi:
        tags.append(("name", "citation_doi", meta.doi))
    tags += [
        ("name", "citation_reference", citation_reference(c)) for c in rendered.content.citations
    ]
    return tags


def _field(value: str) -> str:
    """Return a value fit for `citation_reference` (`;` separates its fields)."""
    return " ".join(value.replace(";", ",").split())


def citation_reference(cited: CitedWork) -> str:
    """Return the content of one `citation_reference` tag: `citation_title=…;
    citation_author=…; …` (the Highwire Press tags Google Scholar reads in references)."""
    work = cited.work
    fields = [("citation_title", cited.title)]
    fields += [("citation_author", _person(p)) for p in work.authors]
    container = "".join(c for _, c in work.container)
    kind = "citation_conference_title" if "proceedings" in work.kind else "citation_journal_title"
    fields += [
        ("citation_publication_date", work.year),
        (kind, container),
        ("citation_volume", work.volume),
        ("citation_issue", work.number),
        ("citation_firstpage", work.pages.split("\u2013")[0]),
        ("citation_doi", work.doi),
    ]
    return "; ".join(f"{name}={_field(value)}" for name, value in fields if value)


def _person(person: Any) -> str:
    """Return "Family, Given" (an organisation's name as it is)."""
    return f"{cited_name(person)}, {person.given}" if person.given else cited_name(person)


_LD_TYPES = {"article": "ScholarlyArticle", "inproceedings": "ScholarlyArticle", "book": "Book"}
"""schema.org types of BibTeX entry types; any other is a `CreativeWork`."""


def _author_ld(name: str) -> dict[str, str]:
    """Return one author as schema.org reads them: a `Person`, or an `Organization` for a
    name braced whole or holding "and" (`bibliography.read.person`), its byline name."""
    kind = "Organization" if person(name).literal else "Person"
    return {"@type": kind, "name": display_name(name)}


def cited_work_ld(cited: CitedWork) -> dict[str, Any]:
    """Return a cited work as a schema.org `CreativeWork` (for `BlogPosting.citation`)."""
    work = cited.work
    data: dict[str, Any] = {"@type": _LD_TYPES.get(work.kind, "CreativeWork"), "name": cited.title}
    if work.authors:
        data["author"] = [
            {"@type": "Organization" if p.literal else "Person", "name": _display(p)}
            for p in work.authors
        ]
    if work.year:
        data["datePublished"] = work.year
    if work.container:
        data["isPartOf"] = {"@type": "CreativeWork", "name": "".join(c for _, c in work.container)}
    if work_url(work):
        data["url"] = work_url(work)
    if work.doi:
        data["identifier"] = {"@type": "PropertyValue", "propertyID": "DOI", "value": work.doi}
    return data


def _display(person: Any) -> str:
    """Return a name in reading order ("Jean-Pierre François")."""
    return " ".join(p for p in (person.given, cited_name(person), person.suffix) if p)


def blog_posting(
    config: SiteConfig,
    rendered: RenderedPost,
    authors: tuple[str, ...],
    url: str,
    description: str,
) -> dict[str, Any]:
    """Return the schema.org `BlogPosting` of a post as a JSON-ready dict.

    Fields: headline, description, url, mainEntityOfPage, datePublished, dateModified
    (the `updated:` date, else the publication date), author (one `Person` each),
    keywords (tags), inLanguage, wordCount, isPartOf (the `Blog`), identifier (its `doi:`),
    citation (the works it cites, `cited_work_ld`). Dates are ISO 8601 with
    offset. See https://schema.org/BlogPosting and Google's "Article" structured data.
    """
    meta = rendered.post.meta
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": rendered.title_text,
        "description": description,
        "url": url,
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
        "author": [_author_ld(name) for name in authors],
        "inLanguage": rendered.language(config.language),
        "wordCount": rendered.content.word_count,
        "isPartOf": {"@type": "Blog", "name": config.title, "url": config.base_url},
    }
    data |= _dates(meta.date, meta.updated)
    if meta.doi:  # as a cited work's (`cited_work_ld`)
        data["identifier"] = {"@type": "PropertyValue", "propertyID": "DOI", "value": meta.doi}
    if meta.tags:
        data["keywords"] = list(meta.tags)
    if rendered.content.citations:
        data["citation"] = [cited_work_ld(c) for c in rendered.content.citations]
    return data


def _dates(date: datetime | None, updated: datetime | None) -> dict[str, str]:
    if date is None:
        return {}
    return {"datePublished": date.isoformat(), "dateModified": (updated or date).isoformat()}
