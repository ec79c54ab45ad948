"""End to end: a post written for MathJax's physics and mathtools builds as its author meant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lxml import html as lxml_html
from support.sites import make_site

QUANTUM_POST = r"""---
title: Two-level systems
date: 2024-05-01
---

$$\require{physics}\DeclarePairedDelimiter\floor{\lfloor}{\rfloor}$$

A state $\ket{\psi}$ has $\braket{\phi}{\psi}$ and $\expval{H}{\psi}$, where
$\comm{\sigma_x}{\sigma_y} = 2i\sigma_z$ and $n = \floor*{\frac{N}{2}}$.

$$
\dv[2]{x}{t} = -\omega^2 x, \qquad \int \abs{\psi(x)}^2 \dd{x} = 1
$$
"""

OWN_MACROS_POST = r"""---
title: My own bra-kets
date: 2024-05-02
---

$\newcommand{\ket}[1]{[#1]}$ Here $\ket{0}$ is mine, and $\abs{x}$ is physics'.
"""

MISSING_ARGUMENT_POST = r"""---
title: Oops
date: 2024-05-03
---

Text first.
The norm $x + \norm$ lost its argument.
"""


def build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Run `postil build` on `root` into `out`."""
    command = [sys.executable, "-m", "postil", "-C", str(root), "build", "--out", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def formulas(out: Path, slug: str) -> list[str]:
    """Return the serialised `<math>` elements of a post's body, in order."""
    page = lxml_html.fromstring((out / "posts" / slug / "index.html").read_bytes())
    (body,) = page.xpath("//div[@class='post-body']")
    nodes = body.xpath(".//*[local-name()='math']")
    return [lxml_html.tostring(node, encoding="unicode") for node in nodes]


def test_physics_and_paired_delimiters_build_without_a_warning(tmp_path):
    root = make_site(tmp_path / "site", {"qubits.md": QUANTUM_POST})
    result = build(root, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr + result.stdout
    ket, braket, expval, comm, floor, display = formulas(tmp_path / "out", "qubits")
    # physics' \ket is `\left|…\right\rangle`: fences, at their normal size around ψ (TeX's)
    assert ket.count('fence="true"') == 2 and ket.count('stretchy="false"') == 2 and "⟩" in ket
    assert braket.count("⟨") == 1 and braket.count("|") == 1 and "⟩" in braket
    assert expval.count("ψ") == 2 and expval.count("|") == 2
    assert "[" in comm and "<mo>,</mo>" in comm
    assert "⌊" in floor and floor.count('stretchy="true"') == 2  # the star of a post's own
    assert display.count('<mi mathvariant="normal">d</mi>') == 3  # d², dt², dx


def test_post_own_definition_wins_over_physics_from_formula_to_formula(tmp_path):
    root = make_site(tmp_path / "site", {"own.md": OWN_MACROS_POST})
    result = build(root, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    mine, physics = formulas(tmp_path / "out", "own")
    assert "[" in mine and "⟩" not in mine
    assert physics.count('fence="true"') == 2  # physics' \abs: `\left|x\right|`


def test_physics_command_without_its_argument_is_a_located_warning_not_a_traceback(tmp_path):
    root = make_site(tmp_path / "site", {"oops.md": MISSING_ARGUMENT_POST})
    result = build(root, tmp_path / "out")
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert (
        r"content/posts/oops.md:7:15: warning: \norm is missing its argument: write \norm{…}"
        in result.stderr
    )
