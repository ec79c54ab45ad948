"""`postil serve` over real HTTP on 127.0.0.1: safe paths, live-reload events, the overlay."""

from __future__ import annotations

import http.client
import json
import re
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from postil.build import BuildOptions, build
from postil.serve import DevServer, ServeOptions, is_loopback
from postil.serve.engine import FirstPages
from postil.serve.server import resolve
from postil.serve.watcher import ChangeSet

POST = """---
title: Post {n}
date: 2025-01-{n:02d}
---

Body of post {n}.

Second paragraph of post {n}.
"""


def make_site(root: Path, base_url: str = "https://example.org/") -> Path:
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(f"title: Served\nauthor: Ada\nbase_url: {base_url}\n")
    for n in (1, 2, 3):
        (root / f"content/posts/p{n}.md").write_text(POST.format(n=n), encoding="utf-8")
    return root


@pytest.fixture
def no_leaked_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 3
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert set(threading.enumerate()) - before == set()


@pytest.fixture
def start(tmp_path: Path, no_leaked_threads: None) -> Iterator[Callable[..., DevServer]]:
    """Yield `start(site, **options) -> DevServer` on a free port; every server is stopped."""
    servers: list[DevServer] = []

    def run(site: Path, **options: object) -> DevServer:
        server = DevServer(ServeOptions(site, port=0, **options))  # type: ignore[arg-type]
        servers.append(server)
        server.start()
        return server

    yield run
    for server in servers:
        server.stop()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


