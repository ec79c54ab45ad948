"""kramdown's `{:toc}` marker: the table of contents in place, and not twice on the page."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

BODY = "* TOC\n{:toc}\n\n## A\n\n## B\n\n## C\n"


def test_the_marker_places_the_toc_and_says_so():
    state = RenderState()
    rendered = render_markdown(create_markdown(), BODY, state)
    assert rendered.toc_placed
    assert rendered.html.startswith('<nav class="toc toc-inline" aria-label="Contents">')
    assert rendered.html.count('<li><a href="#') == 3
    assert state.diagnostics == []


def test_a_post_without_the_marker_leaves_the_toc_to_the_page():
    rendered = render_markdown(create_markdown(), "## A\n\n## B\n\n## C\n", RenderState())
    assert not rendered.toc_placed and len(rendered.toc) == 3


def test_a_one_line_marker_of_another_tool_places_the_toc_and_says_so():
    # Hexo's markdown-it renderers write `@[toc]`; VitePress `[[toc]]`; Python-Markdown `[TOC]`.
    for marker in ("@[toc]", "[[toc]]", "[TOC]"):
        rendered = render_markdown(
            create_markdown(), f"{marker}\n\n## A\n\n## B\n", state := RenderState()
        )
        assert rendered.toc_placed
        assert rendered.html.count('<li><a href="#') == 2
        assert marker not in rendered.html and state.diagnostics == []
