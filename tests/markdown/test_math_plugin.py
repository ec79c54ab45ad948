"""The Markdown math plugin: syntax (fixture file), located diagnostics, numbering, macros."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file

from postil.errors import Severity
from postil.markdown import create_markdown, render_markdown
from postil.markdown.math import UNCLOSED_DISPLAY, math_plugin
from postil.markdown.mathescape import (
    DOLLAR_ESCAPES,
    KRAMDOWN_ESCAPES,
    source_offset,
    unescape,
    unescape_subscripts,
)
from postil.markdown.state import RenderState

FIXTURES = Path(__file__).parents[1] / "fixtures" / "math.md"


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    math_plugin(md)
    return md


def render(source: str, **state_args) -> tuple[str, RenderState]:
    state = RenderState(path="post.md", **state_args)
    state.source_lines = source.split("\n")
    return parser().render(source, {"postil": state}), state


@pytest.mark.parametrize(
    ("line", "title", "source", "expected"),
    read_fixture_file(FIXTURES),
    ids=[case[1] for case in read_fixture_file(FIXTURES)],
)
def test_math_fixture(line, title, source, expected):
    html, _ = render(source)
    assert html == expected


def test_math_unknown_command_reports_line_column_and_caret():
    html, state = render("intro line\n\nsee $a + \\foo{x}$ here\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 10)
    assert "\\foo" in diag.message
    assert diag.report() == (
        f"post.md:3:10: warning: {diag.message}\n    see $a + \\foo{{x}}$ here\n             ^"
    )
    assert 'class="math-error"' in html


def test_math_syntax_error_is_a_warning_at_the_unclosed_brace_and_shows_the_tex():
    html, state = render("$$\nx = \\frac{a\n$$\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING  # Pandoc's, Quarto's, mystmd's: the build goes on
    assert '<span class="math-error" title="cannot parse the formula: { is never closed">' in html
    assert "<code>\nx = \\frac{a\n</code>" in html
    assert (diag.location.line, diag.location.col) == (2, 10)


def test_math_error_column_inside_a_table_cell_and_a_list_item():
    source = "| a | b |\n| - | - |\n| x | $\\nope$ |\n\n- item $y \\bad$\n"
    _, state = render(source)
    spots = [(d.location.line, d.location.col) for d in state.diagnostics]
    assert spots == [(3, 8), (5, 11)]


def test_math_error_line_counts_newlines_inside_a_display_formula():
    _, state = render("$$\na \\\\\nb + \\oops\n$$\n", body_line=5)
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (5 + 2, 5)


def test_math_error_inside_display_math_in_a_block_quote_points_past_the_marker():
    html, state = render("> Theorem.\n>\n> $$\n> x + \\frac{a}\n> $$\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (4, 7)
    assert "&gt;" not in html.split("<annotation")[0]


def test_math_unknown_and_duplicate_labels_are_warnings_with_lines():
    source = "$$ a \\label{eq:a} $$\n\n$$ b \\label{eq:a} $$\n\nsee \\eqref{eq:zz}\n"
    html, state = render(source)
    messages = [(d.severity, d.location.line, d.message) for d in state.diagnostics]
    assert '<strong class="xref-missing">(??)</strong>' in html  # LaTeX's ??, no link
    assert (
        Severity.WARNING,
        3,
        "duplicate equation label 'eq:a' (line 1 has it); a label must be unique in a post: "
        "rename one",
    ) in messages
    assert any(line == 5 and "unknown equation label 'eq:zz'" in m for _, line, m in messages)


def test_math_equations_are_numbered_in_document_order_with_align_rows():
    source = (
        "$$ x \\label{eq:first} $$\n\n"
        "\\begin{align}\na &= b \\label{eq:second} \\\\\n"
        "c &= d \\nonumber \\\\\ne &= f\n\\end{align}\n"
    )
    html, state = render(source)
    assert state.equations == {"eq:first": "1", "eq:second": "2"}
    assert html.count('class="eqno"><mtext>(') == 3
    assert "<mtext>(3)</mtext>" in html and 'id="eq-second"' in html


def test_a_formula_only_referring_is_reported_at_its_reference():
    html, state = render("$$ a = b \\label{eq:ab} $$\n\nsee ( $(\\ref{eq:nb})$ ) and\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (3, 9)
    assert "unknown equation label 'eq:nb'" in diag.message
    assert '<p>see ( (<strong class="xref-missing">??</strong>) ) and</p>' in html


@pytest.mark.parametrize("formula", ["$\\eqref{ }$", "$x = \\ref{}$"])
def test_a_reference_without_a_label_says_so_not_that_the_label_is_unknown(formula):
    _, state = render(f"$$ a = b \\label{{eq:ab}} $$\n\nsee {formula} here\n")
    (diag,) = state.diagnostics
    assert diag.message.startswith("\\eqref/\\ref names no label: write the label")
    assert diag.location.line == 3


def test_math_eqref_inside_math_links_to_the_equation():
    html, _ = render("$$ a = b \\label{eq:ab} $$\n\nso $c = \\eqref{eq:ab}$\n")
    assert '<mtext><a href="#eq-ab">(1)</a></mtext>' in html


def test_math_eqref_to_a_tag_holding_math_reads_as_text_not_tex():
    # brucemiller/LaTeXML#533: `\tag{$1'$}` showed "($1'$)" at the equation and in references.
    source = "$$ z = b \\tag{$1'$} \\label{eq:p} $$\n\nsee \\eqref{eq:p}, $x = \\ref{eq:p}$\n"
    html, state = render(source)
    assert not state.diagnostics
    assert '<a class="eqref" href="#eq-p">(1′)</a>' in html
    assert '<mtext><a href="#eq-p">1′</a></mtext>' in html
    assert "$1'$" not in html.replace("\\tag{$1'$}", "")  # only the TeX annotation keeps it


def test_math_site_and_front_matter_macros_apply():
    html, state = render("$\\RR^n \\to \\E$\n", macros={"RR": r"\mathbb{R}", "E": r"\mathbb{E}"})
    assert not state.diagnostics
    assert "<mi>ℝ</mi>" in html and "<mi>𝔼</mi>" in html


def test_math_optional_argument_and_environment_defined_once_apply_to_later_formulas():
    # MathJax's newcommand extension (and latex2mathml's own tests): `[n][default]` and
    # `\newenvironment` in a post's preamble formula, used in the formulas after it.
    source = (
        "$$\\newcommand{\\norm}[2][2]{\\lVert #2 \\rVert_{#1}}\n"
        "\\newenvironment{pmat}{\\left(\\begin{matrix}}{\\end{matrix}\\right)}$$\n\n"
        "Then $\\norm{x} \\le \\norm[1]{x}$ and\n\n$$\\begin{pmat} a & b \\end{pmat}$$\n"
    )
    html, state = render(source)
    assert not state.diagnostics
    subscripts = re.findall(r"<msub><mo[^>]*>‖</mo><mrow><mn>(\d)</mn></mrow></msub>", html)
    assert subscripts == ["2", "1"]
    assert '<mo stretchy="true" fence="true" form="prefix">(</mo><mtable>' in html
    assert "#" not in re.sub(r"<annotation.*?</annotation>", "", html)


def test_math_macro_defined_later_does_not_apply_earlier():
    _, state = render("$\\Foo$ then $\\def\\Foo{x} \\Foo$\n")
    (message,) = [d.message.split("\n")[0] for d in state.diagnostics]
    assert message.startswith("unsupported command \\Foo; define it with \\newcommand{\\Foo}{…}")


def test_math_plugin_works_in_postils_full_parser_with_a_table():
    state = RenderState(path="post.md")
    body = "| a | b |\n| --- | --- |\n| $|x|$ | $\\log_2 7$ |\n"
    rendered = render_markdown(create_markdown(), body, state)
    assert rendered.html.count("<math") == 2
    assert "<td>" in rendered.html and not state.diagnostics


@pytest.mark.parametrize(
    ("source", "spot", "message"),
    [
        ("$$$$\n", (1, 1), "empty display math `$$…$$`: write a formula in it or delete it"),
        ("text\n\n$$ $$\n", (3, 1), "empty display math `$$…$$`"),
        ("\\[\\]\n", (1, 1), "empty display math `\\[…\\]`"),
        ("a \\( \\) b\n", (1, 3), "empty inline math `\\(…\\)`"),
        ("a $$ % nothing\n$$ b\n", (1, 3), "empty display math `$$…$$`"),
        # mathjax/MathJax#2274: a comment hiding the formula on its own line
        (
            "$$% <![CDATA[ \\begin{align} a &= b \\end{align} %]]>$$\n",
            (1, 1),
            "display math `$$…$$` is all a TeX comment (`%` hides the rest of its line): "
            "break the line after the comment or delete the `%`",
        ),
        ("- item\n\n  ```math\n  ```\n", (3, 3), "empty display math ```math fence"),
        ("\\begin{equation*}\n\\end{equation*}\n", (1, 1), "empty display math `\\begin{eq"),
    ],
)
def test_math_empty_formula_is_a_warning_at_its_opening_delimiter(source, spot, message):
    html, state = render(source)
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == spot
    assert diag.message.startswith(message)
    assert "<math" not in html and "math-display" not in html and "no available" not in html


@pytest.mark.parametrize("source", ["$$\\tag{1}$$\n", "$$ \\label{eq:x} $$\n"])
def test_math_equation_with_only_a_number_warns_and_still_shows_the_number(source):
    html, state = render(source + "\nsee \\eqref{eq:x}\n" if "label" in source else source)
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING and (diag.location.line, diag.location.col) == (1, 1)
    assert diag.message == (
        "`$$…$$` has an equation number but no formula: write one or delete the equation"
    )
    assert 'class="eqno"><mtext>(1)</mtext>' in html


def test_math_inline_label_alone_warns_and_renders_nothing():
    html, state = render("x $\\label{eq:y}$ y\n")
    assert [d.message for d in state.diagnostics] == [
        "`$…$` holds only \\label/\\tag, which inline math ignores: delete it"
    ]
    assert html == "<p>x  y</p>\n"


def test_math_label_in_inline_math_warns_once_at_the_label_and_its_eqref_builds():
    # kramdown's inline `$$…$$` with a label: no number, so the reference cannot show one
    source = "Let $$x = 1 \\label{eq:one}$$ hold; see \\eqref{eq:one}.\n"
    html, state = render(source, body_line=3)
    assert [(str(d.location), d.severity, d.message) for d in state.diagnostics] == [
        (
            "post.md:3:13",
            Severity.WARNING,
            "\\label{eq:one} is in inline math, which has no equation number, so "
            "\\eqref{eq:one} shows (??): put the formula on lines of its own (`$$` alone on "
            "the lines before and after it) to number it",
        )
    ]
    assert html.count('<math display="inline">') == 1 and "eqno" not in html


def test_math_tag_in_inline_math_warns_at_the_tag_it_drops():
    # KaTeX/KaTeX#899: amsmath refuses `\tag` in inline math; postil leaves it out, saying so
    html, state = render("So $x = 1 \\tag{$\\ast$}$ holds, and $y\\tag*{A}$.\n")
    assert [(str(d.location), d.message) for d in state.diagnostics] == [
        (
            "post.md:1:11",
            "\\tag{$\\ast$} is in inline math, which shows no equation number, so it is "
            "left out: put the formula on lines of its own (`$$` alone on the lines before "
            "and after it) to show it",
        ),
        (
            "post.md:1:38",
            "\\tag*{A} is in inline math, which shows no equation number, so it is left out: "
            "put the formula on lines of its own (`$$` alone on the lines before and after "
            "it) to show it",
        ),
    ]
    assert html.count('<math display="inline">') == 2 and "eqno" not in html
    # negative: a tag in display math is its number, unwarned
    html, state = render("$$\nx = 1 \\tag{A}\n$$\n")
    assert not state.diagnostics and "(A)" in html


def test_math_definitions_only_formula_is_silent():
    html, state = render("$$\\def\\x{1}$$\n\n$\\x$\n")
    assert not state.diagnostics
    assert html.count("<math") == 1 and "math-display" not in html


def test_math_double_dollar_in_text_display_reads_pandocs_way_but_headings_stay_inline():
    html, state = render("## A $$x$$ b\n\ntext $$y$$ more\n", double_dollar_in_text="display")
    heading, paragraph = html.split("\n", 1)
    assert '<math display="inline">' in heading and "math-display" not in heading
    assert paragraph.startswith('<p>text <span class="math-display"')
    assert '<math display="block">' in paragraph and not state.diagnostics


def test_math_dollars_blank_line_after_finished_tex_warns_once_naming_both_lines():
    html, state = render("text\n$$\na = b\n\nc\n$$\n", body_line=3)
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (4, 1)
    assert diag.message == (
        "`$$` opens display math that is not closed before the blank line on line 6: a "
        "formula cannot hold a blank line; delete it (the `$$` on line 8 closes it)"
    )
    assert "<math" not in html


def test_math_dollars_closing_an_inline_formula_at_a_line_start_is_no_unclosed_opener():
    html, state = render("where $$\nx\n$$ is the mean, and $$a +\n$$ too\n")
    assert not state.diagnostics
    assert html.count('<math display="block">') == 2


@pytest.mark.parametrize(
    "source",
    [
        "the first `$$` is missing:\n$$\nx\n$$\n\nEnd.\n",
        "> the first `$$` is missing:\n> $$\n> x\n> $$\n",
        "`$` and `` `$$` `` and `$`:\n$$\nx\n$$\n",
        "in `a $$ b` we write:\n\\begin{align}\nx &= 1\n\\end{align}\n",
    ],
)
def test_math_dollars_in_code_spans_leave_no_formula_open(source):
    """A paragraph's code span holding `$$` (a post explaining kramdown's math) left the
    paragraph's `$$` count odd: the display formula after it was read as closing one, and
    its closing `$$` warned as never closed."""
    html, state = render(source)
    assert not state.diagnostics
    assert html.count('<math display="block">') == 1


def test_math_unclosed_dollars_after_a_code_span_still_warn():
    _, state = render("in `a $$ b` we write:\n$$\nx\n")
    assert [(d.location.line, d.message) for d in state.diagnostics] == [(2, UNCLOSED_DISPLAY)]


def test_math_dollars_on_lazy_lines_of_a_list_item_are_display_math_without_a_warning():
    html, state = render("- the solution is\n$$\nX = c_1\n$$\nfor some $c$.\n- next\n")
    assert not state.diagnostics
    item = html.split("<li>")[1]
    assert item.count('<math display="block">') == 1 and "for some" in item


def test_math_unclosed_dollars_on_a_lazy_line_of_a_list_item_still_warn():
    _, state = render("- the solution is\n$$\nX = c_1\n")
    assert [(d.location.line, d.message) for d in state.diagnostics] == [(2, UNCLOSED_DISPLAY)]


def test_math_unclosed_dollars_inside_a_paragraph_warn_at_their_column_in_a_quote():
    _, state = render("> text\n> $$\n> x\n")
    assert [(d.location.line, d.location.col, d.message) for d in state.diagnostics] == [
        (2, 3, UNCLOSED_DISPLAY)
    ]


@pytest.mark.parametrize(
    "source",
    [
        "> Quote:\n> $$\na + b\n> $$\n",  # a lazy line inside the formula
        "> $$\n> c\nd\n> $$\n\n> $$ e $$\n",  # then a quote whose `$$` would close it
    ],
)
def test_math_quoted_dollars_closed_after_a_lazy_line_are_display_math_without_a_warning(source):
    html, state = render(source)
    assert not state.diagnostics
    assert html.count('<math display="block">') == source.count("$$") // 2
    assert "$$" not in html.split("<annotation")[0]


def test_math_quoted_dollars_left_open_after_a_lazy_line_still_warn():
    _, state = render("> $$\n> open\nlazy\n\nText.\n")
    assert [(d.location.line, d.location.col, d.message) for d in state.diagnostics] == [
        (1, 3, UNCLOSED_DISPLAY)
    ]


def test_math_dollars_closed_with_punctuation_hold_their_environment_as_one_display_formula():
    source = "$$\n\\begin{align}a &= b \\\\\n&= c\n\\end{align}\n$$.\n\nNext $$z$$ here.\n"
    html, state = render(source)
    assert not state.diagnostics
    assert html.count('<math display="block">') == 1 and "$$" not in html.split("<annotation")[0]
    assert "</math></span>.</p>" in html  # the period stays after the formula


def test_math_an_environment_after_closed_double_dollars_still_starts_a_formula_of_its_own():
    html, state = render("Text $$a$$ and\n\\begin{align}b &= c\n\\end{align}\n")
    assert not state.diagnostics
    assert html.count('<math display="block">') == 1 and html.count('display="inline"') == 1


def test_math_error_column_inside_kramdown_escaped_math_points_at_the_source():
    source = "see \\\\(a\\_1 + b\\_2 + \\foo\\\\) here\n"
    _, state = render(source)
    (diag,) = state.diagnostics
    assert "\\foo" in diag.message
    assert (diag.location.line, diag.location.col) == (1, source.index("\\foo") + 1)


def test_math_error_in_raw_html_is_a_warning_at_its_line_and_column():
    html, state = render("Intro.\n\n<div>\nsee $\\frac{a}{b$ here\n</div>\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (4, 14)  # the `{` never closed
    assert diag.message == "cannot parse the formula: { is never closed"
    assert '<span class="math-error"' in html and "<div>" in html


def test_math_latex_that_is_no_math_warns_once_at_its_outer_environment():
    body = (
        "Intro.\n\n\\begin{algorithm}\n\\caption{Filter}\n  \\begin{algorithmic}[1]\n"
        "    \\State $x = 1$\n  \\end{algorithmic}\n\\end{algorithm}\n\n"
        "\\begin{tikzpicture}\n\\end{tikzpicture}\n"
    )
    html, state = render(body)
    assert html.count("<math") == 1  # the formula inside is still math
    assert [str(d).split(": warning: ")[0] for d in state.diagnostics] == [
        "post.md:3:1",
        "post.md:10:1",
    ]
    assert state.diagnostics[0].message.startswith(
        "`\\begin{algorithm}` is LaTeX that postil does not typeset (only math environments"
    )


def test_math_a_link_to_an_equation_label_is_checked_at_the_equations_id():
    body = "\\begin{equation} \\label{eq:lif}\na = b\n\\end{equation}\n\nSee [eq:lif](#eq:lif).\n"
    result = render_markdown(create_markdown(), body, RenderState(path="post.md"))
    assert [link.fragment for link in result.anchor_links] == ["eq-lif"]
    assert 'id="eq-lif"' in result.html


def test_unescape_returns_tex_without_an_escapable_escape_itself():
    """Most formulas have backslashes but no Markdown escape: they are returned as given
    (one search), not rebuilt character by character."""
    tex = r"\frac{a}{b} + \alpha \\ x"
    assert unescape(tex, DOLLAR_ESCAPES) == (tex, ())
    assert unescape(tex, DOLLAR_ESCAPES)[0] is tex
    assert unescape(r"\{x\}", DOLLAR_ESCAPES)[0] == r"\{x\}"
    assert unescape(r"\{x\} \* \\*", DOLLAR_ESCAPES) == (r"\{x\} * \\*", (6,))
    assert unescape(r"a\_b \, c", KRAMDOWN_ESCAPES) == (r"a_b \, c", (1,))


def test_hugo_blox_math_wrappers_around_display_math_leave_no_tag_and_no_warning():
    body = (
        "Each {{< math >}}$X_i${{< /math >}} counts.\n\n"
        "{{< math >}}$$\n\\left\\{\n\\begin{aligned}\nx &= 1 \\\\\ny &= 2\n\\end{aligned}\n"
        "\\right.\n$${{< /math >}}\n\n"
        "{{< math >}}$$\nz\n$$\n{{< /math >}}\n\nDone.\n"
    )
    result = render_markdown(create_markdown(), body, RenderState(path="post.md"))
    assert result.html.count('<math display="block">') == 2
    assert result.html.count('<math display="inline">') == 1
    assert "{{" not in result.html and "$" not in result.html.replace("\\$", "")
    assert "\\right.\n</annotation>" in result.html
    assert [str(d) for d in result.diagnostics] == []


def test_unescape_decodes_html_character_references_and_maps_them_to_their_ampersand():
    tex = r"x &amp;= y \_ &#x2264; 1"
    out, removed = unescape(tex, KRAMDOWN_ESCAPES)
    assert out == "x &= y _ ≤ 1"
    assert [tex[source_offset(i, removed)] for i in range(len(out))] == [
        "x",
        " ",
        "&",
        "=",
        " ",
        "y",
        " ",
        "_",
        " ",
        "&",
        " ",
        "1",
    ]
    assert unescape("a &foo; b &lt c", DOLLAR_ESCAPES) == ("a &foo; b &lt c", ())


def test_math_error_column_after_an_html_character_reference_points_at_the_source():
    source = "see $a &lt; b + \\foo$ and $`c &gt; \\bar`$ here\n"
    _, state = render(source)
    assert [(d.location.line, d.location.col) for d in state.diagnostics] == [
        (1, source.index("\\foo") + 1),
        (1, source.index("\\bar") + 1),
    ]


def _full(body: str) -> tuple[str, RenderState]:
    """Render `body` with every postil plugin; return the HTML and the state's diagnostics."""
    state = RenderState(path="post.md")
    return render_markdown(create_markdown(), body, state).html, state


