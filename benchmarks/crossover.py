#!/usr/bin/env python3
"""Find how many posts to render make the process pool pay: `postil.parallel.SEQUENTIAL_BELOW`.

    .venv/bin/python benchmarks/crossover.py                     # 4..96 posts, 5 runs each
    .venv/bin/python benchmarks/crossover.py --counts 8,16,32 --runs 7

For each post count it builds a `--unique-math` corpus of that size with `--no-cache`, in
one process (`-j 1`) and with one worker per CPU (`-j N`, the pool forced on however few
posts there are), interleaved, and prints the medians of the wall time of `postil build`
(start-up included: it is what a user waits for). The crossover is the smallest count from
which the pool is faster at every larger count measured.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from run import REPO, generate, run

FORCE_POOL = (
    "import sys, runpy; import postil.parallel as p; p.SEQUENTIAL_BELOW = 0; "
    "sys.argv = ['postil'] + sys.argv[1:]; runpy.run_module('postil', run_name='__main__')"
)


def time_build(site: Path, workers: int, env: dict[str, str]) -> float:
    """Return the wall seconds of one uncached build of `site` with `workers` processes."""
    command = [sys.executable, "-c", FORCE_POOL, "-C", str(site), "build", "--no-cache"]
    return run([*command, "-j", str(workers)], site, env)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", default="4,8,12,16,24,32,48,64,96")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-bench"))
    parser.add_argument("--src", type=Path, default=REPO / "src")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
