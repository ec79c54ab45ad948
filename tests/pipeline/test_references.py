"""Every local reference of a post is checked at build: a missing file or page is a warning
at its line and column (an error under --strict), in `build` and in `serve` alike; two
sources published at one path are an error naming both."""

from __future__ import annotations

import pytest
from support.blog import build_site, make_site, post_text

from postil.errors import BuildFailed
from postil.serve.engine import DevBuild

BODY = """Intro.

![x](missing.png) and [gone](/posts/no-such-post/) and [ok](/posts/b/).

<img src="/img/nope.png" alt="n">

<div style="background: url('/img/bg.png')">x</div>
"""


def broken_site(tmp_path):
    posts = {"a.md": post_text("A", "2026-01-01", BODY), "b.md": post_text("B", "2026-01-02")}
    return make_site(tmp_path / "site", posts)


def test_each_missing_reference_is_a_warning_at_its_line_and_column(tmp_path):
    result = build_site(broken_site(tmp_path))
    found = [(str(w.location), w.message.split(" is not")[0]) for w in result.warnings]
    assert found == [
        ("content/posts/a.md:8:6", "`missing.png`"),
        ("content/posts/a.md:8:30", "`/posts/no-such-post/`"),
        ("content/posts/a.md:10:11", "`/img/nope.png`"),
        ("content/posts/a.md:12:30", "`/img/bg.png`"),
    ]
    assert (
        "no file content/posts/missing.png is published beside this post, nor anything at "
        "`/posts/a/missing.png`"
    ) in result.warnings[0].message


def test_missing_references_fail_a_strict_build(tmp_path):
    with pytest.raises(BuildFailed) as failed:
        build_site(broken_site(tmp_path), strict=True)
    assert len(failed.value.diagnostics) == 4


def test_serve_reports_the_same_warnings_as_build(tmp_path):
    root = broken_site(tmp_path)
    expected = [w.report() for w in build_site(root).warnings]
    report = DevBuild(root, drafts=False).build()
    assert report.ok
    assert [w.report() for w in report.warnings] == expected


def test_raw_html_gets_the_base_path_like_markdown(tmp_path):
    root = broken_site(tmp_path)
    build_site(root)
    html = (root / "_site/posts/a/index.html").read_text("utf-8")
    assert '<img src="/blog/img/nope.png" alt="n">' in html
    assert "url(&#x27;/blog/img/bg.png&#x27;)" in html


@pytest.mark.parametrize(
    ("rel", "what"),
    [
        ("archive.md", "the archive (`archive/index.html`)"),
        ("tags.md", "the tag index (`tags/index.html`)"),
        ("tags/math.md", "a tag's list of posts (`tags/math/index.html`)"),
        ("page/2.md", "the list of posts (`page/2/index.html`)"),
    ],
)
def test_a_page_named_like_a_generated_page_is_an_error_naming_both(tmp_path, rel, what):
    posts = {f"p{n}.md": post_text(f"P{n}", f"2026-01-0{n}", tags=["math"]) for n in (1, 2, 3)}
    root = make_site(tmp_path / "site", posts, config="paginate: 2\n")
    (root / "content" / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / "content" / rel).write_text(post_text("Clash", None), encoding="utf-8")
    with pytest.raises(BuildFailed) as failed:
        build_site(root)
    errors = [d for d in failed.value.diagnostics if d.severity == "error"]
    (error,) = errors
    assert str(error.location) == f"content/{rel}:1:1"
    assert f"where {what} is published too" in error.message
