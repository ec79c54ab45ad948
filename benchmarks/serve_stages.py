#!/usr/bin/env python3
"""Where a dev server's rebuild spends its CPU until the edited post's page is handed over,
stage by stage, without a profiler (issue 20).

It copies SITE into --work (its `.postil-cache/` too: a warm first build when there is
one) and runs `serve_rebuild.py`'s loop (`DevBuild` as `postil serve`
runs it: a first build, `watching()`, then --edits appends to the middle post, each built
with the change set the watcher would give), with the thread's CPU clock
(`time.thread_time`) around the build's stages and the passes inside them that go over
every post. Only the time before the hand-over (`DevBuild.on_first`) is counted, per
edit; it prints each wrapper's median over the edits after the first two, in milliseconds
(inclusive: `render_posts` holds `_rendered_posts`), the median CPU until the hand-over
and what no wrapper holds (the rest of `run`, e.g. its published and upcoming lists).
A wrapper adds one clock read per call, unlike cProfile's charge on every call.

    .venv/bin/python benchmarks/serve_stages.py /tmp/psb/site-1000 --edits 30

Run it with another checkout's `src/` on PYTHONPATH for a before/after (interleave runs).
A function a checkout does not have is left out of its table.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import importlib
import json
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from postil.serve.app import GC_THRESHOLD
from postil.serve.engine import DevBuild
from postil.serve.watcher import ChangeSet

WRAPPED = [
    ("postil.build", "load_config"),
    ("postil.build", "load_posts"),
    ("postil.build", "site_assets"),
    ("postil.build", "_template_env"),
    ("postil.build", "markdown_keys"),
    ("postil.build", "load_bibliographies"),
    ("postil.build", "image_sizes"),
    ("postil.build", "render_posts"),
    ("postil.render", "_rendered_posts"),
    ("postil.build", "collect"),
    ("postil.build", "page_jobs"),
    ("postil.build", "check_anchors"),
    ("postil.build", "check_site"),
    ("postil.build", "generated_assets"),
    ("postil.build", "_content_keys"),
    ("postil.build", "_published"),
]

METHODS = [
    ("postil.cache.rows", "RenderedRows", "lookup"),
    ("postil.cache.rows", "RenderedRows", "prune"),
]


def _timed(spent: collections.Counter[str], label: str, function: Any) -> Any:
    """Return `function` wrapped so that its thread CPU time adds to `spent[label]`;
    a call inside another call of the same label is not counted twice."""
    depth = [0]

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        if depth[0]:
            return function(*args, **kwargs)
        depth[0] += 1
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth[0] -= 1
            spent[label] += time.thread_time() - started

    return timed


def wrap(spent: collections.Counter[str]) -> list[str]:
    """Wrap every function of `WRAPPED` and `METHODS` this postil has; return their labels."""
    labels = []
    for module_name, name in WRAPPED:
        module = importlib.import_module(module_name)
        if hasattr(module, name):
            setattr(module, name, _timed(spent, name, getattr(module, name)))
            labels.append(name)
    for module_name, cls_name, name in METHODS:
        cls = getattr(importlib.import_module(module_name), cls_name)
        label = f"{cls_name}.{name}"
        setattr(cls, name, _timed(spent, label, getattr(cls, name)))
        labels.append(label)
    return labels


def measure(root: Path, edits: int) -> dict[str, Any]:
    """Build `root` as a dev server does, edit one post `edits` times; return the medians."""
    spent: collections.Counter[str] = collections.Counter()
    labels = wrap(spent)
    builder = DevBuild(root)
    assert builder.build().ok, "the first build failed"
    builder.watching()
    assert builder.build(ChangeSet(content=set())).ok
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    posts = sorted((root / "content/posts").glob("*.md"))
    post = posts[len(posts) // 2].absolute()
    rows: list[dict[str, float]] = []
    totals: list[float] = []
    handed: list[tuple[float, dict[str, float]]] = []
    builder.on_first = lambda pages: handed.append((time.thread_time(), dict(spent)))
    for i in range(edits):
        handed.clear()
        post.write_text(post.read_text(encoding="utf-8") + f"\n\nEdit {i}.\n", encoding="utf-8")
        time.sleep(0.03)
        gc.collect(0)
        spent.clear()
        cpu0 = time.thread_time()
        report = builder.build(ChangeSet(content={post}, settled={post}))
        assert report.ok, report.errors
        if i >= 2 and handed:
            totals.append(handed[0][0] - cpu0)
            rows.append(handed[0][1])
    builder.close()
    medians = {
        label: round(statistics.median(row.get(label, 0.0) for row in rows) * 1e3, 2)
        for label in labels
    }
    top = [
        "load_config",
        "load_posts",
        "site_assets",
        "_template_env",
        "markdown_keys",
        "load_bibliographies",
        "image_sizes",
        "render_posts",
        "RenderedRows.prune",
        "collect",
        "page_jobs",
        "check_anchors",
        "check_site",
        "_content_keys",
        "_published",
    ]
    counted = statistics.median(
        sum(row.get(label, 0.0) for label in top if label in labels) for row in rows
    )
    until = statistics.median(totals)
    return {
        "edits counted": len(rows),
        "cpu until hand-over p50 ms": round(until * 1e3, 2),
        "not in a wrapper ms (approx.)": round((until - counted) * 1e3, 2),
        **medians,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path, help="a site to copy (content/, postil.yaml)")
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-stages-bench"))
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    shutil.copytree(args.site, args.work, ignore=shutil.ignore_patterns("_site"))
    found = measure(args.work, args.edits)
    for label, value in found.items():
        print(f"{label:>32}  {value}")
    print(json.dumps(found))


if __name__ == "__main__":
    main()
