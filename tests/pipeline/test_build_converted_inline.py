"""Posts written by Markdown converters and note apps build as their authors saw them:
Pandoc's and mdformat's escaped brackets, Docsify's `$-$1`, Typora's `$x $` and
`==highlight==` beside CJK text, a Typora brace group holding `\\\\` (session 35)."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from support import sites

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)

CONVERTED = (
    "---\ntitle: Notes\ndate: 2024-01-06\n---\n"
    "The score is median\\[IQR\\], see [\\[4\\]][src]; and \\[ x^2 \\] is math.\n\n"
    "[src]: https://example.com\n\n"
    "Each step costs $-$1 and the goal gives $+$10; it costs $5 and $10.\n\n"
    "最明显的观点是$C $的$(i,j)$元素，即==损失函数==，标签$y\\in { 0,1 \\\\}$。\n\n"
    "We store $Y $ in memory.\n"
)


def body(root, slug):
    page = lxml_html.fromstring((root / f"_site/posts/{slug}/index.html").read_bytes())
    return page.find_class("post-body")[0]


def test_converted_posts_read_brackets_signs_typora_math_and_highlights(tmp_path):
    root = make_site(tmp_path / "site", {"notes.md": CONVERTED})
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/notes.md:13:10"  # `$Y $` in Latin prose: text, with a warning
    ]
    post = body(root, "notes")
    paragraphs = post.findall("p")
    assert paragraphs[0].text.startswith("The score is median[IQR], see ")
    assert paragraphs[0].find("a").text_content() == "[4]"
    assert [m.get("display") for m in paragraphs[0].iter("math")] == ["block"]
    annotations = [a.text for a in paragraphs[1].iter("annotation")]
    assert annotations == ["-", "+"] and "$5 and $10" in paragraphs[1].text_content()
    cjk = paragraphs[2]
    assert [a.text for a in cjk.iter("annotation")] == ["C ", "(i,j)", "y\\in { 0,1 \\\\}"]
    assert cjk.find("mark").text == "损失函数" and "$" not in cjk.text_content()
    assert "$Y $ in memory" in paragraphs[3].text_content()


def test_a_brace_error_after_kramdowns_escapes_names_its_place_and_the_reading(tmp_path):
    post = "---\ntitle: B\ndate: 2024-01-06\n---\nand $a_{\\\\{x\\\\}$ fails\n"
    root = make_site(tmp_path / "site", {"b.md": post})
    (warning,) = build(BuildOptions(root=root)).warnings
    assert str(warning).startswith(
        "content/posts/b.md:5:8: warning: cannot parse the formula: { is never"
    )
    assert "were read as `\\{` and `\\}`" in str(warning)
