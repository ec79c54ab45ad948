"""`postil check`: the CI command builds in memory, writes nothing, lists every error and
warning with its file and line, and exits 1 on an error (with --strict, on a warning too)."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from support import sites

CONFIG = "title: C\nauthor: A\nbase_url: https://x.org/\n"
make_site = partial(sites.make_site, config=CONFIG)
POSTS = {
    "a.md": "---\ntitle: A\nweight: [x]\n---\n\nNote[^n] and $\\unknowncmd{x}$.\n",
    "b.md": "---\ntitle: B\ndate: 2024-13-01\n---\nx\n",
    "c.md": "---\ntitle: C\n---\n[x](missing.md)\n\n$\\frac{a}{$\n\n![f](f.png){#fig-f}\n",
    "d.md": "---\ntitle: D\n---\n![one](a.png){#fig-x}\n\n![two](b.png){#fig-x}\n",
}


def check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "check", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def located(stderr: str) -> list[str]:
    """Return the `path:line:col: …` lines of the output, the position and kind only."""
    return [
        line.split(": ")[0] + (": warning" if ": warning: " in line else ": error")
        for line in stderr.splitlines()
        if line.startswith("content/")
    ]


def test_check_lists_every_error_and_warning_with_its_line_and_exits_1(tmp_path):
    root = make_site(tmp_path / "site", POSTS)
    done = check(root)
    assert done.returncode == 1
    assert sorted(located(done.stderr)) == [
        "content/posts/a.md:1:1: warning",  # post without a date
        "content/posts/a.md:3:1: warning",  # unknown front matter key
        "content/posts/a.md:6:15: warning",  # unsupported math command
        "content/posts/a.md:6:5: warning",  # undefined note
        "content/posts/b.md:3:7: error",  # impossible date
        "content/posts/c.md:1:1: warning",  # post without a date
        "content/posts/c.md:4:5: warning",  # link to a missing post
        "content/posts/c.md:6:10: warning",  # broken formula
        "content/posts/c.md:8:6: warning",  # missing image
        "content/posts/d.md:1:1: warning",  # post without a date
        "content/posts/d.md:4:8: warning",  # missing image
        "content/posts/d.md:6:1: warning",  # duplicate figure id
        "content/posts/d.md:6:8: warning",  # missing image
    ]
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in root.iterdir()) == ["content", "postil.yaml"]


@pytest.mark.slow
def test_check_passes_with_warnings_and_fails_on_them_under_strict(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": POSTS["a.md"]})
    done = check(root)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "checked 1 post: no errors, 4 warnings\n"
    assert len(located(done.stderr)) == 4
    strict = check(root, "--strict")
    assert strict.returncode == 1
    assert located(strict.stderr) == [
        "content/posts/a.md:1:1: warning",
        "content/posts/a.md:3:1: warning",
        "content/posts/a.md:6:5: warning",
        "content/posts/a.md:6:15: warning",
    ]
    assert sorted(p.name for p in root.iterdir()) == ["content", "postil.yaml"]


def test_check_of_a_clean_site_exits_0_and_writes_nothing(tmp_path):
    root = make_site(
        tmp_path / "site", {"ok.md": "---\ntitle: Ok\ndate: 2024-01-01\n---\nFine $x$.\n"}
    )
    done = check(root, "--strict")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "checked 1 post: no errors, 0 warnings\n",
        "",
    )
    assert not (root / "_site").exists()


def test_check_reports_config_errors_with_exit_2(tmp_path):
    root = make_site(tmp_path / "site", {})
    (root / "postil.yaml").write_text(CONFIG + "colour: red\n")
    done = check(root)
    assert done.returncode == 2
    assert "postil.yaml:4:1: unknown key `colour`" in done.stderr
