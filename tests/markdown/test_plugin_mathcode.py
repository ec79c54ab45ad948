"""math-code.js's formulas in code spans (`postil.markdown.mathcode`), both site readings."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

MD = create_markdown()


def render(body: str, code_spans: str = "math") -> tuple[str, RenderState]:
    state = RenderState(path="post.md", code_spans=code_spans)
    return render_markdown(MD, body, state).html, state


@pytest.mark.parametrize(
    ("body", "tex", "display"),
    [
        ("A point `$x_i$` here.", "x_i", False),
        ("Spaced ``` $a_1$ ``` here.", "a_1", False),
        ("Paren `\\(b^2\\)` here.", "b^2", False),
        ("Lines\n`$$\nc = d\n$$`\nand on.", "\nc = d\n", True),
        ("Brackets `\\[e\\]` here.", "e", True),
        ("Env `\\begin{align} f &= g \\end{align}`.", "\\begin{align} f &amp;= g \\end{align}", 1),
    ],
)
def test_a_code_span_holding_a_formula_is_that_formula(body, tex, display):
    html, state = render(body)
    assert "<code>" not in html and not state.diagnostics
    assert f'<annotation encoding="application/x-tex">{tex}</annotation>' in html
    assert ('<math display="block">' in html) is bool(display)
    assert html.count("<math") == 1


@pytest.mark.parametrize(
    "body",
    [
        "Plain `code` here.",
        "Two `$a$ and $b$` in one span.",
        "Dollars `$$` alone and `$` alone.",
        "A price `$5` and a variable `$HOME`.",
        "Unclosed `$x$ span.",  # a backtick, then dollar math
        "Mixed run ``$x$` here.",
        "```\n$x$\n```",
        "    $y$ indented code",
        "Write `$...$` inline, `$$...$$` or `\\[ … \\]` for display.",  # delimiters shown
    ],
)
def test_other_code_and_text_read_the_same_either_way(body):
    html, state = render(body)
    assert html == render(body, code_spans="code")[0] and not state.diagnostics
    assert "<code>$x$</code>" not in html


def test_in_a_heading_the_formula_is_inline():
    html, _ = render("## The `$$\\beta$$` schedule\n")
    assert '<math display="inline">' in html and "math-display" not in html


def test_a_math_error_in_a_code_span_is_located_at_its_tex():
    _, state = render("intro\n\nsee `$a + \\foo{x}$` here\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (3, 11) and "\\foo" in diag.message


def test_by_default_they_stay_code_with_one_warning_at_the_third():
    body = "One `$a$`.\n\nTwo `$$b$$` and `code`.\n\nThree `\\(c\\)` and four `$d$`.\n"
    html, state = render(body, code_spans="code")
    assert "<math" not in html and html.count("<code>") == 5
    (diag,) = state.diagnostics
    assert str(diag).startswith("post.md:5:7: warning: this code span and 2 before it")
    assert "`math: code_spans: math`" in diag.message


def test_by_default_two_such_spans_say_nothing():
    html, state = render("Write `$x$` for inline math and `$$x$$` for display.\n", "code")
    assert html.count("<code>") == 2 and not state.diagnostics


def test_code_spans_showing_only_delimiters_do_not_count_toward_the_warning():
    """A post about writing math (`$...$`, `\\( … \\)`, `$$...$$` in code) holds no
    formula in code: three of them drew the `math: code_spans: math` hint."""
    body = "Use `$...$`, `\\( ... \\)`, `$$...$$` and `\\[…\\]` to write math.\n"
    _, state = render(body, code_spans="code")
    assert state.diagnostics == []
    _, state = render(body + "\nAnd `$x$`, `$y$`, `$z$`.\n", code_spans="code")
    assert [d.message.split(";")[0] for d in state.diagnostics] == [
        "this code span and 2 before it in this post hold TeX the way math-code.js reads it "
        "(blogdown's hugo-lithium and the Hugo themes that load the script)"
    ]
