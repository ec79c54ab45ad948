r"""A post with math in its title, subtitle and headings, in Chromium and the validators:
the title's MathML lays out inline in the `<h1>`, the tab title is readable text, and the
post, list and archive pages still pass the Nu HTML Checker and axe."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.blog import build_into, make_site, post_text
from support.web import run_axe, run_vnu, serve_dir

BODY = (
    "Intro.\n\n## The $\\displaystyle S$ matrix\n\nA.\n\n"
    "## Bounds on $O(n^2)$\n\nB.\n\n## Plain\n\nC.\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    post = post_text(
        r"The $\alpha$-divergence in $O(n^2)$",
        "2026-01-15",
        BODY,
        subtitle=r"Why $\mathbb{R}^n$ is enough",
    )
    root = make_site(tmp_path_factory.mktemp("math-titles"), {"alpha.md": post})
    return build_into(root)


@pytest.fixture(scope="module")
def base_url(site):
    with serve_dir(site, "/blog/") as url:
        yield url


def test_title_math_lays_out_inline_in_the_heading(page, base_url):
    page.goto(base_url + "posts/alpha/")
    assert page.title() == "The α-divergence in O(n²) · Test site"
    h1 = page.locator("h1.post-title")
    heading = h1.bounding_box()
    # the formula's content box: inline math has padding (and the negative margin that
    # cancels it) so that a formula that scrolls keeps its ink (math.css)
    formulas = h1.locator("math").evaluate_all(
        """ms => ms.map(m => {
            const r = m.getBoundingClientRect(), s = getComputedStyle(m);
            const top = parseFloat(s.paddingTop), bottom = parseFloat(s.paddingBottom);
            const left = parseFloat(s.paddingLeft), right = parseFloat(s.paddingRight);
            return {x: r.x + left, y: r.y + top, width: r.width - left - right,
                    height: r.height - top - bottom};
        })"""
    )
    assert len(formulas) == 2
    for box in formulas:  # drawn, inside the heading, no taller than a line of it
        assert box["width"] > 0 and box["height"] > 0
        assert (
            heading["y"] - 1 <= box["y"]
            and box["y"] + box["height"] <= heading["y"] + heading["height"] + 1
        )
    # inline math (MathML Core's `display: math`), not a block of its own
    assert h1.evaluate("h => getComputedStyle(h.querySelector('math')).display") == "math"


def test_math_in_links_and_the_lede_has_the_colour_of_their_words(page, base_url):
    page.goto(base_url + "posts/alpha/")
    for owner in (".toc a[href='#bounds-on-o-n2']", "p.lede"):
        colours = page.locator(owner).evaluate(
            "e => [getComputedStyle(e).color, getComputedStyle(e.querySelector('math')).color]"
        )
        assert colours[0] == colours[1], owner


@pytest.mark.slow
def test_pages_with_math_titles_pass_the_nu_html_checker(site):
    pages = [site / rel for rel in ("posts/alpha/index.html", "index.html", "archive/index.html")]
    errors = run_vnu(pages)
    assert errors == [], "\n".join(
        f"{e.get('url')}:{e.get('lastLine')}: {e.get('message')}" for e in errors
    )


@pytest.mark.slow
def test_pages_with_math_titles_have_no_axe_violations(page, base_url):
    for rel in ("posts/alpha/", "", "archive/"):
        page.goto(base_url + rel)
        violations = run_axe(page)
        summary = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        assert violations == [], f"{rel}: {summary}"
