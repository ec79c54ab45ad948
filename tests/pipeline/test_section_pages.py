"""Pages in folders, and other generators' home and section pages (`_index.md`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from postil.build import BuildOptions, build
from postil.content.posts import section_index

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/\n"
PAGE = "---\ntitle: {}\n---\n{} body.\n"
ZOLA_SECTION = '+++\ntitle = "Blog"\nsort_by = "date"\n+++\n\nIntro.\n'


def write(root: Path, files: dict[str, str]) -> Path:
    (root / "postil.yaml").parent.mkdir(parents=True, exist_ok=True)
    (root / "postil.yaml").write_text(CONFIG, encoding="utf-8")
    for rel, text in files.items():
        path = root / "content" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("rel", "is_section"),
    [
        ("content/_index.md", True),
        ("content/posts/_index.md", True),
        ("content/blog/_index.md", False),  # a section with text: the page `blog/`
        ("content/posts/series/_index.md", True),
        ("content/notes/algebra/_index.markdown", False),
        ("content/index.md", True),
        ("content/posts/index.qmd", True),
        ("content/posts/x/index.md", False),  # a post's bundle
        ("content/notes/index.md", False),  # the page `notes/`
        ("content/about.md", False),
        ("content/posts/index-of-terms.md", False),
    ],
)
def test_section_index_tells_home_and_section_pages_from_content(rel, is_section):
    assert (section_index(rel) is not None) is is_section


def test_a_page_bundle_and_a_section_with_text_are_published_at_their_folders(
    tmp_path,
):
    root = write(
        tmp_path / "site",
        {
            "_index.md": '+++\nsort_by = "date"\n+++\n',
            "index.md": "---\nlayout: home\n---\n",
            "posts/_index.md": "---\ntitle: Posts\n---\n",
            "blog/_index.md": ZOLA_SECTION,
            "bar/index.md": PAGE.format("Bar", "Bar"),
            "notes/index.md": PAGE.format("Notes", "See [foo](foo/index.md)."),
            "notes/foo/index.md": PAGE.format("Foo", "Foo"),
            "notes/baz/index.md": "---\ntitle: Baz\nslug: qux\n---\nQux.\n",
            "posts/first.md": "---\ntitle: First\ndate: 2024-01-01\n---\nBody.\n",
        },
    )
    result = build(BuildOptions(root=root))
    assert sorted(str(w).split(": warning: ")[0] for w in result.warnings) == [
        "content/_index.md:1:1",
        "content/index.md:1:1",
        "content/posts/_index.md:1:1",
    ]
    assert all("is not published" in w.message for w in result.warnings)
    site = root / "_site"
    published = sorted(str(p.relative_to(site)) for p in site.rglob("index.html"))
    assert published == [
        "archive/index.html",
        "bar/index.html",
        "blog/index.html",
        "index.html",
        "notes/foo/index.html",
        "notes/index.html",
        "notes/qux/index.html",
        "posts/first/index.html",
        "tags/index.html",
    ]
    assert 'href="/notes/foo/"' in (site / "notes/index.html").read_text(encoding="utf-8")
    assert "Intro." in (site / "blog/index.html").read_text(encoding="utf-8")


def test_a_section_page_with_text_is_its_folders_page_and_one_without_is_left_out(tmp_path):
    """A Hugo Book chapter's `_index.md` holds the chapter's introduction, and its pages link
    to it with `relref`: it is the page at the folder's URL, its images beside it; a section
    page of front matter only (Hugo's list of the section) is left out with a warning."""
    root = write(
        tmp_path / "site",
        {
            "notes/algebra/_index.md": PAGE.format("Algebra", "Groups: $G$. ![a](img/a.svg)"),
            "notes/algebra/img/a.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>',
            "notes/algebra/groups.md": PAGE.format(
                "Groups", '[Up]({{< relref "_index" >}}), [top]({{< ref "/notes/algebra" >}})'
            ),
            "notes/empty/_index.md": "---\ntitle: Empty\n---\n\n",
            "images/_index.md": "",  # Hugo's headless section of files: never a page
            "notes/untitled/_index.md": "Just text.\n",
        },
    )
    result = build(BuildOptions(root=root))
    images, empty, untitled_warning = sorted(map(str, result.warnings))
    assert images.startswith("content/images/_index.md:1:1: warning: this section page"), images
    assert empty.startswith(
        "content/notes/empty/_index.md:1:1: warning: this section page (Hugo's `_index.md`) "
        "has no text"
    ), empty
    assert untitled_warning.startswith(
        "content/notes/untitled/_index.md:1:1: warning: no `title` and no `# heading`"
    ), untitled_warning
    site = root / "_site"
    chapter = (site / "notes/algebra/index.html").read_text(encoding="utf-8")
    assert "<h1" in chapter and ">Algebra<" in chapter
    assert 'src="/notes/algebra/img/a.svg"' in chapter
    groups = (site / "notes/algebra/groups/index.html").read_text(encoding="utf-8")
    assert groups.count('href="/notes/algebra/"') >= 2
    assert not (site / "notes/empty").exists()
    untitled = (site / "notes/untitled/index.html").read_text(encoding="utf-8")
    assert ">Untitled<" in untitled and "Just text." in untitled
