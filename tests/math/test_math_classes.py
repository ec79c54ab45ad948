"""Token kinds by TeX math class (`postil.math.classes`): `<mi>` for Ord, `<mo>` for operators,
`form="prefix"` for unary signs. The corpus score compares token texts only, so these
assert the tags and attributes themselves."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from postil.math import latex_to_mathml
from postil.math.symbols import symbol_class, tex_classes


def tokens(latex: str, display: bool = False) -> list[ET.Element]:
    root = ET.fromstring(latex_to_mathml(latex, display=display))
    return [el for el in root.iter() if el.tag in ("mi", "mo", "mn") and el.text != "\u2061"]


def token(latex: str, text: str) -> ET.Element:
    return next(el for el in tokens(latex) if el.text == text)


ORD_SYMBOLS = [
    (r"\infty", "∞"),
    (r"\emptyset", "∅"),
    (r"\varnothing", "∅"),
    (r"\partial", "∂"),
    (r"\ell", "ℓ"),
    (r"\hbar", "ℏ"),
    (r"\hslash", "ℏ"),
    (r"\aleph", "ℵ"),
    (r"\beth", "ℶ"),
    (r"\Re", "ℜ"),
    (r"\Im", "ℑ"),
    (r"\wp", "℘"),
    (r"\top", "⊤"),
    (r"\bot", "⊥"),
    (r"\angle", "∠"),
    (r"\triangle", "△"),
    (r"\forall", "∀"),
    (r"\exists", "∃"),
    (r"\S", "§"),
    (r"\vdots", "⋮"),
    (r"\cdots", "⋯"),
    (r"/", "/"),
]


@pytest.mark.parametrize(("latex", "text"), ORD_SYMBOLS)
def test_ordinary_symbols_are_identifiers_not_operators(latex, text):
    (el,) = [el for el in tokens(f"a {latex} b") if el.text == text]
    assert el.tag == "mi" and set(el.attrib) <= {"class"}  # a glyph variant's (`\\emptyset`)


def test_nabla_is_an_upright_identifier_and_partial_an_italic_one():
    """TeX's `\\nabla` is in the upright symbol font, `\\partial` in the italic one
    (plain.tex); MathML Core draws a one-character `<mi>` italic unless told otherwise."""
    (nabla,) = [el for el in tokens(r"a \nabla b") if el.text == "∇"]
    (partial,) = [el for el in tokens(r"a \partial b") if el.text == "∂"]
    assert nabla.tag == "mi" and nabla.attrib == {"mathvariant": "normal"}
    assert partial.tag == "mi" and not partial.attrib


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("|", "|"),
        (r"\|", "‖"),
        (r"\vert", "|"),
        (r"\Vert", "‖"),
        (r"\lvert", "|"),
        (r"\rVert", "‖"),
    ],
)
def test_bars_are_unstretched_operators_without_side_space(latex, text):
    el = token(f"a {latex} b", text)
    assert el.tag == "mo"
    assert (el.get("stretchy"), el.get("lspace"), el.get("rspace")) == ("false", "0em", "0em")


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\pm", "±"),
        (r"\mp", "∓"),
        (r"\implies", "⟹"),
        (r"\iff", "⟺"),
        (r"\amalg", "⨿"),
        (r"\leqslant", "⩽"),
        (r"\perp", "⟂"),
        (r"\bigtriangleup", "△"),
        (r"\therefore", "∴"),
        (r"\And", "&"),
    ],
)
def test_binary_and_relation_symbols_are_operators(latex, text):
    assert token(f"a {latex} b", text).tag == "mo"


def test_big_operators_are_operators_with_limits_under_in_display():
    root = ET.fromstring(latex_to_mathml(r"\bigoplus_{i=1}^n V_i", display=True))
    base = root.find(".//munderover")[0]
    assert (base.tag, base.text) == ("mo", "⨁")


def test_angle_brackets_without_left_are_operators_that_do_not_stretch():
    for text in "⟨⟩":
        el = token(r"\langle \frac{a}{b} \rangle", text)
        assert el.tag == "mo" and el.get("stretchy") == "false"


def test_lvert_stays_an_operator_that_does_not_stretch_and_left_bar_stretches():
    bars = [el for el in tokens(r"\lvert \frac{a}{b} \rvert") if el.text == "|"]
    assert [(b.tag, b.get("stretchy")) for b in bars] == [("mo", "false")] * 2
    bars = [el for el in tokens(r"\left| \frac{a}{b} \right|") if el.text == "|"]
    assert [(b.tag, b.get("stretchy")) for b in bars] == [("mo", "true")] * 2


def test_big_delimiter_keeps_its_size_stretches_and_is_spaced_as_an_ordinary_atom():
    bar = token(r"a \big| x \big| b", "|")  # infix `|`: the dictionary neither stretches
    assert bar.tag == "mo" and bar.get("minsize") and bar.get("stretchy") == "true"
    assert (bar.get("lspace"), bar.get("rspace")) == ("0em", "0em")  # nor spaces it as TeX


def test_bigm_delimiter_is_a_relation_with_its_spaces_but_not_in_scripts():
    bar = token(r"a \Bigm| b", "|")
    assert (bar.get("minsize"), bar.get("stretchy")) == ("1.8em", "true")
    assert (bar.get("lspace"), bar.get("rspace")) == ("0.2778em", "0.2778em")
    bar = token(r"x^{a \bigm| b}", "|")
    assert (bar.get("lspace"), bar.get("rspace")) == ("0em", "0em")
    bar = token(r"a \bigl| b", "|")  # an Open atom, which latex2mathml writes as `\bigm|`
    assert (bar.get("lspace"), bar.get("rspace")) == ("0em", "0em")


def test_primes_are_operators_without_side_space():
    prime = token("f'(x)", "′")
    assert prime.tag == "mo"
    assert (prime.get("lspace"), prime.get("rspace")) == ("0em", "0em")


def test_colon_is_a_relation_and_backslash_colon_is_punctuation():
    relation = token(r"\{x : x > 0\}", ":")
    assert relation.tag == "mo" and relation.get("lspace") == relation.get("rspace") == "0.2778em"
    punct = token(r"f \colon A \to B", ":")
    assert punct.tag == "mo" and punct.get("lspace") is None


def test_accents_and_letters_keep_their_kind():
    hat = ET.fromstring(latex_to_mathml(r"\hat{x}")).find(".//mover")
    assert hat[1].tag == "mo"
    assert token(r"\omicron", "ο").tag == "mi"


def test_class_table_comes_from_unicode_math_with_tex_ascii_codes():
    assert len(tex_classes()) > 2000
    assert [symbol_class(c) for c in "∞±⟨/:"] == [
        "mathord",
        "mathbin",
        "mathopen",
        "mathord",
        "mathrel",
    ]
    assert symbol_class("x") is None and symbol_class("≩\ufe00") == "mathrel"


def form_of_first_sign(latex: str) -> str | None:
    return next(el for el in tokens(latex) if el.text and el.text in "−+±∓").get("form")


@pytest.mark.parametrize(
    "latex",
    [
        r"-x",
        r"-\infty",
        r"M_{ij} = -\infty",
        r"(-a)",
        r"[-1, 1]",
        r"x^{-1}",
        r"e^{-x}",
        r"x \le -2",
        r"x = \pm 1",
        r"a, -b",
        r"\log -x",
        r"\sum_i -x_i",
        r"\left(-x\right)",
        r"x^+",
        r"\begin{cases} -x & x < 0 \end{cases}",
    ],
)
def test_unary_signs_are_prefix_operators(latex):
    assert form_of_first_sign(latex) == "prefix"


@pytest.mark.parametrize(
    "latex",
    [
        r"a - b",
        r"(a) - b",
        r"x^2 - 1",
        r"f' - g",
        r"\frac{a}{b} + c",
        r"\text{if } - x",
        r"\begin{aligned} a &= b \\ &- c \end{aligned}",
    ],
)
def test_binary_signs_keep_the_infix_form(latex):
    assert form_of_first_sign(latex) is None


def test_a_sign_after_a_prefix_sign_is_prefix_too():
    signs = [el.get("form") for el in tokens("--x")]
    assert signs[:2] == ["prefix", "prefix"]


def test_bmod_is_an_operator_word_with_5mu_on_each_side_in_every_style_not_a_function():
    # latex.ltx: \nonscript\mskip-\medmuskip\mkern5mu\mathbin{mod}\penalty900\mkern5mu…
    mod = token(r"a \bmod b", "mod")
    assert mod.tag == "mo" and mod.get("lspace") == mod.get("rspace") == "0.2778em"
    assert "\u2061" not in latex_to_mathml(r"a \bmod b")
    in_script = token(r"c_{i \bmod N}", "mod")
    assert in_script.get("lspace") == in_script.get("rspace") == "0.2778em"
