"""Wide math on a built page, measured in Chromium at a phone's and a laptop's width.

A wide numbered equation keeps its number in view, inside the article column, while the
formula scrolls in its own region to its last glyph; scroll shadows mark the side where
formula is hidden and go at the end of the scroll; long inline formulas never make the page
scroll sideways. The site is built with the default theme (base.css, math.css, the font).
"""

from __future__ import annotations

import pytest
from support.web import run_axe

POST = r"""---
title: Wide math
date: 2026-01-15
---

A narrow numbered equation:

$$
a^2 + b^2 = c^2 \label{eq:narrow}
$$

A wide numbered one:

$$
\mathcal{L}(\theta) = \sum_{i=1}^{N} \Big( \log p_\theta(x_i \mid z_i) + \log p(z_i)
- \log q_\phi(z_i \mid x_i) \Big) + \lambda_1 \lVert \theta \rVert_2^2 + \lambda_2
\lVert \phi \rVert_1 + \frac{\beta}{2} \sum_{j=1}^{M} \operatorname{KL}(q_j \,\|\, p_j) + \Omega
\label{eq:wide}
$$

A wide one without a number:

$$
\mathcal{L}(\theta) = \sum_{i=1}^{N} \Big( \log p_\theta(x_i \mid z_i) + \log p(z_i)
- \log q_\phi(z_i \mid x_i) \Big) + \lambda_1 \lVert \theta \rVert_2^2 + \lambda_2 + \Omega
$$

Inline, long: $\mathcal{L}(\theta)=\sum_{i=1}^{N}\log p_\theta(x_i\mid z_i)+\log p(z_i)-\log
q_\phi(z_i\mid x_i)+\lambda_1\lVert\theta\rVert_2^2+\lambda_2\lVert\phi\rVert_1$, and again
$\operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d}} + M\right)V
=\operatorname{Attention}(Q,K,V)W^O+b_1+b_2$,
and a third $x_1+x_2+x_3+x_4+x_5+x_6+x_7+x_8+x_9+x_{10}+x_{11}+x_{12}+x_{13}+x_{14}+x_{15}$.

泰勒公式 $f(x)=f(0)+f'(0)x+\frac{1}{2!}f''(0)x^2+\cdots+\frac{f^{(n)}(0)}{n!}x^n+R_n(x)$……
"""
WIDTHS = [400, 1100]


@pytest.fixture(scope="module")
def wide_url(served_site) -> str:
    return served_site("wide", {"wide.md": POST}) + "posts/wide/"


def open_at(page, url: str, width: int):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    page.evaluate("document.fonts.ready")
    return page


BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const region = document.getElementById("eq-wide").closest(".math-display");
  const glyphs = document.querySelectorAll(
      "#eq-wide > mtd:nth-child(2) :is(mi, mo, mn, mtext):not(:has(*))");
  const last = glyphs[glyphs.length - 1];
  return {region: box(region), number: box(document.querySelector("#eq-wide .eqno mtext")),
          column: box(document.querySelector(".post-body")), last: box(last),
          lastText: last.textContent, viewport: window.innerWidth,
          scroll: [region.scrollWidth, region.clientWidth]};
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_wide_equation_number_is_in_view_and_inside_the_column(page, wide_url, width):
    open_at(page, wide_url, width)
    at = page.evaluate(BOXES)
    number, column = at["number"], at["column"]
    assert 0 <= number["left"] and number["right"] <= at["viewport"]
    assert column["left"] <= number["left"] and number["right"] <= column["right"] + 0.5
    assert number["right"] >= column["right"] - 2  # at the right margin, where numbers go
    assert page.locator("#eq-wide .eqno mtext").text_content() == "(2)"


@pytest.mark.parametrize("width", WIDTHS)
def test_wide_equation_scrolls_to_its_last_glyph_with_the_number_still_in_view(
    page, wide_url, width
):
    open_at(page, wide_url, width)
    scroll_width, client_width = page.evaluate(BOXES)["scroll"]
    assert scroll_width > client_width  # it overflows at this width, so it must scroll
    page.evaluate("document.getElementById('eq-wide').closest('.math-display').scrollLeft = 1e6")
    at = page.evaluate(BOXES)
    last, number, region = at["last"], at["number"], at["region"]
    assert at["lastText"] == "Ω"
    assert region["left"] <= last["left"] and last["right"] <= number["left"]
    centre = [(last["left"] + last["right"]) / 2, (last["top"] + last["bottom"]) / 2]
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).textContent", centre)
    assert hit == "Ω"  # drawn, not covered by the number's cell
    assert number["right"] <= at["column"]["right"] + 0.5 and number["left"] >= 0


def strip(page, region_selector: str, x: str) -> bytes:
    """Return a PNG of a 6 px wide strip of the region at `x` ("left", "right", "middle",
    or "eqno" for just left of the equation number), formula ink hidden."""
    box = page.evaluate(
        """([sel, x]) => {
          const region = document.querySelector(sel), r = region.getBoundingClientRect();
          const eqno = region.querySelector(".eqno");
          const at = {left: r.left + 1, right: r.right - 7, middle: (r.left + r.right) / 2,
                      eqno: eqno ? eqno.getBoundingClientRect().left - 7 : 0}[x];
          return {x: at, y: r.top + 4, width: 6, height: r.height - 8};
        }""",
        [region_selector, x],
    )
    return page.screenshot(clip=box)


