"""A site moved from Jekyll or Hugo builds: template syntax is rendered or reported, never shown."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from support import sites
from support.images import PNG

from postil.build import BuildOptions, build
from postil.errors import BuildFailed

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)
HEAD = "---\ntitle: {}\ndate: 2024-01-01\n---\n"

JEKYLL = HEAD.format("Diffusion") + (
    "* TOC\n{:toc}\n\n"
    "## Forward\n\n"
    '<a name="nice"></a>A nice property.\n\n'
    "## Reverse\n\n"
    "By the [nice property](#nice), see [GAN]({{ site.baseurl }}{% post_url 2017-gan %}#loss).\n\n"
    "![Overview]({{ '/assets/o.png' | relative_url }})\n\n"
    "## Training\n\n"
    "{% include disqus.html %}\n"
)
GAN = HEAD.format("GAN") + "## Loss\n\nText.\n"


def page(root, slug):
    return lxml_html.fromstring((root / f"_site/posts/{slug}/index.html").read_bytes())


def test_a_jekyll_post_builds_with_its_links_toc_and_one_warning(tmp_path):
    root = make_site(tmp_path / "site", {"2021-diffusion.md": JEKYLL, "2017-gan.md": GAN})
    (root / "static/assets").mkdir(parents=True)
    (root / "static/assets/o.png").write_bytes(PNG)  # the image the post shows
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/2021-diffusion.md:20:1"  # the include; `#nice` is an anchor
    ]
    assert "`{% include disqus.html %}` is not supported" in str(result.warnings[0])
    doc = page(root, "2021-diffusion")
    body = doc.find_class("post-body")[0]
    assert "{{" not in body.text_content() and "{%" not in body.text_content()
    assert body.xpath("//a[text()='GAN']/@href") == ["/blog/posts/2017-gan/#loss"]
    assert body.xpath("//img/@src") == ["/blog/assets/o.png"]
    assert len(doc.find_class("toc")) == 1  # in the body, where {:toc} put it


def test_a_wrong_fragment_after_post_url_is_checked_and_strict_fails_on_the_warnings(tmp_path):
    text = HEAD.format("A") + "[G]({% post_url 2017-gan %}#nope) {{ page.title }}\n"
    root = make_site(tmp_path / "site", {"a.md": text, "2017-gan.md": GAN})
    warnings = [str(w) for w in build(BuildOptions(root=root)).warnings]
    assert "content/posts/2017-gan.md has no such anchor" in warnings[0]
    assert "variable `page.title` is not supported" in warnings[1]
    try:
        build(BuildOptions(root=root, strict=True))
    except BuildFailed as failed:
        assert len(failed.diagnostics) == 2
    else:
        raise AssertionError("--strict must fail on the warnings")


def built_body(tmp_path, name, source):
    """Build a site of one post with no warning; return its body element and its TeX."""
    root = make_site(tmp_path / "site", {f"{name}.md": source})
    assert build(BuildOptions(root=root)).warnings == ()
    body = page(root, name).find_class("post-body")[0]
    return body, [a.text_content() for a in body.iter("annotation")]


def shown_text(body):
    """Return the text a reader sees: the body without the formulas' TeX annotations."""
    for annotation in list(body.iter("annotation")):
        annotation.drop_tree()
    return body.text_content()


PELICAN_MATHJAX = (
    "Title: Estimators\nDate: 2014-07-21\nTags: statistics, probability\n\n"
    "Taking the expansion around $\\mu$ gives\n\n"
    "\\begin{aligned}\n"
    "\\mathbb{E}[f(x)] &= f(\\mu) + \\tfrac{1}{2} \\sum_{i=1}^n h_i \\\\\\\n"
    "&= c\n"
    "\\end{aligned}\n\n"
    "and, as a system,\n\n"
    "\\begin{eqnarray}\n"
    "a &=& b \\label{eq:ab} \\\\\n"
    "c &\\le& d\n"
    "\\end{eqnarray}\n\n"
    "so \\eqref{eq:ab} holds.\n"
)


