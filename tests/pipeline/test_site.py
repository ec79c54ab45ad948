"""Collect and paginate: drafts, future posts, ordering, tags, page boundaries."""

from datetime import datetime, timezone
from pathlib import Path

import pytest

from postil.markdown import RenderedMarkdown
from postil.model import FrontMatter, Post, RenderedPost, SiteConfig, SourceFile
from postil.pages import paginate
from postil.site import collect

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)
CONFIG = SiteConfig(root=Path("."), title="T", author="A", base_url="https://x.org/")
EMPTY = RenderedMarkdown(b"", (), 0, frozenset(), (), (), ())


def post(slug, day, draft=False, tags=(), kind="post", month=5):
    when = datetime(2026, month, day, tzinfo=timezone.utc)
    meta = FrontMatter(title=slug, date=when, draft=draft, tags=tags)
    src = SourceFile(Path(f"{slug}.md"), f"content/posts/{slug}.md", "", kind)
    p = Post(src, meta, 0, 1, slug, f"posts/{slug}/", f"posts/{slug}/index.html")
    return RenderedPost(p, EMPTY, 1)


def slugs(site_posts):
    return [r.post.slug for r in site_posts]


def test_posts_are_newest_first_with_ties_broken_by_slug():
    site = collect(CONFIG, [post("b", 3), post("a", 3), post("c", 9)], NOW)
    assert slugs(site.posts) == ["c", "a", "b"]


def test_drafts_and_future_posts_are_left_out_unless_asked():
    items = [post("draft", 2, draft=True), post("now", 2), post("future", 2, month=7)]
    assert slugs(collect(CONFIG, items, NOW).posts) == ["now"]
    assert slugs(collect(CONFIG, items, NOW, drafts=True).posts) == [
        "draft",
        "now",
    ]  # same day: by slug
    assert slugs(collect(CONFIG, items, NOW, future=True).posts) == ["future", "now"]


def test_tags_group_posts_case_insensitively_sorted():
    site = collect(CONFIG, [post("a", 1, tags=("ml", "Math")), post("b", 2, tags=("ml",))], NOW)
    assert [(t, slugs(ps)) for t, ps in site.tags] == [("Math", ["a"]), ("ml", ["b", "a"])]


@pytest.mark.parametrize("count, pages", [(0, 1), (1, 1), (3, 1), (4, 2), (7, 3)])
def test_pagination_boundaries(count, pages):
    items = tuple(post(f"p{i}", 1) for i in range(count))
    pagers = paginate(items, 3)
    assert len(pagers) == pages
    assert sum(len(p.items) for p in pagers) == count
    assert pagers[0].prev_url is None and pagers[-1].next_url is None
    if pages > 1:
        assert pagers[1].prev_url == "" and pagers[0].next_url == "page/2/"


def test_a_kept_order_gives_what_a_fresh_collect_gives_as_edits_and_time_pass():
    """`collect` with a memo (the dev server's) reuses the last order only while every post
    keeps its place and no post's date passed: a post dated ahead comes in when due."""
    from dataclasses import replace

    memo: dict = {}
    items = [post("a", 1, tags=("x",)), post("b", 2), post("soon", 2, month=7)]
    steps = [
        (items, NOW),
        ([items[0], replace(items[1], reading_minutes=3), items[2]], NOW),  # new object
        ([post("a", 1, tags=("x",)), items[1], items[2]], NOW),  # same place, re-read
        ([post("a", 5, tags=("y",)), items[1], items[2]], NOW),  # moved, retagged
        (items, datetime(2026, 8, 1, tzinfo=timezone.utc)),  # "soon" is due
    ]
    for rendered, now in steps:
        kept = collect(CONFIG, rendered, now, memo=memo)
        fresh = collect(CONFIG, rendered, now)
        assert kept == fresh and all(map(lambda a, b: a is b, kept.posts, fresh.posts))
    assert slugs(kept.posts) == ["soon", "b", "a"]


def test_page_jobs_are_made_when_looked_up_and_match_their_specs():
    from postil.pages import page_jobs

    site = collect(CONFIG, [post(f"p{i}", i + 1, tags=("t",)) for i in range(12)], NOW)
    jobs = page_jobs(site)
    listed = list(jobs)
    assert len(listed) == len(jobs) == len(jobs.specs)
    assert [(j.rel, j.template, j.deps, j.lazy) for j in listed] == [tuple(s) for s in jobs.specs]
    assert jobs[-1] is listed[-1] and jobs[1:3] == listed[1:3]
    with pytest.raises(IndexError):
        jobs[len(jobs)]


