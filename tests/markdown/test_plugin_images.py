"""Image sizes: read from the file (Pillow, SVG attributes), kept as the attributes plugin
gives them, and cached between builds."""

from __future__ import annotations

import pytest
from PIL import Image

from postil.cache.store import BuildCache
from postil.images import image_size, image_sizes, svg_size
from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

SIZES = {"posts/a/plot.png": (800, 600), "img/d.svg": (120, 60)}
ASSETS = {"content/posts/a/plot.png": "posts/a/plot.png"}


def render(body: str) -> str:
    state = RenderState(
        path="content/posts/a/index.md",
        links={"content/posts/a/index.md": "posts/a/"},
        assets=ASSETS,
        sizes=SIZES,
        base_path="/blog/",
    )
    return render_markdown(create_markdown(), body, state).html


@pytest.mark.parametrize(
    ("markdown", "attributes"),
    [
        ("![A](plot.png)", 'width="800" height="600" decoding="async"'),
        ("![A](plot.png){width=400}", 'width="400" height="300" decoding="async"'),
        ("![A](plot.png){height=60}", 'height="60" width="80" decoding="async"'),
        ("![A](plot.png){width=10 height=10}", 'width="10" height="10" decoding="async"'),
        ("![A](/img/d.svg){width=60%}", 'style="width:60%" width="120" height="60"'),
    ],
)
def test_an_image_gets_its_files_size_and_keeps_a_size_given_in_pixels(markdown, attributes):
    assert attributes in render(markdown + "\n")


def test_a_figure_image_gets_its_size_and_lazy_loading_after_the_first():
    html = render("![A](plot.png)\n\n![B](plot.png){#fig-b}\n")
    assert (
        '<img src="/blog/posts/a/plot.png" alt="B" width="800" height="600" loading="lazy" '
        'decoding="async">' in html
    )


def test_raster_sizes_are_read_with_pillow(tmp_path):
    for name, size in [("a.png", (31, 17)), ("b.jpg", (8, 9)), ("c.gif", (3, 2))]:
        Image.new("RGB", size).save(tmp_path / name)
        assert image_size(tmp_path / name) == size
    (tmp_path / "broken.png").write_bytes(b"\x89PNG not really")
    assert image_size(tmp_path / "broken.png") is None


@pytest.mark.parametrize(
    ("root", "size"),
    [
        ('<svg width="200" height="100">', (200, 100)),
        ('<svg width="200px" height="100px" viewBox="0 0 20 10">', (200, 100)),
        ('<svg viewBox="0 0 120 60">', (120, 60)),
        ('<svg width="240" viewBox="0,0,120,60">', (240, 120)),
        ('<svg width="50%" height="2em">', None),
        ('<svg width="100%" viewBox="0 0 30 10">', (30, 10)),
    ],
)
def test_svg_sizes_come_from_the_root_elements_attributes(tmp_path, root, size):
    path = tmp_path / "a.svg"
    path.write_text(f'{root[:-1]} xmlns="http://www.w3.org/2000/svg"></svg>')
    assert svg_size(path) == size


def test_an_svg_with_a_dtd_is_not_parsed(tmp_path):
    path = tmp_path / "bomb.svg"
    path.write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><svg width="&b;" height="1"></svg>'
    )
    assert svg_size(path) is None


def test_sizes_are_cached_by_the_files_signature(tmp_path):
    Image.new("RGB", (4, 3)).save(tmp_path / "a.png")
    (tmp_path / "notes.txt").write_text("not an image")
    cache = BuildCache.open(tmp_path)
    files = [("a.png", tmp_path / "a.png"), ("notes.txt", tmp_path / "notes.txt")]
    assert image_sizes(files, cache) == {"a.png": (4, 3)}
    cache.commit()
    assert cache.get("image", "a.png", cache.load("image")["a.png"][0]) == (4, 3)
    Image.new("RGB", (5, 3)).save(tmp_path / "a.png")
    assert image_sizes(files, cache) == {"a.png": (5, 3)}
    cache.close()
