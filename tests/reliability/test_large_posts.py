"""Huge posts in bounded memory (issue 19): each piece that avoids holding a whole post, as
tokens or as one `str`, gives byte for byte what the whole-document path gives.

- `render_blocks` renders a parsed document a group of top-level blocks at a time, and
  `render_markdown` gives every field of `RenderedMarkdown` the same at any group size
  (the oracle a parse in groups must pass, with a post whose references all point
  forward); the groups are joined in one buffer;
- `feed_html_parts` filters a body for feeds a segment at a time;
- `summary_html` reads UTF-8 bytes only as far as the summary needs;
- feed entries are escaped as bytes and written into the serialised feed a segment at a
  time (kept whole only when the entry cache can keep them);
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


FORWARD_REFERENCES = """\
* TOC
{:toc}

As \\eqref{eq:late} and [](#fig-late) show[^late], see [the spec][spec], [](#tbl-late)
and [@ostergaard2020a]; a later note[^twice] and a missing one[^nowhere].

## Setup

Text with $x^2$, $\\mathbb{E}[y]$, and a margin note[^m].

## Setup

\\begin{equation}\\label{eq:late}
a = b \\tag{*}
\\end{equation}

$$c = d \\label{eq:second}$$

![A late figure.](late.png){#fig-late}

| a | b |
| - | - |
| 1 | 2 |

Table: A late table. {#tbl-late}

<div id="setup-1">an id a later heading's slug would take</div>

## Setup

More [@ostergaard2020b; @nosuchkey], [](#fig-missing), \\eqref{eq:second} and [spec][].

![Same id.](again.png){#fig-late}

[^late]: A note defined late, citing [@vaswani2017] and pointing at [](#fig-late).
[^m]: {-} A margin note with $z$.
[^twice]: First definition.
[^twice]: Defined twice.
[^unused]: Never referenced.

[spec]: https://example.org/spec
"""
"""A TeX-paper style post whose references all point forward: a table of contents before its
headings, `\\eqref` before `\\label`, notes, figures and a table cited before they appear, link
reference definitions at the end, the same heading three times and a raw HTML id one of them
would take, author-year labels (2020a, 2020b) fixed by a later citation; with problems to
report in order (a duplicate and an unused note, a missing one, an unknown key, a repeated
figure id, an empty link to nothing)."""

CARRIES = r"""* TOC
{:toc}

First $\newcommand{\R}{\mathbb{R}} x \in \R$, [@ostergaard2020b], a note[^late], a margin
note[^side], \eqref{eq:last}, [](#tbl-b), [](#fig-b), ![eager](https://x.org/a.png)<img src="r.png">

$$v \in \R \label{eq:first}$$

## Results {#results}

Then $y \in \R$, [@ostergaard2020a; @nosuchone], again[^late], <span id="span-x">x</span>,
[see](#results) and ![lazy](https://x.org/b.png).

{% raw %}

{{ page.title }} stays

{% endraw %}

| a | b |
| - | - |
| 1 | 2 |

Table: A first table. {#tbl-a}

## Results

![A figure.](f.png){#fig-a}

$$a = b \label{eq:dup}$$

$$c = d \label{eq:dup}$$

Text [@vaswani2017] and \eqref{eq:nowhere}, [](#fig-missing), [a](other.md), <img src="raw.png">.

## Results {#results}

| c | d |
| - | - |
| 3 | 4 |

Table: A second table. {#tbl-b}

![B figure.](g.png){#fig-b}

<div id="results-1">a raw id a later heading slug would take</div>

<p id="fig-a">a raw id a figure has</p>

$$e = f \label{eq:last}$$

[^late]: A late note with $w \in \R$, [](#fig-b), a nested one[^side], $x$, [@muller2019],
    a missing one[^gone] and \eqref{eq:first}.
[^side]: {-} A margin note citing [@deepmind2023] and $\R^n$.
[^late]: Defined twice.
[^orphan]: Never referenced.
"""
"""What a parse in groups must carry from one group to the next, each at least once across
a group boundary (in groups of 1, 2 and 7 blocks): a macro defined in the first formula and
used to the last note, equation numbers and a label defined twice, table and figure numbers
with links ahead of them, author-year labels fixed by a later citation and citations inside
notes, a note referenced twice (its second marker), a margin note and a nested reference,
a note defined twice, one never referenced and one missing inside a note, a heading id given
twice and a raw HTML id a later slug would take, a raw HTML id a figure has, the first image
eager and the next lazy, a Liquid `raw` block, and references recorded by two rules (links,
then raw HTML) in turn."""

CITE_BIB = FIXTURES / "cite.bib"


def render_whole_and_grouped(body: str, group: int, style: str | None, monkeypatch) -> tuple:
    """Render `body` with `render_markdown` as one group and in groups of `group` top-level
    blocks (style None: without a bibliography); return both `RenderedMarkdown`s."""
    from postil.bibliography.read import read_bib

    works = read_bib(CITE_BIB.read_bytes(), "tests/fixtures/cite.bib").works
    md = create_markdown()
    results = []
    for size in (10**9, group):
        monkeypatch.setattr(markdown, "RENDER_GROUP", size)
        state = RenderState(
            path="post.md",
            body_line=5,
            bibliography=works if style else None,
            citation_style=style or "author-year",
        )
        results.append(markdown.render_markdown(md, body, state))
    return results[0], results[1]


@pytest.mark.parametrize("group", [1, 2, 7])
def test_rendering_in_groups_gives_every_field_of_the_whole_render(monkeypatch, group):
    """The oracle for rendering a post a group of top-level blocks at a time: the HTML and
    every field of `RenderedMarkdown` (toc, words, figures, equations, citations, links,
    images, math characters, diagnostics in order) equal the whole document's."""
    docs = [*DOCUMENTS, ("forward", FORWARD_REFERENCES), ("carries", CARRIES)]
    for name, body in docs:
        cites = "cite" in name or name in ("forward", "carries")
        for style in ("author-year", "numeric", None) if cites else ("author-year",):
            whole, grouped = render_whole_and_grouped(body, group, style, monkeypatch)
            assert grouped == whole, (name, style)


@pytest.mark.parametrize("group", [1, 2, 7])
def test_the_oracle_parses_in_several_groups(group):
    """The oracle's documents really are parsed in several groups at its sizes, and a normal
    post is one group at the default size (so it is parsed once, as `md.parse` does)."""
    from postil.markdown import group_bounds

    for body in (FORWARD_REFERENCES, CARRIES):
        tokens, _ = parse(body)
        assert len(group_bounds(tokens, group)) >= 5
    tokens, _ = parse(DOCUMENTS[0][1])
    assert len(tokens) > 100 and group_bounds(tokens, markdown.RENDER_GROUP) == [(0, len(tokens))]


def test_groups_keep_a_table_with_its_caption():
    from postil.markdown import group_bounds

    tokens, _ = parse("| a |\n| - |\n| 1 |\n\nTable: Caption. {#tbl-a}\n\nAfter.\n")
    bounds = group_bounds(tokens, 1)
    ends = [tokens[end - 1].type for _, end in bounds]
    assert "table_close" not in ends and ends[0] == "table_caption_close" and len(bounds) == 2


def test_carries_resolve_across_groups(monkeypatch):
    """What the oracle's carry post must give (so it cannot pass by being empty)."""
    whole, _ = render_whole_and_grouped(CARRIES, 1, "author-year", monkeypatch)
    html = whole.html_utf8.decode("utf-8")
    assert [entry.id for entry in whole.toc] == ["results", "results-2", "results"]
    assert html.count("<mi>ℝ</mi>") == 6  # the macro, up to the notes
    assert '<a href="#fig-b" tabindex="-1">Figure 2</a>' in html  # in the margin copy
    assert '<a href="#tbl-b">Table 2</a>' in html and 'href="#eq-last">(4)</a>' in html
    assert 'id="fnref-1-2"' in html and 'id="mn-1"' in html and html.count('id="fn-') == 1
    assert "Østergaard, 2020a</a>)</span>" in html and 'id="cite-3"' in html
    assert 'alt="eager" decoding="async"' in html and 'alt="lazy" loading="lazy"' in html
    assert "<p>{{ page.title }} stays</p>" in html
    assert dict(whole.equations) == {"eq:first": "1", "eq:dup": "2", "eq:last": "4"}
    assert [r.target for r in whole.references] == ["f.png", "g.png", "r.png", "raw.png"]
    # the link to a missing source is told by `postil.sourcelinks` once the build knows why
    assert [(s.source, s.location.line) for s in whole.source_links] == [("other.md", 38)]
    found = [(d.location.line, d.message.split(" ")[:2]) for d in whole.diagnostics]
    assert found == [
        (9, ["2", "`<img>`"]),  # no alt: one warning, at the first, naming both lines
        (15, ["citation", "key"]),
        (59, ["note", "[^late]"]),
        (60, ["note", "[^orphan]"]),
        (57, ["note", "[^gone]"]),
        (36, ["duplicate", "equation"]),
        (38, ["unknown", "equation"]),
        (38, ["empty", "link"]),
        (40, ["heading", "id"]),
        (52, ["id", "`fig-a`"]),
    ]


def test_forward_references_resolve_and_report_once(monkeypatch):
    """What the oracle's forward-reference post must give (so it cannot pass by being empty)."""
    whole, _ = render_whole_and_grouped(FORWARD_REFERENCES, 1, "author-year", monkeypatch)
    html = whole.html_utf8.decode("utf-8")
    assert html.startswith('<nav class="toc toc-inline"')
    assert [entry.id for entry in whole.toc] == ["setup", "setup-2", "setup-3"]
    assert '<a class="eqref" href="#eq-late">(*)</a>' in html
    assert '<a class="eqref" href="#eq-second">(1)</a>' in html
    assert 'href="#fig-late">Figure 1</a>' in html and 'href="#tbl-late">Table 1</a>' in html
    assert '<a href="#ref-ostergaard2020a">Østergaard, 2020b</a>' in html  # b: cited later
    assert html.count('<a href="https://example.org/spec">') == 2
    assert '<div id="setup-1">' in html and 'id="sn-1"' in html and 'id="mn-1"' in html
    assert dict(whole.figures) == {"fig-late": 1, "tbl-late": 1}
    assert dict(whole.equations) == {"eq:late": "*", "eq:second": "1"}
    found = [(d.location.line, d.location.col, d.message.split(" ")[:3]) for d in whole.diagnostics]
    assert found == [
        (35, 25, ["citation", "key", "`nosuchkey`"]),
        (42, 1, ["note", "[^twice]", "is"]),
        (43, 1, ["note", "[^unused]", "is"]),
        (9, 63, ["note", "[^nowhere]", "is"]),
        (37, 1, ["two", "figures", "have"]),
        (35, 38, ["empty", "link", "to"]),
    ]


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
    assert b"".join(bodies.splice(_serialize(root))) == _serialize(expected)


def test_body_pieces_are_joined_without_holding_them_twice():
    """`b"".join` of the rendered groups held every group and the result at once (110 MB at
    a 20 MB post); the body is assembled in one growing buffer instead."""
    import tracemalloc

    from postil.markdown import _joined

    def pieces():
        for i in range(40):
            yield bytes([97 + i % 26]) * 250_000

    tracemalloc.start()
    try:
        joined = _joined(pieces())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert joined == b"".join(pieces())
    assert peak < 1.3 * len(joined), f"peak {peak / len(joined):.2f} times the body"


def test_feed_bodies_are_written_into_the_feed_a_segment_at_a_time():
    """A feed held a huge body twice, filtered whole and then spliced into the feed (140 MB
    for a 20 MB post's 70 MB entry), then the feed whole (70 MB); its segments now go to
    the feed's file one at a time, and the feed is never one `bytes`."""
    import hashlib
    import tracemalloc

    from postil.feeds import _Bodies, _serialize

    def segments():
        for i in range(40):
            yield bytes([97 + i % 26]) * 250_000

    body = b"".join(segments())
    bodies = _Bodies()
    root = ET.Element("feed")
    ET.SubElement(root, "content").text = bodies.add(segments())
    ET.SubElement(root, "content").text = bodies.add(iter([b"", b""]))  # empty: no marker
    xml = _serialize(root)
    head, tail = xml.split(bodies.marker.encode())[0], b"</content>\n  <content />\n</feed>\n"
    digest, size = hashlib.sha256(), 0
    tracemalloc.start()
    try:
        for piece in bodies.splice(xml):  # as a writer reads them
            digest.update(piece)
            size += len(piece)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size < len(body) + 200
    assert digest.digest() == hashlib.sha256(head + body + tail).digest()
    assert peak < 0.3 * len(body), f"peak {peak / len(body):.2f} times the body"


def test_feed_entries_are_kept_whole_when_they_fit_the_cache_and_streamed_when_not(monkeypatch):
    from types import SimpleNamespace

    from postil import feeds

    html = seed_html()
    post = SimpleNamespace(content=SimpleNamespace(html_bytes=html))
    url = "https://example.org/blog/posts/attention/"
    expected = feed_html(html.decode("utf-8"), url).encode("utf-8")
    expected = _escape_text(expected)
    monkeypatch.setattr(feeds, "_ENTRIES", feeds._EntryCache())
    assert list(feeds.entry_parts(post, url)) == [expected]  # filtered whole, then kept
    assert feeds._ENTRIES.size == len(expected)
    monkeypatch.setattr(feeds, "_ENTRIES", feeds._EntryCache())
    monkeypatch.setattr(feeds, "ENTRY_CACHE_BYTES", len(html) - 1)
    monkeypatch.setattr(htmlfilter, "SEGMENT_BYTES", 4096)
    parts = list(feeds.entry_parts(post, url))
    assert len(parts) > 3 and b"".join(parts) == expected  # a segment at a time
    assert feeds._ENTRIES.size == 0
