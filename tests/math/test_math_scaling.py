"""The math rules cost time linear in the paragraph, whatever its delimiters (no O(n²)).

Each case times a size N and 4N and compares them: linear work grows about 4×, quadratic
16×. No absolute time limit, so a slow or busy machine does not fail the test; a warm-up
run and the best of five keep start-up costs out of the ratio, and the CPU time of this
process with the garbage collector off (its passes grow with the objects alive, not with
the work) keeps a busy machine's scheduling out of it (a run at 9.3× under load average 8).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from markdown_it import MarkdownIt
from support.timing import best_cpu_time

from postil.markdown.math import math_plugin
from postil.markdown.state import RenderState
from postil.math.delimiters import Closers

N = 2000
QUADRATIC = 16  # what 4× the input costs when every opener rescans the rest
LIMIT = 9  # linear or n log n stays near 4-5×

SHAPES: dict[str, Callable[[int], str]] = {
    "unmatched dollars": lambda n: "$a " * n + "\n",
    "dollars closed only by a digit": lambda n: "$a$5 " * n + "\n",
    "unmatched \\(": lambda n: "\\(a " * n + "\n",
    "escaped brackets in a line": lambda n: "\\[-\\] " * n + "\n",
    "a letter before a spaced dollar": lambda n: "$y $ " * n + "\n",
    "spaced dollars beside CJK text": lambda n: "中$x $" * n + "\n",
    "unmatched \\[": lambda n: "\\[a " * n + "\n",
    "unmatched $$ after an escaped one": lambda n: "\\$$a " * n + "\n",
    "unmatched dollars in a table row": lambda n: "| a | b |\n| - | - |\n| " + "$a " * n + "|\n",
}


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    math_plugin(md)
    return md


def best_time(md: MarkdownIt, source: str) -> float:
    def render() -> None:
        state = RenderState(path="post.md")
        state.source_lines = source.split("\n")
        md.render(source, {"postil": state})

    return best_cpu_time(render)


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.slow
def test_math_unclosed_delimiters_cost_linear_time(shape):
    md = parser()
    best_time(md, SHAPES[shape](N // 4))  # warm-up: imports, regex compilation, caches
    small = best_time(md, SHAPES[shape](N))
    large = best_time(md, SHAPES[shape](4 * N))
    assert large / small < LIMIT < QUADRATIC, f"{shape}: {small:.4f} s -> {large:.4f} s"


def test_math_unclosed_dollars_stay_text():
    md = parser()
    html = md.render("$a " * 50 + "\n", {"postil": RenderState(path="post.md")})
    assert html == "<p>" + "$a " * 49 + "$a</p>\n"


@pytest.mark.parametrize(
    ("src", "start", "end", "expected"),
    [
        ("$a$ b", 1, 5, 2),
        ("$a $b", 1, 5, -1),  # a space before the `$`
        ("$a\\$ b$", 1, 7, 6),  # escaped, then the real closer
        ("$a\\\\$ b", 1, 7, 4),  # an even run of backslashes does not escape
        ("$a$5 b$", 1, 7, -1),  # a digit after the `$` (Pandoc), and a `$` inside ...
        ("[$a$5](u)", 2, 4, 3),  # ... unless the digit lies past the end
        ("$5 for it. Then $x$", 1, 19, -1),  # a `$` inside would end TeX's math: no formula
        ("$\\text{for $i$}$", 1, 16, 15),  # ... but inside braces it is the text's math
        ("$a$ b$", 1, 2, -1),  # the closer lies past the end
    ],
)
def test_math_closing_dollar_follows_pandocs_rule(src, start, end, expected):
    assert Closers(src).dollar(start, end) == expected


def test_math_closer_find_matches_str_find_with_overlaps():
    src = "a$$$b\\)c$$"
    closers = Closers(src)
    for sub in ("$$", "\\)", "\\]"):
        for start in range(len(src)):
            for end in range(start, len(src) + 1):
                assert closers.find(sub, start, end) == src.find(sub, start, end)
