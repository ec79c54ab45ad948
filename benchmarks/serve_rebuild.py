#!/usr/bin/env python3
"""CPU and wall time of the dev server's rebuild after one edit, in process (issue 20).

It copies SITE (a generated corpus, e.g. the 1,000 posts `serve_latency.py` writes under
its --work) into --work, runs `DevBuild` as `postil serve` does — the first build, then
`watching()` (when this postil has it) and one build that begins while watching; the
garbage collector frozen after it with `app.GC_THRESHOLD`, young garbage collected between
edits, untimed — and then --edits times appends a paragraph to the middle post and builds
with the change set the watcher would give. It prints the medians and 95th percentiles of
the build's CPU time (`time.thread_time`: what other work on a shared machine disturbs
least) and wall time, and, when this postil hands the edited post's page over before the
rest of the build (`DevBuild.on_first`), the CPU and wall time until then ("first"), as
one JSON line, and with --profile the cumulative and own-time
tables of cProfile (timed by the thread's CPU clock) over the edits after the first two.

    .venv/bin/python benchmarks/serve_rebuild.py /tmp/psb/posts-1000 --edits 30
    .venv/bin/python benchmarks/serve_rebuild.py SITE --edits 12 --profile

Run it with another checkout's `src/` on PYTHONPATH for a before/after (interleave runs).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import shutil
import statistics
import time
from pathlib import Path

from postil.serve.app import GC_THRESHOLD
from postil.serve.engine import DevBuild
from postil.serve.watcher import ChangeSet


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile `share` (0-1] of `values`."""
    ordered = sorted(values)
    return ordered[max(0, round(share * len(ordered)) - 1)]


def measure(root: Path, edits: int, profile: cProfile.Profile | None) -> dict[str, float]:
    """Build `root` as a dev server does, edit one post `edits` times; return the numbers."""
    builder = DevBuild(root)
    started = time.perf_counter()
    assert builder.build().ok, "the first build failed"
    first = time.perf_counter() - started
    if hasattr(builder, "watching"):
        builder.watching()
    assert builder.build(ChangeSet(content=set())).ok
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    posts = sorted((root / "content/posts").glob("*.md"))
    post = posts[len(posts) // 2].absolute()
    cpu, wall, first_cpu, first_wall = [], [], [], []
    handed: list[tuple[float, float]] = []
    if hasattr(builder, "on_first"):
        builder.on_first = lambda pages: handed.append((time.thread_time(), time.perf_counter()))
    for i in range(edits):
        handed.clear()
        post.write_text(post.read_text(encoding="utf-8") + f"\n\nEdit {i}.\n", encoding="utf-8")
        time.sleep(0.03)
        gc.collect(0)
        cpu0, wall0 = time.thread_time(), time.perf_counter()
        if profile is not None and i >= 2:
            profile.enable()
        report = builder.build(ChangeSet(content={post}, settled={post}))
        if profile is not None:
            profile.disable()
        cpu.append(time.thread_time() - cpu0)
        wall.append(time.perf_counter() - wall0)
        assert report.ok, report.errors
        if handed:
            first_cpu.append(handed[0][0] - cpu0)
            first_wall.append(handed[0][1] - wall0)
    builder.close()
    firsts = {
        "first cpu p50 ms": round(statistics.median(first_cpu) * 1e3, 1),
        "first cpu p95 ms": round(percentile(first_cpu, 0.95) * 1e3, 1),
        "first wall p50 ms": round(statistics.median(first_wall) * 1e3, 1),
        "first wall p95 ms": round(percentile(first_wall, 0.95) * 1e3, 1),
    }
    return {
        "first build s": round(first, 2),
        "edits": edits,
        "cpu p50 ms": round(statistics.median(cpu) * 1e3, 1),
        "cpu p95 ms": round(percentile(cpu, 0.95) * 1e3, 1),
        "wall p50 ms": round(statistics.median(wall) * 1e3, 1),
        "wall p95 ms": round(percentile(wall, 0.95) * 1e3, 1),
        "pages rendered": report.pages,
        **(firsts if first_cpu else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path, help="a site to copy (content/, postil.yaml)")
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-rebuild-bench"))
    parser.add_argument("--profile", action="store_true", help="print cProfile's tables")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    shutil.copytree(args.site, args.work, ignore=shutil.ignore_patterns("_site", ".postil-cache"))
    # CPU time, not the clock: on a shared machine a wall-clock profile charges whatever
    # ran when the scheduler took the CPU away.
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    print(json.dumps(measure(args.work, args.edits, profile)))
    if profile is not None:
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats("postil", 40)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
