"""Math layout in Chromium: aligned rows, cases, equation numbers, eqref links, fractions.

The page is built from the math plugin's own output and `static/css/math.css`, served over
127.0.0.1, and measured with real MathML Core layout (Debian Chromium via Playwright).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from support.web import copy_math_css, run_axe, run_vnu

from postil.markdown.math import math_plugin
from postil.markdown.state import RenderState

POST = r"""
See \eqref{eq:elbo} for the bound.

$$
\begin{aligned}
\log p_\theta(x) &= \log \int p_\theta(x, z)\, dz \\
&\geq \mathbb{E}_{q}\left[\log \frac{p_\theta(x, z)}{q(z)}\right] \\
&= \operatorname{ELBO}(q)
\end{aligned}
\label{eq:elbo}
$$

$$
\operatorname{ReLU}(x) = \begin{cases} x & \text{if } x > 0 \\ 0 & \text{otherwise} \end{cases}
$$

Inline: $\log p(x)$.
"""
FILLER = "<p>" + "Filler paragraph so that the page scrolls. " * 40 + "</p>\n"


@pytest.fixture
def math_page(tmp_path: Path, repo_root: Path, serve_dir, page):
    """Render POST with the math plugin, serve it with math.css, open it; return the page."""
    md = MarkdownIt("commonmark").enable("table")
    math_plugin(md)
    state = RenderState(path="post.md")
    state.source_lines = POST.split("\n")
    body = md.render(POST, {"postil": state})
    assert not state.diagnostics
    first, rest = body.split("</p>\n", 1)
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>math</title>'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="math.css"></head>'
        f"<body style='width:800px'>{first}</p>{FILLER * 6}{rest}{FILLER * 6}</body></html>"
    )
    (tmp_path / "index.html").write_text(html, encoding="utf-8")
    copy_math_css(repo_root, tmp_path, html)
    page.set_viewport_size({"width": 900, "height": 600})
    page.goto(serve_dir(tmp_path) + "index.html")
    return page


def boxes(page, selector: str) -> list[dict]:
    """Return the bounding boxes of every element matching `selector`."""
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, text: e.textContent}; })",
    )


@pytest.mark.slow
def test_aligned_equals_signs_share_an_x_and_rows_are_separate_lines(math_page):
    aligned = "mtr#eq-elbo mtable > mtr"  # the aligned block inside the numbered row
    relations = [b for b in boxes(math_page, f"{aligned} > mtd > mo") if b["text"] in "=≥"]
    rows = boxes(math_page, aligned)
    assert len(rows) == 3
    assert rows[0]["bottom"] <= rows[1]["y"] + 1 and rows[1]["bottom"] <= rows[2]["y"] + 1
    lefts = [b["x"] for b in relations]
    assert len(lefts) == 3 and max(lefts) - min(lefts) <= 1


def test_equation_number_sits_right_of_the_formula(math_page):
    formula = boxes(math_page, "mtr#eq-elbo > mtd:nth-child(2)")[0]
    number = boxes(math_page, "mtr#eq-elbo mtd.eqno mtext")[0]
    assert number["text"] == "(1)"
    assert number["x"] > formula["right"]
    assert number["right"] > 700  # at the right margin of the 800px body


@pytest.mark.slow
def test_eqref_link_scrolls_to_the_equation(math_page):
    link = math_page.locator("a.eqref")
    assert link.text_content() == "(1)"
    assert math_page.evaluate("window.scrollY") == 0
    link.click()
    math_page.wait_for_function("window.scrollY > 0")
    top = math_page.evaluate("document.getElementById('eq-elbo').getBoundingClientRect().top")
    assert -1 <= top < 600


@pytest.mark.slow
def test_fraction_numerator_is_above_its_denominator(math_page):
    fraction = math_page.locator("mfrac").first
    numerator, denominator = (
        fraction.locator(":scope > *").nth(i).bounding_box() for i in range(2)
    )
    assert numerator["y"] + numerator["height"] <= denominator["y"] + 1


def test_cases_rows_are_stacked_and_left_aligned(math_page):
    cells = boxes(math_page, "math:not(:has(mtable.numbered)) mtable mtr > mtd:first-child")
    assert len(cells) == 2
    assert cells[0]["bottom"] <= cells[1]["y"] + 1
    assert abs(cells[0]["x"] - cells[1]["x"]) <= 1


def test_function_name_has_a_gap_before_its_argument(math_page):
    log, p = (boxes(math_page, "p math mi")[i] for i in range(2))
    assert (log["text"], p["text"]) == ("log", "p")
    assert p["x"] - log["right"] >= 1.5  # the 0.1667em thin space, not "logp"


SIGNS = r"""
Unary: $-\infty$ and $M_{ij} = -\infty$; binary: $a - b$.
"""


def serve_post(source: str, tmp_path: Path, repo_root: Path, serve_dir, page, width: int = 900):
    """Render `source` with the math plugin and math.css, open it at `width` px; return page."""
    md = MarkdownIt("commonmark").enable("table")
    math_plugin(md)
    state = RenderState(path="post.md")
    state.source_lines = source.split("\n")
    body = md.render(source, {"postil": state})
    assert not state.diagnostics
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>math</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="math.css"></head>'
        f"<body><main><h1>Math</h1>{body}</main></body></html>"
    )
    (tmp_path / "index.html").write_text(html, encoding="utf-8")
    copy_math_css(repo_root, tmp_path, html)
    page.set_viewport_size({"width": width, "height": 700})
    page.goto(serve_dir(tmp_path) + "index.html")
    return page


def gaps_around(page, index: int, sign: str) -> tuple[float, float]:
    """Return the gaps (in em of the formula) before and after `sign` in formula `index`."""
    return page.evaluate(
        """([index, sign]) => {
            const math = document.querySelectorAll("math")[index];
            const em = parseFloat(getComputedStyle(math).fontSize);
            const leaves = [...math.querySelectorAll("mi, mo, mn, msub")]
                .filter(e => e.tagName !== "mo" || e.textContent.trim());
            const at = leaves.findIndex(e => e.textContent === sign);
            const box = e => e.getBoundingClientRect();
            const before = at > 0 ? box(leaves[at]).left - box(leaves[at - 1]).right : NaN;
            return [before / em, (box(leaves[at + 1]).left - box(leaves[at]).right) / em];
        }""",
        [index, sign],
    )


@pytest.mark.slow
def test_unary_minus_sits_against_its_operand_and_binary_minus_is_spaced(
    tmp_path, repo_root, serve_dir, page
):
    serve_post(SIGNS, tmp_path, repo_root, serve_dir, page)
    assert gaps_around(page, 0, "−")[1] < 0.1  # -\infty
    assert gaps_around(page, 1, "−")[1] < 0.1  # M_{ij} = -\infty
    before, after = gaps_around(page, 2, "−")  # a - b
    assert before >= 0.15 and after >= 0.15


LONG = r"""
A wide derivation:

