"""Process pools for the build's two costly stages: plumbing only, no knowledge of posts.

`pool_context` picks how workers start (`fork` when safe), `exit_with_parent` makes each
worker die with the build, and `map_chunks` runs a function over chunks of work in a pool,
results in input order; `in_background` and `Standby` run one long job (the math font) in a
forked child while the build goes on. The Markdown stage (`postil.render.render_many`) uses
`map_chunks` with its own worker initializer; `render_pages` renders page jobs in forked
workers that write their files straight into the new output directory
(`postil.output.put_file`), so templates, feeds and file system calls also run side by side.

Worker processes keep what they need in one per-process value set by their initializer
(`postil.render._WORKER`, `_PAGES` here): the standard way to give a `ProcessPoolExecutor`
worker state that costs too much to send with every chunk (a parser, templates, caches).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from postil.cache.manifest import Stamp
from postil.errors import WorkerLost
from postil.model import output_bytes
from postil.output import SiteWriter, put_file

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

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

POOL_ATTEMPTS = 3
"""Pools `map_chunks` starts for one piece of work: the first, and two more for the chunks
a dead worker lost. A worker the OOM killer took is likely taken again on a third try."""


def pool_context() -> multiprocessing.context.BaseContext:
    """Return `fork` when it is safe (no other threads: the workers inherit the imports);
    otherwise `spawn` (the dev server runs threads, and forking them can deadlock)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def exit_with_parent() -> None:
    """Make this worker die with the build process, even when that is killed with SIGKILL.

    On Linux, prctl(PR_SET_PDEATHSIG, SIGKILL) (prctl(2)) has the kernel kill the worker when
    its parent exits; without it a killed `postil build` leaves its workers running under
    init. If the parent is already gone when this runs, the worker exits at once.

    `prctl` is found among the process's own symbols (`CDLL(None)`: libc's are there on
    Linux), as `postil.output` finds `renameat2`: `ctypes.util.find_library("c")` runs
    `ldconfig -p` in a subprocess: 2.5 ms of CPU and 2.5-6.5 ms of wall time at the start
    of every worker (four, and the font's process, in a cold build) before it did any work.
    """
    parent = multiprocessing.parent_process()
    with contextlib.suppress(OSError, AttributeError, TypeError):  # TypeError: no CDLL(None)
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)


@dataclass
class _PageWork:
    """What the page workers render (inherited through fork, never pickled)."""

    env: Any
    jobs: Sequence[Any]
    directory: Path
    replace: bool
    made: set[str] = field(default_factory=set)


_PAGES: _PageWork | None = None


