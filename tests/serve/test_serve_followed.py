"""The passes over every post follow the edit (issue 20): what each keeps across a dev
server's builds (`BuildCache.memo`) gives, after every kind of edit, what the same pass
computes from nothing, and the served site stays what a cold `postil build` writes.

Each pass is wrapped (the build's own function, called as `run` calls it) so that every
call also computes its answer afresh, with no memo, and the two are compared then."""

from __future__ import annotations

import importlib
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from postil.build import BuildOptions, Published, build
from postil.cache.rows import RenderedRows
from postil.serve.engine import DevBuild
from postil.serve.watcher import ChangeSet

POST = """---
title: Post {n}
date: 2025-01-{day:02d}
tags: [t{tag}]
---

Summary paragraph of post {n} with $x^{n}$.

## Part {n}

Second paragraph of post {n}.
"""

LINKING = """---
title: Linking
date: 2025-01-20
---

See [a part of post 12](p12.md#part-x) and [this](#linking-here).

## Linking here

Text.
"""


def make_site(root: Path, posts: int = 16) -> Path:
    """Write a site of `posts` posts in two tags, 4 to a list page, and a page."""
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://example.org/\npaginate: 4\n", encoding="utf-8"
    )
    for n in range(1, posts + 1):
        text = POST.format(n=n, day=n % 28 + 1, tag=n % 2)
        (root / f"content/posts/p{n:02d}.md").write_text(text, encoding="utf-8")
    (root / "content/about.md").write_text("---\ntitle: About\n---\n\nAbout me.\n")
    return root


@pytest.fixture(autouse=True)
def no_racy_window(monkeypatch):
    """Let stat signatures vouch for files written just now (the 2 s window has tests of
    its own)."""
    from postil.cache import rows

    monkeypatch.setattr(rows, "RACY_NS", 0)
    monkeypatch.setattr(importlib.import_module("postil.content.discover"), "RACY_NS", 0)


@pytest.fixture
def compared(monkeypatch) -> list[str]:
    """Wrap each pass that keeps its answer across builds so that every call is compared
    with the same pass computed from nothing; return the names of the passes compared."""
    import postil.build as build_module
    import postil.render as render_module

    seen: list[str] = []

    def shadow(module: Any, name: str, check: Any) -> None:
        real = getattr(module, name)

        def wrapper(*args: Any) -> Any:
            found = real(*args)
            check(real, args, found)
            seen.append(name)
            return found

        monkeypatch.setattr(module, name, wrapper)

    def published(real: Any, args: Any, found: Published) -> None:
        posts, when, options, _ = args
        fresh = Published.of(posts, when, options)
        assert (found.upcoming, found.sources, found.posts) == (
            fresh.upcoming,
            fresh.sources,
            fresh.posts,
        )
        assert all(a is b for a, b in zip(found.posts[0], fresh.posts[0], strict=True))
        assert found.places == fresh.places

    def keys(real: Any, args: Any, found: list[str]) -> None:
        assert found == real(*args[:2])

    def anchors(real: Any, args: Any, found: list[Any]) -> None:
        assert found == real(args[0])

    def rendered_posts(real: Any, args: Any, found: Any) -> None:
        config, posts, keys_, rows, _, *_ = args
        fresh, diagnostics = real(config, posts, keys_, rows, {})
        assert found[1] == diagnostics
        assert [(r.post, r.content, r.reading_minutes) for r in found[0]] == [
            (r.post, r.content, r.reading_minutes) for r in fresh
        ]
        assert all(a.post is b.post for a, b in zip(found[0], fresh, strict=True))

    def content_keys(real: Any, args: Any, found: dict[str, str]) -> None:
        assert found == real(*args[:3], {})

    def collect(real: Any, args: Any, found: Any) -> None:
        assert found == real(*args[:6])

    def check_site(real: Any, args: Any, found: Any) -> None:
        assert found == real(*args[:3])

    shadow(build_module, "_published", published)
    shadow(build_module, "markdown_keys", keys)
    shadow(build_module, "check_anchors", anchors)
    shadow(render_module, "_rendered_posts", rendered_posts)
    shadow(build_module, "_content_keys", content_keys)
    shadow(build_module, "collect", collect)
    shadow(build_module, "check_site", check_site)
    return seen


def kept_rows_are_the_caches(builder: DevBuild) -> None:
    """The rendered rows a dev server keeps across builds are the cache's rows, in order."""
    cache = builder._cache
    assert cache is not None
    kept = cache.memo(RenderedRows.MEMO).get("rows")
    assert kept is not None
    stored = RenderedRows(cache)._stored()
    assert list(kept) == list(stored)
    assert all(kept[key] == stored[key] for key in kept)


