"""postil.yaml's `nav` links and `image:`: a link with a scheme is left as written, a path
of the site is checked like a post's link, and a warning about either is at its value's
line and column in postil.yaml."""

from __future__ import annotations

from lxml import html as lxml_html
from support import sites

from postil.build import BuildOptions, build
from postil.cli import main

CONFIG = """title: T
author: A
base_url: https://x.org/blog/
nav:
  - {label: Posts, url: /}
  - {label: Mail, url: "mailto:ada@example.org"}
  - {label: Code, url: https://github.com/ada}
  - {label: Cdn, url: //cdn.example.org/x}
  - {label: About, url: about/}
  - {label: Section, url: "/about/#bio"}
  - {label: Feed, url: /feed.xml}
  - {label: Typo, url: /abuot/}
  - {label: Gone, url: "/notes/?page=2"}
image: /img/card.png
"""
PAGES = {"about.md": "---\ntitle: About\n---\n\n## Bio\n\nHello.\n"}
POSTS = {"a.md": "---\ntitle: A\ndate: 2025-01-01\n---\nText.\n"}


def test_nav_links_keep_their_scheme_and_paths_get_the_base_path(tmp_path):
    root = sites.make_site(tmp_path / "site", POSTS, CONFIG, PAGES)
    build(BuildOptions(root=root))
    page = lxml_html.fromstring((root / "_site/index.html").read_bytes())
    hrefs = page.xpath("//nav[@class='site-nav']//a/@href")
    assert hrefs == [
        "/blog/",
        "mailto:ada@example.org",  # was /blog/mailto:ada@example.org
        "https://github.com/ada",
        "//cdn.example.org/x",
        "/blog/about/",
        "/blog/about/#bio",
        "/blog/feed.xml",
        "/blog/abuot/",
        "/blog/notes/?page=2",
    ]


def test_a_nav_link_or_site_image_naming_nothing_warns_at_its_value(tmp_path, capsys):
    root = sites.make_site(tmp_path / "site", POSTS, CONFIG, PAGES)
    warnings = [str(w).split("\n")[0] for w in build(BuildOptions(root=root)).warnings]
    assert warnings == [
        "postil.yaml:12:24: warning: nav link `Typo` goes to `/abuot/`, where nothing is "
        "published (did you mean `/about/`?); fix its `url` in postil.yaml (a path from the "
        "site's root, such as `/about/`, or a full URL)",
        "postil.yaml:13:24: warning: nav link `Gone` goes to `/notes/`, where nothing is "
        "published; fix its `url` in postil.yaml (a path from the site's root, such as "
        "`/about/`, or a full URL)",
        "postil.yaml:14:8: warning: `image: /img/card.png` is not in the built site (nothing "
        "is published at `/img/card.png`); fix the path or add the file",
    ]
    assert main(["-C", str(root), "check"]) == 0  # the same warnings, as `check` prints them
    printed = capsys.readouterr().err.splitlines()
    assert [line for line in printed if line.startswith("postil.yaml")] == warnings


def test_the_default_nav_and_a_fixed_one_warn_of_nothing(tmp_path):
    root = sites.make_site(tmp_path / "site", POSTS, sites.CONFIG, PAGES)
    assert build(BuildOptions(root=root)).warnings == ()
    fixed = CONFIG.replace("/abuot/", "/about/").replace('"/notes/?page=2"', "/tags/")
    (root / "postil.yaml").write_text(fixed.replace("image: /img/card.png\n", ""))
    assert build(BuildOptions(root=root)).warnings == ()