$$
\mathcal{L}(\theta) = \sum_{i=1}^{N} \Big( \log p_\theta(x_i \mid z_i) + \log p(z_i)
- \log q_\phi(z_i \mid x_i) \Big) + \lambda_1 \lVert \theta \rVert_2^2 + \lambda_2
\lVert \phi \rVert_1 + \frac{\beta}{2} \sum_{j=1}^{M} \operatorname{KL}(q_j \,\|\, p_j)
$$
"""


@pytest.mark.slow
def test_wide_display_math_scrolls_in_a_focusable_named_region_valid_for_axe_and_vnu(
    tmp_path, repo_root, serve_dir, page
):
    serve_post(LONG, tmp_path, repo_root, serve_dir, page, width=400)
    wrapper = page.locator(".math-display")
    sizes = wrapper.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] > sizes[1]  # it does overflow at 400 px, so it must scroll
    assert run_axe(page) == []
    wrapper.focus()
    assert page.evaluate("document.activeElement.className") == "math-display"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('.math-display').scrollLeft > 0")
    assert run_vnu([tmp_path / "index.html"]) == []


MULTLINE = r"""
\begin{multline*}
a + b + c \\
d + e + f + g + h + i + j + k + l + m \\
p + q \\
x + y
\end{multline*}
"""


def test_multline_sets_the_first_line_left_the_last_right_and_the_others_centred(
    tmp_path, repo_root, serve_dir, page
):
    serve_post(MULTLINE, tmp_path, repo_root, serve_dir, page)
    table = boxes(page, "mtable")[0]
    starts = boxes(page, "mtable > mtr > mtd > mi:first-child")
    ends = boxes(page, "mtable > mtr > mtd > mi:last-child")
    assert abs(starts[0]["x"] - table["x"]) <= 1  # first line flush left
    assert abs(ends[3]["right"] - table["right"]) <= 1  # last line flush right
    assert starts[3]["x"] > starts[0]["x"] + 20 and ends[0]["right"] < ends[3]["right"] - 20
    centre = (table["x"] + table["right"]) / 2
    assert abs((starts[2]["x"] + ends[2]["right"]) / 2 - centre) <= 2  # a middle line centred
