"""Issue 19's reproducers, each a test: crashes from input, wrong or unsafe output.

Every crash was a Python traceback before; now each is a located error or warning. The
kinds are tested, not only the reported example (a `²` and a 5,000-digit number for every
whole-number setting; every YAML value a constructor refuses; every code point a page
cannot hold).
"""

from __future__ import annotations

import http.client
import os
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.sites import CONFIG, config_problems, make_site

from postil.build import BuildOptions, build
from postil.cli import main
from postil.errors import BuildFailed
from postil.serve.watcher import ChangeBatcher, ChangeSet

HUGE = "9" * 5000


def _build(root: Path, **options: object):
    return build(BuildOptions(root=root, drafts=True, future=True, workers=1, **options))


# ## Configuration integers ##


@pytest.mark.parametrize("key", ["paginate", "feed_limit", "words_per_minute"])
@pytest.mark.parametrize("value", ["²", "١٢", HUGE, "1" + "0" * 20])
def test_whole_number_settings_refuse_odd_digits_and_huge_numbers_at_their_line(
    tmp_path, key, value
):
    make_site(tmp_path, {}, CONFIG + f"{key}: {value}\n")
    [problem] = config_problems(tmp_path)
    assert problem.location.line == 4
    assert f"`{key}` must be a whole number" in problem.message
    assert len(problem.message) < 300  # the 5,000 digits are not echoed


@pytest.mark.parametrize("command", [["build"], ["check"], ["serve", "--port", "0"]])
def test_a_superscript_digit_in_the_config_exits_2_without_a_traceback(tmp_path, command, capsys):
    make_site(tmp_path, {}, CONFIG + "paginate: ²\n")
    assert main(["-C", str(tmp_path), *command]) == 2
    err = capsys.readouterr().err
    assert "postil.yaml:4:11: `paginate` must be a whole number" in err
    assert "Traceback" not in err


def test_jobs_flag_refuses_a_superscript_digit(capsys):
    assert main(["build", "-j", "²"]) == 2
    assert "must be a whole number" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "-5", "65536", "²"])
