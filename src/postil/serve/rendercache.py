"""Rendered Markdown kept in memory by content hash, valid as long as the links it read are.

`postil.build.markdown_key` puts the URLs of *all* posts into every post's key, which is
right for one build but makes every key change when any post is added or renamed, and costs
a hash over every URL per post (seconds at 5,000 posts). The dev server instead keys a
post's Markdown by what is in the file (body, where it starts, macros, postil's version) and
records which entries of the links map rendering actually looked up: the entry stays valid
while those look-ups give the same answers.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from postil import __version__
from postil.build import reading_minutes
from postil.markdown import RenderedMarkdown, create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.model import Post, RenderedPost, SiteConfig

_WIDGET_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})\s*\{", re.MULTILINE)
SPARE_ENTRIES = 256


class LinkReads(Mapping[str, str]):
    """A read-only view of the links map that records which keys were looked up.

    Iterating over it (or asking its length) records that the whole map was read.
    """

    def __init__(self, links: Mapping[str, str]) -> None:
        self._links = links
        self.reads: dict[str, str | None] = {}
        self.whole = False

    def __getitem__(self, key: str) -> str:
        value = self._links.get(key)
        self.reads[key] = value
        if value is None:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self._links)

    def __len__(self) -> int:
        self.whole = True
        return len(self._links)


@dataclass(frozen=True)
class _Entry:
    content: RenderedMarkdown
    reads: tuple[tuple[str, str | None], ...]
    links: Mapping[str, str] | None  # the whole map, when rendering iterated over it

    def valid_for(self, links: Mapping[str, str]) -> bool:
        if self.links is not None and self.links is not links and self.links != links:
            return False
        return all(links.get(key) == value for key, value in self.reads)


def content_key(config: SiteConfig, post: Post) -> str:
    """Return the hash of everything in a post's Markdown rendering except the links map.

    Covers postil's version, the source path, the body and its first line, site and post
    macros: the same parts as `postil.build.markdown_key` minus the links.
    """
    digest = hashlib.sha256()
    for part in (
        __version__,
        post.source.rel,
        str(post.body_line),
        post.body,
        repr(sorted(dict(config.math_macros).items())),
        repr(post.meta.macros),
    ):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def uses_widgets(post: Post) -> bool:
    """Return whether a post's body has a widget fence (```` ```{name} ````)."""
    return bool(_WIDGET_FENCE.search(post.body))


class MarkdownCache:
    """Rendered Markdown by `content_key`, each entry valid while the links it read hold.

    Keeps every entry used by the last build plus `SPARE_ENTRIES` older ones (so undoing an
    edit is a cache hit), least recently used first out.
    """

    def __init__(self) -> None:
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._md: Any = None
        self.misses = 0

    def render(
        self, config: SiteConfig, post: Post, links: Mapping[str, str], templates: Any
    ) -> RenderedPost:
        """Return `post` rendered, from the cache when an entry is valid for `links`.

        Args:
            config: the site configuration (macros, words per minute).
            post: the post.
            links: source rel -> site-relative URL of every post.
            templates: the Jinja2 environment widgets render with.
        """
        key = content_key(config, post)
        entry = self._entries.get(key)
        if entry is None or not entry.valid_for(links):
            entry = self._render(config, post, links, templates)
            self._entries[key] = entry
        self._entries.move_to_end(key)
        minutes = reading_minutes(entry.content.word_count, config.words_per_minute)
        return RenderedPost(post=post, content=entry.content, reading_minutes=minutes)

    def _render(
        self, config: SiteConfig, post: Post, links: Mapping[str, str], templates: Any
    ) -> _Entry:
        self.misses += 1
        self._md = self._md or create_markdown()
        reads = LinkReads(links)
        state = RenderState(
            path=post.source.rel,
            body_line=post.body_line,
            macros=dict(config.math_macros) | dict(post.meta.macros),
            links=reads,
            templates=templates,
        )
        content = render_markdown(self._md, post.body, state)
        return _Entry(content, tuple(reads.reads.items()), links if reads.whole else None)

    def forget(self, config: SiteConfig, posts: list[Post]) -> None:
        """Drop the entries of `posts` (e.g. widget posts after a widget template changed)."""
        for post in posts:
            self._entries.pop(content_key(config, post), None)

    def trim(self, keep: int) -> None:
        """Drop the least recently used entries beyond `keep + SPARE_ENTRIES`."""
        while len(self._entries) > keep + SPARE_ENTRIES:
            self._entries.popitem(last=False)
