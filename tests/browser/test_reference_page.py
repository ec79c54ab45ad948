"""The reference post in real Chromium: no console errors, real MathML layout, validators.

Builds this repository's site once, serves it over 127.0.0.1 and loads the reference post.
Screenshots at 1400 px and 400 px go to test-artifacts/ (the README's screenshot is one).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.build import build_site
from support.web import run_axe, run_vnu, serve_dir

REPO = Path(__file__).resolve().parents[2]
REFERENCE = "posts/attention-from-the-softmax-up/"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "_site"
    result = build_site(REPO, out)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def base_url(site):
    with serve_dir(site) as url:
        yield url


def test_reference_page_loads_without_console_errors_and_lays_out_fractions(
    page, base_url, screenshot_dir
):
    page.set_viewport_size({"width": 1400, "height": 900})
    response = page.goto(base_url + REFERENCE)
    assert response.status == 200
    assert page.title().startswith("Attention, from the softmax up")
    frac = page.locator(".post-body math[display='block'] mfrac").first
    numerator, denominator = (
        frac.evaluate(f"f => f.children[{i}].getBoundingClientRect().toJSON()") for i in (0, 1)
    )
    # MathML Core layout: the numerator sits entirely above the denominator, centred on it
    assert numerator["bottom"] <= denominator["top"] + 0.5
    assert (
        abs(
            (numerator["left"] + numerator["width"] / 2)
            - (denominator["left"] + denominator["width"] / 2)
        )
        < 2
    )
    page.screenshot(path=str(screenshot_dir / "reference-1400.png"), full_page=True)
    page.set_viewport_size({"width": 400, "height": 800})
    page.screenshot(path=str(screenshot_dir / "reference-400.png"), full_page=True)


@pytest.mark.slow
def test_every_page_passes_the_nu_html_checker(site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 4
    errors = run_vnu(pages)
    assert errors == [], "\n".join(
        f"{e.get('url')}:{e.get('lastLine')}: {e.get('message')}" for e in errors
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.slow
def test_every_page_has_no_axe_violations(page, site, base_url, scheme):
    page.emulate_media(color_scheme=scheme)
    for html_file in sorted(site.rglob("*.html")):
        rel = html_file.relative_to(site).as_posix().removesuffix("index.html")
        page.goto(base_url + rel)
        violations = run_axe(page)
        summary = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        assert violations == [], f"{rel} ({scheme}): {summary}"
