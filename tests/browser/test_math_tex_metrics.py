"""TeX's measures, measured in Chromium: array rows, delimiter sizes, Inner dots, braket bars.

Each formula is converted by postil, served with `static/css/math.css` and the math font on
127.0.0.1 (Debian Chromium via Playwright), and measured in em of the page's font size:
- array rows are LaTeX's strut apart: 1.2em (`\\arraystretch` 1), 1.44em in `cases` (1.2),
  1.8em with `\\def\\arraystretch{1.5}` (latex.ltx `\\@arstrut`: 0.7 + 0.3 `\\baselineskip`);
- `\\big` ... `\\Bigg` are Computer Modern's 1.2, 1.8, 2.4 and 3.0em tall (at least);
- `\\left…\\right` around one line of symbols keeps its delimiters' normal size and width,
  as TeX chooses (`\\left(y_j\\right)` was 1.7em tall, `\\left(\\hat{x}\\right)` 1.45em,
  `\\bra{\\psi}` 1.2em), and still stretches around a fraction;
- `\\ldots` between commas has a thin space (1/6 em) on each side, as an Inner atom;
- `\\!` takes a thin space away (Chromium ignores a negative `<mspace width>`);
- `\\mathllap{b}` ends where it stands, over what came before; `\\mathclap` is centred there;
- `\\overline`, `\\underline` and `\\widehat` are exactly as wide as their base;
- the bars of `\\Braket{\\phi | A | \\psi}` are as tall as its angle brackets;
- `\\big/` and `\\Bigg\\backslash` grow as `\\big(` does (ronkok/Temml#71: they did not);
- an array's edge rules (`|c|`, `\\hline` first and last) frame it, `\\multicolumn` spans
  its columns, `\\cline` rules only its columns;
- a function name after an operand has TeX's thin space before it (`n \\log n`);
- `\\intertext` is a line of text between rows that stay aligned;
- a binary operator with no operand before it is ordinary (`f(\\cdot)`): 2 × 0.2222em
  narrower than between two letters (The TeXbook, Appendix G, rule 5);
- `\\cdots` between integrals has one thin space on each side (Op-Inner, Inner-Op);
- an array's `@{}` at its ends sets it flush with its fences, as `pmatrix` (KaTeX#971),
  `r@{.}l` lines up the points with nothing between them and the digits, and `c@{}c`
  sets its columns touching (array.sty: `@{…}` replaces the `\\arraycolsep`s).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import em_boxes as web_em_boxes
from support.web import open_formula_page, write_formula_page

FONT_PX = 40
FORMULAS = {
    "matrix": (r"\begin{matrix} x \\ x \\ x \end{matrix}", True),
    "cases": (r"\begin{cases} x & a \\ x & b \end{cases}", True),
    "stretch": (r"\def\arraystretch{1.5}\begin{array}{c} x \\ x \end{array}", True),
    "big": (r"\big(", False),
    "Big": (r"\Big(", False),
    "bigg": (r"\bigg(", False),
    "Bigg": (r"\Bigg(", False),
    "ldots": (r"x, \ldots, y", False),
    "braket": (r"\Braket{\phi | \frac{a}{b} | \psi}", False),
    "negative": (r"a \! b", False),
    "plain": (r"a b", False),
    "llap": (r"a\mathllap{b}", False),
    "clap": (r"a\mathclap{b}", False),
    "overline": (r"\overline{a + b + c + d}", False),
    "underline": (r"\underline{abcdef}", False),
    "widehat": (r"\widehat{a + b}", False),
    "slash": (r"a / b", False),
    "bigslash": (r"\big/", False),
    "Biggslash": (r"\Bigg\backslash", False),
    "truth": (r"\begin{array}{|c|c|}\hline p & q \\ \hline T & F \\ \hline\end{array}", True),
    "span": (
        r"\begin{array}{cc} \multicolumn{2}{c}{abcdef} \\ \cline{1-1} x & y \end{array}",
        True,
    ),
    "function": (r"n \log n", False),
    "ordinary": (r"f(\cdot)", False),
    "binary": (r"a \cdot b", False),
    "intdots": (r"\int \cdots \int", False),
    "intertext": (r"\begin{align*} x + y &= 1 \\ \intertext{so} z &= 22 \end{align*}", True),
    "flush": (r"\left(\begin{array}{@{}cc@{}} a & b \\ c & d \end{array}\right)", True),
    "pmatrix": (r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", True),
    "decimal": (r"\begin{array}{r@{.}l} 3 & 14 \\ 10 & 5 \end{array}", True),
    "touching": (r"\begin{array}{c@{}c} a & b \end{array}", True),
    "prime": (r"f'(x) + \tau'_{2H}", False),
    "fenceline": (r"\left(y_j\right) (y_j) \left[f(x)\right] \left(\hat{x}\right)", False),
    "fencebra": (r"\bra{\psi} \langle", False),
    "fencefrac": (r"\left(\frac{a}{b}\right)", False),
}


@pytest.fixture(scope="module")
def metrics_dir(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """Write one `<p id=…>` per formula of FORMULAS with math.css and the font beside it."""
    directory = tmp_path_factory.mktemp("tex-metrics")
    write_formula_page(directory, repo_root, FORMULAS, f"font-size:{FONT_PX}px")
    return directory


@pytest.fixture
def metrics(metrics_dir: Path, serve_dir, page):
    """Open the formulas page once the fonts are ready; return the Playwright page."""
    return open_formula_page(page, serve_dir(metrics_dir) + "index.html")


def em_boxes(page, selector: str) -> list[dict]:
    """Return the boxes of every element matching `selector`, in em of the page font."""
    return web_em_boxes(page, selector, FONT_PX)


def row_pitches(page, key: str) -> list[float]:
    """Return the distances between the tops of consecutive rows of a formula's table."""
    tops = [b["top"] for b in em_boxes(page, f"#{key} mtr")]
    return [round(b - a, 3) for a, b in zip(tops, tops[1:], strict=False)]