def test_serve_refuses_a_port_out_of_range_as_a_usage_error(capsys, port):
    """`--port 99999` printed the socket's OverflowError with a traceback (a user's trial)."""
    assert main(["serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "must be a port from 0 to 65535" in err
    assert "Traceback" not in err


# ## Widget bodies ##

WIDGET = "---\ntitle: W\ndate: 2024-01-01\n---\n\n```{{temperature}}\n{body}\ncaption: C\n```\n"
REST = "query: b\nscores: [1.0]"


@pytest.mark.parametrize(
    ("body", "line", "says"),
    [
        ("tokens: 2024-13-45\n" + REST, 7, "cannot read the value `2024-13-45`"),
        ("tokens: [a, b]\nquery: b\nscores: [" + "9" * 4301 + "]", 9, "cannot read the value"),
        ("tokens: " + "[" * 1000 + "]" * 1000 + "\n" + REST, 7, "nested too deeply"),
        ("tokens: [a, b]\nquery: !!int abc\nscores: [1.0]", 8, "cannot read the value `abc`"),
    ],
    ids=["month-13", "4301-digits", "1000-deep", "int-tag"],
)
def test_widget_yaml_a_constructor_refuses_is_a_located_error(tmp_path, body, line, says):
    make_site(tmp_path, {"w.md": WIDGET.format(body=body)})
    with pytest.raises(BuildFailed) as caught:
        _build(tmp_path)
    (error,) = caught.value.diagnostics
    assert error.location.path == "content/posts/w.md"
    assert error.location.line == line, error
    assert says in error.message


def test_widget_yaml_lone_surrogates_become_replacement_characters(tmp_path):
    body = 'tokens: [a, "\\ude00", b]\nquery: b\nscores: [1.0, 2.0]'
    make_site(tmp_path, {"w.md": WIDGET.format(body=body)})
    _build(tmp_path)
    page = (tmp_path / "_site/posts/w/index.html").read_text(encoding="utf-8")
    assert "\ufffd" in page


# ## Math code points ##


@pytest.mark.parametrize(
    ("formula", "says"),
    [
        (r"\unicode{1114112}", "past Unicode's last code point"),
        (r"\unicode{99999999999}", "past Unicode's last code point"),
        (r"\unicode{x" + "F" * 5000 + "}", "past Unicode's last code point"),
        (r"\char55296", "a surrogate"),
        (r'\char"DFFF', "a surrogate"),
        (r"\unicode{xD800}", "a surrogate"),
        (r"\unicode{7}", "a control character"),
        (r"\unicode{xFFFF}", "a noncharacter"),
        (r"\unicode{abc}", "write the code point as decimal"),
    ],
)
def test_math_code_points_a_page_cannot_hold_are_warnings_at_the_command(tmp_path, formula, says):
    make_site(tmp_path, {"m.md": f"---\ntitle: M\ndate: 2024-01-01\n---\n\nSee ${formula}$.\n"})
    result = _build(tmp_path)
    (warning,) = result.warnings
    assert (warning.location.line, warning.location.col) == (6, 6)
    assert says in warning.message and "newcommand" not in warning.message
    page = (tmp_path / "_site/posts/m/index.html").read_bytes().decode("utf-8")
    assert 'class="math-error"' in page


def test_unicode_reads_decimal_as_decimal_and_x_as_hex(tmp_path):
    body = r"$\unicode{65}\unicode{x221A}\char66\text{&#x110000;}$"
    make_site(tmp_path, {"m.md": f"---\ntitle: M\ndate: 2024-01-01\n---\n\n{body}\n"})
    result = _build(tmp_path)
    assert not result.warnings
    page = (tmp_path / "_site/posts/m/index.html").read_text(encoding="utf-8")
    assert "<mi>A</mi>" in page and "<mi>√</mi>" in page and ">B<" in page


# ## Order of posts ##


@pytest.mark.parametrize(
    "zone", ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati"]
)
def test_posts_order_is_the_same_in_every_TZ_and_undated_posts_come_last(tmp_path, zone):
    posts = {
        "old.md": "---\ntitle: Old\ndate: 1969-12-31\n---\nx\n",
        "older.md": "---\ntitle: Older\ndate: 1900-01-01\n---\nx\n",
        "new.md": "---\ntitle: New\ndate: 2024-01-01\n---\nx\n",
        "epoch.md": "---\ntitle: Epoch\ndate: 1970-01-01\n---\nx\n",
        "undated.md": "---\ntitle: Undated\n---\nx\n",
    }
    make_site(tmp_path, posts)
    saved = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        _build(tmp_path)
    finally:
        os.environ.pop("TZ") if saved is None else os.environ.__setitem__("TZ", saved)
        time.tzset()
    home = (tmp_path / "_site/index.html").read_text(encoding="utf-8")
    found = [home.index(f">{t}<") for t in ("New", "Epoch", "Old", "Older", "Undated")]
    assert found == sorted(found)


# ## The spare output tree ##


def _spare(root: Path) -> Path:
    (spare,) = (root / ".postil-cache/spare").iterdir()
    return spare


def _three_builds(root: Path, damage) -> None:
    """Build A, then B (A becomes the spare), damage the spare, then A again from it."""
    post = root / "content/posts/p.md"
    for text in ("first", "second"):
        post.write_text(f"---\ntitle: P\ndate: 2024-01-01\n---\n\n{text} text\n")
        _build(root)
    damage(_spare(root))
    post.write_text("---\ntitle: P\ndate: 2024-01-01\n---\n\nfirst text\n")
    _build(root)


def test_flipped_bytes_in_a_spare_file_are_never_published(tmp_path):
    make_site(tmp_path, {"q.md": "---\ntitle: Q\ndate: 2023-01-01\n---\n\nsteady text\n"})

    def flip_every_file(spare: Path) -> None:
        for path in (p for p in spare.rglob("*") if p.is_file() and p.stat().st_size):
            data, st = bytearray(path.read_bytes()), path.stat()
            data[0] ^= 0x20  # same inode, size and times: only the bytes differ
            with open(path, "r+b") as f:
                f.write(bytes(data))
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))

    _three_builds(tmp_path, flip_every_file)
    clean = tmp_path / "clean"
    shutil.copytree(tmp_path / "content", clean / "content")
    shutil.copy(tmp_path / "postil.yaml", clean)
    _build(clean, cache=False)
    for _ in range(2):  # published by the third build, and kept by the next
        assert _tree(tmp_path / "_site") == _tree(clean / "_site")
        _build(tmp_path)


def _tree(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in directory.rglob("*")
        if p.is_file()
    }


def test_a_file_in_place_of_the_spare_directory_never_fails_a_build(tmp_path):
    make_site(tmp_path, {})

    def replace_with_file(spare: Path) -> None:
        shutil.rmtree(spare)
        spare.write_text("not a directory")

    _three_builds(tmp_path, replace_with_file)
    _build(tmp_path)  # and the build after it
    assert "first text" in (tmp_path / "_site/posts/p/index.html").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("._site")] == []


# ## Equation labels ##


def test_labels_with_spaces_quotes_and_angles_get_distinct_ids_and_resolve(tmp_path):
    body = (
        '$$x \\label{a b}$$\n\n$$y \\label{a"b}$$\n\n$$z \\label{a<b}$$\n\n'
        'See $\\eqref{a b}$, \\eqref{a"b} and $\\eqref{a<b}$.\n'
    )
    make_site(tmp_path, {"e.md": f"---\ntitle: E\ndate: 2024-01-01\n---\n\n{body}"})
    result = _build(tmp_path)
    assert not result.warnings
    page = (tmp_path / "_site/posts/e/index.html").read_text(encoding="utf-8")
    import re

    ids = re.findall(r'<mtr id="([^"]+)"', page)
    assert len(ids) == len(set(ids)) == 3
    links = re.findall(r'<a (?:class="eqref" )?href="#([^"]+)">\(?(\d+)\)?</a>', page)
    assert sorted(links) == sorted(zip(ids, ["1", "2", "3"], strict=True))
    assert "??" not in page


