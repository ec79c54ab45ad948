#!/usr/bin/env python3
"""Check that two versions of postil write byte-identical sites; exit 1 on any difference.

    .venv/bin/python benchmarks/identical.py --base 27653fc       # against the working tree
    .venv/bin/python benchmarks/identical.py --base main --head HEAD --posts 300
    .venv/bin/python benchmarks/identical.py --base main --head ../other-checkout

`--base` (a revision) and `--head` (a revision, or the directory of a checkout; default: this
working tree, uncommitted changes included) are checked out into temporary `git worktree`s,
removed afterwards even when a build fails or the run is interrupted. Each version runs from
its own checkout, never installed: `PYTHONPATH=<checkout>/src python -m postil`, with this
venv's third-party libraries. Before building, each checkout is asked where `postil` and its
default theme come from, and the run stops unless both are inside that checkout (an
installed or editable copy of another version would otherwise render with its templates).

Two sites are built by each version, each in its own copy (so caches never mix):

- the example site of the version's checkout (`postil.yaml`, `content/`, `templates/`,
  `static/` copied from its root; a note is printed when the inputs differ between versions);
- a corpus of `--posts` posts from `../shared/bench/gen_corpus.py --unique-math --seed SEED`,
  generated once and copied for both versions.

The base builds with `--no-cache`; the head builds with `--no-cache`, then twice into one
output directory with its cache (cold, then warm: the writer's steady state). Each head
output is compared with the base output file by file, byte for byte, and as sets of paths.
Builds embed no clock (feeds take the newest post's date), so two builds of one version are
identical and nothing needs pinning. Exit codes: 0 identical, 1 a difference, 2 a build or
checkout failure. Standard library only.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from checkouts import REPO, Checkout, HarnessError, checkout, verify

GEN = REPO.parent / "shared" / "bench" / "gen_corpus.py"
CORPUS_YAML = "title: Bench\nauthor: Bench\nbase_url: https://example.org/\n"
EXAMPLE_SITE = ("postil.yaml", "content", "templates", "static")
"""What the example site at a checkout's root consists of."""
SHOWN = 60
"""Characters of context shown either side of a first difference."""


def copy_example(version: Checkout, dest: Path) -> Path:
    """Copy the example site at the root of `version` into `dest`; return `dest`."""
    dest.mkdir(parents=True)
    for name in EXAMPLE_SITE:
        source = version.root / name
        if source.is_dir():
            shutil.copytree(source, dest / name)
        elif source.is_file():
            shutil.copy2(source, dest / name)
    return dest


def generate_corpus(dest: Path, posts: int, seed: int) -> Path:
    """Write a postil site of `posts` generated posts into `dest`; return `dest`."""
    if not GEN.is_file():
        raise HarnessError(f"{GEN} is missing; ../shared/ is laid beside the checkout")
    command = [sys.executable, str(GEN), str(dest), "--posts", str(posts), "--seed", str(seed)]
    subprocess.run([*command, "--unique-math", "--flavor", "neutral"], check=True)
    (dest / "content").mkdir()
    (dest / "posts").rename(dest / "content" / "posts")
    (dest / "postil.yaml").write_text(CORPUS_YAML, encoding="utf-8")
    return dest


def build(version: Checkout, site: Path, out: Path, cache: bool) -> None:
    """Build `site` into `out` with the postil of `version`. Raises HarnessError on failure."""
    command = [sys.executable, "-m", "postil", "-C", str(site), "build", "--out", str(out)]
    if not cache:
        command.append("--no-cache")
    done = subprocess.run(command, env=version.env(), cwd=site, capture_output=True, text=True)
    if done.returncode != 0:
        raise HarnessError(
            f"{version.label} build of {site} exited {done.returncode}:\n{done.stderr[-3000:]}"
        )


def tree_files(root: Path) -> dict[str, Path]:
    """Return every file under `root` (hidden ones too) by its `/`-separated relative path."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() or path.is_symlink()
    }


def first_difference(a: bytes, b: bytes) -> str:
    """Describe where `a` and `b` first differ: line and column (1-based, in bytes) and each
    side's text around that point. Returns "" when they are equal."""
    if a == b:
        return ""
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    line_start = a.rfind(b"\n", 0, at) + 1
    line = a.count(b"\n", 0, at) + 1
    sides = f"\n      base: {_excerpt(a, at)}\n      head: {_excerpt(b, at)}"
    return f"line {line}, column {at - line_start + 1}:{sides}"


