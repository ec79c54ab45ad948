"""`\\big`-sized delimiters carrying a script, measured in Chromium.

plain.tex's `\\big`, `\\Big`, `\\bigg`, `\\Bigg` make a delimiter 1.2, 1.8, 2.4, 3.0em tall
wherever it stands. Chromium never stretches an operator that is a script's base
(`\\Big)^2`, `\\bigg\\vert_{x=0}` were drawn at text size); one alone in a row it sizes.
In a script or a limit plain.tex still draws them full size: `\\big#1` is an
`\\hbox{$\\left#1…$}`, a formula of its own in text style; Chromium scaled their em down with
the script's font. And they are atoms of their own class (`\\big` Ord, `\\bigl` Open, `\\bigr`
Close), so a `+` beside `\\big\\|` or after `\\bigr)` keeps its medium spaces (4mu).
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
    "in_superscript": (r"e^{\big( x \big)} \big( x \big)", False),
    "in_limit": (r"\sum_{\Bigl[ i \Bigr]} x \Bigl[ x \Bigr]", True),
    "in_subscript_of_script": (r"a^{b_{\bigg| x \bigg|}} \bigg| x \bigg|", False),
    "plain_in_superscript": (r"e^{( x )} ( x )", False),
}
SPACED = {
    "before_bar": r"a + \big\| b \big\|",
    "after_close": r"\bigl( a \bigr) + b",
    "plain": r"a + b",
}
GAPS = """m => {
    const tokens = Array.from(m.querySelectorAll('mi, mo'));
    const size = parseFloat(getComputedStyle(m).fontSize);
    return tokens.slice(1).map((e, i) =>
        (e.getBoundingClientRect().left - tokens[i].getBoundingClientRect().right) * 18 / size);
}"""


@pytest.fixture
def heights(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return each formula's `<mo>` heights in em, converted by postil, with math.css."""
    write_formula_page(tmp_path, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {
        key: [
            b["height"]
            for b in em_boxes(page, f"#{key} mo", FONT_PX)
            if b["text"] not in ("=", "∑")
        ]
        for key in FORMULAS
    }


def test_a_sized_delimiter_with_a_script_keeps_its_size(heights):
    assert heights["scripted_bar"][0] >= 2.35
    assert heights["scripted_bracket"][0] >= 2.35
    opening, closing = heights["scripted_paren"]
    assert opening >= 1.75 and closing == pytest.approx(opening, abs=0.02)


def _pairs(boxes: list[float]) -> tuple[list[float], list[float]]:
    """Split a formula's delimiter heights into those in its script and those after it."""
    half = len(boxes) // 2
    return boxes[:half], boxes[half:]


@pytest.mark.parametrize("key", ["in_superscript", "in_limit", "in_subscript_of_script"])
def test_a_sized_delimiter_in_a_script_is_as_tall_as_on_the_line(heights, key):
    scripted, on_line = _pairs([h for h in heights[key] if h > 0])
    assert scripted == pytest.approx(on_line, abs=0.03)


def test_a_plain_parenthesis_in_a_script_stays_script_size(heights):
    scripted, on_line = _pairs(heights["plain_in_superscript"])
    assert max(scripted) < 0.85 * min(on_line)


@pytest.fixture
def gaps(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return the gaps in mu between each formula's successive tokens, with math.css."""
    write_formula_page(
        tmp_path, repo_root, {k: (t, False) for k, t in SPACED.items()}, "font-size:100px"
    )
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {key: page.eval_on_selector(f"#{key} math", GAPS) for key in SPACED}


def test_a_plus_before_a_big_bar_keeps_its_medium_spaces(gaps):
    assert gaps["before_bar"][0] == pytest.approx(gaps["plain"][0], abs=0.5)
    assert gaps["before_bar"][1] == pytest.approx(gaps["plain"][1], abs=0.5)


def test_a_plus_after_bigr_is_binary_not_a_sign(gaps):
    assert gaps["after_close"][2] == pytest.approx(gaps["plain"][0], abs=0.5)
    assert gaps["after_close"][3] == pytest.approx(gaps["plain"][1], abs=0.5)


MATRICES = {
    "pmatrix": (r"\pmatrix{1 & 2 \\ 3 & 4}", True),
    "bmatrix": (r"Q = \bmatrix{1 & 2 \\ 3 & 4}", True),
    "cases": (r"\cases{a & b \\ c & d}", True),
    "pmatrix_env": (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", True),
    "bmatrix_env": (r"Q = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}", True),
    "cases_env": (r"\begin{cases} a & b \\ c & d \end{cases}", True),
}


@pytest.fixture
def fences(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return each formula's fence heights and its table's height, in em."""
    write_formula_page(tmp_path, repo_root, MATRICES, f"font-size:{FONT_PX}px")
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {
        key: (
            [b["height"] for b in em_boxes(page, f"#{key} mo", FONT_PX) if b["text"] in "()[]{"],
            em_boxes(page, f"#{key} mtable", FONT_PX)[0]["height"],
        )
        for key in MATRICES
    }


@pytest.mark.parametrize("key", ["pmatrix", "bmatrix", "cases"])
def test_a_plain_tex_matrix_is_drawn_as_its_environment(fences, key):
    # plain.tex: `\def\pmatrix#1{\left(\matrix{#1}\right)}`, `\cases` with `\left\{`
    heights, table = fences[key]
    env_heights, env_table = fences[f"{key}_env"]
    assert heights and min(heights) >= 0.95 * table
    assert heights == pytest.approx(env_heights, abs=0.02)
    assert table == pytest.approx(env_table, abs=0.02)
