"""A corpus of posts that exercises every converter, a whole output tree as bytes, and a build
in a fresh process with both process pools forced on: the parallel and cache tests' tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.blog import post_text


def corpus(count: int) -> dict[str, str]:
    """Return `count` posts with math, code, a note, and one warning each (unknown language)."""
    posts = {}
    for i in range(count):
        body = (
            f"Intro $x_{{{i}}}^2$ with a note[^1].\n\n```python\nprint({i})\n```\n\n"
            f"```nosuchlang\nx = {i}\n```\n\n$$\n\\sum_{{k=1}}^{{{i}}} k\n$$\n\n[^1]: Note {i}.\n"
        )
        posts[f"p{i:02d}.md"] = post_text(f"Post {i}", f"2026-01-{i % 28 + 1:02d}", body)
    return posts


def tree(directory: Path) -> dict[str, bytes]:
    """Return every file under `directory`: its POSIX path relative to it -> its bytes."""
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


POOL_PROBE = """
import json, sys
import postil.parallel as p
p.SEQUENTIAL_BELOW = p.PAGES_SEQUENTIAL_BELOW = 0
p.CHUNK_POSTS, p.CHUNK_PAGES = 2, 3
used = []
class Counting(p.ProcessPoolExecutor):
    def submit(self, fn, *args, **kwargs):
        if not getattr(self, "counted", False):  # one entry per pool
            used.append(fn.__name__)
            self.counted = True
        return super().submit(fn, *args, **kwargs)
p.ProcessPoolExecutor = Counting
from postil.cli import main
code = main(sys.argv[1:])
print(json.dumps(used))
sys.exit(code)
"""


def build_probed(root: Path, *args: str) -> tuple[int, list[str], str]:
    """Build `root` in a fresh process with both pools forced on (whatever threads this one
    runs: the page pool needs `fork`, which a process with threads does not use); return
    the exit code, the functions the pools ran, and stderr."""
    command = [sys.executable, "-c", POOL_PROBE, "-C", str(root), "build", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1]), done.stderr
