"""TeX -> MathML fixtures, one file per concern (`tests/fixtures/math/*.txt`, see its README).

Each case converts its TeX with `latex_to_mathml` and compares the output byte for byte with
the expected MathML (written one tag per line; the indentation between tags is removed
before comparing), or the error class, offset and message for a formula that fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from postil.math import MathError, latex_to_mathml

FIXTURES = Path(__file__).parents[1] / "fixtures" / "math"
BETWEEN_TAGS = re.compile(r">\n *<")


def _cases() -> list[object]:
    """Return one pytest param per fixture case, named `<file>:<line>`."""
    params = []
    for path in sorted(FIXTURES.glob("*.txt")):
        for line, title, source, expected in read_fixture_file(path):
            params.append(pytest.param(title, source, expected, id=f"{path.stem}:{line + 1}"))
    return params


def _convert(source: str) -> str:
    """Convert a fixture's input (`display` first line = display math); errors as one line."""
    tex = source.removesuffix("\n")
    display = tex.startswith("display\n")
    if display:
        tex = tex[len("display\n") :]
    try:
        return latex_to_mathml(tex, display=display)
    except MathError as exc:
        return f"{type(exc).__name__} at {exc.offset}: {exc.message}"


def test_math_fixture_files_cover_every_concern() -> None:
    files = {path.stem for path in FIXTURES.glob("*.txt")}
    assert {"environments", "numbering", "fonts", "spacing", "symbols", "errors"} <= files
    assert len(_cases()) >= 60


@pytest.mark.parametrize(("title", "source", "expected"), _cases())
def test_math_fixture_converts_as_pinned(title: str, source: str, expected: str) -> None:
    want = BETWEEN_TAGS.sub("><", expected.removesuffix("\n"))
    assert _convert(source) == want, title
