"""The output comparison of `benchmarks/identical.py`, on tiny trees (no checkout, no build)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def identical(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Return the `identical` script as a module (benchmarks/ is not a package)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("identical")


def write(root: Path, files: dict[str, bytes]) -> Path:
    """Write `files` (relative path → bytes) under `root`; return `root`."""
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


def test_compare_trees_reports_a_changed_byte_and_files_on_one_side(
    identical: ModuleType, tmp_path: Path
) -> None:
    same = {".nojekyll": b"", "index.html": b"<p>same</p>\n"}
    base = write(tmp_path / "base", {**same, "a/x.html": b"one\ntwo\n", "gone.xml": b"<x/>"})
    head = write(tmp_path / "head", {**same, "a/x.html": b"one\ntwO\n", "new.css": b"p{}"})

    compared, problems = identical.compare_trees(base, head)

    assert compared == 3
    assert problems == [
        "differs: a/x.html, line 2, column 3:\n      base: 'two'\n      head: 'twO'",
        "only in base: gone.xml",
        "only in head: new.css",
    ]


def test_compare_trees_finds_identical_trees_identical(
    identical: ModuleType, tmp_path: Path
) -> None:
    files = {".nojekyll": b"", "posts/p/index.html": "é\n".encode()}
    base, head = write(tmp_path / "base", files), write(tmp_path / "head", files)

    assert identical.compare_trees(base, head) == (2, [])


def test_first_difference_reports_a_truncated_file_at_its_end(identical: ModuleType) -> None:
    assert identical.first_difference(b"ab\ncd", b"ab\nc") == (
        "line 2, column 2:\n      base: 'cd'\n      head: 'c' (end of file)"
    )
