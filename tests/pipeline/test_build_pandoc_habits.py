"""Posts written for Pandoc (Hakyll, Quarto, R Markdown) and Franklin.jl build whole: the
habits session 35's real posts showed (TeX macro definitions in prose, fenced divs whose
opening fence ends in colons, theorem divs without Quarto's ids, `lang:`, `\\\\eqref`)."""

from __future__ import annotations

import json
from functools import partial

from lxml import html as lxml_html
from support import sites

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)

MACROS = (
    "---\ntitle: Girth\ndate: 2024-01-06\n---\n"
    "<!-- LaTeX macros -->\n"
    "\\newcommand{\\RR}{\\mathbb{R}}\n\\DeclareMathOperator{\\girth}{girth}\n"
    "\\DeclareMathOperator*{\\Las}{Las}\n\n"
    "Let $A \\in \\RR^{n}$ with $\\girth(G) = 3$ and $\\Las_t(P)$.\n"
)


def page(root, slug):
    return lxml_html.fromstring((root / f"_site/posts/{slug}/index.html").read_bytes())


def body(root, slug):
    return page(root, slug).find_class("post-body")[0]


def test_macro_definitions_in_prose_define_the_posts_macros_and_are_not_shown(tmp_path):
    root = make_site(tmp_path / "site", {"girth.md": MACROS})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    post = body(root, "girth")
    assert "newcommand" not in post.text_content() and "Declare" not in post.text_content()
    assert len(post.findall(".//math")) == 3 and not post.find_class("math-error")
    tree = page(root, "girth")
    description = tree.xpath("//meta[@name='description']/@content")[0]
    assert "newcommand" not in description
    ld = tree.xpath("//script[@type='application/ld+json']/text()")
    assert all("newcommand" not in json.dumps(json.loads(x)) for x in ld)


def test_definitions_before_the_heading_that_titles_a_page_apply_to_its_math_and_title(tmp_path):
    # Franklin.jl: no title in the front matter, `\newcommand` lines above the `# heading`
    source = (
        "+++\ndate = Date(2024, 1, 6)\n+++\n\\newcommand{\\E}{\\mathbb{E}}\n\n"
        "# Paradox of $\\E X$\n\nSo $\\E X = \\infty$.\n"
    )
    root = make_site(tmp_path / "site", {"paradox.md": source})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    tree = page(root, "paradox")
    assert tree.find_class("post-title")[0].text_content().startswith("Paradox of")
    assert "\U0001d53c" in tree.find_class("post-title")[0].text_content()  # 𝔼
    post = body(root, "paradox")
    assert "newcommand" not in post.text_content() and not post.find_class("math-error")
    assert "\U0001d53c" in post.text_content()


DIVS = (
    "---\ntitle: Modules\ndate: 2024-01-07\n---\n"
    "::: {.container data-name=definition} :::\nA *module* over $R$.\n\n"
    "::: Warning ::::::\nCareful with $0$.\n:::\n"
    "::::::::::::::::::\n\nAfter the divs.\n"
)


def test_fenced_divs_whose_opening_fence_ends_in_colons_nest_and_leave_no_colons(tmp_path):
    root = make_site(tmp_path / "site", {"modules.md": DIVS})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    post = body(root, "modules")
    assert ":::" not in post.text_content()
    (outer,) = post.xpath("./div[contains(@class, 'container')]")
    assert outer.get("data-name") == "definition"
    (warning,) = outer.xpath("./aside[contains(@class, 'callout-warning')]")
    assert warning.find_class("callout-title")[0].text_content() == "Warning"
    assert post.xpath("./p")[-1].text_content() == "After the divs."


THEOREMS = (
    "---\ntitle: Matroids\ndate: 2024-01-08\n---\n"
    "\\newcommand{\\R}{\\mathbb{R}}\n\n"
    '::: {.Theorem #cs title="Cauchy--Schwarz in $\\R^n$"}\n'
    "$|\\langle x, y\\rangle| \\le \\|x\\|\\,\\|y\\|$.\n:::\n\n"
    "::: {.proof}\nExpand.\n:::\n\n::: {.lemma}\nA lemma.\n:::\n\nBy [@cs], we are done.\n"
)


def test_theorem_class_divs_get_their_label_and_typeset_title_and_id_citations_link(tmp_path):
    root = make_site(tmp_path / "site", {"matroids.md": THEOREMS})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    post = body(root, "matroids")
    main = post.get_element_by_id("cs")
    title = main.find_class("theorem-title")[0]
    assert title.text_content().startswith("Theorem 1 (Cauchy")
    assert title.find(".//math") is not None and main.get("title") is None
    lemma = post.find_class("theorem-lem")[0]
    assert lemma.find_class("theorem-title")[0].text_content() == "Lemma."
    (link,) = post.xpath("//a[@href='#cs']")
    assert link.text_content() == "Theorem 1"
    assert "[@cs]" not in post.text_content()


ESCAPED_EQREF = (
    "---\ntitle: KL\ndate: 2024-01-09\n---\n"
    "$$ \\begin{equation} D = 0 \\label{eq:kl} \\end{equation} $$\n\n"
    "By \\\\eqref{eq:kl}, and by \\eqref{eq:kl}.\n"
)


def test_an_escaped_eqref_in_prose_links_to_its_equation_as_a_bare_one(tmp_path):
    root = make_site(tmp_path / "site", {"kl.md": ESCAPED_EQREF})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    post = body(root, "kl")
    links = post.xpath("//a[@class='eqref']")
    assert [(a.get("href"), a.text_content()) for a in links] == [("#eq-kl", "(1)")] * 2
    assert "eqref" not in post.xpath("//p")[-1].text_content()


def test_a_posts_lang_is_its_pages_language_and_its_feed_entrys_not_other_pages(tmp_path):
    chinese = "---\ntitle: 对偶\ndate: 2024-01-10\nlang: zh-Hans\n---\n设 $x \\ge 0$。\n"
    english = "---\ntitle: Duals\ndate: 2024-01-11\n---\nLet $x \\ge 0$.\n"
    root = make_site(tmp_path / "site", {"dual-zh.md": chinese, "duals.md": english})
    result = build(BuildOptions(root=root))
    assert not result.warnings
    zh = page(root, "dual-zh")
    assert zh.get("lang") == "zh-Hans"
    assert zh.xpath("//meta[@name='citation_language']/@content") == ["zh-Hans"]
    ld = json.loads(zh.xpath("//script[@type='application/ld+json']/text()")[0])
    assert ld["inLanguage"] == "zh-Hans"
    assert page(root, "duals").get("lang") == "en"
    home = lxml_html.fromstring((root / "_site/index.html").read_bytes())
    assert home.get("lang") == "en"
    feed = (root / "_site/feed.xml").read_text()
    assert feed.count('xml:lang="zh-Hans"') == 1 and feed.count('xml:lang="en"') == 1
