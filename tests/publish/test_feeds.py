"""Atom and RSS feeds read by feedparser; sitemap.xml read by lxml; the feed HTML filter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import feedparser
import pytest
from lxml import etree
from lxml import html as lxml_html
from support.blog import BASE, build_into, make_site, post_text

from postil.htmlfilter import feed_html, feed_html_parts, plain_text, summary_html

REPO = Path(__file__).resolve().parents[2]
POST = f"{BASE}posts/attention-from-the-softmax-up/"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@pytest.fixture(scope="module")
def repo_out(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("feeds") / "_site"
    command = [sys.executable, "-m", "postil", "-C", str(REPO), "build", "--out", str(out)]
    done = subprocess.run([*command, "--base-url", BASE], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def refs(fragment_html: str) -> list[str]:
    doc = lxml_html.fragment_fromstring(fragment_html, create_parent="div")
    return doc.xpath("//@href | //@src")


@pytest.mark.parametrize("name, version", [("feed.xml", "atom10"), ("rss.xml", "rss20")])
def test_feed_of_the_reference_post_parses_with_full_content(repo_out, name, version):
    feed = feedparser.parse((repo_out / name).read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == version
    assert feed.feed.title == "Surya Kant Sahu"
    (entry,) = feed.entries
    assert entry.link == POST
    assert entry.title == "Attention, from the softmax up"
    assert tuple(entry.published_parsed)[:3] == (2026, 1, 15)
    html = entry.content[0].value if version == "atom10" else entry.description
    assert html.count("<math") >= 28 and 'display="block"' in html
    assert "application/x-tex" in html
    assert "<script" not in html and "<button" not in html
    assert 'class="sidenote"' not in html and 'class="footnotes"' in html
    assert "entropy" in html  # the widget's server-rendered readout
    links = refs(html)
    assert links and all(link.startswith(BASE) for link in links), links
    assert f"{POST}#fnref-1" in links and f"{POST}#fn-1" in links


def test_atom_feed_dates_self_link_and_updated_come_from_the_posts(tmp_path):
    posts = {
        "a.md": post_text("A", "2025-01-01", updated="2025-06-01"),
        "b.md": post_text("B", "2025-03-01", tags=["x"]),
    }
    out = build_into(make_site(tmp_path, posts))
    feed = feedparser.parse((out / "feed.xml").read_bytes())
    assert [e.title for e in feed.entries] == ["B", "A"]
    assert feed.feed.updated == "2025-06-01T00:00:00+00:00"
    assert [e.updated for e in feed.entries] == [
        "2025-03-01T00:00:00+00:00",
        "2025-06-01T00:00:00+00:00",
    ]
    assert [link.href for link in feed.feed.links if link.rel == "self"] == [f"{BASE}feed.xml"]
    assert [t.term for t in feed.entries[0].tags] == ["x"]
    assert [e.id for e in feed.entries] == [f"{BASE}posts/b/", f"{BASE}posts/a/"]


@pytest.mark.parametrize("limit, expected", [("2", ["P3", "P2"]), ("0", ["P3", "P2", "P1"])])
def test_feed_limit_keeps_the_newest_posts(tmp_path, limit, expected):
    posts = {f"p{i}.md": post_text(f"P{i}", f"2025-01-0{i}") for i in (1, 2, 3)}
    out = build_into(make_site(tmp_path, posts, f"feed_limit: {limit}\n"))
    for name in ("feed.xml", "rss.xml"):
        assert [e.title for e in feedparser.parse((out / name).read_bytes()).entries] == expected
    assert "P1" in (out / "archive/index.html").read_text()


def test_feeds_of_an_empty_site_are_valid_and_fixed_in_time(tmp_path):
    out = build_into(make_site(tmp_path, {}))
    for name in ("feed.xml", "rss.xml"):
        feed = feedparser.parse((out / name).read_bytes())
        assert not feed.bozo and feed.entries == []
    assert "<updated>1970-01-01T00:00:00+00:00</updated>" in (out / "feed.xml").read_text()


def test_hostile_titles_are_escaped_in_the_feed_xml(tmp_path):
    title = "</title><script>alert(1)</script> & \x07 more"
    out = build_into(make_site(tmp_path, {"x.md": post_text(title, "2026-01-01")}))
    for name in ("feed.xml", "rss.xml"):
        raw = (out / name).read_text()
        assert "<script>" not in raw
        assert (
            feedparser.parse(raw.encode()).entries[0].title
            == "</title><script>alert(1)</script> & more"
        )


def test_sitemap_parses_with_absolute_locations_of_every_page(repo_out):
    root = etree.parse(str(repo_out / "sitemap.xml")).getroot()
    assert root.tag == f"{{{SITEMAP_NS}}}urlset"
    locs = root.xpath("//s:loc/text()", namespaces={"s": SITEMAP_NS})
    assert all(loc.startswith(BASE) for loc in locs)
    for rel in ["", "posts/attention-from-the-softmax-up/", "about/", "archive/", "tags/"]:
        assert BASE + rel in locs
    assert f"{BASE}404.html" not in locs
    for loc in locs:
        rel = loc[len(BASE) :]
        assert (repo_out / rel / "index.html").is_file(), loc
    lastmods = root.xpath(
        "//s:url[s:loc=$u]/s:lastmod/text()", namespaces={"s": SITEMAP_NS}, u=POST
    )
    assert lastmods == ["2026-01-15T00:00:00+00:00"]


def test_feed_html_drops_margin_copies_scripts_and_controls_and_absolutizes_links():
    body = (
        '<p>A<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup>'
        '<button class="sidenote-toggle">⊕</button><span class="sidenote" id="sn-1">'
        '<span class="sidenote-number">1</span> <span>copy <b>x</b></span></span>'
        '<span class="marginnote" id="mn-1">aside</span> &amp; &#8212;</p>'
        '<figure><input type="range" value="3"><img src="/blog/a.png" alt="">'
        '<svg viewBox="0 0 1 1"><rect width="1"/></svg><script>go()</script></figure>'
        '<p><a href="../other/">o</a> <a href="https://x.org/">x</a></p>'
    )
    out = feed_html(body, "https://e.org/blog/posts/p/")
    assert out == (
        '<p>A<sup class="footnote-ref"><a href="https://e.org/blog/posts/p/#fn-1" id="fnref-1">'
        '1</a></sup><sup class="marginnote-ref">a</sup> &amp; &#8212;</p>'
        '<figure><img src="https://e.org/blog/a.png" alt="">'
        '<svg viewBox="0 0 1 1"><rect width="1"/></svg></figure>'
        '<p><a href="https://e.org/blog/posts/other/">o</a> <a href="https://x.org/">x</a></p>'
        '<section class="marginnotes">\n<h2>Margin notes</h2>\n<ol type="a">\n'
        "<li>aside</li>\n</ol>\n</section>\n"
    )


def test_feed_margin_notes_are_lettered_endnotes_not_run_into_their_sentence():
    note = '<span class="marginnote" id="mn-{0}"><span class="sidenote-para">{1}</span></span>'
    body = (
        f"<p>One{note.format(1, 'Aside <em>one</em>.')} two.</p>\n"
        f"<p>Three{note.format(2, 'Aside <math><mi>x</mi></math>.')} four.</p>\n"
    )
    out = feed_html(body, "https://e.org/p/")
    assert out == (
        '<p>One<sup class="marginnote-ref">a</sup> two.</p>\n'
        '<p>Three<sup class="marginnote-ref">b</sup> four.</p>\n'
        '<section class="marginnotes">\n<h2>Margin notes</h2>\n<ol type="a">\n'
        '<li><span class="sidenote-para">Aside <em>one</em>.</span></li>\n'
        '<li><span class="sidenote-para">Aside <math><mi>x</mi></math>.</span></li>\n'
        "</ol>\n</section>\n"
    )
    assert b"".join(feed_html_parts(body.encode(), "https://e.org/p/")).decode() == out
    assert feed_html("<p>No notes.</p>", "https://e.org/p/") == "<p>No notes.</p>"


def test_summary_is_the_first_top_level_paragraph_without_notes_links_or_ids():
    body = (
        '<figure><p>inside a figure</p></figure><p id="p1">Lead <a href="/x">link</a>'
        '<sup class="footnote-ref"><a href="#fn-1">1</a></sup><span class="sidenote">n</span>'
        '<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x^2</annotation>'
        "</semantics></math>.</p><p>Second.</p>"
    )
    summary = summary_html(body)
    assert summary == (
        'Lead link<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x^2'
        "</annotation></semantics></math>."
    )
    assert plain_text(summary) == "Lead linkx^2."
    assert summary_html("<h2>Only a heading</h2>") == ""
    assert (
        summary_html('<p><img src="a.png" alt="x"></p>\n<p>Text <img src="b.png">.</p>') == "Text ."
    )
    assert summary_html("<p> </p>") == ""


def test_posts_without_a_date_are_left_out_of_the_feeds(tmp_path):
    import feedparser
    from support.sites import make_site

    from postil.build import BuildOptions, build

    dated = "---\ntitle: Dated\ndate: 2024-05-01\n---\nx\n"
    root = make_site(
        tmp_path / "site", {"dated.md": dated, "undated.md": "---\ntitle: Undated\n---\n"}
    )
    build(BuildOptions(root=root, cache=False))
    for name in ("feed.xml", "rss.xml"):
        parsed = feedparser.parse((root / "_site" / name).read_bytes())
        assert [e.title for e in parsed.entries] == ["Dated"], name
    assert b"1970" not in (root / "_site/feed.xml").read_bytes()


def _parsed_throughout(html: str, url: str) -> str:
    """feed_html's result with every element parsed (no element copied unparsed)."""
    from urllib.parse import urljoin

    from postil.htmlfilter import FEED_DROPPED_CLASSES, FEED_DROPPED_TAGS, Rules, _Filter

    rules = Rules(FEED_DROPPED_TAGS, FEED_DROPPED_CLASSES, rewrite_url=lambda u: urljoin(url, u))
    parser = _Filter(rules)
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


