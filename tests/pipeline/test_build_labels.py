"""Section labels across pages (`FrontMatter.labels`, `render.site_labels`,
`references.label_page`): a bookdown book's `[text](#id)` and `\\@ref(id)` to another
chapter's section, a MyST project's `{ref}` and `[](#label)` to another page's `(label)=`
target, land there; what is ambiguous, or an R Markdown id linked from other Markdown,
stays a warning; a changed label renders the posts that referred to it again."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.blog import BASE, build_site, make_site, page, post_text

from postil.content.headers import section_labels

BASE_PATH = "/" + BASE.split("/", 3)[3]  # the project site's path, "/blog/"


def _hrefs(out: Path, rel: str) -> list[tuple[str, str]]:
    body = page(out, rel).xpath("//div[contains(@class, 'post-body')]//a[@href]")
    return [(a.get("href"), a.text_content()) for a in body]


def test_section_labels_are_myst_targets_and_r_markdowns_heading_and_html_ids():
    body = (
        "(intro)=\n## Intro $x$\n\n```\n(in-code)=\n# Not {#code}\n```\n\n"
        "## Stargazer *tables* {#stargazer .unnumbered}\n\n### Split and apply\n\n"
        '### <span id="opts">**Chunk options**</span>\n\nText <a id="here"></a>.\n'
    )
    assert section_labels(body, rmarkdown=True) == (
        ("intro", "Intro $x$", True),
        ("intro-x", "Intro $x$", False),  # Pandoc's id of the heading, which is postil's
        ("stargazer", "Stargazer tables", True),
        ("split-and-apply", "Split and apply", False),
        ("chunk-options", "Chunk options", False),
        ("opts", "", True),  # raw HTML's ids
        ("here", "", True),
    )
    assert section_labels(body, rmarkdown=False) == (("intro", "Intro $x$", True),)


def test_an_r_markdown_setext_headings_label_is_found_and_a_thematic_break_is_none():
    """Pandoc (and bookdown) read `Results` over a line of `-` or `=` as a heading: its
    id was not found, and a link from another chapter warned 'no such anchor'."""
    body = (
        "Intro\n=====\n\nSetext {#set .unnumbered}\n-----\n\n- item\n---\n\n"
        "> quoted\n---\n\nTwo\nlines\n---\n\n## Atx\n"
    )
    assert section_labels(body, rmarkdown=True) == (
        ("intro", "Intro", False),
        ("set", "Setext", True),
        ("atx", "Atx", False),
    )


def test_a_link_to_another_chapters_setext_heading_lands_on_it(tmp_path):
    posts = {
        "a.Rmd": post_text("A", "2024-01-01", "See [results](#results) and \\@ref(set).\n"),
        "b.Rmd": post_text("B", "2024-01-02", "Results\n-------\n\nSetext {#set}\n======\n"),
    }
    make_site(tmp_path, posts)
    assert build_site(tmp_path).warnings == ()
    assert _hrefs(tmp_path / "_site", "posts/a/index.html") == [
        (f"{BASE_PATH}posts/b/#results", "results"),
        (f"{BASE_PATH}posts/b/#set", "Setext"),
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("labels")
    posts = {
        "a.Rmd": post_text(
            "A",
            "2024-01-01",
            "See [the tables](#stargazer), \\@ref(split-and-apply), [options](#opts), "
            "[twice](#twice) and [nothing](#nothing).\n",
        ),
        "b.Rmd": post_text(
            "B",
            "2024-01-02",
            "## Tables {#stargazer}\n\n## Split and apply\n\n"
            '<span id="opts">Options</span>\n\n## Twice {#twice}\n',
        ),
        "c.Rmd": post_text("C", "2024-01-03", "## Again {#twice}\n"),
        "m.md": post_text(
            "M",
            "2024-01-04",
            "See {ref}`intro-n`, [](#intro-n), [text](#intro-n) and [tables](#stargazer).\n",
        ),
        "n.md": post_text("N", "2024-01-05", "(intro-n)=\n## The introduction\n\nText.\n"),
    }
    make_site(root, posts)
    result = build_site(root)
    return root / "_site", [str(w) for w in result.warnings]


def test_a_bookdown_chapters_links_and_refs_land_on_another_chapters_sections(built):
    out, warnings = built
    assert _hrefs(out, "posts/a/index.html")[:3] == [
        (f"{BASE_PATH}posts/b/#stargazer", "the tables"),
        (f"{BASE_PATH}posts/b/#split-and-apply", "Split and apply"),
        (f"{BASE_PATH}posts/b/#opts", "options"),
    ]
    on_a = [w for w in warnings if w.startswith("content/posts/a.Rmd")]
    # `twice` is two chapters' id and `nothing` none: each stays this page's, and warns
    assert len(on_a) == 2 and "`#twice`" in on_a[0] and "`#nothing`" in on_a[1]


def test_a_myst_pages_ref_and_links_land_on_another_pages_target(built):
    out, warnings = built
    assert _hrefs(out, "posts/m/index.html")[:3] == [
        (f"{BASE_PATH}posts/n/#intro-n", "The introduction"),
        (f"{BASE_PATH}posts/n/#intro-n", "The introduction"),
        (f"{BASE_PATH}posts/n/#intro-n", "text"),
    ]
    # an R Markdown heading's id is its book's: plain Markdown's `#stargazer` is its own
    [on_m] = [w for w in warnings if w.startswith("content/posts/m.md")]
    assert "link to `#stargazer`: this page has no such anchor" in on_m


def test_a_changed_label_renders_the_page_that_referred_to_it_again(tmp_path):
    posts = {
        "a.Rmd": post_text("A", "2024-01-01", "See [the tables](#stargazer).\n"),
        "b.Rmd": post_text("B", "2024-01-02", "## Tables {#stargazer}\n"),
    }
    make_site(tmp_path, posts)
    assert build_site(tmp_path).warnings == ()
    out = tmp_path / "_site"
    assert _hrefs(out, "posts/a/index.html") == [(f"{BASE_PATH}posts/b/#stargazer", "the tables")]
    (tmp_path / "content/posts/b.Rmd").write_text(
        post_text("B", "2024-01-02", "## Tables {#tables}\n"), encoding="utf-8"
    )
    warnings = [str(w) for w in build_site(tmp_path).warnings]  # the cache of the first
    assert _hrefs(out, "posts/a/index.html") == [("#stargazer", "the tables")]
    assert len(warnings) == 1 and "link to `#stargazer`" in warnings[0]
