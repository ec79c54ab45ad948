"""Callouts: what the fixture file (`tests/fixtures/callout.md`) cannot show, the warnings."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def warnings(text: str) -> list[str]:
    """Render `text` as the body of `post.md`; return its diagnostics as text."""
    state = RenderState(path="post.md")
    state.source_lines = text.split("\n")
    render_markdown(create_markdown(), text, state)
    return [str(d) for d in state.diagnostics]


def test_a_fenced_div_never_closed_is_a_warning_at_its_opening_line():
    assert warnings("Intro.\n\n::: {.callout-note}\nThe rest of the post.\n") == [
        "post.md:3:1: warning: fenced div `:::` is never closed, so everything after it is "
        "inside it; add a line `:::` where it ends"
    ]


def test_nested_fenced_divs_with_equal_fences_close_innermost_first_as_in_pandoc():
    # Quarto's panel of subfigures written with `:::` throughout: both divs close
    text = "::: {#fig-p}\n::: {#fig-a}\n![A](a.png)\n\nA.\n:::\n\nPanel.\n:::\n\nAfter.\n"
    assert warnings(text) == []
    state = RenderState(path="post.md")
    html = render_markdown(create_markdown(), text, state).html
    assert html.endswith(
        '<span class="figure-label">Figure 1</span> Panel.</figcaption>\n</figure>\n<p>After.</p>\n'
    )
    # the outer one unclosed is reported at its own line, not the inner's
    assert warnings("::: {.a}\n::: {.b}\nx\n:::\n") == [
        "post.md:1:1: warning: fenced div `:::` is never closed, so everything after it is "
        "inside it; add a line `:::` where it ends"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "::: {.callout-note}\nx\n:::\n\nafter\n",
        "::: note\nx\n::::\n",  # a longer closing fence closes it
        "> ::: {.callout-tip}\n> x\n> :::\n",  # inside a block quote
        ":::: {.callout-tip}\n::: {.column-margin}\ny\n:::\n::::\n",  # nested
    ],
)
def test_closed_fenced_divs_are_not_reported(text):
    assert warnings(text) == []


def test_a_fenced_div_in_a_list_item_ends_with_the_item_and_keeps_the_next_line():
    state = RenderState(path="post.md")
    html = render_markdown(create_markdown(), "- item\n  ::: {.a}\n  in div\nlazy\n", state).html
    assert html == (
        '<ul>\n<li>item\n<div class="a">\n<p>in div</p>\n</div>\n</li>\n</ul>\n<p>lazy</p>\n'
    )


def test_an_unknown_callout_kind_is_one_warning_a_kind_however_many_callouts_use_it():
    text = "> [!theorem] A\n> x\n\n> [!Theorem] B\n> y\n\n> [!lemma]\n> z\n"
    assert [w.split(",")[0] for w in warnings(text)] == [
        "post.md:1:1: warning: unknown callout kind `theorem`",
        "post.md:7:1: warning: unknown callout kind `lemma`",
    ]


def test_a_callout_referred_to_by_its_kinds_whole_name_is_a_warning_at_the_callout():
    """Quarto numbers `#nte-x` and `@nte-x` refers to it; `#note-x` is numbered by nothing
    (quarto-dev/quarto-cli#10769), so the post's `@note-x` would show as text."""
    text = "::: {#note-setup .callout-note}\nSet up.\n:::\n\nSee @note-setup.\n"
    assert warnings(text) == [
        "post.md:1:1: warning: callout id `#note-setup` is not numbered, so `@note-setup` "
        "shows as text: Quarto numbers a note callout whose id starts with `nte-`; write "
        "`#nte-setup`"
    ]
    # not referred to, it is an anchor like any other id; `#nte-` is numbered
    assert warnings("::: {#note-setup .callout-note}\nSet up.\n:::\n") == []
    assert warnings("::: {#nte-setup .callout-note}\nSet up.\n:::\n\nSee @nte-setup.\n") == []
