"""Sidenote layout and toggles in Debian's Chromium: margin placement, no overlaps, keyboard.

The page is built from the Markdown plugins' own HTML with the theme's base.css and
article.css and served over 127.0.0.1. Two notes sit in neighbouring sentences with long
texts, so the second must move down (`clear: right`) to avoid the first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from support.web import run_axe, run_vnu

from postil.markdown.code import code_plugin
from postil.markdown.heading import heading_plugin
from postil.markdown.sidenote import sidenote_plugin
from postil.markdown.state import RenderState

REPO = Path(__file__).resolve().parents[2]
LONG = "This note is long on purpose, so that it needs many lines in the margin column. " * 3
BODY = f"""\
## The one line

Attention fits in one line, and this paragraph is long enough to wrap a few times in the
measure of the body text.[^first] The very next sentence carries a second note.[^second]
Then the paragraph goes on for a while so that there is text beside both notes.

An unnumbered aside follows here.[^aside] And more text to fill the line.

```python title="check.py"
print("hello")
```

A later paragraph, far below, with a third note.[^third]

[^first]: {LONG}
[^second]: Short second note with [a link](https://example.org/).
[^aside]: {{-}} A margin note: unnumbered, in the margin, not in the Notes list.
[^third]: The third note.
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sidenotes</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="css/base.css"><link rel="stylesheet" href="css/article.css">
</head><body><main id="main"><article class="post"><div class="post-body">
{body}
</div></article></main><script src="js/article.js" defer></script></body></html>
"""

# Geometry of every margin box, with the marker it belongs to, measured in the page.
MEASURE_JS = """
() => Array.from(document.querySelectorAll(".post-body > p .sidenote, .post-body > p .marginnote"))
  .map((note) => {
    const toggle = note.previousElementSibling;
    let marker;
    if (note.classList.contains("sidenote")) {
      marker = toggle.previousElementSibling.getBoundingClientRect();
    } else {
      const range = document.createRange();
      const text = toggle.previousSibling;
      range.setStart(text, text.length - 1);
      range.setEnd(text, text.length);
      marker = range.getBoundingClientRect();
    }
    const box = note.getBoundingClientRect();
    const para = note.closest("p");
    return {
      id: note.id, top: box.top, bottom: box.bottom, left: box.left, right: box.right,
      markerTop: marker.top, lineHeight: parseFloat(getComputedStyle(para).lineHeight),
      bodyRight: document.querySelector(".post-body").getBoundingClientRect().right,
      marginTop: parseFloat(getComputedStyle(note).marginTop),
      marginBottom: parseFloat(getComputedStyle(note).marginBottom),
    };
  })
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the test page with the theme's base.css, article.css and article.js."""
    base_css = REPO / "static/css/base.css"
    if not base_css.is_file():
        pytest.skip("static/css/base.css is not there yet")
    md = MarkdownIt("commonmark").enable("table")
    for plugin in (sidenote_plugin, code_plugin, heading_plugin):
        plugin(md)
    body = md.render(BODY, {"postil": RenderState()})
    root = tmp_path_factory.mktemp("sidenotes")
    (root / "css").mkdir()
    (root / "js").mkdir()
    (root / "css/base.css").write_bytes(base_css.read_bytes())
    (root / "css/article.css").write_bytes((REPO / "static/css/article.css").read_bytes())
    (root / "js/article.js").write_bytes((REPO / "static/js/article.js").read_bytes())
    (root / "index.html").write_text(PAGE.format(body=body), encoding="utf-8")
    return root


def open_page(page: Any, url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    page.wait_for_load_state("load")


def test_wide_sidenotes_sit_beside_their_markers_without_overlapping(
    page, site, serve_dir, screenshot_dir
):
    open_page(page, serve_dir(site), 1400)
    notes = page.evaluate(MEASURE_JS)
    assert [note["id"] for note in notes] == ["sn-1", "sn-2", "mn-1", "sn-3"]
    for note in notes:
        assert note["left"] >= note["bodyRight"], f"{note['id']} is not in the margin"
    first, second = notes[0], notes[1]
    assert second["markerTop"] < first["bottom"], "the test page no longer forces a collision"
    for previous, note in zip([None, *notes[:-1]], notes, strict=True):
        displaced = previous is not None and previous["bottom"] > note["markerTop"]
        if displaced:
            # Moved down only as far as needed: right under the previous note.
            below = previous["bottom"] + previous["marginBottom"] + note["marginTop"]
            assert note["top"] == pytest.approx(below, abs=1)
        else:
            assert abs(note["top"] - note["markerTop"]) <= note["lineHeight"], note
    for i, a in enumerate(notes):
        for b in notes[i + 1 :]:
            assert a["bottom"] <= b["top"] or b["bottom"] <= a["top"], (a["id"], b["id"])
    assert page.locator(".sidenote-toggle:visible").count() == 0
    page.screenshot(path=str(screenshot_dir / "sidenotes-1400.png"), full_page=True)


@pytest.mark.slow
def test_narrow_toggle_opens_a_note_from_the_keyboard(page, site, serve_dir, screenshot_dir):
    open_page(page, serve_dir(site), 400)
    assert page.locator(".sidenote:visible, .marginnote:visible").count() == 0
    first_toggle = page.locator("#sn-1").locator("xpath=preceding-sibling::button[1]")
    for _ in range(20):
        page.keyboard.press("Tab")
        if first_toggle.evaluate("(button) => button === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the first note's toggle")
    assert first_toggle.get_attribute("aria-label") == "Note 1"
    page.keyboard.press("Enter")
    assert first_toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#sn-1").is_visible()
    assert page.locator("#sn-1").get_attribute("aria-hidden") is None
    page.screenshot(path=str(screenshot_dir / "sidenotes-400.png"), full_page=True)
    page.keyboard.press("Space")
    assert first_toggle.get_attribute("aria-expanded") == "false"
    assert not page.locator("#sn-1").is_visible()
    assert page.locator("#sn-1").get_attribute("aria-hidden") == "true"


@pytest.mark.slow
def test_narrow_margin_note_toggle_opens_with_space(page, site, serve_dir):
    open_page(page, serve_dir(site), 400)
    toggle = page.locator("button[aria-controls='mn-1']")
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#mn-1").is_visible()


def test_without_javascript_margin_notes_show_inline_and_toggles_stay_hidden(
    browser, site, serve_dir
):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 400, "height": 900})
    try:
        page = context.new_page()
        page.goto(serve_dir(site))
        assert page.locator(".sidenote-toggle:visible").count() == 0
        assert page.locator("#mn-1").is_visible()
        assert not page.locator("#sn-1").is_visible()
        assert page.locator("#fn-1").is_visible()
    finally:
        context.close()


@pytest.mark.slow
def test_print_hides_margin_copies_and_toggles_and_keeps_the_notes_list(page, site, serve_dir):
    open_page(page, serve_dir(site), 1400)
    page.emulate_media(media="print")
    assert page.locator(".sidenote:visible, .sidenote-toggle:visible").count() == 0
    assert page.locator("#mn-1").is_visible()
    assert page.locator(".footnotes li:visible").count() == 3


@pytest.mark.slow
def test_notes_page_passes_the_nu_html_checker(site):
    assert run_vnu([site / "index.html"]) == []


@pytest.mark.parametrize(("width", "theme"), [(1400, "light"), (400, "light"), (400, "dark")])
@pytest.mark.slow
def test_notes_page_has_no_axe_violations_with_a_note_open(page, site, serve_dir, width, theme):
    open_page(page, serve_dir(site), width)
    page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", theme)
    if width < 1100:
        page.locator("button[aria-controls='sn-1']").click()
        page.locator("button[aria-controls='mn-1']").click()
    assert run_axe(page) == []
