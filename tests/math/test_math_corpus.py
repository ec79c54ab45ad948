"""The math layer measured on the shared corpus with `math_check.py`'s own scoring logic.

The thresholds are issue 3's targets, so a regression in any kind of formula fails CI.
"""

from __future__ import annotations

import collections
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import pytest

from postil.math import MathError, latex_to_mathml

SHARED_MATH = Path(__file__).resolve().parents[2].parent / "shared" / "math"
# `\eqref` to an equation of ANOTHER formula: a lone formula cannot know its number and
# prints "(??)" as LaTeX does (never an invented number); in a post the Markdown plugin
# passes the document's numbers. Such a row is scored with the labels a post would define,
# and must then be ok. The only such row; see docs/math.md, "Quality, measured".
CROSS_FORMULA_REFERENCES = {"b-084-misc": {"eq:nll": "1"}}


@pytest.fixture(scope="module")
def checker() -> Any:
    """Import ../shared/math/math_check.py (skip when the shared corpus is not beside us)."""
    checker_path = SHARED_MATH / "math_check.py"
    if not checker_path.is_file():
        pytest.skip(f"{checker_path} not found; the shared corpus lives beside the checkout")
    spec = importlib.util.spec_from_file_location("math_check", checker_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def references() -> dict[str, dict]:
    """Return Temml's reference records by corpus row id."""
    with open(SHARED_MATH / "math_reference" / "temml.jsonl", encoding="utf-8") as f:
        return {rec["id"]: rec for rec in map(json.loads, f)}


@pytest.fixture(scope="module")
def scored(checker, references) -> list[dict]:
    """Score every corpus row with math_check.classify; return rows with class and time."""
    with open(SHARED_MATH / "math_corpus.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"), strict=True)) for line in f]
    convert = checker.load_converter("postil.math:latex_to_mathml")  # uncached: no cache given
    results = []
    for row in rows:
        start = time.perf_counter()
        cls, detail, _ = checker.classify(convert, row, references.get(row["id"]))
        elapsed = (time.perf_counter() - start) * 1000
        results.append({**row, "class": cls, "detail": detail, "ms": elapsed})
    return results


def failures(results: list[dict], prefix: str) -> list[str]:
    """Return "id [class] detail" for every row of a category prefix that is not ok."""
    return [
        f"{r['id']} [{r['class']}] {r['detail'][:80]}"
        for r in results
        if r["category"].startswith(prefix) and r["class"] != "ok"
    ]


def test_corpus_strict_ok_is_at_least_92_percent(scored):
    ok = sum(r["class"] == "ok" for r in scored)
    assert ok / len(scored) >= 0.92, collections.Counter(r["class"] for r in scored)


def test_every_blog_formula_is_ok(scored):
    bad = [f for f in failures(scored, "blog/") if f.split()[0] not in CROSS_FORMULA_REFERENCES]
    assert bad == []


@pytest.mark.parametrize(("row_id", "equations"), CROSS_FORMULA_REFERENCES.items())
def test_cross_formula_reference_is_ok_with_the_posts_numbers_and_unknown_alone(
    scored, checker, references, row_id, equations
):
    row = next(r for r in scored if r["id"] == row_id)
    assert (row["class"], "(??)" in row["detail"]) == ("token-mismatch", True)

    def with_numbers(latex: str, display: bool) -> str:
        return latex_to_mathml(latex, display=display, equations=equations)

    assert checker.classify(with_numbers, row, references[row_id])[0] == "ok"


def test_every_escaping_case_is_ok(scored):
    assert failures(scored, "edge/escaping") == []


def test_no_formula_shows_a_raw_command_or_invalid_xml(scored):
    bad = [r["id"] for r in scored if r["class"] in ("raw-leftover", "invalid-xml", "empty")]
    assert bad == []


def test_unsupported_formulas_raise_math_errors_naming_the_command(scored):
    for row in (r for r in scored if r["class"] == "exception"):
        with pytest.raises(MathError) as info:
            latex_to_mathml(row["latex"], display=row["display"] == "1")
        assert info.value.command or "parse" in info.value.message
