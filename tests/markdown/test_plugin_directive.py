"""remark-directive's leaf and text directives: what the fixture file cannot show (warnings)."""

from __future__ import annotations

from support.markdown import render_post as render


def test_a_leaf_directive_postil_cannot_show_is_left_out_with_a_warning_at_its_line():
    html, found = render('Intro.\n\n::youtube{id="abc"}\n\n::github{repo="x"}\n')
    assert "youtube" not in html and "github" not in html
    assert found == [
        'post.md:3:1: warning: remark-directive `::youtube{id="abc"}` is not supported and is '
        "left out; write its content as Markdown (a link, an image, the text)",
        'post.md:5:1: warning: remark-directive `::github{repo="x"}` is not supported and is '
        "left out; write its content as Markdown (a link, an image, the text)",
    ]


def test_spoilers_are_shown_with_one_warning_a_post_at_the_first():
    html, found = render("A :spoiler[b] c.\n\nD :spoiler[e].\n")
    assert html.count('<span class="spoiler">') == 2
    assert found == [
        "post.md:1:3: warning: `:spoiler[…]` (Fuwari's) hides its text until the reader "
        "hovers it; postil shows the text as it is (write the reveal as a fold, `:::details`, "
        "to keep it hidden)"
    ]


def test_a_card_of_a_repository_is_a_link_to_it_without_a_warning():
    html, found = render('::github{repo="saicaca/fuwari"}\n')
    assert found == []
    assert '<a href="https://github.com/saicaca/fuwari">saicaca/fuwari</a>' in html
