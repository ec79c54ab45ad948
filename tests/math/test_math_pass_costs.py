r"""What the math passes skip, and that skipping changes no output (issue 20).

The passes look for a cheap sign of their construct before walking a formula (a marker's
private-use character in the TeX, an `<mtext>` marker of their kind, an operator that takes
limits, a word that may be a function name) and read token offsets only for an error. These
tests pin the skips by counting calls (never by timing) and pin the outputs of the edge
cases each skip must still see, as the code before issue 20 produced them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from postil.math import (
    MathSyntaxError,
    MathUnsupportedError,
    arity,
    latex_to_mathml,
    limits,
    listends,
    spacing,
    styles,
    syntax,
    tokens,
)
from postil.math.arity import check_arguments
from postil.math.environments import top_level_rows
from postil.math.markers import has_markers, may_hold_markers
from postil.math.pipeline import Formula, run
from postil.math.safety import check_safety
from postil.math.syntax import locate_syntax_error


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Replace `module.name` with a wrapper that counts its calls; return the counter."""
    calls = [0]
    real: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize(
    ("latex", "marked"),
    [
        ("x + y", False),
        (r"\frac{a}{b} \le c", False),
        (r"\sum_i x_i", True),  # `rewrite_limits` wraps `\sum` with a marker
        (r"\operatorname{rank} A", True),
        (r"\begin{pmatrix} a \end{pmatrix}", True),
        (r"\text{&#xE000;mo&#xE001;+}", True),  # an entity may spell a marker
        (r"\unicode{xE000}", True),
    ],
)
def test_math_formula_is_marked_only_when_its_tex_can_hold_a_marker(latex, marked):
    formula = Formula(latex, display=True)
    run(formula)
    assert formula.marked is marked


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        ("a + b", False),
        ("\ue000limits\ue0011", True),
        ("\\text{a\ue005}", True),
        ("&#x2B;", True),
        (r"\unicode{x41}", True),
        ("\ue001", False),  # a separator alone starts no marker
    ],
)
def test_math_may_hold_markers_looks_for_private_use_characters_entities_and_unicode(
    latex, expected
):
    assert may_hold_markers(latex) is expected


def test_math_has_markers_finds_only_the_kinds_asked_for():
    row = ET.Element("mrow")
    ET.SubElement(row, "mtext").text = "\ue000gap\ue0012pt"
    ET.SubElement(row, "mi").text = "\ue000limits\ue0011"  # not an mtext: never a marker
    assert has_markers(row, ("gap",))
    assert not has_markers(row, ("limits", "ref", "eqref"))


@pytest.mark.parametrize(
    ("latex", "html"),
    [
        # Markers and stand-ins an author spells with entities still take effect.
        (r"\text{&#xE000;mo&#xE001;+}", '<mrow><mo form="prefix">+</mo></mrow>'),
        (r"\text{a&#xE004;b}", "<mrow><mtext>a{b</mtext></mrow>"),
        (r"\unicode{xE000}", "<mrow><mi>\ue000</mi></mrow>"),
        # Two relations in a row keep TeX's spaces (the gate counts relations before).
        (
            r"x \mathrel{:} \mathrel{:} = y",
            '<mrow><mi>x</mi><mo lspace="0.2778em" rspace="0em">:</mo>'
            '<mo lspace="0em" rspace="0em">:</mo><mo lspace="0em">=</mo><mi>y</mi></mrow>',
        ),
        (
            r"\sin x \ldots",
            '<mrow><mi>sin</mi><mo>\u2061</mo><mspace width="0.1667em"></mspace><mi>x</mi>'
            '<mspace width="0.1667em"></mspace><mi>…</mi></mrow>',
        ),
        (
            r"\mathrm{KL} \Sigma",
            '<mrow><mrow><mi>KL</mi></mrow><mi mathvariant="normal">Σ</mi></mrow>',
        ),
    ],
)
def test_math_skipping_passes_keeps_the_output_of_edge_cases(latex, html):
    out = latex_to_mathml(latex)
    assert out.startswith('<math display="inline"><semantics>' + html + "<annotation")


