"""A deploy: a fresh clone in another folder, postil installed elsewhere, and the build cache
restored from an earlier build (as CI's actions/cache does) renders nothing again."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from support.blog import NOW, make_site
from support.corpus import corpus, tree

import postil.content.load
import postil.pages
import postil.theme
from postil.build import BuildOptions, BuildResult, build
from postil.cache import CACHE_DIR

WIDGET = (
    "```{temperature}\ntokens: [The, cat, sat]\nquery: sat\nscores: [1.0, 0]\n"
    "caption: Weights.\n```\n"
)


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A site in a git repository: posts with math, code and notes, a widget, a page, a
    static file and a template of the site's own."""
    posts = corpus(6) | {"widget.md": "---\ntitle: Widget\ndate: 2026-02-01\n---\n\n" + WIDGET}
    about = {"about.md": "---\ntitle: About\n---\n\nHi."}
    root = make_site(tmp_path / "origin", posts, pages=about)
    (root / "static").mkdir()
    (root / "static/notes.txt").write_text("static\n")
    (root / "templates").mkdir()
    theme_404 = postil.theme.default_theme_dir() / "templates/404.html"
    (root / "templates/404.html").write_text(theme_404.read_text() + "<!-- ours -->\n")
    _git("init", "-q", cwd=root)
    _git("add", ".", cwd=root)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "site", cwd=root)
    return root


def _clone(origin: Path, where: Path) -> Path:
    where.parent.mkdir(parents=True)
    _git("clone", "-q", str(origin), str(where), cwd=origin)
    return where


def _save(site: Path, archive: Path) -> None:
    """Save `.postil-cache/` as actions/cache does: a tar archive (times kept, not inodes)."""
    with tarfile.open(archive, "w") as tar:
        tar.add(site / CACHE_DIR, arcname=CACHE_DIR)


def _restore(archive: Path, site: Path) -> None:
    with tarfile.open(archive) as tar:
        tar.extractall(site, filter="tar")


def _counted_build(site: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[BuildResult, int, int]:
    """Build `site` in this process; return the result, the pages rendered and the front
    matters parsed."""
    pages: list[str] = []
    parsed: list[str] = []
    render_job, parse = postil.pages.render_job, postil.content.load.parse

    def counting_job(env, job):
        pages.append(job.rel)
        return render_job(env, job)

    def counting_parse(source, *args):
        parsed.append(source.rel)
        return parse(source, *args)

    with monkeypatch.context() as patch:
        patch.setattr(postil.pages, "render_job", counting_job)
        patch.setattr(postil.content.load, "parse", counting_parse)
        result = build(BuildOptions(root=site, workers=1), now=NOW)
    return result, len(pages), len(parsed)


def _theme_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Install the default theme at another path, as another virtualenv would."""
    theme = tmp_path / name / "site-packages/postil/theme"
    for part in ("templates", "static"):
        shutil.copytree(postil.theme.default_theme_dir() / part, theme / part)
    monkeypatch.setattr(postil.theme, "default_theme_dir", lambda: theme)


def _deploy(origin, tmp_path, monkeypatch, cache_tar, venv, folder):
    """Do what a CI deploy does: postil's theme installed in a new virtualenv (`venv`), the
    site cloned into `folder`, the cache saved as `cache_tar` restored; build, counting.
    Return the clone and `_counted_build`'s (result, pages rendered, sources parsed)."""
    _theme_elsewhere(tmp_path, monkeypatch, venv)
    clone = _clone(origin, tmp_path / folder)
    _restore(tmp_path / cache_tar, clone)
    return clone, _counted_build(clone, monkeypatch)


@pytest.mark.slow
def test_a_clone_in_another_folder_with_the_cache_restored_renders_nothing(
    origin, tmp_path, monkeypatch
):
    first = _clone(origin, tmp_path / "runner-1/work/site")
    cold, cold_pages, _ = _counted_build(first, monkeypatch)
    assert (cold.rendered, cold_pages > 0) == (8, True)
    _save(first, tmp_path / "cache-1.tar")

    second, (deploy, pages, parsed) = _deploy(
        origin, tmp_path, monkeypatch, "cache-1.tar", "venv-2", "runner-2/deep/er/blog"
    )
    assert (deploy.rendered, pages, parsed) == (0, 0, 0)
    clean = tmp_path / "clean"
    build(BuildOptions(root=second, out_dir=clean, cache=False), now=NOW)
    assert tree(second / "_site") == tree(clean)
    assert deploy.files == cold.files and deploy.warnings == cold.warnings

    # The cache this deploy leaves serves the next one just as well.
    _save(second, tmp_path / "cache-2.tar")
    third, (again, pages, parsed) = _deploy(
        origin, tmp_path, monkeypatch, "cache-2.tar", "venv-3", "runner-3/site"
    )
    assert (again.rendered, pages, parsed) == (0, 0, 0)
    assert tree(third / "_site") == tree(clean)


@pytest.mark.slow
def test_a_restored_cache_renders_only_what_the_new_commit_changed(origin, tmp_path, monkeypatch):
    first = _clone(origin, tmp_path / "one/site")
    _counted_build(first, monkeypatch)
    _save(first, tmp_path / "cache.tar")
    post = origin / "content/posts/p01.md"
    post.write_text(post.read_text() + "\nOne more sentence.\n")
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "edit", cwd=origin)
    second = _clone(origin, tmp_path / "two/site")
    _restore(tmp_path / "cache.tar", second)
    result, pages, parsed = _counted_build(second, monkeypatch)
    assert (result.rendered, parsed) == (1, 1)
    # the post, its neighbours (their prev/next titles), the lists and feeds that show it
    assert 0 < pages < cold_pages_of(first)
    clean = tmp_path / "clean"
    build(BuildOptions(root=second, out_dir=clean, cache=False), now=NOW)
    assert tree(second / "_site") == tree(clean)


def cold_pages_of(site: Path) -> int:
    """Return how many pages (HTML files and feeds) `site`'s output holds."""
    out = site / "_site"
    return sum(1 for p in out.rglob("*") if p.suffix in (".html", ".xml"))
