"""A symlink in `content/`, `static/` or `templates/` that loops or names nothing is a content
error at the link, worded the same by `postil build`, `postil check` and `postil serve`'s
first build; a failed build leaves the last `_site/` as it was (session 43: a loop was a
traceback, a link to a missing file a file silently left out, a template the theme's)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.blog import build_site, make_site, post_text

from postil.errors import BuildFailed
from postil.serve.engine import DevBuild

LOOP = "the links lead back to themselves and never reach a file; remove the link or point it"
MISSING = "restore the file or directory it names, or remove the link"


def _self_loop(root: Path) -> None:
    (root / "content/posts/loop.md").symlink_to("loop.md")


def _two_link_loop(root: Path) -> None:
    (root / "static/img").mkdir(parents=True)
    (root / "static/img/a.png").symlink_to("b.png")
    (root / "static/img/b.png").symlink_to("a.png")


def _directory_loop(root: Path) -> None:
    (root / "content/notes").symlink_to("notes")


def _missing_file(root: Path) -> None:
    (root / "content/posts/plot.png").symlink_to("../../plots/plot.png")


def _missing_directory(root: Path) -> None:
    (root / "static").mkdir()
    (root / "static/fonts").symlink_to("../node_modules/fonts")


def _missing_through_a_chain(root: Path) -> None:
    (root / "static").mkdir()
    (root / "static/logo.svg").symlink_to("current.svg")
    (root / "static/current.svg").symlink_to("v2.svg")


def _template_gone(root: Path) -> None:
    (root / "templates/partials").mkdir(parents=True)
    (root / "templates/partials/header.html").symlink_to("../../theme/header.html")


def _template_loop(root: Path) -> None:
    (root / "templates").mkdir()
    (root / "templates/post.html").symlink_to("post.html")


def _folder_loop(name: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        if (root / name).exists():
            shutil.move(root / name, root / f"{name}.old")
        (root / name).symlink_to(name)

    return make


CASES = {
    "a post linked to itself": (
        _self_loop,
        [
            "content/posts/loop.md: symlink loop (`content/posts/loop.md` → "
            "`content/posts/loop.md`): "
        ],
        LOOP,
    ),
    "two static links naming each other": (
        _two_link_loop,
        [
            "static/img/a.png: symlink loop (`static/img/a.png` → `static/img/b.png` → "
            "`static/img/a.png`): ",
            "static/img/b.png: symlink loop (`static/img/b.png` → `static/img/a.png` → "
            "`static/img/b.png`): ",
        ],
        LOOP,
    ),
    "a directory linked to itself": (
        _directory_loop,
        ["content/notes: symlink loop (`content/notes` → `content/notes`): "],
        LOOP,
    ),
    "a content file whose target is gone": (
        _missing_file,
        ["content/posts/plot.png: symlink points to `plots/plot.png`, "],
        MISSING,
    ),
    "a static directory whose target is gone": (
        _missing_directory,
        ["static/fonts: symlink points to `node_modules/fonts`, "],
        MISSING,
    ),
    "a chain of links ending at nothing": (
        _missing_through_a_chain,
        [
            "static/current.svg: symlink points to `static/v2.svg`, ",
            "static/logo.svg: symlink points to `static/v2.svg`, which does not exist (through"
            " `static/logo.svg` → `static/current.svg` → `static/v2.svg`); ",
        ],
        MISSING,
    ),
    # Jinja2's loader skipped these, and the theme's template was used without a word
    "a site template whose target is gone": (
        _template_gone,
        ["templates/partials/header.html: symlink points to `theme/header.html`, "],
        MISSING,
    ),
    "a site template linked to itself": (
        _template_loop,
        ["templates/post.html: symlink loop (`templates/post.html` → `templates/post.html`): "],
        LOOP,
    ),
    "content/ itself a loop": (
        _folder_loop("content"),
        ["content: symlink loop (`content` → `content`): "],
        LOOP,
    ),
    "static/ itself a loop": (
        _folder_loop("static"),
        ["static: symlink loop (`static` → `static`): "],
        LOOP,
    ),
    "templates/ itself a loop": (
        _folder_loop("templates"),
        ["templates: symlink loop (`templates` → `templates`): "],
        LOOP,
    ),
}


def _site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01")})


def _assert_reported(messages: list[str], starts: list[str], tail: str) -> None:
    assert len(messages) == len(starts), messages
    for message, start in zip(sorted(messages), starts, strict=True):
        assert message.startswith(start), message
        assert tail in message


@pytest.mark.parametrize("case", CASES)
def test_a_broken_symlink_fails_the_build_at_the_link_and_keeps_the_last_site(tmp_path, case):
    make, starts, tail = CASES[case]
    root = _site(tmp_path)
    build_site(root)
    before = _files(root / "_site")
    make(root)
    with pytest.raises(BuildFailed) as failed:
        build_site(root)
    _assert_reported([str(d) for d in failed.value.diagnostics], starts, tail)
    assert _files(root / "_site") == before


def _files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


@pytest.mark.parametrize("case", CASES)
def test_check_and_the_dev_servers_first_build_report_a_broken_symlink_as_build_does(
    tmp_path, case
):
    make, starts, tail = CASES[case]
    root = _site(tmp_path)
    make(root)
    checked = subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 1, checked.stderr
    assert "Traceback" not in checked.stderr
    lines = [line for line in checked.stderr.splitlines() if "symlink" in line]
    _assert_reported(lines, starts, tail)
    assert not (root / "_site").exists()
    report = DevBuild(root).build()
    assert not report.ok
    _assert_reported([str(e) for e in report.errors], starts, tail)


def test_links_that_reach_a_file_and_hidden_editor_locks_are_no_errors(tmp_path):
    root = _site(tmp_path)
    (root / "static").mkdir()
    (root / "static/logo.svg").write_text("<svg/>")
    (root / "static/current.svg").symlink_to("logo.svg")
    (root / "static/latest").symlink_to(".")  # a directory cycle: read once, no error
    # Emacs' lock file: a link to `user@host.pid`, which never exists; hidden, so skipped.
    os.symlink("ada@host.4242:1700000000", root / "content/posts/.#a.md")
    build_site(root)
    assert (root / "_site/current.svg").read_text() == "<svg/>"