def test_math_formula_without_limit_operators_or_spaced_atoms_walks_no_styles(monkeypatch):
    limit_walks = _counting(monkeypatch, limits, "walk_styles")
    spacing_walks = _counting(monkeypatch, spacing, "walk_styles")
    latex_to_mathml("x_1 y^2", display=True)
    assert (limit_walks[0], spacing_walks[0]) == (0, 0)
    latex_to_mathml(r"\sum_{i} x_i = 1", display=True)
    assert (limit_walks[0], spacing_walks[0]) == (1, 1)


def test_math_function_spacing_skips_a_formula_without_a_word(monkeypatch):
    names = _counting(monkeypatch, spacing, "_is_function_name")
    latex_to_mathml("a + b c")
    assert names[0] == 0
    assert "\u2061" in latex_to_mathml(r"\log x")
    assert names[0] > 0


def test_math_argument_check_reads_offsets_only_for_an_error(monkeypatch):
    offsets = _counting(monkeypatch, arity, "_tokens")
    check_arguments(r"\frac{a}{b} + \sqrt[3]{x}", {})
    assert offsets[0] == 0
    with pytest.raises(MathSyntaxError) as caught:
        check_arguments(r"x + \frac{a}", {})
    assert (caught.value.offset, offsets[0]) == (4, 1)


def test_math_token_classes_are_memoised_with_their_attribute_order():
    tokens._classified.cache_clear()
    first = latex_to_mathml(r"\left| a \right| + |b| \pm c")
    hits = tokens._classified.cache_info().hits
    assert latex_to_mathml(r"\left| a \right| + |b| \pm c") == first
    assert tokens._classified.cache_info().hits > hits
    assert '<mo stretchy="false" lspace="0em" rspace="0em" form="prefix">|</mo>' in first


@pytest.mark.parametrize(
    ("latex", "offset", "message"),
    [
        (r"\frac{a}}{b}", 0, r"\frac needs 2 arguments, found 1: write \frac{…}{…}"),
        (r"}{\frac{a}", 2, r"\frac needs 2 arguments, found 1: write \frac{…}{…}"),
        (r"\sqrt[3{x}", 0, r"\sqrt[ has no closing ]: write \sqrt[…]{…}"),
        (r"{\frac{a}{b}", None, None),
        (r"\frac{a}{b}{", None, None),
    ],
)
def test_math_argument_check_pairs_unbalanced_braces_as_before(latex, offset, message):
    if offset is None:
        check_arguments(latex, {})
        return
    with pytest.raises(MathSyntaxError) as caught:
        check_arguments(latex, {})
    assert (caught.value.offset, caught.value.message) == (offset, message)


@pytest.mark.parametrize(
    ("latex", "found"),
    [
        (r"\left( x", (0, r"\left is never closed")),
        (r"\begin{a} x \end{b}", (12, r"\end{b} closes \begin{a}")),
        ("x}", (1, "} has no matching opener")),
        ("{x", (0, "{ is never closed")),
        (r"\left( x \right) \}", (0, "")),
    ],
)
def test_math_syntax_check_locates_the_first_problem(latex, found):
    assert locate_syntax_error(latex) == found


@pytest.mark.parametrize(
    ("latex", "offset", "command"),
    [
        (r"a \includegraphics{x}", 2, r"\includegraphics"),
        (r"\\includegraphics{x}", 1, r"\includegraphics"),  # a line break, then the command
        (r"\includegraphicsx \includegraphics{a}", 18, r"\includegraphics"),  # another word
        (r"\includegraphicsy", None, None),
    ],
)
def test_math_safety_refuses_whole_control_words_only(latex, offset, command):
    if offset is None:
        check_safety(latex)
        return
    with pytest.raises(MathUnsupportedError) as caught:
        check_safety(latex)
    assert (caught.value.offset, caught.value.command) == (offset, command)


@pytest.mark.parametrize(
    ("latex", "rows"),
    [
        (r"a \\{ b \\ c", ["a ", "{ b ", " c"]),  # a brace after `\\` is not a group
        (r"\begin{x} a \\ b \end{x} \\ c", [r"\begin{x} a \\ b \end{x} ", " c"]),
        (r"{a \\ b} \\ c", [r"{a \\ b} ", " c"]),
        (r"a \{ \\ b", [r"a \{ ", " b"]),
        ("\\\\", ["", ""]),
        ("a + b", ["a + b"]),
    ],
)
def test_math_top_level_rows_split_as_a_character_scan_would(latex, rows):
    assert top_level_rows(latex) == rows