HIDE_INK = """
.math-display mtr > mtd:not(.eqno), .math-display mtd.eqno mtext,
.math-display math:not(:has(mtable.numbered)) > semantics { visibility: hidden; }
"""


def test_scroll_shadows_mark_the_hidden_side_and_go_at_the_end_of_the_scroll(page, wide_url):
    open_at(page, wide_url, 400)
    page.add_style_tag(content=HIDE_INK)
    plain = ".math-display:not(:has(#eq-wide)):not(:has(#eq-narrow))"
    numbered, narrow = ".math-display:has(#eq-wide)", ".math-display:has(#eq-narrow)"
    blank = {sel: strip(page, sel, "middle") for sel in (plain, numbered, narrow)}
    assert strip(page, plain, "right") != blank[plain]  # formula hidden on the right
    assert strip(page, plain, "left") == blank[plain]
    assert strip(page, numbered, "eqno") != blank[numbered]  # the number's cell casts it
    page.evaluate(
        f"for (const e of document.querySelectorAll('{plain}, {numbered}')) e.scrollLeft = 1e6"
    )
    page.wait_for_timeout(50)
    assert strip(page, plain, "right") == blank[plain]
    assert strip(page, plain, "left") != blank[plain]  # now hidden on the left
    assert strip(page, numbered, "eqno") == blank[numbered]
    assert strip(page, narrow, "eqno") == blank[narrow]  # a formula that fits: no shadow


def test_a_formula_that_fits_paints_no_shadow_line_at_a_half_pixel_edge(page, wide_url):
    # At 375 px the text column ends on a fractional pixel; the shadow and its cover both
    # painted that last pixel at half coverage, leaving a grey line on every fitting formula.
    open_at(page, wide_url, 375)
    page.add_style_tag(content=HIDE_INK)
    page.evaluate(  # a fitting formula without a number (the narrow one's number cell hides it)
        """() => { const fits = document.querySelector(".math-display").cloneNode(false);
                   fits.id = "fits";
                   fits.innerHTML = '<math display="block"><mfrac><mi>a</mi><mi>b</mi>'
                     + '</mfrac></math>';
                   document.querySelector(".post-body").prepend(fits); }"""
    )
    r = page.eval_on_selector("#fits", "e => e.getBoundingClientRect().toJSON()")
    assert r["right"] % 1 != 0  # the case measured: a box ending inside a pixel
    clip = {"y": r["top"] + 2, "width": 2, "height": r["height"] - 4}
    edge = page.screenshot(clip={**clip, "x": int(r["right"]) - 1})
    blank = page.screenshot(clip={**clip, "x": r["left"] + 1})
    assert edge == blank  # the shadows of formulas that overflow: the test above


@pytest.mark.parametrize("width", [360, 400])
def test_long_inline_formulas_never_make_the_page_scroll_sideways(page, wide_url, width):
    open_at(page, wide_url, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # nor does the punctuation kept with a formula pass the column's edge ("……": 2em)
    column = page.eval_on_selector(".post-body", "e => e.getBoundingClientRect().right")
    glued = page.eval_on_selector_all(
        ".math-nobreak", "ss => ss.map(s => s.getBoundingClientRect().right)"
    )
    assert len(glued) == 4 and max(glued) <= column + 0.5
    sizes = page.eval_on_selector_all("p math", "ms => ms.map(m => [m.scrollWidth, m.clientWidth])")
    assert any(scroll > client for scroll, client in sizes)  # one is wider: it scrolls
    page.wait_for_selector("p math[tabindex]", state="attached")  # math.js ran
    focusable = page.eval_on_selector_all("p math", "ms => ms.map(m => m.tabIndex === 0)")
    assert focusable == [scroll > client for scroll, client in sizes]
    assert run_axe(page) == []  # each formula that scrolls takes keyboard focus


def test_inline_math_sits_where_it_would_without_its_scroll_box(page, wide_url):
    # An inline box that scrolls takes its baseline from its bottom edge in CSS 2.1; the
    # formula must stay on the line of text exactly as a plain <math> does.
    open_at(page, wide_url, 1100)
    where = """() => [...document.querySelectorAll("p math mi")].slice(0, 40)
        .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top]; })"""
    boxed = page.evaluate(where)
    page.add_style_tag(
        content="math { overflow: visible !important; padding: 0 !important;"
        " margin: 0 !important; max-width: none !important; }"
    )
    plain = page.evaluate(where)
    assert len(boxed) == 40
    assert all(
        abs(a - b) <= 0.5
        for p, q in zip(boxed, plain, strict=True)
        for a, b in zip(p, q, strict=True)
    )


def test_math_takes_the_text_colour_in_light_and_dark_mode(page, wide_url):
    colours = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        open_at(page, wide_url, 1100)
        colours.append(
            page.evaluate(
                """() => [...document.querySelectorAll("p math, .math-display math")].map(
                  m => [getComputedStyle(m).color, getComputedStyle(m.closest("p, div")).color])"""
            )
        )
    for pairs in colours:
        assert pairs and all(math == text for math, text in pairs)
    assert colours[0][0][0] != colours[1][0][0]  # dark mode did change it
