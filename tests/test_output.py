"""Atomic output: permissions, replacement, escaping paths refused, failure keeps the old site."""

import os
import stat

import pytest

from postil.errors import OutputError
from postil.model import OutputFile
from postil.output import write_site


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
