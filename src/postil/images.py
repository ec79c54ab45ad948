"""The intrinsic size of the site's images, read once per file version and kept in the cache.

A page whose images carry `width` and `height` does not shift while they load (the browser
reserves the box from the aspect ratio: CSS Images 4, "natural aspect ratio"). Raster
images are measured with Pillow, which reads only the file's header; SVG from the root
element's `width`/`height` (in px or unitless) or else its `viewBox`, with the standard
library's expat and no DTD allowed (defusedxml's rule: no entity can expand).
"""

from __future__ import annotations

import os
import re
import xml.parsers.expat
from collections.abc import Iterable, Mapping
from pathlib import Path

from postil.cache.keys import fingerprint
from postil.cache.store import BuildCache
from postil.errors import Diagnostic, Location, Severity

Size = tuple[int, int]
"""(width, height) in CSS pixels."""

RASTER = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".bmp", ".tif", ".tiff"})
"""File suffixes measured with Pillow."""

_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(px)?\s*")


def image_sizes(files: Iterable[tuple[str, Path]], cache: BuildCache) -> dict[str, Size]:
    """Return the size of every image among `files` ((output rel, file)), by output rel.

    A file's size is kept in the build cache ("image" rows by output rel) under its path
    and stat signature, so an unchanged image is not opened again; one that cannot be
    measured (corrupt, an SVG sized only in `em` or `%`) is left out.
    """
    known = cache.load("image")
    sizes: dict[str, Size] = {}
    kept = set()
    for rel, path in files:
        suffix = os.path.splitext(rel)[1].lower()
        if suffix not in RASTER and suffix != ".svg":
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        key = fingerprint(str(path), str((st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)))
        hit = known.get(rel)
        size = hit[1] if hit is not None and hit[0] == key else None
        if hit is None or hit[0] != key:
            size = image_size(path)
            cache.put("image", rel, key, size)
        kept.add(rel)
        if size is not None:
            sizes[rel] = (int(size[0]), int(size[1]))
    cache.forget("image", known.keys() - kept)
    return sizes


def unreadable_images(
    files: Iterable[tuple[str, Path]], sizes: Mapping[str, Size], origins: Mapping[str, str]
) -> list[Diagnostic]:
    """Return a warning for each raster image among `files` ((output rel, file)) that has no
    size in `sizes` although Pillow reads its format: not the image its name says (a page
    saved as `plot.png`, a file cut short or empty), which a browser shows as a broken image.

    Args:
        origins: the source path (`content/…`, `static/…`) of each output rel, where the
            warning points.
    """
    broken = [
        (rel, path)
        for rel, path in files
        if rel not in sizes and os.path.splitext(rel)[1].lower() in RASTER
    ]
    if not broken:
        return []
    from PIL import Image

    readable = Image.registered_extensions()  # the formats this Pillow was built with
    found = []
    for rel, path in broken:
        kind = readable.get(os.path.splitext(rel)[1].lower())
        if kind is None or not path.is_file():
            continue
        found.append(
            Diagnostic(
                Severity.WARNING,
                Location(origins.get(rel, rel)),
                f"this file is not a {kind} image a browser can show (its bytes are no {kind} "
                f"file, or it is empty or cut short): published as `{rel}`, it shows as a "
                f"broken image; save the image again as {kind}, or give the file the ending "
                "of its format",
            )
        )
    return found


def image_size(path: Path) -> Size | None:
    """Return an image file's (width, height) in pixels, or None if it cannot be told."""
    if path.suffix.lower() == ".svg":
        return svg_size(path)
    from PIL import Image, UnidentifiedImageError  # imported only when an image is new

    try:
        with Image.open(path) as image:
            width, height = image.size
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    return (width, height) if width > 0 and height > 0 else None


def svg_size(path: Path) -> Size | None:
    """Return an SVG's size: its root's `width` and `height` in px (or unitless), else the
    `viewBox`'s; None when neither tells it, or the file is not SVG or has a DTD."""
    found: dict[str, str] = {}

    def start(name: str, attrs: dict[str, str]) -> None:
        found.update(attrs)
        raise StopIteration  # the root element is all we need

    def no_dtd(*_: object) -> None:
        raise ValueError("DTD refused")

    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler = start
    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    try:
        with open(path, "rb") as file:
            parser.ParseFile(file)
    except StopIteration:
        pass
    except (OSError, ValueError, xml.parsers.expat.ExpatError):
        return None
    return _svg_dimensions(found)


def _svg_dimensions(attrs: dict[str, str]) -> Size | None:
    """Return the size an SVG root's attributes give, or None."""
    width, height = _px(attrs.get("width")), _px(attrs.get("height"))
    box = (attrs.get("viewBox") or "").replace(",", " ").split()
    ratio = None
    if len(box) == 4:
        try:
            box_w, box_h = float(box[2]), float(box[3])
            ratio = box_w / box_h if box_w > 0 and box_h > 0 else None
        except ValueError:
            ratio = None
    if width and height:
        return round(width), round(height)
    if ratio and width:
        return round(width), round(width / ratio)
    if ratio and height:
        return round(height * ratio), round(height)
    if ratio and width is None and height is None:
        return round(float(box[2])), round(float(box[3]))
    return None


def _px(value: str | None) -> float | None:
    """Return a length in px or unitless as a number; None for other units or nothing."""
    match = _LENGTH.fullmatch(value or "")
    return float(match[1]) if match and float(match[1]) > 0 else None
