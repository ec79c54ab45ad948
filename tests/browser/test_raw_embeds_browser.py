"""The author's own raw HTML in Debian's Chromium on a phone: an `<iframe>` with width and
height attributes (a pasted YouTube player, as karpathy's and many Jekyll posts have), a
`<video>`, an `<embed>` and a `<canvas>` wider than the column fit it (base.css), a frame
at its height (SoundCloud's `width="100%" height="450"` too), one narrower its size; a
wide `<table>` scrolls in its own region (`postil.markdown.rawtable`), and so does a
notebook's plotly output; an inline `<svg>` drawing scales by its viewBox (a Julia blog's
plots scrolled the page 231 px sideways); the page never scrolls sideways."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
A paragraph of text before the embeds, long enough to fill the measure of the column.

<iframe width="420" height="315" src="about:blank" title="A player"></iframe>

<iframe width="200" height="100" src="about:blank" title="A small frame"></iframe>

<iframe width="100%" height="450" src="about:blank" title="A player as wide as the text"></iframe>

<iframe width="600px" height="400px" src="about:blank" title="A frame sized in pixels"></iframe>

<video width="800" height="400" controls title="A clip"></video>

<embed type="image/svg+xml" src="about:blank" width="700" height="100">

<canvas width="600" height="220"></canvas>

<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400"
  role="img" aria-label="A plot"><rect width="600" height="400" fill="#ddd"/>
<svg x="10" y="10" width="50" height="40" viewBox="0 0 5 4"><rect width="5" height="4"/></svg>
</svg>

<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="120" viewBox="0 0 10 1"
  preserveAspectRatio="none" role="img" aria-label="A band"><rect width="10" height="1"/></svg>

<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320" role="img"
  aria-label="A plot without a viewBox"><rect width="640" height="320" fill="#ddd"/>
<circle cx="630" cy="310" r="10"/></svg>

<div class="plotly-graph-div" style="height:225px; width:500px;">
<div style="position: relative; width: 500px; height: 225px"></div>
</div>

<table>
<tr><th>Rank</th><th>Team</th><th>Quarterfinal score</th><th>Average points</th><th>Record</th></tr>
<tr><td>1</td><td>118</td><td>16.039417063</td><td>68</td><td>8-0-0</td></tr>
</table>

<table align="center">
<tr><td align="right">12.5</td><td valign="bottom">a</td></tr>
</table>
"""

BOXES_JS = """
() => {
  const text = document.querySelector(".post-body p").getBoundingClientRect();
  const page = document.documentElement;
  return {
    overflow: page.scrollWidth - page.clientWidth,
    text: text.width,
    boxes: Array.from(document.querySelectorAll(
      ".post-body :is(iframe, video, embed, canvas, svg)"))
      .map((el) => {
        const box = el.getBoundingClientRect();
        return [el.tagName, box.width, box.height];
      }),
  };
}
"""


_RIGHT_OF_SVG = "e => e.ownerSVGElement.getBoundingClientRect().right"
"""The right edge of a drawing's `<svg>`, where its last circle (cx + r = width) ends."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the page of embeds with the theme's stylesheets."""
    root = tmp_path_factory.mktemp("embeds")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    assert body.count("<iframe") == 4 and "<video" in body and "<embed" in body
    write_article_page(root, "Embeds", body)
    return root


def test_on_a_phone_each_embed_fits_the_column_and_a_frame_keeps_its_ratio(page, site, serve_dir):
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(serve_dir(site))
    found = page.evaluate(BOXES_JS)
    assert found["overflow"] == 0
    text = found["text"]
    assert text < 400  # the player (420 px) is wider than the column
    player, small, full, pixels, video, embed, canvas, svg, inner, band, bare = found["boxes"]
    (_, player_w, player_h), (_, small_w, small_h), (_, video_w, video_h) = player, small, video
    # a frame narrows to the column at its height (its attributes may be no numbers)
    assert player_w == pytest.approx(text, abs=1) and player_h == 315
    assert (small_w, small_h) == (200, 100)
    assert full[1] == pytest.approx(text, abs=1) and full[2] == 450
    assert pixels[1] == pytest.approx(text, abs=1) and pixels[2] == 400
    assert video_w == pytest.approx(text, abs=1) and video_h == pytest.approx(text / 2, abs=1)
    assert embed[1] == pytest.approx(text, abs=1)
    assert canvas[1] == pytest.approx(text, abs=1)
    assert canvas[2] == pytest.approx(text * 220 / 600, abs=1)
    # an inline SVG drawing scales by its viewBox; the one inside it stays its own size
    assert svg[1] == pytest.approx(text, abs=1) and svg[2] == pytest.approx(text * 400 / 600, abs=1)
    assert inner[1] == pytest.approx(50 * text / 600, abs=1)
    assert band[2] == 120  # drawn to stretch (preserveAspectRatio="none"): its own height
    # one sized in pixels without a viewBox scales too (it was cut off at the column's edge)
    assert bare[1] == pytest.approx(text, abs=1) and bare[2] == pytest.approx(text / 2, abs=1)
    dot = page.eval_on_selector("circle", "e => e.getBoundingClientRect().right")
    assert dot == pytest.approx(page.eval_on_selector("circle", _RIGHT_OF_SVG), abs=1)
    plot = page.eval_on_selector(
        ".plotly-graph-div", "e => [e.getBoundingClientRect().width, e.scrollWidth]"
    )
    assert plot[0] == pytest.approx(text, abs=1) and plot[1] == 500  # it scrolls, the page not
    region = page.evaluate(
        """() => { const r = document.querySelector(".table-wrap");
        return [r.clientWidth, r.scrollWidth, r.getAttribute("aria-label")]; }"""
    )
    assert region[0] == pytest.approx(text, abs=1) and region[1] > region[0]
    assert region[2] == "Table: Rank, Team, Quarterfinal score, Average points, Record"
    assert run_axe(page) == []


def test_on_a_wide_screen_the_embeds_keep_their_sizes(page, site, serve_dir):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve_dir(site))
    found = page.evaluate(BOXES_JS)
    boxes, text = found["boxes"], found["text"]
    assert [box[1:] for box in boxes[:2]] == [[420, 315], [200, 100]]
    # the author's table keeps its own look: HTML's align and valign, its own width
    looks = page.evaluate(
        """() => { const table = document.querySelectorAll(".table-wrap table")[1];
        const region = table.parentElement.getBoundingClientRect();
        const box = table.getBoundingClientRect(); const cells = table.querySelectorAll("td");
        return [getComputedStyle(cells[0]).textAlign, getComputedStyle(cells[1]).verticalAlign,
                box.width < region.width / 2, box.left - region.left > 10]; }"""
    )
    assert looks == ["-webkit-right", "bottom", True, True]  # HTML align=right: -webkit-right
    assert boxes[2][1:] == [pytest.approx(text, abs=1), 450]  # width="100%": the column's
    assert boxes[3][1:] == [600, 400]
    assert boxes[7][1:] == [600, 400]  # the inline SVG at its own size
    assert boxes[10][1:] == [640, 320]  # and the one without a viewBox
