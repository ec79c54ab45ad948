#!/usr/bin/env python3
"""Compare the CPU time of two postil source trees building the same corpus: cold, then warm.

    .venv/bin/python benchmarks/build_cpu_ab.py --base /tmp/base/src --posts 1000 --runs 3

`--base` and `--head` (default: this checkout's `src/`) are directories holding `postil/`,
run as `PYTHONPATH=<dir> python -m postil build -j 1` with this venv's libraries (a tree
without its theme beside it needs `templates/` and `static/` next to `src/`, as a checkout
has). The corpus is `../shared/bench/gen_corpus.py --unique-math` in `benchmarks/run.py`'s
layout, made once; each run copies it for each tree and builds it cold (no
`.postil-cache/`, no `_site/`) and warm (again, nothing changed), base and head
interleaved, the one going first alternating. CPU is the child's user + system time
(`os.wait4`), so a loaded machine changes it less than the wall time; both are printed,
with medians and ranges. Not a unit test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GEN_CORPUS = REPO.parent / "shared" / "bench" / "gen_corpus.py"
POSTIL_YAML = "title: Bench\nauthor: Bench\nbase_url: https://example.org/\n"


def timed_build(src: Path, site: Path) -> tuple[float, float]:
    """Run `postil build -j 1` in `site` with `src` first on the path; return (wall, CPU) s."""
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, "-m", "postil", "build", "-j", "1"]
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=site, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"build failed in {site} with {src}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the base tree's src/")
    parser.add_argument("--head", type=Path, default=REPO / "src", help="the head's src/")
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "head": args.head.resolve()}
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="postil-cpu-ab-") as tmp:
        corpus = Path(tmp) / "corpus"
        subprocess.run(
            [sys.executable, str(GEN_CORPUS), "--posts", str(args.posts), "--unique-math"]
            + [str(corpus)],
            check=True,
            capture_output=True,
        )
        (corpus / "content").mkdir()
        (corpus / "posts").rename(corpus / "content" / "posts")
        (corpus / "postil.yaml").write_text(POSTIL_YAML)
        for src in trees.values():  # as `pip install` does; else every run compiles postil
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)
        for run in range(args.runs):
            order = ["base", "head"] if run % 2 == 0 else ["head", "base"]
            for label in order:
                site = Path(tmp) / f"{label}-{run}"
                shutil.copytree(corpus, site)
                for kind in ("cold", "warm"):
                    results.setdefault((label, kind), []).append(timed_build(trees[label], site))
                shutil.rmtree(site)
    print(f"{args.posts} posts, {args.runs} runs, `postil build -j 1`; seconds, median (range)")
    print("| build | tree | CPU | wall |\n| --- | --- | ---: | ---: |")
    for kind in ("cold", "warm"):
        for label in ("base", "head"):
            walls, cpus = zip(*results[(label, kind)], strict=True)
            cpu = f"{statistics.median(cpus):.2f} ({min(cpus):.2f}-{max(cpus):.2f})"
            wall = f"{statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f})"
            print(f"| {kind} | {label} | {cpu} | {wall} |")


if __name__ == "__main__":
    main()
