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