def test_a_katex_shortcode_alone_only_loads_katex_and_is_read_without_a_word():
    for loader in ("{{< katex />}}", "{{< katex >}}"):  # Hugo Book's, Blowfish's
        html, state = _full(f"{loader}\n\nText {{{{< katex >}}}}x{{{{< /katex >}}}} here.\n")
        assert not state.diagnostics, loader
        assert "katex" not in html and html.count('<math display="inline">') == 1


def test_a_katex_pair_after_a_loader_is_still_math():
    body = "{{< katex />}}\n\n{{< katex display=true >}}\nf(x)\n{{< /katex >}}\n"
    html, state = _full(body)
    assert not state.diagnostics
    assert html.count('<math display="block">') == 1 and "katex" not in html


def test_an_unpaired_double_dollar_in_a_paragraph_warns_at_its_line_and_column():
    body = "Intro.\n\nSet $$X=(x_1, x_m$$)$$. So $$A$$ is fine.\n\n- item with $$ alone\n"
    html, state = _full(body)
    assert [str(d).split(": warning: ")[0] for d in state.diagnostics] == [
        "post.md:3:31",
        "post.md:5:13",
    ]
    assert state.diagnostics[0].message == (
        "`$$` opens a formula that is never closed in this paragraph; add the closing `$$` "
        "after its TeX, or remove the extra `$$`"
    )
    assert "item with $$ alone" in html


