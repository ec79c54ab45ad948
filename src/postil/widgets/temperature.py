"""The temperature widget: one attention query's softmax weights as the temperature τ turns.

Markdown (a fenced block; `scores` are the query's logits for the tokens *before* it, the
tokens after it are shown masked, as a causal mask does; `tau` gives the slider's smallest
and largest temperature, its number of log-spaced points and the initial temperature):

    ```{temperature}
    tokens: [The, black, cat, that, chased, the, mouse, was, hungry, .]
    query: was            # the query token, by text or 0-based index
    scores: [1.0, 0.5, 3.4, 0.3, 1.2, 0.1, 2.0]
    tau: {min: 0.05, max: 20, steps: 101, default: 1.0}   # optional; these are the defaults
    caption: Attention weights for the query “was” at temperature τ.
    name: fig-temperature # optional label, for `[](#fig-temperature)`
    ```

For every τ on the grid, Python computes softmax(scores / τ) and its Shannon entropy in bits;
the page embeds them as JSON (arrays indexed by slider position) and the script only looks
them up. Values are rounded to what the page shows: weights as percentages with one decimal,
entropy with two decimals, τ with three significant figures.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from postil.widgets import OptionError, Widget, compact_json

DEFAULT_TAU_RANGE = (0.05, 20.0)
DEFAULT_STEPS = 101  # 101 log-spaced points over [0.05, 20] put τ = 1 exactly at the middle
DEFAULT_TAU = 1.0
TAU_LIMITS = (0.001, 500.0)  # beyond these the display's rounding (3 significant figures) breaks
STEP_LIMITS = (2, 1000)
TAU_KEYS = ("min", "max", "steps", "default")
_EXAMPLE = "{min: 0.05, max: 20, steps: 101, default: 1.0}"


@dataclass(frozen=True)
class TemperatureOptions:
    """The validated options of one temperature widget.

    Attributes:
        tokens: the sentence, one string per token.
        query: 0-based index of the query token in `tokens`; 1 <= query < len(tokens).
        scores: the query's scores (logits) for tokens[0:query], same length as `query`.
        tau_range: (smallest, largest) temperature, 0 < smallest < largest.
        steps: number of log-spaced temperatures on the slider (τ itself is added if between).
        tau: the initial temperature, inside `tau_range`.
    """

    tokens: tuple[str, ...]
    query: int
    scores: tuple[float, ...]
    tau_range: tuple[float, float] = DEFAULT_TAU_RANGE
    steps: int = DEFAULT_STEPS
    tau: float = DEFAULT_TAU


@dataclass(frozen=True)
class TemperatureTable:
    """Softmax weights and entropy over a grid of temperatures (full precision).

    Attributes:
        taus: the temperatures, increasing.
        weights: weights[i][j] is the weight of token j (j < query) at taus[i]; rows sum to 1.
        entropy: entropy[i] is the Shannon entropy of weights[i], in bits.
        initial: the index of the initial temperature in `taus`.
    """

    taus: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]
    entropy: tuple[float, ...]
    initial: int


def softmax(scores: Sequence[float], tau: float) -> list[float]:
    """Return softmax(scores / tau): non-negative weights summing to 1, one per score.

    Computed stably by subtracting the largest score before exponentiating, so no
    `exp` overflows however small `tau` is. `tau` must be > 0 and `scores` non-empty.
    """
    top = max(scores)
    exps = [math.exp((score - top) / tau) for score in scores]
    total = sum(exps)
    return [e / total for e in exps]


def entropy_bits(weights: Sequence[float]) -> float:
    """Return the Shannon entropy −Σ p·log₂ p of a distribution, in bits (0·log 0 = 0)."""
    return -sum(p * math.log2(p) for p in weights if p > 0.0) + 0.0


def tau_grid(tau_range: tuple[float, float], steps: int, tau: float) -> tuple[list[float], int]:
    """Return `steps` log-spaced temperatures over `tau_range`, with `tau` among them.

    If `tau` is not (to 1e-9 relative) one of the log-spaced points it is inserted in order,
    so the grid then has `steps + 1` points. Returns the grid and the index of `tau` in it.
    """
    low, high = tau_range
    span = math.log(high / low)
    grid = [low * math.exp(span * i / (steps - 1)) for i in range(steps)]
    grid[0], grid[-1] = low, high
    index = min(range(steps), key=lambda i: abs(math.log(grid[i] / tau)))
    if abs(math.log(grid[index] / tau)) < 1e-9:
        grid[index] = tau
        return grid, index
    index = bisect.bisect(grid, tau)
    grid.insert(index, tau)
    return grid, index


def compute(options: TemperatureOptions) -> TemperatureTable:
    """Return the weights and entropy of `options.scores` at every temperature of the grid."""
    taus, initial = tau_grid(options.tau_range, options.steps, options.tau)
    weights = tuple(tuple(softmax(options.scores, tau)) for tau in taus)
    entropy = tuple(entropy_bits(row) for row in weights)
    return TemperatureTable(tuple(taus), weights, entropy, initial)


def parse_options(raw: Mapping[str, Any]) -> TemperatureOptions:
    """Validate the widget's YAML options (see the module docstring for the schema).

    Raises:
        OptionError: naming the first missing or wrong option and how to fix it.
    """
    tokens = _tokens(_required(raw, "tokens", "the sentence, e.g. `tokens: [The, cat, sat]`"))
    query = _query(
        _required(raw, "query", "the query token's text or index, e.g. `query: sat`"), tokens
    )
    scores = _numbers(_required(raw, "scores", "one score per token before the query"), "scores")
    if len(scores) != query:
        raise OptionError(
            f"`scores` has {len(scores)} value{'s' if len(scores) != 1 else ''} but {query} "
            f"token{'s' if query != 1 else ''} come before the query `{tokens[query]}`; "
            "give one score per token before the query"
        )
    tau_range, steps, tau = _temperatures(raw.get("tau"))
    return TemperatureOptions(tokens, query, scores, tau_range, steps, tau)


def _required(raw: Mapping[str, Any], key: str, hint: str) -> Any:
    if key not in raw or raw[key] is None:
        raise OptionError(f"option `{key}` is missing; add {hint}")
    return raw[key]


def _tokens(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) < 2:
        raise OptionError("`tokens` must be a list of at least two strings, e.g. [The, cat, sat]")
    for i, token in enumerate(value):
        if not isinstance(token, str) or not token:
            raise OptionError(f"`tokens[{i}]` is {token!r}; write each token as a non-empty string")
    return tuple(value)


def _query(value: Any, tokens: tuple[str, ...]) -> int:
    if isinstance(value, str):
        matches = [i for i, token in enumerate(tokens) if token == value]
        if len(matches) != 1:
            where = "is not among" if not matches else f"appears {len(matches)} times in"
            raise OptionError(f"`query` `{value}` {where} `tokens`; give the query's index instead")
        value = matches[0]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < len(tokens):
        raise OptionError(
            f"`query` is {value!r}; give a token's text or its 0-based index from 1 to "
            f"{len(tokens) - 1} (the query needs at least one token before it)"
        )
    return value


def _numbers(value: Any, key: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise OptionError(f"`{key}` must be a list of numbers, e.g. [1.0, 0.5, 3.4]")
    return tuple(_number(number, f"{key}[{i}]") for i, number in enumerate(value))


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionError(f"`{key}` is {value!r}, not a number; write a number like 1.5")
    if not math.isfinite(value):
        raise OptionError(f"`{key}` is {value!r}; write a finite number")
    return float(value)


def _temperatures(value: Any) -> tuple[tuple[float, float], int, float]:
    """Validate the `tau` mapping; return ((min, max), steps, default), defaults filled in."""
    value = {} if value is None else value
    if not isinstance(value, dict):
        raise OptionError(f"`tau` must be a mapping, e.g. `tau: {_EXAMPLE}`")
    for key in value:
        if key not in TAU_KEYS:
            raise OptionError(f"unknown option `tau.{key}`; `tau` takes {', '.join(TAU_KEYS)}")
    low = _number(value.get("min", DEFAULT_TAU_RANGE[0]), "tau.min")
    high = _number(value.get("max", DEFAULT_TAU_RANGE[1]), "tau.max")
    if low >= high:
        raise OptionError(
            f"`tau.min` {low:g} is not below `tau.max` {high:g}; the slider runs from min up "
            f"to max, e.g. `tau: {_EXAMPLE}`"
        )
    if low < TAU_LIMITS[0] or high > TAU_LIMITS[1]:
        raise OptionError(
            f"`tau` from {low:g} to {high:g} leaves {TAU_LIMITS[0]:g}..{TAU_LIMITS[1]:g}; "
            f"choose temperatures inside it, e.g. `tau: {_EXAMPLE}`"
        )
    steps = _steps(value.get("steps", DEFAULT_STEPS))
    tau = _number(value.get("default", DEFAULT_TAU), "tau.default")
    if not low <= tau <= high:
        raise OptionError(f"`tau.default` {tau:g} is not between {low:g} and {high:g}")
    return (low, high), steps, tau


def _steps(value: Any) -> int:
    low, high = STEP_LIMITS
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"`tau.steps` is {value!r}; give a whole number from {low} to {high}")
    return value


def format_tau(tau: float) -> str:
    """Return τ with three significant figures, as JavaScript's `toPrecision(3)` writes it.

    "0.0500", "1.00", "20.0", "100"; valid for τ in `TAU_LIMITS`.
    """
    return f"{tau:#.3g}".rstrip(".")


def template_context(options: TemperatureOptions) -> dict[str, Any]:
    """Return the template's variables: rows at the initial τ, readouts and the embedded JSON.

    `data_json` is Markup (`compact_json` escapes `<`, `>`, `&`) holding
    `{"tau": [...], "weights": [[percent, ...], ...], "entropy": [...]}`, indexed by the
    slider's position: τ to 3 significant figures, weights of the visible tokens in percent
    to 1 decimal, entropy in bits to 2 decimals.
    """
    table = compute(options)
    taus = [_short(float(f"{tau:.3g}")) for tau in table.taus]
    percents = [[_short(round(100.0 * w, 1)) for w in row] for row in table.weights]
    entropy = [_short(round(h, 2)) for h in table.entropy]
    initial = table.initial
    return {
        "rows": _rows(options, percents[initial]),
        "query_token": options.tokens[options.query],
        "tau_index": initial,
        "tau_last": len(taus) - 1,
        "tau_text": format_tau(taus[initial]),
        "entropy_text": f"{entropy[initial]:.2f}",
        "data_json": Markup(compact_json({"tau": taus, "weights": percents, "entropy": entropy})),
    }


def _short(number: float) -> float | int:
    """Return a whole number as an int, so the JSON says `0` rather than `0.0`."""
    return int(number) if number.is_integer() else number


def _rows(options: TemperatureOptions, percents: list[float]) -> list[dict[str, Any]]:
    """Return one row per token: its text, its state and (if visible) its percentage."""
    rows: list[dict[str, Any]] = []
    for i, token in enumerate(options.tokens):
        if i < options.query:
            rows.append({"token": token, "state": "visible", "percent": f"{percents[i]:.1f}"})
        else:
            rows.append({"token": token, "state": "query" if i == options.query else "masked"})
    return rows


WIDGET = Widget(
    name="temperature",
    options=("tokens", "query", "scores", "tau"),
    parse_options=parse_options,
    template_context=template_context,
)
