"""The "Cite this post" copy buttons in Chromium, on a project site served under its base path."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.blog import BASE, build_into, make_site, post_text
from support.web import run_axe, serve_dir


@pytest.fixture
def chromium_page(browser):
    """Yield (page, errors): a page allowed to use the clipboard, and its console errors."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(f"{m.location.get('url')}: {m.text}") if m.type == "error" else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, errors
    context.close()


@pytest.fixture
def site(tmp_path) -> Path:
    posts = {
        "c.md": post_text(
            "Copy me", "2026-01-01", tags=["t"], authors=["Ada Lovelace", "Alan Turing"]
        )
    }
    return build_into(make_site(tmp_path, posts))


@pytest.mark.parametrize(
    "target, expected_start",
    [("bibtex-entry", "@misc{lovelace2026copy,"), ("apa-entry", "Lovelace, A., & Turing, A.")],
)
def test_copy_buttons_copy_the_citation_with_the_base_path_url(
    chromium_page, site, target, expected_start
):
    page, errors = chromium_page
    with serve_dir(site, "/blog/") as local:
        page.goto(local + "posts/c/")
        button = page.locator(f"button[data-copy-target={target}]")
        button.click()
        page.wait_for_function("b => b.textContent === 'Copied'", arg=button.element_handle())
        copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(expected_start)
    assert f"{BASE}posts/c/" in copied
    assert errors == []


@pytest.mark.slow
def test_list_pages_and_404_have_no_axe_violations(chromium_page, site):
    page, errors = chromium_page
    with serve_dir(site, "/blog/") as local:
        for rel in ["", "archive/", "tags/", "tags/t/", "404.html"]:
            page.goto(local + rel)
            assert run_axe(page) == [], rel
    assert errors == []


@pytest.mark.slow
def test_404_page_served_at_a_deep_missing_url_loads_its_styles_and_scripts(chromium_page, site):
    """GitHub Pages answers any missing URL with 404.html; its assets must still load."""
    page, errors = chromium_page
    body = (site / "404.html").read_bytes()
    with serve_dir(site, "/blog/") as local:
        deep = local + "posts/gone/and/deeper/"
        page.route(
            deep, lambda route: route.fulfill(status=404, body=body, content_type="text/html")
        )
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on(
            "response",
            lambda r: failed.append(r.url) if r.status >= 400 and r.url != deep else None,
        )
        page.goto(deep)
        page.wait_for_load_state("networkidle")
        sheets = page.evaluate("[...document.styleSheets].filter(s => s.cssRules.length).length")
        home = page.locator("a.site-title").get_attribute("href")
    # The page's own 404 status is logged by Chromium; nothing else may fail.
    assert failed == [] and [e for e in errors if not e.startswith(deep)] == []
    assert sheets >= 4
    assert home == "/blog/"
