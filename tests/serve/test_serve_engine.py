"""The dev server's build (the build's pipeline into memory) re-renders only what a change
touches, and gets it right."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from postil.build import BuildOptions, build
from postil.serve.engine import DevBuild
from postil.serve.watcher import ChangeSet

POST = """---
title: Post {n}
date: 2025-01-{day:02d}
tags: [t{tag}]
---

Body of post {n} with $x^{n}$.

Second paragraph of post {n}.
"""


def make_site(root: Path, posts: int = 6, base_url: str = "https://example.org/") -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(
        f"title: Test site\nauthor: Ada\nbase_url: {base_url}\npaginate: 2\n", encoding="utf-8"
    )
    for n in range(1, posts + 1):
        text = POST.format(n=n, day=n, tag=n % 2)
        (root / f"content/posts/p{n}.md").write_text(text, encoding="utf-8")
    (root / "content/about.md").write_text("---\ntitle: About\n---\n\nAbout me.\n")
    return root


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


@pytest.fixture
def builder(site: Path) -> DevBuild:
    b = DevBuild(site)
    assert b.build().ok
    return b


def edit(path: Path, old: str, new: str) -> ChangeSet:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return ChangeSet(content={path})


def full_build_files(site: Path, out: Path) -> dict[str, bytes]:
    build(BuildOptions(root=site, out_dir=out, drafts=True))
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_editing_a_post_body_renders_one_post_and_changes_one_page(site, builder) -> None:
    # The second paragraph: the first one is the summary that list pages show.
    post = site / "content/posts/p3.md"
    report = builder.build(edit(post, "Second paragraph of post 3", "Edited text"))
    assert report.ok and report.posts == 1
    assert report.changed - builder.files.deferred == {"posts/p3/index.html"}
    assert b"Edited text" in builder.files["posts/p3/index.html"]
    assert report.pages < 10


def test_editing_a_title_rerenders_the_neighbours_and_list_pages(site, builder) -> None:
    report = builder.build(edit(site / "content/posts/p3.md", "title: Post 3", "title: Renamed"))
    assert {"posts/p3/index.html", "posts/p2/index.html", "posts/p4/index.html"} <= report.changed
    assert any(rel.startswith("tags/") for rel in report.changed)
    assert "posts/p6/index.html" not in report.changed


def test_a_template_change_rerenders_pages_but_no_markdown(site, builder) -> None:
    (site / "templates").mkdir()
    (site / "templates/404.html").write_text("<!DOCTYPE html><title>gone</title><p>Lost.</p>\n")
    report = builder.build(ChangeSet(templates={site / "templates/404.html"}))
    assert report.ok and report.posts == 0
    assert report.changed - builder.files.deferred == {"404.html"}
    assert b"Lost." in builder.files["404.html"]


WIDGET_POST = """---
title: Widget post
date: 2025-01-20
---