def _excerpt(data: bytes, at: int) -> str:
    """Return the text of `data`'s line around byte `at`, at most SHOWN bytes each side."""
    start = max(data.rfind(b"\n", 0, at) + 1, at - SHOWN)
    end = data.find(b"\n", at)
    end = min(len(data) if end < 0 else end, at + SHOWN)
    text = data[start:end].decode("utf-8", "replace")
    return repr(text) if at < len(data) else repr(text) + " (end of file)"


def compare_trees(base: Path, head: Path) -> tuple[int, list[str]]:
    """Compare two output trees byte for byte.

    Returns (files compared, differences): each difference is one message, `only in base:
    REL`, `only in head: REL` or `differs: REL, <first_difference>`, in path order.
    """
    base_files, head_files = tree_files(base), tree_files(head)
    problems = []
    for rel in sorted(base_files.keys() | head_files.keys()):
        if rel not in head_files:
            problems.append(f"only in base: {rel}")
        elif rel not in base_files:
            problems.append(f"only in head: {rel}")
        else:
            where = first_difference(base_files[rel].read_bytes(), head_files[rel].read_bytes())
            if where:
                problems.append(f"differs: {rel}, {where}")
    return len(base_files.keys() & head_files.keys()), problems


def report(name: str, base: Path, head: Path) -> int:
    """Compare `base` with `head`, print one summary line and the differences; return their
    number."""
    compared, problems = compare_trees(base, head)
    verdict = "identical" if not problems else f"{len(problems)} DIFFERENCES"
    print(f"  {name}: {compared} files compared, {verdict}", flush=True)
    for problem in problems[:50]:
        print(f"    {problem}")
    if len(problems) > 50:
        print(f"    … and {len(problems) - 50} more")
    return len(problems)


def check_site(name: str, sites: dict[str, Path], versions: dict[str, Checkout], out: Path) -> int:
    """Build one site with both versions, compare the head's builds with the base's; return
    the number of differences."""
    out = out / name.replace(" ", "-")
    base_out = out / "base"
    build(versions["base"], sites["base"], base_out, cache=False)
    build(versions["head"], sites["head"], out / "head-nocache", cache=False)
    print(f"{name}:")
    found = report("head --no-cache", base_out, out / "head-nocache")
    cached = out / "head-cached"
    build(versions["head"], sites["head"], cached, cache=True)
    found += report("head with cache, cold", base_out, cached)
    build(versions["head"], sites["head"], cached, cache=True)
    return found + report("head with cache, warm", base_out, cached)


def run(args: argparse.Namespace, work: Path) -> int:
    """Check out both versions, build both sites with each, compare; return the exit code."""
    with ExitStack() as stack:
        versions = {
            "base": stack.enter_context(checkout(args.base, "base", work)),
            "head": stack.enter_context(checkout(args.head, "head", work)),
        }
        for version in versions.values():
            verify(version)
            print(f"{version.label}: {version.described}")
        examples = {k: copy_example(v, work / f"example-{k}") for k, v in versions.items()}
        inputs = compare_trees(examples["base"], examples["head"])[1]
        if inputs:
            print(f"note: the example site's sources differ ({len(inputs)} files)")
        corpus = generate_corpus(work / "corpus", args.posts, args.seed)
        corpora = {k: Path(shutil.copytree(corpus, work / f"corpus-{k}")) for k in versions}
        found = check_site("example site", examples, versions, work / "out")
        found += check_site(f"corpus of {args.posts} posts", corpora, versions, work / "out")
    print("identical" if not found else f"{found} differences")
    return 1 if found else 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="revision to compare against")
    parser.add_argument("--head", help="revision or checkout directory (default: working tree)")
    parser.add_argument("--posts", type=int, default=300, help="posts in the generated corpus")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated corpus")
    parser.add_argument("--keep", action="store_true", help="keep the outputs (not worktrees)")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    # SIGTERM unwinds like Ctrl-C, so the worktrees are removed on every way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="postil-identical-"))
    try:
        return run(args, work)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        if args.keep:
            print(f"outputs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
