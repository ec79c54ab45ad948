"""Math inside raw HTML blocks: one located warning a block, nothing for dollars in prose."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

ADVICE = (
    "is not typeset, postil converts math only in Markdown; write this part in Markdown (a "
    "caption as `![caption with $x$](image.png)`), or put the formula outside the HTML block"
)


def render(text: str) -> tuple[str, list[str]]:
    """Render `text` as the body of `post.md`; return its HTML and diagnostics as text."""
    state = RenderState(path="post.md")
    state.source_lines = text.split("\n")
    html = render_markdown(create_markdown(), text, state).html
    return html, [str(d).split("\n")[0] for d in state.diagnostics]


def test_a_caption_with_math_in_raw_html_warns_once_at_its_first_formula_and_stays_as_written():
    text = (
        "Intro.\n\n<figure><img src='a.png'>\n"
        "<figcaption>Hull of $y=\\frac{4}{7}x$ for $0 \\leq x$.</figcaption></figure>\n"
    )
    html, found = render(text)
    assert "<figcaption>Hull of $y=\\frac{4}{7}x$ for $0 \\leq x$.</figcaption>" in html
    assert found == [f"post.md:4:21: warning: math in raw HTML (`$y=\\frac{{4}}{{7}}x$`) {ADVICE}"]


def test_prices_code_and_mathml_in_raw_html_are_not_math():
    text = (
        "<div>Costs $5 and $10; <code>$x$</code> <math><mi>$a$</mi></math></div>\n\n"
        "<p>Pay $ 3 or 4 $ now</p>\n"
    )
    _, found = render(text)
    assert found == []