```{temperature}
tokens: [The, cat, sat]
query: sat
scores: [1.0, 0]
tau: {min: 0.5, max: 2, steps: 3}
caption: Weights.
```
"""


def test_a_widget_template_change_rerenders_only_posts_with_widgets(site, repo_root) -> None:
    (site / "content/posts/widget.md").write_text(WIDGET_POST, encoding="utf-8")
    builder = DevBuild(site)
    assert builder.build().ok
    theme = (repo_root / "templates/widgets/temperature.html").read_text(encoding="utf-8")
    override = site / "templates/widgets/temperature.html"
    override.parent.mkdir(parents=True)
    override.write_text(theme + "<p>Overridden widget</p>\n", encoding="utf-8")
    report = builder.build(ChangeSet(templates={override}))
    assert report.ok and report.posts == 1
    assert b"Overridden widget" in builder.files["posts/widget/index.html"]
    assert b"Overridden widget" not in builder.files["posts/p1/index.html"]


def test_a_template_error_in_a_page_of_every_post_is_reported(site, builder) -> None:
    (site / "templates").mkdir()
    (site / "templates/archive.html").write_text("{% extends 'base.html' %}{% block main %}")
    report = builder.build(ChangeSet(templates={site / "templates/archive.html"}))
    assert not report.ok and report.errors[0].location.path == "templates/archive.html"


def test_a_static_change_changes_only_that_file(site, builder) -> None:
    (site / "static/css").mkdir(parents=True)
    (site / "static/css/extra.css").write_text("p { color: red }\n")
    report = builder.build(ChangeSet(static={site / "static/css/extra.css"}))
    assert report.ok and report.changed == {"css/extra.css"} and report.pages == 0
    assert builder.files["css/extra.css"] == b"p { color: red }\n"


def test_a_broken_post_keeps_the_last_good_site_and_names_the_line(site, builder) -> None:
    before = builder.files
    post = site / "content/posts/p2.md"
    post.write_text("---\ntitle: Post 2\ndate: not a date\n---\n\nBroken.\n")
    report = builder.build(ChangeSet(content={post}))
    assert not report.ok and not report.changed
    assert [str(e.location) for e in report.errors] == ["content/posts/p2.md:3:7"]
    assert report.errors[0].source_line == "date: not a date"
    assert builder.files is before
    fixed = builder.build(edit(post, "date: not a date", "date: 2025-01-02"))
    assert fixed.ok and "posts/p2/index.html" in fixed.changed
    assert b"Broken." in builder.files["posts/p2/index.html"]


def test_every_error_of_the_site_is_listed_not_only_the_new_one(site, builder) -> None:
    for n in (1, 4):
        (site / f"content/posts/p{n}.md").write_text("---\ntitle: [unclosed\n---\n")
    paths = {site / "content/posts/p1.md", site / "content/posts/p4.md"}
    report = builder.build(ChangeSet(content=paths))
    assert sorted(e.location.path for e in report.errors) == [
        "content/posts/p1.md",
        "content/posts/p4.md",
    ]


def test_deleting_and_adding_posts_updates_pages_and_lists(site, builder) -> None:
    gone = site / "content/posts/p6.md"
    gone.unlink()
    report = builder.build(ChangeSet(content={gone}))
    assert report.ok and "posts/p6/index.html" in report.changed
    assert "posts/p6/index.html" not in builder.files
    fresh = site / "content/posts/p9.md"
    fresh.write_text(POST.format(n=9, day=9, tag=1))
    report = builder.build(ChangeSet(content={fresh}))
    assert "posts/p9/index.html" in builder.files and "index.html" in report.changed


def test_a_config_change_rebuilds_everything(site, builder) -> None:
    config = site / "postil.yaml"
    config.write_text(config.read_text().replace("Test site", "Renamed site"))
    report = builder.build(ChangeSet(config=True))
    assert report.ok and b"Renamed site" in builder.files["posts/p1/index.html"]
    assert "posts/p1/index.html" in report.changed and "index.html" in report.changed


def test_pages_of_every_post_render_on_request_and_follow_edits(site, builder) -> None:
    assert "feed.xml" in builder.files.deferred and "feed.xml" in builder.files
    assert b"Body of post 3" in builder.files["feed.xml"]
    report = builder.build(edit(site / "content/posts/p3.md", "Body of post 3", "Edited text"))
    assert {"feed.xml", "archive/index.html"} <= report.changed & builder.files.deferred
    assert b"Edited text" in builder.files["feed.xml"]


def test_undoing_an_edit_is_a_markdown_cache_hit(site, builder) -> None:
    post = site / "content/posts/p3.md"
    builder.build(edit(post, "Second paragraph of post 3", "Edited text"))
    report = builder.build(edit(post, "Edited text", "Second paragraph of post 3"))
    assert report.posts == 0
    assert report.changed - builder.files.deferred == {"posts/p3/index.html"}


def test_incremental_output_equals_a_full_build_after_many_edits(site, builder, tmp_path) -> None:
    posts = site / "content/posts"
    builder.build(edit(posts / "p1.md", "date: 2025-01-01", "date: 2025-02-28"))
    builder.build(edit(posts / "p4.md", "tags: [t0]", "tags: [t1, new]"))
    (posts / "p5.md").unlink()
    builder.build(ChangeSet(content={posts / "p5.md"}))
    builder.build(edit(posts / "p2.md", "title: Post 2", "title: Second\ndraft: true"))
    expected = full_build_files(site, tmp_path / "out")
    assert {rel: builder.files[rel] for rel in builder.files} == expected


def test_a_deleted_file_and_a_template_error_never_raise(site, builder) -> None:
    (site / "templates").mkdir()
    (site / "templates/post.html").write_text(
        "{% block main %}{{ undefined_name.x }}{% endblock %}"
    )
    report = builder.build(ChangeSet(templates={site / "templates/post.html"}))
    assert not report.ok and str(report.errors[0]).startswith("templates/post.html:1:")
    assert "'undefined_name' is undefined" in report.errors[0].message
    (site / "templates/post.html").unlink()
    (site / "postil.yaml").unlink()
    report = builder.build(ChangeSet(config=True))
    assert not report.ok and "postil.yaml" in report.errors[0].message


def test_a_config_with_two_problems_shows_both_in_the_served_error(site, builder) -> None:
    text = (site / "postil.yaml").read_text()
    (site / "postil.yaml").write_text(text + "colour: red\nsearch: maybe\n")
    report = builder.build(ChangeSet(config=True))
    assert not report.ok
    assert [str(e).split(";")[0] for e in report.errors] == [
        f"postil.yaml:{text.count(chr(10)) + 1}:1: unknown key `colour`",
        f"postil.yaml:{text.count(chr(10)) + 2}:9: `search` must be true or false, not `maybe`",
    ]


def test_the_tiny_site_serves_what_postil_build_writes(repo_root: Path, tmp_path: Path) -> None:
    site = tmp_path / "tiny"
    shutil.copytree(repo_root / "tests/sites/tiny", site)
    builder = DevBuild(site)
    assert builder.build().ok
    assert {rel: builder.files[rel] for rel in builder.files} == full_build_files(
        site, tmp_path / "out"
    )


def test_under_a_base_path_served_links_match_the_built_site(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", posts=2, base_url="https://u.github.io/repo/")
    post = site / "content/posts/p1.md"
    post.write_text(post.read_text() + "\n![plot](/img/plot.png) and [two](p2.md).\n")
    builder = DevBuild(site)
    assert builder.build().ok
    served = builder.files["posts/p1/index.html"]
    assert b'src="/repo/img/plot.png"' in served and b'href="/repo/posts/p2/"' in served
    out = tmp_path / "out"
    build(BuildOptions(root=site, out_dir=out, drafts=True, cache=False))
    assert (out / "posts/p1/index.html").read_bytes() == served


SERVE_PROBE = """
import json, sys
from pathlib import Path
from postil import render
from postil.serve.app import DevServer, ServeOptions
pooled = []
real = render._render_in_pool
def counting(config, posts, *args):
    pooled.append(len(posts))
    return real(config, posts, *args)