def map_chunks(
    function: Callable[[T], R],
    chunks: Sequence[T],
    count: int,
    context: multiprocessing.context.BaseContext,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...] = (),
    before_retry: Callable[[], None] | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Return `[function(chunk) for chunk in chunks]`, computed in up to `count` processes.

    Each worker runs `initializer(*initargs)` first (it should call `exit_with_parent`).
    `on_result(index, result)` is called here as each chunk's result arrives (once per
    chunk, in the order they finish), so the caller can use it while the rest run; the
    results are then handed over, not kept, and the list returned is empty (a cold build's
    rendered posts need not all be alive at once: `postil.render.render_posts`).
    When a worker dies (the OOM killer's SIGKILL), the pool breaks; the chunks without a
    result run again in a new pool, after `before_retry()`, up to `POOL_ATTEMPTS` pools in
    all. `function` must therefore be safe to run twice on a chunk.

    Raises:
        WorkerLost: workers died in every attempt.
        Whatever `function` raised in a worker (pickled back with its arguments).
    """
    results: dict[int, R] = {}  # kept when there is no `on_result`
    done: set[int] = set()
    # What is alive now stays alive in the forked workers: frozen, their collector never
    # walks it (nor writes to its pages, which fork shares copy-on-write).
    frozen_here = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        _run_pools(
            function,
            chunks,
            count,
            context,
            (initializer, initargs),
            before_retry,
            on_result,
            results,
            done,
        )
    finally:
        if frozen_here:  # else a caller froze the heap and unfreezes it (`build.collecting_less`)
            gc.unfreeze()
    if len(done) < len(chunks):
        raise WorkerLost(
            f"a worker process died {POOL_ATTEMPTS} times (killed, or out of memory);"
            " build again, or with fewer processes (-j 1)"
        )
    return [results[i] for i in range(len(chunks))] if on_result is None else []


def _run_pools(
    function: Callable[[T], R],
    chunks: Sequence[T],
    count: int,
    context: multiprocessing.context.BaseContext,
    init: tuple[Callable[..., None], tuple[Any, ...]],
    before_retry: Callable[[], None] | None,
    on_result: Callable[[int, R], None] | None,
    results: dict[int, R],
    done: set[int],
) -> None:
    """Fill `done` (chunk indices) and `results` (chunk index -> result, when there is no
    `on_result`) in up to `POOL_ATTEMPTS` pools (`map_chunks`)."""
    for attempt in range(POOL_ATTEMPTS):
        todo = [i for i in range(len(chunks)) if i not in done]
        if not todo:
            break
        if attempt and before_retry is not None:
            before_retry()
        pool = ProcessPoolExecutor(
            min(count, len(todo)), context, initializer=init[0], initargs=init[1]
        )
        try:
            futures = {pool.submit(function, chunks[i]): i for i in todo}
            for future in as_completed(futures):
                index = futures.pop(future)  # the future holds its result: let both go
                result = future.result()
                if on_result is None:
                    results[index] = result
                else:
                    on_result(index, result)
                done.add(index)
                del future, result
        except BrokenProcessPool:
            _kill_pool(pool)
            continue
        except BaseException:
            _kill_pool(pool)
            raise
        pool.shutdown()


def _kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel its queued work, kill and reap its live workers.

    A pool whose worker died can leave the others blocked on its queue, and `shutdown(wait=
    True)` would then wait for ever; killing them bounds the time to fail or retry. The
    pool's manager thread is then waited for (up to 5 s): it closes the pool's wake-up pipe
    when it sees the workers gone, and on Python 3.11 doing so while the interpreter exits
    races `concurrent.futures`' exit hook writing to that pipe (a failed build printed
    "OSError: [Errno 9] Bad file descriptor" with a traceback: `_ThreadWakeup` took no lock of
    its own before CPython gh-125451).
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            process.join(5)
    if manager is not None:
        with contextlib.suppress(RuntimeError):
            manager.join(5)


def in_background(function: Callable[..., R], *args: Any) -> Callable[[], R]:
    """Start `function(*args)` in a forked process now; return a function that waits for its
    result and returns it (or raises what it raised).

    For one long piece of work the build needs only later (the math font, made while the
    pages render). Without `fork` (a process with threads), or if the process is lost, the
    work runs in this process when the result is asked for. The child dies with the build
    (`exit_with_parent`). `function`, its arguments and its result must pickle.
    """
    context = pool_context()
    if context.get_start_method() != "fork":
        return lambda: function(*args)
    receive, send = context.Pipe(duplex=False)
    child = context.Process(  # type: ignore[attr-defined]
        target=_background, args=(send, function, args), daemon=True
    )
    child.start()
    send.close()

    def result() -> R:
        try:
            ok, value = receive.recv()
        except (EOFError, OSError):  # the child died: do the work here
            ok, value = True, function(*args)
        finally:
            receive.close()
            child.join()
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    return result


def _background(send: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """Run `function(*args)` in a forked child of `in_background`; send (ok, result or error)."""
    exit_with_parent()
    try:
        outcome = (True, function(*args))
    except Exception as e:  # noqa: BLE001 - handed to the parent, which raises it
        outcome = (False, e)
    send.send(outcome)
    send.close()


class Standby(Generic[S]):
    """A forked process that runs `prepare()` now and then waits for one job to run on what
    it prepared: `in_background` for work whose input is known only later but whose set-up
    (imports, loading) can start at once, while other stages still use the CPUs.

    `run(function, *args)` hands it `function(prepared, *args)` and returns a function that
    waits for the result; `close()` tells it it is not needed (it is killed: it holds
    nothing to save). Without `fork`, or if the child is lost, `prepare` and the job run in
    this process when the result is asked for. The child dies with the build
    (`exit_with_parent`); `function`, its arguments and its result must pickle.
    """

    def __init__(self, prepare: Callable[[], S]) -> None:
        self._prepare = prepare
        self._child: Any = None
        context = pool_context()
        if context.get_start_method() != "fork":
            return
        jobs, self._jobs = context.Pipe(duplex=False)
        self._results, results = context.Pipe(duplex=False)
        self._child = context.Process(  # type: ignore[attr-defined]
            target=_standby, args=(jobs, results, prepare), daemon=True
        )
        self._child.start()
        jobs.close()
        results.close()

    def run(self, function: Callable[..., R], *args: Any) -> Callable[[], R]:
        """Hand the child `function(prepared, *args)`; return a function that waits for
        its result and returns it (or raises what `prepare` or `function` raised). Call
        once: the child runs one job."""
        here: Callable[[], R] = lambda: function(self._prepare(), *args)  # noqa: E731
        child, self._child = self._child, None
        if child is None:
            return here
        try:
            self._jobs.send((function, args))
        except OSError:  # the child is gone
            pass
        finally:
            self._jobs.close()

        def result() -> R:
            try:
                ok, value = self._results.recv()
            except (EOFError, OSError):  # the child died: do the work here
                ok, value = True, here()
            finally:
                self._results.close()
                child.join()
            if not ok:
                raise value
            return value  # type: ignore[no-any-return]

        return result

    def close(self) -> None:
        """Stop the child if no job was handed to it (it is killed: it holds no work)."""
        child, self._child = self._child, None
        if child is not None:
            self._jobs.close()
            self._results.close()
            child.kill()
            child.join()


def _standby(jobs: Any, results: Any, prepare: Callable[[], Any]) -> None:
    """Run `prepare()` in a forked child of `Standby`, then the one job sent through `jobs`;
    send (ok, result or error) through `results`. The end of `jobs` without a job: exit."""
    exit_with_parent()
    try:
        prepared: tuple[bool, Any] = (True, prepare())
    except Exception as e:  # noqa: BLE001 - handed to the parent with the job's outcome
        prepared = (False, e)
    try:
        function, args = jobs.recv()
    except (EOFError, OSError):
        return
    outcome = prepared
    if prepared[0]:
        try:
            outcome = (True, function(prepared[1], *args))
        except Exception as e:  # noqa: BLE001 - handed to the parent, which raises it
            outcome = (False, e)
    results.send(outcome)
    results.close()


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
    context = pool_context()
    if not jobs:
        return []
    if count <= 1 or len(jobs) < PAGES_SEQUENTIAL_BELOW or context.get_start_method() != "fork":
        for job in jobs:
            out = render_job(env, job)
            writer.write(out.rel, out.data)
            del out  # a huge post's feed (70 MB at 20 MB) must not live on while the next renders
        return [(job.rel, writer.manifest[job.rel]) for job in jobs]
    from postil.pages import load_template, scan_templates

    for name in sorted({job.template for job in jobs if job.template}):
        load_template(env, name)  # compiled once here, inherited by every worker
    scan_templates(env)  # likewise
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
        parts = map_chunks(
            _render_pages_chunk, chunks, count, context, exit_with_parent, before_retry=_replace
        )
        stamps = dict(pair for part in parts for pair in part)
    finally:
        _PAGES = None
    done = [(job.rel, stamps[job.rel]) for job in jobs]
    for rel, stamp in done:
        writer.add(rel, stamp)
    return done


def render_page_bytes(env: Any, jobs: Sequence[Any], workers: int | None = None) -> list[bytes]:
    """Return the bytes of each page job (`postil.pages.PageJob`), in order (`Pieces`
    joined: the dev server keeps each file whole in memory).

    As `render_pages`, but the bytes come back instead of going to a directory: for the
    dev server, whose first build must render a whole site (nothing in `.postil-cache/`
    vouches for its pages) as fast as `postil build`. With enough jobs, a CPU to spare and
    `fork` available (no thread running yet), forked workers render chunks of jobs;
    otherwise the jobs run here. The bytes are the same either way.

    Raises:
        TemplateError: a template failed (raised from a worker with its location).
    """
    from postil.pages import load_template, render_job, scan_templates

    count = workers if workers is not None else (os.cpu_count() or 1)
    context = pool_context()
    if count <= 1 or len(jobs) < PAGES_SEQUENTIAL_BELOW or context.get_start_method() != "fork":
        return [output_bytes(render_job(env, job).data) for job in jobs]
    for name in sorted({job.template for job in jobs if job.template}):
        load_template(env, name)  # compiled once here, inherited by every worker
    # Likewise: each worker scanned every template again, and the dev server's first
    # save after a cold start did once more, here (≈ 30 ms before its page was served).
    scan_templates(env)
    global _BYTES
    _BYTES = (env, jobs)
    costly = [i for i, job in enumerate(jobs) if job.lazy]
    rest = [i for i, job in enumerate(jobs) if not job.lazy]
    chunks = ([costly] if costly else []) + [
        rest[i : i + CHUNK_PAGES] for i in range(0, len(rest), CHUNK_PAGES)
    ]
    try:
        parts = map_chunks(_page_bytes_chunk, chunks, count, context, exit_with_parent)
    finally:
        _BYTES = None
    found = {
        i: data
        for chunk, part in zip(chunks, parts, strict=True)
        for i, data in zip(chunk, part, strict=True)
    }
    return [found[i] for i in range(len(jobs))]


_BYTES: tuple[Any, Sequence[Any]] | None = None
"""The environment and jobs `render_page_bytes` hands its forked workers."""


def _page_bytes_chunk(indices: Sequence[int]) -> list[bytes]:
    """Render the jobs at `indices` of `_BYTES`; return their bytes."""
    from postil.pages import render_job

    assert _BYTES is not None, "render_page_bytes sets it before forking"
    env, jobs = _BYTES
    return [output_bytes(render_job(env, jobs[i]).data) for i in indices]


def _replace() -> None:
    """Before pages run again: let workers replace what a dead worker left half-written."""
    assert _PAGES is not None
    _PAGES.replace = True


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