def test_math_unknown_command_from_a_macro_still_names_the_macro():
    with pytest.raises(MathUnsupportedError) as caught:
        latex_to_mathml(r"x + \foo", macros={"foo": r"\undefinedthing y"})
    assert caught.value.offset == 4
    assert caught.value.message.startswith(
        r"unsupported command \undefinedthing (in the expansion of \foo); define it"
    )


# Outputs as postil produced them before the skips of the fifth session (61237db).
@pytest.mark.parametrize(
    ("latex", "display", "html"),
    [
        (  # relations and dots without a script: the rows fixed without walk_styles
            r"x = y \le z \ldots",
            False,
            "<mrow><mi>x</mi><mo>=</mo><mi>y</mi><mo>≤</mo><mi>z</mi>"
            '<mspace width="0.1667em"></mspace><mi>…</mi></mrow>',
        ),
        (  # an inline `\binom` still gets text-size parentheses beside a plain fraction
            r"\binom{n}{k} + \frac{a}{b}",
            False,
            '<mrow><mo minsize="1.2em" maxsize="1.2em" symmetric="true" stretchy="true" '
            'lspace="0em" rspace="0em">(</mo>'
            '<mfrac linethickness="0"><mrow><mi>n</mi></mrow><mrow><mi>k</mi></mrow></mfrac>'
            '<mo minsize="1.2em" maxsize="1.2em" symmetric="true" stretchy="true" '
            'lspace="0em" rspace="0em">)</mo><mo>+</mo>'
            "<mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi></mrow></mfrac></mrow>",
        ),
        (
            r"-x \cdot |y|",
            False,
            '<mrow><mo form="prefix">−</mo><mi>x</mi><mo lspace="0.2222em" rspace="0.2222em">·</mo>'
            '<mo stretchy="false" lspace="0em" rspace="0em" form="prefix">|</mo><mi>y</mi>'
            '<mo stretchy="false" lspace="0em" rspace="0em" form="postfix">|</mo></mrow>',
        ),
        (  # latex2mathml's glyphs fixed: `*` and \dddot's combining mark
            r"a \ast \dddot{x}",
            False,
            '<mrow><mi>a</mi><mo lspace="0.2222em" rspace="0.2222em">∗</mo>'
            "<mover><mrow><mi>x</mi></mrow><mo>...</mo></mover></mrow>",
        ),
        (  # accents keep their kind; ∞ under one is still an `<mi>`, ± an `<mo>`
            r"\hat{x} \overline{\infty} \pm",
            False,
            '<mrow><mover><mrow><mi>x</mi></mrow><mo stretchy="false" style="math-depth:0">ˆ'
            '</mo></mover><mover accent="true"><mrow><mi>∞</mi></mrow><mpadded class="rule-over"'
            ' height="0.12em" depth="0"><mpadded width="0" height="0" depth="0"><mo class='
            '"wide-glyph" stretchy="false" lspace="0em" rspace="0em">‾</mo></mpadded><mphantom>'
            "<mrow><mi>∞</mi></mrow></mphantom></mpadded></mover>"
            '<mo lspace="0em" rspace="0em">±</mo></mrow>',  # last: an Ord (rule 6)
        ),
    ],
)
def test_math_fifth_session_skips_keep_the_output(latex, display, html):
    out = latex_to_mathml(latex, display=display)
    assert out.startswith(f'<math display="{"block" if display else "inline"}"><semantics>{html}<')


def test_math_atom_spacing_of_a_formula_without_scripts_walks_no_styles(monkeypatch):
    walks = _counting(monkeypatch, spacing, "walk_styles")
    latex_to_mathml(r"x = y \le z \ldots")
    assert walks[0] == 0
    latex_to_mathml(r"x_{a=b} = y")  # a relation in a script: its spaces go
    assert walks[0] == 1


def test_math_fraction_delimiters_walk_only_with_a_binom(monkeypatch):
    walks = _counting(monkeypatch, styles, "walk_styles")
    latex_to_mathml(r"\frac{a}{b} = c")
    assert walks[0] == 0
    latex_to_mathml(r"\binom{n}{k}")
    assert walks[0] == 1


