"""Versions of postil on disk for the benchmark scripts: temporary git worktrees, run from
their own `src/` without installing them.

`identical.py` and `run.py --compare` use it: `checkout(spec, label, parent)` yields a
`Checkout` (this working tree, a directory, or a revision in a temporary worktree removed on
exit), `Checkout.env()` is the environment that runs its postil with this venv's libraries,
and `verify` proves that postil and its default theme come from that checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The checkout holding this script: the default head."""


class HarnessError(Exception):
    """A checkout or a build failed: the versions could not be compared."""


@dataclass(frozen=True)
class Checkout:
    """One version of postil on disk."""

    label: str
    """`base` or `head`, for messages and directory names."""
    root: Path
    """The checkout's top directory (holding `src/postil/`)."""
    described: str
    """What was checked out, for the summary: a revision and its commit, or a directory."""

    def env(self) -> dict[str, str]:
        """Return the environment that runs this checkout's postil: its `src/` first."""
        return dict(os.environ, PYTHONPATH=str(self.root / "src"))


def git(*args: str) -> str:
    """Run git in this repository; return its stripped stdout. Raises HarnessError on failure."""
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise HarnessError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip()


@contextmanager
def worktree(rev: str, label: str, parent: Path) -> Iterator[Checkout]:
    """Check `rev` out into a detached temporary worktree under `parent`; remove it on exit.

    Raises HarnessError if `rev` names no commit or the worktree cannot be added.
    """
    try:
        commit = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except HarnessError:
        raise HarnessError(f"{rev!r} names no commit in {REPO}") from None
    path = parent / f"{label}-checkout"
    git("worktree", "add", "--detach", "--quiet", str(path), commit)
    try:
        yield Checkout(label, path, f"{rev} ({commit[:10]})")
    finally:
        try:
            git("worktree", "remove", "--force", str(path))
        except HarnessError:
            shutil.rmtree(path, ignore_errors=True)
            git("worktree", "prune")


@contextmanager
def checkout(spec: str | None, label: str, parent: Path) -> Iterator[Checkout]:
    """Yield the checkout `spec` names: None is this working tree, a directory is used as it
    is, anything else is a revision checked out by `worktree`."""
    if spec is None:
        yield Checkout(label, REPO, f"working tree {REPO}")
    elif Path(spec).is_dir():
        yield Checkout(label, Path(spec).resolve(), f"directory {Path(spec).resolve()}")
    else:
        with worktree(spec, label, parent) as made:
            yield made


def verify(version: Checkout) -> None:
    """Check that `version` imports its own postil and uses its own default theme.

    Raises HarnessError naming the directory that would be used instead.
    """
    probe = (
        "import postil, postil.theme; "
        "print(postil.__file__); print(postil.theme.default_theme_dir())"
    )
    command = [sys.executable, "-c", probe]
    done = subprocess.run(
        command, env=version.env(), cwd=version.root, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise HarnessError(f"{version.label}: cannot import postil: {done.stderr.strip()}")
    for used in done.stdout.split("\n")[:2]:
        if not Path(used).resolve().is_relative_to(version.root.resolve()):
            raise HarnessError(f"{version.label}: runs {used}, outside {version.root}")
