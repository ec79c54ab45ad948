"""Attrs plugin: the attribute-list reader, the allow-list and the warnings it reports."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown
from postil.markdown.attrlist import clean_attributes, read_attributes
from postil.markdown.state import RenderState


def render(source: str) -> tuple[str, RenderState]:
    state = RenderState(path="post.md", body_line=4)
    html = create_markdown().render(source, {"postil": state})
    return html, state


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{#a .b .c k=v}", {"id": "a", "class": "b c", "k": "v"}),
        ("{: .center}", {"class": "center"}),
        ('{:target="_blank"}', {"target": "_blank"}),
        ("{width=60%}", {"width": "60%"}),
        ("{title='it''s'}", None),
        ("{title='say \"hi\"'}", {"title": 'say "hi"'}),
        ("{-}", {"class": "unnumbered"}),
        ("{#exr-2.15}", {"id": "exr-2.15"}),  # Pandoc's identifiers hold dots
        ("{#fig-a.b .wide}", {"id": "fig-a.b", "class": "wide"}),
        ("{% raw %}", None),
        ("{{ site.url }}", None),
        ("{::comment}", None),
        ("{}", None),
        ("{x}", None),
        ("{a b}", None),
        ("{#a", None),
    ],
)
def test_read_attributes_reads_pandoc_and_kramdown_lists(text, expected):
    assert read_attributes(text) == expected


def test_clean_attributes_keeps_the_allow_list_and_says_why_it_drops():
    cleaned = clean_attributes(
        {
            "id": "x",
            "onerror": "alert(1)",
            "href": "javascript:alert(1)",
            "style": "color: red",
            "fig-align": "center",
            "aria-label": "A plot",
            "bad name": "v",
        }
    )
    assert cleaned.kept == {
        "id": "x",
        "style": "color: red",
        "data-fig-align": "center",
        "aria-label": "A plot",
    }
    assert [name for name, _ in cleaned.dropped] == ["onerror", "href", "bad name"]


@pytest.mark.parametrize(
    "style",
    [
        "background: url(javascript:alert(1))",
        "width: expression(alert(1))",
        "background: u\\72l(x)",
        "@import 'x.css'",
    ],
)
def test_clean_attributes_drops_css_that_could_load_or_run_something(style):
    assert clean_attributes({"style": style}).kept == {}


def test_width_in_pixels_is_an_attribute_and_other_lengths_are_css():
    assert clean_attributes({"width": "320px", "height": "10em"}).kept == {
        "width": "320",
        "style": "height:10em",
    }
    assert clean_attributes({"style": "border:0", "width": "50%"}).kept == {
        "style": "border:0;width:50%"
    }


def test_dropped_attribute_is_a_warning_at_its_line():
    html, state = render('Intro.\n\n![x](y.png){onclick="go()" .wide}\n')
    assert "onclick" not in html
    assert 'class="wide"' in html
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: attribute `onclick` is left out: event handlers run "
        "script, which posts may not carry; remove it"
    ]


def test_attribute_line_that_belongs_to_no_block_is_a_warning():
    _, state = render("Text.\n\n{: .orphan}\n")
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: attribute list `{: .orphan}` belongs to no block; write it "
        "on the line right after the block (kramdown) or right before it"
    ]


def test_given_heading_id_replaces_the_slug_and_links_to_it_resolve():
    html, state = render("## Results {#res}\n\nSee [the results](#res).\n")
    assert '<h2 id="res">Results<a class="heading-anchor" href="#res"' in html
    assert state.diagnostics == []
    assert [entry.id for entry in state.extra["toc"]] == ["res"]


def test_given_heading_id_used_twice_is_a_warning():
    _, state = render("## A {#x}\n\n## B {#x}\n")
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: heading id 'x' is already used on this page; give this "
        "heading its own id"
    ]


def test_unlisted_heading_stays_out_of_the_toc():
    _, state = render("## Shown\n\n## Hidden {.unlisted}\n")
    assert [entry.text for entry in state.extra["toc"]] == ["Shown"]


def test_image_attributes_keep_what_was_written_for_image_sizing():
    md = create_markdown()
    tokens = md.parse("![a](a.png){width=60%}\n", {"postil": RenderState()})
    image = tokens[1].children[0]
    assert image.meta["attrs"] == {"width": "60%"}
    assert image.attrs["style"] == "width:60%"


def test_math_braces_are_not_attribute_lists():
    html, state = render("$\\{x\\}$ and $$\n{a=b}\n$$\n")
    assert 'class="math-display"' in html
    assert "data-a" not in html
    assert state.diagnostics == []


def test_a_given_section_id_is_the_authors_when_the_post_has_no_such_section():
    html, state = render("## References {#references}\n\n## Notes {#notes}\n\nText.\n")
    assert '<h2 id="references">' in html and '<h2 id="notes">' in html
    assert state.diagnostics == []  # ox-hugo gives every heading its id


def test_a_given_notes_id_in_a_post_with_notes_is_a_warning():
    html, state = render("## Notes {#notes}\n\nText[^1].\n\n[^1]: A note.\n")
    assert html.count('id="notes"') == 2
    assert [str(d) for d in state.diagnostics] == [
        "post.md:4:1: warning: heading id 'notes' is already used on this page; give this "
        "heading its own id"
    ]


def test_bracketed_span_keeps_allowed_attributes_and_warns_about_the_rest():
    html, state = render('Intro.\n\nA [word]{.key onclick="go()" data-x=1} here.\n')
    assert '<span data-x="1" class="key">word</span>' in html
    assert "onclick" not in html
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: attribute `onclick` is left out: event handlers run "
        "script, which posts may not carry; remove it"
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        (  # nbconvert's posts for Jekyll: a raw region ends with the image's attribute line
            '{% raw %}\nText.\n\n{: style="text-align:center"}\n{% endraw %}\n'
            "![plot](/a.png)\n{% raw %}\nMore.\n{% endraw %}\n",
            '<p style="text-align:center"><img src="/a.png" alt="plot" /></p>',
        ),
        (  # after a block, with `{% raw %}` between: the block's (kramdown's reading)
            "Text.\n{% raw %}\n{: .after}\n\nMore.\n{% endraw %}\n",
            '<p class="after">Text.</p>',
        ),
    ],
    ids=["before-endraw", "after-raw"],
)
def test_an_attribute_line_beside_a_liquid_raw_tag_belongs_to_the_block_past_it(source, expected):
    html, state = render(source)
    assert expected in html
    assert state.diagnostics == []


def test_an_attribute_line_closing_a_raw_region_with_no_block_after_it_is_reported():
    # negative: nothing after the raw region, and a blank line after the block before it
    html, state = render("Text.\n\n{% raw %}\n{: .x}\n{% endraw %}\n")
    assert "class" not in html
    assert [d.message.split(";")[0] for d in state.diagnostics] == [
        "attribute list `{: .x}` belongs to no block"
    ]


def test_a_kramdown_ial_after_a_note_reference_is_read_not_shown():
    """kramdown assigns `{:.test}` to the note's marker and writes no attribute for it
    (gettalong/kramdown#194); Pandoc reads none there, so `{.x}` stays text."""
    html, state = render("A note[^5]{:.test} and[^5]{.x} here.\n\n[^5]: The note.\n")
    assert "{:.test}" not in html
    assert '</sup><button type="button" class="sidenote-toggle"' in html
    assert "{.x} here." in html
    assert state.diagnostics == []
