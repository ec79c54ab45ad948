"""Ids are unique in a page: headings avoid the template's ids, an id the author writes twice
(or one the page template has) is an error naming both."""

from __future__ import annotations

import re
from pathlib import Path

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.theme import PAGE_IDS, default_theme_dir


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/a.md", body_line=5)
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.severity.value}: {d.message}" for d in state.diagnostics]


def test_a_heading_named_like_the_citation_block_gets_another_id():
    html, problems = render("## Cite this post\n\n## Main\n")
    assert 'id="sec-cite-this-post"' in html and 'id="sec-main"' in html
    assert problems == []


def test_a_heading_avoids_an_id_written_in_raw_html():
    html, problems = render('<div id="results">r</div>\n\n## Results\n')
    assert 'id="results-1"' in html and problems == []


def test_a_figure_id_the_page_template_uses_is_an_error_naming_the_template():
    _, problems = render("Text.\n\n![C](x.png){#main}\n")
    assert problems == [
        "content/posts/a.md:7:1: error: id `main` of the figure is already used by the page "
        "template templates/base.html; ids must be unique in a page: choose another id"
    ]


def test_a_raw_html_id_given_twice_is_a_warning_naming_the_first():
    # the author's own HTML twice (SVG markers pasted with each drawing): the page builds
    _, problems = render('<span id="k"></span>\n\nText <b id="k">b</b>\n')
    assert problems == [
        "content/posts/a.md:7:13: warning: id `k` of raw HTML is already used by raw HTML at "
        "content/posts/a.md:5:11; ids must be unique in a page: choose another id"
    ]


def test_a_raw_html_id_the_page_template_uses_stays_an_error():
    _, problems = render('<div id="main">x</div>\n')
    assert problems == [
        "content/posts/a.md:5:10: error: id `main` of raw HTML is already used by the page "
        "template templates/base.html; ids must be unique in a page: choose another id"
    ]


def test_a_raw_html_id_equal_to_a_figure_id_is_an_error():
    _, problems = render('![C](x.png){#fig-a}\n\n<div id="fig-a"></div>\n')
    assert (
        len(problems) == 1 and "already used by the figure at content/posts/a.md:5" in (problems[0])
    )


def test_distinct_ids_and_ids_in_code_are_fine():
    _, problems = render('<div id="a"></div>\n\n`<div id="a">`\n\n    <b id="a">\n')
    assert problems == []


def test_page_ids_are_the_ids_of_the_default_post_templates():
    templates = default_theme_dir() / "templates"
    found = {}
    for name in ("base.html", "post.html", "page.html", "partials/cite.html"):
        text = Path(templates / name).read_text("utf-8")
        found |= {i: f"templates/{name}" for i in re.findall(r'\bid="([a-z-]+)"', text)}
    assert found == PAGE_IDS


def test_an_attribute_list_id_the_page_template_has_is_an_error_naming_the_template():
    html, problems = render(
        "::: {#main .note}\nx\n:::\n\nText [span]{#cite-apa}.\n\n::: {#fine}\ny\n:::\n"
    )
    assert problems == [
        "content/posts/a.md:5:1: error: id `main` is already used by the page template "
        "templates/base.html; ids must be unique in a page: choose another id",
        "content/posts/a.md:9:1: error: id `cite-apa` is already used by the page template "
        "templates/partials/cite.html; ids must be unique in a page: choose another id",
    ]
    assert 'id="fine"' in html


def test_a_heading_avoids_an_id_an_attribute_list_gives():
    # Pandoc numbers a heading's identifier past every id in the document; two `intro`s
    # would send `#intro` to the div and leave the heading unreachable
    html, problems = render(
        "::: {#intro}\nx\n:::\n\n## Intro\n\nSee [the term]{#terms}.\n\n## Terms\n"
    )
    assert 'id="intro-1">Intro' in html and 'id="terms-1">Terms' in html
    assert html.count('id="intro"') == 1 and html.count('id="terms"') == 1
    assert problems == []


def test_an_attribute_list_id_given_twice_is_a_warning_naming_the_first():
    _, problems = render("[a]{#k} and [b](/x){#k}\n\n::: {#k}\nc\n:::\n")
    assert problems == [
        "content/posts/a.md:5:21: warning: id `k` of the attribute list is already used by the "
        "attribute list at content/posts/a.md:5:5; ids must be unique in a page: choose another id",
        "content/posts/a.md:7:6: warning: id `k` of the attribute list is already used by the "
        "attribute list at content/posts/a.md:5:5; ids must be unique in a page: choose another id",
    ]


def test_an_attribute_list_id_equal_to_raw_html_or_a_figure_id_names_the_earlier():
    _, problems = render('<b id="r">r</b>\n\n[s]{#r}\n\n![C](x.png){#fig-a}\n\n[t]{#fig-a}\n')
    assert problems == [
        "content/posts/a.md:7:5: warning: id `r` of the attribute list is already used by raw "
        "HTML at content/posts/a.md:5:8; ids must be unique in a page: choose another id",
        "content/posts/a.md:11:5: error: id `fig-a` of the attribute list is already used by the "
        "figure at content/posts/a.md:9:1; ids must be unique in a page: choose another id",
    ]


def test_a_heading_id_written_like_an_attribute_list_id_is_the_headings_warning():
    _, problems = render("[a]{#x}\n\n## B {#x}\n")
    assert len(problems) == 1 and "heading id 'x' is already used on this page" in problems[0]


def test_an_attribute_list_id_shaped_like_a_note_id_or_the_notes_section_warns():
    # `{#fn-1}` took the footnote's id: its back-link jumped to the author's span
    _, problems = render(
        "Text[^1] and [x]{#fn-1}.\n\n::: {#notes}\ny\n:::\n\n[z]{#fnord}\n\n[^1]: N.\n"
    )
    assert [p.split(": warning: ")[0] for p in problems] == [
        "content/posts/a.md:5:18",
        "content/posts/a.md:7:6",
    ]
    assert all("of the kind postil gives its own notes" in p for p in problems)