render._render_in_pool = counting
with DevServer(ServeOptions(Path(sys.argv[1]), port=0)) as server:
    print(json.dumps([server.first_build.ok, server.first_build.posts, pooled]))
"""


def test_the_first_build_renders_in_the_pool_and_leaves_the_cache_warm(tmp_path):
    """serve's first build runs before its threads start, so posts render in the same forked
    pool as `postil build`; its rows reach .postil-cache/, so the next start renders nothing
    and `postil build` after it neither. (In a fresh process: with threads alive, as in a
    test session with servers, the pool rightly spawns instead and small batches stay here.)"""
    from postil import parallel

    site = make_site(tmp_path / "site", posts=parallel.SEQUENTIAL_BELOW + 4)
    command = [sys.executable, "-c", SERVE_PROBE, str(site)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert json.loads(done.stdout.splitlines()[-1]) == [True, 13, [13]], done.stderr
    again = DevBuild(site)  # 12 posts and the about page were rendered in the pool
    try:
        assert again.build().posts == 0  # from .postil-cache, no post rendered
    finally:
        again.close()
    assert build(BuildOptions(root=site, out_dir=tmp_path / "out", drafts=True)).rendered == 0


def test_a_cache_error_is_built_again_not_reported(site, builder, monkeypatch) -> None:
    """As `postil build` does, a cached row that proves unreadable (`CacheError`) makes the
    build run once more with every post rendered afresh, instead of failing."""
    from postil.cache import CacheError
    from postil.serve import engine

    calls: list[bool] = []
    real = engine.run

    def flaky_run(
        options, cache, output, now=None, trusted=True, on_warning=None, changed=None, entries=None
    ):
        calls.append(trusted)
        if trusted:
            raise CacheError("the build cache lost its html row x")
        return real(options, cache, output, now, trusted, on_warning, changed, entries)

    monkeypatch.setattr(engine, "run", flaky_run)
    report = builder.build(edit(site / "content/posts/p3.md", "title: Post 3", "title: Renamed"))
    assert calls == [True, False]
    assert report.ok and report.posts == 7  # every post and the about page, afresh
    assert b"Renamed" in builder.files["posts/p2/index.html"]


def test_a_post_dated_a_moment_ahead_is_served_once_it_is_due(tmp_path) -> None:
    """`postil build` includes a future-dated post once its date has passed; the dev server
    builds again at that moment instead of waiting for an unrelated save."""
    from datetime import datetime, timedelta, timezone

    from postil.serve.app import DevServer, ServeOptions

    site = make_site(tmp_path / "site", posts=2)
    due = datetime.now(timezone.utc) + timedelta(seconds=2)
    (site / "content/posts/soon.md").write_text(
        f"---\ntitle: Soon\ndate: {due:%Y-%m-%d %H:%M:%S}+00:00\n---\n\nAlmost there.\n"
    )
    with DevServer(ServeOptions(site, port=0)) as server:
        assert server.first_build is not None
        assert server.first_build.next_publication == due.replace(microsecond=0)
        assert "posts/soon/index.html" not in server.hub.view(timeout=0).files
        deadline = time.monotonic() + 10
        while "posts/soon/index.html" not in server.hub.view(timeout=0).files:
            assert time.monotonic() < deadline, "the post never appeared"
            time.sleep(0.05)
    assert datetime.now(timezone.utc) >= due.replace(microsecond=0)


def test_the_terminal_shows_warnings_and_errors_as_postil_build_prints_them(site, caplog):
    """Warnings are printed after a failed build too, each with its source line and caret,
    exactly as `postil build` reports them."""
    import logging

    from postil.serve.app import _log_report

    post = site / "content/posts/p2.md"
    post.write_text(post.read_text() + "\n```nosuchlang\nx\n```\n\nAn empty role: {eq}``.\n")
    report = DevBuild(site).build()
    assert not report.ok and report.warnings and report.errors
    with caplog.at_level(logging.INFO, logger="postil.serve"):
        _log_report(report)
    printed = [r.getMessage() for r in caplog.records]
    assert printed[: len(report.warnings)] == [w.report() for w in report.warnings]
    assert any("nosuchlang" in line and "\n    ```nosuchlang\n    ^" in line for line in printed)
    assert printed[-1].startswith("build failed in")


def test_the_terminal_counts_a_builds_work_in_words(site, caplog):
    """Session 44: "1 post(s) rendered, 8 page(s), 7 file(s) changed"; now in words, as
    `postil build` counts."""
    import logging
    import re

    from postil.serve.app import _log_report

    report = DevBuild(site).build()
    with caplog.at_level(logging.INFO, logger="postil.serve"):
        _log_report(report, first=True)
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("built")]
    assert re.fullmatch(
        r"built in \d+ ms: \d+ posts and \d+ pages rendered, \d+ files changed", line
    )
    assert "(s)" not in line


def test_the_terminal_prints_the_notes_postil_build_prints(site, caplog):
    """One engine: the dev server prints a build's notes (here the posts still to come it
    left out) as `postil build` does, before its summary line."""
    import logging

    from postil.serve.app import _log_report

    (site / "content/posts/later.md").write_text(
        "---\ntitle: Later\ndate: 2999-01-01\n---\n\nNot yet.\n", encoding="utf-8"
    )
    report = DevBuild(site).build()
    expected = build(BuildOptions(site, drafts=True)).notes  # the dev server shows drafts
    assert report.notes == expected
    assert any(note.startswith("note: left out 1 post dated in the future") for note in expected)
    with caplog.at_level(logging.INFO, logger="postil.serve"):
        _log_report(report, first=True)
    printed = [r.getMessage() for r in caplog.records]
    assert printed[-1 - len(expected) : -1] == list(expected)
    assert printed[-1].startswith("built in")


def test_an_edited_posts_own_page_is_handed_over_before_the_others_render(site, builder):
    from postil.serve.engine import FirstPages

    post = site / "content/posts/p3.md"
    builder.build(edit(post, "Second paragraph of post 3", "Edited text"))
    old = builder.files
    heard: list[tuple[FirstPages, bytes]] = []
    # What the served site holds while the first pages are handed over: the last good one.
    builder.on_first = lambda pages: heard.append((pages, builder.files["index.html"]))
    report = builder.build(edit(post, "Edited text", "Edited again"))
    assert report.ok and report.pages > 1  # the list and tag pages that show p3 too
    [(pages, served)] = heard
    assert pages.ready == pages.changed == {"posts/p3/index.html"}
    assert b"Edited again" in pages.files["posts/p3/index.html"]
    assert served == old["index.html"] and pages.files["index.html"] == old["index.html"]
    assert report.early == {"posts/p3/index.html"} <= report.changed
    assert builder.files["posts/p3/index.html"] == pages.files["posts/p3/index.html"]


def test_no_page_is_handed_over_early_when_the_edit_changes_no_bytes(site, builder) -> None:
    heard: list[object] = []
    builder.on_first = heard.append
    post = site / "content/posts/p3.md"
    report = builder.build(edit(post, "Second paragraph of post 3.", "Second paragraph of post 3."))
    assert report.ok and heard == [] and report.early == frozenset()


def test_a_warm_start_after_edits_renders_no_page_to_check_its_template(site, builder) -> None:
    """The pages that show every post are deferred once their template has rendered
    without error; after an edit their key is new and was never rendered, so a server
    started on that cache defers them only if it knows the template rendered before with
    the same templates (the "template" rows)."""
    builder.build(edit(site / "content/posts/p3.md", "Second paragraph of post 3", "Edited"))
    assert {"archive/index.html", "tags/index.html"} <= builder.files.deferred
    builder.close()
    again = DevBuild(site)
    try:
        report = again.build()
        assert report.ok and report.pages == 0
        assert {"archive/index.html", "tags/index.html"} <= again.files.deferred
        out = site.parent / "out"
        built = full_build_files(site, out)
        assert again.files["archive/index.html"] == built["archive/index.html"]
        assert again.files["tags/index.html"] == built["tags/index.html"]
    finally:
        again.close()


def test_a_template_changed_between_servers_is_checked_again(site, builder) -> None:
    builder.build(edit(site / "content/posts/p3.md", "Second paragraph of post 3", "Edited"))
    builder.close()
    (site / "templates").mkdir()
    (site / "templates/archive.html").write_text("{{ no_such_thing.attribute }}")
    report = DevBuild(site).build()
    assert not report.ok and any("archive.html" in str(e) for e in report.errors)


def test_an_edited_posts_own_page_is_handed_over_before_any_other_page_is_looked_at(
    site, builder, monkeypatch
) -> None:
    """The write stage renders the own page of an edited post before it walks the other
    pages (`Writer.render_first`): nothing of the other 1,000s of pages (their keys'
    rows, the writer's `reuse`) stands between the edit and its page; the build's end and
    what it serves are as before."""
    from postil.serve.memory import MemoryWriter

    post = site / "content/posts/p3.md"
    builder.watching()
    builder.build(edit(post, "Second paragraph of post 3", "Edited text"))
    reused: list[str] = []
    kept = MemoryWriter.reuse
    monkeypatch.setattr(
        MemoryWriter, "reuse", lambda w, rel, t: reused.append(rel) or kept(w, rel, t)
    )
    heard: list[tuple[frozenset[str], int]] = []
    builder.on_first = lambda pages: heard.append((pages.changed, len(reused)))
    report = builder.build(edit(post, "Edited text", "Edited again"))
    assert heard == [(frozenset({"posts/p3/index.html"}), 0)]
    assert report.ok and report.early == {"posts/p3/index.html"} and report.pages > 1
    assert len(reused) > 10  # the other pages were looked at after the hand-over
    built = full_build_files(site, site.parent / "out")
    assert {rel: builder.files[rel] for rel in built} == built


def test_the_own_page_waits_for_the_whole_build_when_no_other_page_renders(site, builder) -> None:
    """An edit whose only rendered page is the post's own (the pages that show it are made
    on request) is announced once, by the build's event, as before."""
    from postil.cache.keys import PageKeys
    from postil.pages import PageSpec
    from postil.write import _ahead

    keys = PageKeys.__new__(PageKeys)
    keys.looked_at, keys._changed = [0, 1, 2], frozenset({"/a/"})
    specs = [PageSpec("a/index.html", "post.html", frozenset({"/a/"})),
             PageSpec("index.html", "list.html", frozenset({"/a/"}), lazy=True),
             PageSpec("archive/index.html", "archive.html", None)]  # fmt: skip
    own = lambda i: i == 0  # noqa: E731
    assert _ahead(specs, ["k0", "k1", "k2"], {}, keys, own, True) == []
    shown = [*specs[:1], PageSpec("index.html", "list.html", frozenset({"/a/"})), specs[2]]
    assert _ahead(shown, ["k0", "k1", "k2"], {}, keys, own, True) == [0]
    assert _ahead(shown, ["k0", "k1", "k2"], {"index.html": ("k1", "t")}, keys, own, True) == []
    assert _ahead(shown, ["k0", "k1", "k2"], {}, keys, own, False) == []  # a path twice


