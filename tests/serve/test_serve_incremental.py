"""A dev server's rebuild costs what changed (issue 20): one edited post is looked at, keyed
and rendered once, the pages that show it are rendered, and nothing is redone for the rest
of the site; a warm first build renders no page; the search index waits for a request.
Counts, never times."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from postil.build import BuildOptions, build
from postil.serve.engine import DevBuild
from postil.serve.watcher import ChangeSet

POSTS = 24
PAGINATE = 4

POST = """---
title: Post {n}
date: 2025-01-{day:02d}
tags: [t{tag}]
---

Summary paragraph of post {n} with $x^{n}$.

Second paragraph of post {n}.
"""


def make_site(root: Path, config: str = "", posts: int = POSTS) -> Path:
    """Write a site of `posts` posts (two tags, `PAGINATE` to a list page) and a page."""
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(
        f"title: T\nauthor: A\nbase_url: https://example.org/\npaginate: {PAGINATE}\n{config}",
        encoding="utf-8",
    )
    for n in range(1, posts + 1):
        text = POST.format(n=n, day=(n - 1) % 28 + 1, tag=n % 2)
        (root / f"content/posts/p{n:02d}.md").write_text(text, encoding="utf-8")
    (root / "content/about.md").write_text("---\ntitle: About\n---\n\nAbout me.\n")
    return root


@pytest.fixture(autouse=True)
def no_racy_window(monkeypatch):
    """Let stat signatures vouch for files written just now (the tests write the site a
    moment before building it); the 2 s window has tests of its own."""
    from postil.cache import rows

    monkeypatch.setattr(rows, "RACY_NS", 0)
    monkeypatch.setattr(importlib.import_module("postil.content.discover"), "RACY_NS", 0)


@pytest.fixture
def calls(monkeypatch) -> Counter[str]:
    """Count the calls of the per-post and per-site work a rebuild could redo."""
    counted: Counter[str] = Counter()

    def count(target: object, name: str) -> None:
        real = getattr(target, name)

        def counting(*args, **kwargs):
            counted[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(target, name, counting)

    for module, name in [
        ("postil.content.load", "read_source"),
        ("postil.content.load", "_stat"),
        ("postil.cache.keys", "markdown_key"),
        ("postil.content.discover", "_Listing"),
        ("postil.content.discover", "_scan"),
        ("postil.pages", "_layout"),
        ("postil.build", "check_references"),
    ]:
        count(importlib.import_module(module), name)
    count(importlib.import_module("postil.site")._Order, "of")
    return counted


def edit(path: Path, old: str, new: str) -> ChangeSet:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return ChangeSet(content={path})


def warm(site: Path) -> DevBuild:
    """Return a dev server's builder of `site` after its first build and one more: the
    first one reads every source (its cache rows are new), the second makes each post
    from its row, as every later build will."""
    builder = DevBuild(site)
    assert builder.build().ok and builder.build().ok
    return builder


def test_an_edit_reads_keys_and_renders_one_post_and_the_pages_showing_it(tmp_path, calls):
    site = make_site(tmp_path / "site")
    builder = warm(site)
    calls.clear()
    report = builder.build(edit(site / "content/posts/p12.md", "Second paragraph", "Edited"))
    assert report.ok and report.posts == 1
    # p12's page, its two neighbours' (they show its title), the list page and the tag
    # page that show it; the archive, tag index and sitemap wait for a request.
    assert report.pages == 5
    assert report.changed - builder.files.deferred == {"posts/p12/index.html"}
    assert calls == {
        "_stat": POSTS + 1,  # every source's signature, once
        "read_source": 1,
        "markdown_key": 1,
        "check_references": 1,  # the edited post's references only
    }  # and no `_Listing`: content/ and content/posts/ did not change, so are not listed


def test_an_edit_that_moves_a_post_lays_the_pages_out_again(tmp_path, calls):
    site = make_site(tmp_path / "site")
    builder = warm(site)
    calls.clear()
    report = builder.build(edit(site / "content/posts/p12.md", "2025-01-12", "2025-02-28"))
    assert report.ok and {"index.html", "posts/p12/index.html"} <= report.changed
    assert calls["_layout"] == 1 and calls["of"] == 1 and calls["read_source"] == 1


def test_a_first_build_over_a_dev_servers_cache_renders_no_page(tmp_path):
    site = make_site(tmp_path / "site")
    first = DevBuild(site)
    assert first.build().ok
    served = {rel: first.files[rel] for rel in first.files}
    first.close()
    again = DevBuild(site)
    try:
        report = again.build()
        assert report.ok and report.posts == 0 and report.pages == 0
        assert {rel: again.files[rel] for rel in again.files} == served
    finally:
        again.close()


def test_a_first_build_over_postil_builds_cache_renders_no_page(tmp_path):
    site = make_site(tmp_path / "site")
    build(BuildOptions(root=site, drafts=True))
    served = DevBuild(site)
    try:
        report = served.build()
        assert report.ok and report.posts == 0 and report.pages == 0
        built = site / "_site"
        assert {rel: served.files[rel] for rel in served.files} == {
            p.relative_to(built).as_posix(): p.read_bytes() for p in built.rglob("*") if p.is_file()
        }
    finally:
        served.close()


def test_a_proven_page_edited_back_is_rendered_not_deferred(tmp_path):
    """A page the server already holds is rendered when its key changes, proven or not:
    only then is it known whether its bytes changed (a browser showing it reloads)."""
    site = make_site(tmp_path / "site")
    builder = DevBuild(site)
    assert builder.build().ok
    post = site / "content/posts/p12.md"
    builder.build(edit(post, "Second paragraph", "Edited"))
    report = builder.build(edit(post, "Edited", "Second paragraph"))
    assert report.pages == 5 and "posts/p12/index.html" not in builder.files.deferred


PAGE_POOL_PROBE = """
import json, sys
from pathlib import Path
from postil import parallel
from postil.serve.app import DevServer, ServeOptions
pooled = []
real = parallel.map_chunks
def counting(function, chunks, *args, **kwargs):
    pooled.append((function.__name__, sum(len(chunk) for chunk in chunks)))
    return real(function, chunks, *args, **kwargs)
