"""Discovery: which files are sources, and how symlinks inside content/ are followed."""

from pathlib import Path

import pytest

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


class Walker:
    """`walk_content` over one memo, as a dev server's builds call it, counting the
    directories it lists afresh (`_scan`) and checking each answer against a walk with no
    memo at all (a cold build's)."""

    def __init__(self, root: Path, monkeypatch) -> None:
        import importlib

        self.module = importlib.import_module("postil.content.discover")
        self.root, self.memo, self.scanned = root, {}, []
        real = self.module._scan

        def scan(directory, *args):
            rel = directory.relative_to(root / "content").as_posix()
            self.scanned.append("" if rel == "." else rel)
            return real(directory, *args)

        monkeypatch.setattr(self.module, "_scan", scan)

    def walk(self, entries=None) -> list[str]:
        self.scanned.clear()
        content = self.root / "content"
        found = self.module.walk_content(content, self.root, self.memo, entries=entries)
        again = self.module.walk_content(content, self.root, self.memo, again=True)
        assert again == found  # the build's second walk (`postil.assets`)
        scanned = list(self.scanned)
        assert found == self.module.walk_content(content, self.root)  # a cold walk's
        self.scanned[:] = scanned
        return sorted(rel for _, rel in found[0] + found[1])


def rename_save(path: Path, text: str, suffix: str = ".tmp") -> set[Path]:
    """Save `path` as editors do atomically; return the entries a watcher reports."""
    tmp = path.with_name(path.name + suffix)
    tmp.write_text(text)
    tmp.replace(path)
    return {tmp, path}


def walker_of(tmp_path: Path, monkeypatch) -> Walker:
    site(tmp_path)
    posts = tmp_path / "content/posts"
    for name in ("a.md", "b.md", "c/index.md", "c/fig.png"):
        (posts / name).parent.mkdir(parents=True, exist_ok=True)
        (posts / name).write_text("x")
    walker = Walker(tmp_path, monkeypatch)
    assert walker.walk() == ALL
    return walker


ALL = sorted(["posts/a.md", "posts/b.md", "posts/c/index.md", "posts/c/fig.png"])


def test_a_rename_save_of_a_listed_post_lists_no_directory_again(tmp_path, monkeypatch):
    """Issue 20: a temp file made and renamed onto a known post changes the directory's
    times but not its entries; the watcher's entries prove it, so `content/posts/` (1,000
    entries on a large site) is not listed again. The racy window needs no second listing
    either."""
    walker = walker_of(tmp_path, monkeypatch)
    posts = tmp_path / "content/posts"
    assert walker.walk(rename_save(posts / "a.md", "y")) == ALL
    assert walker.scanned == []
    assert walker.walk(rename_save(posts / "c/index.md", "y", ".sb-1a2b-Xy")) == ALL
    assert walker.scanned == []
    assert walker.walk(set()) == ALL and walker.scanned == []  # just changed, yet kept
    assert walker.walk() == ALL and walker.scanned == ["", "posts", "posts/c"]  # no proof


@pytest.mark.parametrize(
    ("change", "listed", "scanned"),
    [
        ("new post", [*ALL, "posts/d.md"], ["posts"]),
        ("rename to a new name", [*ALL[1:], "posts/d.md"], ["posts"]),
        ("deletion", ALL[1:], ["posts"]),
        ("new other file", [*ALL, "posts/c/data.csv"], ["posts/c"]),
        ("new hidden file", ALL, []),
        ("new symlink", [*ALL, "posts/d.md"], ["posts"]),
        ("file replaced by a directory", [*ALL[1:], "posts/a.md/index.md"], ["posts"]),
    ],
)
def test_a_changed_entry_the_watcher_names_is_listed_again(
    tmp_path, monkeypatch, change, listed, scanned
):
    walker = walker_of(tmp_path, monkeypatch)
    posts = tmp_path / "content/posts"
    if change == "new post":
        entries = rename_save(posts / "d.md", "y")
    elif change == "rename to a new name":
        (posts / "a.md").rename(posts / "d.md")
        entries = {posts / "a.md", posts / "d.md"}
    elif change == "deletion":
        (posts / "a.md").unlink()
        entries = {posts / "a.md"}
    elif change == "new other file":
        entries = rename_save(posts / "c/data.csv", "1,2")
    elif change == "new hidden file":
        (posts / ".a.md.swp").write_text("x")
        entries = {posts / ".a.md.swp"}
    elif change == "new symlink":
        (posts / "d.md").symlink_to("b.md")
        entries = {posts / "d.md"}
    else:
        (posts / "a.md").unlink()
        (posts / "a.md").mkdir()
        (posts / "a.md/index.md").write_text("x")
        entries = {posts / "a.md"}
    assert walker.walk(entries) == sorted(listed)
    assert walker.scanned[: len(scanned)] == scanned


