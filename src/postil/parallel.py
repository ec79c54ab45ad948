"""Render many posts' Markdown, in worker processes when that pays: the render stage's engine.

Each worker process builds one `MarkdownIt` (`create_markdown`) and one template
environment in its initializer and renders small chunks of posts; results come back in
input order, so the output and the diagnostics are the same whatever the number of workers
(`render_many` with `workers=1` is the sequential path, in this process). Below
`SEQUENTIAL_BELOW` posts to render, starting processes costs more than it saves (measured
by `benchmarks/crossover.py`) and rendering stays in this process.

`render_pages` does the same for the page stage: forked workers render page jobs and write
their files straight into the new output directory (`postil.output.put_file`), so
templates, feeds and file system calls also run side by side.

The conversion caches of the math layer (`MATH_CACHE`, in each post's `RenderState`) and
of code highlighting travel with the work: `Conversions` seeds every worker with the entries of
earlier builds and collects the entries each post's rendering adds, for the build cache.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from postil.cache import BuildCache
from postil.manifest import Stamp
from postil.markdown import RenderedMarkdown
from postil.markdown.state import RenderState
from postil.math import MathCache
from postil.model import Post, SiteConfig
from postil.output import SiteWriter, put_file

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>

SEQUENTIAL_BELOW = 8
"""Render fewer posts than this in-process. Forked workers inherit the imports, so a 2-CPU
pool costs ≈ 40 ms to start; `benchmarks/crossover.py` measured the pool slower at 4 posts
(0.43 s against 0.41 s), even at 8 and 12, and faster from 16 on (0.59 s against 0.68 s)."""

SPAWNED_SEQUENTIAL_BELOW = 32
"""The same when workers must be spawned (a process with threads, e.g. the dev server):
each then imports postil and builds its parser (≈ 0.2 s of CPU, `python -X importtime`),
which ≈ 10 posts per worker take to render; an estimate, not a measurement."""

CHUNK_POSTS = 4
"""Posts per work unit: small enough to balance 2-8 workers, large enough that the ≈ 0.2 ms
of pickling and queueing per unit stays under 1 % of the unit's work."""


PAGES_SEQUENTIAL_BELOW = 64
"""Render and write fewer pages than this in this process. `benchmarks/crossover.py --pages`
(2 CPUs, medians of 5, whole builds): the page pool was slower at 40 and 49 output files
(0.52 s against 0.50 s), faster from 69 files (≈ 50 pages) on: 0.81 s against 0.84 s, and
2.13 s against 2.20 s at 303 files; a page takes ≈ 1-2 ms, a forked pool ≈ 40 ms to start."""

CHUNK_PAGES = 8
"""Pages per work unit of `render_pages` (a unit returns only paths and stamps)."""

_Pair = tuple[dict[str, str], dict[tuple[Any, ...], str]]
"""(math cache key -> MathML, highlighting cache key -> HTML) of one post."""

KEEP_CONVERSIONS = 2_000
"""Entries kept per post across edits; beyond it only the last rendering's are kept."""

MATH_CACHE = MathCache()
"""This process's math conversion cache, given to every post's `RenderState` (a forked
worker inherits it; `_load_conversions` seeds it with earlier builds' entries)."""


@dataclass
class Conversions:
    """Math and highlighting results by post: seeds for rendering, and what rendering adds.

    Kept per post (the rows are named by source path), so re-rendering one edited post
    reads only its own earlier results, and a deleted post's results go with it. A formula
    a post shares with a post rendered before it in the same process is found in memory
    and so is not among its own entries: after an edit it is converted again.

    Attributes:
        known: source path -> (math, highlight) entries kept from its earlier renderings.
        cache: where `record` keeps what rendering adds (written as results arrive, so
            they need not all be held in memory), or None.
        added: what `record` was given, by source path, when there is no `cache`.
    """

    known: dict[str, _Pair] = field(default_factory=dict)
    cache: BuildCache | None = None
    added: dict[str, _Pair] = field(default_factory=dict)

    @classmethod
    def from_cache(cls, cache: BuildCache | None, rels: Sequence[str]) -> Conversions:
        """Return the conversions `cache` keeps for the posts `rels` (none if it is None)."""
        rows = cache.get_many("conversions", rels) if cache is not None else {}
        return cls({rel: value for rel, (_, value) in rows.items()}, cache)

    def seeds(self) -> _Pair:
        """Return every known entry, merged, to seed the caches of a renderer."""
        math: dict[str, str] = {}
        highlight: dict[tuple[Any, ...], str] = {}
        for known_math, known_highlight in self.known.values():
            math.update(known_math)
            highlight.update(known_highlight)
        return math, highlight

    def record(self, rels: Sequence[str], added: Sequence[_Pair]) -> None:
        """Keep, for each post rendered, its earlier entries and those it added."""
        for rel, (math, highlight) in zip(rels, added, strict=True):
            if self.cache is None:
                self.added[rel] = (math, highlight)
                continue
            old_math, old_highlight = self.known.get(rel, ({}, {}))
            if len(old_math) + len(old_highlight) < KEEP_CONVERSIONS:
                math, highlight = old_math | math, old_highlight | highlight
            self.cache.put("conversions", rel, "", (math, highlight))


