"""latex_to_mathml, kind by kind: structure, MathML Core fixes, safety, errors, numbering, cache."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from postil.math import (
    MathCache,
    MathSyntaxError,
    MathUnsupportedError,
    latex_to_mathml,
)


def tree(latex: str, display: bool = False, **kwargs) -> ET.Element:
    return ET.fromstring(latex_to_mathml(latex, display=display, **kwargs))


def texts(root: ET.Element, tag: str) -> list[str]:
    return [el.text or "" for el in root.iter(tag)]


def test_output_is_math_with_semantics_and_the_tex_annotation():
    root = tree(r"\frac{a}{b}", display=True)
    assert root.tag == "math" and root.get("display") == "block"
    annotation = root.find("semantics/annotation")
    assert annotation.get("encoding") == "application/x-tex" and annotation.text == r"\frac{a}{b}"
    assert tree("x").get("display") == "inline"


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\operatorname{Attention}(Q, K, V)", ["Attention", "\u2061", "("]),
        (r"\log p", ["log", "\u2061", "p"]),
        (r"\log_2 7", ["log", "2", "\u2061", "7"]),
    ],
)
def test_function_names_are_mi_followed_by_function_application(latex, expected):
    root = tree(latex)
    leaves = [el.text for el in root.iter() if el.tag in ("mi", "mo", "mn") and el.text]
    assert leaves[: len(expected)] == expected
    assert "Attention" not in texts(root, "mo")


def test_function_name_gets_a_thin_space_before_a_letter_but_not_before_a_paren():
    spaces = [el.get("width") for el in tree(r"\log p").iter("mspace")]
    assert spaces == ["0.1667em"]
    assert [el.get("width") for el in tree(r"\sin(x)").iter("mspace")] == []


def space_width(el) -> str | None:
    """Return an `<mspace>`'s width: its `width`, or a negative space's left margin."""
    style = el.get("style", "")
    return el.get("width") or (style.split("margin-left:")[1] if "margin-left:" in style else None)


def test_thin_space_before_a_left_group_cancels_against_a_negative_space():
    root = tree(r"\operatorname{softmax}\!\left(x\right)")
    assert [space_width(el) for el in root.iter("mspace")] == ["0.1667em", "-0.1667em"]


def test_math_alphabets_are_unicode_characters_not_mathvariant():
    root = tree(r"\mathbf{x} \mathbb{R} \mathcal{L} \boldsymbol{\sigma}")
    assert texts(root, "mi") == ["𝐱", "ℝ", "ℒ", "𝝈"]
    assert not [el for el in root.iter() if el.get("mathvariant") not in (None, "normal")]


def test_roman_words_are_one_identifier_and_roman_d_stays_upright():
    root = tree(r"D_{\mathrm{KL}} \mathrm{d}x")
    assert "KL" in texts(root, "mi")
    d = next(el for el in root.iter("mi") if el.text == "d")
    assert d.get("mathvariant") == "normal"


def test_spaces_are_em_lengths():
    formula = tree(r"a\!b\,c\;d\quad e\qquad f\hspace{18mu}g")
    widths = [space_width(el) for el in formula.iter("mspace")]
    assert widths == ["-0.1667em", "0.167em", "0.278em", "1em", "2em", "1em"]


def test_display_limits_go_under_and_inline_limits_beside():
    display = tree(r"\sum_{i=1}^n \max_x \operatorname*{arg\,max}_\theta f", display=True)
    scripted = [el.tag for el in display[0][0] if el.tag not in ("mo", "mspace", "mi")]
    assert scripted == ["munderover", "munder", "munder"]
    inline = tree(r"\sum_{i=1}^n x")
    assert inline[0][0][0].tag == "msubsup"


def test_limits_in_a_display_fraction_stay_beside():
    root = tree(r"\frac{\sum_{k=1}^{n} x}{2}", display=True)
    assert root.find(".//mfrac/mrow/msubsup") is not None


@pytest.mark.parametrize("env", ["aligned", "split", "align*"])
def test_aligned_environments_are_tables_with_css_alignment(env):
    root = tree(rf"\begin{{{env}}} a &= b \\ c &= d \end{{{env}}}", display=True)
    table = root.find(".//mtable")
    rows = table.findall("mtr")
    assert len(rows) == 2 and table.get("displaystyle") == "true"
    assert "text-align:right" in rows[0][0].get("style")
    assert "text-align:left" in rows[0][1].get("style")
    assert not [el for el in root.iter() if el.get("columnalign") or el.get("linebreak")]


def test_cases_is_a_brace_and_a_left_aligned_table():
    root = tree(r"f(x) = \begin{cases} 0 & x < 0 \\ x & \text{otherwise} \end{cases}")
    assert "{" in texts(root, "mo")
    cells = root.findall(".//mtd")
    assert all("text-align:left" in c.get("style") for c in cells)
    assert "padding:0 0 0.1em 1em" in cells[1].get("style")  # a quad before the condition
    # LaTeX's cases sets \arraystretch to 1.2: every row has a strut 1.2 times the array's
    # (0.84em high, 0.36em deep, less the 0.1em of \lineskip below the row).
    struts = [s for s in root.iter() if s.tag.endswith("mspace") and s.get("height")]
    assert [(s.get("height"), s.get("depth")) for s in struts] == [("1.008em", "0.332em")] * 2


def test_array_rules_become_cell_borders():
    root = tree(r"\begin{array}{c|c} 1 & 2 \\ \hline 3 & 4 \end{array}")
    first_row = root.find(".//mtr")
    assert "border-right" in first_row[0].get("style")
    assert "border-bottom" in first_row[1].get("style")
    assert root.find(".//mtable").get("columnlines") is None


@pytest.mark.parametrize(
    ("latex", "symbol"),
    [(r"x \sim y", "∼"), (r"a \ast b", "∗"), (r"x^*", "∗"), (r"a \bullet b", "∙")],
)
def test_operators_use_the_glyphs_tex_fonts_draw(latex, symbol):
    assert symbol in texts(tree(latex), "mo")


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\text{R\&D}", "R&D"),
        (r"\text{<b>x</b>}", "<b>x</b>"),
        (r"\text{caf\'{e}}", "café"),
        (r"\text{\textless script\textgreater}", "<script>"),
        (r"\text{Fig.~1}", "Fig. 1"),
    ],
)
def test_text_content_is_resolved_and_escaped_on_output(latex, text):
    html = latex_to_mathml(latex)
    assert ET.fromstring(html).find(".//mtext").text.replace("\u00a0", " ") == text
    assert "<b>" not in html and "<script" not in html


def test_math_inside_text_stays_math():
    root = tree(r"\text{where $x^2$ is small}")
    assert (
        texts(root, "mtext") == ["where\u00a0", "\u00a0is\u00a0small"]
        and root.find(".//msup") is not None
    )


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "java\nscript:alert(1)", "data:text/html,x"]
)
def test_unsafe_link_targets_are_refused(url):
    with pytest.raises(MathUnsupportedError) as info:
        latex_to_mathml(rf"\href{{{url}}}{{x}}")
    assert info.value.command == r"\href"


def test_safe_link_targets_are_kept():
    assert 'href="https://example.org/a"' in latex_to_mathml(r"\href{https://example.org/a}{x}")


@pytest.mark.parametrize(
    "command",
    [
        r"\htmlClass{a}{x}",
        r"\class{a}{x}",
        r"\cssId{a}{x}",
        r"\htmlId{a}{x}",
        r"\htmlData{a=b}{x}",
        r"\class{a\" onmouseover=\"alert(1)}{x}",
    ],
)
def test_html_commands_keep_their_math_and_drop_their_html(command):
    r"""MathJax posts color-code with `\class`: the formula was refused (shown as its TeX);
    now the math stays and no class, id or data attribute reaches the page."""
    mathml = latex_to_mathml(command)
    body = mathml.split("<annotation")[0]
    assert "<mi>x</mi>" in body
    assert not re.search(r"\b(?:class|id|data-\w+|onmouseover)=", body)


def test_style_keeps_only_colour_and_box_properties():
    mathml = latex_to_mathml(
        r"\style{color: teal; background:url(javascript:alert(1)); font-size: 3em}{x}"
        r" + \htmlStyle{border: 1px solid red; position: fixed}{y}"
    )
    body = mathml.split("<annotation")[0]
    assert 'style="color:teal"' in body and 'style="border:1px solid red"' in body
    assert "javascript" not in body and "font-size" not in body and "position" not in body


def test_includegraphics_is_refused_with_a_clear_error():
    with pytest.raises(MathUnsupportedError, match="not allowed") as info:
        latex_to_mathml(r"\includegraphics{x.png}")
    assert info.value.command == r"\includegraphics"


def test_unknown_command_error_names_the_command_and_its_offset():
    with pytest.raises(MathUnsupportedError) as info:
        latex_to_mathml(r"a + \nosuch{b}")
    assert (info.value.command, info.value.offset) == (r"\nosuch", 4)
    assert info.value.excerpt(r"a + \nosuch{b}") == "a + \\nosuch{b}\n    ^"


@pytest.mark.parametrize(
    ("latex", "offset"),
    [(r"\frac{a", 5), (r"a}", 1), (r"\left( x", 0), (r"\begin{aligned} a \end{gathered}", 18)],
)
def test_syntax_errors_point_at_the_unbalanced_construct(latex, offset):
    with pytest.raises(MathSyntaxError) as info:
        latex_to_mathml(latex)
    assert info.value.offset == offset


def test_unsupported_environment_is_named():
    with pytest.raises(MathUnsupportedError, match="tikzcd"):
        latex_to_mathml(r"\begin{tikzcd} A \arrow[r] & B \end{tikzcd}", display=True)


def test_macros_builtin_site_and_in_formula_definitions():
    assert texts(tree(r"\R \N \Z"), "mi") == ["ℝ", "ℕ", "ℤ"]
    assert texts(tree(r"\E[X]", macros={"E": r"\mathbb{E}"}), "mi") == ["𝔼", "X"]
    root = tree(r"\newcommand{\norm}[1]{\lVert #1 \rVert} \norm{v}")
    assert "v" in texts(root, "mi") and "‖" in texts(root, "mo")
    root = tree(r"\DeclareMathOperator{\tr}{tr} \tr A")
    assert "tr" in texts(root, "mi") and "\u2061" in texts(root, "mo")


def test_recursive_macro_is_a_syntax_error_not_a_hang():
    with pytest.raises(MathSyntaxError, match="terminate"):
        latex_to_mathml(r"\def\a{\a x} \a")


def test_label_numbers_a_display_equation_at_the_right_margin():
    root = tree(r"E = mc^2 \label{eq:e}", display=True)
    row = root.find(".//mtr")
    assert row.get("id") == "eq-e"
    assert row[-1].find("mtext").text == "(1)" and "text-align:right" in row[-1].get("style")


def test_numbers_from_the_document_and_tags_override():
    root = tree(r"x \label{eq:x}", display=True, numbers=["7"])
    assert root.find(".//mtr")[-1].find("mtext").text == "(7)"
    assert tree(r"x \tag{A}", display=True).find(".//mtr")[-1].find("mtext").text == "(A)"


def test_eqref_links_to_the_label_with_the_documents_number():
    link = tree(r"\eqref{eq:x}", equations={"eq:x": "3"}).find(".//mtext/a")
    assert (link.get("href"), link.text) == ("#eq-x", "(3)")
    assert tree(r"\ref{eq:y}").find(".//mtext/a").text == "??"


def test_cache_returns_the_same_result_and_round_trips_through_export():
    cache = MathCache()
    first = latex_to_mathml(r"\alpha + \beta", cache=cache)
    assert latex_to_mathml(r"\alpha + \beta", cache=cache) == first and cache.hits == 1
    other = MathCache()
    other.load(cache.export())
    assert len(other) == len(cache) and first in other.export().values()


def test_cache_key_depends_on_macros():
    cache = MathCache()
    a = latex_to_mathml(r"\X", macros={"X": "a"}, cache=cache)
    assert a != latex_to_mathml(r"\X", macros={"X": "b"}, cache=cache)
    assert cache.misses == 2


def test_without_a_cache_nothing_is_stored_anywhere():
    cache = MathCache()
    assert latex_to_mathml(r"\gamma") == latex_to_mathml(r"\gamma", cache=cache)
    assert len(cache) == 1 and cache.hits == 0


@pytest.mark.parametrize(
    ("latex", "tokens"),
    [
        (r"\operatorname{Attention}(Q, K, V)", ["Attention", "(", "Q", ",", "K", ",", "V", ")"]),
        (r"Q \in \mathbb{R}^{n \times d}", ["Q", "∈", "ℝ", "n", "×", "d"]),
        (r"M_{ij} = -\infty", ["M", "i", "j", "=", "−", "∞"]),
        (r"\log_2 7 \approx 2.81", ["log", "2", "7", "≈", "2.81"]),
        (r"O(n^2)", ["O", "(", "n", "2", ")"]),
        (r"\operatorname{Var}(q^\top k) = d", ["Var", "(", "q", "⊤", "k", ")", "=", "d"]),
    ],
)
def test_reference_post_formulas_have_exactly_these_symbols(latex, tokens):
    root = tree(latex)
    got = [el.text for el in root.iter() if el.tag in ("mi", "mo", "mn") and el.text]
    assert [t for t in got if t != "\u2061"] == tokens


@pytest.mark.parametrize("env", ["multline", "multline*"])
def test_multline_first_line_left_last_right_middle_centred(env):
    root = tree(rf"\begin{{{env}}} a \\ b \\ c \end{{{env}}}", display=True)
    table = next(t for t in root.iter("mtable") if t.get("class") != "numbered")
    aligns = [row.find("mtd").get("style").split(";text-align:")[-1] for row in table]
    assert aligns == ["-webkit-left", "-webkit-center", "-webkit-right"]
    assert (root.find(".//mtd[@class='eqno']") is not None) == (env == "multline")


@pytest.mark.parametrize("latex", ["", "  ", "% only a comment", "\\def\\x{1}"])
def test_math_empty_formula_converts_to_an_empty_math_element(latex):
    html = latex_to_mathml(latex, display=True)
    assert html.startswith('<math display="block"><semantics><mrow><mrow></mrow></mrow>')


def test_the_math_cache_gives_its_newest_entries_newest_first():
    from postil.math.cache import MathCache

    cache = MathCache(limit=3)
    for key in "abcd":  # `a` is dropped when `d` comes
        cache.put(key, key.upper())
    assert cache.newest(2) == {"d": "D", "c": "C"} and list(cache.newest(2)) == ["d", "c"]
    assert cache.newest(5) == {"d": "D", "c": "C", "b": "B"}
    assert cache.newest(0) == {} and cache.newest(-1) == {}


@pytest.mark.parametrize(
    ("latex", "superscript"),
    [(r"f_2'^2", ["′", "2"]), (r"f_2''^{n}", ["′", "′", "n"]), (r"f'^2", ["′", "2"])],
)
def test_primes_and_the_superscript_after_them_are_one_superscript(latex, superscript):
    # TeX reads `'^2` as `^{\prime 2}` (The TeXbook, ch. 16); latex2mathml nested `f_2'^2`
    # as msup(msubsup(f, 2, ′), 2), the 2 raised above the prime
    root = tree(latex)
    scripted = root.find(".//msubsup") if "_" in latex else root.find(".//msup")
    assert scripted is not None and root.find(".//msup/msubsup") is None
    assert [el.text for el in scripted[-1].iter() if el.text and el.text.strip()] == superscript


def test_a_subscript_and_a_prime_alone_stay_as_they_are():
    root = tree(r"f_2' + x_i^2")
    assert [len(el) for el in root.iter("msubsup")] == [3, 3]
    assert root.find(".//msup") is None