def test_a_directory_changed_without_a_reported_entry_is_listed_again(tmp_path, monkeypatch):
    """An event lost: the signature changed and the watcher named nothing in it."""
    walker = walker_of(tmp_path, monkeypatch)
    posts = tmp_path / "content/posts"
    (posts / "d.md").write_text("x")
    assert walker.walk({tmp_path / "content/posts/c/index.md"}) == sorted([*ALL, "posts/d.md"])
    assert walker.scanned == ["posts"]


def test_an_entry_reported_after_its_directory_was_kept_is_looked_at(tmp_path, monkeypatch):
    """A file made just before a build looked at its directory, whose event comes with
    the next batch: that build keeps the listing (the entries it was told of are what
    the listing says); the next one, told of the file, lists the directory again even
    though its signature is the one the kept listing has."""
    walker = walker_of(tmp_path, monkeypatch)
    posts = tmp_path / "content/posts"
    entries = rename_save(posts / "a.md", "y")
    (posts / "d.md").write_text("x")  # its event is still on its way
    content = tmp_path / "content"
    walker.scanned.clear()
    kept = walker.module.walk_content(content, tmp_path, walker.memo, entries=entries)
    assert [rel for _, rel in kept[0]] == ["posts/a.md", "posts/b.md", "posts/c/index.md"]
    assert walker.scanned == []
    assert walker.walk({posts / "d.md"}) == sorted([*ALL, "posts/d.md"])
    assert walker.scanned == ["posts"]


def test_entries_vouch_for_nothing_after_a_walk_through_a_symlink(tmp_path, monkeypatch):
    """A file reached through a symlink changes under its target's path, which the
    watcher reports, not the link's: such walks keep the signature rule."""
    walker = walker_of(tmp_path, monkeypatch)
    posts = tmp_path / "content/posts"
    (tmp_path / "content/.series").mkdir()
    (tmp_path / "content/.series/s.md").write_text("x")
    (posts / "series").symlink_to("../.series")
    assert walker.walk({posts / "series"}) == sorted([*ALL, "posts/series/s.md"])
    assert walker.walk(rename_save(posts / "a.md", "y")) == sorted([*ALL, "posts/series/s.md"])
    assert "posts" in walker.scanned  # listed again: the last walk followed a link


def test_an_entry_outside_content_vouches_for_nothing(tmp_path, monkeypatch):
    walker = walker_of(tmp_path, monkeypatch)
    entries = rename_save(tmp_path / "content/posts/a.md", "y") | {tmp_path / "elsewhere.md"}
    assert walker.walk(entries) == ALL and walker.scanned == ["", "posts", "posts/c"]