@dataclass(frozen=True)
class Rendered:
    """A post's rendered Markdown and the links it looked up, as the cache keeps it.

    Attributes:
        content: what rendering produced.
        links_read: (source path, URL or None) of every entry of the links map that
            rendering looked up; the content stays valid while each gives the same answer.
    """

    content: RenderedMarkdown
    links_read: tuple[tuple[str, str | None], ...]

    def valid_for(self, links: Mapping[str, str]) -> bool:
        """Return whether every link this post looked up still resolves the same way."""
        return all(links.get(rel) == url for rel, url in self.links_read)


class LinkReads(Mapping[str, str]):
    """A read-only view of the links map that records which entries were looked up.

    Iterating over it or asking its length records the whole map as read.
    """

    def __init__(self, links: Mapping[str, str]) -> None:
        self._links = links
        self._reads: dict[str, str | None] = {}

    def __getitem__(self, rel: str) -> str:
        url = self._reads[rel] = self._links.get(rel)
        if url is None:
            raise KeyError(rel)
        return url

    def __iter__(self) -> Iterator[str]:
        self._reads.update(self._links)
        return iter(self._links)

    def __len__(self) -> int:
        self._reads.update(self._links)
        return len(self._links)

    def reads(self) -> tuple[tuple[str, str | None], ...]:
        """Return the entries looked up so far, sorted."""
        return tuple(sorted(self._reads.items()))


@dataclass
class _Worker:
    """What one process needs to render posts: the parser, templates, site facts."""

    config: SiteConfig
    links: Mapping[str, str]
    md: Any
    templates: Any


_WORKER: _Worker | None = None


def render_many(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    templates: Any,
    conversions: Conversions,
    workers: int | None = None,
) -> list[Rendered]:
    """Render the Markdown of `posts`, in order; diagnostics are inside each result.

    Args:
        config: the site configuration (macros).
        posts: the posts to render.
        links: every post's URL by its source path (for links between posts).
        templates: the Jinja2 environment for widgets, used in this process; workers make
            their own from `config.root`.
        conversions: seeds for the math and highlighting caches; `new_*` are filled in.
        workers: processes to use; None means one per CPU; 1 renders in this process.
    """
    count = workers if workers is not None else (os.cpu_count() or 1)
    context = _pool_context()
    small = SEQUENTIAL_BELOW if context.get_start_method() == "fork" else SPAWNED_SEQUENTIAL_BELOW
    if count <= 1 or len(posts) < small:
        return _render_here(config, posts, links, templates, conversions)
    return _render_in_pool(config, posts, links, conversions, count, context)


def _render_here(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    templates: Any,
    conversions: Conversions,
) -> list[Rendered]:
    """Render `posts` one after the other in this process."""
    from postil.markdown import create_markdown

    global _WORKER
    _load_conversions(*conversions.seeds())
    _WORKER = _Worker(config, links, create_markdown(), templates)
    results, added = _render_chunk(list(posts))
    conversions.record([p.source.rel for p in posts], added)
    return results


