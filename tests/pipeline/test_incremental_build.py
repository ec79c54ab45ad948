"""Rebuilding after a change: only what changed is redone, and the output equals a clean build."""

from __future__ import annotations

import os
import time

import pytest
from support.blog import build_site, make_site, post_text
from support.corpus import build_probed, corpus, tree


def edit(root, name, text):
    (root / "content/posts" / name).write_text(text, encoding="utf-8")


def clean_build(tmp_path, root):
    """Build `root` without the cache into a fresh directory; return its files."""
    out = tmp_path / "clean_out"
    build_site(root, cache=False, out_dir=out)
    return tree(out)


def test_one_edited_post_renders_once_and_matches_a_clean_build(tmp_path):
    root = make_site(tmp_path / "site", corpus(6))
    build_site(root)
    edit(root, "p02.md", post_text("Post 2, edited", "2026-01-03", "New $y^3$ body.\n"))
    result = build_site(root)
    assert result.rendered == 1
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_an_edited_title_with_math_renders_the_post_again(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    build_site(root)
    text = (root / "content/posts/p01.md").read_text("utf-8")
    edit(root, "p01.md", text.replace("title: Post 1\n", "title: Post $\\alpha$\n"))  # body kept
    result = build_site(root)
    assert result.rendered == 1
    assert "<math" in (root / "_site/posts/p01/index.html").read_text("utf-8").split("<h1")[1]
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_unchanged_files_keep_their_inode_and_changed_ones_are_new(tmp_path):
    root = make_site(tmp_path / "site", corpus(30))
    build_site(root)
    site = root / "_site"
    before = {rel: os.stat(site / rel).st_ino for rel in tree(site)}
    edit(root, "p10.md", post_text("Post 10", "2026-01-11", "Only this changed.\n"))
    result = build_site(root)
    after = {rel: os.stat(site / rel).st_ino for rel in tree(site)}
    changed = {rel for rel in after if after[rel] != before.get(rel)}
    assert "posts/p10/index.html" in changed
    assert "posts/p20/index.html" not in changed and "css/base.css" not in changed
    assert result.written == len(changed) < len(after) // 2


def test_an_output_file_edited_by_hand_is_written_again(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    build_site(root)
    page = root / "_site/posts/p01/index.html"
    good = page.read_bytes()
    page.write_bytes(b"vandalised")
    assert build_site(root).written == 1
    assert page.read_bytes() == good


def test_a_stray_file_in_the_output_goes_even_when_nothing_changed(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    build_site(root)
    (root / "_site/stray.txt").write_text("left over")
    (root / "_site/empty").mkdir()
    build_site(root)
    assert tree(root / "_site") == clean_build(tmp_path, root)
    assert not (root / "_site/empty").exists()


def test_a_deleted_post_disappears_from_the_output(tmp_path):
    root = make_site(tmp_path / "site", corpus(4))
    build_site(root)
    (root / "content/posts/p03.md").unlink()
    assert build_site(root).rendered == 0
    assert not (root / "_site/posts/p03").exists()
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_a_changed_static_file_and_template_reach_the_output(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    build_site(root)
    (root / "static/css").mkdir(parents=True)
    (root / "static/css/extra.css").write_text("p { color: red }")
    (root / "templates").mkdir()
    (root / "templates/404.html").write_text("<p>custom 404</p>\n")
    result = build_site(root)
    assert result.rendered == 0
    assert (root / "_site/css/extra.css").read_text() == "p { color: red }"
    assert (root / "_site/404.html").read_text() == "<p>custom 404</p>\n"
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_a_new_post_shows_on_the_index_like_in_a_clean_build(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    build_site(root)
    edit(root, "new.md", post_text("Brand new", "2026-02-01", "Fresh.\n"))
    build_site(root)
    assert b"Brand new" in (root / "_site/index.html").read_bytes()
    assert tree(root / "_site") == clean_build(tmp_path, root)


@pytest.mark.slow
def test_successive_edits_through_the_spare_output_each_match_a_clean_build(tmp_path):
    root = make_site(tmp_path / "site", corpus(6))
    build_site(root)
    changes = [
        lambda: edit(root, "p01.md", post_text("Post 1", "2026-01-02", "First edit.\n")),
        lambda: edit(root, "p04.md", post_text("Post 4", "2026-01-05", "Second edit.\n")),
        lambda: (root / "content/posts/p05.md").unlink(),
        lambda: edit(root, "p01.md", post_text("Post 1 again", "2026-01-02", "Third.\n")),
        lambda: (root / "_site/stray.html").write_text("stray"),
    ]
    for number, change in enumerate(changes):
        change()
        build_site(root)
        assert tree(root / "_site") == clean_build(tmp_path / str(number), root), number
    assert list((root / ".postil-cache/spare").iterdir())


def test_a_build_failing_while_updating_the_spare_keeps_the_site_and_recovers(
    tmp_path, monkeypatch
):
    from postil import pages
    from postil.errors import TemplateError

    root = make_site(tmp_path / "site", corpus(5))
    build_site(root)
    edit(root, "p00.md", post_text("Post 0", "2026-01-01", "Edit one.\n"))
    build_site(root)  # the first output is now the spare
    before = tree(root / "_site")
    calls = []

    def failing_render(env, job):
        calls.append(job.rel)
        if len(calls) == 3:
            raise TemplateError("the theme broke")
        return real_render(env, job)

    real_render = pages.render_job
    monkeypatch.setattr(pages, "render_job", failing_render)
    edit(root, "p02.md", post_text("Post 2", "2026-01-03", "Edit two.\n"))
    edit(root, "p03.md", post_text("Post 3", "2026-01-04", "Edit three.\n"))
    with pytest.raises(TemplateError):
        build_site(root)
    assert tree(root / "_site") == before
    monkeypatch.setattr(pages, "render_job", real_render)
    build_site(root)
    assert tree(root / "_site") == clean_build(tmp_path, root)


@pytest.mark.slow
def test_benchmark_corpus_cold_warm_and_one_edit_match_clean_builds(tmp_path, shared_dir):
    """The 100-post smoke run of `benchmarks/run.py`: no timings asserted, only outcomes."""
    import subprocess
    import sys

    gen = shared_dir / "bench" / "gen_corpus.py"
    corpus_dir = tmp_path / "corpus"
    command = [sys.executable, str(gen), str(corpus_dir), "--posts", "100", "--unique-math"]
    subprocess.run(command, check=True)
    root = make_site(tmp_path / "site", {})
    for path in (corpus_dir / "posts").iterdir():
        path.rename(root / "content/posts" / path.name)
    cold, warm = build_site(root), build_site(root)
    assert (cold.rendered, cold.posts, warm.rendered, warm.written) == (100, 100, 0, 0)
    post = root / "content/posts/00050.md"
    post.write_text(post.read_text() + "\nOne more sentence.\n")
    assert build_site(root).rendered == 1
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_editing_a_post_outside_the_feeds_leaves_the_feeds_unrendered(tmp_path, monkeypatch):
    from support.sites import CONFIG, make_site

    import postil.pages
    from postil.build import BuildOptions, build

    posts = {f"p{d}.md": f"---\ntitle: P{d}\ndate: 2024-01-0{d}\n---\nx\n" for d in (1, 2)}
    root = make_site(tmp_path / "site", posts, CONFIG + "feed_limit: 1\n")
    build(BuildOptions(root=root))
    made: list[str] = []
    real = postil.pages.atom_feed
    monkeypatch.setattr(postil.pages, "atom_feed", lambda site: made.append("atom") or real(site))
    (root / "content/posts/p1.md").write_text("---\ntitle: P1\ndate: 2024-01-01\n---\nedited\n")
    build(BuildOptions(root=root))  # p1 is not in the one-post feed
    assert "edited" in (root / "_site/posts/p1/index.html").read_text()
    assert made == []
    (root / "content/posts/p2.md").write_text("---\ntitle: P2\ndate: 2024-01-02\n---\nnew\n")
    build(BuildOptions(root=root))  # p2 is: the feed is made again
    assert made == ["atom"]
    assert "new" in (root / "_site/feed.xml").read_text()


def age_sources(root, seconds=3600):
    """Set every source's modification time `seconds` into the past (as a checkout is)."""
    old = os.stat(root / "postil.yaml").st_mtime_ns - seconds * 10**9
    for path in (root / "content").rglob("*.md"):
        os.utime(path, ns=(old, old))


@pytest.fixture(autouse=True)
def no_racy_window(monkeypatch):
    """Let the stat signature vouch for files written just before a build (their change
    time is now and cannot be set back): the 2 s window is tested on its own."""
    from postil.cache import rows

    monkeypatch.setattr(rows, "RACY_NS", 0)


def test_a_signature_younger_than_the_racy_window_does_not_vouch(monkeypatch):
    from postil.cache import rows

    monkeypatch.setattr(rows, "RACY_NS", 2_000_000_000)  # the real window, not the fixture's
    now = 10**18
    row = rows.PostRow("digest", (1, 100, now - 10**10, now - 10**10), now, ())
    assert row.vouches()
    assert not rows.PostRow("d", (1, 100, now - 10**10, now - 10**8), now, ()).vouches()
    assert not rows.PostRow("d", (1, 100, now - 10**8, now - 10**10), now, ()).vouches()


def test_a_static_file_rewritten_with_its_old_times_is_copied_again(tmp_path):
    root = make_site(tmp_path / "site", corpus(2))
    css = root / "static" / "css" / "extra.css"
    css.parent.mkdir(parents=True)
    css.write_text("body { color: #ff0000; }\n")
    build_site(root)
    st = os.stat(css)
    css.write_text("body { color: #00ff00; }\n")
    os.utime(css, ns=(st.st_atime_ns, st.st_mtime_ns))
    build_site(root)
    assert (root / "_site/css/extra.css").read_text() == "body { color: #00ff00; }\n"


@pytest.fixture
def reads(monkeypatch):
    """Record the sources the build reads (through `read_source`, wherever it is called)."""
    import importlib

    discover = importlib.import_module("postil.content.discover")
    load = importlib.import_module("postil.content.load")

    done: list[str] = []
    real = discover.read_source

    def counting(path, rel, kind):
        done.append(rel)
        return real(path, rel, kind)

    monkeypatch.setattr(discover, "read_source", counting)
    monkeypatch.setattr(load, "read_source", counting)
    return done


def test_sources_the_cache_vouches_for_are_not_read_and_the_output_is_the_same(tmp_path, reads):
    root = make_site(tmp_path / "site", corpus(5))
    age_sources(root)
    build_site(root)
    reads.clear()
    warm = build_site(root)
    assert reads == [] and warm.rendered == 0
    edit(root, "p03.md", post_text("Post 3", "2026-01-04", "Edited.\n"))
    assert build_site(root).rendered == 1
    assert reads == ["content/posts/p03.md"]
    reads.clear()
    build_site(root)  # written before the build that recorded it: vouched for now
    assert reads == []
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_a_same_size_rewrite_with_the_old_modification_time_is_still_seen(tmp_path, reads):
    """A tool that restores the modification time (cp -p, rsync -t) cannot restore the
    change time: the file is read again and its new text shows."""
    root = make_site(tmp_path / "site", corpus(3))
    age_sources(root)
    build_site(root)
    path = root / "content/posts/p01.md"
    text = path.read_text()
    st = os.stat(path)
    path.write_text(text.replace("Intro", "Outro"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_size == st.st_size and os.stat(path).st_mtime_ns == st.st_mtime_ns
    reads.clear()
    build_site(root)
    assert reads == ["content/posts/p01.md"]
    assert "Outro" in (root / "_site/posts/p01/index.html").read_text()


@pytest.mark.slow
def test_unread_sources_are_read_when_their_posts_must_be_rendered_again(tmp_path):
    """A configuration change re-renders every post, in worker processes: their sources were
    vouched for by the cache and not read, so the workers read them then."""
    from postil.cache import BuildCache
    from postil.config import load_config
    from postil.content.discover import UnreadSource
    from postil.content.load import load_posts

    root = make_site(tmp_path / "site", corpus(9))
    age_sources(root)
    time.sleep(2.1)  # the build in a fresh process uses the real 2 s window
    build_site(root)
    cache = BuildCache.open(root)
    try:
        posts, _ = load_posts(load_config(root), cache)
    finally:
        cache.close()
    assert all(type(p.source) is UnreadSource and "text" not in vars(p.source) for p in posts)
    config = root / "postil.yaml"
    config.write_text(config.read_text() + "math:\n  macros:\n    RR: '\\\\mathbb{R}'\n")
    code, used, errors = build_probed(root, "-j", "2")
    assert (code, used[0]) == (0, "_render_chunk"), errors
    assert tree(root / "_site") == clean_build(tmp_path, root)


def test_a_source_edited_during_the_build_is_reported_not_mixed(tmp_path):
    from postil.content.discover import read_unchanged, stat_signature
    from postil.errors import ContentError

    root = make_site(tmp_path / "site", corpus(1))
    path = root / "content/posts/p00.md"
    signature = stat_signature(path)
    assert read_unchanged(path, "content/posts/p00.md", "post", signature) == path.read_text()
    path.write_text(path.read_text() + "more\n")
    with pytest.raises(ContentError, match="changed while the site was being built"):
        read_unchanged(path, "content/posts/p00.md", "post", signature)
