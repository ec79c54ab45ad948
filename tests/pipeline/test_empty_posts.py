"""A post with front matter and no text is published as an empty page and feed entry: a
warning at its closing `---` says so (a fresh user's trial built one silently); a draft
(what `postil new` writes) and a page stay quiet."""

from __future__ import annotations

import pytest
from support.blog import build_site, make_site, post_text

from postil.errors import BuildFailed
from postil.markdown import EMPTY_POST

POSTS = {
    "empty.md": "---\ntitle: Empty\ndate: 2026-01-01\n---\n\n \n",
    "toml.md": '+++\ntitle = "Toml"\ndate = 2026-01-02\n+++\n',
    "draft.md": "---\ntitle: Draft\ndate: 2026-01-03\ndraft: true\n---\n",
    "full.md": post_text("Full", "2026-01-04", "A word.\n"),
}


def test_only_the_published_posts_without_text_warn_at_their_closing_line(tmp_path):
    root = make_site(tmp_path / "site", POSTS, pages={"about.md": "---\ntitle: About\n---\n"})
    found = [(str(w.location), w.message) for w in build_site(root, drafts=False).warnings]
    assert found == [
        ("content/posts/empty.md:4:1", EMPTY_POST),
        ("content/posts/toml.md:4:1", EMPTY_POST),
    ]


def test_an_empty_draft_shown_by_drafts_stays_quiet_and_strict_fails_on_an_empty_post(tmp_path):
    root = make_site(tmp_path / "site", {k: POSTS[k] for k in ("draft.md", "full.md")})
    assert build_site(root, drafts=True).warnings == ()
    (root / "content/posts/empty.md").write_text(POSTS["empty.md"], encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build_site(root, strict=True)
    assert [d.message for d in failed.value.diagnostics] == [EMPTY_POST]
