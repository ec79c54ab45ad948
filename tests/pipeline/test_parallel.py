"""Parallel rendering gives exactly what the sequential path gives: results, diagnostics, bytes."""

from __future__ import annotations

import multiprocessing
import signal
import sys

import pytest
from support.blog import build_into, make_site
from support.corpus import build_probed, corpus, tree

from postil import parallel, render
from postil.cache import BuildCache
from postil.config import load_config
from postil.content.load import load_posts
from postil.render import render_posts
from postil.theme import create_template_env, default_theme_dir


def render_all(config, posts, env, workers):
    """Render every post afresh (no cache); return (rendered posts, diagnostics)."""
    return render_posts(config, posts, env, BuildCache.disabled(), {}, workers)


@pytest.fixture
def pool_always(monkeypatch):
    """Use the process pool however few posts there are (the tests stay small)."""
    monkeypatch.setattr(parallel, "SEQUENTIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "SPAWNED_SEQUENTIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "CHUNK_POSTS", 2)
    monkeypatch.setattr(parallel, "PAGES_SEQUENTIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "CHUNK_PAGES", 3)


@pytest.mark.slow
def test_pool_and_sequential_rendering_give_equal_posts_and_diagnostics(tmp_path, pool_always):
    root = make_site(tmp_path, corpus(7))
    config = load_config(root)
    posts, _ = load_posts(config, BuildCache.disabled())
    env = create_template_env(root)
    runs = [render_all(config, posts, env, workers) for workers in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0][1]) == 7 and all("nosuchlang" in d.message for d in runs[0][1])
    assert [d.location.path for d in runs[1][1]] == sorted(d.location.path for d in runs[1][1])


@pytest.mark.slow
def test_output_is_byte_identical_whatever_the_worker_count(tmp_path, pool_always):
    outputs = []
    for workers in (1, 2):
        root = make_site(tmp_path / f"w{workers}", corpus(5))
        outputs.append(tree(build_into(root, workers=workers, cache=False)))
    assert outputs[0] == outputs[1]
    assert "posts/p03/index.html" in outputs[0]


