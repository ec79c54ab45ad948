"""What the site will publish, known before anything is written, and the checks it allows.

Every output path and where it comes from (a post, a generated page, a static file, a
content asset, a generated asset): two sources claiming one path are an error naming both
(`content/tags.md` would otherwise replace the tag index without a word), and every local
reference a post makes (`RenderedMarkdown.references`) must name a published file or page.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from urllib.parse import unquote, urlsplit

from postil.config import CONFIG_NAME, value_location
from postil.content.discover import is_source
from postil.errors import Diagnostic, Location, Severity, did_you_mean
from postil.markdown.references import published
from postil.markdown.rendered import Reference
from postil.model import RenderedPost, Site, TextAt
from postil.pages import PageJob, PageSpec
from postil.redirects import redirects

GENERATED = {
    "index.html": "the list of posts",
    "tag.html": "a tag's list of posts",
    "tags.html": "the tag index",
    "archive.html": "the archive",
    "404.html": "the 404 page",
}
"""What each generated page's template makes, for messages."""


def site_outputs(
    site: Site,
    jobs: Iterable[PageJob | PageSpec],
    generated: Iterable[str],
    origins: Mapping[str, str],
) -> tuple[dict[str, str], list[Diagnostic]]:
    """Return every output rel of the site with what makes it, and an error per collision.

    Args:
        site: the collected site.
        jobs: its page jobs (`postil.pages.page_jobs`, or their `PageSpec`s), posts and
            pages first.
        generated: the rels of the generated files (`postil.build.generated_assets`,
            `.nojekyll`, `CNAME`).
        origins: output rel -> site-relative source of each static file and content asset
            (`postil.assets.SiteAssets.origins`).

    Returns:
        (output rel -> its source: a site-relative path, or a description of a generated
        page in words), errors located at the content or static file that collides.
    """
    shown = site.posts + site.pages
    jobs = list(jobs)
    claims: list[tuple[str, str, bool]] = []  # (output rel, origin, a file of the site)
    claims += [(r.post.output_rel, r.post.source.rel, True) for r in shown]
    moves = redirects(site)  # their jobs come last (`pages._layout`): claimed at the post
    claims += [(move.rel, move.source, True) for move in moves]
    spots = {(r.post.output_rel, r.post.source.rel): r.post.meta.permalink_at for r in shown}
    spots |= {(move.rel, move.source): move.at for move in moves}
    claims += [
        (job.rel, _generated(job), False) for job in jobs[len(shown) : len(jobs) - len(moves)]
    ]
    claims += [(rel, f"postil's generated `{rel}`", False) for rel in generated]
    claims += [(rel, origin, True) for rel, origin in origins.items()]
    outputs: dict[str, tuple[str, bool]] = {}
    errors: list[Diagnostic] = []
    for rel, origin, own in claims:
        first = outputs.setdefault(rel, (origin, own))
        both_sources = is_source(first[0]) and is_source(origin)
        if first != (origin, own) and not both_sources:  # two slugs: `check_unique_urls`
            errors.append(_collision(rel, first, (origin, own), spots))
    for rel, (origin, own) in outputs.items():  # `feed.xml/index.html` under `feed.xml`
        folder = posixpath.dirname(rel)
        while folder:
            if folder in outputs:
                errors.append(_collision(folder, outputs[folder], (origin, own), spots, rel))
                break
            folder = posixpath.dirname(folder)
    return {rel: origin for rel, (origin, _) in outputs.items()}, errors


def _generated(job: PageJob | PageSpec) -> str:
    """Describe a generated page or file in words."""
    if not job.template:
        return f"postil's generated `{job.rel}`"
    return f"{GENERATED.get(job.template, job.template)} (`{job.rel}`)"


def _collision(
    rel: str,
    first: tuple[str, bool],
    second: tuple[str, bool],
    spots: Mapping[tuple[str, str], TextAt],
    inside: str = "",
) -> Diagnostic:
    """Return the error of two sources published at `rel`, located at a file of the site
    (the second one when both are; in a post, at the `permalink:` or alias that asks for
    it, from `spots`: (output rel, source) -> where). With `inside`: `first` is published as
    the file `rel` and `second` at `inside`, a path under it, which needs `rel` a folder."""
    here, other = (second, first) if second[1] or not first[1] else (first, second)
    where = here[0]
    spot = spots.get((inside or rel, where) if here is second else (rel, where), TextAt())
    name = f"`{other[0]}`" if other[1] else other[0]
    if inside:
        named = [f"`{o}`" if own else o for o, own in (first, second)]
        clash = f"`{inside}` of {named[1]} needs a folder `{rel}`, where {named[0]} is a file"
    else:
        clash = f"published at `{rel}`, where {name} is published too"
    return Diagnostic(
        Severity.ERROR,
        Location(where, spot.line, spot.col) if is_source(where) else Location(where),
        f"{clash}; rename or move this file (for a post or page: set another `slug:` or "
        "`permalink:`, or drop the `aliases:`)",
    )


