"""An equation reference standing alone in prose is a link outside `<math>`, whichever
generator's form writes it (`postil.markdown.mathref`: a link inside `<math>` is an
interactive control nested in another, axe-core's `nested-interactive`); a reference
inside a larger formula stays in it."""

from __future__ import annotations

import re

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

EQUATION = "$$\na = b \\label{eq-a}\n$$\n\n"
LINK_IN_MATH = re.compile(r"<math\b(?:(?!</math>).)*<a\b", re.S)


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/here.md", body_line=3)
    state.source_lines = body.split("\n")
    html = render_markdown(create_markdown(), body, state).html
    found = sorted(state.diagnostics, key=lambda d: d.location)
    return html, [f"{d.location.line}:{d.location.col} {d.message[:40]}" for d in found]


@pytest.mark.parametrize(
    "reference",
    [
        "\\eqref{eq-a}",  # LaTeX in prose
        "$\\eqref{eq-a}$",  # a formula that is only the reference
        "\\(\\eqref{eq-a}\\)",
        "{eq}`eq-a`",  # MyST's role (mystmd, Jupyter Book)
        "{eq}` eq-a `",
    ],
)
def test_a_reference_alone_is_a_link_in_prose(reference):
    html, problems = render(f"{EQUATION}By {reference}, done.\n")
    assert 'By <a class="eqref" href="#eq-a">(1)</a>, done.' in html
    assert not LINK_IN_MATH.search(html)
    assert problems == []


def test_a_reference_inside_a_larger_formula_stays_in_it():
    html, _ = render(f"{EQUATION}So $c = \\eqref{{eq-a}}$.\n")
    assert LINK_IN_MATH.search(html)  # `<mtext><a>(1)</a></mtext>`, as documented


def test_a_myst_role_to_an_unknown_label_shows_latex_marks_and_warns_at_the_role():
    html, problems = render(f"{EQUATION}See {{eq}}`eq-b` here.\n")
    assert 'See <strong class="xref-missing">(??)</strong> here.' in html
    assert problems == ["7:5 unknown equation label 'eq-b' in \\eqref/"]
