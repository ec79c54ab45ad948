"""The links plugin: root-absolute paths under the base path, links between posts' sources."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file
from support.markdown import render_post

from postil.markdown import create_markdown, render_markdown
from postil.markdown.links import links_plugin
from postil.markdown.references import resolve
from postil.markdown.state import RenderState

FIXTURES = Path(__file__).parents[1] / "fixtures" / "links.md"
LINKS = {
    "content/posts/here.md": "posts/here/",
    "content/posts/other.md": "posts/other/",
    "content/posts/my notes.md": "posts/my-notes/",
    "content/posts/bundle/index.md": "posts/bundle/",
    "content/about.md": "about/",
}


def fixture_state() -> RenderState:
    return RenderState(path="content/posts/here.md", links=LINKS, base_path="/blog/")


@pytest.mark.parametrize(
    ("line", "title", "source", "expected"),
    read_fixture_file(FIXTURES),
    ids=[f"{line}:{title}" for line, title, _, _ in read_fixture_file(FIXTURES)],
)
def test_links_fixture_renders_expected_html(line, title, source, expected):
    md = MarkdownIt("commonmark")
    links_plugin(md)
    assert md.render(source, {"postil": fixture_state()}).rstrip() == expected.rstrip()


def test_link_to_a_missing_post_warns_at_its_line_and_column():
    state = RenderState(path="content/posts/here.md", body_line=5, links=LINKS)
    render_markdown(create_markdown(), "Intro.\n\nSee [gone](missing.md#top) now.\n", state)
    (warning,) = state.diagnostics
    assert str(warning.location) == "content/posts/here.md:7:12"
    assert (
        "link to `missing.md#top`: no published post or page has that source file"
        in warning.message
    )


def test_link_to_a_missing_zola_source_names_the_file_it_looked_for_under_content():
    state = RenderState(path="content/posts/here.md", body_line=1, links=LINKS)
    render_markdown(create_markdown(), "[Last time](@/post/part-1.md) we saw\n", state)
    (warning,) = state.diagnostics
    assert str(warning.location) == "content/posts/here.md:1:13"
    assert warning.message == (
        "link to `@/post/part-1.md`: no published post or page has that source file "
        "content/post/part-1.md (a draft or future post is left out); fix the path (it is "
        "relative to content/) or link to the URL"
    )


def test_links_inside_notes_and_figure_images_are_rewritten_by_the_full_parser():
    body = "Text.[^n]\n\n![Cap](/img/a.png){#fig-a}\n\n[^n]: See [o](other.md) and ![i](/i.png).\n"
    state = RenderState(path="content/posts/here.md", links=LINKS, base_path="/blog/")
    html = render_markdown(create_markdown(), body, state).html
    assert '<img src="/blog/img/a.png" alt="Cap">' in html
    assert html.count('href="/blog/posts/other/"') == 2  # margin copy and Notes list
    assert 'src="/i.png"' not in html and 'src="/blog/i.png"' in html
    assert not state.diagnostics


def test_user_site_base_path_keeps_root_absolute_links_unchanged():
    state = RenderState(path="content/posts/a.md", links={}, base_path="/")
    assert resolve("/img/x.png", state).url == "/img/x.png"
    state = RenderState(path="content/posts/a.md", links=LINKS, base_path="/")
    assert resolve("b.md", state).url is None


def test_a_root_absolute_path_with_doubled_slashes_is_read_as_a_web_server_reads_it():
    state = RenderState(path="content/posts/a.md", links=LINKS, base_path="/blog/")
    assert resolve("/assets/p//plot-1.svg?v=2#top", state) == (
        "/blog/assets/p/plot-1.svg?v=2#top",
        "assets/p/plot-1.svg",
    )
    assert resolve("//cdn.example.org/a.js", state) == ("//cdn.example.org/a.js", "")


def test_a_link_to_a_draft_warns_unless_drafts_are_built(tmp_path):
    from support.sites import make_site

    from postil.build import BuildOptions, build

    a = "---\ntitle: A\ndate: 2024-01-01\n---\n[d](d.md)\n"
    d = "---\ntitle: D\ndate: 2024-01-01\ndraft: true\n---\n"
    root = make_site(tmp_path / "site", {"a.md": a, "d.md": d})
    (warning,) = build(BuildOptions(root=root, cache=False)).warnings
    assert str(warning.location) == "content/posts/a.md:5:5"
    assert "a draft or future post is left out" in warning.message
    assert build(BuildOptions(root=root, cache=False, drafts=True)).warnings == ()


def test_links_to_markdown_and_quarto_sources_are_links_to_their_pages():
    links = {**LINKS, "content/posts/rl.markdown": "posts/rl/", "content/posts/q.qmd": "posts/q/"}
    links["content/posts/Win.MD"] = "posts/win/"  # Jekyll reads a `.MD` ending as Markdown
    state = RenderState(path="content/posts/here.md", links=links, base_path="/blog/")
    text = "[a](rl.markdown) [b](q.qmd#x) [c](Win.MD)\n"
    html = render_markdown(create_markdown(), text, state).html
    assert '<a href="/blog/posts/rl/">a</a>' in html
    assert '<a href="/blog/posts/q/#x">b</a>' in html
    assert '<a href="/blog/posts/win/">c</a>' in html


def test_pelican_links_in_raw_html_and_tags_are_checked_against_the_built_site():
    state = RenderState(path="content/posts/here.md", links=LINKS, base_path="/blog/")
    body = '<img src="{static}/images/x.png" width="50%" alt="X">\n\nSee [t]({tag}Deep%20Nets).\n'
    rendered = render_markdown(create_markdown(), body, state)
    assert '<img src="/blog/images/x.png" width="50%" alt="X">' in rendered.html
    assert '<a href="/blog/tags/deep-nets/">t</a>' in rendered.html
    assert [r.target for r in rendered.references] == ["tags/deep-nets/index.html", "images/x.png"]
    assert state.diagnostics == []


def test_a_link_markdown_refuses_to_make_stays_text_with_a_warning_at_it():
    """markdown-it (as every CommonMark renderer) makes no link of a `javascript:`,
    `vbscript:`, `file:` or non-image `data:` URL: the text was shown as written, silently."""
    text = "A [run](JavaScript:alert(5)) and [f]( file:///etc/x) [ok](https://x.org).\n"
    html, warnings = render_post(text + "\n![i](data:image/png;base64,AAAA) `[c](javascript:x)`\n")
    assert "[run](JavaScript:alert(5))" in html and '<a href="https://x.org">ok</a>' in html
    assert [w.split(": warning: ")[0] for w in warnings] == ["post.md:1:3", "post.md:1:34"]
    assert "a link to a `javascript:` URL is shown as its text" in warnings[0]
    assert "a link to a `file:` URL" in warnings[1]
