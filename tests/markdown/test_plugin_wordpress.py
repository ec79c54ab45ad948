"""WordPress exports: `$latex …$` (`postil.markdown.wplatex`) and `[caption]`
(`postil.markdown.wpcaption`), what the fixture files cannot show: warnings and places."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.markdown.wplatex import shortcode_at


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/p.md", body_line=5)
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_a_math_error_in_a_shortcode_is_at_its_column_past_the_opener_and_options():
    _, warnings = render("Text $latex \\frac{a}{b&fg=000000$ and $latex \\foo x$.\n")
    assert [w.split(": ")[0] for w in warnings] == [
        "content/posts/p.md:5:21",  # the `{` never closed
        "content/posts/p.md:5:46",  # `\foo`
    ]


def test_a_math_error_in_a_shortcode_in_html_is_at_its_column():
    _, warnings = render("<p>Let $latex \\bar{x$ be.</p>\n")
    assert [w.split(": ")[0] for w in warnings] == ["content/posts/p.md:5:19"]


def test_shortcodes_in_html_are_formulas_without_the_word_latex():
    html, warnings = render("<p>Sets $latex S&amp;fg=000000$ and $latex T$.</p>\n")
    assert warnings == []
    assert html.count("<math") == 2 and ">latex" not in html and "fg=" not in html


def test_caption_without_an_image_warns_at_its_line_naming_the_fix():
    html, warnings = render('Text.\n\n[caption id="x"]Only words.[/caption]\n')
    assert warnings == [
        "content/posts/p.md:7:1: WordPress' `[caption]` holds no image here, so it is shown "
        "as written; write the image as `![caption](file.png)` and the caption under it, or "
        "remove the `[caption]` tags"
    ]
    assert "[caption" in html


def test_caption_spanning_lines_to_its_closing_tag_is_one_figure():
    html, warnings = render(
        '[caption width="300"]<img src="https://e.org/a.png" alt="A" />\n'
        "A plot\nof loss.[/caption]\n\nAfter.\n"
    )
    assert warnings == []
    assert html.count("<figure") == 1 and "<figcaption>A plot\nof loss.</figcaption>" in html
    assert html.endswith("<p>After.</p>\n")


def test_shortcode_reading_follows_jetpack():
    assert shortcode_at("$latex x$", 0) is not None
    assert shortcode_at("$LATEX= x$", 0) is not None  # Jetpack's pattern ignores case
    assert shortcode_at("$latex$", 0) is None  # `$latex` then no space: no shortcode
    assert shortcode_at("$latexx$", 0) is None
    found = shortcode_at("$latex a \\\\$ b$", 0)  # `\\$`: two backslashes, so `$` closes
    assert found is not None and found.end == len("$latex a \\\\$")
