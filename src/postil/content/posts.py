"""Turn parsed sources into posts with slugs, URLs and output paths."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import PurePosixPath

from slugify import slugify

from postil.errors import ContentError, Location
from postil.model import FrontMatter, Post, SourceFile, TextAt

FILE_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})-")
"""Jekyll's post file name, `YYYY-MM-DD-title.md`: the date when front matter has none
(`frontmatter`), and not part of the slug (`make_post`)."""


def make_slug(text: str) -> str:
    """Return a URL-safe slug for `text`: lowercase ASCII words joined by "-".

    Non-Latin text is transliterated (python-slugify with text-unidecode: "中文标题" ->
    "zhong-wen-biao-ti", "Ünïcödé" -> "unicode"), so every slug is a plain, portable URL
    path segment. Returns "" when nothing usable remains (e.g. only punctuation or emoji).
    """
    return slugify(text, max_length=80, word_boundary=True)


TAG_REPLACEMENTS = [("++", "pp"), ("#", "sharp"), ("+", " plus ")]
"""What a tag's signs stand for in its slug, so `C++`, `C#` and `C` are three tags (`cpp`,
`csharp`, `c`) where a slug dropping the signs made them one."""


@lru_cache(maxsize=4096)
def tag_slug(tag: str) -> str:
    """Return the slug of a taxonomy term, which is also its identity: terms with one slug
    are one term, as Hugo merges the terms it urlizes alike (`Math`, `math`, `#math`,
    `Machine Learning`, `machine-learning`).

    Obsidian's and Quartz's `#` before a tag is no part of it; `C++` is `cpp`, `C#` is
    `csharp` (`TAG_REPLACEMENTS`). A term with nothing a slug can keep (emoji only) is named
    by its code points, `tag-1f680`, so two such terms stay two.
    """
    name = tag.strip().lstrip("#").strip()
    slug = slugify(name, max_length=80, word_boundary=True, replacements=TAG_REPLACEMENTS)
    if slug or not name:
        return str(slug) or "tag"
    return "tag-" + "-".join(f"{ord(char):x}" for char in name if not char.isspace())


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
    directory of a page bundle `posts/my-post/index.md`), a post's without the date that
    begins it as Jekyll names posts (`posts/2020-01-15-my-post.md` is `my-post`: Jekyll's
    `:title`, Zola's, Eleventy's `fileSlug`, Docusaurus' blog slug), else the title
    (`title_slug`: its math as readable text) — Hugo's and Jekyll's order, so renaming a
    title does not break links. The URL is `posts/<slug>/` (a page's: its folders, then its
    slug; a page bundle `notes/foo/index.md` is `notes/foo/`, its folder being its slug),
    or the front matter's `permalink:` (Hugo's `url:`), which keeps a moved post at its
    old URL.

    Args:
        body: the end of `source.text` after the front matter (as `parse` returns it).

    Raises:
        ContentError: no usable slug can be made (name and title are all punctuation/emoji).
        ValueError: `body` is not the end of `source.text`.
    """
    if not source.text.endswith(body):
        raise ValueError(f"{source.rel}: the body must be the end of the source text")
    rel = PurePosixPath(source.rel)
    stem = file_stem(rel)
    slug = make_slug(meta.slug) or make_slug(_undated(source, stem)) or make_slug(stem)
    slug = slug or title_slug(meta.title, meta.macros)
    if not slug:
        raise ContentError(
            "postil cannot make a URL slug from the file name or title;"
            " add `slug: my-post` to the front matter",
            Location(source.rel, 1, 1),
        )
    if meta.permalink:
        url = meta.permalink
    elif source.kind == "post":
        url = f"posts/{slug}/"
    else:  # a page bundle's folder is its slug: `notes/foo/index.md` is `notes/foo/`
        folders = rel.parts[1:-2] if is_folder_page(rel) else rel.parts[1:-1]
        url = "/".join([*(make_slug(p) for p in folders if p), slug]) + "/"
    return Post(
        source=source,
        meta=meta,
        body_start=len(source.text) - len(body),
        body_line=body_line,
        slug=slug,
        url=url,
        output_rel=url + "index.html" if url.endswith("/") else url,
    )


def file_stem(rel: PurePosixPath) -> str:
    """Return the name a post's slug is made from: its file's stem, or its folder's name
    for a page bundle or section page (`posts/my-post/index.md` is `my-post`,
    `notes/algebra/_index.md` is `algebra`)."""
    return rel.parent.name if is_folder_page(rel) else rel.stem


def is_folder_page(rel: PurePosixPath) -> bool:
    """Return whether the source at `rel` is its folder's page, published at the folder's
    URL: a page bundle's `index.md` (Hugo's leaf bundle, Jekyll's and Eleventy's
    `folder/index.md`), or a section's `_index.md` (Hugo's branch bundle, Zola's section),
    which `section_index` lets through only outside `content/posts/`."""
    return rel.stem in ("index", "_index")


