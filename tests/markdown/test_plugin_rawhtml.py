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


def warnings_of(body: str, path: str = "content/posts/here.md") -> list[tuple[int, int, str]]:
    state = fixture_state(path=path)
    state.source_lines = body.split("\n")
    render_markdown(create_markdown(), body, state)
    return [(d.location.line, d.location.col, d.message) for d in state.diagnostics]


def test_a_tag_naming_no_html_element_without_partner_is_warned_at_its_place():
    body = (
        "Intro.\n\nSee std::unique_ptr<T> and [<stdexcept>](http://x.org/),\n"
        "a stray </vector> too.\n"
    )
    found = warnings_of(body)
    assert [(line, col) for line, col, _ in found] == [(3, 20), (3, 29), (4, 9)]
    assert found[0][2] == (
        "`<T>` is read as an HTML tag, and names no HTML element: a browser shows nothing "
        "for it; write `\\<T>` or put it in a code span (`` `…` ``) to show it"
    )


@pytest.mark.parametrize(
    "body",
    [
        "A <foo>kept</foo> element shows its text; <T>x</T> too.\n",  # partners
        "A <my-widget> custom element, <b>bold</b>, <center>old</center>, <br>.\n",
        "A <my-widget /> custom element, <br/>, <Div/>.\n",  # self-closed, but elements
        "<Tabs>\n\nShown.\n\n</Tabs>\n",  # a component around Markdown shows it
        '<svg>\n\n<circle r="2"/>\n\n</svg>\n',  # SVG's elements across blank lines
        '<svg width="4" height="4"><g><circle r="2"/></g></svg> and <g> in SVG.\n',
        "`<T>` in code, \\<T> escaped, <!-- <T> --> in a comment.\n",
        "```\nstd::vector<T>\n```\n",
    ],
)
def test_elements_components_svg_and_code_are_not_unknown_tags(body):
    assert warnings_of(body) == []


def test_a_self_closed_component_in_a_markdown_post_is_warned_in_a_line_and_alone():
    """A component (Vue's, MDX's, a theme's) shows nothing in a `.md` post: said where
    (humanspeak/svelte-markdown#383: "silently dropped … no warning")."""
    body = (
        'Intro.\n\nA <Catalog /> here.\n\n<BlockMath math="x^2"/>\n\nA <Pair></Pair> shows.\n\n'
        '<BlockMath math="y"/> is told once, as the first.\n'
    )
    found = warnings_of(body)
    assert [(line, col, message.split("`")[1]) for line, col, message in found] == [
        (3, 3, "<Catalog />"),
        (5, 1, '<BlockMath math="x^2"/>'),
    ]
    assert found[0][2].endswith(
        "names no HTML element, so a browser shows nothing for it: a component (Vue's, "
        "MDX's, a theme's) is not run in a Markdown post; write what it shows as Markdown "
        "or HTML, or remove it"
    )


def test_mdx_components_are_left_to_the_mdx_plugin():
    assert not [w for w in warnings_of("A <T>.\n", "content/posts/x.mdx") if "HTML tag" in w[2]]


def test_an_unknown_tag_is_told_once_a_post_at_its_place_outside_code_spans():
    body = "Code `Vec<T>` then real Vec<T> and Vec<T>.\n\nAgain Vec<T> and `<K>` then <K>.\n"
    found = warnings_of(body)
    assert [(line, col, message[:5]) for line, col, message in found] == [
        (1, 28, "`<T>`"),  # after the code span holding the same text
        (3, 29, "`<K>`"),
    ]


def test_quarto_markdown_in_raw_html_is_warned_once_where_it_is_written():
    # quarto-dev/quarto-cli#5730: Quarto renders `data-qmd` into its empty element; postil
    # does not, so the cell would be empty without a word
    body = (
        'Before.\n\n<table>\n<tr><td><span data-qmd="_One_"></span></td>'
        '<td><span data-qmd-base64="X1R3b18="></span></td></tr>\n</table>\n'
    )
    state = RenderState(path="post.qmd")
    render_markdown(create_markdown(), body, state)
    assert [str(d) for d in state.diagnostics] == [
        "post.qmd:4:15: warning: `data-qmd` (Quarto's Markdown inside raw HTML) is not "
        "rendered, so its element shows nothing: write the content as HTML inside the "
        "element, or the table as a Markdown table"
    ]
    # negative: other data attributes, and the word in prose or code, say nothing
    state = RenderState(path="post.qmd")
    text = '<span data-quarto="x">y</span> and `data-qmd="z"` and data-qmd="w".\n'
    render_markdown(create_markdown(), text, state)
    assert not state.diagnostics
