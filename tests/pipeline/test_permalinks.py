"""A post's own URL (`permalink:`, Hugo's `url:`) and its old URLs (`aliases:`,
`redirect_from:`): where the pages land, what the links and the sitemap say, and the
collisions that are errors."""

from __future__ import annotations

from functools import partial

import pytest
from lxml import html as lxml_html
from support import sites
from support.images import PNG

from postil.build import BuildOptions, build
from postil.errors import BuildFailed

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)
MOVED = (
    "---\ntitle: Moved\ndate: 2020-01-01\nurl: /2012/12/04/a-primer\n"
    "aliases: [/old/a/, /old/a.html, was-a.html]\n---\n"
    "See [the page](b.md).\n\n## Method {#method}\n"
)
PAGE = (
    "---\ntitle: Jekyll page\ndate: 2020-01-02\npermalink: /b.html\nredirect_from: /bee\n"
    "---\nBack to [the primer](a.md#method).\n"
)
BUNDLE = "---\ntitle: Bundle\ndate: 2020-01-03\nurl: /x/y/\n---\n![A plot](plot.png)\n"


def redirect_target(path):
    """Return the URL a redirect page sends to, read from its refresh and its link."""
    doc = lxml_html.fromstring(path.read_bytes())
    [refresh] = doc.xpath("//meta[@http-equiv='refresh']/@content")
    [canonical] = doc.xpath("//link[@rel='canonical']/@href")
    [link] = doc.xpath("//body//a/@href")
    assert doc.xpath("//meta[@name='robots']/@content") == ["noindex"]
    # the reader goes on by a root-relative path (a local preview stays local)
    assert canonical == "https://x.org" + link and refresh == f"0; url={link}"
    return canonical


def test_permalinks_place_pages_and_aliases_redirect_to_them(tmp_path):
    posts = {"a.md": MOVED, "b.md": PAGE, "bund/index.md": BUNDLE}
    root = make_site(tmp_path / "site", posts)
    (root / "content/posts/bund/plot.png").write_bytes(PNG)
    result = build(BuildOptions(root=root))
    assert [str(w) for w in result.warnings] == []
    out = root / "_site"
    moved = lxml_html.fromstring((out / "2012/12/04/a-primer/index.html").read_bytes())
    assert moved.xpath("//a[text()='the page']/@href") == ["/blog/b.html"]
    page = lxml_html.fromstring((out / "b.html").read_bytes())
    assert page.xpath("//a[text()='the primer']/@href") == ["/blog/2012/12/04/a-primer/#method"]
    bundle = lxml_html.fromstring((out / "x/y/index.html").read_bytes())
    assert bundle.xpath("//img/@src") == ["/blog/x/y/plot.png"]
    assert (out / "x/y/plot.png").read_bytes() == PNG
    assert sorted(p.name for p in (out / "posts").iterdir()) == ["was-a.html"]
    primer = "https://x.org/blog/2012/12/04/a-primer/"
    assert redirect_target(out / "old/a/index.html") == primer
    assert redirect_target(out / "old/a.html") == primer
    assert redirect_target(out / "posts/was-a.html") == primer  # from the post's folder
    assert redirect_target(out / "bee/index.html") == "https://x.org/blog/b.html"
    sitemap = (out / "sitemap.xml").read_text()
    assert primer in sitemap and "https://x.org/blog/b.html" in sitemap
    assert "old/" not in sitemap and "bee" not in sitemap
    feed = (out / "feed.xml").read_text()
    assert primer in feed and "/posts/" not in feed


