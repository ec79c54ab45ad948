r"""A command with too few arguments is a math syntax error at the command, never a silent guess."""

from __future__ import annotations

import subprocess
import sys

import pytest
from latex2mathml import commands as engine
from latex2mathml import exceptions

from postil.errors import Severity
from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.math import MathSyntaxError, latex_to_mathml
from postil.math.arity import SPECS, check_arguments
from postil.math.engine import ENGINE_ERRORS


@pytest.mark.parametrize(
    ("latex", "offset", "message"),
    [
        (r"\frac{a}", 0, r"\frac needs 2 arguments, found 1: write \frac{…}{…}"),
        (r"x + \frac1", 4, r"\frac needs 2 arguments, found 1"),
        (r"\sqrt", 0, r"\sqrt needs 1 argument, found 0: write \sqrt{…}"),
        (r"\sqrt[3]", 0, r"\sqrt needs 1 argument, found 0"),
        (r"\binom{n}", 0, r"\binom needs 2 arguments, found 1"),
        (r"\overset{a}", 0, r"\overset needs 2 arguments, found 1"),
        ("a + x^", 5, "`^` needs a superscript after it: write x^{…}"),
        ("x_", 1, "`_` needs a subscript after it"),
        (r"\underbrace{a+b}_", 16, "`_` needs a subscript"),
        (r"x^\frac{a}", 2, r"\frac needs 2 arguments, found 1"),
        (r"{\frac{a}} + 1", 1, r"\frac needs 2 arguments"),  # the group ends first
        (r"\left(\frac{a}\right)", 6, r"\frac needs 2 arguments"),
        (r"\begin{matrix} \hat & b \end{matrix}", 15, r"\hat needs 1 argument, found 0"),
        (r"\begin{matrix} \vec \end{matrix}", 15, r"\vec needs 1 argument"),
        (r"a \\ \mathbb \\ b", 5, r"\mathbb needs 1 argument"),
        (r"\xrightarrow[f]", 0, r"\xrightarrow needs 1 argument"),
        (r"\href{https://x.org}", 0, r"\href needs 2 arguments, found 1"),
        (r"\text", 0, r"\text needs 1 argument"),
        (r"\big", 0, r"\big needs a delimiter after it"),
        (r"\left", 0, "\\left is never closed"),
        (r"\left( x", 0, "\\left is never closed"),
        (r"\begin{pmatrix} x", 0, "\\begin{pmatrix} is never closed"),
        (r"a + {b", 4, "{ is never closed"),
        (r"a + b}", 5, "} has no matching opener"),
        (r"\set", 0, r"\set needs 1 argument"),  # a KaTeX macro taking an argument
        (r"\def\half#1{\frac{#1}} \half{x}", 12, r"\frac needs 2 arguments"),
        (r"\sqrt[3 x", 0, r"\sqrt[ has no closing ]: write \sqrt[…]{…}"),
        (r"x \color", 2, r"\color needs 1 argument, found 0"),  # a switch needs its colour
        (r"\begin x", 0, r"\begin needs an environment name in braces"),
        (r"\set\begin{matrix} a \end{matrix}", 4, r"\begin needs an environment name"),
    ],
)
def test_math_command_missing_an_argument_is_a_syntax_error_at_its_offset(latex, offset, message):
    with pytest.raises(MathSyntaxError) as info:
        latex_to_mathml(latex)
    assert info.value.offset == offset
    assert message in info.value.message


@pytest.mark.parametrize(
    "latex",
    [
        r"\frac12 + \frac a b + \tfrac{1}{2}",
        r"\sqrt[3]{x} + \sqrt\frac12",
        r"x^\prime + x' + {}^{14}C + x^{} + \hat{}",
        r"\text{a_b^ & }",  # text arguments are text: their content is not math
        r"\href{https://x.org/a_b}{x} + \url{https://x.org/#^}",
        r"\left.\frac{a}{b}\right| + \bigl( x \bigr)",
        r"\underbrace{a+b}_{n} + \overset{!}{=}",
        r"\begin{array}{c|c} a & b \\ c & d \end{array}",
        r"\binom n k + \mathsterling + \not= + \operatorname*{arg\,max}_x",
        r"\newcommand{\f}[2]{\frac{#1}{#2}} \f{a}{b}",
        r"\color{red} x + y + \text\frac",  # a text argument is one token
        r"\frac\begin{matrix} a \end{matrix}{b}",
    ],
)
def test_math_commands_with_all_their_arguments_convert(latex):
    assert latex_to_mathml(latex).startswith("<math")


def test_math_argument_counts_come_from_latex2mathmls_tables():
    for command in engine.COMMANDS_WITH_TWO_PARAMETERS:
        assert SPECS[command] == "mm"
    for command in engine.COMMANDS_WITH_ONE_PARAMETER:
        with pytest.raises(MathSyntaxError):
            check_arguments(f"{{{command}}}", {})


@pytest.mark.slow
def test_math_missing_argument_checks_cost_linear_time():
    check_arguments(r"\sqrt" * 50_000 + "x", {})  # no recursion: 50,000 nested arguments
    with pytest.raises(MathSyntaxError) as info:
        check_arguments(r"\sqrt" * 50_000, {})
    assert info.value.offset == 5 * 49_999


def test_math_missing_argument_is_a_warning_at_path_line_col():
    state = RenderState(path="post.md")
    body = "Intro.\n\nThe ratio $a = \\frac{b}$ is wrong.\n"
    state.source_lines = body.split("\n")
    rendered = render_markdown(create_markdown(), body, state)
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 16)
    assert diag.message.startswith("\\frac needs 2 arguments, found 1: write \\frac{…}{…}")
    assert 'class="math-error"' in rendered.html


def test_math_every_latex2mathml_exception_has_a_readable_message():
    names = [name for name in dir(exceptions) if name.endswith("Error")]
    assert names and all(name in ENGINE_ERRORS for name in names)


def test_math_a_formula_nested_too_deeply_is_an_error_saying_to_split_it():
    """latex2mathml recurses once per group level: past Python's limit the error says what
    to do, not Python's "maximum recursion depth exceeded"."""
    from postil.math import MathSyntaxError, latex_to_mathml

    with pytest.raises(MathSyntaxError) as caught:
        latex_to_mathml("{" * 2000 + "x" + "}" * 2000)
    assert caught.value.message == (
        "cannot parse the formula: it nests groups, environments or proof steps too deeply "
        "to convert; split it into formulas of their own"
    )


def test_math_missing_argument_is_a_cli_warning_with_path_line_col_and_strict_fails(tmp_path):
    root = tmp_path / "site"
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text("title: T\nauthor: A\nbase_url: https://x.org/\n")
    post = "---\ntitle: P\ndate: 2024-01-01\n---\nText.\n\n$$\nx = \\binom{n}\n$$\n"
    (root / "content/posts/p.md").write_text(post, encoding="utf-8")
    command = [sys.executable, "-m", "postil", "-C", str(root), "build", "--no-cache"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0  # the page shows the formula's TeX
    assert "content/posts/p.md:8:5: warning: \\binom needs 2 arguments, found 1" in done.stderr
    strict = subprocess.run([*command, "--strict"], capture_output=True, text=True, timeout=60)
    assert strict.returncode == 1
    assert "content/posts/p.md:8:5: warning: \\binom needs 2 arguments" in strict.stderr
    assert "Traceback" not in done.stderr + strict.stderr
