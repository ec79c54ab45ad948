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
        ("content/blog/_index.md", True),
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


def test_a_page_bundle_is_published_at_its_folder_and_section_pages_are_warned_not_published(
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
        "content/blog/_index.md:1:1",
        "content/index.md:1:1",
        "content/posts/_index.md:1:1",
    ]
    assert all("is not published" in w.message for w in result.warnings)
    site = root / "_site"
    published = sorted(str(p.relative_to(site)) for p in site.rglob("index.html"))
    assert published == [
        "archive/index.html",
        "bar/index.html",
        "index.html",
        "notes/foo/index.html",
        "notes/index.html",
        "notes/qux/index.html",
        "posts/first/index.html",
        "tags/index.html",
    ]
    assert 'href="/notes/foo/"' in (site / "notes/index.html").read_text(encoding="utf-8")
    assert "Intro." not in "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
