"""Callouts in Debian's Chromium: one accent per kind in light and dark, folding, print, axe.

The page is the callout plugin's own HTML with the theme's base.css and article.css.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
::: {.callout-note}
A note.
:::

> [!TIP] Keep `pip` current
> A tip.

::: {.callout-important}
Important.
:::

!!! warning "Numerics of `exp`"
    Subtract the maximum: $\\max_i z_i$.

::: {.callout-caution collapse="true" title="Folded proof"}
The hidden body.
:::
"""


ACCENTS_JS = """
() => Array.from(document.querySelectorAll(".callout")).map((box) => [
  box.classList[1], getComputedStyle(box).borderLeftColor,
  getComputedStyle(box.querySelector(".callout-title")).color,
  getComputedStyle(box).backgroundColor, getComputedStyle(document.body).backgroundColor,
])
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the callout page with the theme's stylesheets."""
    root = tmp_path_factory.mktemp("callouts")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    write_article_page(root, "Callouts", body)
    return root


def open_page(page: Any, url: str, theme: str) -> None:
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(url)
    page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", theme)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_kind_has_its_own_accent_on_a_tinted_background(page, site, serve_dir, theme):
    open_page(page, serve_dir(site), theme)
    rows = page.evaluate(ACCENTS_JS)
    assert [row[0] for row in rows] == [
        "callout-note",
        "callout-tip",
        "callout-important",
        "callout-warning",
        "callout-caution",
    ]
    assert len({row[1] for row in rows}) == 5  # five different accents
    assert all(row[1] == row[2] for row in rows)  # the title takes the accent
    assert all(row[3] != row[4] for row in rows)  # tinted, not the page's background


def test_dark_accents_differ_from_light_ones(page, site, serve_dir):
    open_page(page, serve_dir(site), "light")
    light = [row[1] for row in page.evaluate(ACCENTS_JS)]
    page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
    dark = [row[1] for row in page.evaluate(ACCENTS_JS)]
    assert all(a != b for a, b in zip(light, dark, strict=True))


def test_folded_callout_opens_from_the_keyboard(page, site, serve_dir):
    open_page(page, serve_dir(site), "light")
    body = page.get_by_text("The hidden body.")
    assert not body.is_visible()
    page.locator("details.callout > summary").focus()
    page.keyboard.press("Enter")
    assert body.is_visible()


def test_print_shows_the_body_of_a_folded_callout(page, site, serve_dir):
    open_page(page, serve_dir(site), "light")
    page.emulate_media(media="print")
    assert page.get_by_text("The hidden body.").is_visible()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_callout_page_has_no_axe_violations(page, site, serve_dir, theme):
    open_page(page, serve_dir(site), theme)
    assert run_axe(page) == []
