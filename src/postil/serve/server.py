"""The dev server's HTTP side: the site from memory, live-reload events, the error overlay.

A standard-library `ThreadingHTTPServer` answers from the in-memory site (`SiteHub`), so no
request ever reads the disk: a URL can only name a file the build produced, and `..`,
`%2e%2e` or a symlink cannot reach anything else. Only GET and HEAD are allowed. HTML
responses get one `<script>` (`livereload.js`) before `</body>`; the built site never does.
"""

from __future__ import annotations

import mimetypes
import socket
import sys
import threading
from dataclasses import dataclass
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from postil.errors import Diagnostic, PostilError
from postil.serve.hub import SiteHub, SiteView

DEV_PREFIX = "/__postil/"
EVENTS_PATH = DEV_PREFIX + "events"
SCRIPT_PATH = DEV_PREFIX + "livereload.js"
WORKER_PATH = DEV_PREFIX + "worker.js"
SCRIPTS = {
    SCRIPT_PATH: Path(__file__).with_name("livereload.js").read_bytes(),
    WORKER_PATH: Path(__file__).with_name("worker.js").read_bytes(),
}
HEARTBEAT_SECONDS = 15.0
RETRY_MS = 300


@dataclass(frozen=True)
class Resolved:
    """Where a request path leads.

    Attributes:
        status: 200 (serve `rel`), 301/302 (redirect to `location`) or 404.
        rel: the output file to serve (for 200), or the file that was looked for (404).
        location: the redirect target, for 301/302.
    """

    status: int
    rel: str = ""
    location: str = ""


def resolve(url_path: str, base_path: str, files: Any) -> Resolved:
    """Map a request's URL path to a file of the site served under `base_path`.

    Follows GitHub Pages: `dir/` serves `dir/index.html`, `dir` redirects to `dir/` when that
    exists, and the bare base path redirects to itself with a slash (`/` redirects to the
    base path). A path outside the base path, or with a `.`/`..` segment (also encoded as
    `%2e%2e`), a backslash or a NUL is 404.
    """
    if url_path == base_path.rstrip("/") or (url_path == "/" and base_path != "/"):
        return Resolved(302 if url_path == "/" else 301, location=base_path)
    if not url_path.startswith(base_path):
        return Resolved(404)
    rel = unquote(url_path[len(base_path) :], errors="strict") if url_path else ""
    segments = rel.split("/")
    if any(s in (".", "..") for s in segments) or "\\" in rel or "\0" in rel:
        return Resolved(404)
    if rel == "" or rel.endswith("/"):
        rel += "index.html"
    if rel in files:
        return Resolved(200, rel)
    if f"{rel}/index.html" in files:
        return Resolved(301, location=url_path + "/")
    return Resolved(404, rel)


def _ready(url_path: str, view: SiteView) -> bool:
    """Return whether `view` (of a build still rendering) has the new bytes of the file
    `url_path` names (`SiteView.ready`). Called under the hub's lock, so it looks at the
    path alone, never at the files (a deferred file takes the builder's lock to be made)."""
    base = view.base_path
    if view.ready is None or not url_path.startswith(base):
        return False
    try:
        rel = unquote(url_path[len(base) :], errors="strict")
    except UnicodeDecodeError:
        return False
    return (rel + "index.html" if rel == "" or rel.endswith("/") else rel) in view.ready


def inject(html: bytes, hub: SiteHub, view: SiteView, rels: list[str]) -> bytes:
    """Return `html` with the live-reload `<script>` before its last `</body>` (or at the end).

    The script learns the page's build number, the server session, the base path and the
    output files the page shows (`rels`), so it reloads exactly when one of them changes.
    """
    tag = (
        f'<script src="{SCRIPT_PATH}" defer data-postil-session="{hub.session}"'
        f' data-postil-build="{view.build}" data-postil-base="{escape(view.base_path)}"'
        f' data-postil-rels="{escape(" ".join(rels))}"></script>\n'
    ).encode()
    at = html.rfind(b"</body>")
    return html + tag if at < 0 else html[:at] + tag + html[at:]


def error_page(errors: tuple[Diagnostic, ...]) -> bytes:
    """Return the page served while no build has succeeded yet: every error, as text."""
    items = "".join(
        f"<li><pre>{escape(str(d.location))}: {escape(d.message)}"
        + (f"\n{escape(d.excerpt())}" if d.source_line else "")
        + "</pre></li>"
        for d in errors
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Build failed · postil serve</title></head>\n<body><main>"
        f"<h1>The site does not build yet</h1><ul>{items}</ul></main>\n</body></html>\n"
    ).encode()


class DevHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server that knows its hub and can close every open connection.

    Request threads are not daemons and `server_close()` joins them, so stopping the server
    leaves no thread behind; `close_connections()` first ends idle keep-alive connections
    and event streams so that join is quick.
    """

    daemon_threads = False
    block_on_close = True
    request_queue_size = socket.SOMAXCONN
    """The listen backlog: socketserver's default of 5 made a browser's first burst of
    requests (a page, its styles, scripts and fonts, 200 at once in a test) time out."""

    def __init__(self, address: tuple[str, int], hub: SiteHub) -> None:
        self.hub = hub
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        super().__init__(address, DevRequestHandler)

    def track(self, conn: socket.socket, open_: bool) -> None:
        """Remember (or forget) an open connection."""
        with self._lock:
            (self._connections.add if open_ else self._connections.discard)(conn)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Say nothing when a browser went away mid-answer (a reload, a closed tab, a click
        on before the page finished: `ConnectionError`, as `BrokenPipeError`); print any
        other error of a request with its traceback, as socketserver does (a bug)."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    def close_connections(self) -> None:
        """Shut down every open connection so blocked reads and writes return."""
        with self._lock:
            for conn in self._connections:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


class DevRequestHandler(BaseHTTPRequestHandler):
    """Answer GET and HEAD from the in-memory site; 405 for every other method."""

    server: DevHTTPServer
    protocol_version = "HTTP/1.1"
    server_version = "postil-serve"
    timeout = 60  # an idle keep-alive connection is dropped after this many seconds
    # Headers and body leave in two writes; with Nagle's algorithm the body waits for the
    # client's delayed ACK of the headers (~40 ms on a quarter of requests). TCP_NODELAY
    # (socketserver's StreamRequestHandler sets it in `setup`) sends both at once.
    disable_nagle_algorithm = True

    def setup(self) -> None:
        """Register the connection so the server can close it on shutdown."""
        super().setup()
        self.server.track(self.connection, True)

    def finish(self) -> None:
        """Forget the connection."""
        try:
            super().finish()
        finally:
            self.server.track(self.connection, False)

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: the terminal shows builds, not requests."""

    def do_GET(self) -> None:
        """Serve a site file, the live-reload script or the event stream."""
        self._answer(head=False)

    def do_HEAD(self) -> None:
        """Answer like GET without the body."""
        self._answer(head=True)

    def _not_allowed(self) -> None:
        self.close_connection = True
        self._send(
            405,
            b"405 Method Not Allowed: only GET and HEAD\n",
            "text/plain",
            head=False,
            extra={"Allow": "GET, HEAD"},
        )

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

    def _answer(self, head: bool) -> None:
        url_path = urlsplit(self.path).path
        if url_path == EVENTS_PATH and not head:
            self._stream_events()
            return
        if url_path in SCRIPTS:
            self._send(200, SCRIPTS[url_path], "text/javascript", head)
            return
        hub = self.server.hub
        view = hub.view(wants=lambda v: _ready(url_path, v))
        try:
            self._answer_from(view, url_path, head)
        finally:
            hub.done()  # a page of a build's hand-over has left: the build goes on

    def _answer_from(self, view: SiteView, url_path: str, head: bool) -> None:
        hub = self.server.hub
        try:
            where = resolve(url_path, view.base_path, view.files)
        except UnicodeDecodeError:
            where = Resolved(404)
        if where.status in (301, 302):
            self._send(where.status, b"", "text/plain", head, {"Location": where.location})
        elif not view.files:
            page = inject(error_page(view.errors), hub, view, [where.rel])
            self._send(500, page, "text/html", head)
        elif where.status == 200:
            self._send_file(view, where.rel, 200, [where.rel], head)
        elif "404.html" in view.files:
            self._send_file(view, "404.html", 404, [where.rel, "404.html"], head)
        else:
            self._send(404, b"404 Not Found\n", "text/plain", head)

    def _send_file(
        self, view: SiteView, rel: str, status: int, rels: list[str], head: bool
    ) -> None:
        try:
            data = view.files[rel]  # a deferred page renders now, and may fail
        except PostilError as e:
            self._send(500, f"{e}\n".encode(), "text/plain", head)
            return
        kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        if kind == "text/html":
            data = inject(data, self.server.hub, view, [r for r in rels if r])
        self._send(status, data, kind, head)

    def _send(
        self, status: int, body: bytes, kind: str, head: bool, extra: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        textual = kind.startswith("text/") or kind in ("application/json", "image/svg+xml")
        self.send_header("Content-Type", f"{kind}; charset=utf-8" if textual else kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)
        self.server.hub.answered.set()

    def _stream_events(self) -> None:
        """Send Server-Sent Events: a `hello` with the current state, then one per build."""
        hub = self.server.hub
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        seen, hello = hub.hello()
        try:
            self._write_event("hello", seen, hello, retry=True)
            while (events := hub.events_after(seen, HEARTBEAT_SECONDS)) is not None:
                if not events:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                for number, data in events:
                    self._write_event("build", number, data)
                    seen = max(seen, number)
                hub.done()  # its event has left: a build waiting after its hand-over goes on
        except OSError:  # the browser went away or the server is closing
            return
        finally:
            hub.done()

    def _write_event(self, name: str, number: int, data: str, retry: bool = False) -> None:
        head = f"retry: {RETRY_MS}\n" if retry else ""
        self.wfile.write(f"{head}id: {number}\nevent: {name}\ndata: {data}\n\n".encode())
        self.wfile.flush()
