"""The build cache in .postil-cache/: used when intact, ignored and rebuilt when not."""

from __future__ import annotations

import collections
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.blog import NOW, build_site, make_site
from support.corpus import corpus, tree

from postil.build import BuildOptions, build
from postil.cache import CACHE_DIR, BuildCache
from postil.cache.store import DATABASE, MemoryCache
from postil.cli import main


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path / "site", corpus(4))


def database(root):
    return root / CACHE_DIR / DATABASE


def test_a_warm_build_renders_nothing_and_writes_nothing(site):
    cold = build_site(site)
    before = tree(site / "_site")
    warm = build_site(site)
    assert (cold.rendered, warm.rendered, warm.written) == (4, 0, 0)
    assert warm.files == cold.files and tree(site / "_site") == before
    assert [str(w) for w in warm.warnings] == [str(w) for w in cold.warnings]


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(b"this is not a database" * 100),
        lambda path: path.write_bytes(path.read_bytes()[: path.stat().st_size // 2]),
        lambda path: path.write_bytes(b""),
    ],
    ids=["garbage", "truncated", "empty"],
)
def test_a_damaged_cache_file_is_ignored_and_rebuilt(site, damage):
    build_site(site)
    clean = tree(site / "_site")
    build_cache = BuildCache.open(site)
    build_cache.close()  # checkpoints the WAL into the main file, so damage hits real rows
    for side in ("-wal", "-shm"):
        database(site).with_name(DATABASE + side).unlink(missing_ok=True)
    damage(database(site))
    result = build_site(site)
    assert result.rendered == 4
    assert tree(site / "_site") == clean
    assert build_site(site).rendered == 0  # and the cache works again


def test_a_row_whose_checksum_fails_is_rendered_again(site):
    build_site(site)
    with sqlite3.connect(database(site)) as db:
        db.execute(
            "UPDATE entries SET data = substr(data, 1, length(data) - 1) || x'00'"
            " WHERE kind = 'markdown' AND rowid = (SELECT min(rowid) FROM entries"
            " WHERE kind = 'markdown')"
        )
    assert build_site(site).rendered == 1


def test_a_cache_of_another_version_is_emptied(site):
    build_site(site)
    with sqlite3.connect(database(site)) as db:
        db.execute("UPDATE meta SET value = 'another version' WHERE key = 'stamp'")
    assert build_site(site).rendered == 4


def test_no_cache_neither_reads_nor_writes_the_cache(site):
    assert build_site(site, cache=False).rendered == 4
    assert not (site / CACHE_DIR).exists()
    build_site(site)
    assert build_site(site, cache=False).rendered == 4


def test_clean_removes_the_cache_and_the_output(site, capsys):
    build_site(site)
    assert main(["-C", str(site), "clean"]) == 0
    assert not (site / CACHE_DIR).exists() and not (site / "_site").exists()
    assert "removed .postil-cache, _site" in capsys.readouterr().out
    assert main(["-C", str(site), "clean"]) == 0
    assert "nothing to clean" in capsys.readouterr().out


def test_rows_are_used_only_with_their_fingerprint(tmp_path):
    cache = BuildCache.open(tmp_path)
    cache.put("post", "a.md", "fp1", {"x": 1})
    cache.commit()
    assert cache.get("post", "a.md", "fp1") == {"x": 1}
    assert cache.get("post", "a.md", "fp2") is None
    cache.forget("post", ["a.md"])
    cache.close()
    assert BuildCache.open(tmp_path).load("post") == {}


def test_an_edited_post_reuses_its_own_conversions(site, monkeypatch):
    from postil.math import convert

    build_site(site)  # each build makes its own conversion caches, seeded from the build cache
    text = (site / "content/posts/p01.md").read_text()
    (site / "content/posts/p01.md").write_text(text + "\nOne more sentence.\n")
    converted = []
    real = convert.to_mathml
    monkeypatch.setattr(convert, "to_mathml", lambda *a, **k: converted.append(a) or real(*a, **k))
    assert build_site(site).rendered == 1
    assert converted == []


def test_only_one_build_at_a_time_updates_the_spare_output(tmp_path):
    first, second = BuildCache.open(tmp_path), BuildCache.open(tmp_path)
    out = tmp_path / "_site"
    assert first.spare_dir(out) is not None
    assert second.spare_dir(out) is None  # it writes a fresh temporary directory instead
    first.close()
    assert second.spare_dir(out) is not None
    second.close()