def test_small_batches_render_in_this_process_without_a_pool(tmp_path, monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started for a small batch")

    monkeypatch.setattr(render, "_render_in_pool", no_pool)
    root = make_site(tmp_path, corpus(parallel.SEQUENTIAL_BELOW - 1))
    assert (build_into(root, workers=2, cache=False) / "posts/p00/index.html").is_file()


@pytest.mark.slow
def test_conversions_made_in_workers_come_back_for_the_cache(tmp_path, pool_always):
    root = make_site(tmp_path, corpus(4))
    config = load_config(root)
    posts, _ = load_posts(config, BuildCache.disabled())
    conversions = render.Conversions()
    render.render_many(config, posts, {}, create_template_env(root), conversions, workers=2)
    math, highlight = conversions.added["content/posts/p02.md"]
    assert any("x_{2}^2" in key for key in math) and not any("x_{3}^2" in key for key in math)
    assert [key[0] for key in highlight] == ["print(2)\n"]


@pytest.mark.slow
def test_forked_workers_inherit_the_parser_made_once_before_the_fork(
    tmp_path, pool_always, monkeypatch
):
    """Making the parser imports the plugins and compiles their regular expressions
    (≈ 0.1 s of CPU): the pool's parent makes it once, and the forked workers inherit it.
    The fork context is forced: a thread an earlier test left running would make
    `pool_context` choose spawn (`test_workers_are_spawned_when_this_process_runs_threads`)."""
    monkeypatch.setattr(parallel, "pool_context", lambda: multiprocessing.get_context("fork"))
    root = make_site(tmp_path, corpus(4))
    config = load_config(root)
    posts, _ = load_posts(config, BuildCache.disabled())
    render.parser.cache_clear()
    render.render_many(config, posts, {}, create_template_env(root), render.Conversions(), 2)
    assert render.parser.cache_info().currsize == 1


@pytest.mark.slow
def test_workers_are_spawned_when_this_process_runs_threads(tmp_path, pool_always):
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert parallel.pool_context().get_start_method() == "spawn"
        root = make_site(tmp_path, corpus(3))
        config = load_config(root)
        posts, _ = load_posts(config, BuildCache.disabled())
        env = create_template_env(root)
        pooled = render_all(config, posts, env, 2)
    finally:
        stop.set()
        thread.join()
    assert pooled == render_all(config, posts, env, 1)


@pytest.mark.slow
def test_pages_rendered_in_the_pool_are_the_sequential_bytes_also_into_the_spare(tmp_path):
    """Pages written by forked workers, into a fresh directory and then into the spare
    (after a template change re-renders every page), equal a one-process build byte for
    byte, and the next build still reuses them (their stamps were recorded)."""
    one = make_site(tmp_path / "one", corpus(6))
    assert build_probed(one, "-j", "1")[:2] == (0, [])
    sequential = tree(one / "_site")
    root = make_site(tmp_path / "two", corpus(6))
    out = root / "_site"
    assert build_probed(root, "-j", "2")[:2] == (0, ["_render_chunk", "_render_pages_chunk"])
    assert tree(out) == sequential
    base = root / "templates" / "base.html"
    original = (default_theme_dir() / "templates" / "base.html").read_text()
    base.parent.mkdir(exist_ok=True)
    base.write_text(original.replace("</body>", "<!-- a -->\n</body>"))
    assert build_probed(root, "-j", "2")[:2] == (0, ["_render_pages_chunk"])  # a fresh tree
    base.write_text(original.replace("</body>", "<!-- b -->\n</body>"))
    code, used, _ = build_probed(root, "-j", "2")  # the first output is the spare now
    assert (code, used) == (0, ["_render_pages_chunk"])
    assert any((root / ".postil-cache" / "spare").iterdir())
    changed = tree(out)
    assert changed.keys() == sequential.keys()
    assert b"<!-- b -->\n</body>" in changed["posts/p04/index.html"]
    base.unlink()
    build_probed(root, "-j", "2")
    assert tree(out) == sequential
    assert build_probed(root, "-j", "2")[:2] == (0, [])  # nothing to render: no pool


@pytest.mark.slow
def test_a_template_error_in_a_page_worker_fails_the_build_with_its_location(tmp_path):
    root = make_site(tmp_path, corpus(4))
    assert build_probed(root, "-j", "2")[0] == 0
    before = tree(root / "_site")
    (root / "templates").mkdir(exist_ok=True)
    (root / "templates" / "post.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n{{ no_such_value.title }}\n{% endblock %}\n'
    )
    code, used, errors = build_probed(root, "-j", "2")
    assert (code, used) == (1, ["_render_pages_chunk"])
    assert "post.html" in errors and "no_such_value" in errors and "Traceback" not in errors
    assert tree(root / "_site") == before
    for broken, expected in (
        ("{% if %}", "post.html:2: template syntax error"),  # found before forking
        ("{{ 1 // 0 }}", "ZeroDivisionError"),  # raised in a worker
    ):
        (root / "templates" / "post.html").write_text(
            '{% extends "base.html" %}\n{% block main %}' + broken + "{% endblock %}\n"
        )
        code, _, errors = build_probed(root, "-j", "2")
        assert code == 1 and expected in errors and "Traceback" not in errors, errors
        assert tree(root / "_site") == before


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_work_in_background_returns_its_result_or_raises_its_error(monkeypatch, start):
    import multiprocessing

    monkeypatch.setattr(parallel, "pool_context", lambda: multiprocessing.get_context(start))
    assert parallel.in_background(pow, 2, 10)() == 1024
    with pytest.raises(ZeroDivisionError):
        parallel.in_background(divmod, 1, 0)()


def _ten() -> int:
    return 10


def _fail() -> int:
    raise LookupError("prepare failed")


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_standby_runs_its_job_on_what_it_prepared_or_raises_either_error(monkeypatch, start):
    import multiprocessing

    monkeypatch.setattr(parallel, "pool_context", lambda: multiprocessing.get_context(start))
    assert parallel.Standby(_ten).run(pow, 3)() == 1000
    with pytest.raises(ZeroDivisionError):
        parallel.Standby(_ten).run(divmod, 0)()
    with pytest.raises(LookupError, match="prepare failed"):
        parallel.Standby(_fail).run(pow, 3)()
    assert multiprocessing.active_children() == []


def test_standby_closed_unused_leaves_no_process(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(parallel, "pool_context", lambda: multiprocessing.get_context("fork"))
    standby = parallel.Standby(_ten)
    assert len(multiprocessing.active_children()) == 1
    standby.close()
    assert multiprocessing.active_children() == []
    standby.close()  # twice is harmless


def test_standby_whose_process_was_killed_does_the_work_here(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(parallel, "pool_context", lambda: multiprocessing.get_context("fork"))
    standby = parallel.Standby(_ten)
    (child,) = multiprocessing.active_children()
    child.kill()  # what the OOM killer does
    child.join()
    assert standby.run(pow, 2)() == 100


def test_each_chunk_result_is_handed_over_once_as_it_arrives():
    seen: dict[int, int] = {}
    context = parallel.pool_context()
    results = parallel.map_chunks(
        abs, [-1, -2, -3], 2, context, parallel.exit_with_parent, on_result=seen.__setitem__
    )
    assert seen == {0: 1, 1: 2, 2: 3}
    assert results == []  # handed over, not kept


def test_results_are_returned_in_order_without_a_handler():
    context = parallel.pool_context()
    results = parallel.map_chunks(abs, [-1, -2, -3], 2, context, parallel.exit_with_parent)
    assert results == [1, 2, 3]


def test_sequential_pages_let_each_file_go_before_the_next_renders():
    """A huge post's Atom feed (70 MB at a 20 MB post) is written and let go before the RSS
    feed is made, so the two are never held at once (issue 19)."""
    from postil.pages import PageJob

    alive: set[int] = set()

    class Data(bytes):  # bytes cannot be weakly referenced; a subclass can say when it dies
        def __del__(self) -> None:
            alive.discard(id(self))

    class Writer:
        def __init__(self) -> None:
            self.manifest: dict[str, int] = {}

        def write(self, rel: str, data: bytes) -> None:
            self.manifest[rel] = len(data)

    alive_when_next_made: list[int] = []

    def produce() -> bytes:
        alive_when_next_made.append(len(alive))
        data = Data(b"x" * 1000)
        alive.add(id(data))
        return data

    jobs = [PageJob(f"f{i}.xml", "", dict, None, produce=produce) for i in range(3)]
    done = parallel.render_pages(None, jobs, Writer(), workers=1)  # type: ignore[arg-type]
    assert [rel for rel, _ in done] == ["f0.xml", "f1.xml", "f2.xml"]
    assert alive_when_next_made == [0, 0, 0]


_PR_GET_PDEATHSIG = 2  # <linux/prctl.h>


def _death_signal_without_a_subprocess(queue) -> None:
    """In a forked worker: run `exit_with_parent` where starting a program fails, and put
    the signal the kernel will send when the parent dies (0: none) on `queue`."""
    import ctypes
    import ctypes.util
    import subprocess

    def refuse(*args, **kwargs):
        raise AssertionError("exit_with_parent started a program")

    subprocess.Popen = refuse  # type: ignore[misc]  # this child only
    ctypes.util.find_library = refuse
    parallel.exit_with_parent()
    signal = ctypes.c_int(0)
    ctypes.CDLL(None).prctl(_PR_GET_PDEATHSIG, ctypes.byref(signal))
    queue.put(signal.value)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(2) is Linux's")
def test_a_worker_is_tied_to_its_parent_without_starting_a_program():
    """`exit_with_parent` sets PR_SET_PDEATHSIG without `ctypes.util.find_library`, which
    runs `ldconfig -p` in a subprocess (2.5-6.5 ms of each worker's start)."""
    context = multiprocessing.get_context("fork")
    queue = context.SimpleQueue()
    child = context.Process(target=_death_signal_without_a_subprocess, args=(queue,))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert queue.get() == signal.SIGKILL


def _sleep(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


def test_a_killed_pool_has_closed_its_wake_up_pipe_before_it_returns():
    """A page worker's template error kills the pool and the build exits: the pool's manager
    thread closing its wake-up pipe then raced `concurrent.futures`' exit hook writing to
    it (CI printed "OSError: [Errno 9] Bad file descriptor" with a traceback)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(2, multiprocessing.get_context("fork"))
    pool.submit(_sleep, 30)
    pool.submit(_sleep, 30).cancel()
    manager = pool._executor_manager_thread  # type: ignore[attr-defined]
    wakeup = pool._executor_manager_thread_wakeup  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    parallel._kill_pool(pool)
    assert not manager.is_alive()
    assert wakeup._closed
