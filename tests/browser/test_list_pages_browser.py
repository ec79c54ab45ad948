"""The post lists in Chromium: the archive is a list of dated titles without numbers (a
number counted nothing: "1. 4 Dec …"), each title in a column beside its date, and a draft
shown by `postil serve` or `--drafts` says so in every list, in both colour schemes, on a
phone and a desktop."""

from __future__ import annotations

import pytest

POSTS = {
    "a.md": "---\ntitle: Published post\ndate: 2026-01-01\ntags: [t]\n---\n\nText.\n",
    "b.md": "---\ntitle: Unfinished post whose title is long enough to wrap on a phone\n"
    "date: 2026-01-02\ndraft: true\ntags: [t]\n---\n\nText.\n",
}

UNFINISHED = "Unfinished post whose title is long enough to wrap on a phone"

MEASURE = """() => {
  const items = Array.from(document.querySelectorAll("main li"));
  return {
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    items: items.map((li) => {
      const marker = li.querySelector(".draft-marker");
      const box = marker && marker.getBoundingClientRect();
      const time = li.querySelector("time"), title = li.querySelector(".archive-title");
      return {text: li.querySelector("a").textContent.trim(),
              hanging: time && title ? title.getBoundingClientRect().left
                                       - time.getBoundingClientRect().right : null,
              bullet: getComputedStyle(li).listStyleType,
              marker: marker ? [marker.textContent, box.width > 0 && box.height > 0,
                                getComputedStyle(marker).color] : null};
    }),
  };
}"""


@pytest.fixture(scope="module")
def site_url(served_site) -> str:
    return served_site("lists", POSTS, drafts=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("rel", ["", "archive/", "tags/t/"])
def test_lists_mark_the_draft_and_number_nothing(page, site_url, rel, width, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(site_url + rel)
    found = page.evaluate(MEASURE)
    assert found["overflow"] == 0
    by_title = {item["text"]: item for item in found["items"]}
    assert by_title["Published post"]["marker"] is None
    text, visible, _ = by_title[UNFINISHED]["marker"]
    assert (text, visible) == ("Draft", True)
    assert {item["bullet"] for item in found["items"]} == {"none"}
    if rel == "archive/":  # each title in its own column beside its date, wrapped lines too
        assert all(item["hanging"] >= 0 for item in found["items"])