def test_compiled_templates_are_kept_and_a_template_edit_still_shows(site):
    """Jinja2's bytecode cache lives in a directory named by the environment stamp; an
    edited template is compiled again (Jinja2 checks the source), a stale directory goes."""
    cache_dir = site / CACHE_DIR
    stale = cache_dir / "jinja-0000000000000000"
    stale.mkdir(parents=True)
    out = site / "_site"
    build(BuildOptions(root=site, out_dir=out), now=NOW)
    kept = list(cache_dir.glob("jinja-*"))
    assert len(kept) == 1 and kept[0] != stale
    assert any(p.name.endswith(".cache") for p in kept[0].iterdir())
    templates = site / "templates"
    templates.mkdir(exist_ok=True)
    (templates / "404.html").write_text("<!doctype html><title>gone</title><p>Edited 404")
    build(BuildOptions(root=site, out_dir=out), now=NOW)
    assert (out / "404.html").read_text().endswith("<p>Edited 404")
    assert BuildCache.disabled().bytecode_dir() is None  # --no-cache compiles afresh


@pytest.fixture
def html_reads(monkeypatch):
    """Record the bodies whose HTML is read from the build cache (by markdown key)."""
    from postil.cache.store import RowReader

    done: list[str] = []
    real = RowReader.__call__

    def counting(self, name):
        done.append(name)
        return real(self, name)

    monkeypatch.setattr(RowReader, "__call__", counting)
    return done


@pytest.mark.slow
def test_html_stays_in_the_cache_until_a_page_that_shows_it_is_rendered(tmp_path, html_reads):
    from postil.cache.keys import markdown_keys
    from postil.config import load_config
    from postil.content.load import load_posts

    root = make_site(tmp_path / "site", corpus(8), "feed_limit: 2\n")
    build_site(root)
    # cold: each body read back from the cache by its page, the 2 newest by each feed too
    assert sorted(collections.Counter(html_reads).values()) == [1] * 6 + [3] * 2
    html_reads.clear()
    assert build_site(root).rendered == 0 and html_reads == []  # warm: no page rendered
    page = root / "content/posts/p03.md"  # an older post: not in the feeds
    page.write_text(page.read_text().replace("Intro", "Changed intro"))
    assert build_site(root).rendered == 1
    config = load_config(root)
    posts, _ = load_posts(config, BuildCache.disabled())
    keys = dict(zip([p.source.rel for p in posts], markdown_keys(config, posts), strict=True))
    # the pages of p03's neighbours show its title and are rendered again: their bodies are
    # read; so is p03's own, just rendered and let go once written to the cache (a cold
    # build holds no post's HTML longer); lists show summaries, kept in the rows
    shown = {keys[f"content/posts/p0{n}.md"] for n in (2, 3, 4)}
    assert sorted(html_reads) == sorted(shown)
    clean = tmp_path / "clean"
    build(BuildOptions(root=root, out_dir=clean, cache=False), now=NOW)
    assert tree(root / "_site") == tree(clean)


def test_a_body_whose_html_row_is_gone_is_rendered_again(site):
    build_site(site)
    with sqlite3.connect(database(site)) as db:
        db.execute(
            "DELETE FROM entries WHERE kind = 'html' AND rowid IN"
            " (SELECT rowid FROM entries WHERE kind = 'html' LIMIT 2)"
        )
    assert build_site(site).rendered == 2


def test_a_damaged_html_row_is_healed_by_rendering_every_post_again(site, caplog):
    build_site(site)
    with sqlite3.connect(database(site)) as db:
        db.execute("UPDATE entries SET crc = crc + 1 WHERE kind = 'html'")
    (site / "templates").mkdir(exist_ok=True)  # a template change re-renders every page
    (site / "templates" / "404.html").write_text("<!doctype html><title>x</title><p>404")
    assert build_site(site).rendered == 4
    assert "damaged its html row" in caplog.text and "rendering every post again" in caplog.text
    clean = site.parent / "clean"
    build(BuildOptions(root=site, out_dir=clean, cache=False), now=NOW)
    assert tree(site / "_site") == tree(clean)
    caplog.clear()
    (site / "templates" / "404.html").write_text("<!doctype html><title>y</title><p>404")
    assert build_site(site).rendered == 0 and "damaged" not in caplog.text  # rows rewritten


