#!/usr/bin/env python3
"""Where a cold build's CPU goes, stage by stage, without a profiler (issue 20).

    .venv/bin/python benchmarks/stages.py SITE [--jobs 1]

Runs `postil build --no-cache -j JOBS` on SITE in this process, with a CPU clock
(`time.process_time`, this process only: use `--jobs 1`, the default, so every post renders
here) around the build's stages and the calls inside them that cost the most: the Markdown
of each post, its formulas (`latex_to_mathml`), its code blocks (Pygments through
`highlight_code`), its summary, and each page (`render_job`). A profiler multiplies the cost
of postil's many small calls (cProfile ≈ 3-4×, pyinstrument less) and so shifts the shares;
these wrappers add one clock read per call. Prints CPU seconds and milliseconds per post for
each, inclusive (a post's formulas are inside its Markdown), and what no stage holds:
start-up, imports, collecting the site.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import time
from pathlib import Path
from typing import Any

WRAPPED = [
    ("postil.build", "load_posts", "front matter and posts"),
    ("postil.build", "render_posts", "Markdown stage (all posts)"),
    ("postil.markdown", "render_markdown", "  render_markdown"),
    ("postil.markdown.mathdoc", "latex_to_mathml", "    math: latex_to_mathml"),
    ("postil.markdown.code", "highlight_code", "    code: highlight_code"),
    ("postil.markdown", "summary_html", "    summary_html"),
    ("postil.build", "write_directory", "pages and output (write_directory)"),
    ("postil.pages", "render_job", "  page jobs (render_job)"),
]


def _wrap(spent: collections.Counter[str], module: str, name: str, label: str) -> None:
    """Replace `module.name` by a wrapper that adds its CPU time to `spent[label]`."""
    owner = importlib.import_module(module)
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - started

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--jobs", default="1")
    args = parser.parse_args()
    started = time.process_time()
    from postil import cli

    spent: collections.Counter[str] = collections.Counter()
    for module, name, label in WRAPPED:
        _wrap(spent, module, name, label)
    cli.main(["-C", str(args.site), "build", "--no-cache", "-j", args.jobs])
    total = time.process_time() - started
    posts = len(list((args.site / "content").rglob("*.md"))) or 1
    outer = spent["Markdown stage (all posts)"] + spent["pages and output (write_directory)"]
    rows = [(label, spent[label]) for _, _, label in WRAPPED]
    rows += [("the rest (start-up, imports, collect)", total - outer - spent[WRAPPED[0][2]])]
    print(f"{'whole build':40s} {total:7.2f} s CPU {total / posts * 1e3:7.2f} ms a post")
    for label, seconds in rows:
        print(f"{label:40s} {seconds:7.2f} s     {seconds / posts * 1e3:7.2f} ms a post")


if __name__ == "__main__":
    main()
