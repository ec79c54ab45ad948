"""amsmath's `\\cfrac` as LaTeX sets it, measured in Chromium.

`\\cfrac{a}{b}` is `{\\displaystyle\\frac{\\strut a}{b}}` (amsmath.sty): every level of a
continued fraction is a display-style fraction, inline too, so an inline `\\cfrac` is as
tall as the same one in display math and taller than an inline `\\frac`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import em_boxes, open_formula_page, write_formula_page

FONT_PX = 40
CONTINUED = r"\cfrac{1}{2 + \cfrac{1}{3}}"
FORMULAS = {
    "inline": (CONTINUED, False),
    "display": (CONTINUED, True),
    "frac": (r"\frac{1}{2 + \frac{1}{3}}", False),
    "option": (r"\cfrac[l]{1}{2 + x}", False),
}


@pytest.fixture
def fractions(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return each formula's outer `<mfrac>` box in em, laid out with math.css."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {key: em_boxes(page, f"#{key} mfrac", FONT_PX)[0] for key in FORMULAS}


def test_an_inline_cfrac_is_as_tall_as_in_display_math(fractions):
    assert fractions["inline"]["height"] == pytest.approx(fractions["display"]["height"], abs=0.03)
    assert fractions["inline"]["height"] > fractions["frac"]["height"] + 0.2


def test_the_position_option_is_not_drawn(fractions):
    assert "[" not in fractions["option"]["text"] and "l" not in fractions["option"]["text"]
