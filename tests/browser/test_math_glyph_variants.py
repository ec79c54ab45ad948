r"""Glyph variants of STIX Two Math, measured by their ink in Chromium.

TeX's `\setminus` is as tall as `\backslash` (cmsy), and `\smallsetminus` (amssymb) is a
small one; STIX Two Math's default U+2216 is the small one, so `A \setminus B` was drawn
as `A \smallsetminus B` (0.33em of ink). amssymb's `\shortmid` and `\shortparallel` are
half as tall as `\mid` and `\parallel`, its `\smallfrown` narrower than `\frown`; they were
drawn as the others. TeX's `\emptyset` is a tall oval, `\varnothing` a round one; both were
round (the font's default U+2205). mathrsfs's `\mathscr` is a roundhand script, wider than
`\mathcal`'s chancery letters; it was drawn with `\mathcal`'s. math.css asks the font for
its variants (`ss14`, `ss06`, `ss12`, `cv03`: `symbols.GLYPH_VARIANTS`; `ss01`:
`symbols.SCRIPT_MACROS`), which the subset keeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import ink, open_formula_page, write_formula_page

FONT_PX = 40
SYMBOLS = {
    "setminus": r"\setminus",
    "smallsetminus": r"\smallsetminus",
    "backslash": r"\backslash",
    "mid": r"\mid",
    "shortmid": r"\shortmid",
    "parallel": r"\parallel",
    "shortparallel": r"\shortparallel",
    "nshortmid": r"\nshortmid",
    "frown": r"\frown",
    "smallfrown": r"\smallfrown",
    "emptyset": r"\emptyset",
    "varnothing": r"\varnothing",
    "mathcal": r"\mathcal{ABCDEFG}",
    "mathscr": r"\mathscr{ABCDEFG}",
}


@pytest.fixture(scope="module")
def variants_dir(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """Write one `<p id=…>` per symbol, alone in its formula, with math.css and the font."""
    directory = tmp_path_factory.mktemp("glyph-variants")
    formulas = {key: (tex, False) for key, tex in SYMBOLS.items()}
    write_formula_page(directory, repo_root, formulas, f"font-size:{FONT_PX}px;color:#000")
    return directory


@pytest.fixture
def inks(variants_dir: Path, serve_dir, page) -> dict[str, dict[str, float]]:
    """Return each formula's ink box in em: {"width", "height"}."""
    open_formula_page(page, serve_dir(variants_dir) + "index.html")
    page.set_viewport_size({"width": 900, "height": 2000})  # every formula in view: `ink`
    found = {}
    for key in SYMBOLS:
        box = page.eval_on_selector(
            f"#{key} math",
            "e => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y - 20, width: r.width, height: r.height + 40}; }",
        )
        drawn = ink(page, box)
        assert drawn is not None, key
        found[key] = {
            "width": (drawn["right"] - drawn["left"]) / FONT_PX,
            "height": (drawn["bottom"] - drawn["top"]) / FONT_PX,
        }
    return found


@pytest.fixture
def heights(inks: dict[str, dict[str, float]]) -> dict[str, float]:
    """Return each formula's ink height in em."""
    return {key: box["height"] for key, box in inks.items()}


def test_setminus_is_as_tall_as_backslash_and_smallsetminus_small(heights):
    assert heights["setminus"] >= 0.85 * heights["backslash"]
    assert heights["smallsetminus"] <= 0.5 * heights["setminus"]


def test_short_relations_are_shorter_than_mid_and_parallel(heights):
    assert heights["shortmid"] <= 0.6 * heights["mid"]
    assert heights["shortparallel"] <= 0.6 * heights["parallel"]
    assert heights["nshortmid"] <= 0.6 * heights["mid"]


def test_mathscr_draws_other_letters_than_mathcal(inks):
    assert inks["mathscr"]["width"] >= 1.1 * inks["mathcal"]["width"]


def test_smallfrown_is_narrower_than_frown(inks):
    assert inks["smallfrown"]["width"] <= 0.8 * inks["frown"]["width"]


def test_emptyset_is_a_tall_oval_and_varnothing_round(inks):
    emptyset, varnothing = inks["emptyset"], inks["varnothing"]
    assert emptyset["width"] <= 0.8 * varnothing["width"]
    assert emptyset["height"] >= 1.1 * emptyset["width"]
    assert varnothing["height"] == pytest.approx(varnothing["width"], rel=0.1)
