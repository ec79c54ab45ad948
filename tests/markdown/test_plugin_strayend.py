"""Closing tags in a post's raw HTML that would close the page's elements (`strayend.py`)."""

from __future__ import annotations

import pytest
from support.markdown import render_post

STRAY = (
    "closes no `<{tag}>` this post opened: it would close an element of the page around the post"
)


def test_each_stray_structural_closing_tag_is_a_warning_at_its_place():
    text = "Text.\n\nMore</div></div></article></main>\n\nEnd.\n</section>\n"
    html, warnings = render_post(text)
    assert "</div></div></article></main>" in html  # the author's HTML stays as written
    places = [w.split(": warning: ")[0] for w in warnings]
    assert places == ["post.md:3:5", "post.md:3:11", "post.md:3:17", "post.md:3:27", "post.md:6:1"]
    assert all("`</" in w and "this post opened" in w for w in warnings)
    assert STRAY.format(tag="article") in warnings[2]


@pytest.mark.parametrize(
    "text",
    [
        # a raw `<div>` block around Markdown, closed by a later block
        '<div class="note">\n\nSome *Markdown*.\n\n</div>\n',
        # opened and closed inline, across lines of one paragraph
        "A <span>b</span> and <div>c\nd</div>.\n",
        # nested, with implied closes and void elements on the way
        "<details><summary>s</summary>\n\n<ul><li>a<li>b<br></ul>\n\n</details>\n",
        # a stray closing tag of no layout element, and closing tags in code
        "x</span> y</p>\n\n`</div>`\n\n```html\n</main>\n```\n",
        # `<div/>` in a block: rawhtml closes it, so nothing is stray
        '<div id="x"/>\n\ntext\n',
    ],
)
def test_closing_tags_that_pair_in_the_post_or_close_no_layout_are_no_warning(text):
    assert render_post(text)[1] == []
