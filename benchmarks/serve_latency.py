#!/usr/bin/env python3
"""Time `postil serve` from a saved edit to (a) the browser's reload event, (b) the new page.

For the example site (this repository's content, copied) and generated sites of 100, 1,000
and 5,000 posts (`../shared/bench/gen_corpus.py --unique-math --flavor neutral`), it starts
`python -m postil serve --port 0` as a user would, connects to the Server-Sent Events
stream as the injected script does, and then 20 times, after a random pause of 0.3-1.0 s,
writes a new paragraph into one post (in place, or by writing a temp file and renaming it
over the post, alternately, as editors do) and measures from the write to
(a) the `build` event that lists the post's page as changed, and
(b) the first GET of the post's URL (polled every 2 ms) whose body has the new paragraph.
It prints p50 and p95 per site, in milliseconds, and the time from starting the server to
the first page served (the home page, by GET) with no build cache ("first page", cold) and
again with the `.postil-cache/` the first session left (warm); with `--build`, also the time
of a cold `postil build --drafts` of the same site, which a cold first page should not
exceed (issue 20). Like benchmarks/run.py it first compiles postil's modules to bytecode, as
`pip install` does (this machine sets PYTHONDONTWRITEBYTECODE, which would otherwise make
every start compile them). Sites are generated once under --work.

    .venv/bin/python benchmarks/serve_latency.py                   # example, 100, 1000, 5000
    .venv/bin/python benchmarks/serve_latency.py --sizes 100 1000 --edits 20 --build

Reference: `hugo server` on the same kind of corpus serves the edited post after 285 ms
(100 posts), 241 ms (1,000) and 709 ms (5,000), medians (issue 6). Targets: p50 at most
100 ms (100 posts), 150 ms (1,000), 300 ms (5,000) (issue 6); at 1,000 posts a warm first
page within 1.0 s and an edit served within 50 ms at p95 (issue 20).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
GEN_CORPUS = REPO.parent / "shared" / "bench" / "gen_corpus.py"
CONFIG = "title: Bench\nauthor: Bench\nbase_url: https://example.org/\n"


def make_sites(work: Path, sizes: list[str]) -> list[tuple[str, Path, Path]]:
    """Return (label, site root, post to edit) for each size, generating missing sites."""
    sites = []
    for size in sizes:
        root = work / f"site-{size}"
        if size == "example":
            if root.exists():
                shutil.rmtree(root)
            shutil.copytree(REPO / "content", root / "content")
            shutil.copy(REPO / "postil.yaml", root / "postil.yaml")
        elif not (root / "postil.yaml").exists():
            corpus = work / f"corpus-{size}"
            subprocess.run(
                [sys.executable, str(GEN_CORPUS), str(corpus), "--posts", size,
                 "--unique-math", "--flavor", "neutral"],
                check=True, stdout=subprocess.DEVNULL,
            )  # fmt: skip
            (root / "content").mkdir(parents=True)
            shutil.move(corpus / "posts", root / "content" / "posts")
            (root / "postil.yaml").write_text(CONFIG, encoding="utf-8")
        posts = sorted((root / "content" / "posts").rglob("*.md"))
        sites.append((size, root, posts[len(posts) // 2]))
    return sites


class Server:
    """`python -m postil serve --port 0` in a subprocess; its URL and the time from its
    start to the first page it served (its home page)."""

    def __init__(self, root: Path) -> None:
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "postil", "-C", str(root), "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("serving "):
            raise RuntimeError(f"postil serve did not start: {line!r}")
        self.url = line.split()[1]
        parts = urlsplit(self.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        conn.request("GET", parts.path)
        if conn.getresponse().status != 200:
            raise RuntimeError("postil serve did not serve its home page")
        conn.close()
        self.startup = time.perf_counter() - started

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Events:
    """Read the SSE stream on a thread; remember when each build event arrived."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        self.conn.request("GET", "/__postil/events")
        self.response = self.conn.getresponse()
        self.builds: list[tuple[float, dict]] = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event, data = "", ""
        for raw in self.response.fp:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif not line and event == "build":
                with self.cond:
                    self.builds.append((time.perf_counter(), json.loads(data)))
                    self.cond.notify_all()
                event = ""

    def wait_changed(self, rel: str, since: float, timeout: float = 120) -> float:
        """Return the arrival time of the first build event after `since` that changed `rel`."""

        def found() -> float | None:
            return next(
                (t for t, b in self.builds if t >= since and rel in b.get("changed", ())), None
            )

        with self.cond:
            self.cond.wait_for(lambda: found() is not None, timeout)
            arrived = found()
        if arrived is None:
            raise TimeoutError(f"no build event changed {rel}")
        return arrived


