"""Compare two checkouts' math layers in one process, interleaved (dev script, issue 20).

Usage:
    python benchmarks/math_ab.py BASE_SRC [--corpus DIR] [--rounds N] [--batch K]

`BASE_SRC` is the `src` folder of another checkout (a worktree of the commit to compare
with); the other side is the `postil` this interpreter imports. Both `latex_to_mathml`s are
loaded side by side (the base's modules are imported first, then dropped from
`sys.modules` so the current ones import fresh), and the formulas of `math_speed.py` are
converted in batches of `--batch`, base, current and raw latex2mathml in turn, `--rounds`
times: a load that comes and goes on a shared machine then falls on all three alike.
Prints the median over rounds of each side's µs a formula (CPU time of the process and
wall time) and checks that both sides' outputs are identical.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from latex2mathml.converter import convert as raw_convert
from math_speed import ONLY, load_formulas

Convert = Callable[[str, bool], str]


def _load(src: Path | None) -> tuple[Convert, type[Exception]]:
    """Import `postil.math` (from `src` when given); return its converter and error class."""
    if src is not None:
        sys.path.insert(0, str(src))
    for name in [m for m in sys.modules if m == "postil" or m.startswith("postil.")]:
        del sys.modules[name]
    from postil.math import MathError, latex_to_mathml

    if src is not None:
        sys.path.remove(str(src))
    return (lambda latex, display: latex_to_mathml(latex, display=display)), MathError


def _run(convert: Convert, error: type[Exception], batch: list[tuple[str, bool]]) -> list[str]:
    """Convert a batch; an error becomes its message (so both sides compare)."""
    out = []
    for latex, display in batch:
        try:
            out.append(convert(latex, display))
        except error as exc:
            out.append(f"ERROR {exc}")
    return out


def _raw(batch: list[tuple[str, bool]]) -> None:
    """Convert a batch with latex2mathml alone (errors ignored)."""
    for latex, display in batch:
        try:
            raw_convert(latex, display="block" if display else "inline")
        except Exception:  # noqa: BLE001,S112 - bad input is part of the corpus
            continue


def main() -> None:
    """Parse arguments, run the rounds, print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/mc"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--only", choices=ONLY, default="both", help="the TSV's or the corpus's")
    args = parser.parse_args()
    formulas = load_formulas(args.corpus if args.corpus.exists() else None, args.only)
    sides = {"base": _load(args.base.resolve()), "current": _load(None)}
    batches = [formulas[i : i + args.batch] for i in range(0, len(formulas), args.batch)]
    outputs = {name: _run(*side, formulas) for name, side in sides.items()}  # warm, and check
    cpu: dict[str, list[float]] = {"base": [], "current": [], "latex2mathml": []}
    wall: dict[str, list[float]] = {name: [] for name in cpu}
    for _ in range(args.rounds):
        spent = {name: [0.0, 0.0] for name in cpu}
        for batch in batches:
            for name in cpu:
                started = time.process_time(), time.perf_counter()
                if name == "latex2mathml":
                    _raw(batch)
                else:
                    _run(*sides[name], batch)
                spent[name][0] += time.process_time() - started[0]
                spent[name][1] += time.perf_counter() - started[1]
        for name, (cpu_s, wall_s) in spent.items():
            cpu[name].append(cpu_s / len(formulas) * 1e6)
            wall[name].append(wall_s / len(formulas) * 1e6)
    for name in cpu:
        print(
            f"{name:13s} {statistics.median(cpu[name]):7.1f} µs CPU  "
            f"{statistics.median(wall[name]):7.1f} µs wall a formula "
            f"(rounds: {', '.join(f'{v:.0f}' for v in cpu[name])})"
        )
    same = outputs["base"] == outputs["current"]
    print(f"outputs {'identical' if same else 'DIFFER'} ({len(formulas)} formulas)")


if __name__ == "__main__":
    main()
