"""`\\big`-sized delimiters carrying a script, measured in Chromium.

plain.tex's `\\big`, `\\Big`, `\\bigg`, `\\Bigg` make a delimiter 1.2, 1.8, 2.4, 3.0em tall
wherever it stands. Chromium never stretches an operator that is a script's base
(`\\Big)^2`, `\\bigg\\vert_{x=0}` were drawn at text size); one alone in a row it sizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import em_boxes, open_formula_page, write_formula_page

FONT_PX = 40
FORMULAS = {
    "scripted_bar": (r"\frac{df}{dx}\bigg\vert_{x=0} = 1", False),
    "scripted_paren": (r"\Big( a \Big)^2 c", False),
    "scripted_bracket": (r"a \bigg]_0^1 c", False),
}


@pytest.fixture
def heights(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return each formula's `<mo>` heights in em, converted by postil, with math.css."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {
        key: [b["height"] for b in em_boxes(page, f"#{key} mo", FONT_PX) if b["text"] != "="]
        for key in FORMULAS
    }


def test_a_sized_delimiter_with_a_script_keeps_its_size(heights):
    assert heights["scripted_bar"][0] >= 2.35
    assert heights["scripted_bracket"][0] >= 2.35
    opening, closing = heights["scripted_paren"]
    assert opening >= 1.75 and closing == pytest.approx(opening, abs=0.02)