def test_a_static_file_copied_just_before_the_start_is_not_announced_by_an_edit(
    site, monkeypatch
) -> None:
    """A static file younger than `RACY_NS` at the first build has its digest as token,
    and its stat signature once it is older: same bytes, another token. The first edit's
    event named it, so every page restyled (a script or an image: reloaded) for nothing."""
    import postil.cache.manifest as manifest

    (site / "static/css").mkdir(parents=True)
    (site / "static/css/own.css").write_text("main { color: navy; }\n")
    builder = DevBuild(site)
    monkeypatch.setattr(manifest, "RACY_NS", 10**18)  # every file is young
    assert builder.build().ok
    monkeypatch.setattr(manifest, "RACY_NS", 0)  # every file is old
    post = site / "content/posts/p2.md"
    report = builder.build(edit(post, "Second paragraph", "Edited paragraph"))
    assert report.ok and "posts/p2/index.html" in report.changed
    assert "css/own.css" not in report.changed
    (site / "static/css/own.css").write_text("main { color: teal; }\n")
    report = builder.build(ChangeSet(static={site / "static/css/own.css"}))
    assert report.changed == {"css/own.css"}  # a real change still is


def test_the_server_prints_each_warning_once_at_start_and_a_save_that_changes_output(site, caplog):
    """The build after the first (`DevServer._prepare`) printed every warning of the site a
    second time and "rebuilt in 5 ms: 0 posts and 0 pages rendered, 0 files changed";
    a build that changes no file and finds what the last printed one did prints nothing."""
    import http.client
    import logging

    from postil.serve.app import DevServer, ServeOptions

    post = site / "content/posts/p2.md"
    post.write_text(post.read_text() + "\n```nosuchlang\nx\n```\n")
    with caplog.at_level(logging.INFO, logger="postil.serve"):
        with DevServer(ServeOptions(site, port=0)) as server:
            assert server.http is not None
            conn = http.client.HTTPConnection(*server.http.server_address[:2], timeout=20)
            conn.request("GET", "/")
            assert conn.getresponse().read()
            conn.close()
            deadline = time.monotonic() + 20
            while server.hub.view(timeout=0).build < 2 or server.batcher.busy:
                assert time.monotonic() < deadline, "no build after the first answer"
                time.sleep(0.02)
            build = server.hub.view(timeout=0).build
            post.write_text(post.read_text() + "\nA new line.\n")
            while server.hub.view(timeout=0).build == build or server.batcher.busy:
                assert time.monotonic() < deadline, "the save was never built"
                time.sleep(0.02)
    printed = [r.getMessage() for r in caplog.records]
    outcomes = [line.split(" in ")[0] for line in printed if " ms: " in line]
    assert outcomes == ["built", "rebuilt"]  # the start, the save; not the warm-up build
    assert sum("nosuchlang" in line for line in printed) == 2  # at the start and the save


