"""End-to-end builds through the `postil` command: a tiny site, this repository's site, errors."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import html as lxml_html
from support.sites import make_site

REPO = Path(__file__).resolve().parents[2]
TINY = REPO / "tests" / "sites" / "tiny"
REFERENCE = "posts/attention-from-the-softmax-up/index.html"


def run_postil(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m postil -C root ...` and return the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def tree_bytes(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def repo_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("repo") / "_site"
    result = run_postil(REPO, "build", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"built 1 post, \d+ files in \d+\.\d\d s → .*\n", result.stdout)
    return out


@pytest.fixture(scope="module")
def reference(repo_site):
    return lxml_html.fromstring((repo_site / REFERENCE).read_bytes())


def test_tiny_site_builds_posts_pages_and_assets(tmp_path):
    out = tmp_path / "out"
    result = run_postil(TINY, "build", "--out", str(out))
    assert result.returncode == 0, result.stderr
    files = tree_bytes(out)
    for rel in [
        "index.html",
        "posts/first-post/index.html",
        "posts/second/index.html",
        "about/index.html",
        "404.html",
        ".nojekyll",
        "css/pygments.css",
        "css/base.css",
    ]:
        assert rel in files, rel
    assert "posts/third/index.html" not in files  # draft
    for path in out.rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) == (0o755 if path.is_dir() else 0o644)


def test_drafts_flag_builds_drafts(tmp_path):
    result = run_postil(TINY, "build", "--drafts", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "o/posts/third/index.html").is_file()


def test_titles_with_html_are_escaped_everywhere(tmp_path):
    run_postil(TINY, "build", "--out", str(tmp_path / "o"))
    page = (tmp_path / "o/posts/second/index.html").read_text()
    assert "<b>bold</b>" not in page
    assert "Second: a &lt;b&gt;bold&lt;/b&gt; &amp; careful title" in page
    assert "<b>bold</b>" not in (tmp_path / "o/index.html").read_text()


def test_internal_links_carry_the_base_path(tmp_path):
    run_postil(TINY, "build", "--out", str(tmp_path / "o"))
    doc = lxml_html.fromstring((tmp_path / "o/404.html").read_bytes())
    hrefs = [a.get("href") for a in doc.iter("a")] + [link.get("href") for link in doc.iter("link")]
    internal = [h for h in hrefs if h and not h.startswith(("http", "#"))]
    assert internal and all(h.startswith("/tiny/") for h in internal), internal


@pytest.mark.slow
def test_two_builds_are_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    env = dict(os.environ, PYTHONHASHSEED="1")
    subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(TINY), "build", "--out", str(a)],
        env=env,
        check=True,
    )
    env["PYTHONHASHSEED"] = "2"
    subprocess.run(
        [sys.executable, "-m", "postil", "-C", str(TINY), "build", "--out", str(b)],
        env=env,
        check=True,
        cwd=tmp_path,
    )
    assert tree_bytes(a) == tree_bytes(b)


@pytest.mark.slow
def test_reference_page_has_both_display_equations_and_all_inline_math(reference):
    body = reference.find_class("post-body")[0]
    blocks = body.xpath(".//math[@display='block']")
    inline = [
        m
        for m in body.xpath(".//math[not(@display='block')]")
        if not m.xpath("ancestor::*[contains(concat(' ', @class, ' '), ' sidenote ')]")
    ]
    assert len(blocks) == 2
    # 25 inline formulas in the prose and table, 1 in the first note (margin copies not counted)
    assert len(inline) == 26


def test_reference_page_keeps_the_tex_source_of_each_formula(reference):
    annotations = [a.text for a in reference.xpath("//annotation[@encoding='application/x-tex']")]
    assert any(
        t.strip().startswith(r"\operatorname{Attention}(Q, K, V) = \operatorname{softmax}\!\left(")
        for t in annotations
    )
    assert r"Q \in \mathbb{R}^{n \times d}" in annotations


def test_reference_page_has_both_code_captions_and_highlighting(reference):
    captions = [
        c.text_content().strip()
        for c in reference.xpath("//figcaption[contains(@class,'code-title')]")
    ]
    assert captions == ["attention.py", "check.py"]
    assert reference.xpath("//pre//span[contains(@class,'k')]"), "Pygments token spans missing"


def test_reference_page_notes_have_working_back_links(reference):
    section = reference.xpath("//section[contains(@class,'footnotes')]")[0]
    items = section.xpath(".//li")
    assert len(items) == 2
    ids = set(reference.xpath("//@id"))
    for item in items:
        assert item.get("id") in ids
        backrefs = item.xpath(".//a[contains(@class,'footnote-backref')]")
        assert backrefs and all(a.get("href")[1:] in ids for a in backrefs)
        assert "↩" in backrefs[0].text_content()
    assert "fully masked row does not produce NaNs" in items[0].text_content()


def test_reference_page_has_the_cite_block_reading_time_and_figure(reference):
    bibtex = reference.get_element_by_id("bibtex-entry").text_content()
    assert bibtex.startswith("@misc{sahu2026attention,")
    assert re.search(
        r"url +\= \{https://ojus1\.github\.io/posts/attention\-from\-the\-softmax\-up/\}", bibtex
    )
    assert reference.find_class("reading-time")[0].text_content().strip() == "3 min read"
    assert reference.find_class("post-label")[0].text_content().strip() == "Placeholder post"
    figure = reference.get_element_by_id("fig-temperature")
    assert "Figure 1" in figure.text_content()
    assert "entropy" in figure.text_content()


def test_reference_page_ids_are_unique(reference):
    ids = reference.xpath("//@id")
    assert len(ids) == len(set(ids))


# --- errors -----------------------------------------------------------------------------


def built_once(root: Path) -> dict[str, bytes]:
    result = run_postil(root, "build")
    assert result.returncode == 0, result.stderr
    return tree_bytes(root / "_site")


GOOD = "---\ntitle: Good\ndate: 2024-01-01\n---\n\nFine.\n"


@pytest.mark.parametrize(
    "text, location, message",
    [
        ("---\ntitle: T\ntags: [a\n---\n", "content/posts/bad.md:3:7", "YAML syntax error"),
        (  # at the value written that takes the other post's URL (session 45's trial)
            "---\ntitle: T\ndate: 2024-01-01\nslug: good\n---\n\nText.\n",
            "content/posts/bad.md:4:7",
            "slug `good` is also used by content/posts/good.md",
        ),
    ],
    ids=["bad-yaml", "slug-taken"],
)
@pytest.mark.slow
def test_content_errors_exit_1_with_location_and_keep_the_old_site(
    tmp_path, text, location, message
):
    root = make_site(tmp_path / "site", {"good.md": GOOD})
    before = built_once(root)
    (root / "content/posts/bad.md").write_text(text)
    result = run_postil(root, "build")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(location), result.stderr
    assert message in first
    assert tree_bytes(root / "_site") == before


@pytest.mark.parametrize(
    "body, location, message",
    [
        ("Text with a note.[^nope]\n", "content/posts/w.md:6:", "nope"),
        ("Math $\\unknowncmd{x}$ here.\n", "content/posts/w.md:6:", "\\unknowncmd"),
        ("See $\\frac{a}{$ here.\n", "content/posts/w.md:6:14", "{ is never closed"),
    ],
    ids=["undefined-note", "unknown-command", "unparseable-latex"],
)
@pytest.mark.slow
def test_warnings_exit_0_and_fail_under_strict(tmp_path, body, location, message):
    root = make_site(tmp_path / "site", {"w.md": f"---\ntitle: W\ndate: 2024-01-01\n---\n\n{body}"})
    result = run_postil(root, "build")
    assert result.returncode == 0, result.stderr
    assert any(
        line.startswith(location) and message in line for line in result.stderr.splitlines()
    ), result.stderr
    strict = run_postil(root, "build", "--strict", "--out", str(tmp_path / "strict"))
    assert strict.returncode == 1
    assert not (tmp_path / "strict").exists()


def test_unknown_config_key_exits_2(tmp_path):
    root = make_site(tmp_path / "site", {"good.md": GOOD})
    (root / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://x.org/\ncolour: red\n"
    )
    result = run_postil(root, "build")
    assert result.returncode == 2
    assert "postil.yaml:4:1: unknown key `colour`" in result.stderr


def test_version_flag_prints_the_version():
    result = subprocess.run(
        [sys.executable, "-m", "postil", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert re.fullmatch(r"postil \d+\.\d+\.\d+\n", result.stdout)


def test_same_slug_in_two_files_is_an_error_naming_both(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": GOOD})
    (root / "content/posts/a").mkdir()
    (root / "content/posts/a/index.md").write_text(GOOD)
    result = run_postil(root, "build")
    assert result.returncode == 1
    assert "content/posts/a.md" in result.stderr and "content/posts/a/index.md" in result.stderr
    shutil.rmtree(root)


@pytest.mark.slow
def test_warnings_print_in_file_order_with_their_source_lines(tmp_path):
    body = "Late $\\unknowncmd$ here.\n\nEarly note[^nope] here.\n"
    root = make_site(
        tmp_path,
        {
            "b.md": f"---\ntitle: B\ndate: 2024-01-01\n---\n\n{body}",
            "a.md": f"---\ntitle: A\ndate: 2024-01-01\n---\n\n{body}",
        },
    )
    result = run_postil(root, "build")
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    locations = [line.split(": ")[0] for line in lines if line.startswith("content/")]
    assert locations == sorted(
        locations, key=lambda loc: (loc.split(":")[0], int(loc.split(":")[1]))
    )
    assert len(locations) == 4
    first = lines.index(next(line for line in lines if line.startswith("content/posts/a.md:6:")))
    assert lines[first + 1] == "    Late $\\unknowncmd$ here."
    strict = run_postil(root, "build", "--strict", "--out", str(tmp_path / "s"))
    assert strict.stderr.splitlines()[-1] == (
        "error: build failed with 4 warnings (errors under --strict); nothing was written"
    )


@pytest.mark.slow
def test_the_command_exits_with_its_code_and_flushed_output_also_under_a_profiler(tmp_path):
    """`postil` ends with os._exit (no teardown): the output must still arrive in full, the
    exit code must be kept, and a profiler wrapping it must still write its results."""
    import shutil

    root = shutil.copytree(TINY, tmp_path / "tiny", ignore=shutil.ignore_patterns(".postil-cache"))
    out = root / "_site"
    done = run_postil(root, "build")
    # Notes first (the tiny site is a project site: no robots.txt), the summary last.
    assert done.returncode == 0 and done.stdout.endswith(f"{out}\n")
    assert done.stdout.splitlines()[-1].startswith("built 2 posts")
    missing = run_postil(tmp_path / "nowhere", "build")
    assert missing.returncode == 2 and "postil.yaml" in missing.stderr
    # a reader that went away, or a full disk, loses the report of a build that succeeded
    command = [sys.executable, "-m", "postil", "-C", str(root), "build"]
    with open("/dev/full", "w") as full:
        to_full = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    assert (to_full.returncode, to_full.stderr) == (0, "")
    piped = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert piped.stdout is not None
    piped.stdout.close()  # as `postil build | true` does
    assert piped.wait(timeout=60) == 0 and b"Traceback" not in piped.stderr.read()
    profile = tmp_path / "build.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "postil", "--version"]
    profiled = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert profiled.returncode == 0 and profiled.stdout.startswith("postil ")
    assert profile.stat().st_size > 0


@pytest.mark.slow
def test_a_repeated_front_matter_key_builds_with_its_later_value_and_a_warning(tmp_path):
    """LoveIt's posts repeat `license:`; Jekyll and Hugo keep the last value, so does postil."""
    text = '---\ntitle: Draft title\nlicense: ""\ndate: 2024-01-01\ntitle: Real title\n---\n\nx\n'
    root = make_site(tmp_path / "site", {"rep.md": text})
    result = run_postil(root, "build")
    assert result.returncode == 0, result.stderr
    assert "content/posts/rep.md:2:1: warning: `title` is set again" in result.stderr
    html = (root / "_site/posts/rep/index.html").read_text()
    assert "<h1" in html and "Real title" in html and "Draft title" not in html
