"""A link to a post's source file that no page of the build has says why (`postil.sourcelinks`):
a draft, a post still to come, no such file (naming the nearest source as the link would
write it), or nothing at all when that file's own error fails the build. The message had
been one for all: "(a draft or future post is left out)", after a post's YAML error too."""

from __future__ import annotations

import re

import pytest
from support.blog import NOW, build_site, make_site, post_text

from postil.errors import BuildFailed

LINKS = (
    "[draft](wip.md), [later](later.md), [typo](kahan-sumation.md), "
    '[rooted](/posts/kahan-sumation.md), <a href="zzzz-qqqq.md">raw</a>\n'
)
POSTS = {
    "a.md": post_text("A", "2026-01-01", LINKS),
    "wip.md": post_text("WIP", "2026-01-02", "Text.\n", draft=True),
    "later.md": post_text("Later", str(NOW.year + 1) + "-01-01", "Text.\n"),
    "kahan-summation.md": post_text("Kahan", "2026-01-03", "Text.\n"),
}


def _messages(root, **options):
    return [w.message.split(";")[0] for w in build_site(root, **options).warnings]


def test_each_link_to_a_source_without_a_page_says_why(tmp_path):
    root = make_site(tmp_path / "site", POSTS)
    assert _messages(root) == [
        "link to `wip.md`: content/posts/wip.md is a draft, left out of this build "
        "(`postil build --drafts` and `postil serve` show it)",
        "link to `later.md`: content/posts/later.md is dated in the future, left out until "
        "then (`--future` shows it)",
        "link to `kahan-sumation.md`: there is no post or page "
        "content/posts/kahan-sumation.md (did you mean `kahan-summation.md`?)",
        "link to `/posts/kahan-sumation.md`: there is no post or page "
        "content/posts/kahan-sumation.md (did you mean `/posts/kahan-summation.md`?)",
        "link to `zzzz-qqqq.md`: there is no post or page content/posts/zzzz-qqqq.md",
    ]


def test_drafts_and_future_posts_built_are_linked_without_a_word(tmp_path):
    root = make_site(tmp_path / "site", POSTS)
    assert len(_messages(root, drafts=True, future=True)) == 3  # the three missing files


def test_a_suggestion_from_another_folder_is_written_relative_to_the_linking_file(tmp_path):
    root = make_site(tmp_path / "site", {"alpha.md": post_text("A", "2026-01-01", "x\n")})
    (root / "content/posts/b").mkdir()
    (root / "content/posts/b/index.md").write_text(
        post_text("B", "2026-01-02", "[a](alpah.md)\n"), encoding="utf-8"
    )
    [message] = _messages(root)
    assert message.endswith("(did you mean `../alpha.md`?)")


@pytest.mark.parametrize(
    ("link", "meant"),
    [
        ("my file.md", None),  # was `empty-title.md`: the folder they share made it near
        ("2026-01-01-empty-title.md", "empty-title.md"),  # a date before the name
        ("Empty-Title.md", "empty-title.md"),
        ("notes/empty-titel.md", "empty-title.md"),
    ],
)
def test_a_suggestion_compares_file_names_not_paths(tmp_path, link, meant):
    posts = {
        "empty-title.md": post_text("E", "2026-01-01", "x\n"),
        "my-first-post.md": post_text("M", "2026-01-02", f"[x]({link})\n"),
        "zeta.md": post_text("Z", "2026-01-03", "x\n"),
    }
    [message] = _messages(make_site(tmp_path / "site", posts))
    found = re.search(r"did you mean `([^`]*)`", message)
    assert (found.group(1) if found else None) == meant


def test_a_link_to_a_post_whose_front_matter_fails_adds_no_second_message(tmp_path):
    posts = {
        "a.md": post_text("A", "2026-01-01", "See [b](b.md).\n"),
        "b.md": "---\ntitle: B\ntags: [x, y\n---\nText.\n",
    }
    root = make_site(tmp_path / "site", posts)
    with pytest.raises(BuildFailed) as failed:
        build_site(root, strict=True)  # warnings are in the list too
    assert [str(d.location) for d in failed.value.diagnostics] == ["content/posts/b.md:3:7"]
