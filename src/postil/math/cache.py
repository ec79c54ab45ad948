"""The conversion cache: repeated formulas and rebuilds cost a dictionary look-up.

The caller owns a `MathCache` and passes it to `latex_to_mathml(..., cache=…)` (the
Markdown side keeps one per build worker in `RenderState.math_cache`); there is no
process-wide cache. Keys are strings built by `cache_key` from
everything the output depends on (source, display, macros, referenced numbers), so a
cache written by `export()` and read back by `load()` in a later build is still correct;
the version of postil's math layer and of latex2mathml is part of each key, so an
upgrade never serves stale MathML.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from itertools import islice

try:
    ENGINE = f"latex2mathml {version('latex2mathml')}"
except PackageNotFoundError:  # pragma: no cover - running from a checkout without metadata
    ENGINE = "latex2mathml"
LAYER_VERSION = "postil.math 1"


def cache_key(
    latex: str,
    display: bool,
    macros: Mapping[str, str] | None,
    equations: Mapping[str, str] | None,
    numbers: Sequence[str | None] | None,
) -> str:
    """Return the cache key of one conversion (a JSON string; stable across processes).

    Only the equation numbers a formula can refer to matter, so `equations` is part of
    the key only when the source mentions `ref` (`\\ref`, `\\eqref`).
    """
    refs = sorted(equations.items()) if equations is not None and "ref" in latex else None
    return _KEY_JSON.encode(
        [LAYER_VERSION, ENGINE, latex, display, sorted((macros or {}).items()), refs, numbers]
    )


_KEY_JSON = json.JSONEncoder(ensure_ascii=False)
"""`json.dumps(…, ensure_ascii=False)`'s encoder, made once: `dumps` makes a new one on every
call with a non-default option, a third of the key's cost."""


class MathCache:
    """A bounded dictionary from `cache_key` strings to MathML strings.

    Args:
        limit: at most this many entries; the oldest are dropped first.
    """

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._entries: dict[str, str] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> str | None:
        """Return the MathML stored under `key`, or None (counted as a miss)."""
        found = self._entries.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: str, mathml: str) -> None:
        """Store `mathml` under `key`, dropping the oldest entry when full."""
        if len(self._entries) >= self.limit:
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = mathml

    def export(self) -> dict[str, str]:
        """Return every entry as a plain dict (JSON-serialisable) for saving to disk."""
        return dict(self._entries)

    def newest(self, count: int) -> dict[str, str]:
        """Return the `count` most recently stored entries, newest first (no copy of the rest:
        a worker asks after every post, and copying the whole cache each time was quadratic)."""
        return dict(islice(reversed(self._entries.items()), count)) if count > 0 else {}

    def load(self, entries: Mapping[str, str]) -> None:
        """Add entries from an earlier `export()`; entries of other versions never match."""
        for key, mathml in entries.items():
            self.put(key, mathml)

    def clear(self) -> None:
        """Forget every entry and reset the hit/miss counters."""
        self._entries.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)
