"""The links plugin: root-absolute paths under the base path, links between posts' sources."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file
from support.markdown import render_post

from postil.errors import Location
from postil.markdown import create_markdown, render_markdown
from postil.markdown.links import links_plugin
from postil.markdown.references import resolve
from postil.markdown.rendered import SourceLink
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


def test_link_to_a_missing_post_is_recorded_at_its_line_and_column_not_warned_yet():
    # why no page has it (a draft, a post to come, no file) is told by `postil.sourcelinks`
    state = RenderState(path="content/posts/here.md", body_line=5, links=LINKS)
    content = render_markdown(
        create_markdown(), "Intro.\n\nSee [gone](missing.md#top) now.\n", state
    )
    assert state.diagnostics == []
    assert content.source_links == (
        SourceLink(
            "content/posts/missing.md", "missing.md#top", Location("content/posts/here.md", 7, 12)
        ),
    )
    assert 'href="missing.md#top"' in content.html  # left as written


def test_link_to_a_missing_zola_source_names_the_file_it_looked_for_under_content():
    state = RenderState(path="content/posts/here.md", body_line=1, links=LINKS)
    content = render_markdown(create_markdown(), "[Last time](@/post/part-1.md) we saw\n", state)
    assert content.source_links == (
        SourceLink(
            "content/post/part-1.md", "@/post/part-1.md", Location("content/posts/here.md", 1, 13)
        ),
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
    resolved = resolve("/assets/p//plot-1.svg?v=2#top", state)
    assert (resolved.url, resolved.target) == (
        "/blog/assets/p/plot-1.svg?v=2#top",
        "assets/p/plot-1.svg",
    )
    resolved = resolve("//cdn.example.org/a.js", state)
    assert (resolved.url, resolved.target) == ("//cdn.example.org/a.js", "")


def test_a_relative_path_written_from_the_pages_url_names_the_asset_there():
    # Hugo publishes `quantum/gates.md` at `quantum/gates/`: `../images/x.png` is
    # `quantum/images/x.png`, where the docs page's images sit beside its file
    assets = {
        "content/posts/quantum/images/x.png": "posts/quantum/images/x.png",
        "content/posts/quantum/y.png": "posts/quantum/y.png",
        "content/posts/y.png": "posts/y.png",
    }
    state = RenderState(path="content/posts/quantum/gates.md", links={}, assets=assets)
    resolved = resolve("../images/x.png", state)
    assert (resolved.url, resolved.target) == (
        "/posts/quantum/images/x.png",
        "posts/quantum/images/x.png",
    )
    # negative: the file-relative reading wins where it names an asset
    assert resolve("../y.png", state).url == "/posts/y.png"
    assert resolve("y.png", state).url == "/posts/quantum/y.png"
    # negative: a bundle's index.md has its folder as its URL already
    index = "content/posts/quantum/index.md"
    bundle = RenderState(path=index, links={index: "posts/quantum/"}, assets=assets)
    resolved = resolve("../images/x.png", bundle)
    assert (resolved.url, resolved.target) == ("../images/x.png", "posts/images/x.png")


def test_a_folder_link_at_the_generators_url_of_a_page_is_that_pages_url():
    # Hugo publishes `content/cryptography/DH_DLog.md` at `cryptography/dh_dlog/` (the
    # file's path, lower case); postil's slug is `dh-dlog`. A Hextra section links it as
    # `dh_dlog/`, another page as `../../cryptography/dh_dlog/` or `/cryptography/dh_dlog/`
    links = {
        "content/cryptography/_index.md": "cryptography/",
        "content/cryptography/DH_DLog.md": "cryptography/dh-dlog/",
        "content/cryptography/RSA/_index.md": "cryptography/rsa/",
        "content/intro/security_hardness.md": "intro/security-hardness/",
        "content/intro/gates/index.md": "intro/gates/",
    }
    section = RenderState(path="content/cryptography/_index.md", links=links)
    assert resolve("dh_dlog/", section).url == "/cryptography/dh-dlog/"
    assert resolve("DH_DLog/#proof", section).url == "/cryptography/dh-dlog/#proof"
    assert resolve("rsa", section).url == "/cryptography/rsa/"
    page = RenderState(path="content/intro/security_hardness.md", links=links)
    assert resolve("../../cryptography/", page).url == "/cryptography/"
    assert resolve("../../cryptography/dh_dlog/", page).url == "/cryptography/dh-dlog/"
    assert resolve("/cryptography/dh_dlog/", page).url == "/cryptography/dh-dlog/"
    assert resolve("../gates/", page).url == "/intro/gates/"  # the file's folder's reading
    # negatives: no such page stays a path to check; a file name is never a page's
    missing = resolve("../../cryptography/ecc/", page)
    assert (missing.url, missing.target) == (
        "../../cryptography/ecc/",
        "cryptography/ecc",
    )
    assert resolve("dh_dlog.pdf", section).url == "dh_dlog.pdf"


def test_a_link_to_a_pages_html_name_elsewhere_is_that_pages_url():
    # Pelican's `{slug}.html`, Jekyll's `/2016/05/31/rl.html`, Hugo's ugly `posts/x.html`
    links = {
        "content/posts/2016-05-31-rl.md": "posts/rl/",
        "content/posts/causality1.md": "posts/ladder/",
        "content/notes/about.md": "notes/about/",
        "content/posts/a.md": "posts/a/",
        "content/posts/twins/a.md": "posts/twins-a/",
    }
    state = RenderState(path="content/posts/b.md", links=links)
    assert resolve("/2016/05/31/rl.html#top", state).url == "/posts/rl/#top"
    assert resolve("ladder.html", state).url == "/posts/ladder/"  # its slug
    assert resolve("causality1.html", state).url == "/posts/ladder/"  # its file's name
    assert resolve("../notes/About.htm", state).url == "/notes/about/"
    # negatives: two pages of the name, no page of it, or another file ending
    assert resolve("a.html", state).url == "a.html"
    assert resolve("/missing.html", state).url == "/missing.html"
    assert resolve("ladder.pdf", state).url == "ladder.pdf"


def test_a_link_to_a_draft_warns_unless_drafts_are_built(tmp_path):
    from support.sites import make_site

    from postil.build import BuildOptions, build

    a = "---\ntitle: A\ndate: 2024-01-01\n---\n[d](d.md)\n"
    d = "---\ntitle: D\ndate: 2024-01-01\ndraft: true\n---\n"
    root = make_site(tmp_path / "site", {"a.md": a, "d.md": d})
    (warning,) = build(BuildOptions(root=root, cache=False)).warnings
    assert str(warning.location) == "content/posts/a.md:5:5"
    assert warning.message.startswith(
        "link to `d.md`: content/posts/d.md is a draft, left out of this build"
    )
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
