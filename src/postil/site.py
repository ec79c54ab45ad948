"""Collect rendered posts into a `Site`: filter drafts and future posts, sort, build taxonomies.

Also the shapes the list pages need from a site: pagination, unique tag slugs, years.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from itertools import compress
from operator import is_not
from pathlib import Path
from typing import Any

from postil.content.posts import tag_slug
from postil.model import FrontMatter, Post, RenderedPost, Site, SiteConfig


def is_published(meta: FrontMatter, now: datetime, drafts: bool, future: bool) -> bool:
    """Return whether a post goes into the site: drafts need `drafts`, future dates `future`."""
    if meta.draft and not drafts:
        return False
    return future or meta.published_at is None or meta.published_at <= now


def collect(
    config: SiteConfig,
    rendered: list[RenderedPost],
    now: datetime,
    drafts: bool = False,
    future: bool = False,
    files: tuple[tuple[str, Path], ...] = (),
    memo: dict[str, Any] | None = None,
) -> Site:
    """Return the `Site`: published posts newest first (ties by slug), pages, and tag lists.

    Args:
        config: the site configuration.
        rendered: every rendered post and page.
        now: the build time (timezone-aware), against which future posts are judged.
        drafts: include `draft: true` posts.
        future: include posts dated after `now`.
        files: the static files and content assets (`postil.assets.SiteAssets.files`).
        memo: a scratch dictionary (`BuildCache.memo`) keeping the order of the last call:
            while every post has the same place (front matter, slug, URL, kind) and no
            post's date passed since, the same order, tags and previews are taken again.
    """
    memo = memo if memo is not None else {}
    last: _Order | None = memo.get("order")
    if last is None or not last.fits(config, rendered, now, drafts, future):
        last = memo["order"] = _Order.of(config, rendered, now, drafts, future)
    elif _not_same(last.inputs[1], rendered):  # the same places: keep these posts to compare
        inputs = (config, [r.post for r in rendered], drafts, future)
        last = memo["order"] = replace(last, inputs=inputs)
    pick = rendered.__getitem__
    tags = tuple((tag, tuple(map(pick, found))) for tag, found in last.tags)
    posts, pages = tuple(map(pick, last.posts)), tuple(map(pick, last.pages))
    return Site(config, posts, pages, tags, files, last.previews)


@dataclass(frozen=True)
class _Order:
    """Where `collect` puts each post, by its index in the list it was given.

    Attributes:
        inputs: the configuration, the posts, `drafts` and `future` it was made from.
        since: the build time it was made at.
        until: the first date of a post after `since` (None: none), when a post may be
            published or stop being a preview.
        posts: the published posts, newest first.
        pages: the pages, by URL.
        tags: each tag and its posts, newest first, tags by name.
        previews: as `Site.previews`.
    """

    inputs: tuple[SiteConfig, list[Post], bool, bool]
    since: datetime
    until: datetime | None
    posts: list[int]
    pages: list[int]
    tags: list[tuple[str, list[int]]]
    previews: frozenset[str]

    @classmethod
    def of(
        cls,
        config: SiteConfig,
        rendered: list[RenderedPost],
        now: datetime,
        drafts: bool,
        future: bool,
    ) -> _Order:
        """Return the order of `rendered` (see `collect`)."""
        kept = [i for i, r in enumerate(rendered) if is_published(r.post.meta, now, drafts, future)]
        posts = sorted(
            (i for i in kept if rendered[i].post.source.kind == "post"),
            key=lambda i: _newest_first(rendered[i]),
        )
        pages = sorted(
            (i for i in kept if rendered[i].post.source.kind == "page"),
            key=lambda i: rendered[i].post.url,
        )
        tags = _terms([(i, rendered[i].post.meta.tags) for i in posts])
        previews = frozenset(
            rendered[i].post.url
            for i in kept
            if not is_published(rendered[i].post.meta, now, drafts=False, future=False)
        )
        dates = [d for r in rendered if (d := r.post.meta.date) is not None and d > now]
        inputs = (config, [r.post for r in rendered], drafts, future)
        return cls(inputs, now, min(dates, default=None), posts, pages, tags, previews)

    def fits(
        self,
        config: SiteConfig,
        rendered: list[RenderedPost],
        now: datetime,
        drafts: bool,
        future: bool,
    ) -> bool:
        """Return whether this order is the one of `rendered` at `now`."""
        before, posts, was_drafts, was_future = self.inputs
        return (
            self.since <= now
            and (self.until is None or now < self.until)
            and (drafts, future) == (was_drafts, was_future)
            and len(posts) == len(rendered)
            and config == before
            and all(_same_place(posts[i], rendered[i].post) for i in _not_same(posts, rendered))
        )


def _not_same(posts: list[Post], rendered: list[RenderedPost]) -> list[int]:
    """Return the indices where `rendered` holds another `Post` than `posts` (compared by
    identity in C: an edit makes one or two of 1,000s)."""
    now = [r.post for r in rendered]
    return list(compress(range(len(posts)), map(is_not, posts, now)))


def _same_place(post: Post, new: Post) -> bool:
    """Return whether `new` sorts and files like `post` (`collect` reads nothing else)."""
    return post is new or (
        post.meta == new.meta
        and post.slug == new.slug
        and post.url == new.url
        and post.source.kind == new.source.kind
    )


def _newest_first(r: RenderedPost) -> tuple[bool, float, str]:
    """Sort key of a post: dated posts newest first (any year, 1970 and before too), then
    undated ones (README: "sorts last"); ties by slug. Dates are timezone-aware, so the key
    is the same whatever the `TZ` of the build."""
    date = r.post.meta.date
    return date is None, -date.timestamp() if date is not None else 0.0, r.post.slug


@dataclass(frozen=True)
class Paginator:
    """One page of a paginated list: its posts, number (1-based), count, and neighbours.

    Attributes:
        items: the posts on this page, in site order.
        number: this page's number, 1 for the first.
        count: how many pages the list has (at least 1).
        prev_url: site-relative URL of the previous (newer) page, or None on the first.
        next_url: site-relative URL of the next (older) page, or None on the last.
    """

    items: tuple[RenderedPost, ...]
    number: int
    count: int
    prev_url: str | None
    next_url: str | None


def page_url(number: int, prefix: str = "") -> str:
    """Return the site-relative URL of list page `number`: `prefix` for 1, `prefix`page/2/ …"""
    return prefix if number == 1 else f"{prefix}page/{number}/"


def paginate(posts: tuple[RenderedPost, ...], size: int, prefix: str = "") -> list[Paginator]:
    """Split posts into pages of `size` under `prefix` (an empty list still has one page)."""
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


def _terms(tagged: list[tuple[int, tuple[str, ...]]]) -> list[tuple[str, list[int]]]:
    """Return each taxonomy term with the indices of its posts (in the order given), terms
    by name: the tags of `tagged` (index, tags) grouped by `tag_slug`, so `Math`, `math`
    and `#math` are one term at one URL whatever other posts say. A term is named by its
    spelling most posts use (ties: the first by `_by_name`), without Obsidian's `#`."""
    posts: dict[str, dict[int, None]] = {}
    spellings: dict[str, Counter[str]] = {}
    for i, tags in tagged:
        for tag in tags:
            key = tag_slug(tag)
            posts.setdefault(key, {})[i] = None
            spellings.setdefault(key, Counter())[tag.strip().lstrip("#").strip() or tag] += 1
    named = {key: _usual(spellings[key]) for key in posts}
    return [
        (named[key], list(posts[key])) for key in sorted(posts, key=lambda k: _by_name(named[k]))
    ]


