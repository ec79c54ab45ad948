#!/usr/bin/env python3
"""Measure the stack's floor: what the libraries alone take per post, with none of postil.

    .venv/bin/python benchmarks/floor.py                  # 200 posts of the --unique-math corpus
    .venv/bin/python benchmarks/floor.py --posts 500 --runs 5

It renders each post's body with markdown-it-py (CommonMark, tables, mdit-py-plugins'
dollarmath and footnotes), every formula with latex2mathml's `convert` and every fence with
Pygments' `highlight` (an `HtmlFormatter`, the lexer looked up by name): the work no
Markdown-to-HTML build on this stack can skip, and none of postil's own (MathML fixes,
sidenotes, captions, summaries, pages, output). It prints the best of `--runs` of the mean
milliseconds per post, one process. A build of N posts on P processes cannot take less
than N × floor / P on this machine; `docs/performance.md` compares it with Hugo.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from run import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-bench"))
    args = parser.parse_args()

    from latex2mathml.converter import convert
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    formatter = HtmlFormatter()

    def fence(code: str, language: str, attrs: str) -> str:
        return highlight(code, get_lexer_by_name(language or "text"), formatter)

    def formula(latex: str, options: dict[str, object]) -> str:
        return convert(latex, display="block" if options.get("display_mode") else "inline")

    md = MarkdownIt("commonmark", {"highlight": fence}).enable("table")
    md.use(dollarmath_plugin, renderer=formula).use(footnote_plugin)
    site = generate(args.work, args.posts, "postil")
    paths = sorted((site / "content" / "posts").glob("*.md"))[: args.posts]
    bodies = [path.read_text("utf-8").split("---\n", 2)[2] for path in paths]
    for body in bodies[:5]:  # lexers and converters warm, as in a long build
        md.render(body)
    best = float("inf")
    for _ in range(args.runs):
        started = time.perf_counter()
        for body in bodies:
            md.render(body)
        best = min(best, (time.perf_counter() - started) / len(bodies) * 1000)
    print(f"stack floor: {best:.2f} ms per post ({len(bodies)} posts, best of {args.runs})")


if __name__ == "__main__":
    main()
