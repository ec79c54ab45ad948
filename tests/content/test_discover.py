"""Discovery: which files are sources, and how symlinks inside content/ are followed."""

from pathlib import Path

from postil.content.discover import discover
from postil.model import SiteConfig


def site(tmp_path: Path) -> SiteConfig:
    (tmp_path / "content/posts").mkdir(parents=True)
    return SiteConfig(root=tmp_path, title="T", author="A", base_url="https://x.org/")


def rels(config: SiteConfig) -> list[str]:
    sources, errors = discover(config)
    assert errors == []
    return [s.rel for s in sources]


def test_hidden_files_and_editor_backups_are_skipped(tmp_path):
    config = site(tmp_path)
    for name in ["a.md", ".hidden.md", "b.md~", "#c.md#", "notes.txt"]:
        (tmp_path / "content/posts" / name).write_text("---\ntitle: x\n---\n")
    (tmp_path / "content/posts/.drafts").mkdir()
    (tmp_path / "content/posts/.drafts/d.md").write_text("x")
    assert rels(config) == ["content/posts/a.md"]


def test_a_symlinked_directory_inside_content_is_followed_once_even_with_a_cycle(tmp_path):
    config = site(tmp_path)
    (tmp_path / "content/series").mkdir()
    (tmp_path / "content/series/part-1.md").write_text("x")
    (tmp_path / "content/series/again").symlink_to("..")  # a cycle back to content/
    (tmp_path / "content/posts/series").symlink_to("../series")
    assert rels(config) == ["content/series/part-1.md"]


def test_a_symlinked_directory_is_followed_when_its_target_is_not_read_otherwise(tmp_path):
    config = site(tmp_path)
    (tmp_path / "content/.archive").mkdir()  # hidden, so only reachable through the link
    (tmp_path / "content/.archive/old.md").write_text("x")
    (tmp_path / "content/posts/old").symlink_to("../.archive")
    assert rels(config) == ["content/posts/old/old.md"]


def test_symlinks_pointing_outside_content_are_errors(tmp_path):
    config = site(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/x.md").write_text("x")
    (tmp_path / "content/posts/dir").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "content/posts/file.md").symlink_to(tmp_path / "elsewhere/x.md")
    sources, errors = discover(config)
    assert sources == []
    assert sorted(str(e) for e in errors) == [
        "content/posts/dir: symlink points outside content/; remove it",
        "content/posts/file.md: symlink points outside content/; remove it",
    ]


def test_a_slug_made_from_a_title_with_math_has_no_tex():
    from postil.content.posts import title_slug

    assert title_slug(r"The $\displaystyle S$ matrix") == "the-s-matrix"
    assert title_slug(r"$O(n^2)$ sorting") == "o-n2-sorting"
    assert title_slug(r"\(\RR^n\) spaces", (("RR", r"\mathbb{R}"),)) == "rn-spaces"
    assert title_slug("It costs $5") == "it-costs-5"
