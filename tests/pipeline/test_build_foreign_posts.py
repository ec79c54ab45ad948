"""End to end: one post in the style of each generator postil's users come from builds as is.

Each post is a minimal reproduction written for this test (front matter syntax, attribute
lists, callouts, excerpt marker), never a copy of a real post.
"""

from __future__ import annotations

import feedparser
import pytest
from support.blog import build_into, build_site, make_site, page
from support.images import PNG

from postil.build import BuildOptions, build
from postil.errors import BuildFailed

JEKYLL = """---
layout: post
comments: true
title: "Policy gradients, briefly"
excerpt: "Why the log-derivative trick works."
date: 2016-05-31 11:00:00
mathjax: true
tags: reinforcement-learning math
categories: notes
---

The gradient is $\\nabla_\\theta J$ [in the paper](https://example.org/pg){:target="\\_blank"}.

![Pong](/assets/pong.png){: .center width="60%"}

A lead paragraph.
{: .lead}
"""

HUGO = """+++
title = 'PPCA: the minimal generative model'
date = 2025-10-20T12:20:23-05:00
draft = false
categories = ["AI"]
tags = ["pca"]
images = ["/img/ppca.png"]
+++

The marginal is $p(t) = \\mathcal{N}(\\mu, C)$.

<!--more-->

The rest of the post.
"""

QUARTO = """---
title: "Attention, scaled"
date: 2023-01-05
description: "Why divide by the square root of the dimension."
author:
  - name: Grace Hopper
    url: https://example.org/grace
    affiliations:
      - name: Navy
  - name: Ada Lovelace
    affiliation: Analytical Society
format: html
toc: true
---

## Scaling

::: {.callout-tip title="Why $\\sqrt{d}$?" collapse="true"}
The variance of $q \\cdot k$ grows with $d$.
:::
"""

DISTILL = """---
layout: distill
title: A distill-style post
description: Main elements.
date: 2018-12-22
authors:
  - name: Albert Einstein
    url: "https://example.org/ae"
    affiliations:
      name: IAS, Princeton
---

> [!WARNING] Numerics
> Subtract the maximum before $\\exp$.
"""

PELICAN = """Title: Kernels in a hurry
Date: 2010-12-03 10:20
Category: Python
Tags: kernels, svm
Summary: What a kernel computes.

!!! note "Mercer"
    A kernel is an inner product:

    $$
    k(x, y) = \\langle \\phi(x), \\phi(y) \\rangle
    $$
"""

MKDOCS = """---
title: Admonitions in MkDocs
date: 2024-02-02
hide:
  - toc
---

??? danger "Folded"
    Collapsed by default, with $x^2$.
"""

