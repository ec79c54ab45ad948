"""`postil serve` serves and reports exactly what `postil build --drafts` writes and reports.

A running dev server (watcher, debounced rebuilds, HTTP on 127.0.0.1) is put through a
random sequence of saves, new posts, deletions, renames, draft toggles, template and static
file edits, configuration changes and broken front matter. After each step, once the
server is idle again, every file it serves (the live-reload script taken out) and its list
of warnings (or, for a broken site, errors) are compared with a fresh `postil build
--drafts --no-cache` of the same files. `POSTIL_SERVE_STEPS` sets the number of steps
(default 15; the slow variant runs 200).
"""

from __future__ import annotations

import http.client
import os
import random
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from postil.build import BuildOptions, build
from postil.errors import BuildFailed
from postil.serve.app import DevServer, ServeOptions

STEPS = int(os.environ.get("POSTIL_SERVE_STEPS", "15"))
LIVE_RELOAD = re.compile(rb'<script src="/__postil/livereload\.js" defer [^>]*></script>\n')

POST = """---
title: {title}
date: 2025-{month:02d}-{day:02d}
tags: [{tags}]
{extra}---

Opening paragraph of {slug} with $x^{{{n}}}$ and a note[^a].

{links}

## Section {n}

Closing words.

[^a]: A note in {slug}.
"""


def post_text(rng: random.Random, slug: str, n: int, others: list[str], draft: bool) -> str:
    """Return a post with random date, tags and links (some to missing anchors or posts)."""
    links = []
    for other in rng.sample(others, k=min(len(others), rng.randint(0, 2))):
        anchor = rng.choice(["", "#section-1", "#no-such-anchor"])
        links.append(f"See [{other}]({other}.md{anchor}).")
    if rng.random() < 0.15:
        links.append("A [missing post](missing.md).")
    extra = "draft: true\n" if draft else ""
    return POST.format(
        title=f"Post {slug} {rng.randint(0, 9)}",
        month=rng.randint(1, 3),
        day=rng.randint(1, 28),
        tags=", ".join(rng.sample(["ml", "math", "notes", "code"], k=rng.randint(0, 2))),
        extra=extra,
        slug=slug,
        n=n,
        links=" ".join(links),
    )


