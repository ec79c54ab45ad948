"""The site's header and search box as a new site has them (`postil init`'s nav of five links,
a title of a few words, `search: true`): the header on one line from 1100 px, where the
margin column begins, and every search box named for screen readers (session 43: the
search box wrapped under the title at 1100 and 1440 px, and Pagefind's box on the search
page was named only by its `title`)."""

from __future__ import annotations

import pytest
from support.blog import build_into, make_site, post_text
from support.web import AXE_TAGS, run_axe, serve_dir

NAV = """nav:
  - {label: Posts, url: /}
  - {label: Archive, url: /archive/}
  - {label: Tags, url: /tags/}
  - {label: About, url: /about/}
  - {label: Feed, url: /feed.xml}
search: true
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = make_site(
        tmp_path_factory.mktemp("header") / "site",
        {"a.md": post_text("Softmax, slowly", "2026-01-02", "The softmax of scores.\n")},
        config=NAV,
        pages={"about.md": "---\ntitle: About\n---\nAbout.\n"},
    )
    text = (root / "postil.yaml").read_text(encoding="utf-8")
    (root / "postil.yaml").write_text(
        text.replace("title: Test site", "title: Ada Lovelace's notebook"), encoding="utf-8"
    )
    return build_into(root)


HEADER_ROWS = """() => {
  const shown = [...document.querySelector('.site-header').children]
    .filter(e => !e.hidden && getComputedStyle(e).display !== 'none')
    .map(e => e.getBoundingClientRect());
  return [shown.length, Math.max(...shown.map(b => b.top)), Math.min(...shown.map(b => b.bottom))];
}"""


@pytest.mark.parametrize("width", [1100, 1440])
def test_the_header_fits_on_one_line_from_the_margin_columns_width(page, site, width):
    page.set_viewport_size({"width": width, "height": 900})
    with serve_dir(site, "/blog/") as local:
        page.goto(local + "posts/a/", wait_until="networkidle")
        count, lowest_top, highest_bottom = page.evaluate(HEADER_ROWS)
        texts = page.locator(".site-nav a").all_inner_texts()
    assert count >= 3 and texts == ["Posts", "Archive", "Tags", "About", "Feed"]
    assert lowest_top < highest_bottom  # every item overlaps every other's line


def test_on_a_phone_the_header_still_wraps_rather_than_overflow(page, site):
    page.set_viewport_size({"width": 360, "height": 800})
    with serve_dir(site, "/blog/") as local:
        page.goto(local + "posts/a/", wait_until="networkidle")
        count, lowest_top, highest_bottom = page.evaluate(HEADER_ROWS)
        overflow = page.evaluate("document.documentElement.scrollWidth")
    assert lowest_top >= highest_bottom  # on several lines
    assert overflow <= 360


def test_every_search_box_is_named_and_axe_finds_the_search_page_clean(page, site):
    with serve_dir(site, "/blog/") as local:
        page.goto(local + "posts/a/", wait_until="networkidle")
        assert page.get_by_role("searchbox", name="Search this site").count() == 1
        page.goto(local + "search/?q=softmax", wait_until="networkidle")
        page.locator(".pagefind-ui__result-link").first.wait_for(timeout=15_000)
        box = page.locator("input.pagefind-ui__search-input")
        assert box.get_attribute("aria-labelledby") == "search-title"
        assert page.get_by_role("textbox", name="Search", exact=True).count() == 1
        assert run_axe(page, (*AXE_TAGS, "best-practice")) == []
