r"""Math in a post's title, subtitle and headings, built end to end: MathML where the page
shows HTML, readable text wherever plain text is needed, TeX kept in BibTeX."""

from __future__ import annotations

import json
from pathlib import Path

import feedparser
import pytest
from support.blog import build_into, make_site, page

from postil.build import BuildOptions, build
from postil.errors import BuildFailed

TITLE = r"The $\alpha$-divergence in $O(n^2)$"
TEXT = "The α-divergence in O(n²)"
POST = f"""---
title: '{TITLE}'
subtitle: 'Why $\\RR^n$ costs \\$5 and $10'
date: 2026-01-15
macros:
  RR: '\\mathbb{{R}}'
---

Intro.

## The $\\displaystyle S$ matrix

Text.

## Bounds on $\\RR$

## Plain

### Deeper
"""


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    root = make_site(
        tmp_path_factory.mktemp("titles"),
        {"alpha.md": POST, "older.md": "---\ntitle: Older\ndate: 2026-01-01\n---\n\nOld.\n"},
    )
    return build_into(root)


def meta(doc, key: str) -> str:
    (value,) = doc.xpath(f"//meta[@property='{key}' or @name='{key}']/@content")
    return value


def test_the_h1_and_subtitle_show_math_as_mathml(out):
    doc = page(out, "posts/alpha/index.html")
    (h1,) = doc.xpath("//h1[@class='post-title']")
    assert len(h1.xpath(".//math")) == 2
    assert "$" not in h1.text_content().split("application/x-tex")[0]
    (lede,) = doc.xpath("//p[@class='lede']")
    assert lede.xpath(".//math//mi/text()")[0] == "ℝ"
    assert "costs $5 and $10" in lede.text_content()


def test_plain_text_places_read_the_title_as_unicode(out):
    doc = page(out, "posts/alpha/index.html")
    assert doc.xpath("//title/text()") == [f"{TEXT} · Test site"]
    for key in ("og:title", "twitter:title", "citation_title"):
        assert meta(doc, key) == TEXT
    assert meta(doc, "description") == "Why ℝⁿ costs $5 and $10"
    (ld,) = doc.xpath("//script[@type='application/ld+json']/text()")
    assert json.loads(ld)["headline"] == TEXT


def test_citation_keeps_math_in_bibtex_and_reads_text_in_apa(out):
    doc = page(out, "posts/alpha/index.html")
    (bibtex,) = doc.xpath("//pre[@id='bibtex-entry']")
    assert r"= {The {$\alpha$}-divergence in {$O(n^2)$}}," in bibtex.text_content()
    assert "@misc{lovelace2026divergence," in bibtex.text_content()
    (apa,) = doc.xpath("//p[@id='apa-entry']")
    assert f"(2026). {TEXT}. Test site." in apa.text_content()


def test_heading_ids_have_no_tex_and_the_toc_shows_mathml(out):
    doc = page(out, "posts/alpha/index.html")
    ids = doc.xpath("//div[@class='post-body']//h2/@id")
    assert ids == ["the-s-matrix", "bounds-on-r", "plain"]
    (label,) = doc.xpath("//h2[@id='the-s-matrix']/a/@aria-label")
    assert label == "Link to section: The S matrix"
    sections = doc.xpath("//nav[@class='toc']/ol/li/a")
    assert [a.get("href") for a in sections] == ["#the-s-matrix", "#bounds-on-r", "#plain"]
    links = doc.xpath("//nav[@class='toc']//a")  # the `###` nested under its section
    assert [a.get("href") for a in links] == ["#the-s-matrix", "#bounds-on-r", "#plain", "#deeper"]
    assert links[0].xpath(".//math//mi/text()") == ["S"]


def test_lists_and_neighbours_show_the_title_as_mathml(out):
    for rel in ("index.html", "archive/index.html"):
        (link,) = page(out, rel).xpath("//a[@href='/blog/posts/alpha/']")
        assert len(link.xpath(".//math")) == 2, rel
    (newer,) = page(out, "posts/older/index.html").xpath("//a[@class='newer']")
    assert len(newer.xpath(".//math")) == 2


