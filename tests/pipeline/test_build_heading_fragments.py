"""End to end: a post's table of contents written with another generator's heading ids.

Front matter (the title from the opening `# Heading`, its id), the Markdown stage (ids,
links moved) and the anchor check after every page is rendered meet here. Each post is a
minimal reproduction written for this test, never a copy of a real post.
"""

from __future__ import annotations

from support.blog import build_into, build_site, make_site, page

MDBOOK = """# 2. Image processing

- [2. Image processing](#2-image-processing)
  - [2.1. Edge detection](#21-edge-detection)
  - [2.2. np.gradient](#22-npgradient)
- [Missing](#31-nothing-here)

## 2.1. Edge detection

Text.

## 2.2. np.gradient

Text.
"""


def test_a_toc_with_mdbook_ids_lands_on_postils_ids_and_the_title(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": MDBOOK})
    warnings = [str(w) for w in build_site(root).warnings if "date" not in str(w)]
    assert warnings == [
        "content/posts/p.md:6:13: warning: link to `#31-nothing-here`: this page has no "
        "such anchor; its headings' ids are `#2-image-processing`, `#2-1-edge-detection`, "
        "`#2-2-np-gradient`: link to one of them or remove the fragment"
    ]
    doc = page(build_into(root), "posts/p/index.html")
    [title] = doc.xpath('//h1[@class="post-title"]')
    assert title.get("id") == "2-image-processing"
    hrefs = doc.xpath('//div[contains(@class, "post-body")]//li/a/@href') or doc.xpath(
        "//article//li/a/@href"
    )
    assert hrefs[:4] == [
        "#2-image-processing",
        "#2-1-edge-detection",
        "#2-2-np-gradient",
        "#31-nothing-here",
    ]
    assert [h.get("id") for h in doc.xpath("//h2")][:2] == ["2-1-edge-detection", "2-2-np-gradient"]


def test_a_body_heading_named_as_the_title_is_numbered_after_it(tmp_path):
    text = "# Go\n\n[Go](#go) and [the section](#go-1).\n\n## Go\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(w) for w in build_site(root).warnings if "date" not in str(w)] == []
    doc = page(build_into(root), "posts/p/index.html")
    assert doc.xpath('//h1[@class="post-title"]/@id') == ["go"]
    assert "go-1" in doc.xpath("//h2/@id")
    assert len(doc.xpath('//*[@id="go"]')) == 1


def test_a_link_to_another_posts_heading_by_its_github_id_warns_with_the_real_id(tmp_path):
    other = "---\ntitle: Other\ndate: 2024-01-01\n---\n\n## 1.1. Edge detection\n\nText.\n"
    linking = (
        "---\ntitle: Linking\ndate: 2024-01-02\n---\n\nSee [edges](other.md#11-edge-detection).\n"
    )
    root = make_site(tmp_path / "site", {"other.md": other, "linking.md": linking})
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/linking.md:6:13: warning: link to `#11-edge-detection`: "
        "content/posts/other.md has no such anchor; `11-edge-detection` is another "
        "generator's id of its heading `1.1. Edge detection`, whose id is "
        "`1-1-edge-detection`: link to `#1-1-edge-detection`"
    ]


VITEPRESS = """---
title: The beauty of SVD
description: Rank & <values>
date: 2024-01-01
---
# {{ $frontmatter.title }}

{{ $frontmatter.description }}

## Why {{ $frontmatter.title }}

[why](#why-the-beauty-of-svd)
"""


def test_vitepress_frontmatter_interpolation_fills_text_and_follows_front_matter_edits(
    tmp_path,
):
    """Front matter, the cache key and the Markdown stage meet: the title heading leaves
    the body (the page shows the title once), a value is put in escaped, and editing only
    the front matter value renders the body again."""
    root = make_site(tmp_path / "site", {"p.md": VITEPRESS})
    assert [str(w) for w in build_site(root).warnings] == []
    doc = page(build_into(root), "posts/p/index.html")
    assert len(doc.xpath("//h1")) == 1
    body = doc.xpath('//div[@class="post-body"]')[0]
    assert body.xpath("string(p[1])") == "Rank & <values>"
    assert body.xpath("h2/@id") == ["why-the-beauty-of-svd"]
    post = root / "content/posts/p.md"
    post.write_text(VITEPRESS.replace("Rank & <values>", "Singular values"), encoding="utf-8")
    doc = page(build_into(root), "posts/p/index.html")
    assert doc.xpath('string(//div[@class="post-body"]/p[1])') == "Singular values"
