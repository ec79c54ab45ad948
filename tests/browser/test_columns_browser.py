"""Hugo Book's `columns` and Hextra's `cards` shortcodes in Debian's Chromium: side by side
in the text column, stacked on a phone (`.columns` and `.cards` in base.css)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
{{< columns >}}
- Groups, $G \\times G \\to G$
- Rings

<--->

- Fields
- Modules

<--->

Vector spaces
{{< /columns >}}

After the columns.
"""

BOXES_JS = """
() => Array.from(document.querySelectorAll(".column")).map((column) => {
  const box = column.getBoundingClientRect();
  return {left: box.left, top: box.top, right: box.right, bottom: box.bottom};
})
"""


def write_page(factory: pytest.TempPathFactory, title: str, markdown: str) -> Path:
    """Write `markdown` rendered as a page titled `title` with the theme's stylesheets."""
    root = factory.mktemp(title.lower())
    write_article_page(root, title, create_markdown().render(markdown, {"postil": RenderState()}))
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the columns page."""
    return write_page(tmp_path_factory, "Columns", BODY)


def test_columns_sit_side_by_side_in_the_text_column(serve_dir, page, site):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve_dir(site) + "index.html")
    boxes = page.evaluate(BOXES_JS)
    assert len(boxes) == 3
    assert len({round(box["top"]) for box in boxes}) == 1
    for left, right in zip(boxes, boxes[1:], strict=False):
        assert right["left"] >= left["right"] + 16  # the 2rem gap, at least 1rem
    after = page.locator("text=After the columns.").bounding_box()
    assert after is not None and after["y"] >= max(box["bottom"] for box in boxes)


def test_columns_stack_on_a_phone(serve_dir, page, site):
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(serve_dir(site) + "index.html")
    boxes = page.evaluate(BOXES_JS)
    for upper, lower in zip(boxes, boxes[1:], strict=False):
        assert lower["top"] >= upper["bottom"] - 1
        assert lower["left"] == pytest.approx(upper["left"], abs=1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


CARDS = """\
{{< cards >}}
    {{< card link="a/" title="RSA and integer factoring" >}}
    {{< card link="b/" title="Diffie-Hellman" subtitle="and discrete logarithms" >}}
    {{< card link="c/" title="Lattices" >}}
{{< /cards >}}

After the cards.
"""

CARD_BOXES_JS = BOXES_JS.replace(".column", ".card")


@pytest.fixture(scope="module")
def cards_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write a page of Hextra's cards."""
    return write_page(tmp_path_factory, "Cards", CARDS)


def test_cards_are_a_grid_of_framed_links_and_one_column_on_a_phone(serve_dir, page, cards_site):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve_dir(cards_site) + "index.html")
    boxes = page.evaluate(CARD_BOXES_JS)
    assert len(boxes) == 3
    assert boxes[1]["left"] > boxes[0]["right"] and boxes[1]["top"] == boxes[0]["top"]
    border = page.evaluate("getComputedStyle(document.querySelector('.card')).borderTopStyle")
    assert border == "solid"
    underline = page.evaluate(
        "getComputedStyle(document.querySelector('.card')).textDecorationLine"
    )
    assert underline == "none"
    page.set_viewport_size({"width": 360, "height": 800})
    boxes = page.evaluate(CARD_BOXES_JS)
    for upper, lower in zip(boxes, boxes[1:], strict=False):
        assert lower["top"] >= upper["bottom"] and lower["left"] == pytest.approx(upper["left"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
