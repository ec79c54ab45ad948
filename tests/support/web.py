"""Serve built sites over loopback HTTP and check pages with the Nu Html Checker and axe-core.

The validators come from `tools/` (`npm ci --prefix tools`, run by `.ci/run`); Chromium is
Debian's package. When a tool is missing, tests skip on a developer's machine and fail in CI
(environment variable `CI` set), so a green CI run never hides an unchecked page.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import unquote, urlsplit

import pytest

from postil import mathfont

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/lib/chromium/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
VNU_JAR = REPO_ROOT / "tools/node_modules/vnu-jar/build/dist/vnu.jar"
AXE_JS = REPO_ROOT / "tools/node_modules/axe-core/axe.min.js"
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
TOOLS_HINT = "install the validators with `npm ci --prefix tools` (see .ci/run)"


def unavailable(reason: str) -> NoReturn:
    """Skip the current test because a tool is missing, or fail it when running in CI.

    CI is recognised by a non-empty `CI` environment variable (`.ci/run` runs with CI=true);
    there a missing tool is a broken install, not a reason to skip.
    """
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this fails instead of skipping)", pytrace=False)
    pytest.skip(reason)


class _BasePathHandler(SimpleHTTPRequestHandler):
    """Serve a directory under a URL prefix, as GitHub Pages serves a project site."""

    base_path = "/"
    # How long a connection may wait for its request. Chromium opens connections ahead of
    # its requests (preconnect); on a loaded machine a request came more than 5 s later and
    # met a closed socket (net::ERR_CONNECTION_RESET, a browser test failing on a page
    # error). `_Server.server_close` shuts idle connections down, so this never delays a
    # test's end.
    timeout = 60

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet: requests are not logged."""

    def send_head(self) -> Any:
        """Answer 404 outside the base path and for any `..` segment, else serve the file."""
        url_path = urlsplit(self.path).path
        if url_path == self.base_path.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.base_path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        segments = unquote(url_path).replace("\\", "/").split("/")
        if not url_path.startswith(self.base_path) or ".." in segments:
            self.send_error(404, "outside the served site")
            return None
        return super().send_head()

    def translate_path(self, path: str) -> str:
        """Map a URL under the base path to a file in the served directory."""
        return super().translate_path("/" + path[len(self.base_path) :])

    def list_directory(self, path: Any) -> None:
        """Answer 404 for a directory without index.html, as GitHub Pages does."""
        self.send_error(404, "no index.html in this directory")
        return None


class _Server(ThreadingHTTPServer):
    """A threading HTTP server whose `server_close` ends every connection still open.

    Non-daemon request threads are joined by `server_close`, so none outlive the server;
    a connection waiting for its request (`_BasePathHandler.timeout`) is shut down first,
    so joining its thread does not wait for that timeout.
    """

    daemon_threads = False
    block_on_close = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet about a connection the browser or `server_close` cut mid-answer."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        with self._open_lock:
            still_open = list(self._open)
        for connection in still_open:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        super().server_close()


@contextmanager
def serve_dir(directory: Path, base_path: str = "/") -> Iterator[str]:
    """Serve `directory` over HTTP on 127.0.0.1 and yield its base URL.

    `base_path` is the URL prefix the site lives under ("/" or e.g. "/blog/"; a trailing slash
    is added if missing). Requests outside it, and any path with a `..` segment, get 404; the
    bare prefix without its slash redirects to it. Yields e.g. "http://127.0.0.1:41234/blog/".
    The server and every request thread are stopped and joined on exit.
    Raises NotADirectoryError if `directory` is not a directory.
    """
    if not Path(directory).is_dir():
        raise NotADirectoryError(f"serve_dir: {directory} is not a directory")
    prefix = "/" + base_path.strip("/") + "/" if base_path.strip("/") else "/"
    handler = type("Handler", (_BasePathHandler,), {"base_path": prefix})
    server = _Server(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    # A short poll interval lets shutdown() return in ~50 ms instead of the default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name=f"serve_dir {prefix}")
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def run_vnu(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Check HTML files with the Nu Html Checker in one Java call; return its error messages.

    Each message is vnu's JSON message dict (keys "type" == "error", "url", "lastLine",
    "firstColumn", "message", "extract", ...), see
    https://github.com/validator/validator/wiki/Output-%C2%BB-JSON. Files that are not HTML
    are skipped (`--skip-non-html`); warnings ("info") are dropped. Skips (fails in CI) if
    `java` or the jar is missing. Raises ValueError for an empty `paths` and RuntimeError if
    vnu could not read a file or did not answer in JSON.
    """
    if not paths:
        raise ValueError("run_vnu needs at least one file to check")
    java = shutil.which("java")
    if java is None:
        unavailable("the Nu Html Checker needs `java` (Debian: default-jre-headless)")
    if not VNU_JAR.is_file():
        unavailable(f"{VNU_JAR.relative_to(REPO_ROOT)} is missing; {TOOLS_HINT}")
    command = [java, "-jar", str(VNU_JAR), "--format", "json", "--skip-non-html"]
    done = subprocess.run([*command, *map(str, paths)], capture_output=True, text=True, timeout=300)
    try:
        messages = json.loads(done.stderr)["messages"]
    except (json.JSONDecodeError, KeyError) as e:
        raise RuntimeError(f"vnu exited {done.returncode} without JSON: {done.stderr}") from e
    broken = [m for m in messages if m.get("type") == "non-document-error"]
    if broken:
        raise RuntimeError(f"vnu could not check some files: {broken}")
    return [m for m in messages if m.get("type") == "error"]


def run_axe(page: Any, tags: tuple[str, ...] = AXE_TAGS) -> list[dict[str, Any]]:
    """Run axe-core's WCAG 2.0/2.1 A and AA rules (or the rules of `tags`: add
    "best-practice" for axe's other rules) on a Playwright page; return the violations.

    `page` is a loaded `playwright.sync_api.Page`. Each violation is axe's result dict (keys
    "id", "impact", "help", "nodes", ...), see
    https://github.com/dequelabs/axe-core/blob/develop/doc/API.md#results-object.
    Skips (fails in CI) if axe-core is not installed under tools/.
    """
    if not AXE_JS.is_file():
        unavailable(f"{AXE_JS.relative_to(REPO_ROOT)} is missing; {TOOLS_HINT}")
    page.add_script_tag(path=str(AXE_JS))
    script = """async (tags) => {
        const results = await axe.run(document, {runOnly: {type: "tag", values: tags}});
        return results.violations;
    }"""
    return list(page.evaluate(script, list(tags)))


def copy_math_css(repo_root: Path, directory: Path, html: str) -> None:
    """Put math.css in `directory` and, where it looks for it, the math font subset to the
    page's formulas, as a build would."""
    shutil.copy(repo_root / "static" / "css" / "math.css", directory / "math.css")
    font = directory / mathfont.FONT_REL  # math.css says ../fonts/…, which is /fonts/ here
    font.parent.mkdir(exist_ok=True)
    font.write_bytes(mathfont.subset_woff2(mathfont.subset_chars(mathfont.formula_chars(html))))