def _render_in_pool(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    conversions: Conversions,
    count: int,
    context: multiprocessing.context.BaseContext,
) -> list[Rendered]:
    """Render `posts` in `count` worker processes, chunk by chunk, keeping input order."""
    import postil.markdown.code  # noqa: F401 - imported once here, inherited by forked workers
    import postil.math  # noqa: F401

    chunks = [list(posts[i : i + CHUNK_POSTS]) for i in range(0, len(posts), CHUNK_POSTS)]
    args = (config, links, *conversions.seeds())
    with ProcessPoolExecutor(
        min(count, len(chunks)), context, initializer=_start_worker, initargs=args
    ) as pool:
        results: list[Rendered] = []
        for chunk, (rendered, added) in zip(chunks, pool.map(_render_chunk, chunks), strict=True):
            results += rendered
            conversions.record([p.source.rel for p in chunk], added)
    return results


def _pool_context() -> multiprocessing.context.BaseContext:
    """Return `fork` when it is safe (no other threads: the workers inherit the imports);
    otherwise `spawn` (the dev server runs threads, and forking them can deadlock)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _start_worker(
    config: SiteConfig,
    links: Mapping[str, str],
    math: Mapping[str, str],
    highlight: Mapping[tuple[Any, ...], str],
) -> None:
    """Initialise a worker: one MarkdownIt, one template environment, seeded caches."""
    from postil.markdown import create_markdown
    from postil.theme import create_template_env

    global _WORKER
    _exit_with_parent()
    _load_conversions(math, highlight)
    _WORKER = _Worker(config, links, create_markdown(), create_template_env(config.root))


def _exit_with_parent() -> None:
    """Make this worker die with the build process, even when that is killed with SIGKILL.

    On Linux, prctl(PR_SET_PDEATHSIG, SIGKILL) (prctl(2)) has the kernel kill the worker when
    its parent exits; without it a killed `postil build` leaves its workers running under
    init. If the parent is already gone when this runs, the worker exits at once.
    """
    parent = multiprocessing.parent_process()
    libc_name = ctypes.util.find_library("c")
    if libc_name is not None:
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(libc_name, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)


def _render_chunk(posts: list[Post]) -> tuple[list[Rendered], list[_Pair]]:
    """Render a chunk with this process's `_WORKER`; return the results and, per post, the
    math and highlighting entries its rendering added."""
    from postil.markdown import render_markdown

    assert _WORKER is not None, "_start_worker or _render_here sets it"
    worker = _WORKER
    results, added = [], []
    for post in posts:
        marks = _conversion_marks()
        links = LinkReads(worker.links)
        state = render_state(worker.config, post, links, worker.templates)
        results.append(Rendered(render_markdown(worker.md, post.body, state), links.reads()))
        added.append(_conversions_since(marks))
    return results, added


def render_state(
    config: SiteConfig, post: Post, links: Mapping[str, str], templates: Any
) -> RenderState:
    """Return the fresh `RenderState` a post is rendered with (everything it may read).

    Whatever is added here must be covered by `postil.build.render_context` (the cache key).
    """
    return RenderState(
        path=post.source.rel,
        body_line=post.body_line,
        macros=dict(config.math_macros) | dict(post.meta.macros),
        links=links,
        base_path=config.base_path,
        templates=templates,
        math_cache=MATH_CACHE,
    )


def _load_conversions(math: Mapping[str, str], highlight: Mapping[tuple[Any, ...], str]) -> None:
    """Seed this process's math and highlighting caches."""
    from postil.markdown import code

    MATH_CACHE.load(math)
    code._HIGHLIGHT_CACHE.update(highlight)  # the code plugin's per-process cache


def _conversion_marks() -> tuple[int, int]:
    """Return where the math and highlighting caches stand: (math misses, highlight size)."""
    from postil.markdown import code

    return MATH_CACHE.misses, len(code._HIGHLIGHT_CACHE)


def _conversions_since(
    marks: tuple[int, int],
) -> tuple[dict[str, str], dict[tuple[Any, ...], str]]:
    """Return the math and highlighting entries added since `marks`.

    Each math miss adds at most one entry, at the end (the oldest are dropped when full), so
    the newest `misses` entries hold every new one; the highlighting cache only grows.
    """
    from postil.markdown import code

    added = MATH_CACHE.misses - marks[0]
    math = dict(islice(reversed(MATH_CACHE.export().items()), added)) if added > 0 else {}
    entries = code._HIGHLIGHT_CACHE
    highlight = dict(islice(reversed(entries.items()), len(entries) - marks[1]))
    return math, highlight


