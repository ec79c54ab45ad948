"""The front matter stage: every source under `content/` as a `Post`, parsed at most once.

A source whose file the build cache vouches for is not even read (`UnreadSource`); one whose
text is unchanged is not parsed again. Errors of every file are collected, never raised.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import is_, ne
from pathlib import Path
from typing import Any

from postil.cache.keys import fingerprint
from postil.cache.rows import PostRow
from postil.cache.store import BuildCache
from postil.content.discover import (
    CONTENT_DIR,
    UnreadSource,
    dropped_characters_warning,
    read_source,
    signature_of,
    source_paths,
)
from postil.content.frontmatter import parse
from postil.content.posts import (
    check_unique_urls,
    distinct_slugs,
    empty_file,
    empty_section_page,
    make_post,
    section_index,
)
from postil.errors import ContentError, Diagnostic, Location, Severity, as_diagnostic
from postil.model import Post, SiteConfig


def load_posts(
    config: SiteConfig,
    cache: BuildCache,
    changed: Collection[Path] | None = None,
    entries: Collection[Path] | None = None,
) -> tuple[list[Post], list[Diagnostic]]:
    """Discover and parse every source into a `Post`; return them and the errors and
    warnings (unknown front matter keys) found, errors first.

    Args:
        config: the site configuration.
        cache: parsed posts of earlier builds by source path (a post with warnings is not
            kept, so its warnings are reported by every build). A kept post is reused when
            the source's path in the site, kind and the site's time zone are the same, and
            either the file's stat signature is the recorded one and `PostRow.vouches` for
            it (the file is then not read at all: `UnreadSource`) or its text is the same (a
            fresh clone gives every file a new inode and time: each is read and compared by
            its text, none parsed again). For as long as the cache lives (the dev
            server's), a post the signature vouches for is the very `Post` object of the
            last build (`BuildCache.memo`), so the later stages can tell by identity that it
            did not change; and when `content/` lists the same sources as last time, only
            those whose signature changed (or that were not vouched for) are looked at
            again: a rebuild costs one `stat` a source.
        changed: the files that may have changed since the last call with this cache
            (what a dev server's watcher saw: `postil.serve.engine.DevBuild` says when
            that is proof), or None: any file. Given, and when `content/` lists the same
            sources as last time and no symlink leads to one (a file reached through a
            link changes under its target's name), only the sources in `changed` and
            those not yet vouched for are examined again; every other keeps the signature
            it had, so a rebuild costs no `stat` of the sources the edit left alone.
        entries: the entries of `content/`'s directories made, removed or renamed since
            the last call with this cache, when the same watcher proves no other was, or
            None (`postil.content.discover.walk_content`: a directory whose entries are
            the same is not listed again).
    """
    listed = cache.memo("content")
    paths, errors = source_paths(config, listed, entries)
    rels = [rel for _, rel, _ in paths]
    memo = cache.memo("post")
    last: _Loaded | None = memo.get("loaded")
    place = (config.root, config.timezone)
    same = last is not None and last.place == place and last.rels == rels
    restat = _examine(config, last, changed) if same and not listed.get("linked") else None
    linked: set[int] = set()  # sources with another hard link: written under another name
    if restat is None or last is None:
        signatures = [_stat(path, i, linked) for i, (path, _, _) in enumerate(paths)]
    else:
        signatures, linked = list(last.signatures), set(last.linked)
        for i in restat:
            signatures[i] = _stat(paths[i][0], i, linked)
    if same and last is not None:
        differ = map(ne, signatures, last.signatures)
        redo = sorted({*compress(range(len(rels)), differ), *last.unstable})
        results = list(last.results)
        known = cache.get_many("post", [rels[i] for i in redo])
    else:
        redo = list(range(len(rels)))
        before = dict(zip(last.rels, last.results, strict=True)) if last is not None else {}
        results = [before.get(rel, _Result()) for rel in rels]
        known = cache.load("post")
        cache.forget("post", known.keys() - set(rels))
    started = time.time_ns()
    settings_of: dict[str, tuple[str, str, str]] = memo.setdefault("settings", {})
    for i in redo:
        path, rel, kind = paths[i]
        settings = _settings(settings_of, rel, kind, config.timezone)
        hit = known.get(rel)
        kept: PostRow | None = hit[1] if hit is not None and hit[0] == settings else None
        made = (cache, paths[i], signatures[i], kept, results[i], started, settings)
        results[i] = _load(*made, config.timezone)
    if len(settings_of) > len(rels):
        for rel in settings_of.keys() - set(rels):
            del settings_of[rel]
    unstable = [i for i in redo if not results[i].stable]
    index = last.index() if same and last is not None else {}  # the same sources, in order
    memo["loaded"] = _Loaded(place, rels, signatures, results, unstable, sorted(linked), index)
    posts = distinct_slugs([r.post for r in results if r.post is not None])
    warnings = group_unknown_keys([w for r in results for w in r.warnings])
    errors += [r.error for r in results if r.error is not None]
    errors.extend(_unique_urls(posts, memo))
    return posts, [as_diagnostic(e) for e in errors] + warnings


def _unique_urls(posts: list[Post], memo: dict[str, Any]) -> list[ContentError]:
    """Return `check_unique_urls(posts)`; `memo` keeps the last answer with its posts, the
    same answer while each post is the same object or has the same source path, URL, slug
    and aliases (the posts that are not the same are found by identity, in C)."""
    last = memo.get("unique")
    if last is not None and len(last[0]) == len(posts):
        before = last[0]
        moved = [i for i, same in enumerate(map(is_, posts, before)) if not same]
        if all(_same_url(before[i], posts[i]) for i in moved):
            memo["unique"] = (posts, last[1])
            return list(last[1])
    memo["unique"] = (posts, check_unique_urls(posts))
    return list(memo["unique"][1])


def _same_url(a: Post, b: Post) -> bool:
    return (
        a.source.rel == b.source.rel
        and a.url == b.url
        and a.slug == b.slug
        and a.meta.aliases == b.meta.aliases
    )


def _examine(
    config: SiteConfig, last: _Loaded | None, changed: Collection[Path] | None
) -> list[int] | None:
    """Return the indices of the sources `last` was made from (this build's too) of
    the files to `stat` again when only `changed` may have changed: those in it, those
    `last` found racy (`_Result.stable` false) and those with another hard link; None
    when every source must be examined (no `changed`, or a changed file outside
    `content/` that could be a source)."""
    if changed is None or last is None:
        return None
    content = config.root / CONTENT_DIR
    index = last.index()
    found = {*last.unstable, *last.linked}
    for path in changed:
        try:
            rel = f"{CONTENT_DIR}/{path.relative_to(content).as_posix()}"
        except ValueError:
            return None
        i = index.get(rel)
        if i is not None:
            found.add(i)
    return sorted(found)


@dataclass(frozen=True)
class _Result:
    """What `load_posts` made of one source.

    Attributes:
        post: the post (None: the source failed).
        error: why it failed.
        warnings: what parsing it warned about (unknown front matter keys).
        row: the cache row the post was made from, when the row vouched for the file.
        stable: the post comes from a row that vouched for the file: while the file's
            signature stays the same, the same post is the answer.
    """

    post: Post | None = None
    error: ContentError | None = None
    warnings: tuple[Diagnostic, ...] = ()
    row: PostRow | None = None
    stable: bool = False


@dataclass(frozen=True)
class _Loaded:
    """The sources of the last `load_posts` and what it made of each (kept in its memo).

    Attributes:
        place: the site's root and time zone.
        rels: the sources, in order.
        signatures: their stat signatures.
        results: what was made of each.
        unstable: the indices of the results that are not `_Result.stable`.
        linked: the indices of the sources whose file has more than one hard link (a
            write under another name is not a change of this path for a watcher).
    """

    place: tuple[Path, str]
    rels: list[str]
    signatures: list[tuple[int, int, int, int] | None]
    results: list[_Result]
    unstable: list[int]
    linked: list[int]
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def index(self) -> dict[str, int]:
        """Return each source's index in `rels`, by its rel (made on first use)."""
        if not self._index and self.rels:
            self._index.update((rel, i) for i, rel in enumerate(self.rels))
        return self._index


def _stat(path: Path, index: int, linked: set[int]) -> tuple[int, int, int, int] | None:
    """Return the file's `stat_signature`, or None when it cannot be examined (reading it
    then reports why); add `index` to `linked` when the file has another hard link."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if st.st_nlink > 1:
        linked.add(index)
    return signature_of(st)


def _load(
    cache: BuildCache,
    source_path: tuple[Path, str, str],
    signature: tuple[int, int, int, int] | None,
    kept: PostRow | None,
    last: _Result,
    started: int,
    settings: str,
    zone: str,
) -> _Result:
    """Return the post of one source (see `load_posts`): `kept` its cache row if valid
    for `settings` (`_settings`), `last` what the last build made of it (whose post is
    reused when made from the same row), `started` when this build started, `zone` the
    site's time zone."""
    path, rel, kind = source_path
    section = section_index(rel)
    if section is not None:  # not content: never read, reported on every build
        return _Result(warnings=(Diagnostic(Severity.WARNING, Location(rel, 1, 1), section),))
    if kept is not None and signature == kept.signature and kept.vouches():
        if last.row is kept and last.post is not None:
            return _Result(last.post, row=kept, stable=True)
        post = Post(UnreadSource(path, rel, kind, signature), *kept.post)
        return _Result(post, row=kept, stable=True)
    try:
        source = read_source(path, rel, kind)
    except ContentError as e:
        return _Result(error=e)
    text_digest = fingerprint(source.text)
    dropped = dropped_characters_warning(source)
    if kept is not None and kept.text_digest == text_digest and dropped is None:
        post = Post(source, *kept.post)
    else:
        found: list[Diagnostic] = [] if dropped is None else [dropped]
        try:
            # an empty file first: Hugo's headless section of images is an empty `_index.md`
            empty = empty_section_page(rel, source.text) or empty_file(source.text)
            if empty is None:
                meta, body, body_line = parse(source, zone, found)
                empty = empty_section_page(rel, body)
            if empty is not None:
                return _Result(warnings=(Diagnostic(Severity.WARNING, Location(rel, 1, 1), empty),))
            made = make_post(source, meta, body, body_line)
        except ContentError as e:
            return _Result(error=e)
        post = replace(made, body_digest=fingerprint(made.body))
        if found:
            return _Result(post, warnings=tuple(found))
    if signature is not None:
        row = PostRow(text_digest, signature, started, post_fields(post))
        if row != kept:
            cache.put("post", rel, settings, row)
    return _Result(post)


def _settings(memo: dict[str, tuple[str, str, str]], rel: str, kind: str, zone: str) -> str:
    """Return the fingerprint of what a kept post is valid for besides its text: the
    source's path in the site (not the folder: see `config_digest`) and kind and the
    site's time zone (kept in `memo` by rel)."""
    last = memo.get(rel)
    if last is not None and last[:2] == (kind, zone):
        return last[2]
    settings = fingerprint(rel, kind, zone)
    memo[rel] = (kind, zone, settings)
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


UNKNOWN_KEY = re.compile(r"unknown front matter key `([^`]+)` is ignored")
"""The start of `frontmatter`'s warning for a key postil does not read."""
UNOPENED = re.compile(r"(front matter has no opening `---`)")
"""The start of `frontmatter`'s warning for front matter without its opening line, which
every post of an old Hexo site has (Hexo 3's `scaffolds/post.md` wrote none)."""
GROUPED = (UNKNOWN_KEY, UNOPENED)
"""Warnings said once for the site, at their first file (`group_unknown_keys`): group 1 is
what must be the same (the key), and the other files are named after it."""


def group_unknown_keys(warnings: list[Diagnostic], named: int = 3) -> list[Diagnostic]:
    """Return `warnings` with each unknown front matter key warned once for the site: at
    its first file, naming how many other files write it and the first `named` of them.

    A Hugo site writes `weight:` in every page (26 of a Hextra site's 45 warnings said
    the same thing); one warning a key says it as well, and the rest stay in order. So is
    front matter without its opening `---` (`UNOPENED`: every post of an old Hexo site).
    """
    places: dict[tuple[int, str], list[Diagnostic]] = {}
    for warning in warnings:
        if (key := _grouping_key(warning)) is not None:
            places.setdefault(key, []).append(warning)
    if all(len(same) == 1 for same in places.values()):
        return warnings
    grouped: list[Diagnostic] = []
    for warning in warnings:
        key = _grouping_key(warning)
        same = places.get(key, []) if key is not None else []
        if len(same) < 2:
            grouped.append(warning)
        elif same[0] is warning:
            others = same[1:]
            listed = ", ".join(str(other.location) for other in others[:named])
            more = ", …" if len(others) > named else ""
            files = "file" if len(others) == 1 else "files"
            where = f" here and in {len(others)} other {files} ({listed}{more})"
            found = GROUPED[key[0]].match(warning.message) if key else None
            end = found.end() if found else 0
            message = warning.message[:end] + where + warning.message[end:]
            grouped.append(replace(warning, message=message))
    return grouped


def _grouping_key(warning: Diagnostic) -> tuple[int, str] | None:
    """Return which of `GROUPED` a warning is and what must be the same, or None."""
    for kind, pattern in enumerate(GROUPED):
        if (found := pattern.match(warning.message)) is not None:
            return kind, found[1]
    return None