def check_references(
    rendered: Iterable[RenderedPost],
    outputs: Mapping[str, str] | frozenset[str],
    base_path: str = "/",
) -> list[Diagnostic]:
    """Return a warning for every local reference whose target is not published.

    Args:
        rendered: the published posts and pages.
        outputs: every output rel of the site (`site_outputs`).
        base_path: the site's base path ("/repo/"): a root path written with it, which
            postil adds itself, is told to leave it out.

    Returns:
        Warnings at each reference's file:line:col (errors under `--strict`), in the order
        written.
    """
    problems = []
    paths: list[str] = []  # the site's paths, made for the first missing reference
    for page in rendered:
        for ref in page.content.references:
            if published(ref.target, outputs):
                continue
            paths = paths or [
                posixpath.dirname(rel) + "/" if rel.endswith("index.html") else rel
                for rel in outputs
            ]
            message = _with_base_path(ref, outputs, base_path) or _missing(ref, paths)
            problems.append(Diagnostic(Severity.WARNING, ref.location, message))
    return problems


def _with_base_path(
    ref: Reference, outputs: Mapping[str, str] | frozenset[str], base_path: str
) -> str:
    """Return the warning for a root path written with the site's base path
    (`/repo/img/a.png` on a project site), which postil puts before every root path, when
    the path without it is published; else "" (session 44: the warning named only the
    path not found, though the README says never to write the base path)."""
    prefix = base_path.strip("/") + "/"
    target = ref.target.lstrip("/")
    if prefix == "/" or not ref.url.startswith("/" + prefix) or not target.startswith(prefix):
        return ""
    rest = target[len(prefix) :]
    if not published(rest, outputs):
        return ""
    written = ref.url[len(prefix) :]
    return (
        f"`{ref.url}` is not in the built site: it starts with the base path `{base_path}`,"
        f" which postil writes before every root path itself; write `{written}`"
    )


def _nearest(target: str, paths: list[str]) -> str:
    """Return " (did you mean `/colophon/`?)" for the published path nearest to a missing
    `target` of its kind: a page (`colofon/`) among pages, a file among files (a page is
    no answer to a mistyped image)."""
    page = target.endswith("/")
    return did_you_mean(target, [p for p in paths if p.endswith("/") == page], "`/{}`")


def _missing(ref: Reference, paths: list[str]) -> str:
    """Say that `ref` names no published file: where it was looked for, the nearest of the
    site's `paths` (`errors.did_you_mean`), how to fix it.

    A relative path is looked for beside the post's file first, then where a browser
    reads it, from the page's URL (`references.resolve`): both are named, the first one
    being what the author meant (the page's folder is no folder of `content/`)."""
    target = ref.target.lstrip("/")
    at = f"`/{target}`"
    where = f"nothing is published at {at}"
    if ref.beside.startswith("content/"):
        where = f"no file {ref.beside} is published beside this post, nor anything at {at}"
    return (
        f"`{ref.url}` is not in the built site: {where}{_nearest(target, paths)}; "
        "fix the path (relative paths are read from this file's folder, `/…` from the "
        "site's root) or add the file to static/ or content/"
    )


def _at(position: TextAt) -> tuple[int, int]:
    """Return (line, col) of a front matter value, or (0, 0) when it was not read from a file."""
    return (position.line, position.col) if position != TextAt() else (0, 0)


def check_social_images(site: Site, outputs: Mapping[str, str]) -> list[Diagnostic]:
    """Return a warning for a local `image:` (a post's front matter, the site's
    postil.yaml) that names no published file."""
    found = [
        (r.post.meta.image, r.post.url, Location(r.post.source.rel, *_at(r.post.meta.image_at)))
        for r in site.posts + site.pages
        if r.post.meta.image
    ]
    found.append((site.config.image, "", Location(CONFIG_NAME)))
    problems = []
    for image, page_url, where in found:
        if not image or urlsplit(image).scheme or image.startswith("//"):
            continue
        path = unquote(urlsplit(image).path)
        target = path.lstrip("/") if path.startswith("/") else posixpath.join(page_url, path)
        if not published(posixpath.normpath(target), outputs):
            if where.path == CONFIG_NAME:
                where = value_location(site.config.root, "image")
            problems.append(
                Diagnostic(
                    Severity.WARNING,
                    where,
                    f"`image: {image}` is not in the built site (nothing is published at "
                    f"`/{posixpath.normpath(target)}`); fix the path or add the file",
                )
            )
    return problems


def check_nav_links(site: Site, outputs: Mapping[str, str]) -> list[Diagnostic]:
    """Return a warning at each `nav` link of postil.yaml that names a path of the site
    where nothing is published (it is in every page's header), naming the nearest page.

    A link with a scheme or a host (`https://…`, `mailto:…`) is left alone; a path is read
    from the site's root, with or without its first `/` (as the header writes it), its
    `?query` and `#fragment` aside. The default `nav` names only pages postil makes.
    """
    problems = []
    for index, (label, href) in enumerate(site.config.nav):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("//"):
            continue
        target = posixpath.normpath(unquote(parts.path).lstrip("/") or ".")
        target = "" if target == "." else target + ("/" if parts.path.endswith("/") else "")
        if published(target, outputs):
            continue
        paths = [
            posixpath.dirname(rel) + "/" if rel.endswith("index.html") else rel for rel in outputs
        ]
        problems.append(
            Diagnostic(
                Severity.WARNING,
                value_location(site.config.root, "nav", index, "url"),
                f"nav link `{label}` goes to `/{target}`, where nothing is published"
                f"{_nearest(target, paths)}; fix its `url` in {CONFIG_NAME} (a path from "
                "the site's root, such as `/about/`, or a full URL)",
            )
        )
    return problems
