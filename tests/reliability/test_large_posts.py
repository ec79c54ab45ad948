"""Huge posts in bounded memory (issue 19): each piece that avoids holding a whole post, as
tokens or as one `str`, gives byte for byte what the whole-document path gives.

- `render_blocks` renders a parsed document a group of top-level blocks at a time;
- `feed_html_parts` filters a body for feeds a segment at a time;
- `summary_html` reads UTF-8 bytes only as far as the summary needs;
- feed entries are escaped as bytes and spliced into the serialised feed;
- a post page gets its body spliced in as bytes where templates print `{{ content }}` whole;
- `SourceLines` stands for `text.split("\\n")`.

The slow test builds a 4 MB post in a child process and checks its peak memory.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it.utils import read_fixture_file
from support.sites import make_site

import postil.markdown as markdown
from postil import htmlfilter
from postil.feeds import _escape_text, xml_text
from postil.htmlfilter import feed_html, feed_html_parts, summary_html
from postil.markdown import create_markdown, render_blocks
from postil.markdown.state import RenderState, SourceLines

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
SEED = REPO / "content" / "posts" / "attention-from-the-softmax-up.md"
GEN_CORPUS = REPO.parent / "shared" / "bench" / "gen_corpus.py"


def documents() -> list[tuple[str, str]]:
    """(name, Markdown body) of the reference post and every plugin fixture's input, each
    fixture file also as one document (notes, references and ids across many blocks)."""
    seed = SEED.read_text("utf-8").split("\n---\n", 1)[1]
    docs = [("seed", seed)]
    for path in sorted(FIXTURES.glob("*.md")):
        cases = [case[2] for case in read_fixture_file(path)]
        docs += [(f"{path.stem}:{i}", text) for i, text in enumerate(cases)]
        docs.append((f"{path.stem}:all", "\n\n".join(cases)))
    return docs


DOCUMENTS = documents()


def parse(body: str) -> tuple[list, dict]:
    md = create_markdown()
    state = RenderState(path="post.md", body_line=1)
    state.source_lines = SourceLines(body)
    env = {"postil": state}
    return md.parse(body, env), env


@pytest.mark.parametrize("group", [1, 3, 50])
def test_render_blocks_equals_whole_render(monkeypatch, group):
    md = create_markdown()
    monkeypatch.setattr(markdown, "RENDER_GROUP", group)
    for name, body in DOCUMENTS:
        tokens, env = parse(body)
        whole = md.renderer.render(tokens, md.options, env).encode("utf-8")
        tokens, env = parse(body)
        pieces = list(render_blocks(md, tokens, env))
        assert b"".join(pieces) == whole, name
        assert all(token is None for token in tokens), name  # each group's tokens let go
        if group == 1 and name == "seed":
            assert len(pieces) > 10  # it really rendered in pieces (one per section)


def seed_html() -> bytes:
    md = create_markdown()
    tokens, env = parse(DOCUMENTS[0][1])
    return md.renderer.render(tokens, md.options, env).encode("utf-8")


@pytest.mark.parametrize("segment", [1, 97, 4096])
def test_feed_html_parts_equal_feed_html(monkeypatch, segment):
    html = seed_html()
    monkeypatch.setattr(htmlfilter, "SEGMENT_BYTES", segment)
    url = "https://example.org/blog/posts/attention/"
    parts = list(feed_html_parts(html, url))
    assert b"".join(parts) == feed_html(html.decode("utf-8"), url).encode("utf-8")
    if segment == 1:
        assert len(parts) > 100


@pytest.mark.parametrize("segment", [1, 97, 4096])
def test_summary_from_bytes_equals_summary_from_text(monkeypatch, segment):
    monkeypatch.setattr(htmlfilter, "SEGMENT_BYTES", segment)
    samples = [
        seed_html(),
        b"<p>One <a href='x'>link</a></p>\n<p>two</p>\n",
        b"<p>Before</p>\n<p>still before</p>\n<!--more-->\n<p>after</p>\n",
        b"<figure><img src='a.png'></figure>\n<p></p>\n<p>\xf0\x9d\x91\xa5 math letter</p>\n",
        b"<pre><code>&lt;!--more--&gt;</code></pre>\n<p>first</p>\n",
        b"",
    ]
    for html in samples:
        assert summary_html(html) == summary_html(html.decode("utf-8")), html[:40]


@given(st.text(alphabet=st.sampled_from("ab&<>\"'\x00\x01\x0b\t\n\r\ufffe\uffff\ue000𝑥é")))
def test_escaped_entry_equals_elementtree_text(text):
    element = ET.Element("content")
    element.text = xml_text(text)
    serialised = ET.tostring(element, encoding="unicode")
    expected = serialised.removeprefix("<content>").removesuffix("</content>")
    if expected == "<content />":
        expected = ""
    assert _escape_text(text.encode("utf-8", "surrogatepass")) == expected.encode("utf-8")


PEAK_OF_BUILD = """
import re, sys
from pathlib import Path
from postil.cli import main
code = main(["build", "--no-cache"])
status = Path("/proc/self/status").read_text()
print("VmHWM", int(re.search(r"VmHWM:\\s+(\\d+)", status)[1]), file=sys.stderr)
sys.exit(code)
"""
"""`postil build` with the process's own peak resident memory printed at the end. `VmHWM`,
not `getrusage`: a child started by a large process (a pytest worker) inherits that
process's peak into its `ru_maxrss` when it executes (Linux keeps the old memory's peak
across `exec`), so `os.wait4` reported the test process, not the build."""


def build(root: Path) -> float:
    """Run `postil build --no-cache` in a child process; return its peak resident MiB. With
    one post, Markdown and pages are rendered in that process (no pool: too few to share)."""
    result = subprocess.run(
        [sys.executable, "-c", PEAK_OF_BUILD],
        cwd=root,
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(REPO / "src")},
    )
    assert result.returncode == 0, result.stderr
    return int(re.search(r"VmHWM (\d+)", result.stderr)[1]) / 1024


def test_post_page_splices_body_and_custom_templates_still_see_it(tmp_path):
    body = "Intro $x^2$ with a note[^a].\n\n## Section\n\nText.\n\n[^a]: The note.\n"
    post = f"---\ntitle: T\ndate: 2026-01-02\n---\n{body}"
    plain = tmp_path / "plain"
    make_site(plain, {"t.md": post})
    build(plain)
    page = (plain / "_site/posts/t/index.html").read_text("utf-8")
    assert 'id="section"' in page or "Section" in page
    assert "postil-body-" not in page  # the marker never reaches a page
    # A template that measures and transforms the body gets the real HTML, not the marker.
    custom = tmp_path / "custom"
    make_site(custom, {"t.md": post})
    (custom / "templates").mkdir()
    (custom / "templates/post.html").write_text(
        '{% extends "base.html" %}{% block main %}'
        "<p id=len>{{ content | length }}</p>"
        "{% filter upper %}{{ content }}{% endfilter %}{% endblock %}",
        "utf-8",
    )
    build(custom)
    page = (custom / "_site/posts/t/index.html").read_text("utf-8")
    length = int(re.search(r"<p id=len>(\d+)</p>", page)[1])
    article = re.search(r"<p id=len>\d+</p>(.*)", page, re.S)[1]
    assert "postil-body-" not in page.lower() and "POSTIL-BODY-" not in page
    assert "THE NOTE." in article  # the body, upper-cased by the template
    assert length > 200  # the body's length, not a marker's


@pytest.mark.parametrize(
    "text", ["", "a", "a\n", "\n", "a\nb", "a\n\nb\n", "𝑥\né\n\n", "line\r\nwith cr\n"]
)
def test_source_lines_are_split_lines(text):
    lines = SourceLines(text)
    expected = text.split("\n")
    assert len(lines) == len(expected)
    assert list(lines) == expected
    assert lines[-1] == expected[-1]
    assert lines[1:] == expected[1:]
    with pytest.raises(IndexError):
        lines[len(expected)]


@pytest.mark.slow
@pytest.mark.skipif(not GEN_CORPUS.exists(), reason="needs ../shared/bench")
def test_a_4_mb_post_builds_in_bounded_memory(tmp_path):
    """A 4 MB post (400 benchmark posts in one) peaked at 406 MiB before issue 19's
    change and at 172 MiB after (`postil build --no-cache`, default workers)."""
    corpus = tmp_path / "corpus"
    subprocess.run(
        [sys.executable, str(GEN_CORPUS), "--posts", "400", "--unique-math", str(corpus)],
        check=True,
        capture_output=True,
    )
    bodies = []
    for i, path in enumerate(sorted((corpus / "posts").glob("*.md"))):
        text = path.read_text("utf-8").split("\n---\n", 1)[1]
        text = re.sub(r"^(#+ .*)$", rf"\1 {i}", text, flags=re.M)  # unique headings
        bodies.append(re.sub(r"\[\^(\w+)\]", rf"[^\1x{i}]", text))  # and notes
    site = tmp_path / "site"
    make_site(site, {"big.md": "---\ntitle: Big\ndate: 2026-01-02\n---\n" + "\n\n".join(bodies)})
    assert (site / "content/posts/big.md").stat().st_size > 3_500_000
    peak_mib = build(site)
    assert peak_mib < 250, f"peak {peak_mib:.0f} MiB"
    assert (site / "_site/posts/big/index.html").stat().st_size > 9_000_000


def test_pipe_protected_copy_is_let_go_after_block_parsing():
    """The table rule's copy of the source with `|` in `$…$` hidden (as large as the post)
    lives only while blocks are parsed; a source with nothing to hide is not copied."""
    from postil.markdown.mathdoc import PIPES_KEY, protect_pipes

    body = "| a | b |\n| - | - |\n| $|x|$ | 2 |\n\nText $y$ and | a bar.\n"
    tokens, env = parse(body)
    assert PIPES_KEY not in env
    assert any(t.type == "table_open" for t in tokens)
    plain = "no math | here\n$x$ and no bar\n"
    assert protect_pipes(plain, {}) is plain
    hidden = protect_pipes(body, {})
    assert len(hidden) == len(body) and hidden != body


def test_feed_entry_cache_is_bounded_by_bytes(monkeypatch):
    from postil import feeds

    monkeypatch.setattr(feeds, "ENTRY_CACHE_BYTES", 10)
    cache = feeds._EntryCache()
    cache.put((b"a", "u"), b"12345")
    cache.put((b"b", "u"), b"123456")  # 11 bytes in all: the oldest goes
    assert cache.get((b"a", "u")) is None and cache.get((b"b", "u")) == b"123456"
    cache.put((b"c", "u"), b"x" * 11)  # larger than the whole cache: not kept
    assert cache.get((b"c", "u")) is None and cache.size == 6


def test_spliced_feed_bodies_serialise_as_elementtree_would():
    from postil.feeds import _Bodies, _serialize

    bodies = _Bodies()
    root = ET.Element("feed")
    for body in (b"&lt;p&gt;one&lt;/p&gt;", b"", "\U0001d465 é".encode()):
        ET.SubElement(root, "content").text = bodies.add(body)
    expected = ET.Element("feed")
    for text in ("<p>one</p>", "", "\U0001d465 é"):
        ET.SubElement(expected, "content").text = text
    assert bodies.splice(_serialize(root)) == _serialize(expected)