def test_a_site_in_a_folder_whose_name_has_uri_characters_reads_its_cached_html(tmp_path):
    """The cached HTML is read through an SQLite URI: `#`, `?`, `%` and spaces in the site's
    path must not end the file name or start a query."""
    root = make_site(tmp_path / "c# notes? 100%25 done", corpus(4))
    build_site(root)
    page = root / "content/posts/p02.md"
    page.write_text(page.read_text().replace("Intro", "Changed intro"))
    assert build_site(root).rendered == 1  # its neighbours' pages read their cached HTML
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c# notes? 100%25 done"]
    clean = tmp_path / "clean"
    build(BuildOptions(root=root, out_dir=clean, cache=False), now=NOW)
    assert tree(root / "_site") == tree(clean)


def test_an_unusable_bytecode_directory_only_costs_compiling(tmp_path):
    from postil.theme import create_template_env

    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "plain.html").write_text("Hello {{ name }}")
    usable = tmp_path / "usable"
    usable.mkdir()
    blocked = tmp_path / "a-file-not-a-directory"
    blocked.write_text("")
    for directory in (usable, blocked, usable):
        env = create_template_env(tmp_path, directory)
        assert env.get_template("plain.html").render(name="x") == "Hello x"
    assert len(list(usable.iterdir())) == 1  # compiled once, then loaded


def test_a_template_edit_gives_a_new_environment_and_an_environment_never_reloads(tmp_path):
    from postil.build import _template_env

    (tmp_path / "templates").mkdir()
    plain = tmp_path / "templates" / "plain.html"
    plain.write_text("Hello {{ name }}")
    cache = MemoryCache()
    env = _template_env(tmp_path, cache)
    assert env.get_template("plain.html").render(name="x") == "Hello x"
    plain.write_text("Goodbye {{ name }}")
    # The environment keeps what it loaded (no `stat` per page, `auto_reload=False`) ...
    assert env.get_template("plain.html").render(name="x") == "Hello x"
    # ... and the next build's is a new one, since the templates' text changed.
    assert _template_env(tmp_path, cache).get_template("plain.html").render(name="x") == (
        "Goodbye x"
    )
    cache.close()


def test_a_commit_with_a_minimum_writes_only_once_that_much_waits(tmp_path):
    cache = BuildCache.open(tmp_path)
    cache.put("asset", "a", "", b"x" * 100)
    cache.commit(1_000)  # 100 bytes wait: nothing is written yet
    assert BuildCache.open(tmp_path).get_many("asset", ["a"]) == {}
    cache.put("asset", "b", "", b"y" * 1_000)
    cache.commit(1_000)
    assert set(BuildCache.open(tmp_path).get_many("asset", ["a", "b"])) == {"a", "b"}
    cache.close()


def test_commit_says_whether_every_row_put_can_be_read_back(tmp_path):
    cache = BuildCache.open(tmp_path)
    assert cache.commit()  # nothing put, nothing missing
    cache.put("html", "a", "", b"x" * 100)
    assert not cache.commit(1_000)  # buffered, not written
    assert cache.commit() and cache.reader("html")("a") == b"x" * 100
    assert not BuildCache.disabled().commit()  # keeps nothing: nothing can be read back
    cache.close()


def test_after_a_failed_commit_no_row_put_is_vouched_for(tmp_path):
    cache = BuildCache.open(tmp_path)
    real = cache._db

    class Failing:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def executemany(self, *args):
            raise sqlite3.OperationalError("disk I/O error")

    cache._db = Failing()
    cache.put("html", "a", "", b"x")
    assert not cache.commit()
    cache._db = real
    cache.put("html", "b", "", b"y")
    assert not cache.commit()  # "a" was lost: the rows put are not all there
    cache.close()


