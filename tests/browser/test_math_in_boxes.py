"""Display math inside a box with its own background, measured in Chromium.

A display formula's scroll shadows are hidden by covers painted in the background behind
it (`--math-bg`, math.css); inside a callout, whose background is tinted, covers in the
page's colour showed as light (or dark) bands at both ends of every formula, even one that
fits (a user's trial, light and dark schemes). The callout sets the covers' colour to its own.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

POST = r"""---
title: Boxed math
date: 2026-01-15
---

> [!note] A note
> The determinant:
>
> $$
> \det A = ad - bc
> $$

!!! warning "Mind"
    $$
    \begin{vmatrix} a & b \\ c & d \end{vmatrix} = ad - bc
    $$
"""
HIDE_INK = ".math-display > math { visibility: hidden; }"


@pytest.fixture(scope="module")
def boxed_url(served_site) -> str:
    return served_site("boxed", {"boxed.md": POST}) + "posts/boxed/"


def strips(page, index: int) -> list[tuple[int, int, int]]:
    """Return the darkest and lightest colours (RGB extremes) of 6 px strips of the `index`th
    callout's formula region at its left and right ends, and of the callout's own background
    beside it (Skia dithers gradients by a unit or so: compared with a tolerance)."""
    boxes = page.evaluate(
        """i => {
          const region = document.querySelectorAll(".callout .math-display")[i];
          const r = region.getBoundingClientRect();
          const c = region.closest(".callout").getBoundingClientRect();
          const strip = x => ({x, y: r.top + 2, width: 6, height: r.height - 4});
          return [strip(r.left + 1), strip(r.right - 7), strip(c.right - 12)];
        }""",
        index,
    )
    return [
        Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB").getextrema()
        for box in boxes
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [400, 1100])
def test_a_formula_in_a_callout_shows_no_band_at_its_ends(page, boxed_url, scheme, width):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(boxed_url)
    page.evaluate("document.fonts.ready")
    page.add_style_tag(content=HIDE_INK)
    assert page.locator(".callout .math-display").count() == 2
    for index in range(2):
        left, right, beside = strips(page, index)
        for end in (left, right):  # the callout's tint, not a cover of the page's colour
            for (low, high), (tint_low, tint_high) in zip(end, beside, strict=True):
                assert tint_low - 2 <= low and high <= tint_high + 2
