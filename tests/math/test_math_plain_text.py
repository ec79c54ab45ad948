r"""`postil.math.text`: a formula as readable plain text, and its TeX fallback."""

from __future__ import annotations

import pytest

from postil.math.text import mathml_to_text, script_characters, to_plain_text, without_tex

CASES = [
    # symbols, alphabets and operators are the characters the page draws
    (r"\alpha", "α"),
    (r"\mathbb{R}", "ℝ"),
    (r"\mathcal{L}(\theta)", "ℒ(θ)"),
    (r"\mathbf{x}", "𝐱"),
    (r"\text{KL}(p \| q)", "KL(p‖q)"),
    (r"\mathrm{KL}", "KL"),
    # the TeX logos read as their words, not their letters (LATEX)
    (r"\text{set in }\LaTeX{}", "set in LaTeX"),
    (r"\KaTeX, x^{\TeX}", "KaTeX, x^(TeX)"),
    (r"\displaystyle S", "S"),
    # spacing by TeX class: relations and binary operators spaced, prefix signs not
    (r"a+b=c", "a + b = c"),
    (r"a \le -b", "a ≤ −b"),
    (r"3 \times 3", "3 × 3"),
    (r"\{1,2\}", "{1, 2}"),
    (r"f\colon X\to Y", "f: X → Y"),
    (r"a \bmod b", "a mod b"),
    (r"a\,b\quad c", "a b c"),
    (r"\log p(x)", "log p(x)"),
    (r"\operatorname{softmax}(x)", "softmax(x)"),
    (r"\operatorname{softmax}\left(x\right)", "softmax(x)"),
    # scripts: Unicode's characters when each has one, else ^ and _
    (r"O(n^2)", "O(n²)"),
    (r"\mathbb{R}^n", "ℝⁿ"),
    (r"x^{n+1}", "xⁿ⁺¹"),
    (r"e^{-x}", "e⁻ˣ"),
    (r"10^{-3}", "10⁻³"),
    (r"x_{i+1}", "xᵢ₊₁"),
    (r"W^T", "Wᵀ"),
    (r"\mathit{x}^{\mathit{y}}", "𝑥ʸ"),
    (r"e^{i\pi}", "e^(iπ)"),
    (r"T_\mu", "T_μ"),
    (r"x_{i,j}", "x_(i,j)"),
    (r"e^{z_i}", "e^(zᵢ)"),
    (r"f'(x)", "f′(x)"),
    (r"\sum_{i=1}^n x_i", "∑ᵢ₌₁ⁿ xᵢ"),
    (r"\int_0^1 f(x)\,dx", "∫₀¹ f(x) dx"),
    (r"\lim_{n\to\infty} a_n", "lim_(n→∞) aₙ"),
    # fractions and roots
    (r"\frac12", "1/2"),
    (r"\frac{a+b}{2}", "(a + b)/2"),
    (r"\frac{\partial f}{\partial x}", "∂f/∂x"),
    (r"\frac{n(n+1)}{2}", "n(n + 1)/2"),
    (r"\sqrt{x+1}", "√(x + 1)"),
    (r"\sqrt{d_k}", "√dₖ"),
    (r"\sqrt[3]{x}", "∛x"),
    (r"\sqrt[n]{x}", "ⁿ√x"),
    # accents are combining marks
    (r"\hat{x}", "x̂"),
    (r"\vec v", "v⃗"),
    (r"\bar z", "z̄"),
    (r"\tilde y", "ỹ"),
    (r"\grave a", "à"),
    (r"\overline{AB}", "A̅B̅"),
    (r"\underline{x}", "x̲"),
    # extensible arrows: the arrow, its texts as scripts, spaced as a relation; empty
    # scripts are nothing, a ring superscript the degree sign
    (r"A \xrightarrow{f} B", "A →ᶠ B"),
    (r"A \xrightarrow{} B", "A → B"),
    (r"A \xrightarrow[g]{f} B", "A →_gᶠ B"),
    (r"x^{}", "x"),
    (r"90^\circ", "90°"),
    # mhchem
    (r"\ce{2H2 + O2 -> 2H2O}", "2 H₂ + O₂ → 2 H₂O"),
    (r"\ce{SO4^2-}", "SO₄²⁻"),
    (r"\ce{A <=>[k_1][k_2] B}", "A ⇌_(k₂)^(k₁) B"),
    (r"\pu{25 °C}", "25 °C"),
    (r"\pu{123 kJ/mol}", "123 kJ/mol"),
    # no text form: the TeX source, whitespace collapsed
    (r"\begin{pmatrix}a & b\end{pmatrix}", r"\begin{pmatrix}a & b\end{pmatrix}"),
    (r"\binom{n}{k}", r"\binom{n}{k}"),
    (r"\frac{a}", r"\frac{a}"),
    ("\\unknowncommand  x", r"\unknowncommand x"),
]


@pytest.mark.parametrize("latex, text", CASES)
def test_plain_text_of_formula(latex, text):
    assert to_plain_text(latex) == text


def test_plain_text_uses_the_macros_given():
    assert to_plain_text(r"\RR^d", macros={"RR": r"\mathbb{R}"}) == "ℝᵈ"


def test_mathml_that_does_not_parse_has_no_text():
    assert mathml_to_text("<math><mi>x</mi>") is None


def test_script_characters_come_from_unicode_decompositions():
    supers, subs = script_characters("super"), script_characters("sub")
    assert supers["2"] == "²" and supers["a"] == "ᵃ" and supers["−"] == "⁻"
    assert subs["0"] == "₀" and subs["i"] == "ᵢ" and "q" not in subs


def test_without_tex_drops_control_words_and_environments():
    assert without_tex(r"\begin{pmatrix}a & b\end{pmatrix}") == "a b"
    assert without_tex(r"\displaystyle S_{\mathrm{x}}") == "S x"