@pytest.mark.parametrize("name", ["feed.xml", "rss.xml"])
def test_feed_entry_titles_are_the_readable_text(out, name):
    feed = feedparser.parse((out / name).read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert [e.title for e in feed.entries] == [TEXT, "Older"]


def test_math_error_in_a_title_is_reported_at_its_front_matter_column(tmp_path):
    post = "---\ndate: 2026-01-15\ntitle: A $\\frac{a}$ and $x$\n---\n\nBody.\n"
    root = make_site(tmp_path, {"bad.md": post})
    with pytest.raises(BuildFailed) as failed:  # a warning, as in the body: --strict fails
        build(BuildOptions(root=root, out_dir=root / "_site", strict=True))
    (found,) = failed.value.diagnostics
    assert str(found.location) == "content/posts/bad.md:3:11"
    assert "\\frac needs 2 arguments" in found.message
    assert found.report().endswith("title: A $\\frac{a}$ and $x$\n              ^")


def test_an_unclosed_dollar_in_a_title_is_text(tmp_path):
    root = make_site(tmp_path, {"cost.md": "---\ntitle: It costs $5\ndate: 2026-01-15\n---\n"})
    doc = page(build_into(root), "posts/cost/index.html")
    assert doc.xpath("//h1/text()") == ["It costs $5"]


SUMMARY_POST = """---
title: Storage
date: 2026-01-15
summary: 'We need only ${O(d_{\\max})}$ storage, $\\RR$-valued; it costs $5 and $10'
macros:
  RR: '\\mathbb{R}'
---

Body.
"""
SUMMARY_TEXT = "We need only O(dₘₐₓ) storage, ℝ-valued; it costs $5 and $10"


@pytest.fixture(scope="module")
def summaries(tmp_path_factory) -> Path:
    plain = "---\ntitle: Plain\ndate: 2026-01-01\ndescription: Costs $5 & more\n---\n\nOld.\n"
    root = make_site(tmp_path_factory.mktemp("sums"), {"s.md": SUMMARY_POST, "p.md": plain})
    return build_into(root)


def test_a_summary_shows_its_math_as_mathml_in_lists(summaries):
    with_math, plain = page(summaries, "index.html").xpath("//p[@class='summary']")
    assert len(with_math.xpath(".//math")) == 2
    assert with_math.xpath(".//math//mi/text()")[-1] == "ℝ"
    assert with_math.text_content().startswith("We need only ")
    assert with_math.text_content().endswith("-valued; it costs $5 and $10")
    assert plain.text_content() == "Costs $5 & more" and not plain.xpath(".//math")


def test_a_summary_reads_as_text_in_meta_tags_and_json_ld(summaries):
    doc = page(summaries, "posts/s/index.html")
    for key in ("description", "og:description", "twitter:description"):
        assert meta(doc, key) == SUMMARY_TEXT
    (ld,) = doc.xpath("//script[@type='application/ld+json']/text()")
    assert json.loads(ld)["description"] == SUMMARY_TEXT
    assert meta(page(summaries, "posts/p/index.html"), "description") == "Costs $5 & more"


def test_a_feed_summary_with_math_is_html_with_mathml_and_without_math_text(summaries):
    feed = feedparser.parse((summaries / "feed.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    with_math, plain = feed.entries
    assert with_math.summary_detail.type == "text/html"
    assert with_math.summary.count("<math") == 2 and "${O" not in with_math.summary
    assert plain.summary_detail.type == "text/plain" and plain.summary == "Costs $5 & more"


def test_math_error_in_a_summary_is_reported_at_its_front_matter_column(tmp_path):
    post = "---\ndate: 2026-01-15\ntitle: T\ndescription: See $\\frac{a}$ here\n---\n\nBody.\n"
    root = make_site(tmp_path, {"bad.md": post})
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=root, out_dir=root / "_site", strict=True))
    (found,) = failed.value.diagnostics
    assert str(found.location) == "content/posts/bad.md:4:19"
    assert "\\frac needs 2 arguments" in found.message
