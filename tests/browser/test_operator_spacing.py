"""TeX's spaces around binary operators and relations, measured in Chromium.

TeX puts 4mu (0.2222em) on each side of every Bin atom and 5mu (0.2778em) on each side of
every Rel atom in text and display style (The TeXbook, p. 170). Chromium spaces an `<mo>`
by MathML Core's operator dictionary, which gives some of them other spaces (`×`, `·`, `∘`
3mu; `†`, `△` 5mu; `∴`, `⌢` none). postil writes TeX's spaces on exactly those
(`symbols.MISSPACED_BINS`, `MISSPACED_RELATIONS`); these tests measure that the tables are
what Chromium gets wrong, no more and no less, and that postil's formulas come out right.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import open_formula_page, write_formula_page

from postil.math.symbols import MISSPACED_BINS, MISSPACED_RELATIONS, tex_classes

FONT_PX = 100
TEX_SPACE_MU = {"mathbin": 4, "mathrel": 5}
# Commands whose symbol Chromium misspaces, and controls it spaces as TeX does.
COMMANDS = {
    "times": (r"\times", 4),
    "cdot": (r"\cdot", 4),
    "circ": (r"\circ", 4),
    "ast": (r"\ast", 4),
    "otimes": (r"\otimes", 4),
    "star": (r"\star", 4),
    "bullet": (r"\bullet", 4),
    "dagger": (r"\dagger", 4),
    "bigtriangleup": (r"\bigtriangleup", 4),
    "triangleleft": (r"\triangleleft", 4),
    "therefore": (r"\therefore", 5),
    "frown": (r"\frown", 5),
    "plus": ("+", 4),
    "cup": (r"\cup", 4),
    "equals": ("=", 5),
    "leq": (r"\leq", 5),
}


def gaps_mu(page, selector: str) -> tuple[float, float]:
    """Return the spaces (in mu, 1/18 em) before and after the `<mo>` of `a <mo> b`."""
    return tuple(
        page.eval_on_selector(
            selector,
            f"""m => {{
                const [a, o, b] = Array.from(m.querySelectorAll('mi, mo'))
                    .map(e => e.getBoundingClientRect());
                return [(o.left - a.right) * 18 / {FONT_PX}, (b.left - o.right) * 18 / {FONT_PX}];
            }}""",
        )
    )


def test_the_tables_are_the_symbols_chromiums_dictionary_misspaces(page, serve_dir, tmp_path):
    classes = tex_classes()
    symbols = sorted(c for c, kind in classes.items() if kind in TEX_SPACE_MU and c != ":")
    cells = "".join(
        f'<p id="c{ord(c):x}"><math><mi>a</mi><mo>{c}</mo><mi>b</mi></math></p>' for c in symbols
    )
    (tmp_path / "index.html").write_text(
        f'<!doctype html><meta charset="utf-8"><body style="font-size:{FONT_PX}px">{cells}',
        encoding="utf-8",
    )
    page.goto(serve_dir(tmp_path) + "index.html")
    misspaced = {"mathbin": set(), "mathrel": set()}
    for c in symbols:
        before, after = gaps_mu(page, f"#c{ord(c):x} math")
        want = TEX_SPACE_MU[classes[c]]
        if round(before) != want or round(after) != want:
            misspaced[classes[c]].add(c)
    assert len(symbols) > 700  # every Bin and Rel symbol of unimathsymbols, not a sample
    assert misspaced["mathbin"] == set(MISSPACED_BINS)
    assert misspaced["mathrel"] == set(MISSPACED_RELATIONS)


@pytest.fixture
def formulas(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Open a page of `a <op> b` formulas converted by postil, with math.css and its font."""
    formulas = {key: (rf"a {tex} b", False) for key, (tex, _) in COMMANDS.items()}
    formulas["script"] = (r"x_{a \times b}", False)
    return open_page(page, serve_dir, tmp_path, repo_root, formulas)


def open_page(page, serve_dir, directory: Path, repo_root: Path, formulas: dict) -> object:
    """Write `formulas` (key -> (TeX, display)) at `FONT_PX` and open them once the math
    font is ready (`support.web`); return `page`."""
    write_formula_page(directory, repo_root, formulas, f"font-size:{FONT_PX}px")
    return open_formula_page(page, serve_dir(directory) + "index.html")