def request(server: DevServer, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    """Send `path` as written (no client-side normalisation); return status, headers, body."""
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


class EventStream:
    """A minimal Server-Sent Events reader that keeps every raw field it saw."""

    def __init__(self, server: DevServer) -> None:
        parts = urlsplit(server.url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        self.conn.request("GET", "/__postil/events")
        self.response = self.conn.getresponse()

    def next(self) -> dict[str, str]:
        fields: dict[str, str] = {}
        while True:
            line = self.response.fp.readline().decode("utf-8")
            assert line.endswith("\n"), "the stream ended"
            if line == "\n" and fields:
                return fields
            if line.startswith(":") or line == "\n":
                continue
            name, _, value = line.rstrip("\n").partition(": ")
            fields[name] = value

    def next_build(self) -> dict:
        while (event := self.next())["event"] != "build":
            pass
        return json.loads(event["data"])

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def wait_for(predicate: Callable[[], bool], timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.mark.parametrize(
    "path",
    ["/../postil.yaml", "/%2e%2e/postil.yaml", "/posts/%2E%2E/%2e%2e/postil.yaml",
     "/..%2fpostil.yaml", "/%2e%2e%2f%2e%2e%2fetc/passwd", "/..\\postil.yaml",
     "/%5c..%5cpostil.yaml", "/content/posts/p1.md", "/postil.yaml", "/posts/p1/%00",
     "/%252e%252e/postil.yaml", "/posts/./p1/", "/outside/secret.txt",
     "/outside/secret/", "/posts/secret/"],
)  # fmt: skip
def test_paths_that_leave_the_site_get_404(start, site: Path, path: str) -> None:
    outside = site.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET")
    (outside / "secret.md").write_text("---\ntitle: Leak\n---\nTOP-SECRET\n")
    server = start(site)
    # After the first build: a symlink out of content/ is a build error (discover refuses it).
    (site / "content/outside").symlink_to(outside, target_is_directory=True)
    status, _, body = request(server, path)
    assert status == 404
    assert b"TOP-SECRET" not in body and b"title: Served" not in body


def test_resolve_follows_github_pages_rules() -> None:
    files = {"index.html": b"", "posts/a/index.html": b"", "css/a.css": b""}
    assert resolve("/blog/posts/a/", "/blog/", files).rel == "posts/a/index.html"
    assert resolve("/blog/posts/a", "/blog/", files).location == "/blog/posts/a/"
    assert resolve("/blog", "/blog/", files).status == 301
    assert resolve("/", "/blog/", files).location == "/blog/"
    assert resolve("/posts/a/", "/blog/", files).status == 404
    assert resolve("/blog/css/a.css", "/blog/", files).status == 200


def test_only_get_and_head_are_allowed(start, site: Path) -> None:
    server = start(site)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        status, headers, _ = request(server, "/", method)
        assert (status, headers["Allow"]) == (405, "GET, HEAD")
    status, headers, body = request(server, "/posts/p1/", "HEAD")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 0


def test_the_event_stream_is_framed_as_server_sent_events(start, site: Path) -> None:
    server = start(site)
    stream = EventStream(server)
    try:
        assert stream.response.getheader("Content-Type") == "text/event-stream; charset=utf-8"
        hello = stream.next()
        assert set(hello) == {"retry", "id", "event", "data"} and hello["event"] == "hello"
        assert json.loads(hello["data"])["build"] == int(hello["id"])
        post = site / "content/posts/p2.md"
        post.write_text(post.read_text().replace("Second paragraph", "Changed paragraph"))
        event = stream.next_build()
        assert event["ok"] and "posts/p2/index.html" in event["changed"]
        assert event["build"] == int(hello["id"]) + 1
    finally:
        stream.close()


def test_the_reload_script_is_injected_only_into_served_html(start, site, tmp_path) -> None:
    server = start(site)
    _, headers, html = request(server, "/posts/p1/")
    assert html.count(b"/__postil/livereload.js") == 1
    assert html.index(b"/__postil/livereload.js") < html.rindex(b"</body>")
    _, _, css = request(server, "/css/base.css")
    assert b"__postil" not in css
    status, headers, script = request(server, "/__postil/livereload.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b"EventSource" in script
    status, _, worker = request(server, "/__postil/worker.js")
    assert status == 200 and b"onconnect" in worker
    out = tmp_path / "built"
    build(BuildOptions(root=site, out_dir=out, drafts=True))
    assert not [p for p in out.rglob("*") if p.is_file() and b"__postil" in p.read_bytes()]
    assert not (site / "_site").exists()


def test_a_broken_post_shows_the_overlay_and_a_fix_clears_it(start, site: Path) -> None:
    server = start(site)
    stream = EventStream(server)
    post = site / "content/posts/p2.md"
    good = post.read_text()
    try:
        post.write_text(good.replace("date: 2025-01-02", "date: someday"))
        event = stream.next_build()
        assert not event["ok"] and event["changed"] == []
        assert event["errors"] == [
            {
                "location": "content/posts/p2.md:3:7",
                "message": event["errors"][0]["message"],
                "source_line": "date: someday",
                "excerpt": "    date: someday\n          ^",  # the caret under column 7
            }
        ]
        assert b"Body of post 2" in request(server, "/posts/p2/")[2]  # the last good page
        late = EventStream(server)
        assert json.loads(late.next()["data"])["errors"][0]["source_line"] == "date: someday"
        late.close()
        post.write_text(good.replace("Body of post 2", "Fixed body"))
        event = stream.next_build()
        assert event["ok"] and event["errors"] == []
        assert b"Fixed body" in request(server, "/posts/p2/")[2]
    finally:
        stream.close()


def test_deleted_files_and_template_errors_never_stop_the_server(start, site: Path) -> None:
    server = start(site)
    (site / "content/posts/p3.md").unlink()
    wait_for(lambda: request(server, "/posts/p3/")[0] == 404)
    (site / "templates").mkdir()
    (site / "templates/post.html").write_text("{% extends 'base.html' %}{% block main %}")
    wait_for(lambda: bool(server.hub.view().errors))
    assert request(server, "/posts/p1/")[0] == 200
    (site / "templates/post.html").unlink()
    wait_for(lambda: not server.hub.view().errors)
    assert b"Body of post 1" in request(server, "/posts/p1/")[2]


def test_the_polling_watcher_sees_a_saved_edit(start, site: Path) -> None:
    server = start(site, poll=True)
    post = site / "content/posts/p3.md"
    post.write_text(post.read_text().replace("Second paragraph", "Polled paragraph"))
    wait_for(lambda: b"Polled paragraph" in request(server, "/posts/p3/")[2])


def test_a_site_that_never_built_answers_with_its_errors_then_recovers(start, site) -> None:
    post = site / "content/posts/p1.md"
    post.write_text("---\ntitle: [oops\n---\n")
    server = start(site)
    status, _, body = request(server, "/")
    assert status == 500 and b"content/posts/p1.md:2" in body and b"livereload.js" in body
    post.write_text(POST.format(n=1))
    wait_for(lambda: request(server, "/")[0] == 200)


def test_requests_wait_for_the_pending_build(start, site: Path) -> None:
    server = start(site, debounce=0.3)
    assert server.watcher is not None
    server.watcher.stop()  # only the change queued below, with its full debounce
    post = site / "content/posts/p1.md"
    post.write_text(post.read_text().replace("Second paragraph", "Waited-for paragraph"))
    server.rebuild(ChangeSet(content={post}))
    started = time.monotonic()
    body = request(server, "/posts/p1/")[2]
    assert b"Waited-for paragraph" in body
    assert time.monotonic() - started >= 0.2


def test_a_base_path_site_is_served_under_its_path(start, tmp_path: Path) -> None:
    site = make_site(tmp_path / "project", "https://user.github.io/repo/")
    server = start(site)
    assert server.url.endswith("/repo/")
    assert request(server, "/")[:2][0] == 302 and request(server, "/")[1]["Location"] == "/repo/"
    assert request(server, "/repo")[1]["Location"] == "/repo/"
    assert request(server, "/repo/posts/p1")[1]["Location"] == "/repo/posts/p1/"
    status, _, html = request(server, "/repo/")
    assert status == 200 and b'href="/repo/posts/p1/"' in html
    assert request(server, "/posts/p1/")[0] == 404
    assert request(server, "/repo/css/base.css")[0] == 200


def test_a_missing_page_is_the_site_404_page_watching_for_that_page(start, site) -> None:
    server = start(site)
    status, _, body = request(server, "/posts/p9/")
    assert status == 404 and b'data-postil-rels="posts/p9/index.html 404.html"' in body


def test_only_loopback_addresses_count_as_private() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


def test_a_taken_port_fails_before_the_site_is_built(site: Path, no_leaked_threads: None) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = DevServer(ServeOptions(root=site, port=port))
        builds: list[object] = []
        original = server.builder.build
        server.builder.build = lambda *a, **k: builds.append(1) or original(*a, **k)  # type: ignore[method-assign]
        with pytest.raises(OSError):
            server.start()
        server.stop()
    assert builds == []


def test_connections_send_without_nagles_delay(start, site):
    """Headers and body leave in two writes; with Nagle's algorithm on, the body waited for
    the client's delayed ACK (about 40 ms, on a quarter of the edits measured). The server's
    side of every connection has TCP_NODELAY."""
    import socket

    server = start(site)
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", "/")
        conn.getresponse().read()  # the connection stays open (keep-alive)
        with server.http._lock:
            sockets = list(server.http._connections)
        assert sockets
        for sock in sockets:
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        conn.close()


def served_pages(server: DevServer, rels: list[str]) -> dict[str, bytes]:
    return {rel: server.builder.files[rel] for rel in rels}


@pytest.mark.parametrize("atomic", [False, True], ids=["in place", "renamed into place"])
def test_an_edited_post_is_announced_first_and_unchanged_pages_never(start, site, tmp_path, atomic):
    """Both saves are `closed` (built without the settle wait): the events and the bytes
    served are still exactly a cold build's."""
    server = start(site)
    stream = EventStream(server)
    try:
        stream.next()  # hello
        pages = [f"posts/p{n}/index.html" for n in (1, 2, 3)] + ["index.html"]
        before = served_pages(server, pages)
        post = site / "content/posts/p2.md"
        text = post.read_text().replace("Second paragraph", "Early paragraph")
        temp = post.with_name("p2.md.tmp") if atomic else post
        temp.write_text(text)
        temp.replace(post)
        first = stream.next_build()
        # The post's own page alone, before its neighbours' and the list page are rendered.
        assert first["ok"] and first["changed"] == ["posts/p2/index.html"]
        second = stream.next_build()
        assert second["ok"] and second["build"] == first["build"] + 1
        assert "posts/p2/index.html" not in second["changed"]  # no second reload
        after = served_pages(server, pages)
        assert [rel for rel in pages if before[rel] != after[rel]] == ["posts/p2/index.html"]
        assert set(second["changed"]) & set(pages) == set()  # the neighbours did not change
        assert b"Early paragraph" in request(server, "/posts/p2/")[2]
        out = tmp_path / "out"
        build(BuildOptions(root=site, out_dir=out, drafts=True))
        for rel in pages:
            assert after[rel] == (out / rel).read_bytes(), rel
    finally:
        stream.close()


def test_a_title_edit_serves_the_list_page_updated(start, site, tmp_path) -> None:
    server = start(site)
    stream = EventStream(server)
    try:
        stream.next()  # hello
        post = site / "content/posts/p2.md"
        post.write_text(post.read_text().replace("title: Post 2", "title: Renamed post"))
        changed: set[str] = set()
        while "index.html" not in changed:
            event = stream.next_build()
            assert event["ok"]
            changed |= set(event["changed"])
        assert {"posts/p1/index.html", "posts/p2/index.html", "posts/p3/index.html"} <= changed
        assert b"Renamed post" in request(server, "/")[2]
        out = tmp_path / "out"
        build(BuildOptions(root=site, out_dir=out, drafts=True))
        for rel in ("index.html", "posts/p1/index.html", "posts/p2/index.html"):
            assert server.builder.files[rel] == (out / rel).read_bytes(), rel
    finally:
        stream.close()


def test_a_page_of_a_build_still_rendering_is_served_while_the_others_wait(tmp_path) -> None:
    from postil.serve.engine import BuildReport, FirstPages
    from postil.serve.hub import SiteHub
    from postil.serve.memory import Overlay

    busy = [False]
    hub = SiteHub(lambda: busy[0])
    good = {"a.html": b"old a", "b.html": b"old b"}
    hub.publish(BuildReport(True, frozenset(good), (), (), 0, 2, 0.0), good, "/")
    busy[0] = True
    files = Overlay(good, {"a.html": b"new a"})
    hub.publish_first(FirstPages(frozenset({"a.html"}), frozenset({"a.html"}), files, "/", ()))
    first = hub.view(timeout=5, wants=lambda v: v.ready is not None and "a.html" in v.ready)
    assert first.files["a.html"] == b"new a" and first.build == 2
    started = time.monotonic()
    other = hub.view(timeout=0.2, wants=lambda v: v.ready is not None and "b.html" in v.ready)
    assert time.monotonic() - started >= 0.15  # b.html may be about to change: it waited
    assert other.files["a.html"] == b"old a" and other.build == 1
    events = hub.events_after(1, 0)
    assert events is not None and json.loads(events[0][1])["changed"] == ["a.html"]
    # A build that fails after its first pages were served serves the last good site.
    hub.publish(BuildReport(False, frozenset(), (), (), 0, 0, 0.0), {}, "/")
    busy[0] = False
    view = hub.view(timeout=0, wants=lambda v: True)
    assert view.files["a.html"] == b"old a" and view.build == 3 and view.ready is None
    # A good build does not announce again the pages its first event named.
    new = {"a.html": b"new a", "b.html": b"new b"}
    report = BuildReport(True, frozenset(new), (), (), 0, 2, 0.0, early=frozenset({"a.html"}))
    hub.publish(report, new, "/")
    events = hub.events_after(3, 0)
    assert events is not None and json.loads(events[-1][1])["changed"] == ["b.html"]


def test_a_build_yields_to_the_readers_its_first_pages_woke_and_to_no_other() -> None:
    from postil.serve.engine import BuildReport
    from postil.serve.hub import SiteHub
    from postil.serve.memory import Overlay

    busy = [True]
    hub = SiteHub(lambda: busy[0])
    good = {"a.html": b"old a", "b.html": b"old b"}
    hub.publish(BuildReport(True, frozenset(good), (), (), 0, 2, 0.0), good, "/")
    order: list[str] = []

    def read(rel: str) -> None:
        view = hub.view(timeout=30, wants=lambda v: v.ready is not None and rel in v.ready)
        time.sleep(0.2)  # answering takes a while: the build must wait for it
        order.append(f"{rel} {view.files[rel].decode()}")
        hub.done()

    def stream() -> None:
        events = hub.events_after(1, 30)
        time.sleep(0.2)
        order.append(f"event {len(events or ())}")
        hub.done()

    threads = [threading.Thread(target=t, args=a) for t, a in ((read, ("a.html",)), (stream, ()))]
    threads.append(threading.Thread(target=read, args=("b.html",)))
    for thread in threads:
        thread.start()
    while len(hub._waiting) < 2 or not hub._streams:  # every reader waits
        time.sleep(0.01)
    files = Overlay(good, {"a.html": b"new a"})
    hub.publish_first(FirstPages(frozenset({"a.html"}), frozenset({"a.html"}), files, "/", ()))
    hub.yield_to_readers(timeout=30)
    order.append("build goes on")
    # b.html was not handed over: its reader still waits, and held nothing up.
    assert sorted(order[:2]) == ["a.html new a", "event 1"] and order[2:] == ["build goes on"]
    busy[0] = False
    hub.publish(BuildReport(True, frozenset(), (), (), 0, 2, 0.0), good, "/")
    for thread in threads:
        thread.join(30)
    assert order[3:] == ["b.html old b"]


def reloads(rels: set[str], build: int, hello: dict) -> bool:
    """Return whether a page made of `rels`, served at build number `build`, must reload
    when its script hears `hello` (livereload.js's `onHello`): one of the builds since is
    not listed in the hello's `changes`, or one changed a file of the page."""
    listed = {n: None if changed is None else set(changed) for n, changed in hello["changes"]}
    since = range(build + 1, hello["build"] + 1)
    return any(listed.get(n) is None or listed[n] & rels for n in since)


def test_a_page_served_from_a_builds_first_pages_is_reloaded_once(start, site) -> None:
    """A rename save, its page served while the rest of its build runs (held here, as a
    slow machine holds it) and its script connected only after that build's end: the
    hello tells it that nothing since changed it (it was reloaded a second time, about 1
    save in 5 in the browser). A real second change still reloads it."""
    server = start(site)
    gate = threading.Event()
    publish_first = server.builder.on_first
    assert publish_first is not None

    def held(pages: FirstPages) -> None:
        publish_first(pages)
        gate.wait(10)  # until the page is served

    server.builder.on_first = held
    stream = EventStream(server)
    try:
        stream.next()  # hello
        post = site / "content/posts/p2.md"
        temp = post.with_name("p2.md.tmp")
        temp.write_text(post.read_text().replace("Second paragraph", "Renamed-in paragraph"))
        temp.replace(post)
        first = stream.next_build()
        assert first["changed"] == ["posts/p2/index.html"]
        page = request(server, "/posts/p2/")[2]  # the reload that event asks for
        gate.set()
        assert b"Renamed-in paragraph" in page
        served_at = int(re.search(rb'data-postil-build="(\d+)"', page)[1])  # type: ignore[index]
        assert served_at == first["build"]  # from the first pages: the build still ran
        last = stream.next_build()
        assert last["build"] == first["build"] + 1 and "posts/p2/index.html" not in last["changed"]
        late = EventStream(server)  # the reloaded page's script connects
        hello = json.loads(late.next()["data"])
        late.close()
        assert hello["build"] == last["build"]
        assert not reloads({"posts/p2/index.html"}, served_at, hello)  # reloaded once
        assert hello["changes"][-2:] == [
            [first["build"], first["changed"]],
            [last["build"], last["changed"]],
        ]
        # A real second change of the page still reloads it, once.
        server.builder.on_first = publish_first
        post.write_text(post.read_text().replace("Renamed-in", "Edited again"))
        while "posts/p2/index.html" not in (event := stream.next_build())["changed"]:
            pass
        wait_for(lambda: server.hub.view(timeout=0).build >= event["build"])
        again = EventStream(server)
        hello = json.loads(again.next()["data"])
        again.close()
        assert reloads({"posts/p2/index.html"}, last["build"], hello)
    finally:
        gate.set()
        stream.close()


def test_a_hello_lists_the_recent_builds_and_not_the_files_of_a_big_one() -> None:
    from postil.serve.engine import BuildReport
    from postil.serve.hub import HELLO_CHANGES, HELLO_FILES, SiteHub

    hub = SiteHub()
    many = frozenset(f"posts/p{n}/index.html" for n in range(HELLO_FILES + 1))
    hub.publish(BuildReport(True, many, (), (), 0, 0, 0.0), {}, "/")
    hub.publish(BuildReport(True, frozenset({"a.html"}), (), (), 0, 0, 0.0), {}, "/")
    number, data = hub.hello()
    hello = json.loads(data)
    assert number == hello["build"] == 2
    assert hello["changes"] == [[1, None], [2, ["a.html"]]]
    assert reloads({"b.html"}, 0, hello) and not reloads({"b.html"}, 1, hello)
    for _ in range(HELLO_CHANGES):
        hub.publish(BuildReport(True, frozenset(), (), (), 0, 0, 0.0), {}, "/")
    hello = json.loads(hub.hello()[1])
    assert [n for n, _ in hello["changes"]] == list(range(3, 3 + HELLO_CHANGES))
    assert reloads({"b.html"}, 1, hello)  # builds too old to be listed: reload


SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="40"><!-- {note} --></svg>'


@pytest.mark.parametrize("rel", ["content/posts/b/plot.svg", "content/img/plot.svg"])
def test_a_saved_image_under_content_is_served_anew_with_its_new_size(start, site, rel) -> None:
    """An image beside a post, or anywhere under content/, is published as it is: saving
    it alone (no post touched) rebuilds, so the page that shows it takes its new width."""
    image = site / rel
    image.parent.mkdir(parents=True, exist_ok=True)
    image.write_text(SVG.format(w=100, note="first"))
    src = "plot.svg" if "/b/" in rel else "../../img/plot.svg"
    (site / "content/posts/b").mkdir(exist_ok=True)
    (site / "content/posts/b/index.md").write_text(
        f"---\ntitle: B\ndate: 2025-01-09\n---\n\n![A plot]({src})\n"
    )
    server = start(site)
    url = "/posts/b/plot.svg" if "/b/" in rel else "/img/plot.svg"
    assert b"first" in request(server, url)[2]
    assert b'width="100"' in request(server, "/posts/b/")[2]
    image.write_text(SVG.format(w=300, note="second"))  # in place, as most editors save
    wait_for(lambda: b"second" in request(server, url)[2])
    assert b'width="300"' in request(server, "/posts/b/")[2]


def test_a_browser_leaving_mid_answer_prints_no_traceback(start, site, capfd) -> None:
    """A reader who reloads or clicks on while a big file is being sent closes the
    connection under the server's write (`BrokenPipeError`, `ConnectionResetError`): no
    traceback in the author's terminal; any other error of a request still prints one."""
    (site / "static").mkdir()
    (site / "static/big.bin").write_bytes(b"x" * 8_000_000)  # more than any socket buffer
    server = start(site)
    assert request(server, "/big.bin")[0] == 200
    parts = urlsplit(server.url)
    for _ in range(3):
        conn = socket.create_connection((parts.hostname, parts.port))
        conn.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        conn.recv(1024)  # the answer has begun
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()  # a reset, as a browser's cancelled load sends
    assert request(server, "/posts/p1/")[0] == 200  # still serving
    time.sleep(0.2)
    assert "Traceback" not in capfd.readouterr().err
    try:
        raise ValueError("a bug")
    except ValueError:
        server.http.handle_error(None, ("127.0.0.1", 1))  # type: ignore[union-attr]
    assert "ValueError: a bug" in capfd.readouterr().err