def test_a_pelican_mathjax_post_sets_its_bare_environments_as_display_math(tmp_path):
    body, _ = built_body(tmp_path, "estimators", PELICAN_MATHJAX)
    displays = body.find_class("math-display")
    assert len(displays) == 2
    text = shown_text(body)
    assert "\\" not in text and "begin" not in text and "&" not in text
    rows = [len(t.findall(".//mtr")) for t in (d.find(".//mtable") for d in displays)]
    assert rows == [2, 2]
    numbers = [n.text_content() for n in displays[1].find_class("eqno")]
    assert numbers == ["(1)", "(2)"]
    assert body.find_class("eqref")[0].text_content() == "(1)"


KRAMDOWN_MATHJAX = HEAD.format("Manifolds") + (
    "Let $\\\\{ W_l \\\\\\}$ be spaces, with maps $ V_1 \\times V_2 \\to U $ for $ n $ of them.\n\n"
    "$$\n\n\\require{cancel}\nD = \\cancel{a} + b\n\n$$\n\n"
    "and $\\exp(v) = \\left\\\\{ p \\right\\\\}$ ends it.\n"
)


def test_a_kramdown_mathjax_post_reads_its_math_as_mathjax_did(tmp_path):
    body, tex = built_body(tmp_path, "manifolds", KRAMDOWN_MATHJAX)
    assert tex == [
        "\\{ W_l \\}",
        " V_1 \\times V_2 \\to U ",
        " n ",
        "\n\n\\require{cancel}\nD = \\cancel{a} + b\n\n",
        "\\exp(v) = \\left\\{ p \\right\\}",
    ]
    assert len(body.find_class("math-display")) == 1
    text = shown_text(body)
    assert "$" not in text and "\\" not in text


HUGO_THEMES = HEAD.format("Blox") + (
    "{{< toc mobile_only=true >}}\n\n"
    "## Math\n\n"
    "{{< math >}}\n$$\n\\gamma_n = \\frac{a}{b}\n$$\n{{< /math >}}\n\n"
    "Inline {{< math >}}$\\nabla F${{< /math >}} and {{< katex >}}\\pi(x){{< /katex >}}.\n\n"
    "{{< katex display >}}\nf(x) = \\int \\hat f(\\xi)\\,d\\xi\n{{< /katex >}}\n\n"
    "## Asides\n\n"
    "{{% callout note %}}\nA Markdown aside.\n{{% /callout %}}\n\n"
    '{{< spoiler text="Solution" >}}\nYou did it!\n{{< /spoiler >}}\n'
)


def test_a_post_for_hugo_blox_and_hugo_book_keeps_its_math_callouts_and_contents(tmp_path):
    body, tex = built_body(tmp_path, "blox", HUGO_THEMES)
    toc = body.find_class("toc-inline")[0]
    assert [a.text_content() for a in toc.iter("a")] == ["Math", "Asides"]
    assert [t.strip() for t in tex] == [
        "\\gamma_n = \\frac{a}{b}",
        "\\nabla F",
        "\\pi(x)",
        "f(x) = \\int \\hat f(\\xi)\\,d\\xi",
    ]
    assert len(body.find_class("math-display")) == 2
    assert body.find_class("callout-note")[0].tag == "aside"
    fold = body.find_class("callout-note")[1]
    assert fold.tag == "details" and fold.find("summary").text_content() == "Solution"
    text = shown_text(body)
    assert "{{" not in text and "\\" not in text


TUFTE = HEAD.format("Tufte") + (
    "{% newthought 'Small multiples' %} show change.{% sidenote 1 'See *Envisioning*.' %}\n\n"
    "A margin note{% marginnote 'm' 'No number.' %} and another sidenote{% sidenote 1 'Two.' %}.\n"
    "\n{% epigraph 'Above all, show the data.' 'Edward Tufte' %}\n\n"
    "{% fullwidth 'assets/march.png' 'The march' %}\n\n"
    "```\n{{ \"{% sidenote 'id' 'text' %}\" }}\n```\n"
)