def test_math_symbols_and_prefix_signs_skip_formulas_without_them(monkeypatch):
    commands = _counting(monkeypatch, tokens, "_replace_command")
    signs = _counting(monkeypatch, tokens, "_is_sign")
    latex_to_mathml(r"\frac{a}{b} = c")
    assert (commands[0], signs[0]) == (0, 0)
    latex_to_mathml(r"-x")
    assert signs[0] > 0


def _slow_syntax_check(latex: str) -> tuple[int, str]:
    """Return `locate_syntax_error(latex)` as found by its token loop alone."""
    real = syntax.NOT_ONLY_BRACES
    syntax.NOT_ONLY_BRACES = re.compile("")  # matches everywhere: never the brace test
    try:
        return locate_syntax_error(latex)
    finally:
        syntax.NOT_ONLY_BRACES = real


PIECES = ["{", "}", "a", " ", "\\{", "\\}", "\\\\", "\\left(", "\\right)", "%c\n", "\\end{x}"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_math_syntax_check_by_braces_agrees_with_the_token_loop(pieces):
    latex = "".join(pieces)
    assert locate_syntax_error(latex) == _slow_syntax_check(latex)


# Session 45 (issue 20): the passes read fewer elements; the outputs stay byte for byte.


def test_math_function_spacing_reads_only_words_and_scripted_children(monkeypatch):
    names = _counting(monkeypatch, spacing, "_is_function_name")
    out = latex_to_mathml(r"a + b c \log x")
    assert names[0] == 1  # the `<mi>log</mi>`; `a`, `+`, `b`, `c`, `x` are no word
    assert "<mi>log</mi><mo>\u2061</mo>" in out


def test_math_list_ends_read_the_class_of_operators_only(monkeypatch):
    ends = _counting(monkeypatch, listends, "_end_class")
    out = latex_to_mathml(r"a b c d = e")
    assert ends[0] == 1  # the `=`; a row without an operator is not read at all
    assert "<mo>=</mo>" in out


def test_math_prefix_signs_read_the_operand_before_operators_only(monkeypatch):
    operands = _counting(monkeypatch, tokens, "_expects_operand")
    out = latex_to_mathml(r"a b c - d")
    assert operands[0] == 1  # before the `−`; letters need no look back
    assert "<mo>−</mo>" in out  # binary: `c` before it


def test_math_inline_limits_walk_no_styles_without_a_display_switch(monkeypatch):
    walks = _counting(monkeypatch, limits, "walk_styles")
    inline = latex_to_mathml(r"\sum_{i} x_i")
    assert walks[0] == 0
    assert "<msub>" in inline and "<munder>" not in inline
    assert "<munder>" in latex_to_mathml(r"{\displaystyle \sum_{i} x_i}")
    assert walks[0] == 1
    assert "<munder>" in latex_to_mathml(r"\sum_{i} x_i", display=True)
    assert walks[0] == 2


def test_math_atom_spacing_reports_a_large_operator_a_script_unspaces():
    # An operator spaced as binary by its `lspace` alone is its symbol's class once the
    # script takes the space away: `space_large_operators` must still see the ∑.
    root = ET.fromstring(
        '<mrow><msub><mi>x</mi><mrow><mi>a</mi><mo lspace="0.2222em">∑</mo><mi>b</mi>'
        "</mrow></msub></mrow>"
    )
    classes = spacing.fix_atom_spacing(root, False)
    assert root.find(".//mo").get("lspace") == "0em"
    assert spacing.atom_class(root.find(".//mo")) == "mathop"
    assert "mathop" in classes and "mathbin" in classes


def test_math_atom_spacing_finds_large_operators_without_another_walk(monkeypatch):
    large = _counting(monkeypatch, listends, "space_large_operators")
    latex_to_mathml(r"a + b = c")
    assert large[0] == 0
    out = latex_to_mathml(r"a = \sum_i b_i")
    assert large[0] == 1
    assert '<msub><mo lspace="0em">∑</mo><mi>i</mi></msub>' in out  # no Rel–Op thin space