def test_a_failing_site_prints_its_errors_once_and_then_one_line_a_build(site, caplog):
    """A site whose first build failed printed every error twice at the start (the warm-up
    build after the first printed them again), and again on each save that fixed nothing;
    now the same errors again are one line, and a save that fixes them says "rebuilt"."""
    import http.client
    import logging

    from postil.serve.app import DevServer, ServeOptions

    post = site / "content/posts/p2.md"
    good = post.read_text()
    post.write_text(good.replace("date: 2025-01-02", "date: 2025-02-30"))
    with caplog.at_level(logging.INFO, logger="postil.serve"):
        with DevServer(ServeOptions(site, port=0)) as server:
            assert server.http is not None
            conn = http.client.HTTPConnection(*server.http.server_address[:2], timeout=20)
            conn.request("GET", "/")
            conn.getresponse().read()
            conn.close()
            deadline = time.monotonic() + 20

            def built_after(build: int) -> None:
                while server.hub.view(timeout=0).build == build or server.batcher.busy:
                    assert time.monotonic() < deadline, "no build"
                    time.sleep(0.02)

            built_after(1)
            build = server.hub.view(timeout=0).build
            post.write_text(post.read_text() + "\nStill broken.\n")
            built_after(build)
            build = server.hub.view(timeout=0).build
            post.write_text(good)
            built_after(build)
    printed = [r.getMessage() for r in caplog.records]
    assert sum("2025-02-30" in line for line in printed) == 1
    outcomes = [line.split(" in ")[0] for line in printed if " ms" in line]
    assert outcomes == ["build failed", "build failed again", "build failed again", "rebuilt"]
