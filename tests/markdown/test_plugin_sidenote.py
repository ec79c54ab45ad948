"""Sidenote plugin: diagnostics (exact text and file line) and the structure of its output."""

from __future__ import annotations

import html5lib
from markdown_it import MarkdownIt

from postil.errors import Severity
from postil.markdown.sidenote import sidenote_plugin
from postil.markdown.state import RenderState

BODY_LINE = 5  # the Markdown body starts on file line 5, after the front matter


def render(source: str) -> tuple[str, RenderState]:
    md = MarkdownIt("commonmark").enable("table")
    sidenote_plugin(md)
    state = RenderState(path="post.md", body_line=BODY_LINE)
    return md.render(source, {"postil": state}), state


def messages(state: RenderState) -> list[str]:
    return [str(diagnostic) for diagnostic in state.diagnostics]


def test_undefined_note_warns_at_its_line_and_column():
    _, state = render("Intro.\n\nSome text\nthen [^nope] here.\n")
    assert messages(state) == [
        "post.md:8:6: warning: note [^nope] is referenced but never defined; add a line "
        '"[^nope]: text" below the paragraph, or write \\[^nope] for literal text'
    ]
    assert state.diagnostics[0].severity is Severity.WARNING
    assert state.diagnostics[0].source_line == ""  # no source_lines given: no excerpt


def test_undefined_note_inside_a_list_item_reports_its_column():
    _, state = render("- item with [^gone]\n")
    assert [d.location.line for d in state.diagnostics] == [BODY_LINE]
    assert [d.location.col for d in state.diagnostics] == [13]


def test_duplicate_definition_warns_at_the_second_and_names_the_first():
    _, state = render("Text.[^d]\n\n[^d]: First.\n[^d]: Second.\n")
    assert messages(state) == [
        "post.md:8:1: warning: note [^d] is defined twice (first on line 7); the first "
        "definition is used: rename one of the labels or delete the duplicate"
    ]


def test_unreferenced_definition_warns_and_is_left_out():
    html, state = render("Text.\n\n[^orphan]: Nobody.\n")
    assert messages(state) == [
        "post.md:7:1: warning: note [^orphan] is defined but never referenced, so it is left "
        "out of the page; add [^orphan] where it belongs or delete the definition"
    ]
    assert "Nobody" not in html


def test_clean_notes_report_nothing():
    _, state = render("A[^1] and a margin note[^m].\n\n[^1]: One.\n[^m]: {-} Aside.\n")
    assert state.diagnostics == []


def test_literal_reference_text_never_reaches_the_page():
    html, _ = render("Text[^nope] and[^x].\n\n[^x]: Defined.\n")
    assert "[^" not in html


def test_margin_note_is_outside_the_notes_list_and_not_hidden_from_screen_readers():
    html, _ = render("A[^n] B[^m]\n\n[^n]: Numbered.\n[^m]: {-} Margin.\n")
    document = html5lib.parse(html, namespaceHTMLElements=False)
    margin = document.find(".//span[@class='marginnote']")
    assert margin is not None and margin.get("aria-hidden") is None
    items = document.findall(".//section[@class='footnotes']/ol/li")
    assert ["".join(li.itertext()).strip() for li in items] == ["Numbered. \u21a9\ufe0e"]


def test_every_toggle_controls_an_existing_note_and_ids_are_unique():
    html, _ = render("A[^a] B[^a] C[^m] D[^m]\n\n[^a]: Note.\n[^m]: {-} Margin.\n")
    document = html5lib.parse(html, namespaceHTMLElements=False)
    ids = [element.get("id") for element in document.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    for button in document.iter("button"):
        assert button.get("aria-controls") in ids
        assert button.get("aria-expanded") == "false"
        assert button.get("aria-label") in ("Note 1", "Margin note")


def test_margin_copy_of_a_note_is_phrasing_content_only():
    source = "Text.[^long]\n\n[^long]: One.\n\n    Two *b*.\n\n    ```\n    code\n    ```\n"
    html, _ = render(source)
    document = html5lib.parse(html, namespaceHTMLElements=False)
    paragraph = document.find(".//p")
    block_tags = {"p", "div", "pre", "ul", "ol", "figure", "section"}
    inside = list(paragraph.iter())[1:]  # iter() starts with the paragraph itself
    assert not [element.tag for element in inside if element.tag in block_tags]
    sidenote = paragraph.find(".//span[@class='sidenote']")
    assert "".join(sidenote.itertext()) == "1 One.Two b.code"


def test_a_math_error_in_an_inline_note_is_reported_at_its_own_line_and_column():
    from postil.markdown import create_markdown, render_markdown

    source = "Intro.\n\n- A claim^[bad $a + \\foo$ here] and^[fine] end.\n"
    state = RenderState(path="post.md")
    state.source_lines = source.split("\n")
    html = render_markdown(create_markdown(), source, state).html
    assert [(d.location.line, d.location.col) for d in state.diagnostics] == [
        (3, source.split("\n")[2].index("\\foo") + 1)
    ]
    assert html.count('class="sidenote"') == 2


def test_empty_note_definition_warns_at_its_marker():
    # markdown-it/markdown-it-footnote#36: text after `[^id]:` or on the next line is the
    # note's; with another definition (or a blank line) after the marker it has none
    _, state = render("Text.[^a][^b]\n\n[^a]:\n[^b]:\n\nPara.\n")
    assert messages(state) == [
        f"post.md:{line}:1: warning: footnote `[^{label}]` has no text; write it after "
        f"`[^{label}]:` or on the next line, and indent its later paragraphs by four spaces"
        for line, label in ((7, "a"), (8, "b"))
    ]


def test_note_inside_a_link_text_warns_at_the_note_with_how_to_write_it():
    # commonmark/commonmark-java#400: a link holds no link, so the outer one is text
    _, state = render("Intro.\n\nSee [the terms[^t]](https://example.com).\n\n[^t]: A note.\n")
    assert messages(state) == [
        "post.md:7:15: warning: note `[^t]` is inside a link's text, so the link shows as "
        "text (a link holds no other link); put the note after the link: `[text](url)[^t]`"
    ]


def test_note_referenced_only_inside_raw_html_says_so_and_how_to_fix():
    # alphagov/govspeak#69: `<p>…[^1]</p>` is raw HTML; its `[^1]` is no reference
    _, state = render("Intro.\n\n<p>Some text[^1]</p>\n\n[^1]: The note.\n")
    assert messages(state) == [
        "post.md:9:1: warning: note [^1] is referenced only inside raw HTML (line 7), where "
        "Markdown is not read, so it is left out of the page; write that text in Markdown, "
        'or add markdown="1" to its HTML element'
    ]


def test_spaced_label_messages_name_it_as_written():
    # Python-Markdown's labels hold spaces; messages show the spaces, not their stand-in
    source = "A[^my note] B[^my note].\n\n[^my note]: one\n[^my note]: two\n[^x y]: three\n"
    _, state = render(source)
    assert messages(state) == [
        "post.md:8:1: warning: note [^my note] is defined twice (first on line 7); the first "
        "definition is used: rename one of the labels or delete the duplicate",
        "post.md:9:1: warning: note [^x y] is defined but never referenced, so it is left out "
        "of the page; add [^x y] where it belongs or delete the definition",
    ]


def test_spaced_label_with_nothing_after_it_warns_as_empty():
    html, state = render("See [^a b].\n\n[^a b]:\n\nText.\n")
    assert "footnote `[^a b]` has no text" in messages(state)[0]
    assert "\u00a0" not in html