def test_a_link_to_a_moved_post_checks_its_fragment(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": MOVED, "b.md": PAGE.replace("#method", "#nope")})
    warnings = [str(w) for w in build(BuildOptions(root=root)).warnings]
    assert len(warnings) == 1 and "content/posts/a.md has no such anchor" in warnings[0]


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (  # an alias that is another post's URL
            "---\ntitle: C\naliases:\n  - /zzz/\n  - /2012/12/04/a-primer/\n---\nc\n",
            "content/posts/c.md:5:5",
            "`/2012/12/04/a-primer/` is an alias of this post and content/posts/a.md's URL",
        ),
        (  # a URL that is another post's alias: reported at the alias, the one to change
            "---\ntitle: C\npermalink: /old/a/\n---\nc\n",
            "content/posts/a.md:5:11",
            "`/old/a/` is an alias of this post and content/posts/c.md's URL",
        ),
        (  # a permalink naming another post's page as its file: one page
            "---\ntitle: C\npermalink: /2012/12/04/a-primer/index.html\n---\nc\n",
            "content/posts/c.md:3:12",
            "`/2012/12/04/a-primer/index.html` is this post's URL and content/posts/a.md's URL "
            "`/2012/12/04/a-primer/`, the same page",
        ),
        (  # an alias naming another post's alias as its file
            "---\ntitle: C\naliases: [/old/a/index.html]\n---\nc\n",
            "content/posts/c.md:3:11",
            "`/old/a/index.html` is an alias of this post and content/posts/a.md's alias "
            "`/old/a/`, the same page",
        ),
        (  # a permalink on the page a post's file name gives it: at the permalink
            "---\ntitle: C\npermalink: /posts/zed/index.html\n---\nc\n",
            "content/posts/c.md:3:12",
            "`/posts/zed/index.html` is this post's URL and content/posts/zed.md's URL "
            "`/posts/zed/`, the same page",
        ),
        (  # an alias where postil publishes a page of its own
            "---\ntitle: C\naliases: /tags/\n---\nc\n",
            "content/posts/c.md:3:10",
            "published at `tags/index.html`, where the tag index (`tags/index.html`)",
        ),
        (  # an alias that needs a folder where postil writes a file
            "---\ntitle: C\naliases:\n  - /ok/\n  - /feed.xml\n---\nc\n",
            "content/posts/c.md:5:5",
            "`feed.xml/index.html` of `content/posts/c.md` needs a folder `feed.xml`, where "
            "postil's generated `feed.xml` is a file",
        ),
        (  # a permalink under a theme file
            "---\ntitle: C\npermalink: /css/base.css\n---\nc\n",
            "content/posts/c.md:3:12",
            "`css/base.css/index.html` of `content/posts/c.md` needs a folder `css/base.css`",
        ),
    ],
)
def test_a_url_or_alias_taken_twice_is_an_error_naming_both(tmp_path, text, where, message):
    """Two claims on one file are an error at the value written last, also when one
    names the page as a folder (`/x/`) and the other as its file (`/x/index.html`)."""
    zed = "---\ntitle: Zed\ndate: 2020-01-05\n---\nz\n"
    root = make_site(tmp_path / "site", {"a.md": MOVED, "c.md": text, "zed.md": zed})
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=root))
    [error] = failed.value.diagnostics
    assert str(error).startswith(f"{where}: {message}")
    assert not (root / "_site").exists()


def test_a_bundle_published_as_an_html_file_has_its_files_in_that_files_folder(tmp_path):
    text = "---\ntitle: X\ndate: 2020-01-01\npermalink: /2020/x.html\n---\n![A plot](plot.png)\n"
    root = make_site(tmp_path / "site", {"x/index.md": text})
    (root / "content/posts/x/plot.png").write_bytes(PNG)
    build(BuildOptions(root=root))
    page = lxml_html.fromstring((root / "_site/2020/x.html").read_bytes())
    assert page.xpath("//img/@src") == ["/blog/2020/plot.png"]
    assert (root / "_site/2020/plot.png").read_bytes() == PNG


def test_an_alias_edit_is_checked_again_by_the_dev_servers_bookkeeping():
    from pathlib import Path

    from postil.content.load import _unique_urls
    from postil.model import FrontMatter, Post, SourceFile

    def post(name, aliases=()):
        meta = FrontMatter(title=name, aliases=aliases)
        source = SourceFile(Path(f"{name}.md"), f"content/posts/{name}.md", "", "post")
        return Post(source, meta, 0, 1, name, f"posts/{name}/", f"posts/{name}/index.html")

    memo: dict = {}
    assert _unique_urls([post("a"), post("b")], memo) == []
    [error] = _unique_urls([post("a", ("/posts/b/",)), post("b")], memo)
    assert error.message.startswith("`/posts/b/` is an alias of this post and content/posts/b.md's")


def test_two_sources_of_any_kind_on_one_slug_are_one_error(tmp_path):
    head = "---\ntitle: {}\ndate: 2020-01-0{}\nslug: same\n---\nx\n"
    root = make_site(
        tmp_path / "site", {"a.qmd": head.format("A", 1), "b.markdown": head.format("B", 2)}
    )
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=root))
    assert [str(d).split(": ", 1)[1] for d in failed.value.diagnostics] == [
        "slug `same` is also used by content/posts/a.qmd; rename one file or set a different "
        "`slug:`"
    ]