def test_a_tufte_jekyll_post_has_its_notes_figure_and_quote_and_no_warning(tmp_path):
    root = make_site(tmp_path / "site", {"tufte.md": TUFTE})
    (root / "static/assets").mkdir(parents=True)
    (root / "static/assets/march.png").write_bytes(PNG)
    assert not build(BuildOptions(root=root)).warnings
    body = page(root, "tufte").find_class("post-body")[0]
    assert body.xpath("string(//span[@class='newthought'])") == "Small multiples"
    assert [n.text_content() for n in body.find_class("sidenote-para")] == [
        "See Envisioning.",
        "No number.",
        "Two.",
    ]  # both `1` ids are notes: 1 and 2, and one margin note between
    assert body.xpath("//sup[@class='footnote-ref']/a/text()") == ["1", "2"]
    assert body.xpath("//figure[contains(@class,'fullwidth')]//img/@src") == [
        "/blog/assets/march.png"
    ]
    assert body.xpath("string(//blockquote[@class='epigraph']/footer)") == "Edward Tufte"
    assert "{% sidenote 'id' 'text' %}" in body.xpath("string(//pre)")  # code is as written


def test_a_tufte_tag_whose_arguments_do_not_fit_is_one_warning_saying_how_to_quote(tmp_path):
    """A quote left open in an argument (`'It's'`) splits it, as the theme's `shellsplit`
    refuses it: the tag is left out with a warning at it, never a note cut at the quote."""
    post = HEAD.format("Quotes") + "Text{% sidenote 'sn' 'It's a trap' %} here.\n"
    root = make_site(tmp_path / "site", {"quotes.md": post})
    (warning,) = build(BuildOptions(root=root)).warnings
    assert (warning.location.line, warning.location.col) == (HEAD.count("\n") + 1, 5)
    assert "has 5 arguments where `{% sidenote 'id' 'text' %}` takes 2" in warning.message
    assert "\\'" in warning.message
    body = page(root, "quotes").find_class("post-body")[0]
    assert not body.find_class("sidenote") and body.text_content().strip() == "Text here."


def test_figures_made_by_shortcodes_and_tags_check_their_image_as_markdown_images_do(tmp_path):
    """Hugo's `figure` shortcode and tufte's `fullwidth` name an image: a missing one is a
    warning at its tag, and a bundle's own picture is published and sized."""
    post = HEAD.format("Figures") + (
        '{{< figure src="/img/gone.png" caption="Gone" >}}\n\n'
        "{% fullwidth 'img/gone.png' 'Gone too' %}\n\n"
        '{{< figure src="plot.png" caption="Here" >}}\n'
    )
    root = make_site(tmp_path / "site", {"figs/index.md": post})
    png = bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d4944415478da63f8cfc0f01f0005000201e0d4a5f60000000049454e44ae426082"
    )
    (root / "content/posts/figs/plot.png").write_bytes(png)
    result = build(BuildOptions(root=root))
    first = HEAD.count("\n") + 1
    assert [
        (w.location.line, "is not in the built site" in w.message) for w in result.warnings
    ] == [
        (first, True),
        (first + 2, True),
    ]
    body = page(root, "figs").find_class("post-body")[0]
    here = body.xpath("//figure[.//text()[contains(., 'Here')]]//img")[0]
    assert (here.get("src"), here.get("width"), here.get("height")) == (
        "/blog/posts/figs/plot.png",
        "1",
        "1",
    )


ZOLA = (
    '+++\ntitle = "CBPV"\ndate = 2023-07-22\n[taxonomies]\ncategories = ["blog"]\n'
    'tags = ["logic"]\n[extra]\nmath = true\n+++\n'
    "After [part one](@/posts/one.md#rules), the rule:\n\n$$\n\\begin{prooftree}\n"
    "\\AxiomC{$x : A \\in \\Gamma$}\n\\RightLabel{(hyp)}\n\\UnaryInfC{$\\Gamma \\vdash x : A$}\n"
    "\\end{prooftree}\n$$\n\nand a hole $[\\~]$.\n"
)
ONE = '+++\ntitle = "One"\ndate = 2023-07-01\n+++\n## Rules\n\nText.\n'


