"""Output files given in pieces (`postil.model.Pieces`): every writer puts the same bytes as
the pieces joined, and a site whose pages and feeds go through pieces builds byte for byte
as one whose files are whole (issue 19: a 20 MB post's page and feeds are never joined)."""

from __future__ import annotations

import threading
import tracemalloc
from types import SimpleNamespace

import jinja2
import pytest
from support.blog import NOW, build_into, make_site, post_text
from support.corpus import tree

import postil.feeds
import postil.htmlfilter
import postil.output
import postil.pages
import postil.parallel
from postil.cache.manifest import content_token
from postil.model import OutputFile, Pieces, output_bytes
from postil.output import SiteWriter, put_file, write_new_file
from postil.pages import PageJob
from postil.serve.memory import MemoryWriter
from postil.write import check_pages

PARTS = (b"<head>", b"", b"x" * 40, b"\xf0\x9d\x91\xa5 body", b"y" * 7, b"</html>\n")
JOINED = b"".join(PARTS)


def pieces_of(kind: str) -> Pieces:
    """Return `PARTS` as pieces: a tuple, or made as they are read."""
    return Pieces(PARTS if kind == "tuple" else (part for part in PARTS))


@pytest.fixture(params=[8, 1 << 20])
def write_bytes(request, monkeypatch):
    """Gather small pieces into writes of 8 bytes (some pieces above it) or of the default."""
    monkeypatch.setattr(postil.output, "WRITE_BYTES", request.param)
    return request.param


@pytest.mark.parametrize("kind", ["tuple", "made"])
def test_pieces_written_to_a_new_file_are_the_joined_bytes(tmp_path, kind, write_bytes):
    stamp = write_new_file(tmp_path / "f.html", pieces_of(kind))
    assert (tmp_path / "f.html").read_bytes() == JOINED
    assert stamp.token == stamp.digest == content_token(JOINED)
    assert stamp.size == len(JOINED)


@pytest.mark.parametrize("kind", ["tuple", "made"])
def test_put_file_writes_pieces_as_the_joined_bytes(tmp_path, kind, write_bytes):
    stamp = put_file(tmp_path, "posts/a/index.html", pieces_of(kind), False, set())
    assert (tmp_path / "posts/a/index.html").read_bytes() == JOINED
    assert stamp.token == content_token(JOINED)


@pytest.mark.parametrize("kind", ["tuple", "made"])
def test_site_writer_writes_pieces_and_records_the_joined_token(tmp_path, kind, write_bytes):
    out = tmp_path / "_site"
    with SiteWriter(out) as writer:
        writer.write("index.html", pieces_of(kind))
        manifest = writer.commit()
    assert (out / "index.html").read_bytes() == JOINED
    assert manifest["index.html"].token == content_token(JOINED)
    # the next build recognises the file by the token of the same bytes given whole
    with SiteWriter(out, manifest) as again:
        assert again.reuse("index.html", content_token(JOINED))


@pytest.mark.parametrize("kind", ["tuple", "made"])
def test_memory_writer_keeps_pieces_as_the_joined_bytes(kind):
    writer = MemoryWriter({}, threading.RLock(), set())
    writer.write("index.html", pieces_of(kind))
    entry = writer.entries["index.html"]
    assert entry.data == JOINED and entry.token == content_token(JOINED)


def test_content_token_of_pieces_is_the_token_of_their_bytes():
    assert content_token(pieces_of("made")) == content_token(JOINED)
    assert content_token(Pieces(())) == content_token(b"")


def test_pieces_made_as_they_are_read_are_read_once():
    made, kept = pieces_of("made"), pieces_of("tuple")
    assert output_bytes(made) == output_bytes(kept) == JOINED
    assert output_bytes(kept) == JOINED  # a tuple reads again
    with pytest.raises(RuntimeError, match="only once"):
        list(made)


def test_check_pages_reads_every_page_through_and_reports_what_fails_while_read():
    read: list[bytes] = []

    def feed():
        for part in PARTS:
            read.append(part)
            yield part

    def failing():
        yield b"<feed>"
        raise ValueError("a body failed while written")

    env = jinja2.Environment()
    site = SimpleNamespace(config=SimpleNamespace(base_path="/", base_url="https://x.org/"))
    jobs = [PageJob("feed.xml", "", dict, None, produce=lambda: Pieces(feed()))]
    assert check_pages(site, env, jobs) == 1
    assert read == list(PARTS)
    bad = PageJob("x.xml", "", dict, None, produce=lambda: Pieces(failing()))
    with pytest.raises(ValueError, match="while written"):
        check_pages(site, env, [bad])


