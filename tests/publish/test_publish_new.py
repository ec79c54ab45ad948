"""`postil new "Title"`: the draft it writes, its date, and never overwriting."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from postil.content.frontmatter import parse
from postil.model import SourceFile
from postil.scaffold import new_post


def make_root(tmp_path: Path, timezone: str = "Asia/Kolkata") -> Path:
    (tmp_path / "postil.yaml").write_text(
        f"title: T\nauthor: A\nbase_url: https://x.org/\ntimezone: {timezone}\n"
    )
    return tmp_path


def run_new(root: Path, title: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "new", title],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_new_writes_a_draft_whose_front_matter_reads_back(tmp_path):
    root = make_root(tmp_path)
    when = datetime(2026, 3, 5, 14, 30, 59, tzinfo=ZoneInfo("Asia/Kolkata"))
    title = "Why: no & 1.10 — ünïcode"
    path = new_post(root, title, when)
    assert path == root / "content/posts/why-no-1-10-unicode.md"
    text = path.read_text(encoding="utf-8")
    meta, body, _ = parse(SourceFile(path, "content/posts/x.md", text, "post"), "UTC")
    assert meta.title == title
    assert meta.draft is True
    assert meta.date == when.replace(second=0)
    assert meta.date.utcoffset().total_seconds() == 5.5 * 3600
    assert body.strip() == ""


def test_new_dates_the_post_now_in_the_site_timezone(tmp_path):
    root = make_root(tmp_path, "America/New_York")
    before = datetime.now(ZoneInfo("America/New_York")).replace(second=0, microsecond=0)
    result = run_new(root, "Hello")
    assert result.returncode == 0, result.stderr
    written = (root / "content/posts/hello.md").read_text()
    meta, _, _ = parse(SourceFile(Path("h.md"), "h.md", written, "post"), "UTC")
    assert meta.date.utcoffset() == before.utcoffset()
    assert 0 <= (meta.date - before).total_seconds() <= 120
    assert "content/posts/hello.md" in result.stdout


def test_new_refuses_to_overwrite_and_exits_1(tmp_path):
    root = make_root(tmp_path)
    assert run_new(root, "Same title").returncode == 0
    path = root / "content/posts/same-title.md"
    path.write_text("my words\n")
    again = run_new(root, "Same  Title!")
    assert again.returncode == 1
    assert "content/posts/same-title.md" in again.stderr and "already exists" in again.stderr
    assert "Traceback" not in again.stderr
    assert path.read_text() == "my words\n"


def test_new_refuses_a_title_that_clashes_with_a_page_bundle(tmp_path):
    root = make_root(tmp_path)
    bundle = root / "content/posts/bundled/index.md"
    bundle.parent.mkdir(parents=True)
    bundle.write_text("---\ntitle: B\n---\n")
    result = run_new(root, "Bundled")
    assert result.returncode == 1 and "content/posts/bundled/index.md" in result.stderr
    assert not (root / "content/posts/bundled.md").exists()


def test_new_without_a_config_exits_2(tmp_path):
    result = run_new(tmp_path, "Anything")
    assert result.returncode == 2 and "postil.yaml" in result.stderr


def test_new_makes_the_file_name_from_the_titles_readable_text(tmp_path):
    path = new_post(make_root(tmp_path), r"The $\displaystyle S$ matrix")
    assert path.name == "the-s-matrix.md"
