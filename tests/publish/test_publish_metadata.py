"""Head metadata of built pages: canonical, Open Graph, Twitter, JSON-LD, Google Scholar."""

from __future__ import annotations

import json
import re

from support.blog import BASE, build_into, make_site, page, post_text

from postil.metadata import script_json

HOSTILE = "</script><script>alert(1)</script> & <b>bold</b>"


def meta_map(doc, attribute: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for el in doc.xpath(f"//meta[@{attribute}]"):
        found.setdefault(el.get(attribute), []).append(el.get("content"))
    return found


def json_ld(doc) -> dict:
    (script,) = doc.xpath("//script[@type='application/ld+json']")
    return json.loads(script.text)


def build_one(tmp_path, title: str = "Softmax, slowly", **fields):
    text = post_text(title, "2026-02-03 10:30", body="Body $x$ here.\n", **fields)
    out = build_into(make_site(tmp_path, {"s.md": text}, "description: A site.\n"))
    return out, page(out, "posts/s/index.html")


def test_post_has_canonical_open_graph_and_twitter_meta(tmp_path):
    _, doc = build_one(tmp_path, subtitle="A lede.", tags=["ml", "math"])
    url = f"{BASE}posts/s/"
    assert doc.xpath("//link[@rel='canonical']/@href") == [url]
    og = meta_map(doc, "property")
    assert og["og:type"] == ["article"] and og["og:url"] == [url]
    assert og["og:title"] == ["Softmax, slowly"] and og["og:description"] == ["A lede."]
    assert og["og:site_name"] == ["Test site"]
    assert og["article:published_time"] == ["2026-02-03T10:30:00+00:00"]
    assert og["article:tag"] == ["ml", "math"]
    named = meta_map(doc, "name")
    assert named["twitter:card"] == ["summary"] and named["twitter:title"] == ["Softmax, slowly"]
    assert doc.xpath("//link[@rel='alternate'][@type='application/atom+xml']/@href") == [
        "/blog/feed.xml"
    ]


def test_post_json_ld_is_a_blog_posting_with_the_right_fields(tmp_path):
    _, doc = build_one(tmp_path, authors=["Ada Lovelace", "Alan Turing"], updated="2026-03-01")
    data = json_ld(doc)
    assert data["@context"] == "https://schema.org" and data["@type"] == "BlogPosting"
    assert data["headline"] == "Softmax, slowly"
    assert data["url"] == data["mainEntityOfPage"]["@id"] == f"{BASE}posts/s/"
    assert data["datePublished"] == "2026-02-03T10:30:00+00:00"
    assert data["dateModified"] == "2026-03-01T00:00:00+00:00"
    assert [a["name"] for a in data["author"]] == ["Ada Lovelace", "Alan Turing"]
    assert data["isPartOf"] == {"@type": "Blog", "name": "Test site", "url": BASE}
    assert data["description"] == "Body x here."


def test_post_has_google_scholar_citation_meta(tmp_path):
    _, doc = build_one(tmp_path)
    named = meta_map(doc, "name")
    assert named["citation_title"] == ["Softmax, slowly"]
    assert named["citation_author"] == ["Ada Lovelace"]
    assert named["citation_publication_date"] == ["2026/02/03"]
    assert named["citation_fulltext_html_url"] == [f"{BASE}posts/s/"]


def test_hostile_title_is_escaped_in_page_title_og_and_json_ld(tmp_path):
    out, doc = build_one(tmp_path, title=HOSTILE)
    raw = (out / "posts/s/index.html").read_text()
    assert raw.count("<script") == raw.count("</script>")  # no script was opened by the title
    assert "<b>bold</b>" not in raw
    assert doc.xpath("string(//title)") == f"{HOSTILE} · Test site"
    assert doc.xpath("string(//h1)") == HOSTILE
    assert meta_map(doc, "property")["og:title"] == [HOSTILE]
    assert json_ld(doc)["headline"] == HOSTILE
    ld_text = doc.xpath("//script[@type='application/ld+json']")[0].text
    assert "<" not in ld_text and ">" not in ld_text and "&" not in ld_text
    index = (out / "index.html").read_text()
    assert "<b>bold</b>" not in index and "&lt;b&gt;bold&lt;/b&gt;" in index


def test_script_json_escapes_markup_characters_but_keeps_the_value():
    data = {"t": "</script><!-- & é \u2028"}
    text = str(script_json(data))
    assert text == '{"t":"\\u003c/script\\u003e\\u003c!-- \\u0026 é \u2028"}'
    assert json.loads(text) == data


def test_list_pages_have_canonical_urls_and_website_meta(tmp_path):
    out = build_into(make_site(tmp_path, {"s.md": post_text("S", "2026-01-01", tags=["t"])}))
    for rel, url in [
        ("index.html", BASE),
        ("archive/index.html", f"{BASE}archive/"),
        ("tags/index.html", f"{BASE}tags/"),
        ("tags/t/index.html", f"{BASE}tags/t/"),
    ]:
        doc = page(out, rel)
        assert doc.xpath("//link[@rel='canonical']/@href") == [url], rel
        assert meta_map(doc, "property")["og:type"] == ["website"], rel
        assert not doc.xpath("//script[@type='application/ld+json']"), rel


def test_about_page_has_canonical_but_no_citation(tmp_path):
    about = "---\ntitle: About me\n---\n\nHello [home](/) and [post](posts/s.md).\n"
    site = make_site(tmp_path, {"s.md": post_text("S", "2026-01-01")}, pages={"about.md": about})
    doc = page(build_into(site), "about/index.html")
    assert doc.xpath("//link[@rel='canonical']/@href") == [f"{BASE}about/"]
    assert not doc.xpath("//meta[starts-with(@name, 'citation_')]")
    assert doc.xpath("//div[@class='post-body']//a/@href") == ["/blog/", "/blog/posts/s/"]


def test_a_posts_doi_is_in_its_citation_block_scholar_meta_and_json_ld(tmp_path):
    _, doc = build_one(tmp_path, doi="https://doi.org/10.59350/abc-123")
    assert meta_map(doc, "name")["citation_doi"] == ["10.59350/abc-123"]
    assert json_ld(doc)["identifier"] == {
        "@type": "PropertyValue",
        "propertyID": "DOI",
        "value": "10.59350/abc-123",
    }
    block = " ".join(doc.xpath("//*[contains(@class, 'cite')]//text()"))
    assert re.search(r"\n  doi +=", block) and "= {10.59350/abc-123},\n  url" in block
    assert "https://doi.org/10.59350/abc-123" in block  # the APA reference links the DOI


def test_an_organisation_and_a_braced_name_are_written_by_their_byline_names(tmp_path):
    """`{Barnes and Noble}` is an organisation (braces are BibTeX's, not the name's) and
    `Martin Luther King, Jr.` a person with a suffix, in JSON-LD, Scholar's tags and feeds."""
    out, doc = build_one(tmp_path, author=["{Barnes and Noble}", "Martin Luther King, Jr."])
    assert json_ld(doc)["author"] == [
        {"@type": "Organization", "name": "Barnes and Noble"},
        {"@type": "Person", "name": "Martin Luther King, Jr."},
    ]
    assert meta_map(doc, "name")["citation_author"] == [
        "Barnes and Noble",
        "Martin Luther King, Jr.",
    ]
    feeds = (out / "feed.xml").read_text(encoding="utf-8")
    assert "<name>Barnes and Noble</name>" in feeds and "{" not in feeds.split("<entry>")[1][:600]


def test_a_cross_post_names_its_original_as_the_canonical_page(tmp_path):
    """dev.to's and Jekyll SEO's `canonical_url:` (Hugo PaperMod's `canonicalURL:`): search
    engines credit the original; without it the page is its own canonical URL."""
    _, doc = build_one(tmp_path, canonical_url="https://example.org/2020/01/original/")
    assert doc.xpath("//link[@rel='canonical']/@href") == ["https://example.org/2020/01/original/"]
