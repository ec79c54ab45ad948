"""Editor-save torture test for `postil serve`: no half-written page is ever served.

A real `postil serve` process watches a site while the test saves one post over and over
the ways editors do: two partial writes with a pause (60-250 ms) between them in one open,
truncate-then-write, delete-then-create, write-a-temp-then-rename-over, and a plain write in
place (the last two are closed or renamed into place: built at once, without the settle
wait, so a reader polling right after must still never see half a save). A reader fetches
the page all the while; every page it gets must hold a whole version of the post (its
first and last marker of one save), and the page served at the end must equal a clean
build's. `POSTIL_SAVE_RUNS` sets the number of saves (default 24).
"""

from __future__ import annotations

import http.client
import os
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from postil.build import BuildOptions, build

pytestmark = pytest.mark.slow

SAVES = int(os.environ.get("POSTIL_SAVE_RUNS", "24"))
FILLER = "Filler prose for the half of the post an editor has not written yet. " * 40


def post_text(n: int) -> str:
    """Return version `n` of the post: a head marker, a long middle, a tail marker."""
    return (
        f"---\ntitle: Saved\ndate: 2024-01-01\n---\n\nHEAD-{n} starts.\n\n{FILLER}\n\n"
        f"TAIL-{n} ends.\n"
    )


def partial(path: Path, text: str, rng: random.Random) -> None:
    """Write the first part, pause, write the rest, all in one open (an editor's slow save)."""
    cut = len(text) // 2
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:cut])
        f.flush()
        time.sleep(rng.uniform(0.06, 0.25))
        f.write(text[cut:])


def truncate_then_write(path: Path, text: str, rng: random.Random) -> None:
    with open(path, "r+", encoding="utf-8") as f:
        f.truncate(0)
        f.flush()
        time.sleep(rng.uniform(0.06, 0.2))
        f.write(text)


def delete_then_create(path: Path, text: str, rng: random.Random) -> None:
    path.unlink()
    time.sleep(rng.uniform(0.0, 0.03))
    path.write_text(text, encoding="utf-8")


def rename_over(path: Path, text: str, rng: random.Random) -> None:
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)


def in_place(path: Path, text: str, rng: random.Random) -> None:
    """Write the whole post in one open and close it (the save most editors make)."""
    path.write_text(text, encoding="utf-8")


SAVE_KINDS = [partial, truncate_then_write, delete_then_create, rename_over, in_place]


def fetch(host: str, port: int, path: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_editor_saves_never_serve_a_half_written_page(tmp_path):
    root = tmp_path / "site"
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text("title: S\nauthor: A\nbase_url: https://x.org/\n")
    post = root / "content/posts/saved.md"
    post.write_text(post_text(0), encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "postil", "-C", str(root), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    seen: list[tuple[set[str], set[str]]] = []
    stop = threading.Event()
    try:
        assert server.stdout is not None
        url = urlsplit(server.stdout.readline().split()[1])
        host, port = url.hostname or "127.0.0.1", url.port or 80

        def read() -> None:
            while not stop.is_set():
                status, page = fetch(host, port, "/posts/saved/")
                if status == 200:
                    heads = set(re.findall(r"HEAD-(\d+)", page))
                    tails = set(re.findall(r"TAIL-(\d+)", page))
                    seen.append((heads, tails))
                time.sleep(0.005)

        reader = threading.Thread(target=read)
        reader.start()
        rng = random.Random(19)
        for n in range(1, SAVES + 1):
            SAVE_KINDS[n % len(SAVE_KINDS)](post, post_text(n), rng)
            time.sleep(rng.uniform(0.3, 0.6))
        time.sleep(1.5)
        stop.set()
        reader.join()
        _, final = fetch(host, port, "/posts/saved/")
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    half = [(h, t) for h, t in seen if not (len(h) == 1 and h == t)]  # one whole version
    print(f"{SAVES} saves, {len(seen)} pages read, {len(half)} half-written")
    assert not half, half[:5]
    clean = tmp_path / "clean"
    (clean / "content/posts").mkdir(parents=True)
    (clean / "postil.yaml").write_text((root / "postil.yaml").read_text())
    (clean / "content/posts/saved.md").write_text(post.read_text())
    build(BuildOptions(root=clean, cache=False, workers=1))
    expected = (clean / "_site/posts/saved/index.html").read_text(encoding="utf-8")
    assert _without_reload(final) == _without_reload(expected)


def _without_reload(page: str) -> str:
    """Return a page without what serve adds to every page (the live-reload script)."""
    return re.sub(r"<script[^>]*livereload[^>]*></script>\s*", "", page)
