"""A Jekyll post citing with jekyll-scholar's tags builds with postil's citations."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from support import sites

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/\nbibliography: refs.bib\n"
make_site = partial(sites.make_site, config=CONFIG)

BIB = (
    "@book{knuth1984, author = {Knuth, Donald E.}, title = {The TeXbook},\n"
    "  publisher = {Addison-Wesley}, year = {1984}}\n"
)

POST = (
    "---\ntitle: Scholar\ndate: 2024-02-02\n---\n"
    "As {% cite knuth1984 -l 12 %} shows, and {% cite knuth1984 %} again.\n\n"
    "{% bibliography --cited %}\n"
)


def test_scholar_tags_cite_from_the_sites_bibliography_and_list_the_references(tmp_path):
    root = make_site(tmp_path / "site", {"scholar.md": POST})
    (root / "refs.bib").write_text(BIB, encoding="utf-8")
    result = build(BuildOptions(root=root))
    assert not result.warnings
    page = lxml_html.fromstring((root / "_site/posts/scholar/index.html").read_bytes())
    cites = page.find_class("citation")
    assert [c.text_content() for c in cites] == ["(Knuth, 1984, 12)", "(Knuth, 1984)"]
    (entry,) = page.find_class("references-list")[0].findall("li")
    assert entry.get("id") == "ref-knuth1984" and "The TeXbook" in entry.text_content()
    assert "bibliography" not in page.find_class("post-body")[0].text_content()