def test_labels_that_share_an_anchor_are_a_warning_that_fails_a_strict_build(tmp_path):
    body = "$$x \\label{eq:a}$$\n\n$$y \\label{eq-a}$$\n"
    make_site(tmp_path, {"e.md": f"---\ntitle: E\ndate: 2024-01-01\n---\n\n{body}"})
    with pytest.raises(BuildFailed) as caught:
        _build(tmp_path, strict=True)
    assert "give the same anchor #eq-a" in caught.value.diagnostics[0].message


# ## Notes ##


def test_a_warning_in_a_note_cited_twice_is_reported_once_and_its_text_shown_once(tmp_path):
    body = "A[^n] and B[^n].\n\n[^n]: Note $\\nosuchcommand$ text.\n"
    make_site(tmp_path, {"n.md": f"---\ntitle: N\ndate: 2024-01-01\n---\n\n{body}"})
    result = _build(tmp_path)
    assert len(result.warnings) == 1
    page = (tmp_path / "_site/posts/n/index.html").read_text(encoding="utf-8")
    paragraph = page[page.index("<p>A") : page.index("</p>", page.index("<p>A"))]
    assert paragraph.count("Note <span") == 1
    assert '<a href="#fn-1" id="fnref-1-2">1</a>' in paragraph
    assert 'href="#fnref-1-2"' in page  # the Notes entry links back to both markers


def test_a_margin_note_cited_twice_shows_once_and_the_second_marker_links_to_it(tmp_path):
    body = "A[^m] and B[^m].\n\n[^m]: {-} Margin words.\n"
    make_site(tmp_path, {"n.md": f"---\ntitle: N\ndate: 2024-01-01\n---\n\n{body}"})
    _build(tmp_path)
    page = (tmp_path / "_site/posts/n/index.html").read_text(encoding="utf-8")
    assert page.count("Margin words.") == 1
    assert '<a href="#mn-1" aria-label="Margin note">' in page


# ## YAML messages ##


def test_an_unquoted_colon_in_a_title_says_to_quote_it(tmp_path):
    make_site(tmp_path, {"c.md": "---\ntitle: Attention: a primer\n---\nx\n"})
    with pytest.raises(BuildFailed) as caught:
        _build(tmp_path)
    assert "must be quoted" in caught.value.diagnostics[0].message


@pytest.mark.parametrize("escape", ["a", "b", "f"])
def test_a_yaml_escape_that_makes_a_control_character_warns_naming_it(tmp_path, escape):
    title = f'"Why \\{escape}lpha matters"'
    make_site(tmp_path, {"y.md": f"---\ntitle: {title}\ndate: 2024-01-01\n---\nx\n"})
    result = _build(tmp_path)
    (warning,) = result.warnings
    assert f"`\\{escape}`" in warning.message and warning.location.line == 2


# ## Serve ##


def test_serve_answers_a_burst_of_200_concurrent_requests(tmp_path):
    from postil.serve import DevServer, ServeOptions

    make_site(tmp_path, {"p.md": "---\ntitle: P\ndate: 2024-01-01\n---\nx\n"})
    with DevServer(ServeOptions(tmp_path, port=0)) as server:
        host, port = server.http.server_address[:2]
        start = threading.Barrier(200)

        def fetch(_: int) -> int:
            conn = http.client.HTTPConnection(host, port, timeout=20)
            start.wait()
            try:
                conn.request("GET", "/")
                return conn.getresponse().status
            finally:
                conn.close()

        with ThreadPoolExecutor(200) as pool:
            statuses = list(pool.map(fetch, range(200)))
    assert statuses == [200] * 200


def test_a_file_still_open_for_writing_is_not_built_until_closed(tmp_path):
    path = tmp_path / "p.md"
    path.write_text("half")
    built: list[float] = []
    batcher: ChangeBatcher[None] = ChangeBatcher(lambda c: built.append(time.monotonic()))
    batcher.start()
    try:
        batcher.add(ChangeSet(content={path}, writing={path}))
        time.sleep(0.4)
        assert built == []  # the writer paused; the half file is not built
        closed = time.monotonic()
        path.write_text("half and the rest")
        batcher.add(ChangeSet(content={path}, settled={path}))
        deadline = time.monotonic() + 5
        while not built and time.monotonic() < deadline:
            time.sleep(0.01)
        assert built and built[0] >= closed
    finally:
        batcher.stop()