def test_a_paired_double_dollar_and_a_lone_dollar_are_silent():
    html, state = _full("costs $5, or $$x$$ and `$$` in code\n")
    assert not state.diagnostics and html.count("<math") == 1


def test_latex_environments_in_a_paragraph_warn_unless_they_are_math():
    body = (
        "See \\begin{tikzpicture}\\begin{scope}x\\end{scope}\\end{tikzpicture} and "
        "\\begin{align} a \\end{align}.\n\nOpen \\begin{aligned} a &= b\n"
    )
    html, state = _full(body)
    located = [(str(d).split(": warning: ")[0], d.message) for d in state.diagnostics]
    assert located == [
        (
            "post.md:1:5",
            "`\\begin{tikzpicture}` is LaTeX that postil does not typeset (only math "
            "environments, docs/math.md), so it shows as text; write it as Markdown, a code "
            "block or an image",
        ),
        (
            "post.md:3:6",
            "`\\begin{aligned}` is never ended in this paragraph, so it shows as text; add "
            "`\\end{aligned}` after its TeX",
        ),
    ]
    assert html.count('<math display="block">') == 1


def test_bookdown_references_number_equations_and_theorems_and_name_headings():
    body = (
        "By \\@ref(eq:ab), Theorem \\@ref(thm:pyth), Lemma \\@ref(lem:key), see "
        "\\@ref(intro) and \\@ref(set-up).\n\n"
        "\\begin{align}\na &= b (\\#eq:ab) \\\\\nc &= d\n\\end{align}\n\n"
        '::: {.theorem #pyth name="Pythagoras"}\nRight.\n:::\n\n'
        "```{lemma, key}\nKey.\n```\n\n"
        "## Introduction {#intro}\n\n## Set-up\n"
    )
    html, state = _full(body)
    assert not state.diagnostics
    assert '<a class="eqref" href="#eq-ab">1</a>' in html
    assert 'Theorem <a class="xref" href="#pyth">1</a>' in html
    assert 'Lemma <a class="xref" href="#key">1</a>' in html
    assert '<a class="xref" href="#intro">Introduction</a>' in html
    # a heading bookdown names by Pandoc's identifier gets that id
    assert '<a class="xref" href="#set-up">Set-up</a>' in html and '<h2 id="set-up">' in html