def fetch(conn: http.client.HTTPConnection, path: str) -> bytes:
    conn.request("GET", path)
    return conn.getresponse().read()


def edit(post: Path, text: str, marker: str, atomic: bool) -> float:
    """Write `text` plus a paragraph `marker` into `post`; return the time of the write."""
    new = f"{text}\n\n{marker}\n"
    started = time.perf_counter()
    if atomic:
        tmp = post.with_name(post.name + ".tmp")
        tmp.write_text(new, encoding="utf-8")
        tmp.replace(post)
    else:
        post.write_text(new, encoding="utf-8")
    return started


def measure(root: Path, post: Path, edits: int, rng: random.Random) -> dict[str, object]:
    """Serve `root` with no build cache, edit `post` `edits` times; serve it again with the
    cache the first session left; return both startup times and both latency lists."""
    original = post.read_text(encoding="utf-8")
    shutil.rmtree(root / ".postil-cache", ignore_errors=True)
    server = Server(root)
    events = Events(server.url)
    parts = urlsplit(server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    slug = post.stem if post.stem != "index" else post.parent.name
    page, rel = f"{parts.path}posts/{slug}/", f"posts/{slug}/index.html"
    event_ms, served_ms = [], []
    try:
        fetch(conn, page)
        for i in range(edits):
            time.sleep(rng.uniform(0.3, 1.0))
            marker = f"Edit marker {i}-{rng.randrange(10**9)}"
            started = edit(post, original, marker, atomic=i % 2 == 1)
            while marker.encode() not in fetch(conn, page):
                time.sleep(0.002)
            served_ms.append((time.perf_counter() - started) * 1000)
            event_ms.append((events.wait_changed(rel, started) - started) * 1000)
    finally:
        post.write_text(original, encoding="utf-8")
        conn.close()
        server.stop()
    warm = Server(root)
    warm.stop()
    return {"startup": server.startup, "warm": warm.startup, "event": event_ms, "served": served_ms}


def cold_build(root: Path) -> float:
    """Return the seconds of `postil build --drafts` of `root` with no cache and no output."""
    for name in (".postil-cache", "_site"):
        shutil.rmtree(root / name, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "build", "--drafts"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    shutil.rmtree(root / "_site", ignore_errors=True)
    return seconds


def precompile() -> None:
    """Write the bytecode of postil's modules, as `pip install` does (benchmarks/run.py)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "src")], check=True)


def percentiles(values: list[float]) -> tuple[float, float]:
    """Return (p50, p95) of `values` (linear interpolation between closest ranks)."""
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return statistics.median(values), cuts[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["example", "100", "1000", "5000"])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-serve-bench"))
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--build", action="store_true", help="also time a cold postil build")
    parser.add_argument("--raw", action="store_true", help="also print each edit's times")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    precompile()
    rng = random.Random(args.seed)
    print(f"{'site':>8} {'first page':>11} {'warm':>7} {'event p50':>10} {'p95':>7}", end="")
    print(f" {'served p50':>11} {'p95':>7}" + (f" {'build cold':>11}" if args.build else ""))
    for label, root, post in make_sites(args.work, args.sizes):
        result = measure(root, post, args.edits, rng)
        e50, e95 = percentiles(result["event"])  # type: ignore[arg-type]
        s50, s95 = percentiles(result["served"])  # type: ignore[arg-type]
        built = f" {cold_build(root):>9.2f} s" if args.build else ""
        print(
            f"{label:>8} {result['startup']:>9.2f} s {result['warm']:>5.2f} s"
            f" {e50:>7.0f} ms {e95:>4.0f} ms"
            f" {s50:>8.0f} ms {s95:>4.0f} ms{built}",
            flush=True,
        )
        if args.raw:
            print(json.dumps({k: [round(v, 1) for v in result[k]] for k in ("event", "served")}))


if __name__ == "__main__":
    main()
