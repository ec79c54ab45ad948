"""`python -m postil.math`: the MathML of one formula, `--trace` through every named pass, and
one line (no traceback) with exit status 1 for a formula that cannot be converted."""

from __future__ import annotations

import subprocess
import sys

from postil.math import latex_to_mathml
from postil.math.__main__ import main
from postil.math.pipeline import PASSES


def test_math_cli_prints_the_mathml_one_tag_per_line(capsys):
    assert main(["--display", r"\sum_i x_i"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<math display="block">\n  <semantics>\n')
    assert out.replace("\n", "").replace("  ", "") == latex_to_mathml(r"\sum_i x_i", display=True)


def test_math_trace_names_every_pass_in_order(capsys):
    assert main(["--trace", r"\operatorname{tr} A"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("== ")]
    names = [head[3:].split(":")[0] for head in heads]
    assert names == [name for name, _ in PASSES] + ["output"]


def test_math_trace_shows_what_a_pass_changed(capsys):
    main(["--trace", r"\operatorname{tr} A"])
    out = capsys.readouterr().out
    assert "== operatornames\n\\text{⟦op⟧tr} A\n" in out
    assert "== verb: unchanged\n" in out


def test_math_cli_reports_an_unknown_command_in_one_line(capsys):
    assert main([r"x + \foo"]) == 1
    captured = capsys.readouterr()
    assert captured.err == (
        "error: unsupported command \\foo; define it with \\newcommand{\\foo}{…} in the post, "
        "or as `foo: '…'` under `math: macros:` in postil.yaml or `macros:` in the front matter"
        " (a theme's MathJax setup or a LaTeX preamble: name it under `math: macros_from:`)"
        " (at offset 4)\n"
    )


def test_math_cli_bad_input_exits_1_without_traceback():
    for latex in (r"\frac{a}{", r"\includegraphics{y}", r"x^", r"\begin{tikzcd}\end{tikzcd}"):
        done = subprocess.run(
            [sys.executable, "-m", "postil.math", "--trace", latex],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 1, latex
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("error: ")