def test_an_entry_that_cannot_be_examined_lists_its_directory_again(tmp_path, monkeypatch):
    walker = walker_of(tmp_path, monkeypatch)
    entries = rename_save(tmp_path / "content/posts/a.md", "y")
    real = walker.module.os.lstat

    def lstat(path, *args, **kwargs):
        if str(path).endswith("a.md"):
            raise PermissionError(13, "denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(walker.module.os, "lstat", lstat)
    walker.scanned.clear()
    found = walker.module.walk_content(tmp_path / "content", tmp_path, walker.memo, entries=entries)
    monkeypatch.setattr(walker.module.os, "lstat", real)
    assert sorted(rel for _, rel in found[0] + found[1]) == ALL
    assert walker.scanned == ["posts"]


def test_r_markdown_sources_are_posts_and_blogdowns_knitted_files_win(tmp_path, monkeypatch):
    """blogdown (Hugo) and R's distill write `.Rmd`/`.Rmarkdown`: they were copied to the
    site as static files, source and all. A source alone is a post; beside its knitted
    Markdown (`x.markdown`, or `x.md` with `keep_md`) the knitted file is the post and the
    source is left out, as blogdown's Hugo sites ignore it; the page blogdown rendered from
    an `.Rmd` (`x.html`, front matter and all) is not copied. Other HTML files are."""
    config = site(tmp_path)
    posts = tmp_path / "content/posts"
    files = [
        "alone.Rmd",
        "lower.rmd",
        "knit.Rmarkdown",
        "knit.markdown",
        "kept.Rmd",
        "kept.md",
        "kept.html",
        "b/index.Rmd",
        "b/index.html",
        "b/index_files/figure-html/p.png",
        "old.html",
    ]
    for name in files:
        (posts / name).parent.mkdir(parents=True, exist_ok=True)
        (posts / name).write_text("---\ntitle: x\n---\n")
    assert rels(config) == [
        f"content/posts/{name}"
        for name in ("alone.Rmd", "b/index.Rmd", "kept.md", "knit.markdown", "lower.rmd")
    ]
    walker = Walker(tmp_path, monkeypatch)
    assert walker.walk() == [
        f"posts/{name}"
        for name in (
            "alone.Rmd",
            "b/index.Rmd",
            "b/index_files/figure-html/p.png",
            "kept.md",
            "knit.markdown",
            "lower.rmd",
            "old.html",
        )
    ]
    (posts / "knit.markdown").unlink()  # the knitted file gone: the source is the post again
    assert "posts/knit.Rmarkdown" in walker.walk({posts / "knit.markdown"})
    saved = rename_save(posts / "knit.markdown", "---\ntitle: x\n---\n")
    assert "posts/knit.Rmarkdown" not in walker.walk(saved)


def test_a_notebook_beside_its_markdown_post_is_a_file_of_the_site(tmp_path, monkeypatch):
    """A Pelican blog embeds `x.ipynb` in `x.md` (liquid_tags' `{% notebook %}`), Jupytext
    pairs the two: the Markdown is the post and the notebook a published file (as two posts
    they took one slug and stopped the build). A notebook alone, or beside a Markdown file
    of another name, is a post; the pairing follows the files as they come and go."""
    config = site(tmp_path)
    posts = tmp_path / "content/posts"
    notebook = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    for name in ("Steepest-ascent.ipynb", "alone.ipynb", "other.ipynb"):
        (posts / name).write_text(notebook)
    for name in ("steepest-ascent.md", "others.md"):
        (posts / name).write_text("---\ntitle: x\n---\n")
    assert rels(config) == [
        f"content/posts/{name}" for name in ("alone.ipynb", "other.ipynb", "others.md")
    ] + ["content/posts/steepest-ascent.md"]
    walker = Walker(tmp_path, monkeypatch)  # each walk checked against a cold one

    def kind_of_notebook() -> str:
        markdown, other, _ = walker.module.walk_content(tmp_path / "content", tmp_path)
        kinds = {rel: "markdown" for _, rel in markdown} | {rel: "other" for _, rel in other}
        return kinds["posts/Steepest-ascent.ipynb"]

    walker.walk()
    assert kind_of_notebook() == "other"
    (posts / "steepest-ascent.md").unlink()  # the Markdown gone: the notebook is the post
    walker.walk({posts / "steepest-ascent.md"})
    assert kind_of_notebook() == "markdown"
    assert "content/posts/Steepest-ascent.ipynb" in rels(config)


def test_plain_markdown_endings_in_capitals_are_sources(tmp_path):
    """Jekyll downcases a file's ending before comparing it with `markdown_ext`: `Post.MD`
    and `Notes.Markdown` are posts there (here they were published as files, silently).
    Other endings keep their case: `x.MDX`, `x.QMD` and `x.TXT` stay files, as in Hugo and
    Quarto, whose readers of those formats are named by the lower-case ending."""
    config = site(tmp_path)
    for name in ["Post.MD", "Notes.Markdown", "old.MKD", "x.MDX", "y.QMD", "z.TXT", "a.md"]:
        (tmp_path / "content/posts" / name).write_text("---\ntitle: x\n---\n")
    assert rels(config) == [
        f"content/posts/{name}" for name in ("Notes.Markdown", "Post.MD", "a.md", "old.MKD")
    ]
