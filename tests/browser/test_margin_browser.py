"""Margin content and page columns in Debian's Chromium (`postil.markdown.margin`, `span`).

Quarto's `.column-margin` block, MyST's `{sidebar}` and Quarto's page columns, laid out by
the theme's article.css: in the margin column on a wide screen, in the text on a narrow
one; the page column as wide as text and margin together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
The opening paragraph of the post, long enough to wrap over a few lines of the text column
so that the blocks after it have something beside them.

::: {.column-margin}
A block in the margin with [small caps]{.smallcaps}.
:::

```{sidebar} A sidebar
Its body.
```

A paragraph with an aside.[The aside's text.]{.aside}

::: {.column-page}
A page-wide block.
:::

<div class="l-gutter">
<p>Distill's gutter.</p>
</div>

<div class="l-page">
<p>Distill's page width.</p>
</div>
"""

BOXES_JS = """
() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width, top: r.top}; };
  return {
    body: box(document.querySelector(".post-body")),
    margins: Array.from(document.querySelectorAll(".post-body > .column-margin")).map(box),
    gutter: box(document.querySelector(".l-gutter")),
    page: box(document.querySelector(".column-page")),
    lpage: box(document.querySelector(".l-page")),
    rem: parseFloat(getComputedStyle(document.documentElement).fontSize),
    caps: getComputedStyle(document.querySelector(".smallcaps")).fontVariantCaps,
  };
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the page with the theme's stylesheets."""
    root = tmp_path_factory.mktemp("margin")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    write_article_page(root, "Margin content", body)
    return root


def layout(page: Any, url: str, width: int) -> dict[str, Any]:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    return page.evaluate(BOXES_JS)  # type: ignore[no-any-return]


def test_margin_blocks_sit_in_the_margin_column_on_a_wide_screen(page, site, serve_dir):
    boxes = layout(page, serve_dir(site), 1400)
    body, rem = boxes["body"], boxes["rem"]
    assert len(boxes["margins"]) == 2  # the Quarto block and the MyST sidebar
    for margin in boxes["margins"]:
        assert margin["left"] == pytest.approx(body["right"] + 2.5 * rem, abs=1)  # the gap
        assert margin["width"] == pytest.approx(16 * rem, abs=1)  # --margin-width
    first, second = boxes["margins"]
    assert second["top"] > first["top"]  # stacked, not overlapping (clear: right)
    assert boxes["gutter"]["left"] == pytest.approx(body["right"] + 2.5 * rem, abs=1)


def test_margin_blocks_stay_in_the_text_on_a_narrow_screen(page, site, serve_dir):
    boxes = layout(page, serve_dir(site), 800)
    body = boxes["body"]
    for margin in boxes["margins"]:
        assert margin["left"] >= body["left"] and margin["right"] <= body["right"] + 0.5


def test_page_column_spans_the_text_and_the_margin(page, site, serve_dir):
    boxes = layout(page, serve_dir(site), 1400)
    body, rem = boxes["body"], boxes["rem"]
    assert boxes["page"]["left"] == pytest.approx(body["left"], abs=0.5)
    assert boxes["page"]["width"] == pytest.approx(body["width"] + 18.5 * rem, abs=1)
    assert boxes["lpage"]["width"] == pytest.approx(body["width"] + 18.5 * rem, abs=1)
    narrow = layout(page, serve_dir(site), 800)
    assert narrow["page"]["width"] == pytest.approx(narrow["body"]["width"], abs=0.5)


def test_smallcaps_span_is_set_in_small_capitals(page, site, serve_dir):
    assert layout(page, serve_dir(site), 1400)["caps"] == "small-caps"


@pytest.mark.parametrize("width", [1400, 800])
def test_margin_page_has_no_axe_violations(page, site, serve_dir, width):
    layout(page, serve_dir(site), width)
    assert run_axe(page) == []
