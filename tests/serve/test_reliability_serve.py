"""`postil serve` under load and faults, as a real process on 127.0.0.1.

50 clients fetch pages while 20 rebuilds run; a deleted and recreated post, a renamed
directory, a template syntax error and a file appearing mid-build never stop the server, which
keeps serving the last good site and recovers; memory stays flat over many rebuilds
(`POSTIL_SERVE_REBUILDS`, default 150 in CI; 500 for the figures in the note).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REBUILDS = int(os.environ.get("POSTIL_SERVE_REBUILDS", "150"))
POST = "---\ntitle: Post {n}\ndate: 2025-01-{d:02d}\n---\n\nBody {n} $x^{n}$ {marker}.\n"


class Served:
    """A `postil serve` process: its URL, build events and memory."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "postil", "-C", str(root), "serve", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("serving "), line
        self.url = line.split()[1]
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.events = http.client.HTTPConnection(self.host, self.port, timeout=60)
        self.events.request("GET", "/__postil/events")
        self.stream = self.events.getresponse()

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def next_event(self, timeout: float = 60) -> tuple[str, dict]:
        """Return (name, data) of the next event; keep-alive comments are skipped."""
        deadline = time.monotonic() + timeout
        fields: dict[str, str] = {}
        while time.monotonic() < deadline:
            line = self.stream.fp.readline().decode("utf-8")
            assert line.endswith("\n"), "the event stream ended"
            if line == "\n" and "event" in fields:
                return fields["event"], json.loads(fields["data"])
            if line != "\n" and not line.startswith(":"):
                name, _, value = line.rstrip("\n").partition(": ")
                fields[name] = value
        raise AssertionError(f"no event within {timeout} s")

    def next_build(self) -> dict:
        """Return the data of the next `build` event (`ok`, `errors`, `changed`)."""
        while True:
            name, data = self.next_event()
            if name == "build" and "ok" in data:
                return data

    def rss_kib(self) -> int:
        """Return the server process's resident memory (VmRSS) in KiB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(x for x in status.splitlines() if x.startswith("VmRSS:")).split()[1])

    def stop(self) -> None:
        self.stream.close()
        self.events.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def write_posts(root: Path, count: int, marker: str = "v0") -> None:
    for n in range(count):
        text = POST.format(n=n, d=n % 28 + 1, marker=marker)
        (root / f"content/posts/p{n}.md").write_text(text)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to measure memory")
    root = tmp_path / "site"
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text("title: S\nauthor: A\nbase_url: https://x.org/\n")
    write_posts(root, 30)
    server = Served(root)
    try:
        name, hello = server.next_event()
        assert name == "hello"
        if hello["build"] == 0:
            assert server.next_build()["ok"]
        yield server, root
    finally:
        server.stop()


def save(path: Path, text: str) -> None:
    """Save as editors do: write a temporary file and rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


@pytest.mark.slow
def test_fifty_clients_while_twenty_rebuilds_run_get_only_complete_pages(served):
    server, root = served
    stop = threading.Event()
    served_ok, failures = [0], []
    lock = threading.Lock()

    def client(k: int) -> None:
        paths = ["/", f"/posts/p{k % 30}/", "/archive/", "/feed.xml"]
        i = 0
        while not stop.is_set():
            path = paths[i % len(paths)]
            i += 1
            try:
                status, body = server.get(path)
                good = status == 200 and (
                    path.endswith(".xml") or body.rstrip().endswith(b"</html>")
                )
            except OSError as e:
                good, status = False, repr(e)
            with lock:
                if good:
                    served_ok[0] += 1
                else:
                    failures.append((path, status))

    threads = [threading.Thread(target=client, args=(k,)) for k in range(50)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for r in range(20):
        save(root / f"content/posts/p{r}.md", POST.format(n=r, d=r % 28 + 1, marker=f"r{r}"))
        assert server.next_build()["ok"]
    stop.set()
    for t in threads:
        t.join(timeout=60)
    seconds = time.perf_counter() - started
    print(
        f"50 clients, 20 rebuilds: {served_ok[0]} pages in {seconds:.1f} s, {len(failures)} errors"
    )
    assert failures == []
    assert served_ok[0] >= 50  # every client was served during the rebuilds
    assert b"r19" in server.get("/posts/p19/")[1]


def test_faults_never_stop_the_server_and_it_recovers(served):
    server, root = served
    posts = root / "content/posts"
    # delete and recreate a post
    (posts / "p3.md").unlink()
    assert server.next_build()["ok"]
    assert server.get("/posts/p3/")[0] == 404
    save(posts / "p3.md", POST.format(n=3, d=3, marker="back"))
    assert server.next_build()["ok"]
    assert b"back" in server.get("/posts/p3/")[1]
    # rename a directory of posts
    (posts / "series").mkdir()
    save(posts / "series/one.md", "---\ntitle: One\n---\nfirst\n")
    assert server.next_build()["ok"]
    (posts / "series").rename(posts / "renamed")
    deadline = time.monotonic() + 20
    while server.get("/posts/one/")[0] != 200 or b"first" not in server.get("/posts/one/")[1]:
        assert time.monotonic() < deadline, "the renamed directory was never rebuilt"
        server.next_build()
    # a template syntax error: the overlay reports it, the last good pages stay
    (root / "templates").mkdir(exist_ok=True)
    shutil.copy(Path(__file__).parents[2] / "templates/post.html", root / "templates/post.html")
    assert server.next_build()["ok"]
    save(root / "templates/post.html", "{% if %}broken")
    report = server.next_build()
    assert not report["ok"] and report["errors"]
    status, body = server.get("/posts/p1/")
    assert status == 200 and b"Body 1" in body
    (root / "templates/post.html").unlink()
    report = server.next_build()
    while not report["ok"]:  # a build already running when the file was deleted may fail
        print("after deleting the template:", report["errors"][:1])
        report = server.next_build()
    # a broken post, then a file appearing during a build
    save(posts / "p2.md", "---\ntitle: [broken\n---\n")
    assert not server.next_build()["ok"]
    assert b"Body 2" in server.get("/posts/p2/")[1]
    save(posts / "p2.md", POST.format(n=2, d=2, marker="fixed"))
    save(posts / "late.md", "---\ntitle: Late\n---\nappeared mid-build\n")
    deadline = time.monotonic() + 20
    while b"appeared mid-build" not in server.get("/posts/late/")[1]:
        assert time.monotonic() < deadline, "a file saved during a build was never built"
        server.next_build()
    assert b"fixed" in server.get("/posts/p2/")[1]
    assert server.process.poll() is None


@pytest.mark.slow
def test_memory_stays_flat_over_many_rebuilds(served):
    server, root = served
    warm = 20
    for r in range(REBUILDS + warm):
        if r == warm:
            before = server.rss_kib()
        save(root / f"content/posts/p{r % 30}.md", POST.format(n=r % 30, d=1, marker=f"m{r}"))
        assert server.next_build()["ok"]
        server.get(f"/posts/p{r % 30}/")
    after = server.rss_kib()
    print(f"{REBUILDS} rebuilds: RSS {before} KiB -> {after} KiB ({after - before:+d} KiB)")
    assert after - before < 20_000 + REBUILDS * 20  # < 20 MB plus 20 KiB a rebuild
