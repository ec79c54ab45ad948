"""The front matter stage: every source under `content/` as a `Post`, parsed at most once.

A source whose file the build cache vouches for is not even read (`UnreadSource`); one whose
text is unchanged is not parsed again. Errors of every file are collected, never raised.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from postil.cache.keys import fingerprint
from postil.cache.rows import PostRow
from postil.cache.store import BuildCache
from postil.content.discover import UnreadSource, read_source, source_paths, stat_signature
from postil.content.frontmatter import parse
from postil.content.posts import check_unique_urls, make_post
from postil.errors import ContentError, Diagnostic, as_diagnostic
from postil.model import Post, SiteConfig


def load_posts(config: SiteConfig, cache: BuildCache) -> tuple[list[Post], list[Diagnostic]]:
    """Discover and parse every source into a `Post`; return them and the errors and
    warnings (unknown front matter keys) found, errors first.

    Args:
        config: the site configuration.
        cache: parsed posts of earlier builds by source path (a post with warnings is not
            kept, so its warnings are reported by every build). A kept post is reused when
            the source's path, kind and the site's time zone are the same, and either the
            file's stat signature is the recorded one and `PostRow.vouches` for it (the
            file is then not read at all: `UnreadSource`) or its text is the same. For as
            long as the cache lives (the dev server's), a post the signature vouches for is
            the very `Post` object of the last build (`BuildCache.memo`), so the later
            stages can tell by identity that it did not change.
    """
    paths, errors = source_paths(config, cache.memo("content"))
    known = cache.load("post")
    settings_of: dict[str, tuple[Path, str, str, str]] = cache.memo("post settings")
    made: dict[str, tuple[PostRow, Post]] = cache.memo("post")
    started = time.time_ns()
    posts: list[Post] = []
    warnings: list[Diagnostic] = []
    for path, rel, kind in paths:
        settings = _settings(settings_of, path, rel, kind, config.timezone)
        hit = known.get(rel)
        kept: PostRow | None = hit[1] if hit is not None and hit[0] == settings else None
        try:
            signature = stat_signature(path)
        except OSError:
            signature = None  # read_source reports it
        if kept is not None and signature == kept.signature and kept.vouches():
            last = made.get(rel)
            if last is None or last[0] is not kept:
                unread = UnreadSource(path, rel, kind, signature)
                last = made[rel] = (kept, Post(unread, *kept.post))
            posts.append(last[1])
            continue
        try:
            source = read_source(path, rel, kind)
        except ContentError as e:
            errors.append(e)
            continue
        text_digest = fingerprint(source.text)
        if kept is not None and kept.text_digest == text_digest:
            posts.append(Post(source, *kept.post))
        else:
            found: list[Diagnostic] = []
            try:
                meta, body, body_line = parse(source, config.timezone, found)
                post = make_post(source, meta, body, body_line)
            except ContentError as e:
                errors.append(e)
                continue
            posts.append(replace(post, body_digest=fingerprint(post.body)))
            warnings.extend(found)
            if found:
                continue
        if signature is not None:
            row = PostRow(text_digest, signature, started, post_fields(posts[-1]))
            if row != kept:
                cache.put("post", rel, settings, row)
    here = {rel for _, rel, _ in paths}
    cache.forget("post", known.keys() - here)
    for memo in (made, settings_of):
        for rel in memo.keys() - here:
            del memo[rel]
    errors.extend(check_unique_urls(posts))
    return posts, [as_diagnostic(e) for e in errors] + warnings


def _settings(
    memo: dict[str, tuple[Path, str, str, str]], path: Path, rel: str, kind: str, zone: str
) -> str:
    """Return the fingerprint of what a kept post is valid for besides its text: the
    source's path and kind and the site's time zone (kept in `memo` by rel)."""
    last = memo.get(rel)
    if last is not None and last[1:3] == (kind, zone) and (last[0] is path or last[0] == path):
        return last[3]
    settings = fingerprint(str(path), kind, zone)
    memo[rel] = (path, kind, zone, settings)
    return settings


def post_fields(post: Post) -> tuple[Any, ...]:
    """Return a post's fields after its source, as `Post(source, *fields)` takes them."""
    return (
        post.meta,
        post.body_start,
        post.body_line,
        post.slug,
        post.url,
        post.output_rel,
        post.body_digest,
    )
