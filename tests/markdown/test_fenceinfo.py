"""Fence info strings as each generator writes them (`postil.markdown.fenceinfo`)."""

from __future__ import annotations

import pytest

from postil.markdown.fenceinfo import FenceInfo, parse_info

KNOWN = "known: hl_lines, linenos, linenostart, title"


@pytest.mark.parametrize(
    ("info", "expected"),
    [
        # postil's own
        (
            'python title="a.py" hl_lines="3-5 8" linenos',
            FenceInfo("python", "a.py", (3, 4, 5, 8), True),
        ),
        ("python linenos linenostart=10", FenceInfo("python", linenos=True, linenostart=10)),
        # MkDocs (pymdownx.highlight), and its attribute-list form
        ('py title="b.py" hl_lines="2 3" linenums="5"', FenceInfo("py", "b.py", (2, 3), True, 5)),
        ('{ .py title="c.py" hl_lines="1" linenums="3" }', FenceInfo("py", "c.py", (1,), True, 3)),
        # Hugo
        (
            'go {linenos=table,hl_lines=[2,"4-5"],linenostart=199}',
            FenceInfo("go", "", (2, 4, 5), True, 199),
        ),
        ("go {linenos=false}", FenceInfo("go")),
        # Pandoc and Quarto
        (
            '{.haskell .numberLines startFrom="10"}',
            FenceInfo("haskell", linenos=True, linenostart=10),
        ),
        (
            '{.python filename="model.py" code-line-numbers="true"}',
            FenceInfo("python", "model.py", linenos=True),
        ),
        ('{.python code-line-numbers="1,3"}', FenceInfo("python", hl_lines=(1, 3))),
        ('{#lst-x .python lst-cap="The loop." .cell-code}', FenceInfo("python", "The loop.")),
        ("{.python code-fold=true}", FenceInfo("python")),
        # Docusaurus, Expressive Code
        (
            'jsx title="/src/x.js" {1,4-6} showLineNumbers',
            FenceInfo("jsx", "/src/x.js", (1, 4, 5, 6), True),
        ),
        ("jsx showLineNumbers=5", FenceInfo("jsx", linenos=True, linenostart=5)),
        # Expressive Code: marked, inserted and deleted lines, labelled ranges, presentation
        ("js showLineNumbers startLineNumber=5", FenceInfo("js", linenos=True, linenostart=5)),
        ('js title="m.js" del={2} ins={3-4} {6}', FenceInfo("js", "m.js", (2, 3, 4, 6))),
        ('jsx {"1. The prop:":5-6} del={"2":8} mark={10}', FenceInfo("jsx", "", (5, 6, 8, 10))),
        ('ps frame="code" title="Profile.ps1"', FenceInfo("ps", "Profile.ps1")),
        ("js wrap preserveIndent=false collapse={1-5, 12-14}", FenceInfo("js")),
        ('diff lang="js"', FenceInfo("diff")),
        # VitePress, Gatsby
        ("js{4}", FenceInfo("js", hl_lines=(4,))),
        ("ts:line-numbers=5 {1}", FenceInfo("ts", "", (1,), True, 5)),
        ("ts:no-line-numbers", FenceInfo("ts")),
        ("js [config.js]", FenceInfo("js", "config.js")),
        ("js:title=src/app.js", FenceInfo("js", "src/app.js")),
        ("js{numberLines: 5}", FenceInfo("js", linenos=True, linenostart=5)),
        # Eleventy (eleventy-plugin-syntaxhighlight): line groups after the language
        ("js/2-3", FenceInfo("js", "", (2, 3))),
        ("js/1,3-4", FenceInfo("js", "", (1, 3, 4))),
        ("js/2/4", FenceInfo("js", "", (2, 4))),  # added, then removed: both marked
        ("js/2-3 title=x.js", FenceInfo("js", "x.js", (2, 3))),
        # a `/` without line numbers after it is part of the name (unknown, reported)
        ("c/c++", FenceInfo("c/c++")),
        ("text/x-python", FenceInfo("text/x-python")),
        # Hexo: a file name, then a URL and its link text
        ("python train.py", FenceInfo("python", "train.py")),
        ("js Array.map https://example.org/map MDN", FenceInfo("js", "Array.map")),
        # Jekyll and Sphinx/MyST names
        ('ruby mark_lines="1 2"', FenceInfo("ruby", hl_lines=(1, 2))),
        (
            'python caption="m.py" emphasize-lines="2" linenos="" lineno-start="7"',
            FenceInfo("python", "m.py", (2,), True, 7),
        ),
        ("", FenceInfo()),
        # Pandoc's attribute list: a key that is no option is an HTML attribute, no problem
        ("{.cpp file=gauss}", FenceInfo("cpp")),
        # HackMD and CodiMD: `=` numbers the lines (from N, or on from the block before),
        # `!` wraps them; a language with `=` in its middle or a bare `=` stays as written
        ("python=", FenceInfo("python", linenos=True)),
        ("python=101", FenceInfo("python", linenos=True, linenostart=101)),
        ("c++=+", FenceInfo("c++", linenos=True)),
        ("python!", FenceInfo("python")),
        ('python=! title="a.py"', FenceInfo("python", "a.py", linenos=True)),
        ("abc=def", FenceInfo("abc=def")),
        ("=", FenceInfo("=")),
    ],
)
def test_each_generators_form_means_the_same(info, expected):
    assert parse_info(info) == expected


@pytest.mark.parametrize(
    ("info", "problem"),
    [
        ("python Example", f"unknown code option 'Example'; {KNOWN}"),
        ("python color=red", f"unknown code option 'color'; {KNOWN}"),
        # a comment after the language: one problem naming every word, not one a word
        ("python # D(X) forward", f"unknown code options '#', 'D(X)', 'forward'; {KNOWN}"),
        ('python title="oops', 'unbalanced quote in title="oops; close the quote'),
        (
            "python linenostart=ten",
            "linenostart='ten' is not a line number; write e.g. linenostart=10",
        ),
        (
            'python hl_lines="5-2"',
            "hl_lines='5-2' is not a line list; write e.g. hl_lines=\"3-5 8\"",
        ),
        ("go {hl_lines=[x]}", "hl_lines='[x]' is not a line list; write e.g. hl_lines=\"3-5 8\""),
        # Expressive Code's text markers: one problem a block, the first named
        (
            'js "return true;" ins="inserted" /ye[sp]/',
            'Expressive Code\'s text marker "return true;" is not highlighted: postil marks '
            "whole lines; mark its line with {n} instead",
        ),
        (
            "sh /\\/ho.*\\//",
            "Expressive Code's text marker /\\/ho.*\\// is not highlighted: postil marks "
            "whole lines; mark its line with {n} instead",
        ),
    ],
)
def test_what_cannot_be_read_is_a_problem_not_an_error(info, problem):
    assert parse_info(info).problems == (problem,)
