"""The dev server's writer: the write stage (`postil.write.write_site`) into memory.

A `MemoryWriter` holds each output file as bytes, or, for the costly pages that show every
post (archive, tag index, feeds, sitemap), as a `Lazy` that renders the page when it is
first requested: their cost grows with the site, most edits are looked at on the post's
own page, and a browser that shows one of them reloads it, and so requests it. A page is
deferred only once its template has rendered without error in this server since the
templates last changed, so a template error is reported at once, as `postil build`
reports it. `SiteFiles` is the site the HTTP server reads: the bytes, and the `Lazy`s.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

import jinja2

from postil.cache.manifest import content_token, static_token
from postil.errors import OutputError
from postil.model import OutputData, OutputFile, output_bytes
from postil.output import check_rel
from postil.pages import PageJob, render_job
from postil.parallel import render_page_bytes

T = TypeVar("T")


class Lazy(Generic[T]):
    """A value (a page's bytes, the files of a group) made on first use, once, under a lock
    (the builder's: rendering a deferred page must not overlap a build).

    Args:
        make: returns the value; may raise (e.g. `TemplateError`), which reaches the reader.
        lock: held while making.
    """

    def __init__(self, make: Callable[[], T], lock: threading.RLock) -> None:
        self._make: Callable[[], T] | None = make
        self._lock = lock
        self._data: T | None = None

    def __call__(self) -> T:
        with self._lock:
            if self._data is None:
                assert self._make is not None
                self._data = self._make()
                self._make = None  # drop the site it rendered from
            return self._data


@dataclass(frozen=True)
class Group:
    """Files under one prefix made together when first asked for (the search index).

    Attributes:
        key: names the files (`postil.write.Writer.later`).
        files: makes them, by output rel.
    """

    key: str
    files: Lazy[dict[str, bytes]]


@dataclass(frozen=True)
class Entry:
    """One file of the served site.

    Attributes:
        token: identifies the bytes: `content_token`, `static_token`, or "deferred " and
            the page key for a deferred page.
        data: the bytes, or None while deferred.
        lazy: makes the bytes of a deferred page.
    """

    token: str
    data: bytes | None = None
    lazy: Lazy[bytes] | None = None


class MemoryWriter:
    """A `postil.write.Writer` that keeps the site in memory.

    Args:
        previous: the entries of the last good build, by output path.
        lock: the lock deferred pages render under.
        templates_ok: templates that rendered without error since the templates last
            changed; pages of these may be deferred. Updated as pages render.
        proven: (output rel, page key) of pages known to render without error: rendered
            by this server, or by an earlier `postil build` or dev server (their "page" and
            "served" rows in `.postil-cache/`). A page's key covers everything its bytes
            are made from (`postil.cache.keys.PageKeys`), templates included, so a page
            whose key is proven cannot fail: one the server does not hold yet (the first
            build's) is deferred like the pages of every post, and its template counts as
            rendered without error. Updated as pages render.

        groups: the groups of files of the last good build, by prefix (`later`).
        on_first: called with the rels of the pages rendered first (`render`'s `first`)
            once they are in `entries` and before the other pages render, so the dev
            server can serve an edited post's page before its neighbours' and lists'.
            Only in a rebuild (a previous build's entries) with other pages to render.

    Attributes:
        entries: the files of the new site, by output rel.
        groups: its groups of files made when first asked for, by prefix.
        rendered: pages rendered now (not deferred).
        written: files given as bytes (`write`, `copy`).
        proved: (rel, key) of the pages rendered now, for the cache's "served" rows.
    """

    def __init__(
        self,
        previous: Mapping[str, Entry],
        lock: threading.RLock,
        templates_ok: set[str],
        proven: set[tuple[str, str]] | None = None,
        groups: Mapping[str, Group] | None = None,
        on_first: Callable[[list[str]], None] | None = None,
    ) -> None:
        self.previous = previous
        self._on_first = on_first
        self.previous_groups = groups if groups is not None else {}
        self.entries: dict[str, Entry] = {}
        self.groups: dict[str, Group] = {}
        self.rendered = 0
        self.written = 0
        self.proved: list[tuple[str, str]] = []
        self._lock = lock
        self._templates_ok = templates_ok
        self._proven = proven if proven is not None else set()

    def __contains__(self, rel: str) -> bool:
        return rel in self.entries

    def reuse(self, rel: str, token: str) -> bool:
        """Keep the previous build's file at `rel` if its token is `token`; say if kept."""
        old = self.previous.get(rel)
        if rel in self.entries or old is None or old.token != token:
            check_rel(rel)  # a file kept from the last build had its path checked then
            return rel in self.entries
        self.entries[rel] = old
        return True

    def write(self, rel: str, data: OutputData) -> None:
        """Put `data` at `rel` unless a file was already put there (`Pieces` joined: the
        served site is kept whole in memory)."""
        check_rel(rel)
        if rel not in self.entries:
            whole = output_bytes(data)
            self.entries[rel] = Entry(content_token(whole), whole)
            self.written += 1

    def copy(self, rel: str, source: Path) -> None:
        """Put the bytes of the static file `source` at `rel` (kept if unchanged).

        Raises:
            OutputError: the file cannot be read.
        """
        try:
            token = static_token(source)
            if not self.reuse(rel, token):
                self.entries[rel] = Entry(token, source.read_bytes())
                self.written += 1
        except OSError as e:
            raise OutputError(f"cannot read {source}: {e.strerror}") from e

    def later(self, prefix: str, key: str, make: Callable[[], list[OutputFile]]) -> None:
        """Serve the files `make` returns under `prefix` when one is first asked for (the
        last build's, if it had the same `key`).

        Raises (when made): `OutputError` for a file outside `prefix` or the output, and
        whatever `make` raises.
        """
        old = self.previous_groups.get(prefix)
        if old is not None and old.key == key:
            self.groups[prefix] = old
            return

        def files() -> dict[str, bytes]:
            made = {}
            for out in make():
                check_rel(out.rel)
                if not out.rel.startswith(prefix):
                    raise OutputError(f"refusing to put {out.rel!r} outside {prefix!r}")
                made[out.rel] = output_bytes(out.data)
            return made

        self.groups[prefix] = Group(key, Lazy(files, self._lock))

    def render(
        self,
        env: jinja2.Environment,
        jobs: Sequence[tuple[PageJob, str]],
        workers: int | None = None,
        first: Collection[str] = (),
    ) -> list[tuple[str, str]]:
        """Render (or defer) each (job, key); return (rel, token) of each, in order.

        The pages rendered now go through `postil.parallel.render_page_bytes`: in forked
        workers when there are many and no thread runs yet (the first build, before the
        server starts), so a first build without a warm cache is as fast as `postil build`.
        In a rebuild, the pages of `first` (the edited posts' own) render before the
        others, and `on_first` hears of them in between.

        Raises:
            TemplateError: a page rendered now failed.
        """
        now = self._defer(env, jobs)
        wanted = set(first)
        early = [(job, key) for job, key in now if job.rel in wanted] if wanted else []
        if early and len(early) < len(now) and self.previous and self._on_first is not None:
            self._render(env, early, workers)
            self._on_first([job.rel for job, _ in early])
            now = [(job, key) for job, key in now if job.rel not in wanted]
        self._render(env, now, workers)
        return [(job.rel, self.entries[job.rel].token) for job, _ in jobs]

    def render_first(
        self,
        env: jinja2.Environment,
        jobs: Sequence[tuple[PageJob, str]],
        workers: int | None = None,
    ) -> list[tuple[str, str]]:
        """Render (or defer) each (job, key) of the edited posts' own pages, before the
        write stage looks at any other page; in a rebuild, `on_first` hears of those
        rendered now at once. Return (rel, token) of each, in order.

        Raises:
            TemplateError: a page failed.
        """
        now = self._defer(env, jobs)
        self._render(env, now, workers)
        if now and self.previous and self._on_first is not None:
            self._on_first([job.rel for job, _ in now])
        return [(job.rel, self.entries[job.rel].token) for job, _ in jobs]

    def _defer(
        self, env: jinja2.Environment, jobs: Sequence[tuple[PageJob, str]]
    ) -> list[tuple[PageJob, str]]:
        """Put each deferrable (job, key) in `entries` to be made on first read; return
        the others, to render now."""
        now = []
        for job, key in jobs:
            if (job.rel, key) in self._proven:
                self._templates_ok.add(job.template)
            if self._deferrable(job, key):
                maker = Lazy(_maker(env, job), self._lock)
                self.entries[job.rel] = Entry(f"deferred {key}", None, maker)
            else:
                now.append((job, key))
        return now

    def _render(
        self, env: jinja2.Environment, jobs: Sequence[tuple[PageJob, str]], workers: int | None
    ) -> None:
        """Render each (job, key) now and put its bytes in `entries`."""
        pages = render_page_bytes(env, [job for job, _ in jobs], workers)
        for (job, key), data in zip(jobs, pages, strict=True):
            self._templates_ok.add(job.template)
            self._proven.add((job.rel, key))
            self.proved.append((job.rel, key))
            self.entries[job.rel] = Entry(content_token(data), data)
            self.rendered += 1

    def _deferrable(self, job: PageJob, key: str) -> bool:
        """Return whether to defer a page: costly (`PageJob.lazy`), new to this server
        with a proven key (the first build's pages: a page the server holds is rendered,
        so whether its bytes changed is known), or showing every post once its template
        rendered without error."""
        if job.lazy or ((job.rel, key) in self._proven and job.rel not in self.previous):
            return True
        return job.deps is None and (not job.template or job.template in self._templates_ok)


def _maker(env: jinja2.Environment, job: PageJob) -> Callable[[], bytes]:
    return lambda: output_bytes(render_job(env, job).data)


class SiteFiles(Mapping[str, bytes]):
    """The served site: output rel -> bytes; a deferred file is made when first read.

    Args:
        ready: the rendered files (not mutated afterwards).
        deferred: the files made on first read (`Lazy`: once, under the builder's lock);
            making one may raise (e.g. `TemplateError`), which then reaches the reader.
        groups: groups of files by prefix, made when a file under the prefix is first
            asked for (or the whole site is listed).
    """

    def __init__(
        self,
        ready: dict[str, bytes],
        deferred: Mapping[str, Lazy[bytes]] | None = None,
        groups: Mapping[str, Group] | None = None,
    ):
        self._ready = ready
        self._deferred = dict(deferred or {})
        self._groups = dict(groups or {})

    def _group(self, rel: str) -> dict[str, bytes]:
        for prefix, group in self._groups.items():
            if rel.startswith(prefix):
                return group.files()
        return {}

    def __getitem__(self, rel: str) -> bytes:
        data = self._ready.get(rel)
        if data is not None:
            return data
        lazy = self._deferred.get(rel)
        return lazy() if lazy is not None else self._group(rel)[rel]

    def __contains__(self, rel: object) -> bool:
        if rel in self._ready or rel in self._deferred:
            return True
        return isinstance(rel, str) and rel in self._group(rel)

    def __iter__(self) -> Iterator[str]:
        yield from self._ready
        yield from self._deferred
        for group in self._groups.values():
            yield from group.files()

    def __len__(self) -> int:
        return (
            len(self._ready)
            + len(self._deferred)
            + sum(len(g.files()) for g in self._groups.values())
        )

    @property
    def deferred(self) -> frozenset[str]:
        """Return the rels made on first read."""
        return frozenset(self._deferred)


class Overlay(Mapping[str, bytes]):
    """A served site with a few files replaced: what the dev server serves of a build whose
    first pages are ready and whose other pages are still rendering.

    Args:
        base: the last good site.
        new: the files that replace (or add to) its files, by rel.
    """

    def __init__(self, base: Mapping[str, bytes], new: Mapping[str, bytes]) -> None:
        self._base = base
        self._new = new

    def __getitem__(self, rel: str) -> bytes:
        data = self._new.get(rel)
        return data if data is not None else self._base[rel]

    def __contains__(self, rel: object) -> bool:
        return rel in self._new or rel in self._base

    def __iter__(self) -> Iterator[str]:
        yield from self._new
        yield from (rel for rel in self._base if rel not in self._new)

    def __len__(self) -> int:
        return len(self._new) + sum(1 for rel in self._base if rel not in self._new)
