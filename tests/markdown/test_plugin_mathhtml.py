"""Math inside raw HTML blocks is typeset (`postil.markdown.mathhtml`); dollars in prose,
code and MathML are not math."""

from __future__ import annotations

import re

from support.markdown import render_post as render


def test_a_caption_with_math_in_raw_html_is_typeset_without_a_warning():
    text = (
        "Intro.\n\n<figure><img src='a.png' alt=''>\n"
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


def test_spaced_dollars_in_raw_html_read_as_in_markdown():
    text = (
        "<p><div>The set $\\{$ $\\textrm{a}_1 = $ <i>x</i>$\\}$, a norm "
        "$\\|\\cdot\\|_p : V \\to \\mathbb{R} $ and $ n $ items.</div></p>\n"
    )
    html, found = render(text)
    assert found == [] and "$" not in html and html.count("<math") == 5
    prices = "<div>Costs $ 5 or $ 10, $y $ here and $ x$ there.</div>\n"
    assert render(prices)[0] == prices  # as Markdown reads them (with no warning here)


MATHJAX_POST = """\
<script type="text/javascript" async
  src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.5/MathJax.js?config=TeX-AMS_CHTML">
</script>
<script type="text/x-mathjax-config">
MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$']]},
  TeX: {Macros: {RR: "{\\\\bf R}", bold: ["{\\\\bf #1}", 1], E: '\\\\mathbb{E}'}}});
</script>

Before the macros: $x$. After: $\\RR$, $\\bold{v}$, $\\E$; it costs $5 and $10.

<link rel="stylesheet" href="/katex/katex.min.css"><script src="/katex/auto-render.js"></script>
<script>renderMathInElement(document.body, {macros: {"\\\\Var": "\\\\operatorname{Var}"}});</script>

$\\Var(X)$

<script>console.log("$x$ is no math here")</script>
<link rel="stylesheet" href="/css/extra.css">
"""


def test_mathjax_and_katex_the_post_loads_are_left_out_and_their_macros_defined():
    html, found = render(MATHJAX_POST)
    assert found == []
    assert "mathjax" not in html.lower() and "katex" not in html.lower()
    assert "renderMathInElement" not in html
    assert '<script>console.log("$x$ is no math here")</script>' in html  # other scripts stay
    assert '<link rel="stylesheet" href="/css/extra.css">' in html
    assert html.count("<math") == 5
    assert "<mi>𝐑</mi>" in html and "<mi>𝐯</mi>" in html and "<mi>𝔼</mi>" in html
    assert "<mi>Var</mi>" in html
    assert "costs $5 and $10" in html


def test_a_macro_from_a_mathjax_configuration_applies_only_after_it():
    text = (
        "$\\RR$\n\n<script>MathJax.Hub.Config({TeX: {Macros: {RR: '\\\\mathbb{R}'}}});</script>\n"
    )
    _, found = render(text)
    assert len(found) == 1
    assert found[0].startswith("post.md:1:2: warning: unsupported command \\RR;")


def test_a_math_environment_in_raw_html_is_display_math_with_its_label():
    # MathJax's `processEnvironments` typesets `\begin{equation}` wherever it is, `<p>` too.
    text = (
        "<p>\n\\begin{equation}\\label{eq:loss}\nL = (w - y)^2\n\\end{equation}\n</p>\n\n"
        "The loss \\eqref{eq:loss}.\n"
    )
    html, found = render(text)
    assert found == []
    shown = re.sub(r"<annotation.*?</annotation>", "", html, flags=re.S)
    assert html.count("<math") == 1 and "\\begin" not in shown
    assert '<p>\n<span class="math-display"' in html and 'id="eq-loss"' in html
    assert '<a class="eqref" href="#eq-loss">(1)</a>' in html


def test_an_unknown_or_unended_environment_in_raw_html_stays_text():
    text = "<div>\n\\begin{tabular}{ll} a & b \\end{tabular}\n\\begin{align} x\n</div>\n"
    html, found = render(text)
    assert found == [] and "<math" not in html
    assert "\\begin{tabular}" in html and "\\begin{align} x" in html


def test_a_colour_defined_in_a_hidden_preamble_colours_later_formulas():
    # The preamble of macros and colours MathJax posts hide in a `display: none` div.
    text = (
        '<div style="display: none">\n$$\n\\definecolor{cvred}{RGB}{230, 29, 0}\n'
        "\\def\\cone{ {\\color{cvred}{1}} }\n$$\n</div>\n\n"
        "Then $\\cone + \\textcolor{cvred}{x}$ and $\\color{BrickRed} y$.\n"
    )
    html, found = render(text)
    assert found == []
    assert html.count('mathcolor="#E61D00"') == 2 and 'mathcolor="#B6321C"' in html


def test_an_eqref_in_raw_html_links_to_the_equation_and_an_unknown_one_is_a_warning():
    # MathJax's `processRefs`: a figure caption in a `<div>` refers to an equation.
    text = (
        "$$ a \\label{eq:a} $$\n\n"
        '<div class="caption">By \\eqref{eq:a} and \\ref{eq:a}; <code>\\eqref{eq:a}</code>'
        " stays code; \\eqref{eq:zz}.</div>\n"
    )
    html, found = render(text)
    assert (
        'By <a class="eqref" href="#eq-a">(1)</a> and <a class="eqref" href="#eq-a">1</a>' in html
    )
    assert "<code>\\eqref{eq:a}</code>" in html
    assert [f.split(":", 3)[:3] for f in found] == [["post.md", "3", "92"]]
    assert found[0].startswith(
        "post.md:3:92: warning: unknown equation label 'eq:zz' in \\eqref/\\ref: "
    )
    assert '; <strong class="xref-missing">(??)</strong>.</div>' in html
