"""Unit tests of `postil.math.colors`: xcolor's expressions, and colours made readable in
both colour schemes (the MathML they give is in tests/fixtures/math/colors.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from coloraide import Color

from postil.math.colors import (
    MINIMUM_CONTRAST,
    MOVED_CONTRAST,
    PAGE_BACKGROUND,
    PAGE_TEXT,
    readable,
    xcolor_expression,
)
from postil.math.errors import MathUnsupportedError

BASE_CSS = Path(__file__).parents[2] / "static" / "css" / "base.css"


def test_the_schemes_colours_are_the_themes() -> None:
    """The page colours the math is checked against are base.css's `--bg` and `--fg`."""
    css = BASE_CSS.read_text(encoding="utf-8")
    light = css[css.index(":root {") :]
    dark = css[css.index(':root[data-theme="dark"] {') :]
    for scheme, block in (("light", light), ("dark", dark)):
        assert re.search(r"--bg:\s*([#\w]+)", block)[1] == PAGE_BACKGROUND[scheme]
        assert re.search(r"--fg:\s*([#\w]+)", block)[1] == PAGE_TEXT[scheme]


@pytest.mark.parametrize(
    ("expression", "rgb"),
    [
        ("red!80", "#FF3333"),  # 80 % red, 20 % white
        ("red!60!black", "#990000"),
        ("blue!20!white", "#CCCCFF"),
        ("-red", "#00FFFF"),  # the complement
        ("--red", "#FF0000"),
        ("red!50!blue!50", "#BF80BF"),  # (red!50!blue)!50: then with white
        ("green!50", "#80FF80"),  # xcolor's green is (0, 1, 0), not CSS's
        ("red!150", "#FF0000"),  # above 100 counts as 100
        ("Orange!0", "#FFFFFF"),
        ("teal!50!navy", "#004080"),  # a base colour mixed with a CSS name
    ],
)
def test_xcolor_expressions_mix_as_xcolor(expression: str, rgb: str) -> None:
    assert xcolor_expression(expression, {}) == rgb


def test_a_defined_colour_mixes_as_its_value() -> None:
    defined = {"color{accent}": "#0000FF"}
    assert xcolor_expression("accent!50", defined) == "#8080FF"


@pytest.mark.parametrize("expression", ["red!!+", "red!!", "nocolour!50", "red>wheel,1"])
def test_what_xcolor_has_and_postil_does_not_is_named(expression: str) -> None:
    with pytest.raises(MathUnsupportedError):
        xcolor_expression(expression, {})


@pytest.mark.parametrize("colour", ["red", "green", "#B6321C", "teal", "gray"])
def test_a_colour_that_reads_on_both_pages_is_kept(colour: str) -> None:
    assert readable(colour, PAGE_BACKGROUND["light"]) == colour
    if Color(colour).contrast(PAGE_BACKGROUND["dark"]) >= MINIMUM_CONTRAST:
        assert readable(colour, PAGE_BACKGROUND["dark"]) == colour


@pytest.mark.parametrize(
    ("colour", "scheme"),
    [
        ("black", "dark"),
        ("navy", "dark"),
        ("purple", "dark"),
        ("cyan", "light"),
        ("yellow", "light"),
        ("white", "light"),
        ("#f80", "light"),
    ],
)
def test_an_unreadable_colour_is_moved_in_lightness_to_the_moved_contrast(colour, scheme):
    back = PAGE_BACKGROUND[scheme]
    moved = readable(colour, back)
    assert moved != colour
    assert Color(moved).contrast(back) >= MOVED_CONTRAST - 0.01
    before, after = Color(colour).convert("oklch"), Color(moved).convert("oklch")
    if before["chroma"] > 0.05:  # the hue the reader sees is kept
        assert abs(before["hue"] - after["hue"]) < 12
    # only as far as needed: a little less lightness change would not reach the bar
    step = 0.02 if scheme == "dark" else -0.02
    nearer = after.clone().set("lightness", after["lightness"] - step).fit("srgb")
    assert nearer.contrast(back) < MOVED_CONTRAST
