"""Warnings cost time linear in their number, however many one paragraph or line holds.

A paragraph of thousands of inline warnings (wikilinks to no note, unknown Liquid variables)
was quadratic three ways: each warning was compared with all noted before it
(`inlinewarn.warn_inline`), located by counting and searching its paragraph's text from the
start (`tagsyntax.locate`), and given its own copy of the source line as an excerpt, hashed
anew (`RenderState.report`): 16,000 wikilinks in one line took 21 s and 1.6 GB. Measured as
`tests/math/test_math_scaling.py` measures: N and 4N, the ratio of the best of five CPU
times with the garbage collector off, never an absolute limit.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.timing import best_cpu_time

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

N = 1000
QUADRATIC = 16
LIMIT = 9

SHAPES: dict[str, Callable[[int], str]] = {
    "wikilinks to no note in one line": lambda n: "".join(f"w [[Gone {i}]] " for i in range(n)),
    "unknown Liquid variables over many lines": lambda n: "".join(
        f"v {{{{ page.x{i} }}}}\n" for i in range(n)
    ),
}


def best_time(source: str) -> tuple[float, int]:
    """Return the best CPU time of five renders of `source` and its number of diagnostics."""
    md = create_markdown()
    found: list[int] = []

    def render() -> None:
        state = RenderState(path="post.md")
        state.source_lines = source.split("\n")
        render_markdown(md, source, state)
        found.append(len(state.diagnostics))

    return best_cpu_time(render), found[-1]


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.slow
def test_many_warnings_in_one_paragraph_cost_linear_time(shape):
    best_time(SHAPES[shape](N // 4))  # warm-up: imports, regex compilation, caches
    small, small_found = best_time(SHAPES[shape](N))
    large, large_found = best_time(SHAPES[shape](4 * N))
    assert (small_found, large_found) == (N, 4 * N)  # one warning each, none lost
    assert large / small < LIMIT < QUADRATIC, f"{shape}: {small:.4f} s -> {large:.4f} s"


def test_warnings_of_one_line_share_its_excerpt_and_keep_their_columns():
    source = "a [[Gone]] b [[Also gone]]\n"
    state = RenderState(path="post.md")
    state.source_lines = source.split("\n")
    render_markdown(create_markdown(), source, state)
    first, second = state.diagnostics
    assert (first.location.col, second.location.col) == (3, 14)
    assert first.source_line is second.source_line == "a [[Gone]] b [[Also gone]]"
