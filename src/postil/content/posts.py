"""Turn parsed sources into posts with slugs, URLs and output paths."""

from __future__ import annotations

from pathlib import PurePosixPath

from slugify import slugify

from postil.errors import ContentError, Location
from postil.model import FrontMatter, Post, SourceFile


def make_slug(text: str) -> str:
    """Return a URL-safe slug for `text`: lowercase ASCII words joined by "-".

    Non-Latin text is transliterated (python-slugify with text-unidecode: "中文标题" ->
    "zhong-wen-biao-ti", "Ünïcödé" -> "unicode"), so every slug is a plain, portable URL
    path segment. Returns "" when nothing usable remains (e.g. only punctuation or emoji).
    """
    return slugify(text, max_length=80, word_boundary=True)


def title_slug(title: str, macros: tuple[tuple[str, str], ...] = ()) -> str:
    r"""Return the slug of a title: `make_slug` of its readable text.

    Math in it (`$…$`, `\(…\)`) counts by its plain text without TeX control words
    (`postil.markdown.title.slug_text`): "The $\displaystyle S$ matrix" gives
    "the-s-matrix", never "the-displaystyle-s-matrix". A title without `$` or `\(` costs
    no import of the math layer.
    """
    if "$" not in title and "\\(" not in title:
        return make_slug(title)
    from postil.markdown.title import slug_text

    return make_slug(slug_text(title, dict(macros)))


def make_post(source: SourceFile, meta: FrontMatter, body: str, body_line: int) -> Post:
    """Return the `Post` for a parsed source: its slug, URL and output file.

    The slug comes from front matter `slug:`, else the file name (`posts/my-post.md`, or the
    directory of a page bundle `posts/my-post/index.md`), else the title (`title_slug`:
    its math as readable text) — Hugo's and Jekyll's order, so renaming a title does not
    break links.

    Args:
        body: the end of `source.text` after the front matter (as `parse` returns it).

    Raises:
        ContentError: no usable slug can be made (name and title are all punctuation/emoji).
        ValueError: `body` is not the end of `source.text`.
    """
    if not source.text.endswith(body):
        raise ValueError(f"{source.rel}: the body must be the end of the source text")
    rel = PurePosixPath(source.rel)
    stem = rel.parent.name if rel.stem == "index" else rel.stem
    slug = make_slug(meta.slug) or make_slug(stem) or title_slug(meta.title, meta.macros)
    if not slug:
        raise ContentError(
            "cannot make a URL slug from the file name or title;"
            " add `slug: my-post` to the front matter",
            Location(source.rel, 1, 1),
        )
    if source.kind == "post":
        url = f"posts/{slug}/"
    else:
        parents = [make_slug(p) for p in rel.parts[1:-1] if p]
        url = "/".join([*parents, slug]) + "/" if rel.stem != "index" or parents else f"{slug}/"
    return Post(
        source=source,
        meta=meta,
        body_start=len(source.text) - len(body),
        body_line=body_line,
        slug=slug,
        url=url,
        output_rel=url + "index.html",
    )


def check_unique_urls(posts: list[Post]) -> list[ContentError]:
    """Return an error for every post whose URL another post already uses, naming both files."""
    seen: dict[str, Post] = {}
    errors = []
    for post in posts:
        other = seen.setdefault(post.url, post)
        if other is not post:
            errors.append(
                ContentError(
                    f"slug `{post.slug}` is also used by {other.source.rel}; "
                    "rename one file or set a different `slug:`",
                    Location(post.source.rel, 1, 1),
                )
            )
    return errors
