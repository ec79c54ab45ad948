"""End to end: a small Docusaurus-style blog of `.mdx` posts builds as posts.

The posts are minimal reproductions written for this test, never copies of real posts.
"""

from __future__ import annotations

import feedparser
import pytest
from support.blog import build_into, build_site, make_site, page
from support.images import PNG

DOCUSAURUS = """---
title: Gradients in MDX
slug: gradients
authors: [Ada Lovelace, Alan Turing]
tags: [calculus, mdx]
date: 2024-05-01
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const year = 2024;

The derivative of $f(g(x))$ is $f'(g(x))\\,g'(x)$.

<!-- truncate -->

![A graph](./graph.png)

<Tabs>
  <TabItem value="py" label="Python">
    ```py
    grad = f(x) * 2
    ```
  </TabItem>
  <TabItem value="math" label="Math">
    $$
    \\frac{d}{dx} x^2 = 2x
    $$
  </TabItem>
</Tabs>

<Admonition type="tip" title="Remember">
The chain rule {/* not the product rule */} multiplies.
</Admonition>

<Sparkline points={[1, 2, 3]} />

<Marginal>
Written in {year}.
</Marginal>
"""

ASTRO = """---
title: An Astro post
pubDate: 2024-06-01
heroImage: ./hero.png
---

Plain *Markdown* in an Astro post.
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_site(tmp_path_factory.mktemp("mdx") / "site", {})
    (root / "content/posts/astro").mkdir()
    (root / "content/posts/astro/index.mdx").write_text(ASTRO, encoding="utf-8")
    (root / "content/posts/astro/hero.png").write_bytes(PNG)
    folder = root / "content/posts/2024-05-01-post"
    folder.mkdir()
    (folder / "index.mdx").write_text(DOCUSAURUS, encoding="utf-8")
    (folder / "graph.png").write_bytes(PNG)
    result = build_site(root)
    return root, build_into(root), result


def test_mdx_posts_are_built_as_posts_with_the_warnings_they_need(site):
    _, out, result = site
    assert (out / "posts/gradients/index.html").is_file()
    assert (out / "posts/astro/index.html").is_file()
    assert not list(out.rglob("*.mdx"))  # not copied as static files
    where = "content/posts/2024-05-01-post/index.mdx"
    assert [str(w).split(": ")[0] for w in result.warnings] == [
        f"{where}:36:1",
        f"{where}:38:1",
        f"{where}:39:12",
    ]
    names = [str(w).split("`")[1] for w in result.warnings]
    assert names == ["<Sparkline />", "<Marginal>", "{year}"]
    assert "uses `year`, exported at line 11" in str(result.warnings[2])


def test_docusaurus_post_reads_front_matter_components_math_and_its_image(site):
    _, out, _ = site
    doc = page(out, "posts/gradients/index.html")
    assert doc.xpath("//h1")[0].text_content() == "Gradients in MDX"
    assert [t.text_content() for t in doc.find_class("tag")] == ["calculus", "mdx"]
    body = doc.xpath('//div[@class="post-body"]')[0]
    text = body.text_content()
    assert "import " not in text and "export " not in text and "/*" not in text
    assert [t.text_content() for t in body.find_class("tab-title")] == ["Python", "Math"]
    assert body.xpath('.//div[@class="tab"]//code[@class="language-python"]')
    assert body.xpath('.//div[@class="tab"]//math[@display="block"]')
    callout = body.xpath('.//aside[contains(@class, "callout-tip")]')[0]
    assert "Remember" in callout.text_content()
    assert "multiplies" in callout.text_content() and "product" not in text
    assert "Written in ." in text
    assert body.xpath('.//img[@alt="A graph"]')
    assert (out / "posts/gradients/graph.png").is_file()


def test_truncate_is_the_summary_break_on_lists_and_feeds(site):
    _, out, _ = site
    home = page(out, "index.html")
    [summary] = [s for s in home.find_class("summary") if "derivative" in s.text_content()]
    assert "chain rule" not in summary.text_content()
    feed = feedparser.parse((out / "feed.xml").read_bytes())
    titles = [entry.title for entry in feed.entries]
    assert titles == ["An Astro post", "Gradients in MDX"]


def test_astro_front_matter_gives_the_date(site):
    _, out, _ = site
    doc = page(out, "posts/astro/index.html")
    assert doc.xpath("//time")[0].get("datetime").startswith("2024-06-01")
    image = doc.xpath('//meta[@property="og:image"]')[0].get("content")
    assert image.endswith("/posts/astro/hero.png")
