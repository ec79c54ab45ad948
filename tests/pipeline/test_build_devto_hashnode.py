"""End to end: a post kept for dev.to and a Hashnode backup build and read as dev.to and
Hashnode showed them (front matter, katex tags, folds, embeds).

The posts are minimal reproductions written for this test, never copies of real posts.
"""

from __future__ import annotations

import pytest
from support.blog import build_into, build_site, make_site, page

DEVTO = """---
title: Sparse sums
published: true
date: 2023-05-01
description: Sums, sparsely.
tags: 'math, tutorial'
cover_image: https://e.org/cover.png
---

Let {% katex inline %}x_i \\in \\R{% endkatex %} be given.

{% katex %}
\\begin{pmatrix} a & b \\\\\\\\ c & d \\end{pmatrix}
{% endkatex %}

{% details Proof %}
Trivial, {% katex inline %}\\\\{0\\\\}{% endkatex %} is closed.
{% enddetails %}

{% github https://github.com/forem/forem %}
"""

HASHNODE = """---
title: "Notes"
datePublished: Sun Apr 02 2023 10:32:55 GMT+0000 (Coordinated Universal Time)
cuid: clfz9kmdz000709mf6emoc1cx
slug: notes
cover: https://cdn.hashnode.com/res/x.png
tags: python, math

---

The loss is $$L = \\sum_i \\ell_i$$ in a line.

%[https://github.com/hashnode/starter-kit]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    posts = {"sparse.md": DEVTO, "clfz9kmdz000709mf6emoc1cx.md": HASHNODE}
    root = make_site(tmp_path_factory.mktemp("devto") / "site", posts)
    result = build_site(root)
    return build_into(root), result


def test_both_build_without_warnings_the_hashnode_post_dated(site):
    out, result = site
    assert [str(w) for w in result.warnings] == []
    doc = page(out, "posts/notes/index.html")
    assert doc.xpath("//time/@datetime")[0].startswith("2023-04-02")


def test_dev_to_katex_tags_are_inline_and_display_math_as_dev_to_sets_them(site):
    out, _ = site
    body = page(out, "posts/sparse/index.html").xpath('//div[@class="post-body"]')[0]
    maths = body.xpath('.//*[local-name()="math"]')
    assert [m.get("display") for m in maths] == ["inline", "block", "inline"]
    tex = [a.text.strip() for a in body.xpath('.//*[local-name()="annotation"]')]
    assert tex == [
        "x_i \\in \\R",
        "\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}",
        "\\{0\\}",
    ]
    assert body.xpath(".//details/summary")[0].text_content() == "Proof"
    assert body.xpath(".//a/@href")[-1] == "https://github.com/forem/forem"
    assert "{%" not in body.text_content()


def test_hashnode_embed_is_a_link_and_no_percent_bracket_is_left(site):
    out, _ = site
    body = page(out, "posts/notes/index.html").xpath('//div[@class="post-body"]')[0]
    assert body.xpath(".//a/@href") == ["https://github.com/hashnode/starter-kit"]
    assert "%[" not in body.text_content()
