"""`postil serve` in Chromium: edits show up by themselves, CSS swaps in place, errors overlay."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from postil.serve import DevServer, ServeOptions

LONG_BODY = "\n\n".join(
    f"Paragraph {i} of the long post, to have somewhere to scroll." for i in range(80)
)
POST = """---
title: Post {n}
date: 2025-01-0{n}
---

Opening words of post {n}.

{body}
"""


@pytest.fixture
def served(repo_root: Path, tmp_path: Path) -> Iterator[tuple[DevServer, Path]]:
    """Serve a three-post site (post 2 is long) with its own copy of base.css; stop it after."""
    site = tmp_path / "site"
    (site / "content/posts").mkdir(parents=True)
    (site / "postil.yaml").write_text("title: Live\nauthor: Ada\nbase_url: https://e.org/blog/\n")
    for n in (1, 2, 3):
        body = LONG_BODY if n == 2 else ""
        (site / f"content/posts/p{n}.md").write_text(POST.format(n=n, body=body))
    (site / "static/css").mkdir(parents=True)
    (site / "static/css/base.css").write_bytes((repo_root / "static/css/base.css").read_bytes())
    before = set(threading.enumerate())
    server = DevServer(ServeOptions(site, port=0))
    server.start()
    yield server, site
    server.stop()
    assert set(threading.enumerate()) - before == set()


def open_live(page: Any, url: str) -> None:
    """Open `url` and wait until its live-reload script has heard from the server."""
    page.goto(url)
    page.locator('script[data-postil-state="live"]').wait_for(state="attached", timeout=5000)


def replace_in(path: Path, old: str, new: str, atomic: bool = False) -> None:
    text = path.read_text().replace(old, new)
    if atomic:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    else:
        path.write_text(text)


# `served` comes before `page`: the page closes first, so its event stream never sees the
# server go away (which Chromium would log as a console error).
def test_a_saved_edit_appears_without_a_manual_reload(served, page) -> None:
    server, site = served
    open_live(page, server.url + "posts/p2/")
    post = site / "content/posts/p2.md"
    started = time.monotonic()
    replace_in(post, "Opening words of post 2.", "Words written in the editor.")
    page.locator("main", has_text="Words written in the editor.").wait_for(timeout=10_000)
    assert time.monotonic() - started < 2


@pytest.mark.slow
def test_an_atomic_rename_save_appears_and_keeps_the_scroll_position(served, page) -> None:
    server, site = served
    open_live(page, server.url + "posts/p2/")
    page.evaluate("window.scrollTo(0, 1500)")
    page.wait_for_function("window.scrollY >= 1400")
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    replace_in(site / "content/posts/p2.md", "Paragraph 3 of", "Renamed-in paragraph 3 of", True)
    page.locator("main", has_text="Renamed-in paragraph 3").wait_for(timeout=10_000)
    assert_no_more_reloads(server, page)
    assert loads == [server.url + "posts/p2/"]  # one reload, not two
    assert abs(page.evaluate("window.scrollY") - 1500) < 100


def assert_no_more_reloads(server: DevServer, page: Any) -> None:
    """Wait until the page's script has heard from the server and every build is over, then
    check that the page is not reloaded again (a second reload would drop the mark)."""
    page.locator('script[data-postil-state="live"]').wait_for(state="attached", timeout=5000)
    page.wait_for_load_state("load")
    deadline = time.monotonic() + 10
    while server.batcher.busy and time.monotonic() < deadline:
        time.sleep(0.01)
    page.evaluate("window.postilStay = true")
    time.sleep(0.3)  # room for a late event's reload to start
    page.wait_for_load_state("load")
    assert page.evaluate("window.postilStay === true")


@pytest.mark.slow
def test_a_page_reloaded_before_its_build_ends_is_reloaded_once(served, page) -> None:
    """The race behind the second reload, made certain: the rest of a rename save's build
    (its neighbours' and lists' pages, the feeds) ends only once the page, reloaded by the
    first event, was answered from that build's first pages, so its script connects after
    the build's last event; the hello then tells of a later build than the page's, which
    named the feeds the page links to and pages it does not show, and must not reload
    it again."""
    server, site = served
    gate = threading.Event()
    publish_first = server.builder.on_first
    assert publish_first is not None

    def held(pages: Any) -> None:
        publish_first(pages)
        gate.wait(10)  # the rest of the build waits until the page has loaded

    fetched: list[str] = []

    def answer(route: Any) -> None:
        fetched.append(route.request.url)
        if gate.is_set():
            route.continue_()
            return
        route.fulfill(response=route.fetch())  # from the first pages: the build is held
        gate.set()  # its stylesheets wait for the build's end, and so does its script

    open_live(page, server.url + "posts/p1/")
    server.builder.on_first = held
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.route("**/posts/p1/", answer)
    try:
        replace_in(site / "content/posts/p1.md", "Opening words", "Words held back", True)
        page.locator("main", has_text="Words held back").wait_for(timeout=10_000)
        assert_no_more_reloads(server, page)
    finally:
        gate.set()
    assert loads == [server.url + "posts/p1/"] and fetched == loads


def test_a_css_edit_restyles_the_page_without_a_navigation(served, page) -> None:
    server, site = served
    open_live(page, server.url + "posts/p1/")
    page.evaluate("window.survivesSwap = 'still here'")
    css = site / "static/css/base.css"
    css.write_text(css.read_text() + "\nmain p { color: rgb(1, 2, 3) !important; }\n")
    page.wait_for_function(
        "getComputedStyle(document.querySelector('main p')).color === 'rgb(1, 2, 3)'",
        timeout=10_000,
    )
    assert page.evaluate("window.survivesSwap") == "still here"


@pytest.mark.slow
def test_a_broken_post_shows_an_overlay_that_a_fix_clears(served, page) -> None:
    server, site = served
    open_live(page, server.url + "posts/p1/")
    post = site / "content/posts/p1.md"
    replace_in(post, "date: 2025-01-01", "date: whenever")
    overlay = page.locator("#postil-serve-overlay section")
    overlay.wait_for(timeout=10_000)
    assert "content/posts/p1.md:3:7" in overlay.inner_text()
    # the source line and a caret under column 7, as the terminal prints them
    assert "\n    date: whenever\n          ^" in overlay.inner_text()
    replace_in(post, "date: whenever", "date: 2025-01-01")
    overlay.wait_for(state="detached", timeout=10_000)


@pytest.mark.slow
def test_more_tabs_than_the_connection_limit_all_load_and_reload(served, page) -> None:
    server, site = served
    tabs = [page] + [page.context.new_page() for _ in range(7)]
    for n, tab in enumerate(tabs):  # with one event stream per tab, the 7th would hang
        open_live(tab, server.url + f"posts/p{n % 3 + 1}/")
    replace_in(site / "content/posts/p1.md", "Opening words of post 1.", "Seen in every tab.")
    for tab in tabs[::3]:
        tab.locator("main", has_text="Seen in every tab.").wait_for(timeout=10_000)
