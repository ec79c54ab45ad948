"""The social image (og:image, twitter:image): front matter `image:`, else the post's first
image, else the site's `image:`; absolute, with a large Twitter card."""

from __future__ import annotations

from support.blog import BASE, build_into, build_site, make_site, page, post_text
from support.images import PNG


def meta(out, rel, name):
    doc = page(out, rel)
    return doc.xpath(f"//meta[@property='{name}' or @name='{name}']/@content")


def test_the_first_image_of_a_post_is_its_social_image(tmp_path):
    root = make_site(tmp_path, {"a.md": post_text("A", "2026-01-01", "![x](/img/a.png)\n")})
    (root / "static/img").mkdir(parents=True)
    (root / "static/img/a.png").write_bytes(PNG)
    out = build_into(root)
    assert meta(out, "posts/a/index.html", "og:image") == [f"{BASE}img/a.png"]
    assert meta(out, "posts/a/index.html", "twitter:image") == [f"{BASE}img/a.png"]
    assert meta(out, "posts/a/index.html", "twitter:card") == ["summary_large_image"]


def test_front_matter_image_wins_and_is_read_relative_to_the_page(tmp_path):
    text = post_text("A", "2026-01-01", "![x](/img/a.png)\n", image="cover.png")
    root = make_site(tmp_path, {})
    (root / "content/posts/a").mkdir()
    (root / "content/posts/a/index.md").write_text(text)
    (root / "content/posts/a/cover.png").write_bytes(PNG)
    (root / "static/img").mkdir(parents=True)
    (root / "static/img/a.png").write_bytes(PNG)
    out = build_into(root)
    assert meta(out, "posts/a/index.html", "og:image") == [f"{BASE}posts/a/cover.png"]


def test_the_site_image_is_the_default_and_pages_without_one_have_a_small_card(tmp_path):
    root = make_site(tmp_path / "s", {"a.md": post_text("A", "2026-01-01")}, "image: /card.png\n")
    (root / "static").mkdir()
    (root / "static/card.png").write_bytes(PNG)
    out = build_into(root)
    assert meta(out, "posts/a/index.html", "og:image") == [f"{BASE}card.png"]
    assert meta(out, "index.html", "og:image") == [f"{BASE}card.png"]
    bare = build_into(make_site(tmp_path / "t", {"a.md": post_text("A", "2026-01-01")}))
    assert meta(bare, "posts/a/index.html", "og:image") == []
    assert meta(bare, "posts/a/index.html", "twitter:card") == ["summary"]


def test_a_missing_front_matter_image_is_a_warning(tmp_path):
    root = make_site(tmp_path, {"a.md": post_text("A", "2026-01-01", image="/nope.png")})
    (warning,) = build_site(root).warnings
    text = (root / "content/posts/a.md").read_text(encoding="utf-8").split("\n")
    line = next(i for i, t in enumerate(text, 1) if t.startswith("image:"))
    # at the value: the line of `image:` and the column after "image: "
    assert str(warning.location) == f"content/posts/a.md:{line}:{len('image: ') + 1}"
    assert "`image: /nope.png` is not in the built site" in warning.message
