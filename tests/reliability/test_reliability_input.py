"""Messy and hostile input, each kind end to end: the build succeeds with the right output or
fails with located errors — never a traceback, never a changed value, never injected markup.

Byte-level cases (BOM, CRLF, Latin-1) are written into `tmp_path` here, since git may rewrite
line endings; the plain-text invalid sites live in `tests/sites/invalid/<case>/`, each with an
`expected.txt` holding the exact first error lines the build must print.
"""

from __future__ import annotations

import json
import re
import shutil
from functools import partial
from pathlib import Path

import pytest
from lxml import html as lxml_html
from support import sites
from support.build import build_site

from postil.build import BuildOptions, build
from postil.errors import BuildFailed, TemplateError, as_diagnostic, located

INVALID = Path(__file__).parents[1] / "sites" / "invalid"
CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)
HEAD = "---\ntitle: T\ndate: 2024-01-01\n---\n"


def build_ok(root: Path, **options: object) -> Path:
    """Build `root` into root/_site and return the output directory."""
    build(BuildOptions(root=root, **options))  # type: ignore[arg-type]
    return root / "_site"


def build_errors(root: Path, **options: object) -> list[str]:
    """Build `root`, which must fail, and return its diagnostics as printed lines."""
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=root, **options))  # type: ignore[arg-type]
    assert not (root / "_site").exists()
    return [str(d) for d in failed.value.diagnostics]


def page(out: Path, slug: str = "p") -> lxml_html.HtmlElement:
    return lxml_html.fromstring((out / f"posts/{slug}/index.html").read_bytes())


def body_text(out: Path, slug: str = "p") -> str:
    return page(out, slug).find_class("post-body")[0].text_content()


# --- encodings and line endings -----------------------------------------------------------


def test_utf8_with_a_bom_builds_and_the_bom_is_gone(tmp_path):
    out = build_ok(
        make_site(tmp_path / "site", {"p.md": b"\xef\xbb\xbf" + HEAD.encode() + b"Hi\n"})
    )
    assert page(out).findtext(".//h1").strip() == "T"
    assert "\ufeff" not in (out / "posts/p/index.html").read_text()


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "lone-cr"])
def test_crlf_and_lone_cr_build_and_errors_keep_their_line_numbers(tmp_path, newline):
    text = HEAD + "one\n\ntwo $\\frac{a}{$ three\n"
    root = make_site(tmp_path / "site", {"p.md": text.replace("\n", newline)})
    [error] = build_errors(root, strict=True)  # the broken formula is a warning
    assert error.startswith("content/posts/p.md:7:"), error
    (root / "content/posts/p.md").write_text((HEAD + "a\nb\n").replace("\n", newline))
    assert "\r" not in body_text(build_ok(root))


def test_latin1_file_is_an_error_naming_the_file_byte_line_and_column(tmp_path):
    data = HEAD.encode() + "caf\xe9\n".encode("latin-1")
    [error] = build_errors(make_site(tmp_path / "site", {"p.md": data}))
    assert error == (
        "content/posts/p.md:5:4: the file is not valid UTF-8 at byte 37 (0xe9); save it as UTF-8"
    )


def test_a_non_utf8_file_does_not_hide_the_errors_of_other_files(tmp_path):
    root = make_site(
        tmp_path / "site", {"a.md": b"\xff\xfe", "b.md": HEAD + "x[^n]\n", "c.md": "---\n"}
    )
    errors = build_errors(root, strict=True)
    assert [e.split(":")[0] for e in errors] == [
        "content/posts/a.md",
        "content/posts/b.md",
        "content/posts/c.md",
    ]


