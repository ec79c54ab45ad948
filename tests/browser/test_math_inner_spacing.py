"""TeX's Inner spacing of `\\left…\\right` groups, measured in Chromium.

A `\\left…\\right` group is an Inner atom (The TeXbook, Appendix G, rule 15e), so TeX puts
a thin space (3mu) between it and an Ord or Op atom on either side (p. 170): `f\\left(x\\right)`
has a thin space before the parenthesis and `f(x)` none. A function name's thin space is
that same space, not doubled; `\\bigl(` is an Open atom with none; in scripts there is none.
A `\\middle` bar is spaced as a Close atom (e-TeX): none beside a letter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import open_formula_page, write_formula_page

FONT_PX = 100
FORMULAS = {
    "left": r"x\left(x\right)",
    "plain": r"x(x)",
    "big": r"x\bigl(x\bigr)",
    "exp": r"\exp\left(x\right)",
    "expplain": r"\exp(x)",
    "script": r"a^{x\left(x\right)}",
    "scriptplain": r"a^{x(x)}",
    "after": r"\left(x\right)x",
    "afterplain": r"(x)x",
    "middle": r"\left(x\middle|x\right)",
    "middleplain": r"(x|x)",
}
GAPS = """m => {
    const tokens = Array.from(m.querySelectorAll('mi, mo'))
        .filter(e => e.textContent !== '\\u2061');
    const size = parseFloat(getComputedStyle(tokens[0]).fontSize);
    return tokens.slice(1).map((e, i) =>
        (e.getBoundingClientRect().left - tokens[i].getBoundingClientRect().right) * 18 / size);
}"""


@pytest.fixture
def gaps(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Return the gaps in mu (1/18 em of the tokens' size) between each formula's
    successive `<mi>`/`<mo>` tokens, converted by postil and laid out with math.css."""
    write_formula_page(
        tmp_path,
        repo_root,
        {key: (tex, False) for key, tex in FORMULAS.items()},
        f"font-size:{FONT_PX}px",
    )
    open_formula_page(page, serve_dir(tmp_path) + "index.html")
    return {key: page.eval_on_selector(f"#{key} math", GAPS) for key in FORMULAS}


def test_a_left_group_after_a_letter_has_a_thin_space_more_than_a_plain_parenthesis(gaps):
    assert gaps["left"][0] - gaps["plain"][0] == pytest.approx(3, abs=0.3)


def test_a_thin_space_after_the_group_before_a_letter(gaps):
    assert gaps["after"][2] - gaps["afterplain"][2] == pytest.approx(3, abs=0.3)


def test_bigl_is_an_open_atom_without_the_space(gaps):
    assert gaps["big"][0] == pytest.approx(gaps["plain"][0], abs=0.3)


def test_a_function_names_thin_space_is_not_doubled(gaps):
    assert gaps["exp"][0] == pytest.approx(gaps["expplain"][0] + 3, abs=0.3)
    assert gaps["exp"][0] == pytest.approx(3, abs=0.3)


def test_no_inner_space_in_a_script(gaps):
    assert gaps["script"][1] == pytest.approx(gaps["scriptplain"][1], abs=0.3)


def test_a_middle_bar_has_no_side_space(gaps):
    # e-TeX spaces `\middle` as a Close atom: Ord-Close and Close-Ord are 0 (p. 170), so
    # the bar sits as close as a plain `|` between letters (latex2mathml gave it 0.05em).
    assert gaps["middle"][1] == pytest.approx(gaps["middleplain"][1], abs=0.3)
    assert gaps["middle"][2] == pytest.approx(gaps["middleplain"][2], abs=0.3)