def _undated(source: SourceFile, stem: str) -> str:
    """Return a post's file stem without the date that begins it as Jekyll names posts
    (`2020-01-15-my-post` -> `my-post`); a page's stem as it is."""
    dated = FILE_DATE.match(stem) if source.kind == "post" else None
    return stem[dated.end() :] if dated else stem


def dated_url(post: Post) -> str | None:
    """Return the URL a post named as Jekyll names posts had before postil left the date
    out of its slug (`posts/2020-01-15-my-post/`), when it has a redirect page to make;
    else None (a slug or permalink of its own, no date in its name, or the same URL)."""
    if post.source.kind != "post" or post.meta.slug or post.meta.permalink:
        return None
    stem = file_stem(PurePosixPath(post.source.rel))
    old = make_slug(stem)
    if not FILE_DATE.match(stem) or not old or old == post.slug:
        return None
    return f"posts/{old}/"


def section_index(rel: str) -> str | None:
    """Return why the source at `rel` (`content/…`) is another generator's home or post list
    page rather than a post or page, as a warning (None: it is content).

    The home page's and the post lists' are: Hugo's and Zola's `_index.md` directly in
    `content/` or anywhere under `content/posts/`, and an `index` file directly in
    `content/` or `content/posts/` (Jekyll's home page, `layout: home`, or such a list).
    postil makes the home page, the post lists and the tag pages itself, so these are not
    published (as pages they would be `/content/` or `/posts/index/`). A section's
    `_index.md` elsewhere (`content/notes/algebra/_index.md`: a Hugo Book chapter, a Hextra
    primer) is a page at its folder's URL, as Hugo publishes its text (`is_folder_page`);
    `empty_section_page` leaves one without text out.
    """
    path = PurePosixPath(rel)
    folder = path.parent.as_posix()
    if path.stem == "_index":
        if folder != "content" and not (folder + "/").startswith("content/posts/"):
            return None
    elif path.stem != "index" or folder not in ("content", "content/posts"):
        return None
    return (
        f"`{path.name}` here is a home or post list page (Hugo's and Zola's `_index.md`, "
        "Jekyll's home `index.md`): postil makes the home page, the post lists and the tag "
        "pages itself, so it is not published; put text meant for readers in a page of its "
        "own (`content/about.md`) or in `postil.yaml` (`title`, `description`)"
    )


def empty_file(text: str) -> str | None:
    """Return why a source with nothing in it (or only blank lines) is not published, as a
    warning; None for any other. Such a file is a post being started (`touch`, an editor's
    new file) more often than a mistake, and no generator stops for it: Hugo publishes it
    untitled, MkDocs titles it by its file name, Jekyll and Pelican skip it; postil skips
    it with this warning, so `postil serve` goes on rebuilding the rest meanwhile."""
    if text.strip():
        return None
    return (
        "the file is empty, so nothing is published for it; write front matter with a "
        "`title:` and the post's text, or delete the file"
    )


def empty_section_page(rel: str, body: str) -> str | None:
    """Return why a section's `_index.md` with no text (front matter only: Hugo makes the
    section's list from it, which postil does not) is not published, as a warning; None
    for any other source, or one with text."""
    if PurePosixPath(rel).stem != "_index" or body.strip():
        return None
    return (
        "this section page (Hugo's `_index.md`) has no text, only front matter for Hugo's "
        "list of the section, which postil does not make, so it is not published; write "
        "the section's introduction below the front matter to publish it at the folder's URL"
    )


def alias_path(post: Post, alias: str) -> str:
    """Return the site path of one of a post's `aliases:`: written from the site's root, as
    it is (`/old/` → `old/`); else under the folder of the post's source in `content/`
    (Quarto's reading: `old.html` in `content/posts/x.qmd` is `posts/old.html`)."""
    if alias.startswith("/"):
        return alias[1:]
    return posixpath.join(posixpath.dirname(post.source.rel.removeprefix("content/")), alias)


def redirecting_aliases(post: Post) -> list[tuple[str, TextAt]]:
    """Return (site path, where it is written) of each of a post's `aliases:` that needs a
    redirect page: each path once, where first written, and not the post's own URL (an
    alias naming the post itself redirects nowhere: Obsidian's aliases repeat the note's
    own name). A post whose slug left its file name's date out also redirects from the
    dated URL (`dated_url`)."""
    spots = post.meta.aliases_at or (TextAt(),) * len(post.meta.aliases)
    written: dict[str, TextAt] = {}
    for alias, at in zip(post.meta.aliases, spots, strict=False):
        path = alias_path(post, alias)
        if output_file(path) != post.output_rel:
            written.setdefault(path, at)
    dated = dated_url(post)  # links to the dated URL earlier versions gave it keep working
    if dated is not None:
        written.setdefault(dated, TextAt())
    return list(written.items())


