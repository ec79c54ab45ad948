"""Franklin.jl's Markdown is read in Franklin pages only (`postil.markdown.franklin`): the
same text in another page is CommonMark's (the fixtures, tests/fixtures/franklin.md, are a
Franklin page's)."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

PAGE = "~~~\n<span>raw</span>\n~~~\n\n\\fig{/assets/plot.png}\n\n@def hascode = true\n"


def render(syntax: str) -> str:
    state = RenderState(path="post.md", front_matter_syntax=syntax)
    state.source_lines = PAGE.split("\n")
    return render_markdown(create_markdown(), PAGE, state).html


def test_a_franklin_page_reads_raw_html_and_figures():
    html = render("julia")
    assert "<span>raw</span>" in html and "<pre>" not in html
    assert '<img src="/assets/plot.png"' in html
    assert "@def" not in html


def test_another_page_keeps_commonmark_fences_and_text():
    html = render("yaml")
    assert "<pre" in html and "&lt;span&gt;raw&lt;/span&gt;" in html  # a code block
    assert "\\fig{/assets/plot.png}" in html
    assert "@def hascode = true" in html  # the author's text: only Franklin reads it
