"""Math macros in `postil.yaml` and front matter: text, MathJax's list form, and bad forms
reported at their line (`postil.macrodefs`)."""

from pathlib import Path

import pytest
from support.sites import config_problems

from postil.config import load_config
from postil.content.frontmatter import parse
from postil.errors import ContentError
from postil.math.texreader import macro_signature
from postil.model import SourceFile

HEAD = "title: T\nauthor: A\nbase_url: https://x.org/\nmath:\n  macros:\n"


def config_macros(tmp_path, lines):
    (tmp_path / "postil.yaml").write_text(HEAD + lines, encoding="utf-8")
    return dict(load_config(tmp_path).math_macros)


def test_mathjax_list_form_gives_the_count_and_the_optional_first_argument(tmp_path):
    macros = config_macros(
        tmp_path,
        "    norm: ['\\left\\lVert #1 \\right\\rVert', 1]\n"
        "    pr: ['P_{#1}(#2)', 2, 'x']\n"
        "    two: ['\\alpha', 2]\n"
        "    RR: '\\mathbb{R}'\n",
    )
    assert macros["norm"] == r"\left\lVert #1 \right\rVert"
    assert macro_signature(macros["pr"]) == (2, "x", "P_{#1}(#2)")
    assert macro_signature(macros["two"]) == (2, None, r"\alpha")  # MathJax: unused ones read
    assert macros["RR"] == r"\mathbb{R}"


@pytest.mark.parametrize(
    ("value", "col", "says"),
    [
        ("['\\a #2', 1]", 18, "macro `m` takes 1 argument but its body uses #2; write"),
        ("['\\a', x]", 8, "macro `m` is not a macro definition; write `m: '\\body with #1'`"),
        ("{a: b}", 8, "macro `m` is not a macro definition"),
        ("['\\a', 0, 'd']", 15, "macro `m` has a default for its first argument but takes none"),
        ("['\\a #1', 10]", 18, "macro `m` takes 10 arguments, but TeX has only #1 … #9"),
        ("'\\mathbb{R'", 8, "macro `m`: a `{` is never closed in `\\mathbb{R`; balance its"),
        ("'\\a}'", 8, "macro `m`: a `}` closes nothing in `\\a}`"),
    ],
)
def test_a_bad_macro_is_an_error_at_its_line_saying_how_to_write_it(tmp_path, value, col, says):
    (tmp_path / "postil.yaml").write_text(HEAD + f"    ok: '\\{{ \\}}'\n    m: {value}\n", "utf-8")
    [problem] = config_problems(tmp_path)
    assert (problem.location.line, problem.location.col) == (7, col)
    assert problem.message.startswith(says), problem.message


def test_front_matter_macros_take_the_list_form_and_report_bad_ones_at_their_line():
    def front(text: str):
        text = f"---\ntitle: T\n{text}---\nx\n"
        return parse(SourceFile(Path("x.md"), "content/posts/x.md", text, "post"), "UTC")

    meta = front("macros:\n  ip: ['\\langle #1, #2 \\rangle', 2]\n")[0]
    assert dict(meta.macros)["ip"] == r"\langle #1, #2 \rangle"
    with pytest.raises(ContentError) as err:
        front("macros:\n  RR: '\\mathbb{R'\n")
    assert err.value.location.line == 4
    assert "a `{` is never closed" in err.value.message


def _site_with_files(tmp_path: Path, files: dict[str, str], math: str) -> Path:
    """Write a site whose postil.yaml has `math:` lines `math` and the given files."""
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://x.org/\nmath:\n" + math, encoding="utf-8"
    )
    return tmp_path


MATHJAX_HEAD = r"""<script>
window.MathJax = {
  tex: {inlineMath: [['$', '$']], macros: {RR: "{\\mathbb{R}}", norm: ["\\lVert #1 \\rVert", 1]}}
};
</script>
<div hidden>$\newcommand{\vect}[1]{\boldsymbol{#1}}$</div>
"""

PREAMBLE = r"""% \newcommand{\commented}{x}: a comment defines nothing
\DeclareMathOperator*{\argmin}{arg\,min}
\def\eps{\varepsilon} \newcommand{\RR}{\mathbb{R}^n}
"""


def test_macros_from_reads_a_mathjax_setup_and_a_preamble_in_order_site_macros_winning(
    tmp_path,
):
    root = _site_with_files(
        tmp_path,
        {"_includes/mathjax.html": MATHJAX_HEAD, "preamble.tex": PREAMBLE},
        "  macros_from: [_includes/mathjax.html, preamble.tex]\n  macros: {eps: '\\epsilon'}\n",
    )
    config = load_config(root)
    macros = dict(config.math_macros)
    assert config.math_macros_from == ("_includes/mathjax.html", "preamble.tex")
    assert macros["RR"] == r"\mathbb{R}^n"  # the later file's
    assert macros["eps"] == r"\epsilon"  # the site's own `macros:`
    assert macros["norm"].endswith(r"\lVert #1 \rVert") and macros["vect"].endswith("{#1}")
    assert macros["argmin"] == r"\operatorname*{arg\,min}"
    assert "commented" not in macros


def test_macros_from_reads_katex_options_in_a_script_file(tmp_path):
    katex = 'renderMathInElement(document.body, {macros: {"\\\\E": "\\\\mathbb{E}"}});\n'
    root = _site_with_files(
        tmp_path, {"static/js/katex.js": katex}, "  macros_from: static/js/katex.js\n"
    )
    assert dict(load_config(root).math_macros) == {"E": r"\mathbb{E}"}


def test_a_macros_files_html_entities_are_decoded_outside_its_scripts(tmp_path):
    """The browser gives MathJax `a < b` for `a &lt; b` in a page's text (a script's text is
    not decoded); the macro's body kept `&lt;`, which math reads as text."""
    head = (
        "<div hidden>$\\newcommand{\\ind}{\\mathbb{1}_{a &lt; b}}$</div>\n"
        '<script>renderMathInElement(document.body, {macros: {"\\\\amp": "&amp;"}});</script>\n'
    )
    root = _site_with_files(tmp_path, {"head.html": head}, "  macros_from: head.html\n")
    macros = dict(load_config(root).math_macros)
    assert macros == {"amp": "&amp;", "ind": r"\mathbb{1}_{a < b}"}


BAD_ENTRY = 'MathJax = {tex: {macros: {\n  ok: "x",  /* a\n comment */ bad: "\\\\frac{",\n}}};\n'


@pytest.mark.parametrize(
    "files, value, where, says",
    [
        ({}, "nope.tex", "postil.yaml:5:16", "`nope.tex` is not a file of the site"),
        ({"m.tex": "Just words.\n"}, "m.tex", "postil.yaml:5:16", "`m.tex` defines no macro"),
        ({"m.tex": "ok\n\\newcommand{\\R\n"}, "m.tex", "m.tex:2:12", "`{` is never closed"),
        # a MathJax entry's TeX: at that entry (it was postil.yaml's line, no entry named)
        ({"m.js": BAD_ENTRY}, "m.js", "m.js:3:13", "this `macros` entry cannot be read"),
        ({"m.html": f"<p>x</p>\n<script>{BAD_ENTRY}</script>\n"}, "m.html", "m.html:4:13",
         "`{` is never closed"),
    ],
)  # fmt: skip
def test_a_macros_file_that_cannot_be_read_is_an_error_where_it_is(
    tmp_path, files, value, where, says
):
    root = _site_with_files(tmp_path, files, f"  macros_from: {value}\n")
    [problem] = config_problems(root)
    assert str(problem.location) == where
    assert says in problem.message
