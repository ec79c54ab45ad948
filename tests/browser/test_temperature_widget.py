"""The temperature widget in Chromium: the slider looks up Python's numbers; no JS still shows them.

The page is the plugin's HTML for the reference post's sentence, with the theme's stylesheets
and `static/js/widgets/temperature.js`, served over 127.0.0.1. Expected texts come from
`postil.widgets.temperature.compute`, never from hard-coded strings.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from support.web import run_axe, run_vnu

from postil.markdown.figure import figure_plugin
from postil.markdown.state import RenderState
from postil.markdown.widget import widget_plugin
from postil.widgets.temperature import TemperatureTable, compute, format_tau, parse_options

SENTENCE = ["The", "black", "cat", "that", "chased", "the", "mouse", "was", "hungry", "."]
SCORES = [1.0, 0.5, 3.4, 0.3, 1.2, 0.1, 2.0]
BODY = f"""\
```{{temperature}}
tokens: [{", ".join(SENTENCE)}]
query: was
scores: {SCORES}
caption: >-
  Attention weights for the query “was” at temperature τ. The score for “cat” is highest,
  so as τ falls the head commits to the subject of the sentence. Tokens after the query
  are masked.
name: fig-temperature
```
"""
PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Temperature widget</title>
<link rel="stylesheet" href="css/base.css">
<link rel="stylesheet" href="css/article.css">
<link rel="stylesheet" href="css/widgets.css">
</head>
<body>
<main id="main">
<h1>Temperature widget</h1>
{figure}</main>
<script type="module" src="js/widgets/temperature.js"></script>
</body>
</html>
"""
SLIDER = "#fig-temperature-tau"
ENTROPY = ".temperature-entropy"


@pytest.fixture(scope="module")
def table() -> TemperatureTable:
    """Return Python's weights and entropy for the page's widget (the expected values)."""
    return compute(parse_options({"tokens": SENTENCE, "query": "was", "scores": SCORES}))


