"""Property tests: generated Markdown, front matter and LaTeX either build into well-formed HTML
or fail with a `PostilError` — never another exception.

Posts are assembled from fragments chosen to hit postil's plugins and their edges (math with
broken braces and `\\text{<script>}`, notes defined twice or never, fences left open, widgets,
links to other posts, control and non-ASCII characters, YAML's implicit types). Raw HTML tags
are left out: the author owns raw HTML, so a post with `<div>` unclosed may well give an
unbalanced page. Every page is parsed back with html5lib; any parse error fails the example.

CI runs `max_examples=60`; set `POSTIL_FUZZ_EXAMPLES=2000` for a long local run.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from html import escape
from pathlib import Path

import html5lib
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from postil.build import BuildOptions, build
from postil.errors import PostilError

pytestmark = pytest.mark.slow  # EXAMPLES whole-site builds

EXAMPLES = int(os.environ.get("POSTIL_FUZZ_EXAMPLES", "60"))

LATEX = [
    "x",
    "y_1",
    "^2",
    "_{i}",
    "\\frac{",
    "}",
    "{",
    "}{",
    "\\sqrt",
    "\\alpha",
    "\\mathbb{R}",
    "\\text{<script>alert(1)</script>}",
    "\\left(",
    "\\right)",
    "\\begin{aligned}",
    "&",
    "\\\\",
    "\\end{aligned}",
    "\\unknowncmd",
    "\\operatorname{softmax}",
    "\\label{eq:a}",
    "\\tag{1}",
    "\\begin{cases}",
    "\\end{cases}",
    "$",
    "\\",
    "%",
    "#",
    "~",
    "\\mathrm{é}",
    "中",
]
TEXT = [
    "word",
    "two words",
    "a < b",
    "x > y",
    "&",
    "&amp;",
    "&#0;",
    '"q"',
    "'s'",
    "*em*",
    "**",
    "_",
    "`code`",
    "``",
    "[",
    "]",
    "(",
    ")",
    "!",
    "\\",
    "\\$",
    "$5 and $10",
    "\u00e9\u00e8",
    "中文",
    "🎉",
    "\u202e",
    "\u200b",
    "\t",
    "  ",
    "~~del~~",
    "[^n1]",
    "[^n2]",
    "[^]",
    "\\[^x]",
    "[link](https://x.org/?a=1&b=<2>)",
    "[other](b.md#sec)",
    "[self](#h)",
    "[](#fig-a)",
    "https://x.org",
    "<https://x.org/>",
    "\x1b[31m",
    "javascript:alert(1)",
    "[js](javascript:alert(1))",
    "![img](a.png){#fig-a}",
    "{#fig-a}",
    "\\(x\\)",
    "|",
    "---",
    ":",
    "[span]{.aside}",
    "[x]{.mark .underline #i}",
    "]{",
    "[[",
    "]]",
    "[[b]]",
    "[[b#h|text]]",
    "![[a.png|30]]",
    "![[b]]",
    "[[#h]]",
    "{.column-margin}",
]


SAFE_LATEX = [t for t in LATEX if t.count("{") == t.count("}") and t not in ("$", "\\", "%")]
SAFE_LATEX = [t for t in SAFE_LATEX if not any(w in t for w in ("begin", "end", "left", "right"))]
SAFE_LATEX = [t for t in SAFE_LATEX if t not in ("&", "}{", "\\sqrt", "\\\\")]


@st.composite
def latex(draw: st.DrawFn, hostile: bool = True) -> str:
    """Return a formula from any fragments (`hostile`) or from balanced ones."""
    pool = LATEX if hostile else SAFE_LATEX
    return "".join(draw(st.lists(st.sampled_from(pool), max_size=8)))


@st.composite
def inline(draw: st.DrawFn, hostile: bool = True) -> str:
    parts = draw(
        st.lists(
            st.one_of(
                st.sampled_from(TEXT),
                latex(hostile).map(lambda s: f"${s}$"),
                latex(hostile).map(lambda s: f"\\({s}\\)"),
                st.text(
                    alphabet=st.characters(
                        blacklist_categories=("Cc", "Cs"), blacklist_characters="<"
                    ),
                    max_size=6,
                ),
            ),
            max_size=8,
        )
    )
    return " ".join(parts)


@st.composite
def block(draw: st.DrawFn, hostile: bool = True) -> str:
    kind = draw(st.integers(0, 19))
    text = draw(inline(hostile))
    tex = draw(latex(hostile))
    return [
        text,
        f"## {text}",
        f"- {text}\n  - {draw(inline())}\n\n1. {text}",
        f"> {text}\n> > {draw(inline())}",
        f"$$\n{tex}\n$$",
        f"$${tex}",
        f"```{draw(st.sampled_from(['', 'python', 'math', 'nosuchlang', '{temperature}']))}\n"
        f"{tex}\n" + draw(st.sampled_from(["```", ""])),
        f"[^{draw(st.sampled_from(['n1', 'n2', 'n3']))}]: {text}",
        f"| a | {text.replace(chr(10), ' ')} |\n|---|---|\n| {tex} | x |",
        f"![{text}](fig.png){{#fig-{draw(st.sampled_from(['a', 'b']))}}}",
        f"\\[\n{tex}\n\\]",
        "    indented code " + text,
        # MathJax's math in raw HTML; the author's own text in it is valid HTML (escaped: a
        # bare `&x` or `a < b` there is the author's parse error, which postil passes on)
        f'<div class="x">{escape(text, quote=False)} ${tex}$ $${tex}$$ <code>${tex}$</code></div>',
        f"{{{{< katex display >}}}}\n{tex}\n{{{{< /katex >}}}}\n\n{{{{< katex >}}}}{tex}",
        f"{{{{% callout {draw(st.sampled_from(['note', 'nosuch', '']))} %}}}}\n{text}\n"
        + draw(st.sampled_from(["{{% /callout %}}", ""])),
        f"\\begin{{{draw(st.sampled_from(['eqnarray*', 'aligned', 'pmatrix', 'foo']))}}}\n"
        f"{tex}\n" + draw(st.sampled_from(["\\end{eqnarray*}", "\\end{aligned}", ""])),
        f"$ {tex} $ and $\\text{{a ${tex}$}}$ and ${tex} = $",
        # other generators' code options (`postil.markdown.fenceinfo`)
        "```"
        + draw(
            st.sampled_from(
                ["js{1,3}", "go {linenos=table,hl_lines=[2]}", "ts:line-numbers=0", "py [t.py]"]
                + ['{.python filename="a.py" .numberLines startFrom=x}', "py {hl_lines=[x]"]
            )
        )
        + f"\n{tex}\n```",
        f"::: {{.column-margin}}\n{text}\n:::\n\n[{text}]{{.aside}}",
        f"```{{sidebar}} {draw(inline())}\n{text}\n```",
    ][kind]


SCALARS = st.sampled_from(
    [
        "T",
        "no",
        "on",
        "1.10",
        "2024-3-5",
        "12:30",
        "~",
        "''",
        '"<script>x</script>"',
        '"a\\x00b"',
        '"\\ud800"',
        "[a, b]",
        "{a: b}",
        "|\n  block",
        "&a x",
        "*a",
        "!!binary x",
        "true",
        "2024-01-01 10:00+01:00",
        "2024-02-30",
        "中文",
        "'  '",
        "[]",
        "[[a]]",
    ]
)
KEYS = st.sampled_from(
    [
        "title",
        "date",
        "updated",
        "tags",
        "draft",
        "summary",
        "slug",
        "subtitle",
        "macros",
        "citation",
        "authors",
        "label",
        "categories",
        "image",
        "toc",
        "description",
        "published",
    ]
)


@st.composite
def front_matter(draw: st.DrawFn, hostile: bool = True) -> str:
    """Return front matter: valid unless `hostile` (then any keys and YAML scalars)."""
    if not hostile:
        tags = draw(st.lists(st.sampled_from(TEXT), max_size=3))
        title = json.dumps(draw(st.sampled_from(TEXT)))
        return f"---\ntitle: {title}\ndate: 2024-01-01\ntags: {json.dumps(tags)}\n---\n"
    lines = [f"title: {draw(SCALARS)}"] if draw(st.booleans()) else ["title: Fuzz"]
    for key, value in draw(st.lists(st.tuples(KEYS, SCALARS), max_size=4)):
        lines.append(f"{key}: {value}")
    return "---\n" + "\n".join(lines) + "\n---\n"


@st.composite
def post(draw: st.DrawFn) -> str:
    """Return a post: one time in three hostile (any front matter and formulas)."""
    hostile = draw(st.integers(0, 2)) == 0
    body = "\n\n".join(draw(st.lists(block(hostile), min_size=1, max_size=8)))
    return draw(front_matter(hostile)) + body + "\n"


AMBIGUOUS_AMPERSAND = re.compile(r"&[A-Za-z0-9]+;")
"""The one `&` the HTML standard calls a parse error ("ambiguous ampersand": letters and
digits then `;` that name no character reference). html5lib predates the rule and reports
every `&` that starts no reference (`&x` in an author's raw HTML), which is no error."""


def well_formed(path: Path) -> list[object]:
    """Return the parse errors of one page under the HTML standard (empty: well-formed):
    html5lib's, without its `&` that the standard reads as text (`AMBIGUOUS_AMPERSAND`)."""
    parser = html5lib.HTMLParser(strict=False)
    text = path.read_bytes()
    parser.parse(text, transport_encoding="utf-8")
    lines = text.decode("utf-8").split("\n")
    return [e for e in parser.errors if not _ampersand_as_text(e, lines)]


def _ampersand_as_text(error: tuple[tuple[int, int], str, object], lines: list[str]) -> bool:
    """Tell whether html5lib's error is an `&` the standard reads as text: the `&` last
    before the error's column starts no `AMBIGUOUS_AMPERSAND`."""
    (line, col), code, _ = error
    if code != "expected-named-entity" or not 0 < line <= len(lines):
        return False
    at = lines[line - 1].rfind("&", 0, col + 1)
    return at >= 0 and AMBIGUOUS_AMPERSAND.match(lines[line - 1], at) is None


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(a=post(), b=post())
def test_generated_posts_build_well_formed_html_or_raise_a_postil_error(a, b):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "content/posts").mkdir(parents=True)
        (root / "postil.yaml").write_text("title: F\nauthor: A\nbase_url: https://x.org/f/\n")
        (root / "content/posts/a.md").write_text(a, encoding="utf-8", errors="surrogatepass")
        (root / "content/posts/b.md").write_text(b, encoding="utf-8", errors="surrogatepass")
        try:
            build(BuildOptions(root=root, drafts=True, future=True, cache=False, workers=1))
        except PostilError as e:
            event(f"failed: {type(e).__name__}")
            return
        event("built")
        pages = sorted((root / "_site").rglob("*.html"))
        assert pages
        for page in pages:
            errors = well_formed(page)
            assert not errors, (page.relative_to(root), errors[:3])
