"""End to end: a post kept for dev.to, a Hashnode backup, a page exported from Notion and an
mdsvex post (`.svx`) build and read as dev.to, Hashnode, Notion and SvelteKit showed them
(front matter, katex tags, folds, embeds, callouts, `%20` in image paths, Svelte's script
and components).

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


NOTION = """# Sets

Created: November 23, 2024 10:51 PM

<aside>
💡 The **empty** set is a subset of $S$.

</aside>

![A diagram](Sets%201a2b/venn%201.png)

$$
\u204d
$$
"""

SVX = """---
title: Svelte sums
date: 2024-02-02
---

<script>
\timport Callout from '$lib/components/Callout.svelte';
</script>

<Callout type="warning" title="Careful">
The sum $\\sum_i x_i$ diverges.
</Callout>
"""

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    posts = {
        "sparse.md": DEVTO,
        "clfz9kmdz000709mf6emoc1cx.md": HASHNODE,
        "Sets 1a2b.md": NOTION,
        "svelte-sums.svx": SVX,
    }
    root = make_site(tmp_path_factory.mktemp("devto") / "site", posts)
    (root / "content/posts/Sets 1a2b").mkdir()
    (root / "content/posts/Sets 1a2b/venn 1.png").write_bytes(PNG)
    result = build_site(root)
    return build_into(root), result


def test_they_build_warning_only_of_notions_lost_formula_the_hashnode_post_dated(site):
    out, result = site
    warnings = [str(w).split(" warning: ") for w in result.warnings]
    assert [place for place, _ in warnings] == [
        "content/posts/Sets 1a2b.md:1:1:",  # no date: Notion's pages have none
        "content/posts/Sets 1a2b.md:12:1:",
    ]
    assert "Notion's placeholder" in warnings[1][1]
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


def test_notion_callout_is_markdown_and_its_image_is_found(site):
    out, _ = site
    body = page(out, "posts/sets-1a2b/index.html").xpath('//div[@class="post-body"]')[0]
    callout = body.xpath('.//aside[@class="callout callout-note"]')[0]
    assert callout.xpath(".//strong")[0].text == "empty"
    assert len(callout.xpath('.//*[local-name()="math"]')) == 1
    assert body.xpath(".//img/@src") == ["/blog/posts/Sets%201a2b/venn%201.png"]


def test_an_svx_post_is_built_its_script_left_out_its_callout_postils(site):
    out, _ = site
    body = page(out, "posts/svelte-sums/index.html").xpath('//div[@class="post-body"]')[0]
    assert body.xpath(".//script") == [] and "import" not in body.text_content()
    callout = body.xpath('.//aside[@class="callout callout-warning"]')[0]
    assert callout.xpath('.//p[@class="callout-title"]')[0].text_content() == "Careful"
    assert len(callout.xpath('.//*[local-name()="math"]')) == 1
