"""A build tells what it left out on purpose: the drafts and the posts still to come, each
with the flag that builds them (session 44: `built 3 posts` said nothing of the draft and
the future post a new user wrote, and they were simply missing from `_site/`)."""

from __future__ import annotations

from support.blog import NOW, build_site, make_site, post_text

POSTS = {
    "a.md": post_text("A", "2026-01-01"),
    "b.md": post_text("B", "2026-01-02", draft=True),
    "c.md": post_text("C", "2026-01-03", draft=True),
    "d.md": post_text("D", "2026-09-01 08:30"),
}


def held_back(root, **options) -> list[str]:
    return [n for n in build_site(root, **options).notes if n.startswith("note: left out")]


def test_drafts_and_future_posts_left_out_are_told_with_their_flags(tmp_path):
    root = make_site(tmp_path / "site", POSTS)
    assert NOW.year == 2026 and NOW.month == 6  # d.md is still to come
    assert held_back(root) == [
        "note: left out 2 drafts (--drafts builds them) and 1 post dated in the future"
        " (--future builds them, the first dated 2026-09-01 08:30 UTC)"
    ]
    assert held_back(root, drafts=True) == [
        "note: left out 1 post dated in the future (--future builds them, the first dated"
        " 2026-09-01 08:30 UTC)"
    ]
    assert held_back(root, future=True) == ["note: left out 2 drafts (--drafts builds them)"]


def test_a_build_that_leaves_nothing_out_says_nothing_of_it(tmp_path):
    root = make_site(tmp_path / "site", POSTS)
    assert held_back(root, drafts=True, future=True) == []
