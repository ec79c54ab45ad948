"""A code block, display formula or table takes a tab stop exactly while it scrolls sideways
(session 44: postil writes them focusable for readers without JavaScript, and every one
stayed a tab stop with JavaScript too, so a keyboard user tabbed through each equation and
code block of a post at 1,440 px, where none scrolls; an author's own `<pre>` already took
one only while it scrolled)."""

from __future__ import annotations

import pytest
from support.web import run_axe

WIDE_TEX = " + ".join(f"\\frac{{a_{{{i}}}}}{{b_{{{i}}}}}" for i in range(40))
WIDE_ROW = "| " + " | ".join(f"column{i}" for i in range(30)) + " |"

BODY = f"""\
Short code:

```python
x = 1
```

Wide code:

```python
y = [{", ".join(str(n) * 8 for n in range(40))}]
```

A short formula:

$$
a = b \\label{{eq:short}}
$$

A wide one:

$$
s = {WIDE_TEX}
$$

| a | b |
|---|---|
| 1 | 2 |

{WIDE_ROW}
|{"---|" * 30}
{WIDE_ROW}
"""

POSTS = {"a.md": f"---\ntitle: Boxes\ndate: 2026-01-01\n---\n\n{BODY}"}

BOXES = """() => ['.highlight pre', '.math-display', '.table-wrap'].map(kind =>
  [...document.querySelectorAll('.post-body ' + kind)].map(
    e => [e.scrollWidth > e.clientWidth, e.tabIndex === 0]))"""


@pytest.fixture(scope="module")
def boxes_url(served_site) -> str:
    return served_site("tabstops", POSTS) + "posts/a/"


@pytest.mark.parametrize("width", [390, 1440])
def test_only_the_boxes_that_scroll_take_a_tab_stop(page, boxes_url, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(boxes_url)
    page.wait_for_function(
        "!document.querySelector('.post-body .math-display:first-of-type').hasAttribute('tabindex')"
    )
    code, formulas, tables = page.evaluate(BOXES)
    assert [len(code), len(formulas), len(tables)] == [2, 2, 2]
    for found in (code, formulas, tables):
        assert found[0] == [False, False]  # the short one fits and is no tab stop
        assert found[1] == [True, True]  # the wide one scrolls and takes the focus
    assert run_axe(page) == []  # every box that scrolls can be reached by the keyboard


def test_a_box_that_comes_to_fit_gives_up_its_tab_stop_and_takes_it_back(page, boxes_url):
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(boxes_url)
    wide = ".post-body .math-display >> nth=1"
    page.wait_for_function("document.querySelectorAll('.math-display[tabindex]').length == 1")
    assert page.locator(wide).evaluate("e => e.tabIndex") == 0
    page.add_style_tag(content=".post-body .math-display { width: 6000px; }")
    page.wait_for_function("document.querySelectorAll('.math-display[tabindex]').length == 0")
    page.add_style_tag(content=".post-body .math-display { width: 20px; }")
    page.wait_for_function("document.querySelectorAll('.math-display[tabindex]').length == 2")
    sizes = page.eval_on_selector_all(
        ".post-body .math-display", "es => es.map(e => e.scrollWidth > e.clientWidth)"
    )
    assert sizes == [True, True]  # both scroll now, so both take the focus


def test_without_javascript_every_such_box_stays_focusable(browser, boxes_url):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(boxes_url)
    code, formulas, tables = page.evaluate(BOXES.replace("() =>", "(() =>") + ")()")
    context.close()
    assert all(focusable for found in (code, formulas, tables) for _, focusable in found)
