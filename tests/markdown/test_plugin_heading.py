"""Heading plugin: unique ids that never collide with notes or figures, and the toc."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from postil.markdown import TocEntry
from postil.markdown.figure import figure_plugin
from postil.markdown.heading import heading_plugin, slug_for
from postil.markdown.math import math_plugin
from postil.markdown.rendered import contents
from postil.markdown.sidenote import sidenote_plugin
from postil.markdown.state import RenderState


def render(source: str) -> tuple[str, RenderState]:
    md = MarkdownIt("commonmark")
    for plugin in (sidenote_plugin, figure_plugin, heading_plugin):
        plugin(md)
    state = RenderState()
    return md.render(source, {"postil": state}), state


def test_toc_holds_every_heading_with_plain_text_in_order():
    _, state = render(
        "# Title\n\n## The *one* line[^1]\n\n### Sub `code`\n\n#### Deep\n\n[^1]: N.\n"
    )
    assert state.extra["toc"] == [
        TocEntry(1, "title", "Title", "Title"),
        TocEntry(2, "the-one-line", "The one line", "The one line"),
        TocEntry(3, "sub-code", "Sub code", "Sub code"),
        TocEntry(4, "deep", "Deep", "Deep"),
    ]


@pytest.mark.parametrize(
    ("levels", "title", "shown"),
    [
        # `#` sections (Jekyll, Hakyll, mdBook posts), `##` nested under them
        ("1:A 2:a 2:b 1:B 2:c", "", "A(a b) B(c)"),
        ("1:Intro 3:x 3:y 3:z", "", "Intro(x y z)"),  # the next level used, not the next number
        ("1:T 2:a 2:b 2:c", "T", "a b c"),  # a `#` repeating the title is no section
        ("1:Other 2:a 2:b", "T", "Other(a b)"),  # one that does not is
        ("4:a 4:b", "", "a b"),  # a Franklin post of `####` headings
        ("2:a 3:x 4:deep 2:b", "", "a(x) b"),  # deeper than the next level: left out
        ("3:x 2:a 3:y", "", "x a(y)"),  # before any section: one of its own
        ("", "", ""),
    ],
)
def test_contents_are_the_shallowest_level_with_the_next_level_nested(levels, title, shown):
    entries = [
        TocEntry(int(level), text, text) for level, text in (x.split(":") for x in levels.split())
    ]
    groups = contents(entries, title)
    assert (
        " ".join(
            e.text + (f"({' '.join(c.text for c in children)})" if children else "")
            for e, children in groups
        )
        == shown
    )


def test_heading_ids_skip_figure_ids_and_the_notes_heading():
    html, _ = render("![A](a.png){#results}\n\n## Results\n\n## Notes[^n]\n\n[^n]: N.\n")
    assert '<h2 id="results-1">' in html
    assert '<h2 id="sec-notes">' in html
    assert html.count('id="notes"') == 1


def test_slugs_keep_unicode_letters_and_never_start_with_a_note_prefix():
    assert slug_for("Über σ-Algebren") == "über-σ-algebren"
    assert slug_for("fn 2") == "sec-fn-2"
    assert slug_for("Sn-1 norms") == "sec-sn-1-norms"
    assert slug_for("!!!") == "section"


def test_same_text_gives_same_id_across_builds():
    first, _ = render("## Attention, from the softmax up\n")
    second, _ = render("## Attention, from the softmax up\n")
    assert first == second
    assert 'id="attention-from-the-softmax-up"' in first


def test_math_without_a_text_form_leaves_its_tex_out_of_the_id():
    md = MarkdownIt("commonmark")
    for plugin in (math_plugin, heading_plugin):
        plugin(md)
    state = RenderState()
    html = md.render("## A $\\begin{matrix}a & b\\end{matrix}$ bound\n", {"postil": state})
    assert '<h2 id="a-a-b-bound">' in html
    (entry,) = state.extra["toc"]
    assert entry.text == "A \\begin{matrix}a & b\\end{matrix} bound"
    assert entry.html.startswith("A <math") and entry.html.endswith("</math> bound")


def test_math_in_a_heading_uses_the_macros_in_force():
    md = MarkdownIt("commonmark")
    for plugin in (math_plugin, heading_plugin):
        plugin(md)
    state = RenderState(macros={"RR": r"\mathbb{R}"})
    md.render("$\\newcommand{\\E}{\\mathbb{E}}$\n\n## $\\E$ over $\\RR^n$\n", {"postil": state})
    (entry,) = state.extra["toc"]
    assert (entry.id, entry.text) == ("e-over-rn", "𝔼 over ℝⁿ")