parallel.map_chunks = counting
from postil import pages
scans = []
real_scan = pages.scan_templates
pages.scan_templates = lambda env: scans.append(real_scan(env))
with DevServer(ServeOptions(Path(sys.argv[1]), port=0)) as server:
    print(json.dumps([server.first_build.ok, server.first_build.pages, pooled, len(scans)]))
"""


def test_a_cold_first_build_renders_its_pages_in_the_forked_pool(tmp_path):
    """Like `postil build`: the pages too, not only the Markdown (in a fresh process: the
    first build runs before the server's threads start, so the pool forks); the templates
    are scanned once, before the fork, so neither the workers nor the first save do it."""
    from postil import parallel

    site = make_site(tmp_path / "site", posts=60)
    command = [sys.executable, "-c", PAGE_POOL_PROBE, str(site)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    ok, pages, pooled, scans = json.loads(done.stdout.splitlines()[-1])
    assert ok and pages >= parallel.PAGES_SEQUENTIAL_BELOW, done.stderr
    assert ["_page_bytes_chunk", pages] in pooled and scans == 1


def test_the_search_index_is_made_when_first_asked_for_not_on_every_edit(tmp_path, monkeypatch):
    from postil import search

    runs: list[int] = []
    real = search._run_pagefind

    def counting(documents, *args):
        runs.append(len(documents))
        return real(documents, *args)

    monkeypatch.setattr(search, "_run_pagefind", counting)
    site = make_site(tmp_path / "site", config="search: true\n")
    builder = DevBuild(site)
    assert builder.build().ok and runs == []
    report = builder.build(edit(site / "content/posts/p03.md", "Second paragraph", "Edited"))
    assert report.ok and runs == []
    assert b"pagefind" in builder.files["pagefind/pagefind.js"]
    assert runs == [POSTS + 1]
    assert "pagefind/pagefind-entry.json" in builder.files and runs == [POSTS + 1]
    out = tmp_path / "out"
    build(BuildOptions(root=site, out_dir=out, drafts=True, cache=False))
    index = {p.relative_to(out).as_posix() for p in (out / "pagefind").rglob("*") if p.is_file()}
    assert {rel for rel in builder.files if rel.startswith("pagefind/")} == index


def test_a_rebuild_on_the_servers_thread_leaves_its_rows_in_the_cache(tmp_path):
    """The dev server builds on its own thread, not the one that opened `.postil-cache/`:
    its rebuilds' rows must reach the disk too, so the next server starts warm."""
    import threading

    site = make_site(tmp_path / "site")
    builder = DevBuild(site)
    assert builder.build().ok
    post = site / "content/posts/p05.md"
    changes = edit(post, "Second paragraph", "Edited on the build thread")
    thread = threading.Thread(target=builder.build, args=(changes,))
    thread.start()
    thread.join()
    builder.close()
    again = DevBuild(site)
    try:
        report = again.build()
        # Every post from the cache; no page renders: those the edit rendered have their
        # keys in the "served" rows, and the archive and tag index, which it left for a
        # request, have their templates in the "template" rows.
        assert report.ok and report.posts == 0 and report.pages == 0
        assert b"Edited on the build thread" in again.files["posts/p05/index.html"]
    finally:
        again.close()


def test_a_first_build_reads_no_html_row_and_pages_read_theirs_when_asked(tmp_path):
    from postil.cache.store import BuildCache, MemoryCache

    site = make_site(tmp_path / "site")
    build(BuildOptions(root=site, drafts=True))
    disk = BuildCache.open(site)
    asked: list[list[str]] = []
    real = disk.get_many

    def counting(kind, names):
        names = list(names)
        if kind == "html":
            asked.append(names)
        return real(kind, names)

    disk.get_many = counting  # type: ignore[method-assign]
    cache = MemoryCache(disk, ("post", "markdown", "html"), lazy=("html",))
    html = cache.reader("html")
    assert len(cache.names("html")) == POSTS + 1 and asked == []
    key = next(iter(cache.names("html")))
    assert html(key) == real("html", [key])[key][1] and asked == [[key]]
    html(key)
    assert asked == [[key]]  # read once, then kept
    cache.shutdown()


def watched(site: Path) -> DevBuild:
    """Return a dev server's builder of `site` whose watcher sees every write (`watching`)
    after one build that began while watching: from then on a change set proves which
    sources changed."""
    builder = warm(site)
    builder.watching()
    assert builder.build(ChangeSet(content=set())).ok
    return builder


def test_a_watched_edit_examines_only_the_edited_source(tmp_path, calls):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    calls.clear()
    report = builder.build(edit(site / "content/posts/p12.md", "Second paragraph", "Edited"))
    assert report.ok and report.posts == 1
    assert calls["_stat"] == 1 and calls["read_source"] == 1
    assert b"Edited" in builder.files["posts/p12/index.html"]


def test_the_first_build_after_the_watch_began_examines_every_source(tmp_path, calls):
    """Files written between a build and the watch's start sent no event: the build that
    began before the watch proves nothing about them."""
    site = make_site(tmp_path / "site")
    builder = warm(site)
    builder.watching()
    calls.clear()
    (site / "content/posts/p07.md").write_text(POST.format(n=70, day=7, tag=0))
    report = builder.build(ChangeSet(content=set()))
    assert report.ok and calls["_stat"] == POSTS + 1
    assert b"Post 70" in builder.files["posts/p07/index.html"]


@pytest.mark.parametrize(
    "changes", [None, ChangeSet(rescan=True), ChangeSet(config=True)], ids=repr
)
def test_a_rescan_a_config_change_or_no_change_set_examines_every_source(tmp_path, calls, changes):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    calls.clear()
    (site / "content/posts/p07.md").write_text(POST.format(n=70, day=7, tag=0))
    report = builder.build(changes)
    assert report.ok and calls["_stat"] == POSTS + 1
    assert b"Post 70" in builder.files["posts/p07/index.html"]


def test_watched_new_and_deleted_posts_are_seen(tmp_path):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    new = site / "content/posts/p99.md"
    new.write_text(POST.format(n=99, day=28, tag=1))
    report = builder.build(ChangeSet(content={new}))
    assert report.ok and "posts/p99/index.html" in builder.files
    gone = site / "content/posts/p03.md"
    gone.unlink()
    report = builder.build(ChangeSet(content={gone}))
    assert report.ok and "posts/p03/index.html" not in builder.files
    assert "posts/p99/index.html" in builder.files


def rename_save(path: Path, old: str, new: str) -> ChangeSet:
    """Save `path` as editors do atomically (a temp file renamed onto it); return what an
    inotify watcher reports."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    tmp.replace(path)
    return ChangeSet(content={path}, entries={tmp, path}, settled={path}, closed={path})


def served(builder: DevBuild) -> dict[str, bytes]:
    """Every file the dev server serves (deferred pages rendered)."""
    return {rel: builder.files[rel] for rel in builder.files}


def cold(site: Path) -> dict[str, bytes]:
    """The files `postil build --drafts` writes for `site`."""
    build(BuildOptions(root=site, drafts=True))
    out = site / "_site"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_a_watched_rename_save_lists_no_directory_again(tmp_path, calls):
    """Issue 20: an atomic save changes `content/posts/`'s times, not its entries; the
    watcher's entries prove it, so the folder is not listed again, and what is served is
    a cold build's."""
    site = make_site(tmp_path / "site")
    builder = watched(site)
    calls.clear()
    report = builder.build(rename_save(site / "content/posts/p12.md", "Second paragraph", "Ed"))
    assert report.ok and report.posts == 1
    assert calls["_scan"] == 0 and calls["_stat"] == 1 and calls["read_source"] == 1
    assert report.changed - builder.files.deferred == {"posts/p12/index.html"}
    again = builder.build(rename_save(site / "content/posts/p12.md", "Ed", "Second paragraph"))
    assert again.ok and calls["_scan"] == 0
    assert served(builder) == cold(site)


def test_a_watched_new_post_deletion_or_rename_to_a_new_name_is_listed(tmp_path, calls):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    posts = site / "content/posts"
    tmp = posts / "p99.md.tmp"
    tmp.write_text(POST.format(n=99, day=28, tag=1))
    tmp.replace(posts / "p99.md")
    calls.clear()
    report = builder.build(ChangeSet(content={posts / "p99.md"}, entries={tmp, posts / "p99.md"}))
    assert report.ok and calls["_scan"] == 1 and "posts/p99/index.html" in builder.files
    (posts / "p03.md").rename(posts / "p98.md")
    names = {posts / "p03.md", posts / "p98.md"}
    report = builder.build(ChangeSet(content=names, entries=names))
    assert report.ok and calls["_scan"] == 2
    assert "posts/p03/index.html" not in builder.files and "posts/p98/index.html" in builder.files
    (posts / "p04.md").unlink()
    report = builder.build(ChangeSet(content={posts / "p04.md"}, entries={posts / "p04.md"}))
    assert report.ok and calls["_scan"] == 3 and "posts/p04/index.html" not in builder.files
    assert served(builder) == cold(site)


def test_entries_named_by_a_failed_build_are_looked_at_by_the_next(tmp_path):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    image = site / "content/posts/figure.png"
    broken = site / "content/posts/p05.md"
    changes = edit(broken, "title: Post 5", "title: [Post 5")
    changes.entries.add(image)
    assert not builder.build(changes).ok
    p06 = site / "content/posts/p06.md"
    _, entries = builder._changed_sources(ChangeSet(content={p06}))
    assert entries == {image, broken, p06}
    assert builder.build(ChangeSet(content={broken})).ok is False  # still broken
    _, entries = builder._changed_sources(ChangeSet(rescan=True))
    assert entries is None  # a rescan lists every directory


def test_sources_named_by_a_failed_build_are_examined_by_the_next(tmp_path, calls):
    site = make_site(tmp_path / "site")
    builder = watched(site)
    broken = site / "content/posts/p05.md"
    report = builder.build(edit(broken, "title: Post 5", "title: [Post 5"))
    assert not report.ok
    broken.write_text(POST.format(n=55, day=5, tag=1))  # its event was in the failed batch
    calls.clear()
    report = builder.build(edit(site / "content/posts/p06.md", "Second paragraph", "Edited"))
    assert report.ok and calls["_stat"] == 2
    assert b"Post 55" in builder.files["posts/p05/index.html"]


def test_a_source_reached_through_a_symlink_is_examined_on_every_build(tmp_path, calls):
    """A write to a symlink's target is an event of the target's path, not the link's."""
    site = make_site(tmp_path / "site")
    (site / "content/series").mkdir()
    target = site / "content/series/part.md"
    target.write_text("---\ntitle: Part\n---\n\nFirst.\n")
    (site / "content/posts/part.md").symlink_to(target)
    builder = watched(site)
    target.write_text("---\ntitle: Part\n---\n\nSecond.\n")
    calls.clear()
    report = builder.build(ChangeSet(content={target}))
    assert report.ok and calls["_stat"] == POSTS + 3
    assert b"Second." in builder.files["posts/part/index.html"]


def test_a_source_with_another_hard_link_is_examined_on_every_build(tmp_path, calls):
    """A write through another hard link (outside `content/`) is no event of the source's
    path: such a source is examined on every build, as without a watcher."""
    site = make_site(tmp_path / "site")
    outside = tmp_path / "drafts-p04.md"
    os.link(site / "content/posts/p04.md", outside)
    builder = watched(site)
    with outside.open("r+", encoding="utf-8") as text:  # in place: the same inode
        body = text.read().replace("Second paragraph", "Written elsewhere")
        text.seek(0)
        text.write(body)
        text.truncate()
    calls.clear()
    report = builder.build(edit(site / "content/posts/p12.md", "Second paragraph", "Edited"))
    assert report.ok and calls["_stat"] == 2
    assert b"Written elsewhere" in builder.files["posts/p04/index.html"]


def test_a_running_servers_first_save_examines_only_the_saved_source(tmp_path, calls):
    """`postil serve` as a user runs it: its watcher sees every write, and once it has
    answered a request it builds once more (the first build began before the watch: that
    build examines every source), so from the first save on a save `stat`s its own source."""
    import http.client
    import time

    from postil.serve.app import DevServer, ServeOptions

    site = make_site(tmp_path / "site")
    post = site / "content/posts/p09.md"
    with DevServer(ServeOptions(site, port=0)) as server:
        assert server.http is not None
        calls.clear()
        conn = http.client.HTTPConnection(*server.http.server_address[:2], timeout=20)
        conn.request("GET", "/")
        assert conn.getresponse().read() and server.hub.view(timeout=0).build == 1
        conn.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and server.hub.view(timeout=0).build == 1:
            time.sleep(0.02)  # the build after the first answer
        assert server.hub.view(timeout=0).build == 2 and calls["_stat"] == POSTS + 1

        def saved(text: str) -> None:
            build = server.hub.view(timeout=0).build
            calls.clear()
            post.write_text(post.read_text(encoding="utf-8") + text, encoding="utf-8")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (
                server.hub.view(timeout=0).build == build or server.batcher.busy
            ):
                time.sleep(0.02)
            assert text.strip().encode() in server.builder.files["posts/p09/index.html"]

        saved("\nFirst save.\n")
        assert calls["_stat"] == 1
        saved("\nSecond save.\n")
        assert calls["_stat"] == 1


def test_a_running_servers_rename_save_lists_no_directory_and_a_new_post_is_listed(tmp_path, calls):
    """`postil serve` with inotify: an editor's atomic save of a post lists no directory
    again; a post saved under a new name the same way is listed and served."""
    import time

    from postil.serve.app import DevServer, ServeOptions

    site = make_site(tmp_path / "site")
    posts = site / "content/posts"
    with DevServer(ServeOptions(site, port=0)) as server:

        def saved(name: str, text: str) -> None:
            build = server.hub.view(timeout=0).build
            calls.clear()
            tmp = posts / f".{name}.swp"  # hidden, as some editors name it
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(posts / name)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (
                server.hub.view(timeout=0).build == build or server.batcher.busy
            ):
                time.sleep(0.02)

        saved("p09.md", POST.format(n=9, day=9, tag=1) + "\nFirst save.\n")
        assert b"First save." in server.builder.files["posts/p09/index.html"]
        saved("p09.md", POST.format(n=9, day=9, tag=1) + "\nSecond save.\n")
        assert b"Second save." in server.builder.files["posts/p09/index.html"]
        assert calls["_scan"] == 0 and calls["_stat"] == 1
        saved("p77.md", POST.format(n=77, day=27, tag=1))
        assert b"Post 77" in server.builder.files["posts/p77/index.html"]
        assert calls["_scan"] == 1


def test_a_new_post_on_a_published_slug_moves_only_the_later_post(tmp_path):
    """`2025-03-01-p05.md` added beside `p05.md`: `p05.md` has no longer slug to take, so it
    keeps `posts/p05/` (though the new post's front matter dates it earlier) and the new
    post takes its dated name; deleting `p05.md` gives the slug back. What the dev server
    serves is a cold build's each time."""
    site = make_site(tmp_path / "site")
    builder = watched(site)
    later = site / "content/posts/2025-03-01-p05.md"
    later.write_text(POST.format(n=5, day=1, tag=0).replace("Post 5", "Post 5 again"))
    report = builder.build(ChangeSet(content={later}, entries={later}))
    assert report.ok, report.errors
    assert "posts/2025-03-01-p05/index.html" in builder.files
    assert b"Post 5 again" not in builder.files["posts/p05/index.html"]
    assert served(builder) == cold(site)
    (site / "content/posts/p05.md").unlink()
    gone = {site / "content/posts/p05.md"}
    assert builder.build(ChangeSet(content=gone, entries=gone)).ok
    assert b"Post 5 again" in builder.files["posts/p05/index.html"]
    assert "posts/2025-03-01-p05/index.html" in builder.files  # the redirect page, now
    assert served(builder) == cold(site)
