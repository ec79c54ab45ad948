"""Token spacing, fonts and limits in Chromium, measured: what a reader sees of a symbol.

Each formula is converted by `latex_to_mathml`, shown with `static/css/math.css` at 20 px,
and measured with real MathML Core layout: the gaps between symbols (TeX's spacing table,
The TeXbook ch. 18), where limits sit, how tall a binomial's parentheses are, whether a
letter is drawn italic.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import write_formula_page

FONT_PX = 20
FORMULAS = {
    "coloneq": (r"M := I", False),
    "colon": (r"f : A", False),
    "sumscript": (r"\sum_{j=1}^{n} a_j = 1", True),
    "abs": (r"|x| + \lVert w \rVert", False),
    "greek": (r"\Sigma \varSigma x", False),
    "limits": (r"\sum\limits_{i=1}^{n} x_i", False),
    "nolimits": (r"\sum_{i=1}^{n} x_i", False),
    "binom": (r"\binom{n}{k}", False),
    "dbinom": (r"\dbinom{n}{k}", False),
    "bra": (r"\bra{x} + \ket{y}", False),
}


@pytest.fixture
def tokens_page(tmp_path: Path, repo_root: Path, serve_dir, page):
    """Serve every formula of FORMULAS in its own paragraph (`id` = its key); open it."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    page.goto(serve_dir(tmp_path) + "index.html")
    page.evaluate("document.fonts.ready")  # measure with the math font, never a fallback
    return page


def boxes(page, selector: str) -> list[dict]:
    """Return the bounding box and text of every element matching `selector`."""
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y,"
        " right: r.right, bottom: r.bottom, height: r.height, text: e.textContent}; })",
    )


def box(page, key: str, tag: str, text: str, nth: int = 0) -> dict:
    """Return the box of the `nth` `tag` element showing `text` in formula `key`."""
    return [b for b in boxes(page, f"#{key} {tag}") if b["text"] == text][nth]


@pytest.mark.slow
def test_adjacent_relations_touch_and_a_lone_colon_keeps_its_spaces(tokens_page):
    colon, equals = box(tokens_page, "coloneq", "mo", ":"), box(tokens_page, "coloneq", "mo", "=")
    assert equals["x"] - colon["right"] < 0.05 * FONT_PX  # `:=`, not ": ="
    m = box(tokens_page, "coloneq", "mi", "M")
    assert colon["x"] - m["right"] > 0.2 * FONT_PX  # a thick space before the pair
    f, lone = box(tokens_page, "colon", "mi", "f"), box(tokens_page, "colon", "mo", ":")
    assert lone["x"] - f["right"] > 0.2 * FONT_PX


@pytest.mark.slow
def test_a_relation_under_a_sum_is_set_tight_and_one_on_the_line_is_spaced(tokens_page):
    j, under = box(tokens_page, "sumscript", "mi", "j"), box(tokens_page, "sumscript", "mo", "=")
    assert under["x"] - j["right"] < 0.05 * FONT_PX  # `j=1`, as TeX sets script style
    a, main = (
        box(tokens_page, "sumscript", "msub", "aj"),
        box(tokens_page, "sumscript", "mo", "=", 1),
    )
    assert main["x"] - a["right"] > 0.2 * FONT_PX


@pytest.mark.slow
def test_bars_sit_against_their_operand(tokens_page):
    bars = boxes(tokens_page, "#abs mo")
    x = box(tokens_page, "abs", "mi", "x")
    first, second = [b for b in bars if b["text"] == "|"]
    assert x["x"] - first["right"] < 0.05 * FONT_PX and second["x"] - x["right"] < 0.05 * FONT_PX
    norm = [b for b in bars if b["text"] == "‖"]
    assert max(b["height"] for b in norm) < 1.5 * FONT_PX  # not stretched


@pytest.mark.slow
def test_capital_greek_is_upright_and_var_greek_italic(tokens_page):
    transforms = tokens_page.eval_on_selector_all(
        "#greek mi", "els => els.map(e => [e.textContent, getComputedStyle(e).textTransform])"
    )
    assert dict(transforms) == {"Σ": "none", "𝛴": "math-auto", "x": "math-auto"}


@pytest.mark.slow
def test_limits_go_under_inline_only_with_limits(tokens_page):
    op = box(tokens_page, "limits", "mo", "∑")
    under = box(tokens_page, "limits", "mrow", "i=1")
    assert under["y"] >= op["bottom"] - 1  # below the sum, not beside it
    op = box(tokens_page, "nolimits", "mo", "∑")
    beside = box(tokens_page, "nolimits", "mrow", "i=1")
    assert beside["x"] >= op["right"] - 1


@pytest.mark.slow
def test_an_inline_binomial_has_text_size_parentheses(tokens_page):
    inline = box(tokens_page, "binom", "mo", "(")
    display = box(tokens_page, "dbinom", "mo", "(")
    assert inline["height"] <= 1.5 * FONT_PX < 2 * FONT_PX <= display["height"]


@pytest.mark.slow
def test_bra_and_ket_bars_have_no_relation_gaps(tokens_page):
    x, y = box(tokens_page, "bra", "mi", "x"), box(tokens_page, "bra", "mi", "y")
    bar_x, bar_y = [b for b in boxes(tokens_page, "#bra mo") if b["text"] == "|"]
    assert bar_x["x"] - x["right"] < 0.05 * FONT_PX
    assert y["x"] - bar_y["right"] < 0.05 * FONT_PX
