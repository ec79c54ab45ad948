"""Best-of-N CPU time with the garbage collector off, for tests that compare growth ratios.

Scaling tests time a size N and 4N and compare the two (linear work grows about 4×,
quadratic 16×), never against an absolute limit. The CPU time of this process, not the
wall clock, keeps a busy machine's scheduling out of the ratio; the garbage collector is
off while timing (its passes grow with the objects alive, not with the work).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def best_cpu_time(run: Callable[[], object], rounds: int = 5) -> float:
    """Return the least CPU time (seconds) of `rounds` calls of `run`, collector off."""
    best = float("inf")
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            started = time.process_time()
            run()
            best = min(best, time.process_time() - started)
    finally:
        if collecting:
            gc.enable()
    return best
