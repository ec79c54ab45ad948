"""A code block wider than a phone's column shows, by an edge shadow, the side it scrolls to,
as a wide formula and a wide table do (base.css's one set of scroll shadows).

Measured in Chromium at 375 px on a built post, in the light and the dark scheme, with the
code's text hidden: a strip at a wide block's right edge differs from its middle until the
block is scrolled to its end, and then the left edge carries the shadow instead; a block
that fits, titled or not, has neither; a wide block of the author's own `<pre>` scrolls with
the same shadows, and a wide block's background is still the code background.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image
from support.web import edge_strip

LONG = "result = compute(" + ", ".join(f"argument_{n}" for n in range(12)) + ")"
POST = f"""---
title: Code
date: 2026-01-15
---

A block that fits:

```python
x = 1
```

A wide one, titled:

```python title="wide.py"
{LONG}
```

The author's own:

<pre>{LONG}</pre>
"""
HIDE_TEXT = ".post-body pre { -webkit-text-fill-color: transparent; }"
"""The code's text drawn transparent; its colour, which the shadow is made of, kept."""


@pytest.fixture(scope="module")
def code_url(served_site) -> str:
    return served_site("code", {"code.md": POST}) + "posts/code/"


def strip(page, index: int, side: str) -> bytes:
    """A 3 px strip inside the `index`-th `.post-body pre` at its "left", "right" or "middle"."""
    return edge_strip(page, ".post-body pre", index, side)


def colour(png: bytes) -> tuple[int, ...]:
    """The colour of a strip's middle pixel."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.getpixel((1, image.height // 2))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_code_block_shows_the_side_it_scrolls_to(page, code_url, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 375, "height": 900})
    page.goto(code_url)
    page.add_style_tag(content=HIDE_TEXT)
    wide = page.eval_on_selector_all(
        ".post-body pre", "es => es.map(e => e.scrollWidth > e.clientWidth)"
    )
    assert wide == [False, True, True]
    for index in (1, 2):
        blank = strip(page, index, "middle")
        assert strip(page, index, "right") != blank  # code hidden on the right
        assert strip(page, index, "left") == blank
        page.evaluate(f"document.querySelectorAll('.post-body pre')[{index}].scrollLeft = 1e6")
        page.wait_for_timeout(50)
        assert strip(page, index, "right") == blank
        assert strip(page, index, "left") != blank  # now hidden on the left
    blank = strip(page, 0, "middle")
    assert strip(page, 0, "right") == blank == strip(page, 0, "left")  # fits: no shadow
    shade, ground = colour(strip(page, 1, "left")), colour(strip(page, 1, "middle"))
    darker = sum(shade) < sum(ground)
    assert darker == (scheme == "light")  # the text colour thinned: dark on light, light on dark
    code_bg = page.eval_on_selector(
        "figure.code .highlight", "e => getComputedStyle(e).backgroundColor"
    )
    assert code_bg not in ("rgba(0, 0, 0, 0)", "transparent")  # Pygments' ground kept


def test_every_box_that_scrolls_sideways_takes_the_one_set_of_scroll_shadows(page, code_url):
    """No later rule of the theme resets the shadows' geometry (a `background:` shorthand on
    the citation's BibTeX block did: its shadow filled the block)."""
    page.goto(code_url)
    found = page.eval_on_selector_all(
        ".post-body pre, .cite pre",
        """es => es.map(e => { const c = getComputedStyle(e);  // as many values as images
          return [c.backgroundRepeat.split(", ")[0], c.backgroundPosition.split(", ")[0],
                  c.animationName]; })""",
    )
    assert found == [["no-repeat", "0% 50%", "scroll-edges"]] * 4