# --- front matter shapes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("---\ntitle: T\nbody\n", "content/posts/p.md:1:1: front matter has no closing `---`"),
        ("---\n- a\n- b\n---\n", "content/posts/p.md:2:1: the document must be a mapping"),
        ("---\njust words\n---\n", "content/posts/p.md:2:1: the document must be a mapping"),
        ("---\n\ttitle: T\n---\n", "content/posts/p.md:2:1: YAML syntax error"),
        ("---\ntitle: T\ndraft: no\n---\n", "content/posts/p.md:3:8: `draft` must be true"),
        ("---\ntitle: T\ndate: 2024-3-5T10:00+25:00\n---\n", "content/posts/p.md:3:7: `date`:"),
        pytest.param(
            "---\ntitle: " + "[" * 3000 + "\n---\n",
            "content/posts/p.md:2:1: YAML is nested too",
            marks=pytest.mark.slow,
        ),
        ("---\ntitle: a\fb\n---\n", "content/posts/p.md:2:9: character U+000C is not allowed"),
    ],
    ids=[
        "no-closing-fence",
        "yaml-list",
        "yaml-scalar",
        "tab-indentation",
        "draft-no",
        "offset-out-of-range",
        "yaml-nested-3000",
        "form-feed-in-yaml",
    ],
)
def test_broken_front_matter_is_a_located_error(tmp_path, text, expected):
    [error] = build_errors(make_site(tmp_path / "site", {"p.md": text}))
    assert error.startswith(expected), error


@pytest.mark.parametrize("text", ["", "\ufeff\n\n", " \n\t\n"], ids=["empty", "bom", "blank"])
def test_an_empty_file_is_left_out_with_a_warning_and_the_rest_builds(tmp_path, text):
    """A post being started (`touch`, an editor's new file) stops no build, as in Hugo,
    Jekyll, MkDocs and Pelican: it is not published, and the warning says what to write."""
    root = make_site(tmp_path / "site", {"p.md": text, "q.md": HEAD + "Text.\n"})
    result = build(BuildOptions(root=root))
    assert [str(w) for w in result.warnings] == [
        "content/posts/p.md:1:1: warning: the file is empty, so nothing is published for it; "
        "write front matter with a `title:` and the post's text, or delete the file"
    ]
    assert result.posts == 1
    assert (root / "_site/posts/q/index.html").is_file()
    assert not (root / "_site/posts/p").exists()


def test_characters_html_forbids_are_left_out_with_one_located_warning(tmp_path):
    """A unit separator between two formulas (a real Hugo blog's post), a lone ESC, a
    noncharacter: Hugo publishes them and a browser shows nothing, so they no longer stop the
    build. They are left out of every output (a page holding one is invalid HTML, a feed
    holding one is not XML) with one warning at the first, naming the rest; `--strict`
    still refuses them."""
    text = HEAD + "A formula $x$\x1f and $y$.\n\nls \x1b red\n\nbad \ufffe end\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    result = build(BuildOptions(root=root))
    assert [str(w) for w in result.warnings] == [
        "content/posts/p.md:5:14: warning: characters U+001B, U+001F, U+FFFE are not allowed"
        " in HTML and were left out (3 in all, lines 5, 7, 9); delete them from the file (a"
        " pasted terminal colour code or control character, or a corrupt file?)"
    ]
    out = root / "_site"
    body = page(out).find_class("post-body")[0]
    formulas = [m for m in body.iter() if m.tag.endswith("math")]
    assert [m.get("display", "inline") for m in formulas] == ["inline", "inline"]
    for formula in formulas:
        formula.drop_tree()
    assert body.text_content().split() == ["A", "formula", "and", ".", "ls", "red", "bad", "end"]
    for path in [*out.rglob("*.html"), *out.rglob("*.xml")]:
        assert not re.search("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffe]", path.read_text()), path
    again = build(BuildOptions(root=root))  # a post with a warning is never served from cache
    assert [w.location.line for w in again.warnings] == [5]
    shutil.rmtree(out)
    assert build_errors(root, strict=True)[0].startswith("content/posts/p.md:5:14: warning: ")


