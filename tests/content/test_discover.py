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


def test_kept_listings_see_added_removed_and_relinked_files(tmp_path, monkeypatch):
    """`walk_content` with a memo lists a directory again only when its stat signature
    changed; a symlink is followed again on every walk (its target can change while the
    directory does not)."""
    import importlib

    discover_module = importlib.import_module("postil.content.discover")
    monkeypatch.setattr(discover_module, "RACY_NS", 0)  # just written, yet trusted
    site(tmp_path)
    posts = tmp_path / "content/posts"
    (posts / "a.md").write_text("x")
    (tmp_path / "content/elsewhere").mkdir()
    (tmp_path / "content/elsewhere/b.md").write_text("x")
    (posts / "link").symlink_to("../.archive")
    (tmp_path / "content/.archive").mkdir()  # hidden, so only reachable through the link
    memo: dict = {}

    def listed() -> list[str]:
        walk = discover_module.walk_content
        markdown, others, errors = walk(tmp_path / "content", tmp_path, memo)
        assert (markdown, others, errors) == walk(tmp_path / "content", tmp_path)
        return [rel for _, rel in markdown]

    first = listed()
    assert first == ["elsewhere/b.md", "posts/a.md"]
    assert listed() == first
    (posts / "c.md").write_text("x")
    assert listed() == ["elsewhere/b.md", "posts/a.md", "posts/c.md"]
    (posts / "a.md").unlink()
    assert listed() == ["elsewhere/b.md", "posts/c.md"]
    (tmp_path / "content/.archive/d.md").write_text("x")  # posts/ itself did not change
    assert listed() == ["elsewhere/b.md", "posts/c.md", "posts/link/d.md"]
    (posts / "link").unlink()
    (posts / "link").symlink_to("../elsewhere")  # now a second way to elsewhere/: read once
    assert listed() == ["posts/c.md", "posts/link/b.md"]


def test_an_unchanged_source_is_the_very_post_of_the_last_load(tmp_path, monkeypatch):
    """With a cache that lives (the dev server's), `load_posts` hands back the same `Post`
    for a source its signature vouches for, and reads only the sources that changed."""
    import importlib

    from postil.cache import rows
    from postil.cache.store import MemoryCache
    from postil.content.load import load_posts

    monkeypatch.setattr(rows, "RACY_NS", 0)
    monkeypatch.setattr(importlib.import_module("postil.content.discover"), "RACY_NS", 0)
    config = site(tmp_path)

    def write(name: str, title: str) -> None:
        text = f"---\ntitle: {title}\ndate: 2026-01-01\n---\n\n{name}\n"
        (tmp_path / f"content/posts/{name}.md").write_text(text)

    for name in ("a", "b", "c"):
        write(name, name)
    cache = MemoryCache()
    load_posts(config, cache)  # reads every source, records its row
    before, _ = load_posts(config, cache)  # makes each post from its row
    again, _ = load_posts(config, cache)
    assert all(a is b for a, b in zip(before, again, strict=True))
    write("b", "B!")
    edited, _ = load_posts(config, cache)
    assert [p.meta.title for p in edited] == ["a", "B!", "c"]
    assert edited[0] is before[0] and edited[2] is before[2] and edited[1] is not before[1]
    write("d", "d")
    added, _ = load_posts(config, cache)  # content/posts/ listed again: the others stay
    assert [p.meta.title for p in added] == ["a", "B!", "c", "d"]
    assert added[0] is before[0] and added[2] is before[2]
