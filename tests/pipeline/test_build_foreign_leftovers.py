"""End to end: kinds found by trying real posts, where two stages meet.

Each post is a minimal reproduction written for this test, never a copy of a real post.
"""

from __future__ import annotations

from support.blog import build_into, build_site, make_site, page


def test_a_link_to_the_id_of_the_heading_that_titles_a_page_lands_on_the_title(tmp_path):
    text = "---\ndate: 2024-01-01\n---\n# Notes on $x$ {#top}\n\nText. [Back up](#top).\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(w) for w in build_site(root).warnings] == []
    out = build_into(root)
    [title] = page(out, "posts/p/index.html").xpath('//h1[@class="post-title"]')
    assert title.get("id") == "top"
    assert title.xpath(".//math")


def test_a_link_to_an_id_no_title_has_still_warns(tmp_path):
    text = "---\ndate: 2024-01-01\n---\n# Notes\n\nText. [Back up](#top).\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    [warning] = [str(w) for w in build_site(root).warnings]
    assert "link to `#top`: this page has no such anchor" in warning
    [title] = page(build_into(root), "posts/p/index.html").xpath('//h1[@class="post-title"]')
    assert title.get("id") is None