def test_array_rows_are_latex_struts_apart(metrics):
    assert row_pitches(metrics, "matrix") == pytest.approx([1.2, 1.2], abs=0.01)
    assert row_pitches(metrics, "cases") == pytest.approx([1.44], abs=0.01)
    assert row_pitches(metrics, "stretch") == pytest.approx([1.8], abs=0.01)


def test_big_delimiters_have_computer_moderns_sizes(metrics):
    heights = {key: em_boxes(metrics, f"#{key} mo")[0]["height"] for key in FORMULAS if "ig" in key}
    for key, size in {"big": 1.2, "Big": 1.8, "bigg": 2.4, "Bigg": 3.0}.items():
        assert size - 0.05 <= heights[key] <= size + 0.6, (key, heights[key])
    assert heights["big"] < heights["Big"] < heights["bigg"] < heights["Bigg"]


def test_left_right_around_one_line_keeps_the_normal_size(metrics):
    # TeX's \delimiterfactor: the normal size covers letters, parentheses, a subscript;
    # Chromium stretched to the whole reach, one or two sizes up, in a box as wide as the
    # widest size (a blank inside each fence)
    left, right, plain_left, plain_right, *brackets = em_boxes(metrics, "#fenceline mo")
    for fenced, plain in ((left, plain_left), (right, plain_right)):
        assert fenced["height"] == pytest.approx(plain["height"], abs=0.02)
        assert fenced["right"] - fenced["left"] == pytest.approx(
            plain["right"] - plain["left"], abs=0.02
        )
    assert brackets[0]["height"] == pytest.approx(plain_left["height"], abs=0.02)
    hatted = [b for b in em_boxes(metrics, "#fenceline mo") if b["text"] == "("][-1]
    assert hatted["height"] == pytest.approx(plain_left["height"], abs=0.02)  # was 1.45em
    angle, bar, plain_angle = em_boxes(metrics, "#fencebra mo")
    assert angle["height"] == pytest.approx(plain_angle["height"], abs=0.02)
    assert bar["height"] <= plain_angle["height"] + 0.02
    assert all(b["height"] >= 1.5 for b in em_boxes(metrics, "#fencefrac mo"))