def write_formula_page(
    directory: Path, repo_root: Path, formulas: dict[str, tuple[str, bool]], style: str
) -> None:
    """Write `directory/index.html` with one `<p id=key>` per formula (`formulas`: key ->
    (TeX, display)) converted by postil, the body styled `style`, with math.css and the
    math font beside it (`copy_math_css`)."""
    from postil.math import latex_to_mathml

    cells = "".join(
        f'<p id="{key}">{latex_to_mathml(tex, display=display)}</p>'
        for key, (tex, display) in formulas.items()
    )
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>formulas</title>'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="math.css"></head>'
        f'<body style="{style}">{cells}</body></html>'
    )
    (directory / "index.html").write_text(html, encoding="utf-8")
    copy_math_css(repo_root, directory, html)


def open_formula_page(page: Any, url: str) -> Any:
    """Open a `write_formula_page` page at 900 px once its fonts are ready; return `page`."""
    page.set_viewport_size({"width": 900, "height": 900})
    page.goto(url)
    page.evaluate("document.fonts.ready")
    return page


def em_boxes(page: Any, selector: str, font_px: int) -> list[dict[str, Any]]:
    """Return the box (top, height, left, right, in em of a `font_px` font) and the text of
    every element matching `selector`."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        selector,
        f"els => els.map(e => {{ const r = e.getBoundingClientRect(); return {{"
        f" top: r.top / {font_px}, height: r.height / {font_px}, left: r.left / {font_px},"
        f" right: r.right / {font_px}, text: e.textContent }}; }})",
    )


INK = 160  # a pixel darker than this (0-255 grey) is ink


def ink(page: Any, clip: dict[str, float]) -> dict[str, float] | None:
    """Return the ink box {left, top, right, bottom} of a screenshot of `clip` (page px):
    pixels darker than `INK`. The PNG is decoded by the page's canvas, so no image library
    is needed; None when the region holds no ink."""
    shot = page.screenshot(clip=clip)
    found = page.evaluate(
        """async ([data, threshold]) => {
            const img = new Image();
            img.src = 'data:image/png;base64,' + data;
            await img.decode();
            const c = document.createElement('canvas');
            c.width = img.width; c.height = img.height;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            const px = g.getImageData(0, 0, c.width, c.height).data;
            let box = null;
            for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
                const i = 4 * (y * c.width + x);
                if ((px[i] + px[i + 1] + px[i + 2]) / 3 < threshold) {
                    box = box || {left: x, top: y, right: x, bottom: y};
                    box.left = Math.min(box.left, x); box.right = Math.max(box.right, x + 1);
                    box.top = Math.min(box.top, y); box.bottom = Math.max(box.bottom, y + 1);
                }
            }
            return box;
        }""",
        [base64.b64encode(shot).decode(), INK],
    )
    if found is None:
        return None
    return {
        "left": clip["x"] + found["left"],
        "right": clip["x"] + found["right"],
        "top": clip["y"] + found["top"],
        "bottom": clip["y"] + found["bottom"],
    }


ARTICLE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="css/base.css"><link rel="stylesheet" href="css/article.css">
</head><body><main id="main"><article class="post"><div class="post-body">
{body}
</div></article></main></body></html>
"""


def write_article_page(root: Path, title: str, body: str) -> Path:
    """Write `root/index.html`: `body` (a post body's HTML) in the theme's article markup,
    with base.css and article.css beside it; return `root`."""
    (root / "css").mkdir(exist_ok=True)
    for name in ("base.css", "article.css"):
        shutil.copy(REPO_ROOT / "static" / "css" / name, root / "css" / name)
    page = ARTICLE_PAGE.format(title=title, body=body)
    (root / "index.html").write_text(page, encoding="utf-8")
    return root


def edge_strip(page: Any, selector: str, index: int, side: str) -> bytes:
    """Return a screenshot of a 3 px strip inside the `index`-th element `selector` finds,
    at its "left" or "right" edge or its "middle" (where a scroll shadow shows, or not)."""
    r = page.eval_on_selector_all(selector, f"es => es[{index}].getBoundingClientRect().toJSON()")
    x = {"left": r["left"] + 1, "right": r["right"] - 4, "middle": (r["left"] + r["right"]) / 2}
    clip = {"x": x[side], "y": r["top"] + 2, "width": 3, "height": r["height"] - 4}
    return bytes(page.screenshot(clip=clip))
