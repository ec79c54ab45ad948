"""The blog around the posts, built end to end from small generated sites.

Drafts and future posts, pagination boundaries, tag pages, the archive, summaries, `updated:`,
`citation: false`, several authors, 404.html and CNAME. The sites are written and built by
`support.blog` (shared with the other publishing, feed and build tests).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from support.blog import BASE, build_into, build_site, make_site, page, post_text


def titles(doc: Any) -> list[str]:
    return [a.text_content() for a in doc.xpath("//li[@class='post-item']/h2/a")]


def numbered_posts(count: int) -> dict[str, str]:
    """Posts p01… dated one day apart, p01 the oldest."""
    return {
        f"p{i:02}.md": post_text(f"Post {i:02}", f"2026-01-{i:02}") for i in range(1, count + 1)
    }


@pytest.mark.parametrize(
    "count, pages",
    [(0, 1), (1, 1), (3, 1), (4, 2), (7, 3)],
    ids=["none", "one", "exactly-a-page", "a-page-plus-one", "three-pages"],
)
def test_index_pagination_boundaries(tmp_path, count, pages):
    out = build_into(make_site(tmp_path, numbered_posts(count), "paginate: 3\n"))
    listed = []
    for n in range(1, pages + 1):
        rel = "index.html" if n == 1 else f"page/{n}/index.html"
        doc = page(out, rel)
        listed += titles(doc)
        prev = doc.xpath("//nav[@class='pagination']/a[@rel='prev']/@href")
        after = doc.xpath("//nav[@class='pagination']/a[@rel='next']/@href")
        assert prev == ([] if n == 1 else ["/blog/" if n == 2 else f"/blog/page/{n - 1}/"])
        assert after == ([] if n == pages else [f"/blog/page/{n + 1}/"])
    assert not (out / f"page/{pages + 1}").exists()
    assert not (out / "page/1").exists()
    assert listed == [f"Post {i:02}" for i in range(count, 0, -1)]
    if count == 0:
        assert "No posts yet." in page(out, "index.html").text_content()


def test_drafts_and_future_posts_are_left_out_unless_asked(tmp_path):
    root = make_site(
        tmp_path,
        {
            "now.md": post_text("Published", "2026-05-01"),
            "draft.md": post_text("Drafted", "2026-05-02", draft=True),
            "later.md": post_text("Scheduled", "2026-07-01"),
        },
    )
    everywhere = ["index.html", "archive/index.html", "feed.xml", "rss.xml", "sitemap.xml"]

    def shown(out: Path) -> set[str]:
        text = "".join((out / rel).read_text() for rel in everywhere)
        return {t for t in ("Published", "Drafted", "Scheduled", "/draft/", "/later/") if t in text}

    out = build_into(root)
    assert shown(out) == {"Published"}
    assert not (out / "posts/draft").exists() and not (out / "posts/later").exists()
    assert shown(build_into(root, drafts=True)) == {"Published", "Drafted", "/draft/"}
    assert shown(build_into(root, future=True)) == {"Published", "Scheduled", "/later/"}


def test_a_publish_date_still_to_come_holds_a_dated_post_back(tmp_path):
    # Hugo's `publishDate`: the post shows its `date` but goes out on its publish date
    later = post_text("Embargoed", "2026-03-01", publishDate="2026-07-01")
    root = make_site(tmp_path, {"held.md": later, "now.md": post_text("Out", "2026-05-01")})
    out = build_into(root)
    assert "Embargoed" not in (out / "index.html").read_text()
    assert not (out / "posts/held").exists()
    doc = page(build_into(root, now=datetime(2026, 7, 2, tzinfo=timezone.utc)), "index.html")
    assert titles(doc) == ["Out", "Embargoed"]  # listed by its date, March


def test_tag_pages_list_their_posts_and_the_tag_index_counts_them(tmp_path):
    posts = {
        "a.md": post_text("Alpha", "2026-01-01", tags=["Machine Learning", "C++"]),
        "b.md": post_text("Beta", "2026-01-02", tags=["Machine Learning", "C"]),
    }
    out = build_into(make_site(tmp_path, posts))
    assert titles(page(out, "tags/machine-learning/index.html")) == ["Beta", "Alpha"]
    assert titles(page(out, "tags/c/index.html")) == ["Beta"]
    assert titles(page(out, "tags/cpp/index.html")) == ["Alpha"]  # not "c": another term
    index = page(out, "tags/index.html")
    entries = [li.text_content().split() for li in index.xpath("//ul[@class='tag-index']/li")]
    assert entries == [
        ["C", "(1", "post)"],
        ["C++", "(1", "post)"],
        ["Machine", "Learning", "(2", "posts)"],
    ]
    links = page(out, "posts/a/index.html").xpath("//p[@class='post-tags']/a/@href")
    assert links == ["/blog/tags/machine-learning/", "/blog/tags/cpp/"]


def test_tags_spelled_alike_are_one_term_at_one_url_whatever_other_posts_say(tmp_path):
    """`Math`, `math` and Obsidian's `#math` are one term (Hugo merges the terms it urlizes
    alike), named as most posts spell it; its URL never moves when a post adds a spelling
    (it became `math-2`, then `math-3`). `C++`, `C#` and `C` stay three terms, and two
    emoji-only tags two."""
    posts = {
        "a.md": post_text("Alpha", "2026-01-01", tags=["math", "Machine Learning", "C#"]),
        "b.md": post_text("Beta", "2026-01-02", tags=["Math", "machine-learning", "🚀"]),
        "c.md": post_text("Gamma", "2026-01-03", tags=["#math", "C++", "math", "🎉"]),
    }
    alone = make_site(tmp_path / "alone", {"a.md": posts["a.md"]})
    assert titles(page(build_into(alone), "tags/math/index.html")) == ["Alpha"]
    out = build_into(make_site(tmp_path / "all", posts))
    assert titles(page(out, "tags/math/index.html")) == ["Gamma", "Beta", "Alpha"]
    assert titles(page(out, "tags/machine-learning/index.html")) == ["Beta", "Alpha"]
    assert titles(page(out, "tags/csharp/index.html")) == ["Alpha"]
    assert titles(page(out, "tags/cpp/index.html")) == ["Gamma"]
    assert titles(page(out, "tags/tag-1f680/index.html")) == ["Beta"]
    assert titles(page(out, "tags/tag-1f389/index.html")) == ["Gamma"]
    index = page(out, "tags/index.html")
    names = [li.xpath("a")[0].text_content() for li in index.xpath("//ul[@class='tag-index']/li")]
    assert names == ["C#", "C++", "Machine Learning", "math", "🎉", "🚀"]
    gamma = page(out, "posts/c/index.html").xpath("//p[@class='post-tags']/a")
    assert [(a.text_content(), a.get("href")) for a in gamma] == [
        ("math", "/blog/tags/math/"),
        ("C++", "/blog/tags/cpp/"),
        ("🎉", "/blog/tags/tag-1f389/"),
    ]


def test_tag_pages_paginate_like_the_index(tmp_path):
    posts = {f"p{i}.md": post_text(f"P{i}", f"2026-02-0{i}", tags=["x"]) for i in range(1, 5)}
    out = build_into(make_site(tmp_path, posts, "paginate: 3\n"))
    assert titles(page(out, "tags/x/index.html")) == ["P4", "P3", "P2"]
    second = page(out, "tags/x/page/2/index.html")
    assert titles(second) == ["P1"]
    assert second.xpath("//a[@rel='prev']/@href") == ["/blog/tags/x/"]


def test_archive_groups_posts_by_year_newest_first(tmp_path):
    posts = {
        "old.md": post_text("Old", "2024-03-05"),
        "mid.md": post_text("Mid", "2025-07-08"),
        "new.md": post_text("New", "2025-12-31"),
    }
    doc = page(build_into(make_site(tmp_path, posts)), "archive/index.html")
    years = doc.xpath("//section[@class='archive-year']")
    assert [y.xpath("string(h2)") for y in years] == ["2025", "2024"]
    assert [[a.text for a in y.xpath(".//a")] for y in years] == [["New", "Mid"], ["Old"]]


def test_summary_is_the_front_matter_summary_or_the_first_paragraph(tmp_path):
    body = "First $x^2$ paragraph.[^n] With [a link](https://e.org).\n\nSecond.\n\n[^n]: Note.\n"
    posts = {
        "given.md": post_text("Given", "2026-01-01", summary="Written <summary>."),
        "first.md": post_text("First", "2026-01-02", body=body),
    }
    out = build_into(make_site(tmp_path, posts))
    summaries = page(out, "index.html").xpath("//p[@class='summary']")
    assert summaries[1].text_content() == "Written <summary>."
    first = summaries[0]
    assert first.xpath(".//math") and "First" in first.text_content()
    assert "Second" not in first.text_content() and "Note." not in first.text_content()
    assert not first.xpath(".//a") and not first.xpath(".//@id")
    described = page(out, "posts/first/index.html").xpath("//meta[@name='description']/@content")
    assert described == ["First x^2 paragraph. With a link."]


def test_updated_date_is_shown_on_the_post(tmp_path):
    posts = {"u.md": post_text("U", "2026-01-01", updated="2026-03-04")}
    doc = page(build_into(make_site(tmp_path, posts)), "posts/u/index.html")
    assert doc.xpath("//p[@class='byline']/time/@datetime") == ["2026-01-01", "2026-03-04"]
    assert "updated" in doc.xpath("string(//p[@class='byline'])")


def test_citation_false_drops_the_cite_block_and_scholar_meta(tmp_path):
    posts = {
        "c.md": post_text("Cited", "2026-01-01"),
        "n.md": post_text("Not cited", "2026-01-02", citation=False),
    }
    out = build_into(make_site(tmp_path, posts))
    cited, plain = page(out, "posts/c/index.html"), page(out, "posts/n/index.html")
    assert cited.xpath("//section[@class='cite']") and cited.xpath("//meta[@name='citation_title']")
    assert not plain.xpath("//section[@class='cite']")
    assert not plain.xpath("//meta[starts-with(@name, 'citation_')]")
    assert not plain.xpath("//script[contains(@src, 'cite.js')]")


def test_several_authors_are_joined_with_and_in_bibtex(tmp_path):
    posts = {"m.md": post_text("Many hands", "2026-01-01", authors=["Ada Lovelace", "Alan Turing"])}
    doc = page(build_into(make_site(tmp_path, posts)), "posts/m/index.html")
    bibtex = doc.get_element_by_id("bibtex-entry").text_content()
    assert re.search(r"author +\= \{Ada Lovelace and Alan Turing\}", bibtex)
    assert re.search(r"url +\= \{https://example\.github\.io/blog/posts/m/\}", bibtex)
    assert (
        doc.get_element_by_id("apa-entry").text_content().startswith("Lovelace, A., & Turing, A.")
    )
    assert doc.xpath("//meta[@name='citation_author']/@content") == ["Ada Lovelace", "Alan Turing"]


def test_404_page_has_root_absolute_links_and_is_not_indexed(tmp_path):
    out = build_into(make_site(tmp_path, numbered_posts(1)))
    doc = page(out, "404.html")
    refs = doc.xpath("//a/@href | //link/@href | //script/@src")
    internal = [r for r in refs if not r.startswith(("https://", "#"))]
    assert internal and all(r.startswith("/blog/") for r in internal), internal
    assert doc.xpath("//meta[@name='robots']/@content") == ["noindex"]
    assert not doc.xpath("//link[@rel='canonical']")


def test_cname_nojekyll_and_robots(tmp_path):
    site = make_site(tmp_path, numbered_posts(1), "cname: blog.example.org\n")
    out = build_into(site, base_url="https://blog.example.org/")
    assert (out / "CNAME").read_text() == "blog.example.org\n"
    assert (out / ".nojekyll").read_bytes() == b""
    robots = (out / "robots.txt").read_text()
    assert robots.splitlines()[-1] == "Sitemap: https://blog.example.org/sitemap.xml"


def test_robots_txt_is_written_only_at_the_host_root(tmp_path):
    project = build_site(make_site(tmp_path / "project", numbered_posts(1)))
    assert not (tmp_path / "project/_site/robots.txt").exists()
    (note,) = project.notes
    assert note.startswith("note: no robots.txt: this site lives under /blog/")
    assert f"submit {BASE}sitemap.xml" in note
    user = tmp_path / "user"
    make_site(user, numbered_posts(1))
    user_site = build_site(user, base_url="https://example.github.io/")
    assert user_site.notes == ()
    robots = (user / "_site/robots.txt").read_text()
    assert robots.splitlines()[-1] == "Sitemap: https://example.github.io/sitemap.xml"


def test_a_posts_own_css_is_a_style_element_after_the_themes_stylesheets(tmp_path):
    css = ".fake-img > p {\n  color: white;\n}"
    root = make_site(tmp_path, {"d.md": post_text("D", "2026-01-02", _styles=css)})
    html = (build_into(root) / "posts/d/index.html").read_text()
    head = html[: html.index("</head>")]
    assert f"<style>\n{css}\n</style>" in head  # `>` as written, not `&gt;`
    assert head.rindex('rel="stylesheet"') < head.index("<style>")
    other = build_into(make_site(tmp_path / "b", {"e.md": post_text("E", "2026-01-02")}))
    assert "<style>" not in (other / "posts/e/index.html").read_text()