def test_posts_named_alike_on_two_days_keep_jekylls_dates_apart(tmp_path):
    """Jekyll puts the date in a post's URL, so `2025-08-12-plot.md` and
    `2025-08-13-plot.md` were two pages: the earlier keeps `posts/plot/` (and the redirect
    from its dated URL), the later keeps its date."""
    post = "---\ntitle: Plot {}\n---\nDay {}.\n"
    root = make_site(
        tmp_path / "site",
        {"2025-08-13-plot.md": post.format("B", 13), "2025-08-12-plot.md": post.format("A", 12)},
    )
    build(BuildOptions(root=root))
    out = root / "_site/posts"
    assert "Day 12." in (out / "plot/index.html").read_text(encoding="utf-8")
    assert "Day 13." in (out / "2025-08-13-plot/index.html").read_text(encoding="utf-8")
    assert redirect_target(out / "2025-08-12-plot/index.html") == "https://x.org/blog/posts/plot/"


def test_posts_named_alike_in_two_folders_take_their_folder_names(tmp_path):
    """MkDocs and Hugo keep folders in URLs (`stats/lec_01.md`, `ml/lec_01.md`): the first
    by date keeps `lec-01`, each later one is prefixed by as many of its folders as make it
    free, nearest first."""
    post = "---\ntitle: L\ndate: 2024-01-0{}\n---\n{}\n"
    root = make_site(
        tmp_path / "site",
        {
            "stats/lec_01.md": post.format(2, "stats"),
            "ml/lec_01.md": post.format(1, "ml"),
            "course/stats/lec_01.md": post.format(3, "course"),
        },
    )
    build(BuildOptions(root=root))
    out = root / "_site/posts"
    assert "ml" in (out / "lec-01/index.html").read_text(encoding="utf-8")
    assert "stats" in (out / "stats-lec-01/index.html").read_text(encoding="utf-8")
    assert "course" in (out / "course-stats-lec-01/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "posts",
    [
        {"plot.md": "---\ntitle: A\n---\nx\n", "plot/index.md": "---\ntitle: B\n---\nx\n"},
        {  # a slug the author wrote is theirs to change, dated file name or not
            "2025-08-12-plot.md": "---\ntitle: A\n---\nx\n",
            "2025-08-13-other.md": "---\ntitle: B\nslug: plot\n---\nx\n",
        },
    ],
    ids=["same-folder", "written-slug"],
)
def test_a_shared_slug_with_nothing_longer_to_take_stays_an_error(tmp_path, posts):
    with pytest.raises(BuildFailed) as failed:
        build(BuildOptions(root=make_site(tmp_path / "site", posts)))
    assert "slug `plot` is also used by" in str(failed.value.diagnostics[0])


def test_an_alias_written_twice_is_one_redirect_placed_where_it_is_first_written():
    from pathlib import Path
    from types import SimpleNamespace

    from postil.model import FrontMatter, Post, SourceFile, TextAt
    from postil.redirects import Redirect, redirects

    at = (TextAt(3, 11, True), TextAt(3, 16, True), TextAt(4, 5, True))
    meta = FrontMatter(title="A", aliases=("/old/", "old/", "/old/"), aliases_at=at)
    source = SourceFile(Path("a.md"), "content/posts/a.md", "", "post")
    post = Post(source, meta, 0, 1, "a", "posts/a/", "posts/a/index.html")
    site = SimpleNamespace(posts=(SimpleNamespace(post=post),), pages=())  # what it reads
    assert redirects(site) == [  # `old/` is `posts/old/`: relative to the post's folder
        Redirect("old/index.html", "posts/a/", "content/posts/a.md", at[0]),
        Redirect("posts/old/index.html", "posts/a/", "content/posts/a.md", at[1]),
    ]


def test_an_old_percent_encoded_url_redirects_from_the_file_a_server_looks_for(tmp_path):
    # jekyll-redirect-from's old URL of a post whose file name is Chinese: GitHub Pages and
    # nginx decode `/_posts/%E6%A6%82%E7%8E%87/` before they look for the file
    post = "---\ntitle: P\ndate: 2020-01-01\nredirect_from: /_posts/%E6%A6%82%E7%8E%87/\n---\nx\n"
    root = make_site(tmp_path / "site", {"2018-12-03-gailv.md": post})
    result = build(BuildOptions(root=root))
    assert [str(w) for w in result.warnings] == []
    target = redirect_target(root / "_site/_posts/概率/index.html")
    assert target == "https://x.org/blog/posts/gailv/"