def test_a_large_body_is_spliced_as_pieces_sharing_the_body(monkeypatch):
    marker = "<!--postil-body-0-->"
    page = f"<html><main>{marker}</main><aside>{marker}</aside></html>".encode()
    body = "<p>𝑥</p>".encode() * 10
    whole = body.join(page.split(marker.encode()))
    monkeypatch.setattr(postil.pages, "SPLICE_WHOLE_BYTES", 1 << 20)
    assert postil.pages._spliced(page, marker, body) == whole  # small: one `bytes`
    monkeypatch.setattr(postil.pages, "SPLICE_WHOLE_BYTES", len(body) - 1)
    spliced = postil.pages._spliced(page, marker, body)
    assert isinstance(spliced, Pieces)
    parts = list(spliced)
    assert b"".join(parts) == whole
    assert parts[1] is body and parts[3] is body  # the post's own bytes, not a copy


def test_a_page_written_in_pieces_holds_no_copy_of_its_body(tmp_path):
    """A post's page was joined whole before it was written (head, 55 MB of body and tail
    for a 20 MB post: the build's peak); its pieces go to the file as they are."""
    body = bytes(range(256)) * (32 << 10)  # 8 MiB
    pieces = Pieces((b"<html><main>", body, b"</main></html>\n"))
    with SiteWriter(tmp_path / "_site") as writer:
        tracemalloc.start()
        try:
            writer.write("posts/big/index.html", pieces)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        writer.commit()
    assert (tmp_path / "_site/posts/big/index.html").stat().st_size == len(body) + 27
    assert peak < 0.2 * len(body), f"writing the page took {peak / len(body):.2f} times its body"


def _site(root):
    body = (
        "Intro $x^2$ with a note[^a] and [a link](/about/).\n\n## Section\n\n"
        "```python\nprint(1)\n```\n\n" + "A paragraph of text & more <em>html</em>.\n\n" * 40
    )
    posts = {
        f"p{i}.md": post_text(
            f"Post {i} & <i>", f"2026-01-{i + 1:02d}", body + f"[^a]: Note {i}.\n"
        )
        for i in range(3)
    }
    return make_site(root, posts)


@pytest.mark.parametrize("cache", [False, True])
def test_a_site_written_in_pieces_equals_one_written_whole(tmp_path, monkeypatch, cache):
    """Every page with a body spliced as pieces, every feed body filtered a few bytes at a
    time, written in 16-byte gathers, through the page pool and (with the cache) read back
    from it in a second build: the same bytes as whole files written in this process."""
    monkeypatch.setattr(postil.pages, "SPLICE_WHOLE_BYTES", 1 << 30)
    whole = tree(build_into(_site(tmp_path / "whole"), workers=1, cache=False))
    monkeypatch.setattr(postil.pages, "SPLICE_WHOLE_BYTES", 0)
    monkeypatch.setattr(postil.feeds, "ENTRY_CACHE_BYTES", 0)
    monkeypatch.setattr(postil.feeds, "_ENTRIES", postil.feeds._EntryCache())
    monkeypatch.setattr(postil.htmlfilter, "SEGMENT_BYTES", 64)
    monkeypatch.setattr(postil.output, "WRITE_BYTES", 16)
    monkeypatch.setattr(postil.parallel, "PAGES_SEQUENTIAL_BELOW", 0)
    root = _site(tmp_path / "pieces")
    assert tree(build_into(root, workers=2, cache=cache)) == whole
    assert tree(build_into(root, workers=1, cache=cache)) == whole
    if cache:  # nothing changed: every file reused, the same bytes
        assert tree(build_into(root, workers=2, cache=cache)) == whole


def test_feeds_are_pieces_made_as_they_are_written(tmp_path, monkeypatch):
    from postil.pages import page_jobs, render_job

    made: list[str] = []
    real = postil.feeds.entry_parts

    def entry_parts(rendered, url):
        made.append("started")
        yield from real(rendered, url)
        made.append("done")

    monkeypatch.setattr(postil.feeds, "entry_parts", entry_parts)
    root = _site(tmp_path / "site")
    from postil.build import BuildOptions, build

    captured: dict[str, OutputFile] = {}

    def output(site, env, cache, keys, jobs):
        postil.pages.prepare_env(site, env)
        for job in page_jobs(site):
            if job.rel == "feed.xml":
                captured[job.rel] = render_job(env, job)
        return 0, 0

    monkeypatch.setattr("postil.build._to_directory", lambda options: output)
    build(BuildOptions(root=root, cache=False), now=NOW)
    feed = captured["feed.xml"].data
    assert isinstance(feed, Pieces)
    assert made.count("done") < 3  # the last body is made only as the feed is read
    data = output_bytes(feed)
    assert made.count("done") == 3
    assert data.startswith(b'<?xml version="1.0" encoding="utf-8"?>\n<feed')
    assert data.count(b"<entry>") == 3 and b"A paragraph of text &amp;amp; more" in data
