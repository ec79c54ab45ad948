#!/usr/bin/env python3
"""Time a warm `postil serve` start: from launching it to its home page served (issue 20).

Starts `python -m postil -C SITE serve --port 0` as `serve_latency.py` does, GETs the home
page once the URL is printed, and reports the wall time from the launch to the answer and
the CPU time the process used until then (its user + system time, read from /proc before
it is stopped). With `--compare SRC` (the `src/` of another checkout), runs alternate
between this checkout and that one, each on its own copy of the site: a cache is only
valid for the postil code that wrote it, so each copy is warmed by a first, untimed start
of its own code. Prints every run, then the medians, with the load average at each start.

    .venv/bin/python benchmarks/serve_start.py /tmp/psb/site-1000 --runs 5
    .venv/bin/python benchmarks/serve_start.py /tmp/psb/site-1000 --compare /tmp/main/src

It compiles both trees to bytecode first, as `pip install` does (this machine sets
PYTHONDONTWRITEBYTECODE). The machine's load decides much of the wall time: compare the
CPU column when other work runs.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process `pid` has used so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(site: Path, src: Path) -> tuple[float, float]:
    """Launch `postil serve` on `site` with `src` first on the path; return (wall, CPU)
    seconds until its home page was answered."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "postil", "-C", str(site), "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith("serving "):
            raise RuntimeError(f"postil serve did not start: {line!r}")
        parts = urlsplit(line.split()[1])
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        conn.request("GET", parts.path)
        if conn.getresponse().status != 200:
            raise RuntimeError("postil serve did not serve its home page")
        wall = time.perf_counter() - started
        cpu = cpu_seconds(process.pid)
        conn.close()
    finally:
        process.terminate()
        process.wait(10)
    return wall, cpu


def site_copy(site: Path, work: Path, name: str) -> Path:
    """Return a copy of `site` (its sources, no cache) under `work`, made once."""
    copy = work / name
    if not copy.exists():
        shutil.copytree(site, copy, ignore=shutil.ignore_patterns(".postil-cache", "_site"))
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path, help="a site directory (e.g. serve_latency's)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="the src/ of another checkout")
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-serve-start"))
    args = parser.parse_args()
    trees = {"this": REPO / "src"}
    if args.compare:
        trees["other"] = args.compare.absolute()
    args.work.mkdir(parents=True, exist_ok=True)
    sites = {label: site_copy(args.site, args.work, f"site-{label}") for label in trees}
    for src in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)
    for label, src in trees.items():
        start(sites[label], src)  # warms the copy's cache for this code (untimed)
    results: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
    for i in range(args.runs):
        for label, src in trees.items() if i % 2 == 0 else reversed(trees.items()):
            load = os.getloadavg()[0]
            wall, cpu = start(sites[label], src)
            results[label].append((wall, cpu))
            print(f"run {i + 1} {label:>5}: {wall:.3f} s, CPU {cpu:.2f} s (load {load:.1f})")
    for label, runs in results.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{label:>5}: median {statistics.median(walls):.3f} s"
            f" ({min(walls):.3f}-{max(walls):.3f}), CPU {statistics.median(cpus):.2f} s"
            f" ({min(cpus):.2f}-{max(cpus):.2f}), {len(runs)} runs"
        )


if __name__ == "__main__":
    main()
