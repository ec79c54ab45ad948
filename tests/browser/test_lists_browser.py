"""Task lists and definition lists in Debian's Chromium: no bullet beside a checkbox, the
checkbox in the text's margin, each one labelled (axe)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

REPO = Path(__file__).resolve().parents[2]
BODY = """\
A paragraph before the lists.

- [x] Derive the gradient of $\\log p(x)$
- [ ] Check it numerically

Score
: The gradient of the log-density, $\\nabla_x \\log p(x)$.
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lists</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="css/base.css"><link rel="stylesheet" href="css/article.css">
</head><body><main id="main"><article class="post"><div class="post-body">
{body}
</div></article></main></body></html>
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lists")
    (root / "css").mkdir()
    for name in ("base.css", "article.css"):
        (root / "css" / name).write_bytes((REPO / "static/css" / name).read_bytes())
    body = create_markdown().render(BODY, {"postil": RenderState()})
    (root / "index.html").write_text(PAGE.format(body=body), encoding="utf-8")
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
