"""Citations in Chromium: margin references beside the citing line at 1400 px, never over
a sidenote, and a keyboard toggle at 400 px; the post is built by `postil build`'s stages
with the theme and served under the site's base path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.blog import build_into, make_site, post_text
from support.web import run_axe, serve_dir

FIXTURE_BIB = Path(__file__).parents[1] / "fixtures" / "cite.bib"
FILLER = "The paragraph goes on so that the line is long and wraps in the measure. " * 2
BODY = f"""\
Transformers replaced recurrence [@vaswani2017]. {FILLER} A note sits right after.[^a]
The next sentence cites two works at once [see @muller2019, p. 3; @deepmind2023]. {FILLER}

{FILLER} Far below, a narrative citation: @vonneumann1945 wrote the draft.[^b] {FILLER}

[^a]: A note long enough to take a few lines of the margin column, so that the margin
    references around it must move down below it instead of overlapping it.
[^b]: Second note.
"""

# Each margin box (sidenotes and margin references) with the line of the marker it belongs
# to: the citation's own box, or the note's number.
MEASURE_JS = """
() => Array.from(document.querySelectorAll(".post-body .sidenote")).map((note) => {
  const marker = note.previousElementSibling.previousElementSibling.getBoundingClientRect();
  const box = note.getBoundingClientRect();
  return {
    id: note.id, cite: note.classList.contains("citenote"), top: box.top, bottom: box.bottom,
    left: box.left, visible: getComputedStyle(note).display !== "none",
    markerTop: marker.top, markerBottom: marker.bottom,
    bodyRight: document.querySelector(".post-body").getBoundingClientRect().right,
  };
})
"""


def build_cited(tmp_path: Path, style: str) -> Path:
    config = f"bibliography: refs.bib\ncitation_style: {style}\n"
    root = make_site(tmp_path / style, {"c.md": post_text("Cited", "2026-01-02", BODY)}, config)
    shutil.copy(FIXTURE_BIB, root / "refs.bib")
    return build_into(root)


@pytest.mark.parametrize("style", ["author-year", "numeric"])
def test_wide_margin_references_sit_beside_their_lines_without_overlapping(page, tmp_path, style):
    out = build_cited(tmp_path, style)
    page.set_viewport_size({"width": 1400, "height": 1000})
    with serve_dir(out, "/blog/") as local:
        page.goto(local + "posts/c/", wait_until="networkidle")  # nothing in flight at close
        boxes = page.evaluate(MEASURE_JS)
    assert [b["id"] for b in boxes if b["cite"]] == ["cn-1", "cn-2", "cn-3"]
    assert all(b["visible"] and b["left"] > b["bodyRight"] for b in boxes)
    boxes.sort(key=lambda b: b["top"])
    for above, below in zip(boxes, boxes[1:], strict=False):
        assert below["top"] >= above["bottom"] - 0.5, (above["id"], below["id"])
    assert boxes[0]["id"] == "cn-1"
    previous_bottom = -1e9
    for box in boxes:  # beside its line, or just below the box above it (`clear: right`)
        beside = abs(box["top"] - box["markerTop"]) < 30
        cleared = box["top"] > box["markerTop"] and box["top"] - previous_bottom < 30
        assert beside or cleared, box
        previous_bottom = box["bottom"]


def test_narrow_toggle_opens_a_margin_reference_from_the_keyboard(page, tmp_path):
    out = build_cited(tmp_path, "author-year")
    page.set_viewport_size({"width": 400, "height": 900})
    with serve_dir(out, "/blog/") as local:
        page.goto(local + "posts/c/", wait_until="networkidle")  # nothing in flight at close
        note = page.locator("#cn-2")
        toggle = page.locator("button[aria-controls='cn-2']")
        assert not note.is_visible() and toggle.is_visible()
        toggle.focus()
        page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-expanded") == "true"
        assert note.is_visible() and note.get_attribute("aria-hidden") is None
        assert "Journal of Machine Learning Research" in note.inner_text()
        page.keyboard.press("Space")
        assert toggle.get_attribute("aria-expanded") == "false" and not note.is_visible()
        assert page.locator("#ref-muller2019").is_visible()


def test_print_shows_the_reference_list_only(page, tmp_path):
    out = build_cited(tmp_path, "numeric")
    with serve_dir(out, "/blog/") as local:
        page.goto(local + "posts/c/", wait_until="networkidle")  # nothing in flight at close
        page.emulate_media(media="print")
        assert not page.locator("#cn-1").is_visible()
        assert not page.locator("button[aria-controls='cn-1']").is_visible()
        assert page.locator("#ref-vaswani2017").is_visible()


CITING_NOTE = """\
As in [@vaswani2017], the bound \\eqref{eq:b} holds.[^a] {filler}

$$
a \\le b \\label{eq:b}
$$

[^a]: The proof follows [@muller2019, p. 3] and [the appendix](#eq-b).
"""


@pytest.mark.parametrize("style", ["author-year", "numeric"])
def test_citation_and_equation_links_are_told_from_text_and_hidden_copies_take_no_focus(
    page, tmp_path, style
):
    """axe's `link-in-text-block` (the accent is 2.2:1 against the text, so a link needs
    more than its colour) and `aria-hidden-focus` (a note's margin copy is hidden from
    screen readers; the links in it took the keyboard's focus)."""
    config = f"bibliography: refs.bib\ncitation_style: {style}\n"
    body = CITING_NOTE.replace("{filler}", FILLER)
    root = make_site(tmp_path / style, {"n.md": post_text("Noted", "2026-01-02", body)}, config)
    shutil.copy(FIXTURE_BIB, root / "refs.bib")
    out = build_into(root)
    page.set_viewport_size({"width": 1400, "height": 1000})
    with serve_dir(out, "/blog/") as local:
        page.goto(local + "posts/n/", wait_until="networkidle")
        lines = page.evaluate(
            """() => [...document.querySelectorAll('.post-body p > .citation a, a.eqref')]
                .map(a => getComputedStyle(a).textDecorationLine)"""
        )
        focusable = page.evaluate(
            """() => [...document.querySelectorAll('[aria-hidden=true] a[href]')]
                .filter(a => a.tabIndex >= 0).length"""
        )
        assert lines and set(lines) == {"underline"}
        assert focusable == 0
        assert run_axe(page) == []
