"""Site search in Chromium: from the header's box on a project site (base path /blog/), a word
that is only in a formula's TeX finds its post, and the result opens it; nothing is fetched
from another host."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from support.blog import build_into, make_site, post_text
from support.web import serve_dir

FORMULA = "$$\n\\operatorname{logsumexp}(x) = \\log \\sum_i e^{x_i}\n$$\n"


@pytest.fixture
def site(tmp_path):
    posts = {
        "stable.md": post_text("Stable sums", "2026-01-02", "Shift before you add.\n\n" + FORMULA),
        "other.md": post_text("Other things", "2026-01-03", "Nothing about sums here.\n"),
        "wip.md": post_text("Draft sums", "2026-01-04", FORMULA, draft=True),
    }
    return build_into(make_site(tmp_path, posts, config="search: true\n"), drafts=True)


def test_searching_a_word_of_a_formulas_tex_finds_and_opens_its_post(page, site):
    hosts = set()
    page.on("request", lambda request: hosts.add(urlsplit(request.url).hostname))
    with serve_dir(site, "/blog/") as local:
        page.goto(local + "posts/other/")
        box = page.locator("form.site-search input[name=q]")
        box.fill("logsumexp")
        box.press("Enter")
        page.wait_for_url("**/blog/search/?q=logsumexp")
        results = page.locator(".pagefind-ui__result-link")
        results.first.wait_for(timeout=15_000)
        assert results.all_inner_texts() == ["Stable sums"]  # the draft is not indexed
        assert results.first.get_attribute("href") == "/blog/posts/stable/"
        results.first.click()
        page.wait_for_url(local + "posts/stable/")
        page.wait_for_load_state("networkidle")  # before the server stops
    assert hosts == {"127.0.0.1"}
