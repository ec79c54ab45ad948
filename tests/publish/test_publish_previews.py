"""Previews (drafts, future posts) and the theme's navigation: a draft says so on its page,
and neither drafts nor future posts ever reach the feeds or the sitemap."""

from __future__ import annotations

import feedparser
import pytest
from support.blog import BASE, build_into, make_site, page, post_text

from postil.cli import _parser

POSTS = {
    "out.md": post_text("Out now", "2026-05-01"),
    "draft.md": post_text("Half done", "2026-05-02", draft=True),
    "later.md": post_text("Not yet", "2026-07-01"),
}


@pytest.fixture
def preview(tmp_path):
    """A site built with --drafts --future, as `postil serve --future` shows it."""
    return build_into(make_site(tmp_path, POSTS), drafts=True, future=True)


def test_a_preview_shows_drafts_and_future_posts_on_the_index(preview):
    titles = page(preview, "index.html").xpath("//main//a/text()")
    assert {"Out now", "Half done", "Not yet"} <= {t.strip() for t in titles}


def test_drafts_and_future_posts_are_never_in_the_feeds(preview):
    for feed in ("feed.xml", "rss.xml"):
        parsed = feedparser.parse((preview / feed).read_bytes())
        assert [e.title for e in parsed.entries] == ["Out now"]


def test_drafts_and_future_posts_are_never_in_the_sitemap(preview):
    sitemap = (preview / "sitemap.xml").read_text()
    assert f"<loc>{BASE}posts/out/</loc>" in sitemap
    assert "posts/draft/" not in sitemap and "posts/later/" not in sitemap


def test_a_draft_page_carries_a_visible_draft_marker_and_noindex(preview):
    draft = page(preview, "posts/draft/index.html")
    assert [m.text_content() for m in draft.xpath("//*[@class='draft-marker']")] == ["Draft"]
    assert draft.xpath("//meta[@name='robots']/@content") == ["noindex"]
    out = page(preview, "posts/out/index.html")
    assert not out.xpath("//*[@class='draft-marker']") and not out.xpath("//meta[@name='robots']")


@pytest.mark.parametrize("rel", ["index.html", "archive/index.html", "tags/t/index.html"])
def test_a_draft_is_marked_in_every_list_of_posts_and_only_the_draft(tmp_path, rel):
    # serve (and --drafts) listed a draft like any post: nothing said it was unpublished
    posts = {
        "out.md": post_text("Out now", "2026-05-01", tags=["t"]),
        "draft.md": post_text("Half done", "2026-05-02", draft=True, tags=["t"]),
    }
    listing = page(build_into(make_site(tmp_path, posts), drafts=True), rel)
    items = listing.xpath("//main//li[.//a[contains(@href, '/posts/')]]")
    marked = {
        " ".join(item.xpath(".//a/text()")).strip(): bool(item.xpath(".//*[@class='draft-marker']"))
        for item in items
    }
    assert marked == {"Out now": False, "Half done": True}


def test_a_draft_page_of_content_is_marked_and_left_out_of_the_sitemap(tmp_path):
    pages = {"wip.md": post_text("Work in progress", None, draft=True)}
    out = build_into(make_site(tmp_path, POSTS, pages=pages), drafts=True)
    assert page(out, "wip/index.html").xpath("//*[@class='draft-marker']")
    assert "wip/" not in (out / "sitemap.xml").read_text()


def test_the_default_navigation_links_posts_archive_tags_and_the_feed(tmp_path):
    out = build_into(make_site(tmp_path, POSTS))
    links = page(out, "posts/out/index.html").xpath("//nav[@class='site-nav']//a")
    assert [(a.text, a.get("href")) for a in links] == [
        ("Posts", "/blog/"),
        ("Archive", "/blog/archive/"),
        ("Tags", "/blog/tags/"),
        ("Feed", "/blog/feed.xml"),
    ]


def test_an_empty_nav_list_shows_no_links(tmp_path):
    out = build_into(make_site(tmp_path, POSTS, config="nav: []\n"))
    assert page(out, "index.html").xpath("//nav[@class='site-nav']//a") == []


def test_serve_takes_future():
    assert _parser().parse_args(["serve", "--future"]).future is True
