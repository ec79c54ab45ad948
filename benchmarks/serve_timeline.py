#!/usr/bin/env python3
"""Where a save's milliseconds go in a running dev server, in process (issue 20).

It copies SITE (e.g. the 1,000 posts `serve_latency.py` writes under its --work) into
--work (its `.postil-cache/` too, so the first build is warm when there is one), starts a
`DevServer` on port 0 with its real inotify watcher and batcher, and --edits times, after
a random pause of 0.3-0.6 s, saves the middle post with a new paragraph (in place and by
renaming a temp file over it, alternately, as `serve_latency.py` does). For each save it
takes, from the write: the watcher's first event for it (*event*), the start of the build
(*build*: the batcher's wait, `SETTLE_SECONDS` unless every file is `closed`), and the
hand-over of the post's own page (*hand-over*, `DevBuild.on_first`), and the build
thread's CPU time from the build's start to the hand-over (*cpu*). It prints p50 and p95
of each, in milliseconds, and one JSON line.

    .venv/bin/python benchmarks/serve_timeline.py /tmp/psb/site-1000 --edits 30

Run it with another checkout's `src/` on PYTHONPATH for a before/after (interleave runs).
Nothing requests pages meanwhile, so the HTTP thread takes no CPU from the build.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from postil.serve.app import DevServer, ServeOptions


def percentiles(values: list[float]) -> tuple[float, float]:
    """Return (p50, p95) of `values` (nearest rank)."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def measure(root: Path, edits: int, rng: random.Random) -> dict[str, list[float]]:
    """Serve `root`, save its middle post `edits` times; return each mark's times (ms)."""
    server = DevServer(ServeOptions(root, port=0))
    server.start()
    marks: dict[str, float] = {}
    add, build, first = server.batcher.add, server.batcher._build, server.builder.on_first
    assert first is not None

    def on_add(changes: Any) -> None:
        marks.setdefault("event", time.perf_counter())
        add(changes)

    def on_build(changes: Any) -> Any:
        marks.setdefault("build", time.perf_counter())
        marks.setdefault("cpu0", time.thread_time())
        return build(changes)

    def on_first(pages: Any) -> None:
        marks.setdefault("hand-over", time.perf_counter())
        marks.setdefault("cpu1", time.thread_time())
        first(pages)

    server.batcher.add = on_add  # type: ignore[method-assign]
    server.batcher._build = on_build
    server.builder.on_first = on_first
    posts = sorted((root / "content/posts").glob("*.md"))
    post = posts[len(posts) // 2]
    original = post.read_text(encoding="utf-8")
    found: dict[str, list[float]] = {"event": [], "build": [], "hand-over": [], "cpu": []}
    time.sleep(1.5)  # the server's warm-up thread (`render.prepare`) done
    try:
        for i in range(edits):
            time.sleep(rng.uniform(0.3, 0.6))
            marks.clear()
            text = f"{original}\n\nEdit {i} {rng.randrange(10**9)}\n"
            started = time.perf_counter()
            if i % 2:
                temp = post.with_name(post.name + ".tmp")
                temp.write_text(text, encoding="utf-8")
                temp.replace(post)
            else:
                post.write_text(text, encoding="utf-8")
            deadline = started + 10
            while "hand-over" not in marks and time.perf_counter() < deadline:
                time.sleep(0.001)
            if "hand-over" not in marks:
                continue  # built with no early hand-over (nothing else rendered)
            for name in ("event", "build", "hand-over"):
                found[name].append((marks[name] - started) * 1e3)
            found["cpu"].append((marks["cpu1"] - marks["cpu0"]) * 1e3)
    finally:
        post.write_text(original, encoding="utf-8")
        server.stop()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path, help="a site to copy (content/, postil.yaml)")
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-timeline-bench"))
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    shutil.copytree(args.site, args.work, ignore=shutil.ignore_patterns("_site"))
    found = measure(args.work, args.edits, random.Random(args.seed))
    summary = {}
    for name, values in found.items():
        p50, p95 = percentiles(values)
        print(f"{name:>10}  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms")
        summary[f"{name} p50 ms"], summary[f"{name} p95 ms"] = round(p50, 1), round(p95, 1)
    print(json.dumps({"saves": len(found["cpu"]), **summary}))


if __name__ == "__main__":
    main()
