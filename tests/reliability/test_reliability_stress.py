"""Markdown and math under stress: each input builds or fails with `path:line:col: message`,
in a subprocess with a time limit — never a traceback, never a hang.

Each case prints its wall time (`pytest -s` shows them); the limits are generous multiples of
what a laptop needs, so CI catches a hang or a quadratic blow-up, not a slow machine.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.slow  # each case is a subprocess build of a huge input

HEAD = "---\ntitle: Stress\ndate: 2024-01-01\n---\n"
LOCATED = re.compile(r"^content/posts/p\.md:\d+:\d+: ")

# name -> (body, expected outcome: "ok", or the start of the first located message, seconds)
CASES: dict[str, tuple[str, str, float]] = {
    "blockquotes-10000-deep": (">" * 10_000 + " deep\n", "nested more than 100 levels", 30),
    "lists-10000-deep": ("- " * 10_000 + "deep\n", "nested more than 100 levels", 30),
    "lists-40-deep-kept": ("- " * 40 + "kept\n", "ok", 30),
    "indented-lists-2000-deep": (
        "".join("  " * i + "- a\n" for i in range(2000)),
        "nested more than 100 levels",
        60,
    ),
    "line-of-2-MB": ("word " * 400_000 + "\n", "ok", 60),
    "line-of-2-MB-no-spaces": ("x" * 2_000_000 + "\n", "ok", 60),
    "post-of-5-MB": (
        "Some *text* with `code`, a [link](https://x.org/) and $x^2$ math.\n\n" * 75_000,
        "ok",
        240,
    ),
    "10000-formulas": (" ".join(f"$x_{{{i}}}^2$" for i in range(10_000)) + "\n", "ok", 90),
    "5000-unmatched-dollars": ("$a " * 5000 + "\n", "ok", 60),
    "5000-dollar-signs": ("$" * 5000 + "\n", "ok", 60),
    "display-math-never-closed": ("$$\n" + "x+y\n" * 100, "warning: `$$` opens display", 30),
    "inline-double-dollar-never-closed": ("text $$ x + y\n\nmore\n", "ok", 30),
    "note-defined-never-referenced": ("Text.\n\n[^a]: unused\n", "warning: note [^a] is def", 30),
    "note-referenced-never-defined": ("Text[^a].\n", "warning: note [^a] is referenced", 30),
    "500-notes-chained": (
        "".join(f"[^{i}]: [^{i + 1}] note\n\n" for i in range(500)) + "x[^0]\n",
        "warning: note [^500] is referenced",
        60,
    ),
    "code-fence-never-closed": ("```python\nx = 1\n", "warning: code fence ``` is never", 30),
    "math-fence-never-closed": ("```math\nx = 1\n", "warning: code fence ``` is never", 30),
    "50000-nested-emphasis": ("*" * 50_000 + "a" + "*" * 50_000 + "\n", "ok", 60),
    "50000-nested-brackets": ("[" * 50_000 + "a" + "]" * 50_000 + "\n", "ok", 60),
    "5000-nested-links": ("[a](" * 5000 + "x" + ")" * 5000 + "\n", "ok", 60),
    "5000-nested-braces-in-math": (
        "$" + "{" * 5000 + "x" + "}" * 5000 + "$\n",
        "warning: cannot parse the formula: it nests groups",
        30,
    ),
    "2000-nested-fractions": (
        "$$" + "\\frac{" * 2000 + "x" + "}{y}" * 2000 + "$$\n",
        "warning: cannot parse the formula: it nests groups",
        30,
    ),
    "20000-equal-headings": ("## Notes\n\n" * 20_000, "ok", 90),
    "5000-notes": ("".join(f"x[^{i}]\n\n[^{i}]: n\n\n" for i in range(5000)), "ok", 90),
    "table-5000-columns": (
        "|" + "a|" * 5000 + "\n|" + "-|" * 5000 + "\n" + ("|" + "b|" * 5000 + "\n") * 10,
        "ok",
        60,
    ),
    "50000-backticks": ("`" * 50_000 + "\n", "ok", 30),
    "bad-entities": ("&#0; &#xD800; &#x110000; &#1114111; &nbsp" * 100 + "\n", "ok", 30),
    "5000-open-html-blocks": ("<div>\n" * 5000, "ok", 30),
}


@pytest.mark.parametrize("name", list(CASES))
def test_stress_input_builds_or_fails_located_within_its_time_limit(tmp_path, name):
    body, expected, limit = CASES[name]
    root = tmp_path / "site"
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text("title: T\nauthor: A\nbase_url: https://x.org/\n")
    (root / "content/posts/p.md").write_text(HEAD + body, encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), "build", "--no-cache"],
        capture_output=True,
        text=True,
        timeout=limit,
    )
    seconds = time.perf_counter() - started
    print(f"{name}: exit {done.returncode} in {seconds:.2f} s")
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    messages = [line for line in done.stderr.splitlines() if not line.startswith((" ", "error:"))]
    assert all(LOCATED.match(line) for line in messages), messages[:5]
    if expected == "ok":
        assert done.returncode == 0, done.stderr[-2000:]
        assert (root / "_site/posts/p/index.html").stat().st_size > 0
    elif expected.startswith("warning:"):
        assert done.returncode == 0, done.stderr[-2000:]
        assert any(expected in line for line in messages), messages[:5]
    else:
        assert done.returncode == 1, done.stdout
        assert messages and expected in messages[0], messages[:5]
        assert not (root / "_site").exists()
