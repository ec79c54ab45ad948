"""Fixtures for browser tests: Debian's Chromium driven by Playwright's sync API.

Every test under tests/browser/ is marked `browser` (deselect with `-m "not browser"`).
Without Chromium they skip on a developer's machine and fail in CI. The `page` fixture fails
a test whose page logged a console error or threw, unless the test is marked
`@pytest.mark.expect_page_errors`; the messages are in the `page_errors` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from support.web import CHROMIUM, CHROMIUM_ARGS, unavailable

BROWSER_TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    """Declare the marker that lets a test expect console or page errors."""
    config.addinivalue_line(
        "markers", "expect_page_errors: the page may log console errors or throw"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test collected from tests/browser/ with the `browser` marker."""
    for item in items:
        if BROWSER_TESTS in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Yield a headless Debian Chromium launched once per session through Playwright.

    Uses /usr/lib/chromium/chromium (never `playwright install`). Skips, or fails in CI, if
    the executable is missing or Playwright cannot start it.
    """
    if not CHROMIUM.is_file():
        unavailable(f"{CHROMIUM} is missing; install Debian's `chromium` package")
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError as e:
        unavailable(f"Playwright is not importable ({e}); pip install -e '.[test]'")
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
        )
    except Error as e:
        playwright.stop()
        unavailable(f"Playwright could not start {CHROMIUM}: {e.message}")
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture
def page_errors() -> list[str]:
    """Return the console errors and uncaught exceptions the test's `page` has seen so far."""
    return []


def _record_console_error(errors: list[str], message: Any) -> None:
    """Append a console error to `errors`, ignoring Chromium's implicit /favicon.ico request.

    A page with no `<link rel="icon">` makes Chromium fetch /favicon.ico at the server root,
    which is outside a site served under a base path; that 404 is the browser's, not the
    page's. A declared icon that 404s has another URL and is still recorded.
    """
    if message.type != "error":
        return
    if urlsplit(message.location.get("url", "")).path == "/favicon.ico":
        return
    errors.append(f"console: {message.text}")


@pytest.fixture
def page(browser: Any, page_errors: list[str], request: pytest.FixtureRequest) -> Iterator[Any]:
    """Yield a fresh page in its own browser context; fail the test if the page had errors.

    Console messages of type "error" are recorded as "console: <text>" (except the browser's
    own request for /favicon.ico, see `_record_console_error`) and uncaught exceptions as
    "pageerror: <message>" in `page_errors`. At teardown any recorded error
    fails the test unless it is marked `expect_page_errors`.
    """
    context = browser.new_context()
    new_page = context.new_page()
    new_page.on("console", partial(_record_console_error, page_errors))
    new_page.on("pageerror", lambda error: page_errors.append(f"pageerror: {error.message}"))
    yield new_page
    context.close()
    if page_errors and request.node.get_closest_marker("expect_page_errors") is None:
        pytest.fail("the page reported errors:\n" + "\n".join(page_errors), pytrace=False)


@pytest.fixture
def screenshot_dir(repo_root: Path) -> Path:
    """Return `test-artifacts/` under the repository root (git-ignored), creating it."""
    path = repo_root / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