def _usual(spellings: Counter[str]) -> str:
    """Return the spelling used most, the first by name among the most used."""
    most = max(spellings.values())
    return min((s for s, n in spellings.items() if n == most), key=_by_name)


def _by_name(name: str) -> tuple[str, str]:
    return name.casefold(), name


def tag_slugs(tags: tuple[tuple[str, tuple[RenderedPost, ...]], ...]) -> dict[str, str]:
    """Return term name -> URL slug (`tag_slug`) for `Site.tags`, whose names have one slug
    each (`_terms`). A post's own spelling of a term finds it through `tag_slug` too.
    (Every page that shows a post's tags asks: the answer for the same names is made once.)"""
    return dict(_slugs(tuple(tag for tag, _ in tags)))


@lru_cache(maxsize=4)
def _slugs(tags: tuple[str, ...]) -> dict[str, str]:
    """Return `tag_slugs` of the terms named `tags` (never mutated: cached)."""
    return {tag: tag_slug(tag) for tag in tags}


def archive_years(
    posts: tuple[RenderedPost, ...],
) -> list[tuple[int | None, tuple[RenderedPost, ...]]]:
    """Group posts (newest first) by year of their date, newest year first; undated last."""
    years: dict[int | None, list[RenderedPost]] = {}
    for r in posts:
        years.setdefault(r.post.meta.date.year if r.post.meta.date else None, []).append(r)
    ordered = sorted(years, key=lambda y: (y is None, -(y or 0)))
    return [(year, tuple(years[year])) for year in ordered]
