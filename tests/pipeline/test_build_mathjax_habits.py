"""Posts written for MathJax in the browser (Jekyll/kramdown, Hugo Book) build whole: the
habits session 31's real posts showed (kramdown's `\\\\` line break, `$k < m $`, math
environments in text, Hugo Book's `katex` shortcode and fence, an author's extra `$$`)."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from support import sites

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)

KRAMDOWN = (
    "---\ntitle: Algebra\ndate: 2024-01-06\n---\n"
    "1. Let $$P = A^{-1}$$. \\\\\n   Then $$x = Pb$$.\n"
    "2. For ($k < m $ and $A$) it holds.\n\n"
    "so \\begin{equation} E = mc^2 \\end{equation} as usual.\n\n"
    "Set $$X$$)$$ twice.\n"
)

HUGO_BOOK = (
    "---\ntitle: Book\ndate: 2024-01-07\n---\n{{< katex />}}\n\n"
    "a {{< katex display=true >}} x^2 {{< /katex >}} b\n\n```katex\n\\sum_i x_i\n```\n"
)


def body(root, slug):
    page = lxml_html.fromstring((root / f"_site/posts/{slug}/index.html").read_bytes())
    return page.find_class("post-body")[0]


def test_a_kramdown_post_breaks_lines_sets_spaced_math_and_names_the_extra_dollars(tmp_path):
    root = make_site(tmp_path / "site", {"algebra.md": KRAMDOWN})
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/algebra.md:11:11"
    ]
    post = body(root, "algebra")
    first = post.xpath("//ol/li")[0]
    assert len(first.findall("br")) == 1 and "\\" not in first.text_content()
    second = post.xpath("//ol/li")[1]
    assert [m.get("display") for m in second.iter("math")] == ["inline", "inline"]
    assert len(post.xpath("//p[starts-with(., 'so')]//math[@display='block']")) == 1
    assert "$$ twice" in post.text_content()


def test_a_hugo_book_post_reads_its_loader_display_math_and_katex_fence(tmp_path):
    root = make_site(tmp_path / "site", {"book.md": HUGO_BOOK})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    post = body(root, "book")
    assert [m.get("display") for m in post.iter("math")] == ["block", "block"]
    assert "katex" not in post.text_content()


MATH_CODE = (
    "---\ntitle: Lithium\ndate: 2024-01-08\n---\n"
    "Let `$x_i$` be a point, `$\\mu_k$` a mean and `$$\n\\sigma^2 = 1\n$$`\nits variance.\n"
)


def test_a_math_code_js_post_warns_by_default_and_reads_its_formulas_when_the_site_says(
    tmp_path,
):
    root = make_site(tmp_path / "site", {"lithium.md": MATH_CODE})
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/lithium.md:5:46"
    ]
    assert len(body(root, "lithium").findall(".//code")) == 3
    (root / "postil.yaml").write_text(CONFIG + "math:\n  code_spans: math\n")
    assert not build(BuildOptions(root=root)).warnings
    post = body(root, "lithium")
    assert not post.findall(".//code")
    assert [m.get("display") for m in post.iter("math")] == ["inline", "inline", "block"]
