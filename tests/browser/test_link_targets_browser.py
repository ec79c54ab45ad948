"""Link targets in the author's raw HTML, in Debian's Chromium: `<a name="x"/>` written
self-closed, as kramdown posts do, and `<a id="x">Title</a>`, are targets, not links: what
follows them and what they hold is drawn as text, and only `<a href>` as a link."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
<a name="nice"/>A nice property is that we can sample in closed form, see [the trick](#t).

$$
x_t = \\sqrt{\\alpha_t} x_{t-1}
$$

## A later section

<a id="t">The trick</a> is named here; <span id="k"/>the text goes on.
"""

COLOURS_JS = """() => {
  const colour = el => getComputedStyle(el).color;
  const body = document.querySelector(".post-body");
  const target = body.querySelector("a#t");
  const holder = body.querySelector("p a:not([href])");
  return {
    text: colour(body), link: colour(body.querySelector("a[href]")),
    firstInAnchor: holder !== null && holder.textContent.length > 0,
    heading: colour(body.querySelector("h2")),
    headingInAnchor: body.querySelector("a:not([href]) h2, h2 a:not([href])") !== null,
    math: colour(body.querySelector(".math-display math")),
    target: colour(target), targetLine: getComputedStyle(target).textDecorationLine,
  };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("targets")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    assert '<a name="nice"></a>' in body and '<span id="k"></span>' in body
    write_article_page(root, "Targets", body)
    return root


def test_a_self_closed_anchor_holds_nothing_and_a_target_is_drawn_as_text(page, site, serve_dir):
    page.goto(serve_dir(site))
    found = page.evaluate(COLOURS_JS)
    assert found["link"] != found["text"]  # the one real link looks like one
    assert not found["firstInAnchor"]  # the paragraph is no anchor's content
    assert not found["headingInAnchor"]
    assert found["heading"] != found["link"] and found["math"] == found["text"]
    assert found["target"] == found["text"] and found["targetLine"] == "none"