def test_a_zola_post_builds_with_its_tags_links_and_proof_tree_and_no_warning(tmp_path):
    root = make_site(tmp_path / "site", {"cbpv.md": ZOLA, "one.md": ONE})
    assert not build(BuildOptions(root=root)).warnings
    body = page(root, "cbpv").find_class("post-body")[0]
    assert body.xpath("//a[text()='part one']/@href") == ["/blog/posts/one/#rules"]
    assert (root / "_site/tags/logic/index.html").exists()
    assert (root / "_site/tags/blog/index.html").exists()
    assert not body.find_class("math-error")
    assert body.xpath("count(//math[@display='block']//mover//mtable)") == 1
    assert "\\" not in body.xpath("string(//p[last()]//math/semantics/mrow)")


HEXO = HEAD.format("Ising") + (
    "@[toc]\n\n"
    "## Model\n\n"
    "The energy $H$ is\n\n"
    "<!-- more -->\n\n"
    "$$\nH = -\\sum_{i=1}^N \\sigma_i^x \\sigma_{i+1}^x\n$$\n\n"
    "## Phases\n\nText.\n"
)


def test_a_hexo_post_has_its_contents_once_where_its_marker_is(tmp_path):
    body, tex = built_body(tmp_path, "hexo", HEXO)
    doc = page(tmp_path / "site", "hexo")
    assert len(doc.find_class("toc")) == 1  # where `@[toc]` was, not again by the template
    toc = body.find_class("toc-inline")[0]
    assert [a.text_content() for a in toc.iter("a")] == ["Model", "Phases"]
    assert [t.strip() for t in tex] == ["H", "H = -\\sum_{i=1}^N \\sigma_i^x \\sigma_{i+1}^x"]
    assert "@[toc]" not in shown_text(body)


def contents(root, slug):
    """The page's contents list: each section's text, with its subsections' in brackets."""
    items = page(root, slug).xpath("//nav[@class='toc']/ol/li")
    return [
        item.xpath("./a")[0].text_content()
        + (
            f" [{', '.join(a.text_content() for a in item.xpath('./ol/li/a'))}]"
            if item.xpath("./ol")
            else ""
        )
        for item in items
    ]


def test_the_page_contents_list_a_posts_sections_at_the_level_it_writes_them(tmp_path):
    hash_sections = HEAD.format("Kernels") + "".join(
        f"# Part {n}\n\nText.\n\n## Detail {n}\n\nText.\n\n" for n in (1, 2, 3)
    )
    repeated_title = (
        HEAD.format("Attention")
        + "# Attention\n\n"
        + "".join(f"## Step {n}\n\nText.\n\n" for n in (1, 2, 3))
    )
    deep = HEAD.format("Bounds") + "".join(f"#### Lemma {n}\n\nText.\n\n" for n in (1, 2, 3))
    long = HEAD.format("Long") + "".join(
        f"## S{n}\n\n" + "".join(f"### S{n}.{k}\n\nText.\n\n" for k in range(10)) for n in (1, 2, 3)
    )
    root = make_site(
        tmp_path / "site",
        {
            "kernels.md": hash_sections,
            "attention.md": repeated_title,
            "bounds.md": deep,
            "long.md": long,
        },
    )
    build(BuildOptions(root=root))
    assert contents(root, "kernels") == [  # was the three Details alone
        "Part 1 [Detail 1]",
        "Part 2 [Detail 2]",
        "Part 3 [Detail 3]",
    ]
    assert contents(root, "attention") == ["Step 1", "Step 2", "Step 3"]
    assert contents(root, "bounds") == ["Lemma 1", "Lemma 2", "Lemma 3"]  # was none
    assert contents(root, "long") == ["S1", "S2", "S3"]  # 33 entries: the sections only
