"""The physics package's fences and differentials, measured in Chromium.

Each formula is converted by postil and served with `static/css/math.css` and the math font
(Debian Chromium via Playwright), measured in em of the page's font size:
- physics' automatic bracing stretches: `\\abs{\\frac{a}{b}}` has bars as tall as the
  fraction, `\\abs*{…}` bars of text size (MathJax's physics, section 2.1 of its manual);
- `\\bra{\\phi}\\ket{\\frac{a}{b}}` is one bracket whose middle bar is as tall as its angles;
- `\\dd{x}` after an operand has TeX's thin space (1/6 em) before its upright d, as an Op
  atom; after `=` it has none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import write_formula_page

FONT_PX = 40
FRACTION = r"\frac{a}{b}"
FORMULAS = {
    "abs": (rf"\abs{{{FRACTION}}}", False),
    "absstar": (rf"\abs*{{{FRACTION}}}", False),
    "braket": (rf"\bra{{\phi}}\ket{{{FRACTION}}}", False),
    "dd": (r"f \dd{x}", False),
    "ddrel": (r"= \dd{x}", False),
    "plain": (r"f \mathrm{d}x", False),
}


@pytest.fixture
def physics_page(tmp_path: Path, repo_root: Path, serve_dir, page):
    """Serve every formula of FORMULAS in its own paragraph (`id` = its key); open it."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    page.goto(serve_dir(tmp_path) + "index.html")
    page.evaluate("document.fonts.ready")  # measure with the math font, never a fallback
    return page


def boxes(page, key: str, selector: str) -> list[dict]:
    """Return the box (in em) and text of every `selector` element of formula `key`."""
    return page.eval_on_selector_all(
        f"#{key} {selector}",
        f"els => els.map(e => {{ const r = e.getBoundingClientRect(); return {{"
        f"x: r.x / {FONT_PX}, right: r.right / {FONT_PX}, height: r.height / {FONT_PX},"
        f" text: e.textContent}}; }})",
    )


def test_abs_bars_stretch_to_the_fraction_and_the_starred_ones_do_not(physics_page):
    fraction = boxes(physics_page, "abs", "mfrac")[0]["height"]
    bars = [b["height"] for b in boxes(physics_page, "abs", "mo") if b["text"] == "|"]
    plain = [b["height"] for b in boxes(physics_page, "absstar", "mo") if b["text"] == "|"]
    assert len(bars) == 2 and min(bars) >= fraction * 0.95
    assert len(plain) == 2 and max(plain) < fraction * 0.8


def test_joined_bra_ket_has_a_middle_bar_as_tall_as_its_angles(physics_page):
    marks = {b["text"]: b["height"] for b in boxes(physics_page, "braket", "mo")}
    fraction = boxes(physics_page, "braket", "mfrac")[0]["height"]
    assert marks["⟨"] >= fraction * 0.95 and marks["⟩"] >= fraction * 0.95
    assert marks["|"] >= 0.9 * marks["⟨"]  # as test_math_tex_metrics measures \Braket's


def test_dd_has_a_thin_space_before_its_d_after_an_operand_and_none_after_a_relation(
    physics_page,
):
    f, d = boxes(physics_page, "dd", "mi")[:2]
    assert d["text"] == "d" and d["x"] - f["right"] == pytest.approx(1 / 6, abs=0.04)
    plain_f, plain_d = boxes(physics_page, "plain", "mi")[:2]
    assert plain_d["x"] - plain_f["right"] < 0.05  # the same letters with no physics
    equals = boxes(physics_page, "ddrel", "mo")[0]
    after = boxes(physics_page, "ddrel", "mi")[0]
    assert after["x"] - equals["right"] == pytest.approx(0.2778, abs=0.04)  # = 's own space
