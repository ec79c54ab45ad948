#!/usr/bin/env python3
"""What postil's Markdown plugins add to markdown-it's own parse of one post (issue 20).

It times, in CPU milliseconds (`time.thread_time`, minimum and median of --runs), the parse
of POST's body by markdown-it's "commonmark" preset with tables and strikethrough (what
postil's parser starts from) and by postil's parser (`create_markdown`), and postil's
whole `render_markdown` with warm math and highlighting caches (a dev server's edit: the
post's formulas and code come from its conversions); then every rule of postil's plugins,
each wrapped in a timer (the timer's own cost, measured on an empty function, taken
off), per parse, with its number of calls. markdown-it's own rules and the core
`block`/`inline` passes are left out of that table.

    .venv/bin/python benchmarks/markdown_rules.py /tmp/psb/posts-1000/content/posts/00500.md
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState, SourceLines
from postil.math import MathCache


def cpu_ms(work: Callable[[], object], runs: int) -> tuple[float, float]:
    """Return the minimum and median CPU milliseconds of `runs` calls of `work`."""
    times = []
    for _ in range(runs):
        started = time.thread_time()
        work()
        times.append(time.thread_time() - started)
    return min(times) * 1e3, statistics.median(times) * 1e3


def rulers(md: MarkdownIt) -> list[tuple[str, Any]]:
    return [
        ("core", md.core.ruler),
        ("block", md.block.ruler),
        ("inline", md.inline.ruler),
        ("inline2", md.inline.ruler2),
    ]


def time_rules(md: MarkdownIt, parse: Callable[[], object], runs: int) -> dict[str, tuple]:
    """Return each rule's (CPU ms per parse, calls per parse), by "ruler:name"."""
    spent: defaultdict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()

    def timed(name: str, rule: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            started = time.thread_time()
            try:
                return rule(*args)
            finally:
                spent[name] += time.thread_time() - started
                calls[name] += 1

        return run

    noop = timed("noop", lambda: None)
    for _ in range(20_000):
        noop()
    overhead = spent.pop("noop") / calls.pop("noop")  # the timer's own cost, a call
    for kind, ruler in rulers(md):
        for rule in ruler.__rules__:
            rule.fn = timed(f"{kind}:{rule.name}", rule.fn)
        ruler.__cache__ = None
    for _ in range(runs):
        parse()
    return {
        name: ((spent[name] - calls[name] * overhead) / runs * 1e3, calls[name] // runs)
        for name in spent
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("post", type=Path, help="a post (front matter, then Markdown)")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    text = args.post.read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[1] if text.startswith("---") else text
    md = create_markdown()
    plain = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    math_cache: MathCache = MathCache()
    highlight: dict[tuple[Any, ...], str] = {}

    def state() -> RenderState:
        made = RenderState(path="post.md", math_cache=math_cache, highlight_cache=highlight)
        made.source_lines = SourceLines(body)
        return made

    render_markdown(md, body, state())  # the conversions, as an edit finds them
    rows = {
        "markdown-it (commonmark, table, strikethrough) parse": cpu_ms(
            lambda: plain.parse(body), args.runs
        ),
        "postil parse": cpu_ms(lambda: md.parse(body, {"postil": state()}), args.runs),
        "postil render_markdown": cpu_ms(lambda: render_markdown(md, body, state()), args.runs),
    }
    print(f"{len(body):,} characters")
    for name, (low, median) in rows.items():
        print(f"{name:54s} min {low:6.2f} ms   median {median:6.2f} ms")
    own = {rule.name for _, ruler in rulers(plain) for rule in ruler.__rules__}
    timed = time_rules(md, lambda: md.parse(body, {"postil": state()}), args.runs)
    ours = {k: v for k, v in timed.items() if k.split(":", 1)[1] not in own | {"block", "inline"}}
    print("rules of postil's plugins, per parse:")
    for name, (ms, calls) in sorted(ours.items(), key=lambda item: -item[1][0]):
        print(f"  {name:34s} {ms:6.2f} ms  {calls:5d} calls")
    print(f"  {'all':34s} {sum(ms for ms, _ in ours.values()):6.2f} ms")


if __name__ == "__main__":
    main()
