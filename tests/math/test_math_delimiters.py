"""Where inline math closes (`postil.math.delimiters.Closers`): a formula of one operator
before a digit, Typora's `$x $` beside CJK text, and the `$y $` left as text in Latin prose."""

from __future__ import annotations

import pytest

from postil.math.delimiters import Closers, completes_number


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        ("-", True),  # Docsify's `$-$1`
        ("+", True),
        ("\\pm", True),
        (" \\times ", True),
        ("p =", True),  # knitr's value after a relation, as before
        ("-5 to ", False),  # `$-5 to $10`: a signed price
        ("5 =", False),  # `$5 =$4`
        ("a", False),  # `$a$5`
        ("-x", False),
        ("\\alpha", False),
    ],
)
def test_completes_number_takes_a_lone_operator_or_a_relation(tex, expected):
    assert completes_number(tex) is expected


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("$-$1", 2),
        ("$\\pm$5", 4),
        ("$5 and $10", -1),
        ("$-5 to $10", -1),
    ],
)
def test_dollar_closes_a_lone_operator_before_a_digit_never_a_price(src, expected):
    assert Closers(src).dollar(1, len(src)) == expected


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("的$C $的", 4),  # CJK on both sides
        ("$C $，", 3),  # CJK punctuation after
        ("中$\\Rightarrow $$A$与", 14),  # the next formula touches it
        ("中$x $$y$$", -1),  # a kramdown `$$` follows: no reading is sure
        ("中$x $y", -1),  # the `$` may open `$y…`
        ("中$5 $", -1),  # a price
        ("变量 $ y$ 的", 6),  # spaces between the `$` and the CJK text
        ("价格 $ 5 $ 元", -1),
        ("$x 中$", -1),  # CJK inside: two formulas' ends
        ("We store $Y $ in", -1),  # Latin prose: `lone_spaced` warns instead
    ],
)
def test_spaced_dollar_beside_cjk_closes_only_where_no_other_reading_is(src, expected):
    start = src.index("$") + 1
    assert Closers(src).spaced_dollar(start, len(src)) == expected


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("$Y $ in memory", 3),
        ("$Y $.", 3),
        ("$A $B", -1),  # shell variables, or the `$` opens the next formula
        ("$5 $ each", -1),
        ("$ y $", -1),
        ("$ab $ x", -1),  # a word
        ("$ k$ sets", 3),  # the space after the opening `$`
        ("$ k$.", 3),
        ("$ A$B", -1),
        ("$ 5$ each", -1),
        ("$ ab$ x", -1),
    ],
)
def test_lone_spaced_finds_the_dollar_typora_would_close(src, expected):
    assert Closers(src).lone_spaced(1, len(src)) == expected


def test_group_end_pairs_each_brace_of_a_paragraph_in_one_scan():
    src = r"a \emph{x {y} \{z} and \emph{open b {c}"
    closers = Closers(src)
    first, inner, second, last = (i for i, c in enumerate(src) if c == "{" and src[i - 1] != "\\")
    assert closers.group_end(first) == src.index("}", src.index(r"\{z"))
    assert closers.group_end(inner) == src.index("{y}") + 2
    assert closers.group_end(second) == -1  # never closed in the paragraph
    assert closers.group_end(last) == len(src) - 1
    assert closers.group_end(src.index(r"\{") + 1) == -1  # an escaped brace opens nothing
