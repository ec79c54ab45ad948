"""The Markdown extensions other generators' users write, from mdit-py-plugins: definition
lists (kramdown, Goldmark, Pandoc, Python-Markdown), GFM task lists, Pandoc's `H~2~O` and
`x^2^` — and what stays text."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render(body: str) -> str:
    return render_markdown(create_markdown(), body, RenderState()).html


def test_a_definition_list_holds_math_and_notes():
    html = render("Entropy\n: The expected surprise, $H(X)$.[^1]\n\n[^1]: Shannon.\n")
    assert html.startswith("<dl>\n<dt>Entropy</dt>\n<dd>The expected surprise, <span")
    assert "<math" in html and 'class="sidenote"' in html


def test_task_list_items_are_disabled_checkboxes_labelled_by_their_text():
    html = render("- [ ] open *task*\n- [x] done\n")
    assert html == (
        '<ul class="contains-task-list">\n<li class="task-list-item"><label>'
        '<input class="task-list-item-checkbox" disabled="disabled" type="checkbox"> open '
        "<em>task</em></label></li>\n"
        '<li class="task-list-item"><label><input class="task-list-item-checkbox" '
        'checked="checked" disabled="disabled" type="checkbox"> done</label></li>\n</ul>\n'
    )


@pytest.mark.parametrize(
    ("source", "html"),
    [
        ("H~2~O and x^2^", "<p>H<sub>2</sub>O and x<sup>2</sup></p>\n"),
        ("~~struck~~ stays strikethrough", "<p><s>struck</s> stays strikethrough</p>\n"),
        # no sub- or superscript: a space inside, or no closing mark (Pandoc's rules)
        ("about ~5 min or ~10 min", "<p>about ~5 min or ~10 min</p>\n"),
        ("2^10 and 3^5", "<p>2^10 and 3^5</p>\n"),
        (
            "- [] not a task\n- [y] nor this",
            "<ul>\n<li>[] not a task</li>\n<li>[y] nor this</li>\n</ul>\n",
        ),
        ("Term\n:no space is no definition", "<p>Term\n:no space is no definition</p>\n"),
        ("$a^b c^d$ and $H~2~O$ stay math", None),
    ],
)
def test_sub_and_superscripts_and_what_stays_text(source, html):
    out = render(source)
    if html is None:
        assert out.count("<math") == 2 and "<sup>" not in out and "<sub>" not in out
    else:
        assert out == html


def test_adjacent_footnote_references_are_notes_not_a_superscript():
    html = render("Two notes[^a][^b].\n\n[^a]: A.\n[^b]: B.\n")
    assert html.count('class="sidenote"') == 2 and "<sup>" not in html


def test_keys_in_a_heading_are_its_text_for_the_id_and_the_anchor_label():
    """pymdownx.keys' `++ctrl+s++`: the labels and `+` are text, as MkDocs' toc reads them."""
    html = render("## Save with ++ctrl+s++\n")
    assert html.startswith('<h2 id="save-with-ctrl-s">Save with <span class="keys">')
    assert 'aria-label="Link to section: Save with Ctrl+S"' in html


def test_a_link_to_notes_goes_to_postils_notes_when_the_post_has_footnotes():
    """The Notes section holds `id="notes"`: the link is left as written; without footnotes
    it goes to the author's own `## Notes` heading (`tests/fixtures/fragments.md`)."""
    html = render("See [n](#notes) and a note[^1].\n\n## Notes\n\nMine.\n\n[^1]: A note.\n")
    assert '<a href="#notes">n</a>' in html and 'id="sec-notes"' in html