def rendered_cold(root, cache, trusted=True):
    """Render every post of the site at `root` with `cache` (as a cold build does)."""
    from postil.cache.keys import markdown_keys
    from postil.cache.rows import RenderedRows
    from postil.config import load_config
    from postil.content.load import load_posts
    from postil.render import render_posts
    from postil.theme import create_template_env

    config = load_config(root)
    posts, _ = load_posts(config, cache)
    rows = RenderedRows(cache, trusted)
    env = create_template_env(root)
    rendered, _ = render_posts(config, posts, env, cache, rows, 1, markdown_keys(config, posts))
    return rendered


def test_a_cold_build_lets_go_of_each_body_once_the_cache_holds_it(tmp_path):
    root = make_site(tmp_path / "site", corpus(6))
    bodies = [r.content.html_bytes for r in rendered_cold(root, BuildCache.disabled())]
    assert all(body.startswith(b"<") for body in bodies)
    cache = BuildCache.open(root)
    rendered = rendered_cold(root, cache)
    # none is held in memory; each is read back from the cache, the same bytes
    assert [r.content.html_utf8 for r in rendered] == [None] * 6
    assert [r.content.html_bytes for r in rendered] == bodies
    cache.close()


def test_bodies_stay_in_memory_where_the_cache_cannot_give_them_back(tmp_path):
    root = make_site(tmp_path / "site", corpus(3))
    # no cache; or a second attempt after a damaged row, which trusts no row
    assert all(r.content.html_utf8 for r in rendered_cold(root, BuildCache.disabled()))
    cache = BuildCache.open(root)
    assert all(r.content.html_utf8 for r in rendered_cold(root, cache, trusted=False))
    cache.close()


LARGE_ROW = """
import re, sys
from pathlib import Path
from postil.cache import BuildCache
def hwm():
    return int(re.search(r"VmHWM:\\s+(\\d+)", Path("/proc/self/status").read_text())[1]) << 10
cache = BuildCache.open(Path(sys.argv[1]))
value = bytes(range(256)) * (96 << 12)  # 96 MiB
before = hwm()
cache.put("html", "big", "", value)  # written at once: it passes FLUSH_BYTES
assert cache.commit()
print((hwm() - before) / len(value))
assert cache.reader("html")("big") == value
cache.close()
"""

READ_LARGE_ROW = """
import re, sys
from pathlib import Path
from postil.cache import BuildCache
def hwm():
    return int(re.search(r"VmHWM:\\s+(\\d+)", Path("/proc/self/status").read_text())[1]) << 10
value = bytes(range(256)) * (96 << 12)
read = BuildCache.open(Path(sys.argv[1])).reader("html")
before = hwm()
assert read("big") == value
print((hwm() - before) / len(value))
"""


