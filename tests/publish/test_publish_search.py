"""`search: true`: the Pagefind index written with the site, its page and box, what it holds
(no drafts, formulas as the words of their TeX) and its reuse from the build cache."""

from __future__ import annotations

import gzip
import json

import pytest
from support.blog import BASE, build_into, make_site, page, post_text

from postil.build import BuildOptions, build
from postil.cache.store import BuildCache
from postil.errors import ConfigError

POSTS = {
    "a.md": post_text(
        "Stable sums", "2026-01-02", "Shift.\n\n$$\n\\operatorname{logsumexp}(x)\n$$\n"
    ),
    "wip.md": post_text("Draft", "2026-01-03", "Secret words.\n", draft=True),
}


def fragments(out):
    """Return the (url, content) of every document in the index."""
    found = []
    for path in (out / "pagefind/fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        record = json.loads(data[data.index(b"{") :])
        found.append((record["url"], record["content"]))
    return sorted(found)


def test_search_writes_the_index_page_and_box_under_the_base_path(tmp_path):
    out = build_into(make_site(tmp_path, POSTS, config="search: true\n"), drafts=True)
    assert (out / "pagefind/pagefind-ui.js").is_file() and (out / "pagefind/pagefind.js").is_file()
    search = page(out, "search/index.html")
    assert search.xpath("//div[@id='search']/@data-bundle") == ["/blog/pagefind/"]
    assert search.xpath("//meta[@name='robots']/@content") == ["noindex"]
    assert page(out, "posts/a/index.html").xpath("//form[@role='search']/@action") == [
        "/blog/search/"
    ]
    assert f"{BASE}search/" not in (out / "sitemap.xml").read_text()


def test_the_index_holds_published_posts_with_their_formulas_tex_and_no_drafts(tmp_path):
    out = build_into(make_site(tmp_path, POSTS, config="search: true\n"), drafts=True)
    ((url, content),) = fragments(out)
    assert url == "/posts/a/"
    assert "Stable sums" in content and "operatorname logsumexp x" in content


def test_the_index_leaves_out_the_back_links_of_notes_and_references(tmp_path):
    body = "Sums[^n] and @kahan.\n\n[^n]: A note.\n"
    posts = {"a.md": post_text("Sums", "2026-01-02", body, bibliography="refs.bib")}
    root = make_site(tmp_path, posts, config="search: true\n")
    (root / "content/posts/refs.bib").write_text(
        "@article{kahan, author = {Kahan, W.}, title = {Remarks}, year = {1965}}\n"
    )
    out = build_into(root)
    ((_, content),) = fragments(out)
    assert "A note." in content and "Remarks" in content
    assert "\u21a9" not in content  # the ↩︎ of the note and of the reference


def test_without_search_there_is_no_index_page_or_box(tmp_path):
    out = build_into(make_site(tmp_path, POSTS))
    assert not (out / "pagefind").exists() and not (out / "search").exists()
    assert not page(out, "index.html").xpath("//form[@role='search']")


def test_a_build_that_changed_no_post_reuses_the_index_from_the_cache(tmp_path):
    root = make_site(tmp_path, POSTS, config="search: true\n")
    build(BuildOptions(root=root))
    cache = BuildCache.open(root)
    try:
        ((key, files),) = cache.load("search").values()
    finally:
        cache.close()
    assert any(rel == "pagefind-entry.json" for rel, _ in files)
    (root / "content/posts/a.md").write_text(POSTS["a.md"].replace("Shift.", "Shift first."))
    build(BuildOptions(root=root))
    cache = BuildCache.open(root)
    try:
        ((new_key, _),) = cache.load("search").values()
    finally:
        cache.close()
    assert new_key != key


def test_an_unchanged_site_builds_without_running_pagefind(tmp_path, monkeypatch):
    root = make_site(tmp_path, POSTS, config="search: true\n")
    build(BuildOptions(root=root))
    (root / "_site/pagefind/pagefind.js").unlink()  # so the files must come from the cache

    def refuse(*args):
        raise AssertionError("Pagefind ran for an unchanged site")

    monkeypatch.setattr("postil.search._run_pagefind", refuse)
    build(BuildOptions(root=root))
    assert (root / "_site/pagefind/pagefind.js").is_file()


def test_serve_serves_the_same_index_as_build(tmp_path):
    from postil.serve.engine import DevBuild

    root = make_site(tmp_path, POSTS, config="search: true\n")
    out = build_into(root, drafts=True)
    served = DevBuild(root)
    assert served.build().ok
    for rel in ("pagefind/pagefind-entry.json", "pagefind/pagefind-ui.js", "search/index.html"):
        assert served.files[rel] == (out / rel).read_bytes()


def test_indexing_writes_nothing_outside_the_output(tmp_path, monkeypatch):
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # Pagefind writes into the working directory by default
    build_into(make_site(tmp_path / "site", POSTS, config="search: true\n"))
    assert list(elsewhere.iterdir()) == []


def test_search_without_pagefind_is_a_configuration_error_naming_the_extra(tmp_path, monkeypatch):
    monkeypatch.setattr("pagefind.service.get_executable", lambda: None)
    root = make_site(tmp_path, POSTS, config="search: true\n")
    with pytest.raises(ConfigError) as err:
        build(BuildOptions(root=root, cache=False))
    lines = (root / "postil.yaml").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text.startswith("search:"))
    assert str(err.value) == (
        f"postil.yaml:{line}:9: `search: true` needs Pagefind, which is not installed: install "
        "it with pip install 'postil[search]', or set `search: false`"
    )


def test_a_site_with_nothing_published_yet_builds_its_search_with_the_home_page(tmp_path):
    """A new site whose only post is a draft: Pagefind makes no index of nothing and failed
    the build ("Pagefind was not able to build an index"); the home page is then the one
    document, so the search page has its scripts and finds the site by its title."""
    posts = {"wip.md": post_text("Draft", "2026-01-03", "Secret words.\n", draft=True)}
    config = "search: true\ndescription: Notes on sums.\n"
    out = build_into(make_site(tmp_path, posts, config=config))
    assert (out / "pagefind/pagefind-ui.js").is_file()
    ((url, content),) = fragments(out)
    assert url == "/" and "Test site" in content and "Notes on sums." in content
    assert "Secret" not in content
