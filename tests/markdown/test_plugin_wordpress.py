"""WordPress exports: `$latex …$` (`postil.markdown.wplatex`), what the fixture file cannot
show: warnings and places."""

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


def test_shortcode_reading_follows_jetpack():
    assert shortcode_at("$latex x$", 0) is not None
    assert shortcode_at("$LATEX= x$", 0) is not None  # Jetpack's pattern ignores case
    assert shortcode_at("$latex$", 0) is None  # `$latex` then no space: no shortcode
    assert shortcode_at("$latexx$", 0) is None
    found = shortcode_at("$latex a \\\\$ b$", 0)  # `\\$`: two backslashes, so `$` closes
    assert found is not None and found.end == len("$latex a \\\\$")