class Site:
    """A small site on disk that the random steps change."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.posts = root / "content" / "posts"
        self.posts.mkdir(parents=True)
        self.counter = 0
        self.write_config(2)
        (root / "content" / "about.md").write_text("---\ntitle: About\n---\n\nAbout me.\n")
        for _ in range(5):
            self.add_post()

    def slugs(self) -> list[str]:
        return sorted(p.stem for p in self.posts.glob("*.md"))

    def write_config(self, paginate: int) -> None:
        (self.root / "postil.yaml").write_text(
            "title: Equivalence\nauthor: Ada\nbase_url: https://example.org/blog/\n"
            f"paginate: {paginate}\n",
            encoding="utf-8",
        )

    def add_post(self) -> None:
        self.counter += 1
        slug = f"p{self.counter}"
        text = post_text(self.rng, slug, self.counter, self.slugs(), self.rng.random() < 0.2)
        (self.posts / f"{slug}.md").write_text(text, encoding="utf-8")

    def pick(self) -> Path | None:
        files = sorted(self.posts.glob("*.md"))
        return self.rng.choice(files) if files else None


def edit_body(site: Site) -> None:
    path = site.pick()
    if path is not None:
        others = [s for s in site.slugs() if s != path.stem]
        text = path.read_text(encoding="utf-8")
        extra = f"\nMore text {site.rng.randint(0, 999)}."
        if others and site.rng.random() < 0.5:
            extra += f" Link to [{others[0]}]({others[0]}.md#no-such-anchor)."
        path.write_text(text + extra + "\n", encoding="utf-8")


def rewrite_front_matter(site: Site) -> None:
    path = site.pick()
    if path is not None:
        n = int(path.stem[1:]) if path.stem[1:].isdigit() else 0
        others = [s for s in site.slugs() if s != path.stem]
        draft = site.rng.random() < 0.3
        path.write_text(post_text(site.rng, path.stem, n, others, draft), encoding="utf-8")


def delete_post(site: Site) -> None:
    path = site.pick()
    if path is not None and len(site.slugs()) > 2:
        path.unlink()


def rename_post(site: Site) -> None:
    path = site.pick()
    if path is not None:
        site.counter += 1
        path.rename(path.with_name(f"r{site.counter}.md"))


def edit_template(site: Site) -> None:
    templates = site.root / "templates"
    override = templates / "404.html"
    if override.exists() and site.rng.random() < 0.5:
        shutil.rmtree(templates)
        return
    templates.mkdir(exist_ok=True)
    marker = site.rng.randint(0, 999)
    override.write_text(f"<!DOCTYPE html><title>Lost {marker}</title><p>Gone.</p>\n")


def edit_static(site: Site) -> None:
    static = site.root / "static" / "css"
    static.mkdir(parents=True, exist_ok=True)
    extra = static / "extra.css"
    if extra.exists() and site.rng.random() < 0.3:
        extra.unlink()
    else:
        extra.write_text(f"p {{ margin: {site.rng.randint(0, 9)}px }}\n")


def edit_config(site: Site) -> None:
    site.write_config(site.rng.choice([1, 2, 3]))


def break_or_fix(site: Site) -> None:
    broken = [p for p in site.posts.glob("*.md") if "date: not a date" in p.read_text()]
    for path in broken:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("date: not a date", "date: 2025-01-05"), encoding="utf-8")
    path = site.pick()
    if not broken and path is not None:
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"date: .*", "date: not a date", text, count=1), encoding="utf-8")


STEP_KINDS: list[tuple[Callable[[Site], None], int]] = [
    (edit_body, 6),
    (rewrite_front_matter, 4),
    (Site.add_post, 3),
    (delete_post, 2),
    (rename_post, 2),
    (edit_template, 2),
    (edit_static, 1),
    (edit_config, 1),
    (break_or_fix, 1),
]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Site, DevServer]]:
    site = Site(tmp_path / "site", random.Random(int(os.environ.get("POSTIL_SERVE_SEED", "13"))))
    with DevServer(ServeOptions(site.root, port=0)) as server:
        yield site, server


def wait_idle(server: DevServer, after: int, timeout: float = 20.0) -> None:
    """Wait for a build numbered above `after`, then until no build runs or follows for
    0.25 s (late file events of the same step start one more build)."""
    deadline = time.monotonic() + timeout
    while server.hub.view(timeout=0).build <= after and time.monotonic() < deadline:
        time.sleep(0.02)
    quiet_since, seen = time.monotonic(), server.hub.view(timeout=0).build
    while time.monotonic() - quiet_since < 0.25 and time.monotonic() < deadline:
        time.sleep(0.05)
        now = server.hub.view(timeout=0).build
        if server.batcher.busy or now != seen:
            quiet_since, seen = time.monotonic(), now
    assert time.monotonic() < deadline, "the dev server did not settle"


def fetch(server: DevServer, path: str) -> bytes:
    host, port = server.http.server_address[:2] if server.http else ("", 0)
    conn = http.client.HTTPConnection(str(host), int(port), timeout=30)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200, (path, response.status)
        return LIVE_RELOAD.sub(b"", body)
    finally:
        conn.close()


def fresh_build(root: Path, out: Path) -> tuple[dict[str, bytes] | None, list[str]]:
    """Build `root` afresh; return (files, warnings) or (None, errors)."""
    shutil.rmtree(out, ignore_errors=True)
    try:
        result = build(BuildOptions(root=root, out_dir=out, drafts=True, cache=False))
    except BuildFailed as e:
        return None, [str(d) for d in e.diagnostics]
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return files, [str(d) for d in result.warnings]


def compare(server: DevServer, root: Path, out: Path, step: str) -> bool:
    """Assert that the server serves what a fresh build writes; return whether it built."""
    files, reported = fresh_build(root, out)
    view = server.hub.view(timeout=0)
    if files is None:
        assert [str(d) for d in view.errors] == reported, step
        return False
    assert not view.errors, (step, view.errors)
    assert [str(d) for d in view.warnings] == reported, step
    assert sorted(view.files) == sorted(files), step
    base = view.base_path
    for rel, data in files.items():
        assert fetch(server, base + rel) == data, (step, rel)
    return True


def snapshot(root: Path) -> set[tuple[str, int, int]]:
    """Return (path, size, mtime) of every file of the site but its cache."""
    return {
        (p.relative_to(root).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
        if p.is_file() and ".postil-cache" not in p.parts
    }


def run_steps(served: tuple[Site, DevServer], tmp_path: Path, steps: int) -> None:
    site, server = served
    rng = site.rng
    kinds = [kind for kind, weight in STEP_KINDS for _ in range(weight)]
    compare(server, site.root, tmp_path / "out", "first build")
    built = 0
    for number in range(steps):
        kind = rng.choice(kinds)
        before, files = server.hub.view(timeout=0).build, snapshot(site.root)
        kind(site)
        if snapshot(site.root) == files:
            continue  # the step found nothing to change
        wait_idle(server, before)
        built += compare(server, site.root, tmp_path / "out", f"step {number}: {kind.__name__}")
    assert built >= steps // 2  # most steps leave a site that builds


def test_serve_serves_what_build_writes_after_every_random_step(served, tmp_path) -> None:
    run_steps(served, tmp_path, STEPS)


@pytest.mark.slow
def test_serve_matches_build_over_a_long_random_session(served, tmp_path) -> None:
    run_steps(served, tmp_path, 200)
