"""Property test over every input a user writes: config values, front matter, widget bodies
and math, drawn from Unicode's edges (lone surrogates, noncharacters, out-of-range code
points written as numbers, other scripts' digits, huge integers, deep nesting).

Each example builds a small site in this process. It must end as `postil` would exit 0
(built), 1 (content errors) or 2 (configuration errors) — never with another exception
(a traceback) — and every error must carry a file location with a line.

CI runs `POSTIL_FUZZ_EXAMPLES` examples per test (default 40); the note's counts used 1000.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from postil.build import BuildOptions, build
from postil.errors import BuildFailed, PostilError

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("POSTIL_FUZZ_EXAMPLES", "40"))
OUTCOMES: Counter[str] = Counter()

EDGE_CHARS = ["\ud800", "\udfff", "\ufffe", "\uffff", "\ufdd0", "\U0010ffff", "\x00", "\x07"]
EDGE_CHARS += ["\u00b2", "\u0661", "\u202e", "\u200b", "\ufeff", "\x85", "\u2028", "𝟗", "é"]
EDGE_NUMBERS = ["0", "-1", "1114111", "1114112", "55296", "57343", "65534", "9" * 30]
EDGE_NUMBERS += ["9" * 4301, "1e309", "0x10", "²", "١٢"]


def _escaped(text: str) -> str:
    """Return `text` as a double-quoted YAML string (surrogates written as escapes)."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or 0xD800 <= ord(c) <= 0xDFFF or c in "\ufffe\uffff":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


edge_text = st.lists(st.one_of(st.sampled_from(EDGE_CHARS), st.text(max_size=4)), max_size=6).map(
    "".join
)
numbers = st.one_of(st.sampled_from(EDGE_NUMBERS), st.integers().map(str))


@st.composite
def yaml_value(draw: st.DrawFn, depth: int = 0) -> str:
    """Return a YAML value: edge numbers and texts, escapes, dates, or nested lists."""
    kind = draw(st.integers(0, 6 if depth < 2 else 4))
    if kind == 0:
        return draw(numbers)
    if kind == 1:
        return _escaped(draw(edge_text))
    if kind == 2:
        return draw(st.sampled_from(["2024-13-45", "2024-02-30", "0000-01-01", "9999-12-31"]))
    if kind == 3:
        return draw(st.sampled_from(["~", "''", "!!binary x", "!!int x", "!!float x", "*a"]))
    if kind == 4:
        deep = draw(st.integers(1, 1200))
        return "[" * deep + "]" * deep
    items = draw(st.lists(yaml_value(depth + 1), max_size=3))
    return "[" + ", ".join(items) + "]" if kind == 5 else "{k: " + (items or ["1"])[0] + "}"


CONFIG_KEYS = ["paginate", "feed_limit", "words_per_minute", "title", "timezone", "base_url"]
FRONT_KEYS = ["title", "date", "updated", "tags", "draft", "summary", "slug", "toc", "authors"]
MATH = [
    r"\unicode{{{n}}}",
    r"\unicode{{x{n}}}",
    r"\char{n}",
    r'\char"{n}',
    r"\label{{{t}}}",
    r"\eqref{{{t}}}",
    r"\text{{{t}}}",
    r"\operatorname{{{t}}}",
    r"\mathrm{{{t}}}",
    "{t}",
]


@st.composite
def formula(draw: st.DrawFn) -> str:
    parts = []
    for template in draw(st.lists(st.sampled_from(MATH), min_size=1, max_size=4)):
        parts.append(template.format(n=draw(numbers), t=draw(edge_text).replace("$", "")))
    return "".join(parts)


def _run(files: dict[str, str]) -> None:
    """Build a site of `files`; fail on any exception but a located `PostilError`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            build(BuildOptions(root=root, drafts=True, future=True, cache=False, workers=1))
        except BuildFailed as e:
            assert all(d.location.line for d in e.diagnostics), e.diagnostics
            OUTCOMES[f"exit {e.exit_code}"] += 1
            return
        except PostilError as e:
            assert e.location is not None and e.location.line, repr(e)
            OUTCOMES[f"exit {e.exit_code}"] += 1
            return
        OUTCOMES["exit 0"] += 1


BASE = "title: F\nauthor: A\nbase_url: https://x.org/\n"
POST = "---\ntitle: P\ndate: 2024-01-01\n---\n\n{body}\n"
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(key=st.sampled_from(CONFIG_KEYS), value=yaml_value())
def test_config_values_exit_0_1_or_2_and_errors_are_located(key, value):
    config = "\n".join(line for line in BASE.splitlines() if not line.startswith(key + ":"))
    _run(
        {"postil.yaml": f"{config}\n{key}: {value}\n", "content/posts/p.md": POST.format(body="x")}
    )


@FUZZ
@given(fields=st.lists(st.tuples(st.sampled_from(FRONT_KEYS), yaml_value()), max_size=4))
def test_front_matter_values_exit_0_or_1_and_errors_are_located(fields):
    lines = "".join(f"{key}: {value}\n" for key, value in fields)
    _run({"postil.yaml": BASE, "content/posts/p.md": f"---\ntitle: T\n{lines}---\n\nx\n"})


@FUZZ
@given(
    key=st.sampled_from(["tokens", "query", "scores", "tau", "caption", "name"]), value=yaml_value()
)
def test_widget_bodies_exit_0_or_1_and_errors_are_located(key, value):
    body = {"tokens": "[a, b]", "query": "b", "scores": "[1.0]", "caption": "C"} | {key: value}
    text = "".join(f"{k}: {v}\n" for k, v in body.items())
    post = POST.format(body=f"```{{temperature}}\n{text}```")
    _run({"postil.yaml": BASE, "content/posts/p.md": post})


@FUZZ
@given(inline=formula(), display=formula())
def test_math_exits_0_or_1_and_errors_are_located(inline, display):
    post = POST.format(body=f"See ${inline}$.\n\n$$\n{display}\n$$")
    _run({"postil.yaml": BASE, "content/posts/p.md": post})


def teardown_module() -> None:
    print(f"\nfuzz outcomes ({sum(OUTCOMES.values())} inputs, 0 tracebacks): {dict(OUTCOMES)}")
