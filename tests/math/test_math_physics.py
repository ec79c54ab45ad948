"""The physics package and mathtools' paired delimiters: what every command owes a post.

The fixtures (`fixtures/math/physics.txt`) pin each command's MathML; these tests hold for
every command of the table at once: a post's own definition wins, none of them was a
command postil could already draw, and no input makes one raise anything but a math error.
"""

from __future__ import annotations

import pytest
from latex2mathml.converter import convert

from postil.math import latex_to_mathml
from postil.math.errors import MathError, MathSyntaxError
from postil.math.physics import HANDLERS
from postil.math.pipeline import STATIC_MACROS

# Names latex2mathml or KaTeX's macros drew before physics: `\dd` was latex2mathml's ⅆ,
# `\bra`/`\ket`/`\braket` KaTeX's (their one-argument forms read as before), `\div` ÷ (it
# still is after an operand).
DREW_BEFORE = {"dd", "bra", "ket", "braket", "div"}
HOSTILE_TAILS = ("", "*", "**", "[", "[2]", "(", "(x", "{", "{x", "|", "|x", r"\big", "}", "&")


@pytest.mark.parametrize("name", sorted(HANDLERS))
def test_physics_command_was_unknown_before_so_making_it_built_in_changes_no_post(name):
    drawn = rf"\{name}" not in convert(rf"\{name}{{x}}{{y}}{{z}}")
    assert drawn == (name in DREW_BEFORE)
    assert name not in STATIC_MACROS


@pytest.mark.parametrize("name", sorted(HANDLERS))
def test_post_newcommand_wins_over_the_physics_command_of_the_same_name(name):
    mathml = latex_to_mathml(rf"\newcommand{{\{name}}}[1]{{\text{{mine}}#1}} \{name}{{q}}")
    assert "<mtext>mine</mtext>" in mathml
    assert "stretchy" not in mathml and "mathvariant" not in mathml


@pytest.mark.parametrize("name", sorted(HANDLERS))
@pytest.mark.parametrize("tail", HOSTILE_TAILS)
def test_physics_command_with_any_tail_converts_or_raises_a_located_math_error(name, tail):
    latex = rf"a + \{name}{tail}"
    try:
        latex_to_mathml(latex)
    except MathError as exc:
        assert 0 <= exc.offset <= len(latex)
        assert exc.message


@pytest.mark.parametrize(
    ("latex", "offset", "command"),
    [
        (r"\abs{x} + \abs", 10, r"\abs"),
        (r"\norm{\abs}", 6, r"\abs"),
        (r"\newcommand{\N}{\norm} x + \N", 16, r"\norm"),  # where the macro wrote it
        (r"\DeclarePairedDelimiter\ceil{\lceil}{\rceil} \ceil", 45, r"\ceil"),
        (r"\qty(a + \frac{b}{c}", 0, r"\qty"),
    ],
)
def test_missing_argument_is_a_syntax_error_at_the_command_in_the_source(latex, offset, command):
    with pytest.raises(MathSyntaxError) as caught:
        latex_to_mathml(latex)
    assert latex[caught.value.offset :].startswith(command)
    assert caught.value.offset == offset


@pytest.mark.parametrize(
    "latex", [r"a \div b", r"\frac{a}{b} \div c", r"x^2 \div 2", r"(a)\div(b)", r"\div", r"{\div}"]
)
def test_div_after_an_operand_or_alone_is_still_division(latex):
    assert "÷" in latex_to_mathml(latex) and "∇" not in latex_to_mathml(latex)


@pytest.mark.parametrize("latex", [r"\div{\vb{E}}", r"= \div \vb{E}", r"(\div A)", r"0 = \div(A)"])
def test_div_with_no_operand_before_it_is_the_divergence(latex):
    mathml = latex_to_mathml(latex)
    assert "𝛁" in mathml and "÷" not in mathml


def test_paired_delimiter_star_stretches_and_size_fixes_both_fences():
    define = r"\DeclarePairedDelimiter\abs{\lvert}{\rvert}"
    plain = latex_to_mathml(rf"{define}\abs{{x}}")
    starred = latex_to_mathml(rf"{define}\abs*{{\frac{{a}}{{b}}}}")  # `\left…\right` stretches
    sized = latex_to_mathml(rf"{define}\abs[\bigg]{{x}}")
    assert 'stretchy="true"' not in plain and plain.count('stretchy="false"') == 2
    assert starred.count('stretchy="true"') == 2
    assert sized.count('minsize="2.4em"') == 2


def test_paired_delimiter_x_puts_its_arguments_and_delimsize_in_its_body():
    define = r"\DeclarePairedDelimiterX\set[2]{\{}{\}}{#1 \delimsize| #2}"
    mathml = latex_to_mathml(rf"{define}\set[\Big]{{x}}{{x > 0}}")
    assert mathml.count('minsize="1.8em"') == 3  # both braces and the bar
    assert mathml.index("<mi>x</mi>") < mathml.index(">|<") < mathml.index("<mo>&gt;</mo>")
