"""TeX's spaces around large operators (`\\sum`, `\\prod`, `\\int`), measured in Chromium.

An Op atom has a thin space (3mu) towards an Ord, Close or Inner atom and towards another
Op, and none of its own towards a relation or binary operator (theirs is the whole
space), an opening or closing delimiter or punctuation (The TeXbook, ch. 18, p. 170).
Chromium's operator dictionary gives ∑ a thin space on both sides wherever it stands, on
top of its neighbour's: `a = \\sum x` had 8mu after the `=`, `\\sum_i \\sum_j` 6mu.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import open_formula_page, write_formula_page

FONT_PX = 100
# key: (TeX, display, the pair measured (index of the gap), TeX's space in mu)
CASES = {
    "rel_op": (r"a = \sum x", False, 1, 5),
    "bin_op": (r"a + \prod x", False, 1, 4),
    "open_op": (r"(\sum x)", False, 0, 0),
    "op_op": (r"\sum_i \sum_j x", True, 0, 3),
    "int_int": (r"\int \int f", False, 0, 3),
    "op_rel": (r"\sum = x", False, 0, 5),
    "op_punct": (r"\sum, x", False, 0, 0),
    "op_name": (r"\sum_i \log x", True, 0, 3),
    "name_op": (r"\log \sum x", False, 0, 3),
    # what must not change: Ord-Op and Op-Ord keep their thin space
    "ord_op": (r"a \sum x", False, 0, 3),
    "op_ord": (r"a \sum x", False, 1, 3),
    "close_op": (r"(a) \int f", False, 2, 3),
}
GAPS = """m => {
    const tokens = Array.from(m.querySelectorAll('mi, mo, mn')).filter(e =>
        e.textContent !== '\\u2061' && !e.closest(
            'msub > :not(:first-child), munder > :not(:first-child)'));
    const size = parseFloat(getComputedStyle(m).fontSize);
    return tokens.slice(1).map((e, i) =>
        (e.getBoundingClientRect().left - tokens[i].getBoundingClientRect().right) * 18 / size);
}"""


@pytest.fixture
def gaps(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return the gaps in mu between each formula's successive tokens, scripts left out."""
    formulas = {key: (tex, display) for key, (tex, display, _, _) in CASES.items()}
    write_formula_page(tmp_path, repo_root, formulas, f"font-size:{FONT_PX}px")
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {key: page.eval_on_selector(f"#{key} math", GAPS) for key in CASES}


@pytest.mark.parametrize("key", CASES)
def test_a_large_operator_is_spaced_as_tex_spaces_an_op_atom(gaps, key):
    _, _, index, mu = CASES[key]
    assert gaps[key][index] == pytest.approx(mu, abs=0.4)