def test_ldots_between_commas_has_a_thin_space_on_each_side(metrics):
    dots = em_boxes(metrics, "#ldots mi, #ldots mo")
    commas = [b for b in dots if b["text"] == ","]
    ellipsis = next(b for b in dots if b["text"] == "…")
    # The comma's own thin space after it, the Inner atom's thin space before the next comma.
    gap_before = ellipsis["left"] - commas[0]["right"]
    gap_after = commas[1]["left"] - ellipsis["right"]
    assert gap_before == pytest.approx(1 / 6, abs=0.04)
    assert gap_after == pytest.approx(1 / 6, abs=0.04)


def test_braket_bars_are_as_tall_as_its_angle_brackets(metrics):
    operators = em_boxes(metrics, "#braket mo")
    angles = [b for b in operators if b["text"] in "⟨⟩"]
    bars = [b for b in operators if b["text"] == "|"]
    assert len(angles) == 2 and len(bars) == 2
    assert min(b["height"] for b in bars) >= 0.9 * max(a["height"] for a in angles)


def test_negative_thin_space_pulls_letters_together(metrics):
    def gap(key: str) -> float:
        a, b = em_boxes(metrics, f"#{key} mi")
        return b["left"] - a["right"]

    assert gap("negative") == pytest.approx(gap("plain") - 1 / 6, abs=0.02)


def test_left_and_centred_overlaps_hang_from_where_they_stand(metrics):
    a, b = em_boxes(metrics, "#llap mi")[0], em_boxes(metrics, "#llap .lap mi")[0]
    assert b["right"] == pytest.approx(a["right"], abs=0.03)
    a, b = em_boxes(metrics, "#clap mi")[0], em_boxes(metrics, "#clap .lap mi")[0]
    assert (b["left"] + b["right"]) / 2 == pytest.approx(a["right"], abs=0.03)


@pytest.mark.parametrize("key", ["overline", "underline", "widehat"])
def test_rules_and_wide_accents_span_their_base_exactly(metrics, key):
    stacked = f"#{key} semantics > mrow > *"
    base, mark = (
        em_boxes(metrics, f"{stacked} > :first-child")[0],
        em_boxes(metrics, f"{stacked} > :last-child")[0],
    )
    assert mark["left"] == pytest.approx(base["left"], abs=0.02)
    assert mark["right"] == pytest.approx(base["right"], abs=0.02)


def test_big_slashes_grow_as_parentheses_do(metrics):
    plain = next(b for b in em_boxes(metrics, "#slash mi, #slash mo") if b["text"] == "/")
    big = em_boxes(metrics, "#bigslash mo")[0]
    huge = em_boxes(metrics, "#Biggslash mo")[0]
    assert plain["height"] < 1.15 <= big["height"]
    assert huge["height"] >= 2.9


def test_primes_in_superscripts_take_the_fonts_raised_variants(metrics):
    # arXiv/html_feedback#1555: STIX Two Math's default prime in a script was a small
    # stroke far above the letter; its ss04 variant is drawn to be raised, as TeX's \prime
    settings = metrics.eval_on_selector_all(
        "#prime msup > :last-child, #prime msubsup > :last-child, #prime mi",
        "els => els.map(e => [e.textContent, getComputedStyle(e).fontFeatureSettings])",
    )
    assert ["\u2032", '"ss04"'] in settings and settings.count(["\u2032", '"ss04"']) == 2
    assert ["f", "normal"] in settings  # the letters keep the font's default forms


