r"""mhchem's formulas as Chromium lays them out (`postil.math.mhchem`'s TeX, `math.css`).

What a reader of a KaTeX or MathJax site sees, measured in em of the page's font size:
- a reaction arrow is at least mhchem's shortest (2em of script size, about 1.8em here),
  twice `\xrightarrow{}`'s;
- a gas's ↑ is as tall as an arrow alone, not stretched to the subscript before it;
- an isotope's mass and atomic numbers end where the symbol starts (right-aligned);
- a charge after a subscript follows it (mhchem's staggered `SO₄²⁻`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import em_boxes as web_em_boxes
from support.web import open_formula_page, write_formula_page

FONT_PX = 40
FORMULAS = {
    "reaction": (r"\ce{A -> B}", False),
    "bare": (r"\mathrm{A} \xrightarrow{} \mathrm{B}", False),
    "gas": (r"\ce{CO2 ^}", False),
    "arrow": (r"\uparrow", False),
    "isotope": (r"\ce{^{0}_{-1}n}", False),
    "sulfate": (r"\ce{SO4^2-}", False),
}


@pytest.fixture(scope="module")
def chemistry_dir(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """Write one `<p id=…>` per formula of FORMULAS with math.css and the font beside it."""
    directory = tmp_path_factory.mktemp("mhchem")
    write_formula_page(directory, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    return directory


@pytest.fixture
def chemistry(chemistry_dir: Path, serve_dir, page):
    """Open the formulas page once the fonts are ready; return the Playwright page."""
    return open_formula_page(page, serve_dir(chemistry_dir) + "index.html")


def em_boxes(page, selector: str) -> list[dict]:
    """Return the boxes of every element matching `selector`, in em of the page font."""
    return web_em_boxes(page, selector, FONT_PX)


def test_mhchem_reaction_arrow_is_at_least_mhchems_shortest(chemistry):
    arrow = em_boxes(chemistry, "#reaction mover")[0]
    bare = em_boxes(chemistry, "#bare mover")[0]
    width = arrow["right"] - arrow["left"]
    assert width >= 1.8
    assert width >= 1.5 * (bare["right"] - bare["left"])


def test_mhchem_gas_arrow_is_as_tall_as_an_arrow_alone(chemistry):
    (arrow,) = [b for b in em_boxes(chemistry, "#gas mo") if b["text"] == "↑"]
    (alone,) = em_boxes(chemistry, "#arrow mo")
    assert arrow["height"] == pytest.approx(alone["height"], abs=0.02)


def test_mhchem_isotope_numbers_end_where_the_symbol_starts(chemistry):
    numbers = [b for b in em_boxes(chemistry, "#isotope mn") if b["text"] in ("0", "1")]
    (symbol,) = [b for b in em_boxes(chemistry, "#isotope mi") if b["text"] == "n"]
    mass, atomic = sorted(numbers, key=lambda b: b["top"])
    assert mass["right"] == pytest.approx(atomic["right"], abs=0.05)
    assert mass["right"] <= symbol["left"] + 0.02


def test_mhchem_charge_after_a_subscript_follows_it(chemistry):
    (subscript,) = [b for b in em_boxes(chemistry, "#sulfate mn") if b["text"] == "4"]
    (charge,) = [b for b in em_boxes(chemistry, "#sulfate mn") if b["text"] == "2"]
    assert charge["left"] >= subscript["right"] - 0.02
    assert charge["top"] < subscript["top"]
