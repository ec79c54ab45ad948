"""Compare two checkouts' Markdown stage on normal posts, in one process, interleaved (issue 19).

Usage:
    python benchmarks/markdown_ab.py BASE_SRC --corpus DIR [--rounds N] [--posts K]

`BASE_SRC` is the `src` folder of another checkout (the commit to compare with); the other
side is the `postil` this interpreter imports. Both `render_markdown`s are loaded side by
side (the base's modules are imported first, then dropped from `sys.modules` so the current
ones import fresh). Each round renders every post of `DIR/posts` (a corpus of
`../shared/bench/gen_corpus.py`) with the base, then with the current checkout, each post
with a fresh `RenderState` and no math cache (every formula converted, as in a cold build):
a load that comes and goes on a shared machine falls on both alike. Prints the median over
rounds of each side's CPU ms a post (process time) and how many posts' `RenderedMarkdown`
are the same on both sides, in every field and in their HTML (a change that means to alter
output, or adds a field, is still timed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Render = Callable[[str], Any]


def _load(src: Path | None) -> Render:
    """Import `postil.markdown` (from `src` when given); return a one-post renderer."""
    if src is not None:
        sys.path.insert(0, str(src))
    for name in [m for m in sys.modules if m == "postil" or m.startswith("postil.")]:
        del sys.modules[name]
    from postil.markdown import create_markdown, render_markdown
    from postil.markdown.state import RenderState

    if src is not None:
        sys.path.remove(str(src))
    md = create_markdown()
    return lambda body: render_markdown(md, body, RenderState(path="post.md", body_line=5))


def _fields(rendered: Any) -> str:
    """Return every field of a `RenderedMarkdown` as text (the two sides' classes differ)."""
    return repr({k: v for k, v in rendered.__dict__.items() if k != "load_html"})


def _round(render: Render, bodies: list[str]) -> tuple[float, list[tuple[str, bytes]]]:
    """Render every body; return the CPU seconds taken and each result's fields and HTML."""
    start = time.process_time()
    results = [render(body) for body in bodies]
    return time.process_time() - start, [(_fields(r), r.html_utf8) for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", type=Path, help="the other checkout's src folder")
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--posts", type=int, default=100)
    args = parser.parse_args()
    paths = sorted((args.corpus / "posts").glob("*.md"))[: args.posts]
    if not paths:
        parser.error(f"no posts in {args.corpus / 'posts'}: give a corpus's content folder")
    bodies = [path.read_text("utf-8").split("\n---\n", 1)[1] for path in paths]
    sides = {"base": _load(args.base.resolve()), "current": _load(None)}
    times: dict[str, list[float]] = {name: [] for name in sides}
    outputs: dict[str, list[tuple[str, bytes]]] = {}
    for _ in range(args.rounds):
        for name, render in sides.items():
            seconds, outputs[name] = _round(render, bodies)
            times[name].append(seconds)
    for name, found in times.items():
        per_post = [1000 * s / len(bodies) for s in found]
        spread = f"{min(per_post):.2f}-{max(per_post):.2f}"
        print(f"{name:8} median {statistics.median(per_post):.2f} ms a post (range {spread})")
    ratio = statistics.median(times["current"]) / statistics.median(times["base"])
    pairs = list(zip(outputs["base"], outputs["current"], strict=True))
    same = sum(base[0] == current[0] for base, current in pairs)
    same_html = sum(base[1] == current[1] for base, current in pairs)
    print(
        f"current/base {ratio:.3f} over {len(bodies)} posts, {args.rounds} rounds; "
        f"{same} identical in every field, {same_html} with identical HTML"
    )


if __name__ == "__main__":
    main()