def test_bookdown_references_to_nothing_show_question_marks_with_the_fix():
    html, state = _full("See \\@ref(fig:plot) and \\@ref(intro).\n\n## Other\n")
    assert html.count('<strong class="xref-missing">??</strong>') == 2
    assert [(str(d).split(": warning: ")[0], d.message) for d in state.diagnostics] == [
        (
            "post.md:1:5",
            "bookdown's `\\@ref(fig:plot)` names no figure of this post (looked for the id "
            "`plot`), so it shows ??; fix the label, or give the figure `{#plot}` (one a code "
            "chunk makes has none: postil does not run code)",
        ),
        (
            "post.md:1:25",
            "bookdown's `\\@ref(intro)` names no heading of this post (looked for the id "
            "`intro`), so it shows ??; fix the label, or give the heading `{#intro}`",
        ),
    ]


def test_a_bookdown_reference_to_an_unknown_equation_is_a_warning_at_it():
    html, state = _full("See \\@ref(eq:none).\n")
    (diag,) = state.diagnostics
    assert '<strong class="xref-missing">??</strong>' in html
    assert diag.severity is Severity.WARNING and (diag.location.line, diag.location.col) == (1, 5)


def test_an_unsupported_math_environment_is_named_as_one_with_its_fix():
    _, state = _full("Text.\n\n\\begin{tikzcd}\nA \\arrow[r] & B\n\\end{tikzcd}\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (3, 1)
    assert diag.message.startswith(
        "`\\begin{tikzcd}` is a math environment postil does not support (tikz-cd's "
        "commutative diagram; draw it as an image"
    )


def test_an_amscd_diagram_on_its_own_lines_is_display_math():
    # MathJax's amscd and KaTeX's CD draw it; postil writes it as an array (math/amscd.py)
    html, state = _full(
        "Text.\n\n\\begin{CD}\nA @>f>> B\\\\\n@VgVV @VVhV\\\\\nC @>>k> D\n\\end{CD}\n"
    )
    assert not state.diagnostics
    assert '<math display="block">' in html and "<mtable" in html and "↓" in html


def test_math_lone_letter_before_a_spaced_dollar_stays_text_with_one_located_warning():
    html, state = render("intro\n\nWe store $Y $ in memory and $X $ too, then $Z$.\n")
    (diag,) = state.diagnostics  # once a paragraph
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 10)
    assert "`$Y $` stays text" in diag.message and "without the space" in diag.message
    assert "$Y $ in memory" in html


