"""MathJax and KaTeX loaded by a post itself (`postil.markdown.mathloader`)."""

from __future__ import annotations

import pytest

from postil.markdown.mathloader import browser_math, config_macros


@pytest.mark.parametrize(
    ("tag", "body"),
    [
        ('<script async src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js">', ""),
        ("<script src='/assets/js/katex.min.js' defer>", ""),
        ('<script type="text/x-mathjax-config">', "MathJax.Hub.Config({});"),
        ("<script>", "window.MathJax = {tex: {inlineMath: [['$', '$']]}};"),
        ("<script>", "renderMathInElement(document.body, {delimiters: []});"),
        ("<script>", 'katex.render("c = \\\\pm\\\\sqrt{a^2 + b^2}", element);'),
        ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/katex/dist/katex.css">', ""),
    ],
)
def test_what_loads_configures_or_runs_mathjax_or_katex_is_browser_math(tag, body):
    assert browser_math(tag, body)


@pytest.mark.parametrize(
    ("tag", "body"),
    [
        ('<script src="/js/plotly.min.js">', ""),
        ("<script>", "console.log('the MathJax docs are long');"),
        ('<link rel="stylesheet" href="/css/site.css">', ""),
        ('<div class="mathjax">', ""),
        ('<script type="module">', "import {x} from './mathjaxish-free.js';"),
    ],
)
def test_other_scripts_links_and_elements_are_not(tag, body):
    assert not browser_math(tag, body)


def test_mathjax_2_3_and_katex_macros_become_newcommands():
    mathjax2 = """MathJax.Hub.Config({TeX: {Macros: {
        RR: "{\\\\bf R}", bold: ["{\\\\bf #1}", 1], abs: ['\\\\left|#1\\\\right|', 1],
        pair: ["(#1, #2)", 2, ""], zero: ["z", 0], fn: function () {}, v: someVariable }}});"""
    assert config_macros(mathjax2) == (
        "\\newcommand{\\RR}{{\\bf R}}\\newcommand{\\bold}[1]{{\\bf #1}}"
        "\\newcommand{\\abs}[1]{\\left|#1\\right|}\\newcommand{\\pair}[2][]{(#1, #2)}"
        "\\newcommand{\\zero}{z}"
    )
    mathjax3 = 'window.MathJax = {tex: {macros: {E: "\\\\mathbb{E}"}}};'
    assert config_macros(mathjax3) == "\\newcommand{\\E}{\\mathbb{E}}"
    katex = 'renderMathInElement(document.body, {macros: {"\\\\Var": "\\\\operatorname{Var}"}});'
    assert config_macros(katex) == "\\newcommand{\\Var}{\\operatorname{Var}}"
    assert config_macros("MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$']]}});") == ""


def test_a_mathjax_macro_default_makes_its_first_argument_optional():
    """MathJax's `[body, n, default]`: the first of n arguments optional (a `]` in the
    default is kept inside braces, so it does not end the option)."""
    config = """MathJax = {tex: {macros: {norm: ["\\\\lVert #2 \\\\rVert_{#1}", 2, "2"],
        odd: ["#1", 1, "]"]}}};"""
    assert config_macros(config) == (
        "\\newcommand{\\norm}[2][2]{\\lVert #2 \\rVert_{#1}}\\newcommand{\\odd}[1][{]}]{#1}"
    )


def test_comments_are_skipped_and_template_literals_read():
    """A `//` comment between entries ended the object (the macros after it were lost
    without a word); a `macros: {…}` commented out was read; a template literal ended it."""
    config = """window.MathJax = {
      tex: {
        macros: {
          RR: "{\\\\bf R}",  // the reals }
          /* old: macros: {gone: "x"} */
          half: `\\\\frac{1}{2}`,
          url: "https://example.org/a//b",
          vb: '\\\\mathbf{v}',
        },
      },
    };"""
    assert config_macros(config) == (
        "\\newcommand{\\RR}{{\\bf R}}\\newcommand{\\half}{\\frac{1}{2}}"
        "\\newcommand{\\url}{https://example.org/a//b}\\newcommand{\\vb}{\\mathbf{v}}"
    )
    # a template literal with a substitution is no fixed TeX: it ends the object
    assert config_macros("MathJax = {tex: {macros: {A: `${x}`, B: 'b'}}}") == ""
