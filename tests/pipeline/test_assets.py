"""Files a post refers to are published: page bundles, files under content/, static files;
symlinks leaving the site are refused; an asset added, changed or deleted shows up in the
next build."""

from __future__ import annotations

import os

import pytest
from support.blog import build_site, make_site, post_text
from support.images import PNG

from postil.errors import BuildFailed


def bundle(root, name, text, files):
    folder = root / "content/posts" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.md").write_text(text, encoding="utf-8")
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)


def test_a_bundle_file_is_published_beside_the_post_page_under_its_slug(tmp_path):
    root = make_site(tmp_path / "site", {})
    text = post_text("Plot", "2026-01-01", "![A](plot.png)\n\n![B](img/b.png)\n", slug="the-plot")
    bundle(root, "plot-post", text, {"plot.png": PNG, "img/b.png": PNG + b"b"})
    result = build_site(root)
    out = root / "_site"
    assert (out / "posts/the-plot/plot.png").read_bytes() == PNG
    assert (out / "posts/the-plot/img/b.png").read_bytes() == PNG + b"b"
    html = (out / "posts/the-plot/index.html").read_text("utf-8")
    assert 'src="/blog/posts/the-plot/plot.png"' in html
    assert 'src="/blog/posts/the-plot/img/b.png"' in html
    assert result.warnings == ()


def test_files_under_content_are_published_at_their_path_and_resolve_from_flat_posts(tmp_path):
    body = "![R](../img/red.png) and ![S](/img/red.png) and [data](table.csv)\n"
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01", body)})
    (root / "content/img").mkdir()
    (root / "content/img/red.png").write_bytes(PNG)
    (root / "content/posts/table.csv").write_text("a,b\n")
    result = build_site(root)
    out = root / "_site"
    assert (out / "img/red.png").read_bytes() == PNG
    assert (out / "posts/table.csv").read_text() == "a,b\n"
    html = (out / "posts/a/index.html").read_text("utf-8")
    assert html.count('src="/blog/img/red.png"') == 2
    assert 'href="/blog/posts/table.csv"' in html
    assert result.warnings == ()


def test_the_files_of_a_draft_bundle_are_not_published(tmp_path):
    root = make_site(tmp_path / "site", {})
    bundle(root, "wip", post_text("WIP", "2026-01-01", "![A](a.png)\n", draft=True), {"a.png": PNG})
    build_site(root)
    assert not (root / "_site/posts/wip").exists()
    build_site(root, drafts=True)
    assert (root / "_site/posts/wip/a.png").exists()


def test_an_asset_added_changed_and_deleted_shows_in_the_next_build(tmp_path):
    root = make_site(tmp_path / "site", {})
    bundle(root, "p", post_text("P", "2026-01-01", "![A](a.png)\n"), {})
    first = build_site(root)
    assert len(first.warnings) == 1 and "`a.png` is not in the built site" in (
        first.warnings[0].message
    )
    (root / "content/posts/p/a.png").write_bytes(PNG)
    assert build_site(root).warnings == ()
    assert (root / "_site/posts/p/a.png").read_bytes() == PNG
    (root / "content/posts/p/a.png").write_bytes(PNG + b"new")
    build_site(root)
    assert (root / "_site/posts/p/a.png").read_bytes() == PNG + b"new"
    (root / "content/posts/p/a.png").unlink()
    again = build_site(root)
    assert not (root / "_site/posts/p/a.png").exists()
    assert len(again.warnings) == 1