@dataclass
class _PageWork:
    """What the page workers render (inherited through fork, never pickled)."""

    env: Any
    jobs: Sequence[Any]
    directory: Path
    replace: bool
    made: set[str] = field(default_factory=set)


_PAGES: _PageWork | None = None


def render_pages(
    env: Any, jobs: Sequence[Any], writer: SiteWriter, workers: int | None = None
) -> list[tuple[str, Stamp]]:
    """Render the page jobs (`postil.pages.PageJob`) and write their files through `writer`.

    With enough jobs, a CPU to spare and `fork` available, forked workers render chunks of
    jobs and write each file straight into `writer.tmp` (`postil.output.put_file`); the
    workers inherit the site, the jobs and the prepared template environment, so nothing
    but paths and stamps crosses between processes. Otherwise the jobs run here, in order.
    Either way the files and their bytes are the same.

    Args:
        env: the template environment, prepared (`postil.pages.prepare_env`).
        jobs: the jobs to render, each at a different path not yet in `writer`.
        writer: the writer of the new output; every file is recorded in it.
        workers: processes to use; None means one per CPU.

    Returns:
        (output path, stamp) of each file, in job order.

    Raises:
        TemplateError: a template failed (raised from a worker with its location).
        OutputError: the disk refused a write.
    """
    from postil.pages import render_job

    count = workers if workers is not None else (os.cpu_count() or 1)
    context = _pool_context()
    if not jobs:
        return []
    if count <= 1 or len(jobs) < PAGES_SEQUENTIAL_BELOW or context.get_start_method() != "fork":
        for job in jobs:
            out = render_job(env, job)
            writer.write(out.rel, out.data)
        return [(job.rel, writer.manifest[job.rel]) for job in jobs]
    from postil.pages import load_template

    for name in sorted({job.template for job in jobs if job.template}):
        load_template(env, name)  # compiled once here, inherited by every worker
    global _PAGES
    _PAGES = _PageWork(env, jobs, writer.tmp, writer.replacing)
    # The costly jobs (the feeds: every entry goes through an HTML filter, ≈ 0.15 s for 20)
    # go first, together (the feeds share their filtered entries), so the other workers
    # render the pages meanwhile instead of waiting for them at the end.
    costly = [i for i, job in enumerate(jobs) if job.lazy]
    rest = [i for i, job in enumerate(jobs) if not job.lazy]
    chunks = ([costly] if costly else []) + [
        rest[i : i + CHUNK_PAGES] for i in range(0, len(rest), CHUNK_PAGES)
    ]
    try:
        with ProcessPoolExecutor(
            min(count, len(chunks)), context, initializer=_exit_with_parent
        ) as pool:
            stamps = dict(pair for part in pool.map(_render_pages_chunk, chunks) for pair in part)
    finally:
        _PAGES = None
    done = [(job.rel, stamps[job.rel]) for job in jobs]
    for rel, stamp in done:
        writer.add(rel, stamp)
    return done


def _render_pages_chunk(indices: Sequence[int]) -> list[tuple[str, Stamp]]:
    """Render and write the jobs at `indices` of `_PAGES`; return their paths and stamps.

    Files are written by a few threads while the next page renders: file system calls
    release the GIL, and on a busy disk (just after a large deletion, say) creating a file
    can wait a millisecond or more.
    """
    from postil.pages import render_job

    assert _PAGES is not None, "render_pages sets it before forking"
    work = _PAGES
    writes = []
    for i in indices:
        out = render_job(work.env, work.jobs[i])
        args = (work.directory, out.rel, out.data, work.replace, work.made)
        writes.append((out.rel, _writer_threads().submit(put_file, *args)))
    return [(rel, future.result()) for rel, future in writes]


_THREADS: ThreadPoolExecutor | None = None

WRITER_THREADS = 4
"""Threads per page worker that write files (`_render_pages_chunk`)."""


def _writer_threads() -> ThreadPoolExecutor:
    """Return this worker's pool of file-writing threads (made on first use, after fork)."""
    global _THREADS
    if _THREADS is None:
        _THREADS = ThreadPoolExecutor(WRITER_THREADS, thread_name_prefix="postil-write")
    return _THREADS