def test_math_lone_letter_after_an_opening_spaced_dollar_stays_text_with_a_warning():
    html, state = render("- We split it in $ k$ sets, then $1, 2, \\dots, k$.\n")
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (1, 18)
    assert "`$ k$` stays text" in diag.message and "space inside the `$`" in diag.message
    assert "$ k$ sets" in html and html.count("<math") == 1


def test_math_prices_and_cjk_spaced_dollars_give_no_lone_letter_warning():
    _, state = render("it costs $5 and $10, $A $B\n\na $ 5$ tip\n\nor $ A$B\n\n中文$x $中文\n")
    assert not state.diagnostics


def test_math_brace_error_after_kramdown_escapes_says_how_they_were_read():
    _, state = render("and $a_{\\\\{x\\\\}$ fails\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (1, 8)
    assert "{ is never closed" in diag.message
    assert "`\\\\{` and `\\\\}` were read as `\\{` and `\\}`" in diag.message


def test_math_brace_error_in_raw_tex_gets_no_escape_hint():
    _, state = render("and $a_{x$ fails\n")
    (diag,) = state.diagnostics
    assert "escapes" not in diag.message


@pytest.mark.parametrize(
    "source",
    [
        "1. An equation\n    $$2x + 3$$\nand a lazy line.\n2. Next\n",
        "> For example:\n>\n> $$\nf(n) = n^2 +\n\\begin{cases} 1 \\end{cases}\n$$\n",
        "1. a\n   $$\n   x\nlazy\n   $$\n",  # closed after a lazy line: one formula
    ],
)
def test_display_math_with_lazy_lines_stays_in_its_container_without_a_warning(source):
    html, state = render(source)
    assert not state.diagnostics
    assert html.count('<math display="block">') == 1
    inside = html.split("</li>")[0] if source[0] == "1" else html.split("</blockquote>")[0]
    assert '<math display="block">' in inside and "$$" not in inside.split("<annotation")[0]


def test_display_math_opened_in_a_list_item_and_cut_by_a_new_item_still_warns():
    _, state = render("- item\n  $$\n  x\n- y\n")
    assert [(d.location.line, d.location.col, d.message) for d in state.diagnostics] == [
        (2, 3, UNCLOSED_DISPLAY)
    ]


def test_kramdowns_escaped_math_block_is_inline_math_and_escaped_dollars_stay_silent():
    html, state = render("\\$$ x^2 $$\n\ntext \\$\\$ not math $$ here.\n\n\\$$ y $$ more\n")
    assert not state.diagnostics
    assert html.count('<math display="inline">') == 1
    assert "<p>text $$ not math $$ here.</p>" in html and "<p>$$ y $$ more</p>" in html


def test_a_formula_error_after_kramdowns_escape_is_located_at_its_tex():
    _, state = render("\\$$ \\frac{a} $$\n")
    [diag] = state.diagnostics
    assert (diag.location.line, diag.location.col) == (1, 5)


def test_math_definitions_in_prose_apply_from_their_place_on_as_pandocs_latex_macros():
    # Pandoc reads its macro table as it parses: a use before the definition stays unknown
    _, state = render("$\\RR$ first.\n\n\\newcommand{\\RR}{\\mathbb{R}}\n\n$\\RR$ then.\n")
    (diag,) = state.diagnostics
    assert diag.location.line == 1 and "\\RR" in diag.message


def test_math_malformed_definition_in_prose_warns_at_it_and_stays_text():
    html, state = render("Intro.\n\n  \\newcommand{\\R}\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 18)
    assert diag.message.startswith("this line reads as a TeX macro definition, but ")
    assert "<p>\\newcommand{\\R}</p>" in html


def test_math_definition_paragraph_is_left_out_of_postils_full_parser_output():
    state = RenderState(path="post.md")
    source = "\\DeclareMathOperator{\\girth}{girth}\n\nSo $\\girth(G)$.\n"
    html = render_markdown(create_markdown(), source, state).html
    assert not state.diagnostics
    assert "DeclareMathOperator" not in html.split("<annotation")[0]
    assert html.count("<p>") == 1 and "<mi>girth</mi>" in html


def test_math_escaped_eqref_to_no_label_is_a_warning_at_its_backslashes():
    _, state = render("$$ a \\label{eq:a} $$\n\nSee \\\\eqref{eq:nope}.\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 5)
    assert "unknown equation label 'eq:nope'" in diag.message


def test_math_formula_shaped_escaped_brackets_left_as_brackets_warn_at_their_place():
    # goessner/markdown-it-texmath#9: `\[…\]` in prose meant as display math; in a post
    # with no backslash-delimited formula it stays CommonMark's brackets, never silently
    _, state = render("intro\n\nWe have \\[f(x)\\] for all x, median\\[IQR\\].\n")
    (diag,) = state.diagnostics
    assert diag.severity is Severity.WARNING
    assert (diag.location.line, diag.location.col) == (3, 9)
    assert "`\\[f(x)\\]` is read as the brackets `[f(x)]`" in diag.message
    assert "`$$f(x)$$`" in diag.message


def test_math_formula_shaped_escaped_brackets_in_a_backslash_math_post_are_math_unwarned():
    html, state = render("We have \\[f(x)\\] for all x.\n\nThen \\(a_1\\) too.\n")
    assert not state.diagnostics
    assert html.count('class="math-display"') == 1


def test_math_formula_shaped_escaped_brackets_beside_any_inline_backslash_math_are_math():
    """`\\(x\\)` is math whatever it holds, so a post writing it writes for MathJax (a fresh
    user's trial: the warning said the post wrote no such formula)."""
    html, state = render("Inline \\(x\\) first.\n\nThe function \\[f(x)\\] is shown.\n")
    assert not state.diagnostics
    assert html.count('class="math-display"') == 1
    # glued to a word, `f\(x\)` is brackets: it makes no post a MathJax one
    html, state = render("The function \\[f(x)\\] is shown, not f\\(x\\).\n")
    assert "[f(x)]" in html and len(state.diagnostics) == 1


def test_math_a_sentence_in_escaped_parentheses_makes_no_post_a_mathjax_one():
    """`\\(the binary independence model\\)` is parentheses (Pandoc's escape), so it says
    nothing of how the post writes math: `\\[f(x)\\]` stays brackets with the warning."""
    html, state = render("The model \\(the binary independence model\\).\n\nThe \\[f(x)\\].\n")
    assert "(the binary independence model)" in html and "[f(x)]" in html
    assert len(state.diagnostics) == 1


def test_a_definecolor_line_in_prose_is_a_definition_for_the_formulas_after_it():
    """As `\\newcommand` lines are (Pandoc's latex_macros, Franklin.jl): shown as nothing,
    in force after it (a trial found it shown as text and the colour unknown)."""
    html, state = render(
        "\\definecolor{accent}{RGB}{230,29,0}\n\n"
        "See $\\color{accent} a$ and $\\color{accent!50} b$.\n"
    )
    assert "definecolor" not in html.split("<annotation")[0]
    assert 'mathcolor="#E61D00"' in html and 'mathcolor="#F28E80"' in html
    assert not state.diagnostics


def test_math_error_column_after_escaped_subscripts_points_at_the_source():
    source = "see $y\\_t + x\\_{i} + \\foo$ here\n"
    _, state = render(source)
    (diag,) = state.diagnostics
    assert (diag.location.line, diag.location.col) == (1, source.index("\\foo") + 1)
    assert "\\foo" in diag.message


def test_escaped_subscripts_keep_a_text_arguments_underscore_and_map_every_offset():
    tex = r"\operatorname{arg\_max}\_x f(x\_i)"
    out, removed = unescape_subscripts(tex)
    assert out == r"\operatorname{arg\_max}_x f(x_i)"
    assert [tex[source_offset(i, removed)] for i in range(len(out))] == list(out)


@pytest.mark.parametrize(
    ("path", "source", "bars"),
    [
        # a kramdown tell (`\\{`) in one formula: the post's other `$…$` lost their escapes
        ("post.md", r"$D\_{KL}(P \| Q)$, $(P \| Q)$ and $x \\{ y \\}$.", "||"),
        # Pandoc keeps every formula's TeX as written, whatever one formula shows
        ("post.qmd", r"$D\_{KL}(P \| Q)$, $(P \| Q)$ and $x \\{ y \\}$.", "‖‖"),
        # `\_` subscripts alone tell nothing for the post's other formulas
        ("post.md", r"$D_{KL}(P \| Q)$ and a rate $\mathrm{lr}\_0$.", "‖"),
    ],
)
def test_a_posts_dollar_math_loses_its_escapes_only_when_a_kramdown_tell_says_so(
    path, source, bars
):
    state = RenderState(path=path)
    state.source_lines = source.split("\n")
    html = render_markdown(create_markdown(), source + "\n", state).html
    assert "".join(re.findall(r">([|‖])</mo>", html)) == bars


def test_math_comment_on_its_own_line_hides_only_that_line():
    html, state = render("$$\n% <![CDATA[\n\\begin{align} a &= b \\end{align}\n%]]>\n$$\n")
    assert not state.diagnostics and "<mtable" in html


def test_an_unsupported_command_is_one_warning_a_post_naming_the_formulas_lines():
    # a site's own macros, defined in its MathJax configuration: one warning each, not one a use
    source = "$\\rc{a}$ and $\\rc{b}$\n\n$$\n\\bc{x} + \\rc{y}\n$$\n\nthen $\\bc{z}$.\n"
    html, state = render(source)
    assert html.count('class="math-error"') == 4  # each formula still shows its TeX
    assert [(d.location.line, d.message.split(";")[0]) for d in state.diagnostics] == [
        (1, "unsupported command \\rc (in 2 formulas, line 1)"),
        (4, "unsupported command \\bc (in 2 formulas, lines 4, 7)"),
    ]
    _, state = render("$\\rc{a}$\n")  # negative: one use, the message as it was
    assert [d.message.split(";")[0] for d in state.diagnostics] == ["unsupported command \\rc"]


@pytest.mark.parametrize(
    "source",
    [
        "Which ends the proof. $$\\tag*{$\\blacksquare$}$$\n",  # kramdown's inline `$$`
        "Which ends the proof. $$\n\\tag*{$\\blacksquare$}\n$$\n",
        "Which ends the proof.\n\n$$\n\\tag*{$\\blacksquare$}\n$$\n",
        "Done. $\\tag*{$\\square$}$\n",
    ],
)
def test_math_a_starred_tag_alone_is_an_end_of_proof_mark_at_the_right_margin(source):
    html, state = render(source)
    assert state.diagnostics == []
    assert 'class="math-display"' in html
    assert re.search(r'class="eqno"><mrow></mrow><mrow><mi>[■□]</mi></mrow>', html)


def test_math_an_end_mark_takes_no_equation_number():
    html, state = render("Done. $$\\tag*{QED}$$\n\n$$\n\\begin{equation}x\\end{equation}\n$$\n")
    assert state.diagnostics == []
    assert "<mtext>QED</mtext>" in html and "<mtext>(1)</mtext>" in html


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x $$\\tag{1}$$ y\n", "`$$…$$` holds only \\label/\\tag, which inline math ignores"),
        ("x $a \\tag*{b}$ y\n", "\\tag*{b} is in inline math, which shows no equation number"),
    ],
)
def test_math_an_unstarred_tag_or_a_tag_beside_a_formula_is_no_end_mark(source, message):
    html, state = render(source)
    assert [d.message[: len(message)] for d in state.diagnostics] == [message]
    assert 'class="math-display"' not in html
