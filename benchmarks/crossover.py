#!/usr/bin/env python3
"""Find how much work makes a process pool pay: `postil.parallel.SEQUENTIAL_BELOW` (posts
to render) and, with `--pages`, `postil.parallel.PAGES_SEQUENTIAL_BELOW` (pages to render).

    .venv/bin/python benchmarks/crossover.py                     # 4..96 posts, 5 runs each
    .venv/bin/python benchmarks/crossover.py --counts 8,16,32 --runs 7
    .venv/bin/python benchmarks/crossover.py --pages --counts 16,32,48,64,96

For each post count it builds a `--unique-math` corpus of that size with `--no-cache`, in
one process (`-j 1`) and with one worker per CPU (`-j N`, the pool forced on however few
posts there are), interleaved, and prints the medians of the wall time of `postil build`
(start-up included: it is what a user waits for). The crossover is the smallest count from
which the pool is faster at every larger count measured.

With `--pages`, both runs use one worker per CPU for Markdown and differ only in the page
stage: every page rendered and written in the build process, or by the forked page pool
(forced on); a site of N posts has ≈ 1.2 N + 10 pages (the files count is printed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from run import REPO, generate, precompile, run

PRELUDE = "import sys, runpy; import postil.parallel as p; p.SEQUENTIAL_BELOW = 0; "
RUN = "sys.argv = ['postil'] + sys.argv[1:]; runpy.run_module('postil', run_name='__main__')"
PAGES = {True: "p.PAGES_SEQUENTIAL_BELOW = 0; ", False: "p.PAGES_SEQUENTIAL_BELOW = 10**9; "}


def time_build(site: Path, workers: int, env: dict[str, str], page_pool: bool = False) -> float:
    """Return the wall seconds of one uncached build of `site` with `workers` processes
    (the Markdown pool forced on; the page pool forced on or off by `page_pool`)."""
    code = PRELUDE + PAGES[page_pool] + RUN
    command = [sys.executable, "-c", code, "-C", str(site), "build", "--no-cache"]
    return run([*command, "-j", str(workers)], site, env)[0]


def files_of(site: Path) -> int:
    """Return how many files the last build of `site` wrote."""
    return sum(1 for p in (site / "_site").rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", default="4,8,12,16,24,32,48,64,96")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-bench"))
    parser.add_argument("--src", type=Path, default=REPO / "src")
    parser.add_argument("--pages", action="store_true", help="time the page pool instead")
    args = parser.parse_args()
    precompile(args.src)
    if args.pages:
        pages_crossover(args)
        return
    env = dict(os.environ, PYTHONPATH=str(args.src))
    cpus = os.cpu_count() or 1
    rows = []
    for count in [int(c) for c in args.counts.split(",")]:
        site = generate(args.work, count, "postil")
        times: dict[int, list[float]] = {1: [], cpus: []}
        for _ in range(args.runs):
            for workers in times:
                times[workers].append(time_build(site, workers, env))
        one, pool = (statistics.median(times[w]) for w in (1, cpus))
        rows.append((count, one, pool))
        print(f"{count:>4} posts: -j 1 {one:6.2f} s   -j {cpus} {pool:6.2f} s", flush=True)
    crossover = next(
        (c for i, (c, _, _) in enumerate(rows) if all(p < o for _, o, p in rows[i:])), None
    )
    print(f"\ncrossover (pool faster from here on): {crossover} posts")


def pages_crossover(args: argparse.Namespace) -> None:
    """Time the page stage in the build process against the page pool, by site size."""
    env = dict(os.environ, PYTHONPATH=str(args.src))
    cpus = os.cpu_count() or 1
    rows = []
    for count in [int(c) for c in args.counts.split(",")]:
        site = generate(args.work, count, "postil")
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.runs):
            for pool in times:
                times[pool].append(time_build(site, cpus, env, page_pool=pool))
        here, pooled = (statistics.median(times[p]) for p in (False, True))
        rows.append((files_of(site), here, pooled))
        print(
            f"{count:>4} posts, {rows[-1][0]:>4} files: pages here {here:6.2f} s"
            f"   page pool {pooled:6.2f} s",
            flush=True,
        )
    crossover = next(
        (c for i, (c, _, _) in enumerate(rows) if all(p < h for _, h, p in rows[i:])), None
    )
    print(f"\ncrossover (page pool faster from here on): {crossover} files")


if __name__ == "__main__":
    main()