@pytest.fixture
def site(tmp_path: Path, repo_root: Path) -> Path:
    """Write the widget page with the theme's CSS and the widget's script; return its folder."""
    md = MarkdownIt("commonmark")
    widget_plugin(md)
    figure_plugin(md)
    state = RenderState()
    figure = md.render(BODY, {"postil": state})
    assert state.diagnostics == [] and "Figure 1" in figure
    (tmp_path / "index.html").write_text(PAGE.format(figure=figure), encoding="utf-8")
    for rel in ("css/base.css", "css/article.css", "css/widgets.css", "js/widgets/temperature.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(repo_root / "static" / rel, tmp_path / rel)
    return tmp_path


def entropy_text(table: TemperatureTable, index: int) -> str:
    return f"entropy {table.entropy[index]:.2f} bits"


def bar_widths(page: Any) -> dict[str, float]:
    """Return each visible token's bar width in CSS pixels."""
    script = """() => Object.fromEntries([...document.querySelectorAll('.is-visible')].map(row =>
        [row.querySelector('.temperature-token').textContent,
         row.querySelector('.temperature-fill').getBoundingClientRect().width]))"""
    return dict(page.evaluate(script))


def open_page(page: Any, serve_dir: Any, site: Path) -> Any:
    page.set_viewport_size({"width": 760, "height": 900})
    # Reduced motion turns off the bars' width transition, so widths are final when measured.
    page.emulate_media(reduced_motion="reduce")
    page.goto(serve_dir(site))
    page.wait_for_load_state("load")
    return page.locator(SLIDER)


@pytest.mark.slow
def test_slider_ends_show_pythons_entropy_and_cat_wins_at_low_tau(
    page: Any, serve_dir: Any, site: Path, table: TemperatureTable, screenshot_dir: Path
) -> None:
    slider = open_page(page, serve_dir, site)
    assert page.text_content(ENTROPY) == entropy_text(table, table.initial)

    slider.fill("0")
    assert page.text_content(ENTROPY) == entropy_text(table, 0)
    assert slider.get_attribute("aria-valuetext") == f"τ = {format_tau(table.taus[0])}"
    widths = bar_widths(page)
    assert max(widths, key=widths.__getitem__) == "cat"
    assert widths["cat"] > 0 and all(
        w < 0.02 * widths["cat"] for t, w in widths.items() if t != "cat"
    )
    slider.blur()
    page.locator("figure.widget").screenshot(path=str(screenshot_dir / "widget-low-tau.png"))

    slider.fill(str(len(table.taus) - 1))
    assert page.text_content(ENTROPY) == entropy_text(table, len(table.taus) - 1)
    assert page.text_content(".temperature-tau") == f"τ = {format_tau(table.taus[-1])}"
    widths = bar_widths(page)
    assert max(widths.values()) < 1.25 * min(widths.values())
    slider.blur()
    page.locator("figure.widget").screenshot(path=str(screenshot_dir / "widget-high-tau.png"))


@pytest.mark.slow
def test_keyboard_arrows_move_the_slider_one_temperature_at_a_time(
    page: Any, serve_dir: Any, site: Path, table: TemperatureTable
) -> None:
    slider = open_page(page, serve_dir, site)
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    index = table.initial - 2
    assert slider.input_value() == str(index)
    assert page.text_content(ENTROPY) == entropy_text(table, index)
    page.keyboard.press("ArrowRight")
    assert slider.get_attribute("aria-valuetext") == f"τ = {format_tau(table.taus[index + 1])}"
    page.keyboard.press("Home")
    assert page.text_content(ENTROPY) == entropy_text(table, 0)
    page.keyboard.press("End")
    assert page.text_content(ENTROPY) == entropy_text(table, len(table.taus) - 1)


def test_percentages_follow_the_slider(
    page: Any, serve_dir: Any, site: Path, table: TemperatureTable
) -> None:
    slider = open_page(page, serve_dir, site)
    index = 30
    slider.fill(str(index))
    values = page.locator(".is-visible .temperature-value").all_text_contents()
    assert values == [f"{100 * w:.1f}%" for w in table.weights[index]]
    masked = page.locator(".is-masked .temperature-value").all_text_contents()
    assert masked == ["–masked", "–masked"]


@pytest.mark.slow
def test_without_javascript_the_initial_bars_and_entropy_are_visible(
    browser: Any, serve_dir: Any, site: Path, table: TemperatureTable
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 760, "height": 900})
    try:
        page = context.new_page()
        page.goto(serve_dir(site))
        assert page.locator(ENTROPY).is_visible()
        assert page.text_content(ENTROPY) == entropy_text(table, table.initial)
        widths = bar_widths_static(page)
        assert max(widths, key=widths.__getitem__) == "cat"
        cat = SENTENCE.index("cat")
        ratio = widths["the"] / widths["cat"]
        expected = table.weights[table.initial][5] / table.weights[table.initial][cat]
        assert ratio == pytest.approx(expected, abs=0.01)
    finally:
        context.close()


def bar_widths_static(page: Any) -> dict[str, float]:
    """Measure bar widths through Playwright's layout boxes (no page script runs)."""
    widths = {}
    for row in page.locator(".is-visible").all():
        box = row.locator(".temperature-fill").bounding_box()
        widths[row.locator(".temperature-token").text_content()] = box["width"] if box else 0.0
    return widths


@pytest.mark.slow
def test_dark_mode_colours_the_bars_with_the_themes_accent(
    page: Any, serve_dir: Any, site: Path
) -> None:
    open_page(page, serve_dir, site)
    fill = page.locator(".temperature-fill").first
    light = fill.evaluate("el => getComputedStyle(el).backgroundColor")
    page.emulate_media(color_scheme="dark")
    dark = fill.evaluate("el => getComputedStyle(el).backgroundColor")
    assert (light, dark) == ("rgb(138, 59, 18)", "rgb(240, 162, 111)")


@pytest.mark.slow
def test_widget_page_passes_axe_and_the_nu_html_checker(
    page: Any, serve_dir: Any, site: Path
) -> None:
    open_page(page, serve_dir, site)
    assert run_axe(page) == []
    assert run_vnu([site / "index.html"]) == []
