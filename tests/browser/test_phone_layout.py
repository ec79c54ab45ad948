"""A built site on a phone (390 px) in Debian's Chromium: what real posts brought that
widened the page. A neighbour's title of one long word in the older/newer links, the
author's own `<pre>` with a long line (a WordPress export's GHCi session), and an outline
nested twelve deep (Logseq's notes) all stay in the column; the page never scrolls sideways.
"""

from __future__ import annotations

import pytest
from support.web import run_axe

OUTLINE = "".join(
    f"{'  ' * depth}- level {depth} of the outline, some words\n" for depth in range(12)
)

POSTS = {
    "a.md": "---\ntitle: Channel_typical_decoder_for_the_random_coding_argument\n"
    "date: 2026-01-01\n---\n\nThe first post.\n",
    "b.md": "---\ntitle: Middle\ndate: 2026-01-02\n---\n\nA session:\n\n<pre>\nghci> take 50 $ "
    + "1234567890" * 60
    + "\n</pre>\n\n<pre>short</pre>\n\nAn outline:\n\n"
    + OUTLINE,
    "c.md": "---\ntitle: Another_title_written_as_one_long_word_by_a_note_app\n"
    "date: 2026-01-03\n---\n\nThe last post.\n",
}

MEASURE = """() => {
  const page = document.documentElement;
  const pre = document.querySelector(".post-body > pre");
  const items = document.querySelectorAll(".post-body li");
  const deepest = items[items.length - 1].firstChild;
  const range = document.createRange(); range.selectNodeContents(deepest);
  const nav = Array.from(document.querySelectorAll(".post-nav a")).map(
    (a) => a.getBoundingClientRect().right);
  return {overflow: page.scrollWidth - page.clientWidth, viewport: page.clientWidth,
          pre: [pre.scrollWidth, pre.clientWidth], text: range.getBoundingClientRect().width,
          nav};
}"""


@pytest.fixture(scope="module")
def middle_url(served_site) -> str:
    return served_site("phone", POSTS) + "posts/b/"


def test_on_a_phone_nothing_widens_the_page(page, middle_url):
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(middle_url)
    found = page.evaluate(MEASURE)
    assert found["overflow"] == 0
    assert found["pre"][0] > found["pre"][1]  # the long line scrolls in its own box
    assert len(found["nav"]) == 2 and max(found["nav"]) <= found["viewport"]
    assert found["text"] >= 120  # the twelfth level still has a column for its words
    # while it scrolls, article.js makes the author's <pre> focusable, so the arrow keys
    # scroll it in every browser; axe finds nothing
    page.wait_for_selector(".post-body > pre[tabindex='0']", state="attached")
    focusable = page.eval_on_selector_all(".post-body > pre", "ps => ps.map(p => p.tabIndex)")
    assert focusable == [0, -1]  # the short one, which fits, takes no tab stop
    assert run_axe(page) == []
