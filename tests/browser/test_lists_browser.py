"""Task lists and definition lists in Debian's Chromium: no bullet beside a checkbox, the
checkbox in the text's margin, each one labelled (axe)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

BODY = """\
A paragraph before the lists.

- [x] Derive the gradient of $\\log p(x)$
- [ ] Check it numerically

Score
: The gradient of the log-density, $\\nabla_x \\log p(x)$.
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lists")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    write_article_page(root, "Lists", body)
    return root


def test_task_items_have_no_bullet_and_their_checkbox_starts_at_the_text_edge(
    page, site, serve_dir
):
    page.set_viewport_size({"width": 1000, "height": 800})
    page.goto(serve_dir(site))
    found = page.evaluate(
        """() => {
          const text = document.querySelector(".post-body > p").getBoundingClientRect();
          return Array.from(document.querySelectorAll(".task-list-item")).map((item) => [
            getComputedStyle(item).listStyleType,
            item.querySelector("input").getBoundingClientRect().left - text.left,
            item.querySelector("input").checked,
          ]);
        }"""
    )
    assert [row[0] for row in found] == ["none", "none"]
    assert [row[2] for row in found] == [True, False]
    for _, offset, _ in found:
        assert offset == pytest.approx(0, abs=2)


def test_lists_pass_axe(page, site, serve_dir):
    page.goto(serve_dir(site))
    assert page.locator("dl > dt").inner_text() == "Score"
    assert run_axe(page) == []
