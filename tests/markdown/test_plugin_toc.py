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


def test_myst_contents_directive_places_the_toc_there():
    """MyST's (docutils') `{contents}` is the local table of contents where it is written;
    Nikola's MyST pages ask for it at the top. postil left it out, and a page (whose
    template shows no contents of its own) had none. Its options (`:depth:`) are the
    directive's; postil's contents keep their own levels."""
    for fence in ("```{contents} Indice\n:depth: 2\n```", ":::{contents}\n:::"):
        body = f"Intro.\n\n{fence}\n\n## A\n\n## B\n"
        rendered = render_markdown(create_markdown(), body, state := RenderState())
        assert rendered.toc_placed, fence
        assert rendered.html.startswith('<p>Intro.</p>\n<nav class="toc toc-inline"')
        assert rendered.html.count('<li><a href="#') == 2
        assert "depth" not in rendered.html and state.diagnostics == []


def test_jupyter_books_tableofcontents_stays_left_out():
    """Jupyter Book's `{tableofcontents}` lists the book's chapters, not the page's
    sections: still left out, and the page's own contents are not placed."""
    body = "```{tableofcontents}\n```\n\n## A\n\n## B\n\n## C\n"
    rendered = render_markdown(create_markdown(), body, RenderState())
    assert not rendered.toc_placed and "<nav" not in rendered.html