POSTS = {
    "2016-05-31-pg.markdown": JEKYLL,
    "ppca.md": HUGO,
    "attention.qmd": QUARTO,
    "distill.md": DISTILL,
    "kernels.md": PELICAN,
    "mkdocs.md": MKDOCS,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_site(tmp_path_factory.mktemp("foreign") / "site", POSTS)
    for image in ("assets/pong.png", "img/ppca.png"):  # the images the posts show
        (root / "static" / image).parent.mkdir(parents=True, exist_ok=True)
        (root / "static" / image).write_bytes(PNG)
    result = build_site(root)
    return root, build_into(root), result


def test_every_style_builds_without_warnings(site):
    _, out, result = site
    assert [str(w) for w in result.warnings] == []
    assert sorted(p.parent.name for p in (out / "posts").glob("*/index.html")) == [
        "2016-05-31-pg",  # the redirect page at the dated URL earlier versions gave it
        "attention",
        "distill",
        "kernels",
        "mkdocs",
        "pg",  # 2016-05-31-pg.markdown: Jekyll's slug, without the date
        "ppca",
    ]


def test_jekyll_post_keeps_its_tags_attributes_and_excerpt(site):
    _, out, _ = site
    doc = page(out, "posts/pg/index.html")
    assert [t.text_content() for t in doc.find_class("tag")] == [
        "reinforcement-learning",
        "math",
        "notes",
    ]
    link = doc.xpath('//a[@href="https://example.org/pg"]')[0]
    assert (link.get("target"), link.get("rel")) == ("_blank", "noopener")
    image = doc.xpath('//img[contains(@src, "pong.png")]')[0]
    assert (image.get("class"), image.get("style")) == ("center", "width:60%")
    assert doc.xpath('//p[@class="lead"]')[0].text_content() == "A lead paragraph."
    assert "{:" not in doc.xpath('//div[@class="post-body"]')[0].text_content()
    assert doc.xpath('//meta[@name="description"]')[0].get("content") == (
        "Why the log-derivative trick works."
    )


def test_hugo_toml_post_reads_its_front_matter_and_more_marker(site):
    _, out, _ = site
    doc = page(out, "posts/ppca/index.html")
    assert doc.xpath("//h1")[0].text_content() == "PPCA: the minimal generative model"
    assert [t.text_content() for t in doc.find_class("tag")] == ["pca", "AI"]
    home = page(out, "index.html")
    [summary] = [s for s in home.find_class("summary") if "marginal" in s.text_content()]
    assert "The rest of the post" not in summary.text_content()


def test_quarto_post_shows_authors_affiliations_toc_and_a_collapsible_callout(site):
    _, out, _ = site
    doc = page(out, "posts/attention/index.html")
    byline = doc.find_class("authors")[0]
    assert byline.xpath(".//a")[0].get("href") == "https://example.org/grace"
    assert [a.text_content() for a in doc.find_class("affiliation")] == [
        "1Navy",
        "2Analytical Society",
    ]
    assert doc.find_class("toc")  # toc: true shows it with a single h2
    [callout] = doc.xpath('//details[@class="callout callout-tip"]')
    assert callout.get("open") is None
    summary = callout.xpath("./summary")[0]
    assert summary.xpath(".//math") and summary.text_content().startswith("Why")


def test_distill_alert_and_pelican_and_mkdocs_admonitions_are_callouts(site):
    _, out, _ = site
    distill = page(out, "posts/distill/index.html")
    [aside] = distill.xpath('//aside[@class="callout callout-warning"][@role="note"]')
    assert aside.find_class("callout-title")[0].text_content() == "Numerics"
    kernels = page(out, "posts/kernels/index.html")
    [note] = kernels.xpath('//aside[@class="callout callout-note"]')
    assert note.xpath('.//div[@class="math-display"]//math')  # not a code block
    assert not note.xpath(".//pre")
    mkdocs = page(out, "posts/mkdocs/index.html")
    [folded] = mkdocs.xpath('//details[@class="callout callout-caution"]')
    assert folded.xpath(".//math")


def test_feeds_show_collapsible_callouts_open(site):
    _, out, _ = site
    feed = (out / "feed.xml").read_text(encoding="utf-8")
    entries = feedparser.parse(feed).entries
    [quarto] = [e for e in entries if "scaled" in e.title]
    html = quarto.content[0].value
    assert "<details" not in html and "callout-tip" in html
    assert '<p class="callout-title"><strong>Why' in html


def test_unknown_callout_kind_and_dropped_attribute_warn_and_fail_under_strict(tmp_path):
    text = "---\ntitle: T\ndate: 2024-01-01\n---\n\n> [!DANGERZONE]\n> x\n\n[a](https://example.org/){onclick=x}\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    result = build_site(root)
    assert [str(w) for w in result.warnings] == [
        "content/posts/p.md:6:1: warning: unknown callout kind `DANGERZONE`, shown as a note "
        "(here and in every other `DANGERZONE` callout of this post); "
        "use one of note, tip, important, warning, caution",
        "content/posts/p.md:9:1: warning: attribute `onclick` is left out: event handlers run "
        "script, which posts may not carry; remove it",
    ]
    with pytest.raises(BuildFailed):
        build(BuildOptions(root=root, strict=True, out_dir=tmp_path / "strict"))


def test_blogdown_r_markdown_and_its_knitted_files_build_as_blogdown_publishes_them(tmp_path):
    """blogdown's three layouts: an `.Rmd` alone (a post: its chunks shown as code, with the
    chunk warning), an `index.Rmd` bundle beside the `index.html` blogdown rendered (the
    source is the post; the rendered page is not copied), and `x.Rmarkdown` beside its
    knitted `x.markdown`, whose figures follow `{{< blogdown/postref >}}` (the knitted file
    is the post, silently)."""
    chunk = "```{r}\nplot(cars)\n```\n"
    root = make_site(
        tmp_path,
        {
            "alone.Rmd": '---\ntitle: "Alone"\ndate: 2024-01-01\n---\n\nWith $x^2$.\n\n' + chunk,
            "knit.Rmarkdown": '---\ntitle: "Knit"\ndate: 2024-01-02\n---\n\n' + chunk,
            "knit.markdown": (
                '---\ntitle: "Knit"\ndate: 2024-01-02\n---\n\n``` r\nplot(cars)\n```\n\n'
                '<img src="{{< blogdown/postref >}}knit_files/figure-html/p.png" '
                'width="672" />\n\nThen $\\alpha$.\n'
            ),
        },
    )
    bundle = root / "content/posts/bundle"
    (bundle / "index_files/figure-html").mkdir(parents=True)
    (bundle / "index.Rmd").write_text(
        '---\ntitle: "Bundle"\ndate: 2024-01-03\n---\n\n$$y = 1$$\n\n'
        "![plot](index_files/figure-html/q.png)\n"
    )
    (bundle / "index.html").write_text('---\ntitle: "Bundle"\n---\n<p>rendered</p>\n')
    (bundle / "index_files/figure-html/q.png").write_bytes(PNG)
    figures = root / "content/posts/knit_files/figure-html"
    figures.mkdir(parents=True)
    (figures / "p.png").write_bytes(PNG)
    report = build_site(root)
    assert report.posts == 3
    assert [(w.location.path, w.location.line) for w in report.warnings] == [
        ("content/posts/alone.Rmd", 8),
        ("content/posts/knit.markdown", 10),  # knitr writes no alt without `fig.alt`
    ]
    assert "executable code chunk" in report.warnings[0].message
    assert "`<img>` has no `alt` attribute" in report.warnings[1].message
    out = root / "_site"
    assert page(out, "posts/alone/index.html").xpath("//math")
    knit = page(out, "posts/knit/index.html")
    assert [img.get("src") for img in knit.xpath("//article//img")] == [
        "/blog/posts/knit_files/figure-html/p.png"
    ]
    assert knit.xpath("//math") and "```" not in knit.text_content()
    assert page(out, "posts/bundle/index.html").xpath("//div[@class='math-display']//math")
    assert (out / "posts/bundle/index_files/figure-html/q.png").is_file()
    assert not list(out.rglob("*.Rmd")) and not list(out.rglob("*.Rmarkdown"))
    assert not (out / "posts/bundle/index.html").read_text().startswith("---")


def test_markdown_endings_of_jekyll_and_hugo_are_posts_and_other_formats_are_told(tmp_path):
    post = "---\ntitle: {}\ndate: 2024-01-0{}\n---\n\nText with $x$.\n"
    endings = (".mkdown", ".mkdn", ".mkd", ".mdown", ".pandoc", ".pdc", ".mmark")
    posts = {f"p{n}{ending}": post.format(ending, n) for n, ending in enumerate(endings, 1)}
    posts |= {"a.org": "#+TITLE: Org\n\n* Intro\n", "b.rst": "Title\n=====\n", "c.adoc": "= T\n"}
    posts |= {
        "d.html": "---\ntitle: WordPress import\n---\n<p>Old.</p>\n",
        "e.html": "<p>A page.</p>",
        "f.html": '+++\ntitle = "Hugo"\n+++\n<p>Hugo\'s HTML content.</p>\n',
    }
    root = make_site(tmp_path / "site", posts)
    result = build_site(root)
    assert result.posts == len(endings)
    warnings = sorted(str(w).split("\n")[0] for w in result.warnings)
    assert [w.split(": warning: ")[0] for w in warnings] == [
        "content/posts/a.org:1:1",
        "content/posts/b.rst:1:1",
        "content/posts/c.adoc:1:1",
        "content/posts/d.html:1:1",  # Jekyll's and Hugo's post in HTML; e.html is a file
        "content/posts/f.html:1:1",  # with Hugo's TOML front matter
    ]
    assert "written in Org mode, which postil does not read as a post or page" in warnings[0]
    assert "published as the file `posts/a.org`" in warnings[0]
    assert "`pandoc a.org -t markdown -o a.md`" in warnings[0]
    assert "an HTML file with front matter is a post to Jekyll and Hugo" in warnings[3]
