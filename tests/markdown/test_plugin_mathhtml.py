"""Math inside raw HTML blocks is typeset (`postil.markdown.mathhtml`); dollars in prose,
code and MathML are not math."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render(text: str) -> tuple[str, list[str]]:
    """Render `text` as the body of `post.md`; return its HTML and diagnostics as text."""
    state = RenderState(path="post.md")
    state.source_lines = text.split("\n")
    html = render_markdown(create_markdown(), text, state).html
    return html, [str(d).split("\n")[0] for d in state.diagnostics]


def test_a_caption_with_math_in_raw_html_is_typeset_without_a_warning():
    text = (
        "Intro.\n\n<figure><img src='a.png'>\n"
        "<figcaption>Hull of $y=\\frac{4}{7}x$ for $0 \\leq x$.</figcaption></figure>\n"
    )
    html, found = render(text)
    assert found == []
    assert html.count("<math") == 2 and "$" not in html
    assert "<figcaption>Hull of <math" in html


def test_prices_code_and_mathml_in_raw_html_are_not_math():
    text = (
        "<div>Costs $5 and $10; <code>$x$</code> <math><mi>$a$</mi></math></div>\n\n"
        "<p>Pay $ 3 or 4 $ now</p>\n"
    )
    html, found = render(text)
    assert found == []
    assert html == text.replace("\n\n", "\n")  # written as it was