@pytest.mark.skipif(not hasattr(sqlite3.Connection, "blobopen"), reason="Python 3.11 on")
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM")
def test_a_large_row_is_written_without_copies_of_it(tmp_path):
    """A 20 MB post's 55 MB HTML row was pickled (a copy) and, bound as one parameter,
    copied by SQLite twice while written (the build's peak); it is written from where it
    is, a chunk at a time, and read back the same way."""
    result = subprocess.run(
        [sys.executable, "-c", LARGE_ROW, str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    grown = float(result.stdout)  # in sizes of the row
    assert grown < 0.5, f"writing the row grew the peak by {grown:.2f} times its size"
    # read back, in a new process, a chunk at a time into the one `bytes` returned (SELECT
    # and pickle.loads made two copies at once: twice its size)
    result = subprocess.run(
        [sys.executable, "-c", READ_LARGE_ROW, str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    read = float(result.stdout)
    assert read < 1.5, f"reading the row grew the peak by {read:.2f} times its size"


SPOOLED_ROW = """
import pickle, re, sys
from pathlib import Path
from postil.cache import BuildCache
def kib(name):
    return int(re.search(name + r":\\s+(\\d+)", Path("/proc/self/status").read_text())[1]) << 10
cache = BuildCache.open(Path(sys.argv[1]))
math = {f"x_{{{i}}}": "<mi>x</mi>" * 16 + str(i) for i in range(200_000)}
Path("/proc/self/clear_refs").write_text("5")  # the peak so far (the dict being made) reset
before = kib("VmRSS")
cache.put("conversions", "big.md", "", (math, {}))  # written at once: it passes FLUSH_BYTES
assert cache.commit()
grown = kib("VmHWM") - before
print(grown / len(pickle.dumps((math, {}), protocol=5)))
cache.close()
again = BuildCache.open(Path(sys.argv[1]))
assert again.get("conversions", "big.md", "") == (math, {})
"""


@pytest.mark.skipif(not hasattr(sqlite3.Connection, "blobopen"), reason="Python 3.11 on")
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmHWM")
def test_a_row_of_many_entries_is_written_without_its_pickle_in_memory(tmp_path):
    """A 20 MB post's conversions row (the MathML of 10,000s of formulas) was pickled into
    one `bytes` (34 MiB) held from `put` to `commit`, at the end of rendering, the peak of
    a build with the cache; it is pickled into a temporary file and copied into the
    database a chunk at a time."""
    result = subprocess.run(
        [sys.executable, "-c", SPOOLED_ROW, str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    grown = float(result.stdout)  # in sizes of the pickle
    # 1.72 when it was pickled whole (the pickle and the pickler's memo, an entry per
    # object); 0.77 spooled (the memo alone: in a build, it takes freed token memory)
    assert grown < 1.0, f"writing the row grew the peak by {grown:.2f} times its pickle"


def test_a_spooled_row_is_the_pickle_of_its_value_and_reads_back(tmp_path, monkeypatch):
    import pickle

    from postil.cache import store

    monkeypatch.setattr(store, "SPOOL_ENTRIES", 10)
    monkeypatch.setattr(store, "BLOB_CHUNK", 1000)
    many = ({f"k{i}": "v" * (i % 50) for i in range(500)}, {("py", i): "x" for i in range(20)})
    few = ({"a": "b"}, {})
    spooled = store._pickled(many, tmp_path)
    assert isinstance(spooled, store._Spool) and spooled.size > 1000
    assert store._whole(spooled) == pickle.dumps(many, protocol=5)
    assert store._pickled(few, tmp_path) == (pickle.dumps(few, protocol=5),)
    small_many = {f"k{i}": 1 for i in range(20)}  # many entries, a small pickle: in memory
    assert store._pickled(small_many, tmp_path) == (pickle.dumps(small_many, protocol=5),)
    cache = BuildCache.open(tmp_path)
    cache.put("conversions", "a.md", "fp", many)
    cache.put("conversions", "b.md", "fp", few)
    cache.close()
    again = BuildCache.open(tmp_path)
    assert again.get("conversions", "a.md", "fp") == many
    assert again.get("conversions", "b.md", "fp") == few
    again.close()
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and "tmp" in p.name]


def test_large_and_small_rows_read_back_through_a_new_cache(tmp_path):
    values = {"big": bytes(range(256)) * 8192, "list": list(range(300_000)), "small": b"x"}
    cache = BuildCache.open(tmp_path)
    for name, value in values.items():
        cache.put("html", name, "fp", value)
    cache.close()
    again = BuildCache.open(tmp_path)
    assert {name: again.get("html", name, "fp") for name in values} == values
    assert again.reader("html")("big") == values["big"]
    again.close()


@pytest.mark.parametrize("size", [(1 << 20) + 1, 3 << 20, (3 << 20) + 7])
def test_a_large_row_read_in_chunks_is_checked_byte_for_byte(tmp_path, size):
    """A large row is read back a chunk at a time (`store._read_row`): every size round the
    chunk, a damaged byte anywhere is a `CacheError`, and a large row that is not one
    `bytes` value (a list) reads as usual."""
    from postil.cache.store import CacheError

    value = bytes(i % 251 for i in range(size))
    cache = BuildCache.open(tmp_path)
    cache.put("html", "big", "fp", value)
    cache.put("html", "list", "fp", list(range(400_000)))
    cache.close()
    read = BuildCache.open(tmp_path).reader("html")
    assert read("big") == value and read("list") == list(range(400_000))
    with sqlite3.connect(tmp_path / ".postil-cache" / "build.sqlite3") as db:
        rowid = db.execute("SELECT rowid FROM entries WHERE name = 'big'").fetchone()[0]
        with db.blobopen("entries", "data", rowid) as blob:
            blob.seek(size // 2)
            blob.write(b"\xff" if value[size // 2 - 11] != 255 else b"\x00")
    with pytest.raises(CacheError):
        BuildCache.open(tmp_path).reader("html")("big")