MATH = '<math display="inline"><semantics><mi>x</mi><annotation>x</annotation></semantics></math>'
CODE = '<div class="highlight"><pre><code><span class="k">def</span></code></pre></div>'


@pytest.mark.parametrize(
    "html, kept, gone",
    [
        (f"<p>a {MATH} b</p>{CODE}", [MATH, CODE], []),
        # a link inside math is made absolute, so that element is parsed
        ('<p><math><mtext href="/x">t</mtext></math></p>', ['href="https://e.org/x"'], []),
        # math inside a dropped margin copy goes with it
        (f'<p>a<span class="sidenote">n {MATH}</span> b {MATH}</p>', [MATH], ["n <math"]),
        # code whose text names a dropped class is parsed, and kept
        (CODE.replace("def", "sidenote"), ["sidenote"], []),
        # raw HTML with "<math" inside an attribute value
        (f"<p><img alt='{MATH}' src='a.png'> {MATH}</p>", ['src="https://e.org/p/a.png"'], []),
        # an element still open before the math: a dropped script around it
        (f"<script>var s = '{MATH}';</script><p>{MATH}</p>", [f"<p>{MATH}</p>"], ["var s"]),
    ],
    ids=["plain", "href-in-math", "math-in-sidenote", "code-naming-a-class", "attr", "script"],
)
def test_feed_html_copies_untouched_math_and_code_as_parsing_them_would(html, kept, gone):
    out = feed_html(html, "https://e.org/p/")
    assert out == _parsed_throughout(html, "https://e.org/p/")
    assert all(k in out for k in kept) and not any(g in out for g in gone)
