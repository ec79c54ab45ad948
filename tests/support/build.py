"""Run `python -m postil build` in a subprocess, as a user would run the command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple


class BuildResult(NamedTuple):
    """What one `postil build` run left behind; unpacks as (returncode, stdout, stderr)."""

    returncode: int
    """Process exit code: 0 success, 1 content errors, 2 usage or config errors (DESIGN.md)."""
    stdout: str
    """Everything the command printed to standard output, decoded as UTF-8."""
    stderr: str
    """Everything printed to standard error (diagnostics as `path:line:col: message`)."""


def build_site(src_dir: Path, out_dir: Path, *args: str, timeout: float = 120) -> BuildResult:
    """Build the site rooted at `src_dir` into `out_dir` with `python -m postil build`.

    Runs `<this interpreter> -m postil build --out <out_dir> <args...>` with `src_dir` as the
    working directory (where `postil.yaml` lives), so `args` are extra CLI flags such as
    "--drafts", "--strict" or "--base-url", "https://example.org/blog/". `timeout` is in
    seconds; raises subprocess.TimeoutExpired past it and NotADirectoryError if `src_dir`
    is not a directory.
    """
    if not Path(src_dir).is_dir():
        raise NotADirectoryError(f"build_site: {src_dir} is not a directory")
    command = [sys.executable, "-m", "postil", "build", "--out", str(Path(out_dir).resolve())]
    done = subprocess.run(
        [*command, *args],
        cwd=src_dir,
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
    )
    return BuildResult(done.returncode, done.stdout, done.stderr)
