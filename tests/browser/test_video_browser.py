"""Video players (`postil.markdown.embed`) in Debian's Chromium: as wide as the text at 16:9,
on a phone too, each named for assistive technology (axe).

The page is the shortcode plugin's own HTML with the theme's base.css and article.css. The
players' pages are on other hosts, which this machine cannot reach: the layout is the
page's own, whatever the frame shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
A paragraph of text before the players, long enough to fill the measure of the column.

{{< youtube id="dQw4w9WgXcQ" title="The lecture" >}}

{{< vimeo 55073825 >}}

{{< video clip.mp4 title="A clip" >}}
"""


BOXES_JS = """
() => {
  const text = document.querySelector(".post-body p").getBoundingClientRect();
  return Array.from(document.querySelectorAll("figure.video > *")).map((player) => {
    const box = player.getBoundingClientRect();
    return [player.tagName, box.width, box.height, box.left - text.left, text.width];
  });
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the page of players with the theme's stylesheets."""
    root = tmp_path_factory.mktemp("videos")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    assert body.count('<figure class="video">') == 3
    write_article_page(root, "Videos", body)
    (root / "clip.mp4").write_bytes(b"")  # served, so the page reports no missing file
    return root


@pytest.mark.parametrize("width", [1000, 390])
def test_each_player_is_as_wide_as_the_text_at_sixteen_to_nine(page, site, serve_dir, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(serve_dir(site))
    boxes = page.evaluate(BOXES_JS)
    assert [box[0] for box in boxes] == ["IFRAME", "IFRAME", "VIDEO"]
    for _, box_width, box_height, left, text_width in boxes:
        assert box_width == pytest.approx(text_width, abs=1)
        assert left == pytest.approx(0, abs=1)
        assert box_height == pytest.approx(box_width * 9 / 16, abs=1)


def test_every_player_has_an_accessible_name_and_axe_finds_nothing(page, site, serve_dir):
    page.goto(serve_dir(site))
    names = page.evaluate(
        """() => Array.from(document.querySelectorAll("figure.video > *")).map(
            (player) => player.getAttribute("title") || player.getAttribute("aria-label"))"""
    )
    assert names == ["The lecture", "Vimeo video", "A clip"]
    assert run_axe(page) == []
