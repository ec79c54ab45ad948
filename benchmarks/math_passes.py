"""Time each pass of postil's math pipeline per formula (dev script, issue 20).

Usage:
    python benchmarks/math_passes.py [--corpus DIR] [--only tsv|corpus] [--runs N] [--top K]
                                     [--clock wall|cpu]

The formulas are `math_speed.py`'s (the TSV plus the `$…$` of `--corpus`). Each run converts
every formula once through `pipeline.run` with a trace hook that reads the clock after each
pass, then serialises it; the table shows each pass's median over `--runs` runs of its mean
µs a formula, and its share. `--clock cpu` reads the thread's CPU time (`thread_time`:
≈ 0.5 µs a read, but a loaded machine's other work stays out); `--clock wall` (the
default) `perf_counter`. The clock reads add ≈ 0.1 µs a pass (wall); `math_speed.py` gives the
total without them. The machine's other work shows in every number: compare runs made
back to back, and check a change with call counts (cProfile) too.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from math_speed import ONLY, load_formulas

from postil.math import MathError
from postil.math.pipeline import Formula, run
from postil.math.serialise import math_html


CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def time_passes(
    formulas: list[tuple[str, bool]], clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """Convert every formula once; return pass name -> seconds spent in it over all."""
    spent: dict[str, float] = defaultdict(float)
    for latex, display in formulas:
        formula = Formula(latex, display, {}, None, None)
        last = clock()

        def trace(name: str, _: Formula) -> None:
            nonlocal last
            now = clock()
            spent[name] += now - last
            last = now

        try:
            run(formula, trace)
        except MathError:
            continue
        started = clock()
        math_html(formula.root, formula.source, formula.display)
        spent["serialise"] += clock() - started
    return spent


def main() -> None:
    """Parse arguments, time the passes, print the table (median µs a formula per pass)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/mc"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--clock", choices=CLOCKS, default="wall")
    parser.add_argument("--only", choices=ONLY, default="both", help="the TSV's or the corpus's")
    args = parser.parse_args()
    formulas = load_formulas(args.corpus if args.corpus.exists() else None, args.only)
    clock = CLOCKS[args.clock]
    time_passes(formulas, clock)  # warm: lru caches, latex2mathml's tables
    runs = [time_passes(formulas, clock) for _ in range(args.runs)]
    per = {
        name: statistics.median(r.get(name, 0.0) for r in runs) / len(formulas) * 1e6
        for name in runs[0]
    }
    total = sum(per.values())
    for name, micros in sorted(per.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{name:22s} {micros:8.1f} µs  {micros / total * 100:5.1f} %")
    parse = per.get("parse", 0.0)
    print(f"{'all passes':22s} {total:8.1f} µs  ({len(formulas)} formulas, {args.runs} runs)")
    print(f"{'postil without parse':22s} {total - parse:8.1f} µs")


if __name__ == "__main__":
    main()
