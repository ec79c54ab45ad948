"""Images for one colour scheme and Chirpy's image positions in Debian's Chromium
(`postil.markdown.images`, article.css): an image marked for the dark scheme shows only
there (the reader's scheme, or the theme toggle's `data-theme`), one for the light scheme
only there; `.left` floats the image with the text beside it; `.border` and `.rounded-10`
frame it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from support.web import write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
![Day](day.png){: .light w="120" h="60" }
![Night](night.png){: .dark w="120" h="60" }

![Logo](logo.png#gh-dark-mode-only)
_A caption under a dark-only image_

![Framed](day.png){: .border .rounded-10 w="120" h="60" }

![Left](left.png){: .left w="200" h="100" }

A paragraph beside the floated image, long enough to wrap into two or three lines of the
text column so that its first lines sit to the right of the image and not under it.
"""

SHOWN_JS = """
() => Object.fromEntries(["Day", "Night", "Logo"].map((alt) => {
  const img = document.querySelector(`img[alt="${alt}"]`);
  const box = img.closest("figure") || img;
  return [alt, getComputedStyle(box).display !== "none" && img.getBoundingClientRect().width > 0];
}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the page with the theme's stylesheets and the images it shows."""
    root = tmp_path_factory.mktemp("images")
    for name, size in {"day": (120, 60), "night": (120, 60), "logo": (80, 40)}.items():
        Image.new("RGB", size, "gray").save(root / f"{name}.png")
    Image.new("RGB", (200, 100), "gray").save(root / "left.png")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    write_article_page(root, "Images", body)
    return root


def shown(page: Any, url: str, scheme: str, theme: str | None) -> dict[str, bool]:
    page.emulate_media(color_scheme=scheme)
    page.goto(url)
    if theme is not None:
        page.evaluate(f"() => {{ document.documentElement.dataset.theme = '{theme}'; }}")
    return page.evaluate(SHOWN_JS)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("scheme", "theme", "dark"),
    [
        ("light", None, False),
        ("dark", None, True),
        ("dark", "light", False),  # the toggle wins over the reader's scheme
        ("light", "dark", True),
    ],
)
def test_an_image_for_one_colour_scheme_shows_only_in_it(
    page, site, serve_dir, scheme, theme, dark
):
    visible = shown(page, serve_dir(site), scheme, theme)
    assert visible == {"Day": not dark, "Night": dark, "Logo": dark}


@pytest.mark.parametrize(("scheme", "theme"), [("dark", None), ("light", "dark"), ("light", None)])
def test_paper_shows_the_light_schemes_images(page, site, serve_dir, scheme, theme):
    """A page printed from the dark scheme is printed light (base.css), so its images are
    the light scheme's."""
    page.emulate_media(media="print", color_scheme=scheme)
    page.goto(serve_dir(site))
    if theme is not None:
        page.evaluate(f"() => {{ document.documentElement.dataset.theme = '{theme}'; }}")
    assert page.evaluate(SHOWN_JS) == {"Day": True, "Night": False, "Logo": False}


def test_a_left_image_floats_with_the_text_beside_it(page, site, serve_dir):
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(serve_dir(site))
    boxes = page.evaluate(
        """() => {
          const img = document.querySelector('img[alt="Left"]').getBoundingClientRect();
          const body = document.querySelector(".post-body").getBoundingClientRect();
          const p = document.querySelector(".post-body > p:last-of-type");
          const range = document.createRange(); range.setStart(p.firstChild, 0);
          range.setEnd(p.firstChild, 1);
          const first = range.getBoundingClientRect();
          return {img: {left: img.left, right: img.right, top: img.top, bottom: img.bottom},
                  body: body.left, text: {left: first.left, top: first.top}};
        }"""
    )
    img, text = boxes["img"], boxes["text"]
    assert abs(img["left"] - boxes["body"]) < 1
    assert img["right"] - img["left"] == pytest.approx(200, abs=1)
    assert text["left"] > img["right"] and img["top"] - 10 <= text["top"] < img["bottom"]


def test_a_border_and_rounded_10_image_is_framed_with_round_corners(page, site, serve_dir):
    """Bootstrap's `.border` (Chirpy loads it) is a 1px line; Chirpy's `.rounded-10` 10px
    corners; an image without them has neither."""
    page.goto(serve_dir(site))
    styles = page.evaluate(
        """() => ["Framed", "Left"].map((alt) => {
          const css = getComputedStyle(document.querySelector(`img[alt="${alt}"]`));
          return [css.borderTopWidth, css.borderTopStyle, css.borderTopLeftRadius];
        })"""
    )
    assert styles == [["1px", "solid", "10px"], ["0px", "none", "0px"]]
