"""The output directory is replaced wholesale, so postil refuses any it did not write."""

from pathlib import Path

import pytest
from support import sites

from postil.build import BuildOptions, build
from postil.errors import ConfigError


def make_site(tmp_path: Path) -> Path:
    return sites.make_site(tmp_path / "site", {"p.md": "---\ntitle: P\ndate: 2024-01-01\n---\nx\n"})


@pytest.mark.parametrize(
    "out", [".", "..", "content", "content/posts", "templates", "static", ".git"]
)
def test_the_site_or_its_sources_are_never_an_output_directory(tmp_path, out):
    root = make_site(tmp_path)
    (root / "templates").mkdir()
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(ConfigError):
        build(BuildOptions(root=root, out_dir=root / out, cache=False))
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_non_empty_directory_postil_did_not_write_is_refused_and_kept(tmp_path):
    root = make_site(tmp_path)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "data.txt").write_text("keep")
    with pytest.raises(ConfigError, match="not empty and was not written by postil"):
        build(BuildOptions(root=root, out_dir=other, cache=False))
    assert (other / "data.txt").read_text() == "keep"


def test_a_directory_holding_a_git_repository_is_refused(tmp_path):
    root = make_site(tmp_path)
    other = tmp_path / "project"
    (other / ".git").mkdir(parents=True)
    (other / ".nojekyll").write_text("")
    with pytest.raises(ConfigError, match="holds .git"):
        build(BuildOptions(root=root, out_dir=other, cache=False))


def test_an_empty_directory_and_a_previous_output_are_replaced(tmp_path):
    root = make_site(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    build(BuildOptions(root=root, out_dir=out, cache=False))
    assert (out / ".nojekyll").exists() and (out / "posts/p/index.html").exists()
    build(BuildOptions(root=root, out_dir=out, cache=False))  # its own output: fine
    assert (out / "posts/p/index.html").exists()
