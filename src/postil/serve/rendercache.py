"""Rendered Markdown kept in memory by content hash, valid as long as the links it read are.

Like the build cache (`postil.parallel.Rendered`), an entry is keyed by what is in the file
and the site configuration, and records which entries of the links map rendering looked up;
it stays valid while those look-ups give the same answers. The dev server keeps its entries
in memory, least recently used out.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from postil import __version__
from postil.build import reading_minutes
from postil.cache import fingerprint
from postil.markdown import create_markdown, render_markdown
from postil.model import Post, RenderedPost, SiteConfig
from postil.parallel import LinkReads, Rendered, render_state

_WIDGET_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})\s*\{", re.MULTILINE)
SPARE_ENTRIES = 256


def content_key(config: SiteConfig, post: Post) -> str:
    """Return the hash of everything a post's Markdown rendering reads except the links map.

    Covers postil's version, the site configuration (macros, base path, …), the source path,
    the body and its first line, and the post's macros: `postil.build.markdown_key` without
    the widget templates, whose changes `MarkdownCache.forget` handles for widget posts only.
    """
    return fingerprint(
        __version__,
        repr(config),
        post.source.rel,
        str(post.body_line),
        repr(post.meta.macros),
        post.body,
    )


def uses_widgets(post: Post) -> bool:
    """Return whether a post's body has a widget fence (```` ```{name} ````)."""
    return bool(_WIDGET_FENCE.search(post.body))


class MarkdownCache:
    """Rendered Markdown by `content_key`, each entry valid while the links it read hold.

    Keeps every entry used by the last build plus `SPARE_ENTRIES` older ones (so undoing an
    edit is a cache hit), least recently used first out.
    """

    def __init__(self) -> None:
        self._entries: OrderedDict[str, Rendered] = OrderedDict()
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
    ) -> Rendered:
        self.misses += 1
        self._md = self._md or create_markdown()
        reads = LinkReads(links)
        state = render_state(config, post, reads, templates)  # the state `postil build` uses
        return Rendered(render_markdown(self._md, post.body, state), reads.reads())

    def forget(self, config: SiteConfig, posts: list[Post]) -> None:
        """Drop the entries of `posts` (e.g. widget posts after a widget template changed)."""
        for post in posts:
            self._entries.pop(content_key(config, post), None)

    def trim(self, keep: int) -> None:
        """Drop the least recently used entries beyond `keep + SPARE_ENTRIES`."""
        while len(self._entries) > keep + SPARE_ENTRIES:
            self._entries.popitem(last=False)
