"""postil as a user installs it: its wheel, a fresh virtualenv, and a GitHub workflow's
`run:` steps executed in order, as a runner would, with their `${{ … }}` expressions
substituted."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from collections.abc import Mapping
from pathlib import Path

from support.web import REPO_ROOT

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
STEP_OUTPUT = re.compile(r"steps\.([\w-]+)\.outputs\.([\w-]+)")


def build_wheel(out_dir: Path) -> Path:
    """Build postil's wheel from this checkout with `python -m build` (as pip would, in an
    isolated environment) into `out_dir`; return the wheel's path."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out_dir), str(REPO_ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (wheel,) = out_dir.glob("postil-*.whl")
    return wheel


def fresh_venv(path: Path) -> Path:
    """Make an empty virtualenv (pip only) at `path`; return its `bin` directory."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin"


def venv_env(bin_dir: Path, **extra: str) -> dict[str, str]:
    """Return this process's environment with `bin_dir` first on PATH and no trace of the
    test's own virtualenv or Python path, so commands find the fresh one's `python`."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    return env | extra


def substitute(command: str, outputs: Mapping[str, Mapping[str, str]]) -> str:
    """Replace each `${{ steps.<id>.outputs.<name> }}` in `command` with its value.

    Raises:
        AssertionError: another expression, or an output no earlier step set: the test
            must say what a runner would put there, not guess.
    """

    def value(match: re.Match[str]) -> str:
        found = STEP_OUTPUT.fullmatch(match[1])
        assert found, f"no stand-in for the expression {match[0]!r} in {command!r}"
        step, name = found.groups()
        assert name in outputs.get(step, {}), f"{match[0]}: no earlier step set it"
        return outputs[step][name]

    return EXPRESSION.sub(value, command)


def run_steps(
    steps: list[dict],
    cwd: Path,
    env: Mapping[str, str],
    action_outputs: Mapping[str, Mapping[str, str]],
    timeout: float = 900,
) -> dict[str, dict[str, str]]:
    """Run the `run:` steps of a job in order in `cwd`, as GitHub's runner does: each with
    `bash --noprofile --norc -eo pipefail`, `GITHUB_OUTPUT` a file whose `name=value` lines
    become that step's outputs. A `uses:` step is skipped; its outputs come from
    `action_outputs` (by step id). Return every step's outputs.

    Raises:
        AssertionError: a step failed (with its output).
    """
    outputs: dict[str, dict[str, str]] = {k: dict(v) for k, v in action_outputs.items()}
    for number, step in enumerate(steps):
        if "run" not in step:
            continue
        command = substitute(step["run"], outputs)
        github_output = cwd.parent / f"github-output-{number}"
        github_output.write_text("")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command],
            cwd=cwd,
            env=dict(env, GITHUB_OUTPUT=str(github_output)),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"step {step.get('name')!r} failed:\n{done.stderr[-4000:]}"
        if "id" in step:
            lines = github_output.read_text().splitlines()
            outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
    return outputs
