"""End to end: posts named as Jekyll names them (`2020-01-15-title.md`) are at
`/posts/title/`, the URL Jekyll's `:title` (Chirpy's `permalink: /posts/:title/`), Zola,
Eleventy and Docusaurus give them, so the blog's own root links to its posts land.

The posts are minimal reproductions written for these tests, never copies of real posts.
"""

from __future__ import annotations

from support.blog import build_into, build_site, make_site, post_text


def test_a_dated_file_name_is_dated_and_its_slug_has_no_date(tmp_path):
    root = make_site(
        tmp_path / "site",
        {
            "2020-01-15-softmax.md": post_text("Softmax", None, "See [it](/posts/other/).\n"),
            "2019-03-02-other.md": post_text("Other", None),
            "2018-07-01-kept.md": post_text("Kept", None, slug="2018-07-01-kept"),
            "2018-7-1-loose.md": post_text("Loose", "2018-07-01"),  # no Jekyll date: as named
        },
        pages={"2020-01-01-about.md": post_text("About", None)},  # a page keeps its name
    )
    result = build_site(root)
    out = build_into(root)
    assert [str(w) for w in result.warnings] == []
    posts = sorted(p.parent.name for p in (out / "posts").glob("*/index.html"))
    assert posts == [
        "2018-07-01-kept",
        "2018-7-1-loose",
        "2019-03-02-other",  # redirect pages: the dated URLs earlier versions gave them
        "2020-01-15-softmax",
        "other",
        "softmax",
    ]
    moved = (out / "posts/2020-01-15-softmax/index.html").read_text()
    assert 'http-equiv="refresh" content="0; url=' in moved and 'posts/softmax/"' in moved
    assert "http-equiv" not in (out / "posts/2018-07-01-kept/index.html").read_text()
    assert (out / "2020-01-01-about/index.html").is_file()
    assert 'datetime="2020-01-15' in (out / "posts/softmax/index.html").read_text()


def test_two_dated_posts_of_one_name_keep_their_dates_apart(tmp_path):
    # Jekyll's URLs held the date, so both were pages: the earlier keeps the slug
    root = make_site(
        tmp_path / "site",
        {
            "2020-12-31-year-in-review.md": post_text("2020", None),
            "2021-12-31-year-in-review.md": post_text("2021", None),
        },
    )
    assert build_site(root).warnings == ()
    out = build_into(root)
    assert ">2020<" in (out / "posts/year-in-review/index.html").read_text()
    assert ">2021<" in (out / "posts/2021-12-31-year-in-review/index.html").read_text()
    moved = (out / "posts/2020-12-31-year-in-review/index.html").read_text()
    assert 'posts/year-in-review/"' in moved  # the redirect from the earlier's dated URL


def test_a_root_link_in_the_jekyll_urls_capitals_reaches_the_lower_case_post(tmp_path):
    """Jekyll's `:title` keeps a file name's capitals (`/posts/Separation-of-Variables/`),
    postil's slug is lower case: a root link naming a post's URL in other letter case is
    that post's URL; one naming no post still warns."""
    body = "See [it](/posts/Separation-of-Variables/#the-method) and [that](/posts/Gone-Post/).\n"
    root = make_site(
        tmp_path / "site",
        {
            "2022-03-08-Separation-of-Variables.md": post_text(
                "Separation", None, "## The method\n\nText.\n"
            ),
            "2022-03-09-linking.md": post_text("Linking", None, body),
        },
    )
    result = build_site(root)
    out = build_into(root)
    html = (out / "posts/linking/index.html").read_text()
    assert 'href="/blog/posts/separation-of-variables/#the-method"' in html
    [warning] = [str(w) for w in result.warnings]
    assert "/posts/Gone-Post/" in warning and "nothing is published" in warning