def test_a_flat_posts_reference_follows_a_file_that_moves_beside_it(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01", "![A](a.png)\n")})
    (root / "content/posts/a.png").write_bytes(PNG)
    build_site(root)
    assert 'src="/blog/posts/a.png"' in (root / "_site/posts/a/index.html").read_text()
    (root / "content/posts/a.png").unlink()  # now only the page-relative reading is left
    (root / "static/posts/a").mkdir(parents=True)
    (root / "static/posts/a/a.png").write_bytes(PNG)
    result = build_site(root)
    assert result.rendered == 1 and result.warnings == ()
    assert 'src="a.png"' in (root / "_site/posts/a/index.html").read_text()


def test_a_static_symlink_leaving_the_site_is_an_error_and_nothing_is_written(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01")})
    (root / "static").mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2")
    os.symlink(secret, root / "static/env.txt")
    with pytest.raises(BuildFailed) as failed:
        build_site(root)
    (error,) = failed.value.diagnostics
    assert str(error.location) == "static/env.txt"
    assert "symlink points outside the site's directory" in error.message
    assert not (root / "_site").exists()


def test_a_static_symlink_inside_the_site_is_followed(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01")})
    (root / "static").mkdir()
    (root / "shared").mkdir()
    (root / "shared/logo.svg").write_text("<svg/>")
    os.symlink(root / "shared", root / "static/shared")
    build_site(root)
    assert (root / "_site/shared/logo.svg").read_text() == "<svg/>"


def test_a_content_asset_and_a_static_file_at_one_path_is_an_error_naming_both(tmp_path):
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01")})
    (root / "static/img").mkdir(parents=True)
    (root / "static/img/x.png").write_bytes(PNG)
    (root / "content/img").mkdir()
    (root / "content/img/x.png").write_bytes(PNG)
    with pytest.raises(BuildFailed) as failed:
        build_site(root)
    (error,) = failed.value.diagnostics
    assert str(error.location) == "content/img/x.png"
    assert "where static/img/x.png is published too" in error.message


def test_an_image_replaced_by_one_of_another_size_updates_the_page(tmp_path):
    from PIL import Image

    root = make_site(tmp_path / "site", {})
    bundle(root, "p", post_text("P", "2026-01-01", "![A](a.png)\n"), {})
    Image.new("RGB", (40, 30)).save(root / "content/posts/p/a.png")
    build_site(root)
    page = root / "_site/posts/p/index.html"
    assert 'width="40" height="30"' in page.read_text()
    Image.new("RGB", (20, 30)).save(root / "content/posts/p/a.png")
    result = build_site(root)
    assert result.rendered == 1
    assert 'width="20" height="30"' in page.read_text()


def test_an_image_file_that_is_no_image_is_a_warning_at_the_file(tmp_path):
    """A page saved as `plot.png`, an empty `photo.jpg`: published as they are, they show as
    broken images; a warning names each (the trial's `fake.png` was silent). A real image,
    an SVG sized in `em` and a file of no image ending are no warning, on every build."""
    root = make_site(tmp_path / "site", {})
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="2em" height="1em"></svg>'
    files = {"plot.png": b"<html>a page</html>", "photo.jpg": b"", "real.png": PNG}
    bundle(root, "p", post_text("P", "2026-01-01", "![a](plot.png)\n"), files | {"d.svg": svg})
    (root / "content/notes.dat").write_bytes(b"\x89PNG")
    for _ in range(2):  # the second build reads the sizes from the cache
        warnings = [str(w) for w in build_site(root).warnings]
        assert [w.split(": warning: ")[0] for w in warnings] == [
            "content/posts/p/photo.jpg",
            "content/posts/p/plot.png",
        ]
        assert "this file is not a JPEG image a browser can show" in warnings[0]
        assert "published as `posts/p/plot.png`, it shows as a broken image" in warnings[1]


def test_a_missing_link_warns_at_its_own_url_not_at_a_longer_one_before_it(tmp_path):
    root = make_site(tmp_path / "site", {})
    body = "[A](/notes/a/) and [B](/notes/)\nand [C](/notes/)\n"
    bundle(root, "p", post_text("P", "2026-01-01", body), {})
    warnings = build_site(root).warnings
    cols = [(w.location.col, w.message.split("`")[1]) for w in warnings]
    # `/notes/` is found after `/notes/a/`, not at the start of it (col 5); linked again,
    # at its second place (the first, line 1 col 24, without counting)
    cols = [(w.location.line - 5, c, url) for (c, url), w in zip(cols, warnings, strict=True)]
    assert cols == [(1, 5, "/notes/a/"), (1, 24, "/notes/"), (2, 9, "/notes/")]


def test_a_missing_non_ascii_reference_is_quoted_and_located_as_written(tmp_path):
    # markdown-it percent-encodes `bild-ö.svg`; the warning quoted `bild-%C3%B6.svg` at
    # column 1, since that text is nowhere in the line
    body = "Text ![Bild](bild-ö.svg) and [Ärger](/straße/).\n"
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01", body)})
    warnings = build_site(root).warnings
    assert [(w.location.line, w.location.col) for w in warnings] == [(6, 14), (6, 38)]
    assert warnings[0].message.startswith("`bild-ö.svg` is not in the built site")
    assert warnings[1].message.startswith("`/straße/` is not in the built site")
    assert "%C3" not in warnings[0].message + warnings[1].message


def test_a_percent_escape_written_so_is_quoted_as_written(tmp_path):
    body = "Text ![Bild](bild%20x.svg).\n"
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01", body)})
    (warning,) = build_site(root).warnings
    assert (warning.location.col, warning.message.split("`")[1]) == (14, "bild%20x.svg")


def test_a_missing_relative_file_names_the_file_beside_the_post_first(tmp_path):
    # a flat post's `a.png` is read from content/posts/ (as an editor previews it); the
    # warning named only the page-relative reading, `/posts/p/a.png`
    root = make_site(tmp_path / "site", {"p.md": post_text("P", "2026-01-01", "![A](a.png)\n")})
    (warning,) = build_site(root).warnings
    assert warning.message.startswith(
        "`a.png` is not in the built site: no file content/posts/a.png is published beside "
        "this post, nor anything at `/posts/p/a.png`; fix the path"
    )


def test_a_missing_page_names_the_nearest_published_path(tmp_path):
    body = "See [the colophon](/colofon/) and [x](/zzzzzz/).\n"
    root = make_site(
        tmp_path / "site",
        {"a.md": post_text("A", "2026-01-01", body)},
        pages={"colophon.md": "---\ntitle: Colophon\n---\n\nText.\n"},
    )
    first, second = build_site(root).warnings
    assert "nothing is published at `/colofon/` (did you mean `/colophon/`?); fix" in first.message
    assert "did you mean" not in second.message
