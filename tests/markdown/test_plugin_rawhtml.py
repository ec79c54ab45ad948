"""The raw HTML plugin: references in raw HTML resolved and recorded like Markdown's."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file

from postil.markdown import create_markdown, render_markdown
from postil.markdown.links import links_plugin
from postil.markdown.rawhtml import rawhtml_plugin, rewrite_html
from postil.markdown.state import RenderState

FIXTURES = Path(__file__).parents[1] / "fixtures" / "rawhtml.md"
LINKS = {"content/posts/here.md": "posts/here/", "content/posts/other.md": "posts/other/"}
ASSETS = {"content/posts/plot.png": "posts/plot.png"}


def fixture_state(**fields) -> RenderState:
    fields = {"path": "content/posts/here.md", "links": LINKS, "assets": ASSETS} | fields
    return RenderState(base_path="/blog/", **fields)


@pytest.mark.parametrize(
    ("line", "title", "source", "expected"),
    read_fixture_file(FIXTURES),
    ids=[f"{line}:{title}" for line, title, _, _ in read_fixture_file(FIXTURES)],
)
def test_rawhtml_fixture_renders_expected_html(line, title, source, expected):
    md = MarkdownIt("commonmark")
    links_plugin(md)
    rawhtml_plugin(md)
    assert md.render(source, {"postil": fixture_state()}).rstrip() == expected.rstrip()


def test_raw_html_references_are_recorded_with_their_line_and_column():
    body = "Intro.\n\n<p>\n  <img alt=x src='/img/nope.png'>\n</p>\n\nText <img src=\"a.png\">.\n"
    state = fixture_state(body_line=4)
    content = render_markdown(create_markdown(), body, state)
    found = [(r.target, r.url, str(r.location)) for r in content.references]
    assert found == [
        ("img/nope.png", "/img/nope.png", "content/posts/here.md:7:19"),
        ("posts/here/a.png", "a.png", "content/posts/here.md:10:16"),
    ]


def test_a_raw_link_to_a_missing_source_file_warns():
    state = fixture_state()
    render_markdown(create_markdown(), '<a href="gone.md">g</a>\n', state)
    (warning,) = state.diagnostics
    assert "link to `gone.md`: no published post or page" in warning.message


def test_rewrite_html_keeps_unchanged_tags_and_text_exactly():
    html = '<p class=a>x &amp; <b>y</b></p>\n<img\n  src="/a.png">'
    out = rewrite_html(html, lambda url: "/base" + url)
    assert out == '<p class=a>x &amp; <b>y</b></p>\n<img src="/base/a.png">'
    assert rewrite_html(html, lambda url: url) is html


def test_rewrite_html_reports_ids():
    ids: list[str] = []
    rewrite_html("<div id=\"main\"><span id='k'></span></div>", lambda u: u, ids.append)
    assert ids == ["main", "k"]
