#!/usr/bin/env python3
"""Each save's timeline in an in-process dev server, its page fetched by another process.

It serves SITE (e.g. `serve_latency.py`'s `site-1000`, in place: its `.postil-cache/` is
removed first, so the first build is cold, as in `serve_latency.py`) with a `DevServer`
and its real watcher, and runs a client in a subprocess that, like `serve_latency.py`,
saves the middle post --edits times (in place and by renaming a temp file over it,
alternately, 0.3-1.0 s apart) and polls its page every 2 ms until the new text is served.
For each save it reports the wall time to the page served, the build thread's CPU from the
build's start to the hand-over of the post's page (`DevBuild.on_first`), and the time from
the hand-over to the last byte of the page sent (the request thread's `_send`). The first
save is printed apart (it paid for what the first build left undone, issue 20), then p50
and p95 of the others and of all.

    .venv/bin/python benchmarks/serve_saves.py /tmp/p95-lat/site-1000 --edits 20

Run it with another checkout's `src/` on PYTHONPATH for a before/after (interleave runs).
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
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def client(url: str, post: Path, edits: int, seed: int) -> None:
    """Save `post` `edits` times and print, per save, when it was written and served."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    page, original = f"{parts.path}posts/{post.stem}/", post.read_text(encoding="utf-8")
    rng = random.Random(seed)

    def fetch() -> bytes:
        conn.request("GET", page)
        return conn.getresponse().read()

    fetch()
    try:
        for i in range(edits):
            time.sleep(rng.uniform(0.3, 1.0))
            marker = f"Edit marker {i}-{rng.randrange(10**9)}"
            started = time.perf_counter()
            if i % 2:
                temp = post.with_name(post.name + ".tmp")
                temp.write_text(f"{original}\n\n{marker}\n", encoding="utf-8")
                temp.replace(post)
            else:
                post.write_text(f"{original}\n\n{marker}\n", encoding="utf-8")
            while marker.encode() not in fetch():
                time.sleep(0.002)
            print(json.dumps([started, time.perf_counter()]), flush=True)
    finally:
        post.write_text(original, encoding="utf-8")


def serve(root: Path, edits: int, seed: int) -> list[tuple[float, float | None, float | None]]:
    """Serve `root`, run the client; return (served ms, CPU ms to hand-over, hand-over to
    sent ms) per save."""
    from postil.serve import server as http_side
    from postil.serve.app import DevServer, ServeOptions

    shutil.rmtree(root / ".postil-cache", ignore_errors=True)
    server = DevServer(ServeOptions(root, port=0))
    server.start()
    marks: list[tuple[float, str, float]] = []
    build, first = server.batcher._build, server.builder.on_first
    assert first is not None

    def on_build(changes: Any) -> Any:
        marks.append((time.perf_counter(), "build", time.thread_time()))
        return build(changes)

    def on_first(pages: Any) -> None:
        marks.append((time.perf_counter(), "hand-over", time.thread_time()))
        first(pages)

    send = http_side.DevRequestHandler._send

    def on_send(self: Any, *args: Any, **kwargs: Any) -> None:
        send(self, *args, **kwargs)
        marks.append((time.perf_counter(), "sent", 0.0))

    server.batcher._build = on_build
    server.builder.on_first = on_first
    http_side.DevRequestHandler._send = on_send  # type: ignore[method-assign]
    posts = sorted((root / "content/posts").glob("*.md"))
    command = [sys.executable, __file__, "--client", server.url, str(posts[len(posts) // 2])]
    try:
        done = subprocess.run(
            [*command, "--edits", str(edits), "--seed", str(seed)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    finally:
        server.stop()
    saves = []
    for line in done.stdout.splitlines():
        started, served = json.loads(line)
        mine = [m for m in marks if started <= m[0] <= served]
        built = next((m for m in mine if m[1] == "build"), None)
        handed = next((m for m in mine if m[1] == "hand-over"), None)
        sent = next((m for m in mine if m[1] == "sent" and handed and m[0] >= handed[0]), None)
        cpu = (handed[2] - built[2]) * 1e3 if built and handed else None
        gap = (sent[0] - handed[0]) * 1e3 if sent and handed else None
        saves.append(((served - started) * 1e3, cpu, gap))
    return saves


def percentiles(values: list[float]) -> str:
    """Return "p50 / p95" of `values` (as `serve_latency.py` takes them), in ms."""
    if len(values) < 2:
        return "-"
    p95 = statistics.quantiles(values, n=20, method="inclusive")[18]
    return f"{statistics.median(values):.1f} / {p95:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", help="a site to serve in place (or the URL, with --client)")
    parser.add_argument("post", nargs="?", type=Path, help="(--client) the post to save")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client(args.site, args.post, args.edits, args.seed)
        return
    saves = serve(Path(args.site), args.edits, args.seed)
    (served, cpu, _), rest = saves[0], saves[1:]
    print(f"first save: served {served:.1f} ms, CPU to hand-over {cpu or 0:.1f} ms")
    for i, name in enumerate(("served", "CPU to hand-over", "hand-over to sent")):
        values = [s[i] for s in rest if s[i] is not None]
        print(f"other saves, {name}: {percentiles(values)}")
    print(f"all saves, served: {percentiles([s[0] for s in saves])}")


if __name__ == "__main__":
    main()
