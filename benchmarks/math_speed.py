"""Time postil's LaTeX -> MathML conversion against raw latex2mathml (dev script, issue 8).

Usage:
    python benchmarks/math_speed.py [--corpus DIR] [--out outputs.json] [--repeat N]

Formulas: every row of `../shared/math/math_corpus.tsv` plus the `$…$`/`$$…$$` of the
Markdown posts under `--corpus` (`--only tsv` or `--only corpus`: one of them; made by `gen_corpus.py DIR --posts 100 --unique-math
--flavor neutral`; a simple regex, good enough for a benchmark). No conversion cache is
used. Prints total and per-formula times (best of `--repeat` runs)
and ms per post-equivalent (13 formulas); writes each output (or the error) to `--out`
so that two runs can be diffed byte for byte.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
from pathlib import Path

from latex2mathml.converter import convert as raw_convert

from postil.math import MathError, latex_to_mathml

TSV = Path(__file__).resolve().parents[2] / "shared" / "math" / "math_corpus.tsv"
DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\$)")
PER_POST = 13
ONLY = ("both", "tsv", "corpus")


def load_formulas(corpus: Path | None, only: str = "both") -> list[tuple[str, bool]]:
    """Return (latex, display) for every formula of the TSV and of the generated corpus.

    `only` is "tsv" or "corpus" for the formulas of one of them, "both" for all.
    """
    formulas = []
    if only != "corpus":
        with TSV.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                formulas.append((row["latex"], row["display"] == "1"))
    if only == "tsv":
        return formulas
    if corpus is not None:
        for path in sorted(corpus.rglob("*.md")):
            text = path.read_text(encoding="utf-8")
            formulas += [(m.group(1).strip(), True) for m in DISPLAY_MATH.finditer(text)]
            rest = DISPLAY_MATH.sub(" ", text)
            formulas += [(m.group(1), False) for m in INLINE_MATH.finditer(rest)]
    return formulas


def run_postil(formulas: list[tuple[str, bool]]) -> tuple[float, list[str]]:
    """Convert every formula without a cache; return (seconds, outputs)."""
    outputs = []
    start = time.perf_counter()
    for latex, display in formulas:
        try:
            outputs.append(latex_to_mathml(latex, display=display))
        except MathError as exc:
            outputs.append(f"ERROR {type(exc).__name__} {exc.offset} {exc.message}")
    return time.perf_counter() - start, outputs


def run_raw(formulas: list[tuple[str, bool]]) -> float:
    """Convert every formula with latex2mathml alone; return seconds (errors ignored)."""
    start = time.perf_counter()
    for latex, display in formulas:
        try:
            raw_convert(latex, display="block" if display else "inline")
        except Exception:  # noqa: BLE001,S112 - bad input is part of the corpus
            continue
    return time.perf_counter() - start


def main() -> None:
    """Parse arguments, time both converters, print the table, save outputs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/mc"))
    parser.add_argument("--out", type=Path, default=Path("/tmp/math_outputs.json"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=ONLY, default="both")
    args = parser.parse_args()
    corpus = args.corpus if args.corpus.exists() else None
    formulas = load_formulas(corpus, args.only)
    postil_best, outputs = min(run_postil(formulas) for _ in range(args.repeat))
    raw_best = min(run_raw(formulas) for _ in range(args.repeat))
    n = len(formulas)
    for name, seconds in (("postil", postil_best), ("latex2mathml", raw_best)):
        per = seconds / n * 1000
        print(
            f"{name:13s} total {seconds * 1000:8.1f} ms  {per:6.3f} ms/formula  "
            f"{per * PER_POST:6.2f} ms/post ({n} formulas)"
        )
    print(f"overhead      {(postil_best - raw_best) / n * 1000 * PER_POST:6.2f} ms/post")
    records = [
        {"latex": latex, "display": display, "out": out}
        for (latex, display), out in zip(formulas, outputs, strict=True)
    ]
    args.out.write_text(json.dumps(records, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"outputs -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
