"""Atomic output: permissions, replacement, escaping paths refused, failure keeps the old site."""

import os
import stat

import pytest

from postil.cache.manifest import content_token
from postil.errors import OutputError
from postil.model import OutputFile
from postil.output import SiteWriter


def write_site(outputs, static, out_dir) -> int:
    """Write generated files, then static ones, into `out_dir` with one `SiteWriter`."""
    with SiteWriter(out_dir) as writer:
        for out in outputs:
            if not writer.reuse(out.rel, content_token(out.data)):
                writer.write(out.rel, out.data)
        for rel, source in static:
            writer.copy(rel, source)
        return len(writer.commit())


def test_write_site_writes_files_with_0644_and_dirs_0755(tmp_path):
    out = tmp_path / "_site"
    n = write_site([OutputFile("a/b/index.html", b"<p>x</p>")], [], out)
    assert n == 1
    assert (out / "a/b/index.html").read_bytes() == b"<p>x</p>"
    assert stat.S_IMODE(os.stat(out / "a/b/index.html").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(out / "a").st_mode) == 0o755
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o755


def test_second_write_replaces_the_whole_site_and_leaves_no_temporaries(tmp_path):
    out = tmp_path / "_site"
    write_site([OutputFile("old.html", b"old")], [], out)
    write_site([OutputFile("new.html", b"new")], [], out)
    assert sorted(p.name for p in out.iterdir()) == ["new.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_generated_file_wins_over_static_file_of_the_same_path(tmp_path):
    static = tmp_path / "s.css"
    static.write_text("static")
    write_site(
        [OutputFile("css/s.css", b"generated")],
        [("css/s.css", static), ("x.css", static)],
        tmp_path / "o",
    )
    assert (tmp_path / "o/css/s.css").read_text() == "generated"
    assert (tmp_path / "o/x.css").read_text() == "static"


@pytest.mark.parametrize("rel", ["../evil.html", "/etc/evil", "a/../../evil", "", "a\\..\\b"])
def test_paths_escaping_the_output_directory_are_refused_and_old_site_kept(tmp_path, rel):
    out = tmp_path / "_site"
    write_site([OutputFile("index.html", b"good")], [], out)
    with pytest.raises(OutputError, match="outside the output directory"):
        write_site([OutputFile("ok.html", b"x"), OutputFile(rel, b"bad")], [], out)
    assert (out / "index.html").read_bytes() == b"good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_site"]


def test_put_file_makes_parents_and_returns_the_stamp_of_what_it_wrote(tmp_path):
    from postil.output import put_file

    made: set[str] = set()
    stamp = put_file(tmp_path, "posts/a/index.html", b"<p>a</p>", False, made)
    target = tmp_path / "posts/a/index.html"
    st = target.stat()
    assert target.read_bytes() == b"<p>a</p>"
    assert (stamp.token, stamp.ino, stamp.size) == (content_token(b"<p>a</p>"), st.st_ino, 8)
    assert stat.S_IMODE(st.st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "posts/a").stat().st_mode) == 0o755
    assert made == {f"{tmp_path}/posts", f"{tmp_path}/posts/a"}
    with pytest.raises(OutputError, match="cannot write"):  # never over a file unless replacing
        put_file(tmp_path, "posts/a/index.html", b"again", False, made)
    with pytest.raises(OutputError, match="outside the output directory"):
        put_file(tmp_path, "../x.html", b"", False, made)


def test_put_file_replacing_clears_whatever_is_in_the_way(tmp_path):
    from postil.output import put_file

    (tmp_path / "posts").write_text("a file where a directory must be")
    (tmp_path / "tags" / "x" / "index.html").mkdir(parents=True)  # a directory at the file
    (tmp_path / "feed.xml").write_text("old")
    (tmp_path / "link").symlink_to(tmp_path / "tags")
    for rel in ("posts/p/index.html", "tags/x/index.html", "feed.xml", "link/y.html"):
        put_file(tmp_path, rel, rel.encode(), True, set())
        assert (tmp_path / rel).read_bytes() == rel.encode()
    assert not (tmp_path / "link").is_symlink() and (tmp_path / "link").is_dir()


def test_put_file_from_many_threads_into_one_new_directory(tmp_path):
    """Workers make the same parent directories at once: each sees it made, none fails."""
    import threading

    from postil.output import put_file

    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def put(n: int) -> None:
        start.wait()
        try:
            put_file(tmp_path, f"tags/t/page/{n}/index.html", b"x", n % 2 == 0, set())
        except BaseException as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=put, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    made = sorted(p.name for p in (tmp_path / "tags/t/page").iterdir())
    assert made == [str(n) for n in range(8)]