@pytest.mark.parametrize("key", list(COMMANDS))
def test_postil_spaces_operators_and_relations_as_tex(formulas, key):
    before, after = gaps_mu(formulas, f"#{key} math")
    want = COMMANDS[key][1]
    assert (before, after) == (pytest.approx(want, abs=0.2), pytest.approx(want, abs=0.2))


def test_a_binary_operator_in_a_script_has_no_spaces(formulas):
    before, after = gaps_mu(formulas, "#script msub > mrow")
    assert (before, after) == (pytest.approx(0, abs=0.2), pytest.approx(0, abs=0.2))


# `\big` and its sides (plain.tex: `\bigl` is `\mathopen\big`, `\bigr` `\mathclose\big`,
# `\bigm` `\mathrel\big`): key -> (TeX of the middle atom, TeX space on each side in mu).
BIG_DELIMITERS = {
    "big-bar": (r"\big|", 0),
    "Big-vert": (r"\Big\vert", 0),
    "bigl-bar": (r"\bigl|", 0),
    "bigr-double-bar": (r"\bigr\|", 0),
    "bigm-bar": (r"\bigm|", 5),
    "Bigm-bar": (r"\Bigm|", 5),
    "big-arrow": (r"\big\uparrow", 0),
    "big-paren": (r"\big(", 0),
}


@pytest.fixture
def big_delimiters(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Open a page of `a <sized delimiter> b` formulas converted by postil."""
    formulas = {key: (rf"a {tex} b", False) for key, (tex, _) in BIG_DELIMITERS.items()}
    return open_page(page, serve_dir, tmp_path, repo_root, formulas)


@pytest.mark.parametrize("key", list(BIG_DELIMITERS))
def test_a_big_delimiter_is_drawn_at_its_size_and_spaced_by_its_atom_class(big_delimiters, key):
    # an infix `|` or `↑` got the dictionary's 5mu on each side and no stretching: `a\big|b`
    # was a text-size bar between two thick spaces
    before, after = gaps_mu(big_delimiters, f"#{key} math")
    want = BIG_DELIMITERS[key][1]
    assert (before, after) == (pytest.approx(want, abs=0.3), pytest.approx(want, abs=0.3))
    height = big_delimiters.eval_on_selector(
        f"#{key} mo", f"o => o.getBoundingClientRect().height / {FONT_PX}"
    )
    assert height > 1.15  # at least `\big`'s 1.2em (the font's next size variant)


# A list's ends (The TeXbook, Appendix G, rules 6 and 20; mathjax/MathJax#1229): key ->
# (TeX, the same set with braces, whose width it must have). A list is the formula, a
# group, a `\left…\right` group, a root's content; a `\displaystyle` switch is in its list.
ENDS = {
    "relation-alone": (r"=", r"{=}"),
    "relation-last": (r"a =", r"a\;{=}"),
    "binary-last": (r"A+", r"A{+}"),
    "binary-before-close": (r"(a+)", r"(a{+})"),
    "relation-after-left": (r"\left( = x \right)", r"\left( {=}\; x \right)"),
    "relation-after-switch": (r"\displaystyle = 5", r"\displaystyle {=}\; 5"),
    "relation-before-comma": (r"(x = , y)", r"(x\; {=}, y)"),
    "relation-in-root": (r"\sqrt{= 2}", r"\sqrt{{=}\; 2}"),
}


@pytest.fixture
def ends(serve_dir, page, tmp_path: Path, repo_root: Path):
    """Open a page of formulas ending (or starting) with an operator, and their references."""
    formulas = {key: (tex, False) for key, (tex, _) in ENDS.items()}
    formulas |= {f"{key}-ref": (ref, False) for key, (_, ref) in ENDS.items()}
    return open_page(page, serve_dir, tmp_path, repo_root, formulas)


@pytest.mark.parametrize("key", list(ENDS))
def test_an_operator_at_a_formulas_end_has_no_space_outside_it(ends, key):
    # Chromium gave `$=$` 5mu on each side and `$A+$` 4mu (the dictionary's infix spaces)
    def width(selector: str) -> float:
        return ends.eval_on_selector(selector, "m => m.getBoundingClientRect().width")

    assert width(f"#{key} math") == pytest.approx(width(f"#{key}-ref math"), abs=0.5)
