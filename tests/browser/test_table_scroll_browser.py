"""A table wider than a phone's column shows, by an edge shadow, the side it scrolls to.

Measured in Chromium at 375 px on a built post: a strip at the table region's right edge
differs from the same strip of a table that fits until the table is scrolled to its end, and
then the left edge carries the shadow instead.
"""

from __future__ import annotations

import pytest
from support.web import edge_strip

HEAD = "| " + " | ".join(f"Column {n}" for n in range(1, 9)) + " |"
RULE = "|" + "---|" * 8
ROW = "| " + " | ".join(f"value number {n}" for n in range(1, 9)) + " |"
POST = f"""---
title: Tables
date: 2026-01-15
---

A table that fits:

| a | b |
|---|---|
| 1 | 2 |

A wide one:

{HEAD}
{RULE}
{ROW}
"""


@pytest.fixture(scope="module")
def tables_url(served_site) -> str:
    return served_site("tables", {"tables.md": POST}) + "posts/tables/"


def strip(page, index: int, side: str) -> bytes:
    """A 3 px strip inside the `index`-th `.table-wrap` at its "left", "right" or "middle"."""
    return edge_strip(page, ".table-wrap", index, side)


def test_a_wide_table_shows_the_side_it_scrolls_to(page, tables_url):
    page.set_viewport_size({"width": 375, "height": 900})
    page.goto(tables_url)
    page.add_style_tag(content=".table-wrap table { visibility: hidden; }")
    wide = page.eval_on_selector_all(
        ".table-wrap", "es => es.map(e => e.scrollWidth > e.clientWidth)"
    )
    assert wide == [False, True]
    blank = [strip(page, 0, "middle"), strip(page, 1, "middle")]
    assert strip(page, 0, "right") == blank[0] == strip(page, 0, "left")  # fits: no shadow
    assert strip(page, 1, "right") != blank[1]  # columns hidden on the right
    assert strip(page, 1, "left") == blank[1]
    page.evaluate("document.querySelectorAll('.table-wrap')[1].scrollLeft = 1e6")
    page.wait_for_timeout(50)
    assert strip(page, 1, "right") == blank[1]
    assert strip(page, 1, "left") != blank[1]  # now hidden on the left
