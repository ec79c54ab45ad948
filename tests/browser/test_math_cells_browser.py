"""Table cells as TeX sets them, measured in Chromium: style switches and empty last cells.

Every cell of an alignment is a group in TeX, so `\\displaystyle`, `\\scriptstyle` or
`\\small` standing in a cell applies to the rest of that cell (`\\begin{cases}
\\displaystyle \\frac{1}{2} & …`, lil'log's `& \\scriptstyle{\\text{; note}}`); and a last
row whose last cell is empty (`c &= d & \\end{aligned}`) is a row like any other.
amsmath's `[t]` (`\\begin{aligned}[t]`) puts the first row on the baseline of the text beside.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import em_boxes, open_formula_page, write_formula_page

FONT_PX = 40
FORMULAS = {
    "cases_display": (r"\begin{cases} \displaystyle \frac{1}{2} & x \end{cases}", False),
    "cases_text": (r"\begin{cases} \frac{1}{2} & x \end{cases}", False),
    "note_script": (r"\begin{aligned} a &= b & \scriptstyle{\text{; note}} \end{aligned}", True),
    "note_plain": (r"\begin{aligned} a &= b & \text{; note} \end{aligned}", True),
    "last_row": (r"\begin{aligned} a &= b & \\ c &= d & \end{aligned}", True),
    "top": (r"x = \begin{aligned}[t] a &= b \\ c &= \frac{1}{2} \end{aligned}", False),
    "centred": (r"x = \begin{aligned} a &= b \\ c &= \frac{1}{2} \end{aligned}", False),
    "top_array": (r"x = \begin{array}[t]{ll} a & b \\ c & d \end{array}", False),
}


@pytest.fixture
def cells(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Open the formulas, converted by postil and laid out with math.css; return the page."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    return open_formula_page(page, serve_dir(tmp_path) + "index.html")


def test_displaystyle_in_a_cases_cell_sets_its_fraction_in_display_style(cells):
    display = em_boxes(cells, "#cases_display mfrac mn", FONT_PX)[0]
    text = em_boxes(cells, "#cases_text mfrac mn", FONT_PX)[0]
    # A display-style fraction's parts are text size, a text-style one's script size (70 %).
    assert display["height"] > 1.25 * text["height"]


def test_scriptstyle_in_an_aligned_cell_shrinks_its_text(cells):
    script = em_boxes(cells, "#note_script mtext", FONT_PX)[0]
    plain = em_boxes(cells, "#note_plain mtext", FONT_PX)[0]
    assert script["right"] - script["left"] < 0.8 * (plain["right"] - plain["left"])


def test_a_last_row_ending_in_an_empty_cell_is_drawn(cells):
    rows = em_boxes(cells, "#last_row mtr", FONT_PX)
    letters = [b["text"] for b in em_boxes(cells, "#last_row mi", FONT_PX)]
    assert len(rows) == 2 and rows[1]["top"] >= rows[0]["top"] + rows[0]["height"] - 0.05
    assert "c" in letters and "d" in letters


def _baseline_offset(page, key: str) -> float:
    """Return how far (em) the first row's `a` sits below the `x` before the table."""
    letters = {b["text"]: b for b in em_boxes(page, f"#{key} mi", FONT_PX)}
    a, x = letters["a"], letters["x"]
    return (a["top"] + a["height"]) - (x["top"] + x["height"])


def test_top_position_puts_the_first_row_on_the_baseline(cells):
    assert _baseline_offset(cells, "top") == pytest.approx(0, abs=0.03)
    assert _baseline_offset(cells, "top_array") == pytest.approx(0, abs=0.03)
    assert _baseline_offset(cells, "centred") < -0.3  # centred on the axis: row 1 above


def test_top_position_keeps_the_columns_aligned(cells):
    relations = [b for b in em_boxes(cells, "#top mo", FONT_PX) if b["text"] == "="][1:]
    assert len(relations) == 2 and relations[0]["left"] == pytest.approx(
        relations[1]["left"], abs=0.02
    )