def test_a_kept_layout_gives_the_jobs_a_fresh_one_gives():
    """`page_jobs` with a memo reuses the last layout for a site of the same shape (a post's
    body edited), and makes a new one when a post moves or a tag is added."""
    from dataclasses import replace

    from postil.model import output_bytes
    from postil.pages import page_jobs, prepare_env, render_job
    from postil.theme import create_template_env

    def described(jobs, env):
        return [
            (j.rel, j.template, j.deps, j.lazy, output_bytes(render_job(env, j).data)) for j in jobs
        ]

    memo: dict = {}
    items = [post(f"p{i}", i + 1, tags=("t",) if i % 2 else ()) for i in range(12)]
    edited = [*items[:5], replace(items[5], content=replace(EMPTY, word_count=999)), *items[6:]]
    moved = [*items[:5], post("p5", 27, tags=("t", "u")), *items[6:]]
    for rendered in (items, edited, moved, items):
        site = collect(CONFIG, rendered, NOW)
        env = prepare_env(site, create_template_env(None))
        assert described(page_jobs(site, memo), env) == described(page_jobs(site), env)


def test_kept_page_keys_are_the_keys_fresh_ones_give_as_the_site_changes(tmp_path):
    """`PageKeys` with a memo (the dev server's) reuses a post's fingerprint and a page's key
    only while they would come out the same: over edits to a body, a title, a new post, a
    removed one and a moved one, every key equals a fresh `PageKeys`' key."""
    from dataclasses import replace

    from postil.cache.keys import PageKeys
    from postil.pages import page_jobs

    config = replace(CONFIG, root=tmp_path, paginate=2)
    items = [post(f"p{i}", i + 1, tags=("t",) if i % 2 else ()) for i in range(7)]
    keys = {r.post.source.rel: f"body of {r.post.slug}" for r in items}
    retitled = replace(items[3].post, meta=replace(items[3].post.meta, title="New title"))
    steps = [
        (items, keys),
        (items, keys | {"content/posts/p3.md": "edited body"}),
        ([*items[:3], replace(items[3], post=retitled), *items[4:]], keys),
        ([*items, post("p9", 20)], keys | {"content/posts/p9.md": "new"}),
        (items[1:], keys),
        ([post("p0", 28), *items[1:]], keys),
        (items, keys),
    ]
    memo: dict = {}
    for rendered, content_keys in steps:
        site = collect(config, rendered, NOW)
        kept, fresh = PageKeys(site, content_keys, memo), PageKeys(site, content_keys)
        specs = page_jobs(site).specs
        assert [kept.key(spec) for spec in specs] == [fresh.key(spec) for spec in specs]


def test_page_keys_of_a_kept_layout_are_the_keys_fresh_ones_give(tmp_path):
    """`PageKeys.keys` over the very `PageSpec`s of the last call (the dev server's edits to
    bodies) looks only at the pages showing a changed post: every key still equals a fresh
    `PageKeys`' key, over edits to one body, another, the same again, none, and a title."""
    from dataclasses import replace

    from postil.cache.keys import PageKeys
    from postil.pages import page_jobs

    config = replace(CONFIG, root=tmp_path, paginate=2)
    items = [post(f"p{i}", i + 1, tags=("t",) if i % 2 else ()) for i in range(7)]
    keys = {r.post.source.rel: f"body of {r.post.slug}" for r in items}
    retitled = replace(items[3].post, meta=replace(items[3].post.meta, title="New title"))
    steps = [
        (items, keys),
        (items, keys | {"content/posts/p3.md": "edited body"}),
        (items, keys | {"content/posts/p3.md": "edited again"}),
        (items, keys | {"content/posts/p3.md": "edited again", "content/posts/p6.md": "new"}),
        (items, keys | {"content/posts/p3.md": "edited again", "content/posts/p6.md": "new"}),
        ([*items[:3], replace(items[3], post=retitled), *items[4:]], keys),
        (items, keys),
    ]
    memo: dict = {}
    layouts: dict = {}
    reused = 0
    for rendered, content_keys in steps:
        site = collect(config, rendered, NOW)
        specs = page_jobs(site, layouts).specs
        reused += memo.get("keys of", (None,))[0] is specs
        kept, fresh = PageKeys(site, content_keys, memo), PageKeys(site, content_keys)
        assert kept.keys(specs) == [fresh.key(spec) for spec in specs]
    assert reused >= 4  # the bodies' edits took the short way


def test_scanned_templates_are_not_parsed_again_for_a_page(monkeypatch):
    """`scan_templates` (run by `render_pages` before its workers fork) finds whether every
    template uses `content` whole, so the forked page workers do not each parse every
    template (≈ 30 ms) for their first page."""
    from postil import pages
    from postil.theme import create_template_env

    site = collect(CONFIG, [post("p0", 1)], NOW)
    env = pages.prepare_env(site, create_template_env(None))
    pages.scan_templates(env)
    monkeypatch.setattr(pages, "_bare_in", lambda *args: pytest.fail("templates parsed again"))
    assert pages._bare_content(env) is True