def cold(site: Path, out: Path, now: datetime | None = None) -> tuple[dict[str, bytes], list[str]]:
    """The files and warnings of a cold `postil build --drafts` of `site` at `now` (default:
    the clock), into `out`."""
    result = build(BuildOptions(root=site, out_dir=out, drafts=True, cache=False), now)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return files, [w.report() for w in result.warnings]


def same_as_cold(
    builder: DevBuild, report: Any, site: Path, out: Path, now: datetime | None = None
) -> None:
    """What `builder` serves and warns of is what a cold `postil build` (at `now`) writes
    and warns of."""
    assert report.ok, report.errors
    files, warnings = cold(site, out, now)
    assert {rel: builder.files[rel] for rel in builder.files} == files
    assert [w.report() for w in report.warnings] == warnings
    kept_rows_are_the_caches(builder)


def save(path: Path, text: str, atomic: bool = False) -> ChangeSet:
    """Write `text` to `path` (atomically: a temp file renamed onto it); return what an
    inotify watcher reports."""
    if not atomic:
        path.write_text(text, encoding="utf-8")
        return ChangeSet(content={path}, entries=set())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return ChangeSet(content={path}, entries={tmp, path}, settled={path}, closed={path})


def replaced(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


def test_every_kept_pass_equals_a_fresh_one_over_a_sequence_of_edits(tmp_path, compared):
    site = make_site(tmp_path / "site")
    out = tmp_path / "out"
    posts = site / "content/posts"
    builder = DevBuild(site)
    assert builder.build().ok
    builder.watching()
    assert builder.build(ChangeSet(content=set())).ok
    p12 = posts / "p12.md"
    steps = [
        lambda: save(p12, replaced(p12, "Second paragraph", "Edited in place")),
        lambda: save(p12, replaced(p12, "Edited in place", "Saved by rename"), atomic=True),
        # a new post whose link to p12#part-x is broken (a warning) …
        lambda: save(posts / "p99.md", LINKING, atomic=True),
        # … fixed by a heading edit of p12 (p99 itself unchanged) …
        lambda: save(p12, replaced(p12, "## Part 12", "## Part X")),
        # … and broken again
        lambda: save(p12, replaced(p12, "## Part X", "## Part Y"), atomic=True),
        lambda: save(posts / "p07.md", replaced(posts / "p07.md", "tags: [t1]", "tags: [t1, new]")),
        lambda: save(posts / "p05.md", replaced(posts / "p05.md", "Post 5", "Post Five")),
    ]
    for step in steps:
        report = builder.build(step())
        same_as_cold(builder, report, site, out)
    assert any("part-x" in w.message for w in report.warnings)
    # a date into the future: left out, then published once the clock passes it (the
    # cold build compared at the time the served one began: a loaded machine may take
    # longer than the wait)
    began = datetime.now(timezone.utc)
    due = began + timedelta(seconds=6)
    p08 = posts / "p08.md"
    report = builder.build(save(p08, replaced(p08, "2025-01-09", f"{due:%Y-%m-%d %H:%M:%S}+00:00")))
    assert report.next_publication == due.replace(microsecond=0)  # it was in the future
    same_as_cold(builder, report, site, out, began)
    assert "posts/p08/index.html" not in builder.files
    time.sleep(max(0.0, (due - datetime.now(timezone.utc)).total_seconds()) + 0.1)
    report = builder.build(ChangeSet(content=set()))
    same_as_cold(builder, report, site, out)
    assert "posts/p08/index.html" in builder.files
    # a deletion, a rename to a new name, and the linked post deleted
    (posts / "p03.md").unlink()
    report = builder.build(ChangeSet(content={posts / "p03.md"}, entries={posts / "p03.md"}))
    same_as_cold(builder, report, site, out)
    (posts / "p04.md").rename(posts / "p94.md")
    names = {posts / "p04.md", posts / "p94.md"}
    report = builder.build(ChangeSet(content=names, entries=names))
    same_as_cold(builder, report, site, out)
    p12.unlink()
    report = builder.build(ChangeSet(content={p12}, entries={p12}))
    same_as_cold(builder, report, site, out)
    builder.close()
    assert set(compared) == {
        "_published",
        "markdown_keys",
        "check_anchors",
        "_rendered_posts",
        "_content_keys",
        "collect",
        "check_site",
    }


def test_an_anchor_link_is_checked_again_when_its_target_changes(tmp_path):
    """`check_anchors` with its memo: the linking post is the same object, its target is
    not; its warning follows the target's headings."""
    site = make_site(tmp_path / "site")
    (site / "content/posts/p99.md").write_text(LINKING, encoding="utf-8")
    builder = DevBuild(site)
    first = builder.build()
    assert first.ok and any("part-x" in w.message for w in first.warnings)
    p12 = site / "content/posts/p12.md"
    fixed = builder.build(save(p12, replaced(p12, "## Part 12", "## Part X")))
    assert fixed.ok and not any("part-x" in w.message for w in fixed.warnings)
    broken = builder.build(save(p12, replaced(p12, "## Part X", "## Part 12")))
    assert broken.ok and any("part-x" in w.message for w in broken.warnings)
    builder.close()


def test_published_is_taken_again_only_within_its_clock_bound(tmp_path):
    """`Published.after` keeps the last answer while no date lies between it and now and
    the changed posts keep their source, URL, date and draft flag; else None."""
    from dataclasses import replace

    from postil.cache.store import BuildCache
    from postil.config import load_config
    from postil.content.load import load_posts

    site = make_site(tmp_path / "site", posts=6)
    posts, _ = load_posts(load_config(site), BuildCache.disabled())
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    due = now + timedelta(hours=1)
    posts[2] = replace(posts[2], meta=replace(posts[2].meta, date=due))
    options = BuildOptions(site, drafts=True)
    first = Published.of(posts, now, options)
    assert first.until == due and first.upcoming == due and posts[2] not in first.posts[0]
    assert first.after(posts, now + timedelta(minutes=1), options) is first
    edited = list(posts)
    edited[4] = replace(posts[4], body_digest="another body")
    later = now + timedelta(minutes=2)
    kept = first.after(edited, later, options)
    fresh = Published.of(edited, later, options)
    assert kept is not None and kept.posts == fresh.posts and kept.places == fresh.places
    assert kept.posts[0][first.places[4]] is edited[4]
    assert first.posts[0][first.places[4]] is posts[4]  # the last answer is left as it was
    assert first.after(posts, due, options) is None  # the clock reached a post's date
    assert first.after(posts, now - timedelta(seconds=1), options) is None  # went back
    assert first.after(posts, now, BuildOptions(site, drafts=True, future=True)) is None
    redated = list(posts)
    redated[1] = replace(posts[1], meta=replace(posts[1].meta, date=due))
    assert first.after(redated, now, options) is None
    assert first.after(posts[:-1], now, options) is None


def test_an_edit_of_one_post_looks_at_no_other_post_in_the_kept_passes(tmp_path, monkeypatch):
    """Counts, never times: after an edit of one post's body, no row is made readable
    again, no post's publication is judged again, and no target's ids are read again but
    the edited post's own (before: every row, every post twice, every linked target)."""
    import postil.anchors as anchors_module
    import postil.build as build_module

    calls: dict[str, int] = {"is_published": 0, "_readable": 0, "element_ids": 0}

    def count(owner: Any, name: str) -> None:
        real = getattr(owner, name)

        def counting(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)

    site = make_site(tmp_path / "site")
    (site / "content/posts/p99.md").write_text(LINKING, encoding="utf-8")
    builder = DevBuild(site)
    assert builder.build().ok and builder.build().ok
    count(build_module, "is_published")
    count(RenderedRows, "_readable")
    count(anchors_module, "element_ids")
    p05 = site / "content/posts/p05.md"
    report = builder.build(save(p05, replaced(p05, "Second paragraph", "Edited")))
    assert report.ok and report.posts == 1
    assert calls == {"is_published": 0, "_readable": 0, "element_ids": 0}
    p12 = site / "content/posts/p12.md"  # linked to by p99: its ids are read, once
    report = builder.build(save(p12, replaced(p12, "Second paragraph", "Edited")))
    assert report.ok and calls == {"is_published": 0, "_readable": 0, "element_ids": 1}
    builder.close()


HEADED = """---
date: 2025-02-01
---

# Headed post {{#{anchor}}}

Body of the headed post.
"""

TO_HEADED = """---
title: To headed
date: 2025-02-02
---

See [the headed post's title](p98.md#peak).
"""


def test_an_anchor_link_follows_a_title_ids_change_when_the_body_stays(tmp_path, compared):
    """A post titled by its opening `# Heading {#id}` keeps the heading out of its body:
    changing only the id leaves the body (and its rendering) as it was, yet a link to the
    old id is broken and one to the new id is not, as a cold build says."""
    site = make_site(tmp_path / "site", posts=4)
    posts = site / "content/posts"
    (posts / "p98.md").write_text(HEADED.format(anchor="peak"), encoding="utf-8")
    (posts / "p97.md").write_text(TO_HEADED, encoding="utf-8")
    out = tmp_path / "out"
    builder = DevBuild(site)
    first = builder.build()
    same_as_cold(builder, first, site, out)
    assert not any("peak" in w.message for w in first.warnings)
    builder.watching()
    moved = builder.build(save(posts / "p98.md", HEADED.format(anchor="summit"), atomic=True))
    same_as_cold(builder, moved, site, out)
    assert any("peak" in w.message for w in moved.warnings)  # (`#top` is every page's top)
    back = builder.build(save(posts / "p98.md", HEADED.format(anchor="peak")))
    same_as_cold(builder, back, site, out)
    assert not any("peak" in w.message for w in back.warnings)
    builder.close()
    assert "check_anchors" in compared
