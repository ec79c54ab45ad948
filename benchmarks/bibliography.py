#!/usr/bin/env python3
"""Measure what a big `.bib` file costs a warm build (issue 18's target: ≤ 50 ms for 2,000).

    .venv/bin/python benchmarks/bibliography.py                  # 2,000 entries, 40 posts
    .venv/bin/python benchmarks/bibliography.py --entries 5000 --posts 100 --runs 15

Two sites with the same posts (each citing three works) are built once, then rebuilt warm
(nothing changed) `--runs` times each, interleaved, in this process (`postil.build.build`
with the site's cache, the way `postil build` runs it, without the interpreter's start-up):

- small: the site's `.bib` holds only the works the posts cite;
- big: the same works plus filler entries up to `--entries`, with the hazards of real files
  (accents, braces, `and others`, math in titles).

The difference of the medians is what the big file adds to a warm build. It also times the
bibliography stage alone (`load_bibliographies`, warm: read, hash, unpickle) and one cold
parse of the big file (`read_bib`). Not a unit test: nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from postil.bibliography.load import load_bibliographies  # noqa: E402
from postil.bibliography.read import read_bib  # noqa: E402
from postil.build import BuildOptions, build  # noqa: E402
from postil.cache.store import BuildCache  # noqa: E402
from postil.config import load_config  # noqa: E402


def entry(i: int) -> str:
    """Return one messy entry with key `w<i>`."""
    return (
        f'@article{{w{i},\n  author = {{M{{\\"u}}ller, Hans and Fran{{\\c c}}ois, Jean-Pierre '
        f"and others}},\n  title = {{On {{SGD}} and $\\alpha$-divergences, part {i}}},\n"
        f"  journal = {{Journal of Things}},\n  volume = {i % 40}, pages = {{{i}--{i + 9}}},\n"
        f"  year = {1990 + i % 35},\n  doi = {{10.1000/{i}}}\n}}\n\n"
    )


def make(root: Path, posts: int, entries: int) -> Path:
    """Write a site of `posts` posts citing works w0…w(3·posts−1) and a `.bib` of `entries`."""
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(
        "title: B\nauthor: A\nbase_url: https://example.org/\nbibliography: refs.bib\n"
    )
    for n in range(posts):
        keys = [f"w{3 * n + k}" for k in range(3)]
        body = f"Text [@{keys[0]}; @{keys[1]}, p. 3] and @{keys[2]}.\n"
        text = f"---\ntitle: Post {n}\ndate: 2024-01-{n % 28 + 1:02d}\n---\n{body}"
        (root / f"content/posts/p{n}.md").write_text(text)
    count = max(entries, 3 * posts)
    (root / "refs.bib").write_text("".join(entry(i) for i in range(count)))
    return root


def warm(root: Path) -> float:
    """Return the seconds of one warm build of `root` (nothing changed)."""
    started = time.perf_counter()
    result = build(BuildOptions(root=root, workers=1))
    assert result.rendered == 0, "a warm build renders nothing"
    return time.perf_counter() - started


def stage(root: Path) -> float:
    """Return the seconds of the bibliography stage alone, warm."""
    config = load_config(root)
    cache = BuildCache.open(root)
    try:
        started = time.perf_counter()
        load_bibliographies(config, [], cache)
        return time.perf_counter() - started
    finally:
        cache.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--posts", type=int, default=40)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small = make(Path(tmp) / "small", args.posts, 0)
        big = make(Path(tmp) / "big", args.posts, args.entries)
        data = (big / "refs.bib").read_bytes()
        started = time.perf_counter()
        read_bib(data, "refs.bib")
        cold = time.perf_counter() - started
        for site in (small, big):
            build(BuildOptions(root=site, workers=1))
            warm(site)  # the second build settles the spare output tree
        times: dict[str, list[float]] = {"small": [], "big": []}
        stages = []
        for _ in range(args.runs):
            times["small"].append(warm(small))
            times["big"].append(warm(big))
            stages.append(stage(big))
    med = {name: statistics.median(values) * 1000 for name, values in times.items()}
    print(
        f"posts: {args.posts}, entries: {args.entries} ({len(data) / 1024:.0f} KiB), "
        f"runs: {args.runs}"
    )
    print(f"cold parse of the big .bib (read_bib): {cold * 1000:.0f} ms")
    print(f"warm build, small .bib: {med['small']:.1f} ms (median)")
    print(f"warm build, big .bib:   {med['big']:.1f} ms (median)")
    print(f"added by the big .bib:  {med['big'] - med['small']:.1f} ms")
    print(f"bibliography stage alone, warm: {statistics.median(stages) * 1000:.1f} ms (median)")


if __name__ == "__main__":
    main()
