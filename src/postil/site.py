"""Collect rendered posts into a `Site`: filter drafts and future posts, sort, build taxonomies."""

from __future__ import annotations

from datetime import datetime

from postil.model import RenderedPost, Site, SiteConfig

_EPOCH = datetime(1970, 1, 1).astimezone()


def is_published(post: RenderedPost, now: datetime, drafts: bool, future: bool) -> bool:
    """Return whether a post goes into the site: drafts need `drafts`, future dates `future`."""
    meta = post.post.meta
    if meta.draft and not drafts:
        return False
    return future or meta.date is None or meta.date <= now


def collect(
    config: SiteConfig,
    rendered: list[RenderedPost],
    now: datetime,
    drafts: bool = False,
    future: bool = False,
) -> Site:
    """Return the `Site`: published posts newest first (ties by slug), pages, and tag lists.

    Args:
        config: the site configuration.
        rendered: every rendered post and page.
        now: the build time (timezone-aware), against which future posts are judged.
        drafts: include `draft: true` posts.
        future: include posts dated after `now`.
    """
    kept = [r for r in rendered if is_published(r, now, drafts, future)]
    posts = sorted(
        (r for r in kept if r.post.source.kind == "post"),
        key=lambda r: (-(r.post.meta.date or _EPOCH).timestamp(), r.post.slug),
    )
    pages = sorted((r for r in kept if r.post.source.kind == "page"), key=lambda r: r.post.url)
    by_tag: dict[str, list[RenderedPost]] = {}
    for r in posts:
        for tag in r.post.meta.tags:
            by_tag.setdefault(tag, []).append(r)
    tags = tuple(
        (tag, tuple(by_tag[tag])) for tag in sorted(by_tag, key=lambda t: (t.casefold(), t))
    )
    return Site(config=config, posts=tuple(posts), pages=tuple(pages), tags=tags)
