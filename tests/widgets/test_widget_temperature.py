"""The temperature widget's computation: softmax over the visible tokens, entropy in bits.

Hand-checked values: softmax([ln 3, 0]) = [3/4, 1/4] with entropy 0.75·log₂(4/3) + 0.25·2 =
0.811278 bits; softmax([2 ln 2, ln 2, 0]) = [4/7, 2/7, 1/7] with entropy log₂ 7 − 10/7 =
1.378784 bits.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from postil.widgets import OptionError
from postil.widgets.temperature import (
    TemperatureOptions,
    compute,
    entropy_bits,
    format_tau,
    parse_options,
    softmax,
    tau_grid,
    template_context,
)

# The sentence documented for the reference post: "was" attends to the seven tokens before it;
# the subject "cat" scores highest, the nearer distractor noun "mouse" second.
SENTENCE = ["The", "black", "cat", "that", "chased", "the", "mouse", "was", "hungry", "."]
SCORES = [1.0, 0.5, 3.4, 0.3, 1.2, 0.1, 2.0]
POST = Path(__file__).resolve().parents[2] / "content/posts/attention-from-the-softmax-up.md"


def seed_options(**changes: object) -> TemperatureOptions:
    raw = {"tokens": SENTENCE, "query": "was", "scores": SCORES, **changes}
    return parse_options(raw)


def test_softmax_of_ln3_and_0_is_three_quarters_and_one_quarter() -> None:
    weights = softmax([math.log(3), 0.0], 1.0)
    assert weights == pytest.approx([0.75, 0.25], abs=1e-12)
    assert entropy_bits(weights) == pytest.approx(0.811278, abs=1e-6)


def test_softmax_of_three_tokens_matches_the_hand_computed_sevenths() -> None:
    weights = softmax([2 * math.log(2), math.log(2), 0.0], 1.0)
    assert weights == pytest.approx([4 / 7, 2 / 7, 1 / 7], abs=1e-12)
    assert entropy_bits(weights) == pytest.approx(math.log2(7) - 10 / 7, abs=1e-9)


def test_temperature_two_halves_the_scores() -> None:
    assert softmax([2 * math.log(3), 0.0], 2.0) == pytest.approx([0.75, 0.25], abs=1e-12)


def test_softmax_is_stable_for_huge_scores_and_tiny_temperatures() -> None:
    weights = softmax([1000.0, 999.0, -1000.0], 0.001)
    assert weights == pytest.approx([1.0, 0.0, 0.0])
    assert entropy_bits(weights) == 0.0


def test_uniform_weights_have_log2_n_bits() -> None:
    assert entropy_bits(softmax([0.3] * 7, 1.0)) == pytest.approx(math.log2(7), abs=1e-12)


def test_weights_sum_to_one_at_every_temperature() -> None:
    table = compute(seed_options())
    assert len(table.weights) == len(table.taus) == len(table.entropy) == 101
    for row in table.weights:
        assert sum(row) == pytest.approx(1.0, abs=1e-12)
        assert len(row) == 7


def test_smallest_temperature_gives_cat_nearly_everything() -> None:
    table = compute(seed_options())
    assert table.taus[0] == 0.05
    assert table.weights[0][SENTENCE.index("cat")] >= 0.99
    assert table.entropy[0] <= 0.05


def test_largest_temperature_is_close_to_uniform_over_seven_tokens() -> None:
    table = compute(seed_options())
    assert table.taus[-1] == 20.0
    assert table.entropy[-1] >= math.log2(7) - 0.05
    assert table.entropy[-1] <= math.log2(7)


def test_entropy_never_falls_as_temperature_rises() -> None:
    entropy = compute(seed_options()).entropy
    assert all(a <= b for a, b in zip(entropy, entropy[1:], strict=False)), entropy


@given(st.lists(st.floats(-20, 20), min_size=2, max_size=12))
def test_entropy_is_monotone_in_temperature_for_any_scores(scores: list[float]) -> None:
    taus, _ = tau_grid((0.05, 20.0), 40, 1.0)
    entropy = [entropy_bits(softmax(scores, tau)) for tau in taus]
    assert all(a <= b + 1e-9 for a, b in zip(entropy, entropy[1:], strict=False))
    assert all(0.0 <= h <= math.log2(len(scores)) + 1e-9 for h in entropy)


def test_grid_is_log_spaced_with_one_in_the_middle_by_default() -> None:
    taus, initial = tau_grid((0.05, 20.0), 101, 1.0)
    assert (taus[0], taus[initial], taus[-1]) == (0.05, 1.0, 20.0)
    assert initial == 50
    ratios = [b / a for a, b in zip(taus, taus[1:], strict=False)]
    assert max(ratios) == pytest.approx(min(ratios), rel=1e-9)


def test_grid_inserts_the_initial_temperature_when_it_falls_between_points() -> None:
    taus, initial = tau_grid((0.05, 20.0), 100, 1.0)
    assert len(taus) == 101
    assert taus[initial] == 1.0
    assert taus == sorted(taus)


def test_tokens_after_the_query_are_masked_with_no_weight() -> None:
    rows = template_context(seed_options())["rows"]
    states = [row["state"] for row in rows]
    assert states == ["visible"] * 7 + ["query", "masked", "masked"]
    assert all("percent" not in row for row in rows[7:])


def test_context_shows_the_initial_temperature_entropy_and_percentages() -> None:
    context = template_context(seed_options())
    table = compute(seed_options())
    assert context["tau_text"] == "1.00"
    assert context["entropy_text"] == f"{table.entropy[50]:.2f}"
    cat = context["rows"][2]
    assert cat["percent"] == f"{100 * table.weights[50][2]:.1f}"


def test_embedded_json_is_compact_arrays_rounded_for_display() -> None:
    context = template_context(seed_options())
    data = json.loads(str(context["data_json"]))
    assert set(data) == {"tau", "weights", "entropy"}
    assert len(data["tau"]) == len(data["weights"]) == len(data["entropy"]) == 101
    assert all(len(row) == 7 for row in data["weights"])
    assert data["weights"][0][2] == 100
    assert data["entropy"][50] == pytest.approx(compute(seed_options()).entropy[50], abs=0.005)
    assert ", " not in str(context["data_json"])
    assert all(re.fullmatch(r"-?\d+(\.\d)?", json.dumps(p)) for row in data["weights"] for p in row)


@pytest.mark.parametrize(
    ("tau", "text"),
    [(0.05, "0.0500"), (0.0531, "0.0531"), (1.0, "1.00"), (20.0, "20.0"), (100, "100")],
)
def test_format_tau_writes_three_significant_figures_like_to_precision(
    tau: float, text: str
) -> None:
    assert format_tau(tau) == text


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"query": None},
            "option `query` is missing; add the query token's text or index, e.g. `query: sat`",
        ),
        (
            {"scores": SCORES[:6]},
            "`scores` has 6 values but 7 tokens come before the query `was`; "
            "give one score per token before the query",
        ),
        (
            {"tau": {"min": 20, "max": 0.05}},
            "`tau.min` 20 is not below `tau.max` 0.05; the slider runs from min up to max, "
            "e.g. `tau: {min: 0.05, max: 20, steps: 101, default: 1.0}`",
        ),
        (
            {"scores": [1, 2, "high", 4, 5, 6, 7]},
            "`scores[2]` is 'high', not a number; write a number like 1.5",
        ),
        ({"query": "dog"}, "`query` `dog` is not among `tokens`; give the query's index instead"),
        (
            {"tokens": ["a", "b", "a", "c"], "query": "a", "scores": [1.0]},
            "`query` `a` appears 2 times in `tokens`; give the query's index instead",
        ),
        (
            {"query": 0},
            "`query` is 0; give a token's text or its 0-based index from 1 to 9 "
            "(the query needs at least one token before it)",
        ),
        ({"tau": {"default": 50}}, "`tau.default` 50 is not between 0.05 and 20"),
        ({"tau": {"steps": 1}}, "`tau.steps` is 1; give a whole number from 2 to 1000"),
        ({"tau": {"top": 3}}, "unknown option `tau.top`; `tau` takes min, max, steps, default"),
        (
            {"tau": 1.0},
            "`tau` must be a mapping, e.g. `tau: {min: 0.05, max: 20, steps: 101, default: 1.0}`",
        ),
    ],
)
def test_bad_options_name_the_option_and_the_fix(changes: dict[str, object], message: str) -> None:
    raw = {"tokens": SENTENCE, "query": "was", "scores": SCORES, **changes}
    with pytest.raises(OptionError) as caught:
        parse_options(raw)
    assert str(caught.value) == message


def test_query_may_be_given_by_index() -> None:
    assert seed_options(query=7) == seed_options()


def test_reference_post_widget_meets_the_issue_properties() -> None:
    if not POST.is_file():
        pytest.skip(f"{POST} is not written yet")
    fence = re.search(
        r"^```\{temperature\}\n(.*?)^```", POST.read_text(encoding="utf-8"), re.M | re.S
    )
    assert fence, "the reference post has no ```{temperature} fence"
    raw = yaml.safe_load(fence.group(1))
    options = parse_options({k: v for k, v in raw.items() if k not in ("caption", "name")})
    table = compute(options)
    visible = options.tokens[: options.query]
    assert len(visible) == 7 and options.tokens[options.query] == "was"
    assert max(range(7), key=lambda j: options.scores[j]) == visible.index("cat")
    assert table.weights[0][visible.index("cat")] >= 0.99 and table.entropy[0] <= 0.05
    assert table.entropy[-1] >= math.log2(7) - 0.05
