"""Heading plugin: unique ids that never collide with notes or figures, and the toc."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from postil.markdown import TocEntry
from postil.markdown.figure import figure_plugin
from postil.markdown.heading import heading_plugin, slug_for
from postil.markdown.math import math_plugin
from postil.markdown.rendered import section_level
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
    ("levels", "sections"),
    [
        ("1 2 2 2 3", 2),  # a lone `#` repeating the title: the `##` are the sections
        ("1 2 1 2 1 2 2", 1),  # `#` sections (Jekyll, Hakyll, mdBook posts), `##` below
        ("1 2 2 2 1", 2),  # two `#` and three `##`: the three
        ("1 4 4 4 4", 4),  # a Franklin post of `####` headings
        ("2 3 2 3", 2),  # fewer than three at every level: the shallowest used twice
        ("3", 3),
        ("", None),
    ],
)
def test_the_section_level_is_the_shallowest_used_three_times_then_twice_then_once(
    levels, sections
):
    entries = [TocEntry(int(level), f"h{i}", "x") for i, level in enumerate(levels.split())]
    assert section_level(entries) == sections


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