def border(page, selector: str, side: str) -> list[float]:
    """Return the computed border width (px) on `side` of every element matching `selector`."""
    return page.eval_on_selector_all(
        selector,
        f"els => els.map(e => parseFloat(getComputedStyle(e).border{side}Width))",
    )


def test_array_edge_rules_frame_the_table(metrics):
    rows = [f"#truth mtr:nth-child({n}) mtd" for n in (1, 2)]
    assert all(w > 0 for w in border(metrics, rows[0], "Top"))
    assert all(w > 0 for w in border(metrics, rows[1], "Bottom"))
    assert all(w > 0 for w in border(metrics, f"{rows[0]}:first-child", "Left"))
    assert all(w > 0 for w in border(metrics, "#truth mtd:last-child", "Right"))


def test_multicolumn_spans_and_cline_rules_only_its_columns(metrics):
    spanning = em_boxes(metrics, "#span mtr:nth-child(1) > mtd")
    below = em_boxes(metrics, "#span mtr:nth-child(2) > mtd")
    assert len(spanning) == 1 and len(below) == 2
    assert spanning[0]["left"] == pytest.approx(below[0]["left"], abs=0.02)
    assert spanning[0]["right"] == pytest.approx(below[1]["right"], abs=0.02)
    assert border(metrics, "#span mtr:nth-child(1) > mtd", "Bottom") != [0]


def test_function_name_after_an_operand_has_a_thin_space(metrics):
    n, log = em_boxes(metrics, "#function mi")[:2]
    assert log["left"] - n["right"] == pytest.approx(1 / 6, abs=0.03)


def test_a_binary_operator_after_an_opening_bracket_has_no_spaces(metrics):
    opening, _dot, closing = em_boxes(metrics, "#ordinary mo")
    a, b = em_boxes(metrics, "#binary mi")
    inside = closing["left"] - opening["right"]  # the dot, with whatever spaces it has
    between = b["left"] - a["right"]  # the dot with its two medium spaces
    assert inside == pytest.approx(between - 2 * 0.2222, abs=0.03)


def test_dots_between_integrals_have_one_thin_space_on_each_side(metrics):
    first, second = em_boxes(metrics, "#intdots mo")
    dots = em_boxes(metrics, "#intdots mi")[0]
    assert dots["left"] - first["right"] == pytest.approx(1 / 6, abs=0.03)
    assert second["left"] - dots["right"] == pytest.approx(1 / 6, abs=0.03)


def test_intertext_sits_between_rows_that_stay_aligned(metrics):
    rows = em_boxes(metrics, "#intertext mtr")
    equals = [b for b in em_boxes(metrics, "#intertext mo") if b["text"] == "="]
    text = em_boxes(metrics, "#intertext mtext")[0]
    assert len(rows) == 3 and text["text"] == "so"
    assert rows[0]["top"] < text["top"] < rows[2]["top"]
    assert equals[0]["left"] == pytest.approx(equals[1]["left"], abs=0.02)
    assert text["left"] <= rows[0]["left"] + 0.05


def test_array_at_spacing_replaces_the_column_gaps(metrics):
    flush, pmatrix = em_boxes(metrics, "#flush mo"), em_boxes(metrics, "#pmatrix mo")
    width = [b[1]["right"] - b[0]["left"] for b in (flush, pmatrix)]
    assert width[0] == pytest.approx(width[1], abs=0.02)  # `@{}` at both ends: no colsep
    a, b = em_boxes(metrics, "#touching mi")
    assert b["left"] - a["right"] == pytest.approx(0, abs=0.02)
    tokens = em_boxes(metrics, "#decimal mn, #decimal mi")
    points = [t for t in tokens if t["text"] == "."]
    assert points[0]["left"] == pytest.approx(points[1]["left"], abs=0.01)
    three, fourteen = (next(t for t in tokens if t["text"] == n) for n in ("3", "14"))
    assert points[0]["left"] - three["right"] == pytest.approx(0, abs=0.02)
    assert fourteen["left"] - points[0]["right"] == pytest.approx(0, abs=0.02)
