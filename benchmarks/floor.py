#!/usr/bin/env python3
"""Measure the stack's floor: what the libraries alone take per post, with none of postil.

    .venv/bin/python benchmarks/floor.py                  # 200 posts of the --unique-math corpus
    .venv/bin/python benchmarks/floor.py --posts 500 --runs 5
    .venv/bin/python benchmarks/floor.py --site SITE --jobs 2   # once, N processes (run.py)

It renders each post's body with markdown-it-py (CommonMark, tables, mdit-py-plugins'
dollarmath and footnotes), every formula with latex2mathml's `convert` and every fence with
Pygments' `highlight` (an `HtmlFormatter`, the lexer looked up by name): the work no
Markdown-to-HTML build on this stack can skip, and none of postil's own (MathML fixes,
sidenotes, captions, summaries, pages, output). It prints the best of `--runs` of the mean
milliseconds per post, one process. A build of N posts on P processes cannot take less
than N × floor / P on this machine; `docs/performance.md` compares it with Hugo.

With `--site`, it renders every post under SITE/content once, on `--jobs` forked processes,
and writes each page's HTML under SITE/_floor/: what `benchmarks/run.py --tools floor` times
as a whole process (start-up and imports included, as Hugo's and postil's are), so the
libraries' own share of a build is measured in the same interleaved run as the peers.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path
from typing import Any

from run import generate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-bench"))
    parser.add_argument("--site", type=Path, help="render this site's posts once, then stop")
    parser.add_argument("--jobs", type=int, default=1, help="processes for --site")
    args = parser.parse_args()
    md = make_renderer()
    if args.site:
        render_site(md, args.site, args.jobs)
        return
    site = generate(args.work, args.posts, "postil")
    paths = sorted((site / "content" / "posts").glob("*.md"))[: args.posts]
    bodies = [_body(path) for path in paths]
    for body in bodies[:5]:  # lexers and converters warm, as in a long build
        md.render(body)
    best = float("inf")
    for _ in range(args.runs):
        started = time.perf_counter()
        for body in bodies:
            md.render(body)
        best = min(best, (time.perf_counter() - started) / len(bodies) * 1000)
    print(f"stack floor: {best:.2f} ms per post ({len(bodies)} posts, best of {args.runs})")


def make_renderer() -> Any:
    """Return markdown-it-py with the stack's plugins, latex2mathml for math, Pygments for
    fences: the renderer both modes time."""
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
    return md.use(dollarmath_plugin, renderer=formula).use(footnote_plugin)


def _body(path: Path) -> str:
    """Return the Markdown of the post at `path`, without its front matter."""
    return path.read_text("utf-8").split("---\n", 2)[2]


_RENDERER: Any = None


def _render_files(paths: list[Path]) -> None:
    """Render each post in `paths` (in a worker) and write its HTML under SITE/_floor/."""
    for path in paths:
        html = _RENDERER.render(_body(path))
        out = path.parents[2] / "_floor" / path.relative_to(path.parents[1]).with_suffix(".html")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")


def render_site(md: Any, site: Path, jobs: int) -> None:
    """Render every post of `site` once on `jobs` forked processes (chunks of 16 posts)."""
    global _RENDERER
    _RENDERER = md
    paths = sorted((site / "content").rglob("*.md"))
    chunks = [paths[i : i + 16] for i in range(0, len(paths), 16)]
    if jobs <= 1:
        for chunk in chunks:
            _render_files(chunk)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(_render_files, chunks, chunksize=1)


if __name__ == "__main__":
    main()
