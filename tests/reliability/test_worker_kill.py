"""Fault test: a worker process killed mid-build (what the OOM killer does) is survived.

A parallel build (`-j 2`) of a site large enough for both process pools (Markdown and
pages) runs while the test SIGKILLs one of its worker processes at a random moment. The
build must either finish with the same site as a clean build (the lost chunks run again in
a new pool) or fail with exactly one line saying what happened — never a traceback, never
a hang. `POSTIL_KILL_RUNS` sets the number of runs (default 12).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.killsite import tree_digest, write_kill_site

pytestmark = pytest.mark.slow

RUNS = int(os.environ.get("POSTIL_KILL_RUNS", "12"))
POSTS = 120


def children(pid: int) -> list[int]:
    """Return the ids of the child processes of `pid` (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _build(root: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "postil", "-C", str(root), "build", "--no-cache", "-j", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill_a_worker(process: subprocess.Popen[str], within: float, rng: random.Random) -> bool:
    """Wait a random moment of `within` seconds, then SIGKILL one worker; say if one was."""
    deadline = time.monotonic() + rng.uniform(0.0, within)
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    while process.poll() is None:
        workers = children(process.pid)
        if workers:
            os.kill(rng.choice(workers), signal.SIGKILL)
            return True
        time.sleep(0.002)
    return False


def test_a_killed_worker_is_retried_or_the_build_fails_in_one_line(tmp_path):
    root = write_kill_site(tmp_path / "site", POSTS)
    started = time.monotonic()
    clean = _build(root)
    assert clean.wait(timeout=600) == 0, clean.stderr.read() if clean.stderr else ""
    seconds = time.monotonic() - started
    expected = tree_digest(root / "_site")
    rng = random.Random(19)
    outcomes = {"rebuilt": 0, "failed in one line": 0, "no worker to kill": 0}
    for run in range(RUNS):
        process = _build(root)
        killed = _kill_a_worker(process, seconds, rng)
        try:
            _, err = process.communicate(timeout=max(120.0, 4 * seconds))
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail(f"run {run}: the build hung after a worker was killed")
        assert "Traceback" not in err, err
        if process.returncode == 0:
            assert tree_digest(root / "_site") == expected, f"run {run}: a different site"
            outcomes["rebuilt" if killed else "no worker to kill"] += 1
        else:
            lines = err.strip().splitlines()
            assert process.returncode == 1 and len(lines) == 1, err
            assert lines[0].startswith("error: ") and "worker process died" in lines[0], err
            outcomes["failed in one line"] += 1
    print(f"{RUNS} runs: {outcomes}")
    assert outcomes["rebuilt"] + outcomes["failed in one line"] > 0