def test_one_forbidden_character_is_named_alone(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": HEAD + "x\n\n  y\x07\n"})
    [warning] = [str(w) for w in build(BuildOptions(root=root)).warnings]
    assert warning.startswith(
        "content/posts/p.md:7:4: warning: character U+0007 is not allowed in HTML and was left"
        " out (1 in all, line 7); delete it from the file"
    ), warning


def test_terminal_escape_sequences_pasted_with_output_are_taken_out(tmp_path):
    """pip's and docker's output pasted into a code block carries `ESC[K`, `ESC[1B`,
    `ESC[31m` (2 of 111 posts of one real Jekyll blog): they stopped the build as forbidden
    characters; a terminal shows them as no text, and so does the page now."""
    text = HEAD + "    $ pip install x\n    \x1b[K     |████| 1.8MB\n    \x1b[31mERROR\x1b[0m: y\n"
    out = build_ok(make_site(tmp_path / "site", {"p.md": text}))
    code = page(out).find(".//pre").text_content()
    assert code == "$ pip install x\n     |████| 1.8MB\nERROR: y\n"
    for path in out.rglob("*.html"):
        assert "\x1b" not in path.read_text(), path


def test_tabs_after_the_indentation_are_read_as_spaces(tmp_path):
    text = "---\ntitle:\tTabbed\there\t\ntags:\n  -\tone\n  - [two,\tthree]\n---\nx\n"
    root = make_site(tmp_path / "site", {"p.md": text.replace("  - [two,\tthree]\n", "")})
    out = build_ok(root)
    assert page(out).findtext(".//h1").strip() == "Tabbed here"
    assert [t.text for t in page(out).find_class("tag")] == ["one"]


def test_implicit_yaml_typing_keeps_text_as_written_and_dates_by_iso_8601(tmp_path):
    text = (
        "---\ntitle: no\ntags: [on, 1.10, no, null, 2024-01-01]\n"
        "date: 2024-3-5\nupdated: 2024-03-06 23:30:00-05:00\n---\nx\n"
    )
    out = build_ok(make_site(tmp_path / "site", {"p.md": text}))
    doc = page(out)
    assert doc.findtext(".//h1").strip() == "no"
    assert [t.text_content() for t in doc.find_class("tag")] == [
        "on",
        "1.10",
        "no",
        "null",
        "2024-01-01",
    ]
    times = {t.get("datetime") for t in doc.iter("time")}
    assert "2024-03-05T00:00:00+00:00" in times or "2024-03-05" in times, times


def test_control_characters_and_lone_surrogates_from_yaml_escapes_never_reach_the_page(tmp_path):
    text = '---\ntitle: "a\\x00b\\a\\x1bc\\u2028d \\ud800 e"\ntags: ["x\\x07y"]\n---\nz\n'
    out = build_ok(make_site(tmp_path / "site", {"p.md": text}))
    assert page(out).findtext(".//h1").strip() == "a b c d \ufffd e"
    assert [t.text_content() for t in page(out).find_class("tag")] == ["x y"]
    for path in out.rglob("*.html"):
        assert not re.search("[\x00-\x08\x0b\x0e-\x1f\x7f]", path.read_text()), path


def test_unknown_front_matter_keys_warn_with_the_known_keys_and_fail_only_under_strict(tmp_path):
    text = "---\ntitle: T\nnumber-sections: true\nweight: 3\ndate: 2024-01-01\n---\nx\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    result = build(BuildOptions(root=root))
    known = (
        " known keys: aliases, author, authors, bibliography, canonical_url, citation,"
        " citation_style, date,"
        " doi, draft, image, label, lang, lede, macros, permalink, slug, styles, subtitle, summary,"
        " tags, title, toc, updated"
    )
    assert [str(w) for w in result.warnings] == [
        "content/posts/p.md:3:1: warning: unknown front matter key `number-sections` is "
        "ignored;" + known,
        "content/posts/p.md:4:1: warning: unknown front matter key `weight` is ignored;" + known,
    ]
    again = build(BuildOptions(root=root))  # parsed posts come from the cache now
    assert again.warnings == result.warnings
    shutil.rmtree(root / "_site")
    assert len(build_errors(root, strict=True)) == 2


def test_an_unknown_key_of_many_files_is_one_warning_naming_the_others(tmp_path):
    """Hugo writes `weight:` in every page: one warning a key, at its first file, naming
    how many others write it; a key of one file keeps its own warning, in order."""
    files = {
        f"p{i}.md": f"---\ntitle: P{i}\ndate: 2024-01-01\nweight: {i}\n---\nx\n" for i in range(5)
    }
    files["p2.md"] = files["p2.md"].replace("weight: 2", "weight: 2\nmood: calm")
    root = make_site(tmp_path / "site", files)
    warnings = [str(w) for w in build(BuildOptions(root=root)).warnings]
    assert [w.split(": warning: ")[0] for w in warnings] == [
        "content/posts/p0.md:4:1",
        "content/posts/p2.md:5:1",
    ]
    assert warnings[0].startswith(
        "content/posts/p0.md:4:1: warning: unknown front matter key `weight` is ignored here "
        "and in 4 other files (content/posts/p1.md:4:1, content/posts/p2.md:4:1, "
        "content/posts/p3.md:4:1, …); known keys: aliases,"
    ), warnings[0]
    assert "`mood` is ignored; known keys" in warnings[1]
    shutil.rmtree(root / "_site")
    assert build_errors(root, strict=True)[0].startswith("content/posts/p0.md:4:1: warning:")


def test_front_matter_without_its_opening_line_in_many_files_is_one_warning(tmp_path):
    """Hexo 3's scaffold wrote no opening `---`, so every post of an old Hexo site lacks
    it: one warning, at the first file, naming the others; a single file keeps its own."""
    files = {
        f"p{i}.md": f"title: P{i}\ndate: 2017-03-0{i + 1}\ntags: [ml]\n---\nx\n" for i in range(4)
    }
    root = make_site(tmp_path / "site", files)
    warnings = [str(w) for w in build(BuildOptions(root=root)).warnings]
    assert warnings == [
        "content/posts/p0.md:1:1: warning: front matter has no opening `---` here and in 3 "
        "other files (content/posts/p1.md:1:1, content/posts/p2.md:1:1, "
        "content/posts/p3.md:1:1); the lines before the `---` on line 4 are read as front "
        "matter, as Hexo reads them (Jekyll and Hugo read none without the line); add a "
        "line `---` before line 1"
    ], warnings
    one = make_site(tmp_path / "one", {"a.md": files["p0.md"], "b.md": "---\ntitle: B\n---\n"})
    (alone,) = [str(w) for w in build(BuildOptions(root=one)).warnings if "opening" in str(w)]
    assert alone.startswith("content/posts/a.md:1:1: warning: front matter has no opening `---`; ")


def test_links_to_missing_anchors_warn_at_their_line(tmp_path):
    text = "---\ntitle: A\ndate: 2024-01-01\n---\n## Real\n\n[x](b.md#nope) [z](#nowhere)\n"
    b = "---\ntitle: B\ndate: 2024-01-01\n---\n## Real B\n"
    root = make_site(tmp_path / "site", {"a.md": text, "b.md": b})
    warnings = [str(w) for w in build(BuildOptions(root=root)).warnings]
    # columns point at the URL inside `[x](b.md#nope)` and `[z](#nowhere)`
    assert [w.split(": ")[0] for w in warnings] == [
        "content/posts/a.md:7:5",
        "content/posts/a.md:7:20",
    ]
    assert "content/posts/b.md has no such anchor" in warnings[0]
    assert "`#nowhere`: this page has no such anchor" in warnings[1]


def test_links_to_existing_anchors_in_other_posts_and_the_same_page_pass(tmp_path):
    head = "---\ntitle: {}\ndate: 2024-01-01\n---\n"
    text = head.format("A") + "## Real\n\n[x](b.md#real-b) [y](#real) [n](#notes)[^1]\n\n[^1]: N.\n"
    root = make_site(tmp_path / "site", {"a.md": text, "b.md": head.format("B") + "## Real B\n"})
    assert build(BuildOptions(root=root)).warnings == ()


# --- escaping -------------------------------------------------------------------------------

HOSTILE = "</script><script>alert(1)</script> & \"q\" 'a' }{\\"


def test_titles_and_tags_with_html_are_escaped_in_every_output_file(tmp_path):
    title = json.dumps(HOSTILE)
    text = f"---\ntitle: {title}\nsubtitle: {title}\nsummary: {title}\ntags: [{title}]\n"
    text += "date: 2024-01-01\n---\nBody.\n"
    out = build_ok(make_site(tmp_path / "site", {"p.md": text}))
    raw = "<script>alert(1)"
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        assert raw not in path.read_bytes().decode("utf-8", "replace"), path
    doc = page(out)
    assert doc.findtext(".//title").startswith(HOSTILE)
    assert doc.findtext(".//h1").strip() == HOSTILE
    [script] = doc.xpath("//script[@type='application/ld+json']")
    assert json.loads(script.text)["headline"] == HOSTILE
    [og_title] = doc.xpath("//meta[@property='og:title']/@content")
    assert og_title == HOSTILE
    feedparser = pytest.importorskip("feedparser")
    for feed in ("feed.xml", "rss.xml"):
        parsed = feedparser.parse((out / feed).read_bytes())
        assert not parsed.bozo, (feed, parsed.bozo_exception)
        assert parsed.entries[0].title == HOSTILE
        assert [t.term for t in parsed.entries[0].get("tags", [])] in ([], [HOSTILE])


def test_the_bibtex_entry_of_a_hostile_title_stays_one_well_formed_entry(tmp_path):
    bibtexparser = pytest.importorskip("bibtexparser")
    text = f"---\ntitle: {json.dumps(HOSTILE)}\ndate: 2024-01-01\n---\nBody.\n"
    out = build_ok(make_site(tmp_path / "site", {"p.md": text}))
    entry = page(out).get_element_by_id("bibtex-entry").text_content()
    library = bibtexparser.parse_string(entry)
    assert len(library.entries) == 1 and not library.failed_blocks
    assert set(library.entries[0].fields_dict) == {
        "author",
        "title",
        "howpublished",
        "year",
        "url",
        "urldate",
    }


# --- slugs ------------------------------------------------------------------------------------


def test_cjk_and_accented_names_give_ascii_slugs(tmp_path):
    root = make_site(
        tmp_path,
        {
            "中文标题.md": "---\ntitle: 中文标题\n---\nx\n",
            "x.md": "---\ntitle: Ünïcödé\nslug: Ünïcödé Straße\n---\ny\n",
        },
    )
    out = build_ok(root)
    assert (out / "posts/zhong-wen-biao-ti/index.html").is_file()
    assert (out / "posts/unicode-strasse/index.html").is_file()
    assert page(out, "zhong-wen-biao-ti").findtext(".//h1").strip() == "中文标题"


def test_a_name_and_title_of_only_emoji_ask_for_a_slug(tmp_path):
    [error] = build_errors(make_site(tmp_path / "site", {"🎉.md": "---\ntitle: 🎉🎉\n---\nx\n"}))
    assert error.startswith("content/posts/🎉.md:1:1: postil cannot make a URL slug")
    assert "add `slug: my-post`" in error


def test_two_posts_with_the_same_slug_are_an_error_naming_both_files(tmp_path):
    root = make_site(
        tmp_path,
        {"hello.md": HEAD + "a\n", "other.md": "---\ntitle: T\nslug: Hello\n---\nb\n"},
    )
    [error] = build_errors(root)
    # at the `slug:` that makes it collide (it was reported at 1:1)
    assert error.startswith("content/posts/other.md:3:7: slug `hello` is also used by")
    assert "content/posts/hello.md" in error


# --- the invalid sites ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", sorted(p.name for p in INVALID.iterdir() if p.is_dir()) if INVALID.is_dir() else []
)
def test_invalid_site_prints_exactly_its_expected_errors_and_exits_1(tmp_path, case):
    site = tmp_path / case
    shutil.copytree(INVALID / case, site)
    expected = (site / "expected.txt").read_text().splitlines()
    done = build_site(site, site / "_site", "--strict", timeout=60)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    located = [line for line in done.stderr.splitlines() if line.startswith("content/")]
    assert located == expected
    assert not (site / "_site").exists()


@pytest.mark.parametrize(
    ("expression", "error"),
    [
        ("{{ meta.nonexistent_field.x }}", "UndefinedError: 'postil.model.FrontMatter object'"),
        ("{{ 1 // 0 }}", "ZeroDivisionError: integer division or modulo by zero"),
    ],
)
def test_a_template_failing_while_it_renders_is_an_error_at_its_file_and_line(
    tmp_path, expression, error
):
    root = make_site(tmp_path / "site", {"p.md": HEAD + "x\n"})
    (root / "templates").mkdir(exist_ok=True)
    (root / "templates/post.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n\n' + expression + "\n{% endblock %}\n"
    )
    with pytest.raises(TemplateError) as failed:
        build(BuildOptions(root=root))
    found = str(located(as_diagnostic(failed.value), root))
    assert found.startswith(f"templates/post.html:4: rendering posts/p/index.html failed: {error}")
    assert not (root / "_site").exists()
