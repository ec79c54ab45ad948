"""End to end: a post exported from WordPress (Markdown by an HTML converter, WordPress'
own HTML kept, Hakyll's `published:` date) builds and reads as WordPress showed it.

The post is a minimal reproduction written for this test, never a copy of a real post.
"""

from __future__ import annotations

import pytest
from support.blog import build_into, build_site, make_site, page

EXPORT = """---
title: 'Energies, exported'
published: 2013-06-25T10:00:00Z
categories: math
---

Given a state, $latex \\displaystyle H | n \\rangle = E\\_n | n \\rangle \\ \\ (1)&fg=000000$

Define $latex {Q\\_n^{\\dagger}}&fg=000000$ and its conjugate $latex z^\\*$.

[caption id="attachment\\_7" width="300"]<img src="https://e.org/cat.jpg" alt="" width="300" />
A cat knows $latex e^{T}$.[/caption]

<p>In HTML: $latex S &amp;fg=000000$ and a price of $5.</p>
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_site(tmp_path_factory.mktemp("wp") / "site", {"2013-06-25-energies.md": EXPORT})
    result = build_site(root)
    return build_into(root), result


def test_export_builds_dated_by_published_without_warnings(site):
    out, result = site
    assert [str(w) for w in result.warnings] == []
    doc = page(out, "posts/energies/index.html")
    assert doc.xpath("//time/@datetime")[0].startswith("2013-06-25")


def test_shortcodes_are_formulas_as_wordpress_set_them(site):
    out, _ = site
    doc = page(out, "posts/energies/index.html")
    body = doc.xpath('//div[@class="post-body"]')[0]
    tex = [a.text for a in body.xpath('.//*[local-name()="annotation"]')]
    assert tex == [
        "\\displaystyle H | n \\rangle = E_n | n \\rangle \\ \\ (1)",
        "{Q_n^{\\dagger}}",
        "z^*",
        "e^{T}",
        "S",
    ]
    assert all(m.get("display") == "inline" for m in body.xpath('.//*[local-name()="math"]'))
    text = body.text_content()
    assert "latex" not in text and "fg=" not in text and "[caption" not in text
    assert "a price of $5." in text


def test_caption_is_a_figure_with_its_caption(site):
    out, _ = site
    doc = page(out, "posts/energies/index.html")
    figure = doc.xpath("//figure")[0]
    assert figure.xpath(".//img/@src") == ["https://e.org/cat.jpg"]
    assert figure.xpath(".//img/@width") == ["300"]
    assert figure.xpath(".//figcaption")[0].text_content().startswith("A cat knows")
