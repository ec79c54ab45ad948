"""Pandoc grid tables: what their cells hold is checked as the cell's own text."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

CLOSED = (
    "+----------------+------+\n"
    "| Code           | Note |\n"
    "+================+======+\n"
    "| ```python      | a    |\n"
    "| x = 1          |      |\n"
    "| ```            |      |\n"
    "+----------------+------+\n"
)


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/a.md", body_line=5)
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_a_closed_code_fence_in_a_grid_cell_is_code_without_a_warning():
    html, problems = render(CLOSED)
    assert problems == []
    assert '<td>\n<figure class="code">' in html and "x</span>" in html


def test_an_unclosed_code_fence_in_a_grid_cell_warns_at_its_line():
    body = CLOSED.replace("| ```            |      |\n", "|                |      |\n")
    _, problems = render(body)
    assert problems == [
        "content/posts/a.md:8:1: code fence ``` is never closed, so everything after it in "
        "the list item, quote or table cell it is in shows as code; add a line ``` where the "
        "code ends"
    ]
