"""Coloured math on a built page, read in Chromium in the light and the dark colour scheme.

Every coloured glyph must be readable on what it is drawn on (WCAG 2 contrast ≥ 3, the
bar `postil.math.colors.MINIMUM_CONTRAST` sets), whether the scheme comes from the system
(`prefers-color-scheme`) or from the theme's switch (`data-theme` on the root); colours
that read in a scheme keep the author's value there; and xcolor's `red!80` is drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from coloraide import Color
from support.sites import make_site
from support.web import run_vnu

from postil.build import BuildOptions, build
from postil.math.colors import PAGE_BACKGROUND, readable

POST = r"""---
title: Coloured math
date: 2026-01-15
---

Kept: $\color{red}{r_1}$. Dark page: $\color{black}{k_1}$, $\color{navy}{n_1}$,
$\color{purple}{p_1}$. Light page: $\color{cyan}{c_1}$, $\color{yellow}{y_1}$,
$\textcolor{#f80}{o_1}$. Mixed: $\color{red!80}{m_1}$, $\color{blue!20}{m_2}$.
Boxes: $\colorbox{yellow}{b1}$, $\colorbox{black}{b2}$, $\colorbox{black}{\color{white}b3}$,
$\fcolorbox{orange}{white}{b4}$. In text: $\text{t1 \textcolor{navy}{t2}}$.
Hidden: $a + \color{transparent}{h_1} + z$.
"""

GLYPHS = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05); };
  const out = {};
  for (const math of document.querySelectorAll('.post-body math')) {
    const leaves = [...math.querySelectorAll('mi, mn, mtext')];
    const name = leaves.map(leaf => leaf.textContent.trim()).join('');
    for (const leaf of leaves) {  // the last leaf's colours; the lowest contrast of all
      let el = leaf, back = 'rgba(0, 0, 0, 0)';
      while (el && /rgba\\(.*, 0\\)$/.test(back)) {
        back = getComputedStyle(el).backgroundColor;
        el = el.parentElement;
      }
      const colour = getComputedStyle(leaf).color, seen = contrast(rgb(colour), rgb(back));
      out[name] = {colour, back, contrast: Math.min(seen, out[name] ? out[name].contrast : 99)};
    }
  }
  return out;
}"""
NAMES = "r k n p c y o m b t".split()


@pytest.fixture(scope="module")
def colours_site(tmp_path_factory) -> Path:
    root = make_site(tmp_path_factory.mktemp("colours") / "site", {"colours.md": POST})
    build(BuildOptions(root=root))
    return root / "_site"


@pytest.fixture(scope="module")
def colours_url(colours_site, serve_dir_module) -> str:
    return serve_dir_module(colours_site) + "posts/colours/"


def glyphs(page, url: str, scheme: str, switch: str | None = None) -> dict:
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    if switch:
        page.evaluate(f"document.documentElement.dataset.theme = '{switch}'")
    found = page.evaluate(GLYPHS)
    return {text[:2]: found[text] for text in found if text[:1] in NAMES and text[1:2].isdigit()}


@pytest.mark.parametrize(
    ("scheme", "switch"), [("light", None), ("dark", None), ("light", "dark"), ("dark", "light")]
)
def test_every_coloured_glyph_reads_on_what_it_is_drawn_on(page, colours_url, scheme, switch):
    found = glyphs(page, colours_url, scheme, switch)
    assert len(found) == 14  # every glyph of the post was measured
    unreadable = {text: seen for text, seen in found.items() if seen["contrast"] < 3}
    assert unreadable == {}


def test_a_colour_that_reads_keeps_the_authors_value(page, colours_url):
    light, dark = glyphs(page, colours_url, "light"), glyphs(page, colours_url, "dark")
    assert light["r1"]["colour"] == dark["r1"]["colour"] == "rgb(255, 0, 0)"
    assert light["n1"]["colour"] == "rgb(0, 0, 128)"  # navy on the light page
    assert dark["c1"]["colour"] == "rgb(0, 255, 255)"  # cyan on the dark page
    assert light["k1"]["colour"] == "rgb(0, 0, 0)"
    assert dark["n1"]["colour"] != "rgb(0, 0, 128)"  # moved on the dark page
    # a box keeps its colour in both schemes; its ink changes where it must
    assert light["b1"]["back"] == dark["b1"]["back"] == "rgb(255, 255, 0)"
    assert dark["b1"]["colour"] == light["b1"]["colour"]  # dark ink on yellow
    assert dark["b3"]["colour"] == light["b3"]["colour"] == "rgb(255, 255, 255)"


def test_xcolor_expressions_are_drawn_mixed(page, colours_url):
    light = glyphs(page, colours_url, "light")
    assert light["m1"]["colour"] == "rgb(255, 51, 51)"  # red!80: 80 % red, 20 % white
    # blue!20 is #CCCCFF, too light for the light page: moved as `readable` moves it
    moved = Color(readable("#CCCCFF", PAGE_BACKGROUND["light"])).convert("srgb")
    assert light["m2"]["colour"] == "rgb({}, {}, {})".format(
        *(round(channel * 255) for channel in moved[:3])
    )


def test_printed_from_the_dark_scheme_the_math_takes_the_light_schemes_colours(page, colours_url):
    def printed(scheme: str) -> dict:
        page.emulate_media(media="print", color_scheme=scheme)
        found = page.evaluate(GLYPHS)
        return {text[:2]: seen["colour"] for text, seen in found.items() if text[:1] in NAMES}

    page.goto(colours_url)
    from_light, from_dark = printed("light"), printed("dark")
    assert len(from_dark) == 14 and from_dark == from_light
    assert from_dark["c1"] == "rgb(0, 131, 131)"  # cyan as on the light page


def test_a_colour_box_prints_its_background(page, colours_url):
    """Browsers print no backgrounds by default; a box's is its meaning, and the ink on it
    was chosen for it, so the box asks to be printed as it is."""
    page.emulate_media(media="print")
    page.goto(colours_url)
    adjust = page.evaluate(
        "[...document.querySelectorAll('.post-body mpadded.colorbox')]"
        ".map(e => getComputedStyle(e).printColorAdjust)"
    )
    assert len(adjust) == 4 and set(adjust) == {"exact"}


def test_colours_are_valid_html_and_a_transparent_one_hides_and_keeps_its_space(
    page, colours_site, colours_url
):
    """The Nu Html Checker reads `mathcolor` as MathML 3 does (`#rgb`, `#rrggbb` or one of
    HTML 4's sixteen names): `cyan` and `transparent` were errors in it."""
    assert run_vnu([colours_site / "posts/colours/index.html"]) == []
    page.goto(colours_url)
    hidden = page.evaluate(
        """() => { const math = [...document.querySelectorAll('.post-body math')]
            .find(m => m.textContent.includes('h1'));
          const h = [...math.querySelectorAll('mi')].find(e => e.textContent === 'h');
          return [getComputedStyle(h).visibility, h.getBoundingClientRect().width]; }"""
    )
    assert hidden[0] == "hidden" and hidden[1] > 4