def distinct_slugs(posts: list[Post]) -> list[Post]:
    """Return `posts` where two posts whose slugs come from their file names (no `slug:`,
    no `permalink:`) would share one URL, the later ones with a longer slug of their own.

    Jekyll keeps the date in a post's URL and Hugo and MkDocs keep its folders, so
    `2025-08-12-plot.md` and `2025-08-13-plot.md`, or `stats/lec_01.md` and `ml/lec_01.md`,
    are two pages there, where postil's `posts/<slug>/` would put both at `posts/plot/`.
    One post keeps the slug: one with no longer slug to take if there is one (`p05.md`
    beside `2025-03-01-p05.md`), else the earliest by date (then path, the order `posts`
    come in), so a post added later does not move one already published. Each other takes
    the first free of: its file name with the date (`2025-08-13-plot`), then its folders
    below `content/posts/` before its slug, nearest first (`ml-lec-01`, then
    `course-ml-lec-01`). Two posts with nothing longer to take (`plot.md` beside
    `plot/index.md`), and slugs or permalinks the author wrote, are left for
    `check_unique_urls` to report. Returns `posts` itself when no URL is shared.
    """
    derived: dict[str, list[Post]] = {}
    for post in posts:
        if post.source.kind == "post" and not post.meta.slug and not post.meta.permalink:
            derived.setdefault(post.url, []).append(post)
    shared = [group for group in derived.values() if len(group) > 1]
    if not shared:
        return posts
    taken = {post.url for post in posts}
    moved: dict[int, Post] = {}
    for group in shared:
        longer = {id(post): list(_longer_slugs(post)) for post in group}
        group.sort(key=lambda p: (bool(longer[id(p)]), p.meta.date is None, p.meta.date or 0))
        for post in group[1:]:
            slug = next((s for s in longer[id(post)] if f"posts/{s}/" not in taken), None)
            if slug is not None:
                url = f"posts/{slug}/"
                taken.add(url)
                moved[id(post)] = replace(post, slug=slug, url=url, output_rel=url + "index.html")
    return [moved.get(id(post), post) for post in posts]


def _longer_slugs(post: Post) -> Iterator[str]:
    """Yield the slugs `distinct_slugs` tries for `post`, in order: its file name with the
    date Jekyll names posts with, then one, two, … of its folders below `content/posts/`
    before its slug."""
    rel = PurePosixPath(post.source.rel)
    stem = file_stem(rel)
    if FILE_DATE.match(stem) and make_slug(stem) != post.slug:
        yield make_slug(stem)
    folders = (rel.parent.parent if is_folder_page(rel) else rel.parent).parts[2:]
    for count in range(1, len(folders) + 1):
        yield make_slug("-".join([*folders[-count:], post.slug]))


def output_file(url: str) -> str:
    """Return the file a site-relative URL is published as: a folder's `index.html`
    (`posts/x/` → `posts/x/index.html`), else the URL itself (`old/x.html`); so
    `/posts/x/index.html` and `/posts/x/` are one page, as every web server serves them."""
    return url + "index.html" if not url or url.endswith("/") else url


def check_unique_urls(posts: list[Post]) -> list[ContentError]:
    """Return an error for every post whose URL, or one of whose `aliases:`, another post's
    URL or alias already takes (the same file: `/x/index.html` is `/x/`), naming both
    files. URLs from file names are claimed first, then written ones (`slug:`,
    `permalink:`), then aliases, so the error is at the value to change."""
    claims: list[tuple[Post, str, str, TextAt]] = [
        (post, post.url, "", post.meta.permalink_at if post.meta.permalink else post.meta.slug_at)
        for post in posts
    ]
    for post in posts:
        claims += [(post, path, "alias", at) for path, at in redirecting_aliases(post)]
    # URLs from file names first, then written ones, then aliases: the error is at the
    # value the author wrote (the one to change), not at a file that never asked for it
    claims.sort(
        key=lambda c: (bool(c[2]), not c[2] and bool(c[0].meta.permalink or c[0].meta.slug))
    )
    seen: dict[str, tuple[Post, str, str]] = {}
    errors = []
    for post, url, kind, at in claims:
        other, other_url, other_kind = seen.setdefault(output_file(url), (post, url, kind))
        if other is post and other_kind == kind:
            continue
        errors.append(_url_taken(post, (url, other_url), (kind, other_kind), at, other))
    return errors


def _url_taken(
    post: Post, urls: tuple[str, str], kinds: tuple[str, str], at: TextAt, other: Post
) -> ContentError:
    """Return the error of `post` claiming `urls[0]` (as its URL, or as an alias:
    `kinds[0]`) whose file `other` claims already as `urls[1]` (its URL or an alias)."""
    (url, other_url), (kind, other_kind) = urls, kinds
    if not kind and not other_kind and not post.meta.permalink and not other.meta.permalink:
        message = (
            f"slug `{post.slug}` is also used by {other.source.rel}; "
            "rename one file or set a different `slug:`"
        )
    else:
        mine = "an alias of this post" if kind else "this post's URL"
        whose = "this post's" if other is post else f"{other.source.rel}'s"
        theirs = f"{whose} alias" if other_kind else f"{whose} URL"
        if other_url != url:  # `/x/index.html` and `/x/`: one file
            theirs += f" `/{other_url}`, the same page"
        message = f"`/{url}` is {mine} and {theirs}; change `permalink:`, `slug:` or `aliases:`"
    return ContentError(message, Location(post.source.rel, at.line, at.col))
