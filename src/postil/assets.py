"""The files a site publishes as they are: static files and the assets kept beside posts.

Two sources, both copied byte for byte into the output (`postil.write.write_site`):

- `static/` (the theme's, then the site's: a site file overrides the theme file of its
  path), published at its path: `static/img/a.png` → `img/a.png`;
- every file under `content/` that is not Markdown (a *content asset*). One in a page
  bundle (a directory holding `index.md`: `content/posts/plot-post/index.md` with
  `plot.png` beside it, Hugo's "leaf bundle") is published beside that post's page, under
  the post's URL (`posts/<slug>/plot.png`, whatever the slug); any other at its path under
  `content/` (`content/img/red.png` → `img/red.png`). An asset of a bundle whose post is not
  published (a draft, a future post) is not published either.

A symbolic link in `static/` whose target leaves the site (`static/env.txt ->
/proc/self/environ`) is refused with an error, as one leaving `content/` is: the build
never publishes a file from outside the site's directory.
"""

from __future__ import annotations

import bisect
import os
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from postil.content.discover import CONTENT_DIR, OTHER_FORMATS, is_hidden, walk_content
from postil.errors import ContentError, Diagnostic, Location, Severity
from postil.model import SiteConfig
from postil.symlink import broken_symlink
from postil.theme import static_dirs

BUNDLE_INDEX = "index"
"""The name (without its suffix: `index.md`, `index.qmd`) of the source that makes its
directory a page bundle."""


@dataclass(frozen=True)
class SiteAssets:
    """The files published as they are, and where each content asset is published.

    Attributes:
        files: (output rel, file) of every static file and content asset, sorted by rel.
        by_source: source rel of every published content asset
            (`content/posts/p/plot.png`) -> its output rel (`posts/p/plot.png`); what the
            links plugin resolves references written relative to a post against.
        origins: output rel -> where the file comes from (site-relative, for messages).
    """

    files: tuple[tuple[str, Path], ...]
    by_source: Mapping[str, str]
    origins: Mapping[str, str]

    def path_of(self, rel: str) -> Path:
        """Return the file published at the output `rel` (one of `files`, which are sorted
        by rel: a binary search, not a map of every file on each rebuild)."""
        at = bisect.bisect_left(self.files, (rel,))
        return self.files[at][1]


def site_assets(
    config: SiteConfig,
    sources: Iterable[str],
    published: Mapping[str, str],
    memo: dict[Any, Any] | None = None,
) -> tuple[SiteAssets, list[ContentError]]:
    """Return the static files and content assets of the site, and the problems found.

    Args:
        config: the site configuration.
        sources: the source rel of every post and page found, published or not (a bundle
            of an unpublished post is recognised as one, so its files stay out).
        published: source rel -> site-relative URL of every published post and page.
        memo: the scratch dictionary of `postil.content.discover.walk_content`, whose
            listings of `content/` it shares.

    Returns:
        The assets, and errors for symlinks leaving the site or `content/`, and for a
        content asset published where a static file or another asset is (naming both).
    """
    static, errors = static_files(config.root)
    content = content_assets(config, sources, published, memo)
    files = dict(static)
    origins = {rel: _origin(config.root, path) for rel, path in static}
    by_source: dict[str, str] = {}
    for source, (rel, path) in content:
        if rel in files:
            errors.append(
                ContentError(
                    f"published at `{rel}`, where {origins[rel]} is published too;"
                    " move or rename one of them",
                    Location(source),
                )
            )
            continue
        files[rel], origins[rel], by_source[source] = path, source, rel
    return SiteAssets(tuple(sorted(files.items())), by_source, origins), errors


def unread_sources(assets: SiteAssets) -> list[Diagnostic]:
    """Return a warning for each content asset that another generator reads as a post or
    page and postil publishes as a file: one written in a content format postil does not
    read (`OTHER_FORMATS`: Org mode, AsciiDoc, reStructuredText, Textile; Hugo, Pelican and
    Nikola read them), and an HTML file that opens with `---` or `+++` front matter (Jekyll's
    and Hugo's posts written in HTML, as Jekyll's WordPress importer writes them), which would
    be published with its front matter showing. Without it the post is silently gone.
    """
    found = []
    for source, output in assets.by_source.items():
        stem, suffix = posixpath.splitext(posixpath.basename(source))
        kind = OTHER_FORMATS.get(suffix.lower())
        if kind is not None:
            convert = (
                f"`asciidoctor -b docbook {stem}{suffix}`, then `pandoc {stem}.xml -t markdown`"
                if kind == "AsciiDoc"
                else f"`pandoc {stem}{suffix} -t markdown -o {stem}.md`"
            )
            message = (
                f"written in {kind}, which postil does not read as a post or page (it reads "
                "Markdown, Quarto, R Markdown and notebooks): published as the file "
                f"`{output}`; convert it to Markdown ({convert}) or move it out of "
                "`content/`"
            )
        elif suffix.lower() in (".html", ".htm") and _opens_with_front_matter(
            assets.path_of(output)
        ):
            message = (
                "an HTML file with front matter is a post to Jekyll and Hugo, but postil reads "
                f"posts written in Markdown: published as the file `{output}`, its front "
                f"matter showing; rename it `{stem}.md` (Markdown keeps raw HTML as written)"
            )
        else:
            continue
        found.append(Diagnostic(Severity.WARNING, Location(source, 1, 1), message))
    return found


def _opens_with_front_matter(path: Path) -> bool:
    """Whether a file's first line is `---` or `+++` (YAML or Hugo's TOML front matter),
    BOM and spaces aside."""
    try:
        with open(path, "rb") as file:
            first = file.readline(64)
    except OSError:
        return False
    return first.removeprefix(b"\xef\xbb\xbf").rstrip() in (b"---", b"+++")


def content_assets(
    config: SiteConfig,
    sources: Iterable[str],
    published: Mapping[str, str],
    memo: dict[Any, Any] | None = None,
) -> list[tuple[str, tuple[str, Path]]]:
    """Return (source rel, (output rel, file)) of every published content asset, by path.

    Args: as `site_assets`. (Symlinks leaving `content/` are reported by
    `postil.content.discover`, which refuses them too.)
    """
    content = config.root / CONTENT_DIR
    if not content.is_dir():
        return []
    _, others, _ = walk_content(content, config.root, memo, again=memo is not None)
    if not others:
        return []
    bundles = bundle_dirs(sources)
    found = []
    for path, rel in others:
        source = f"{CONTENT_DIR}/{rel}"
        output = asset_output(source, bundles, published)
        if output is not None:
            found.append((source, (output, path)))
    return found


def bundle_dirs(sources: Iterable[str]) -> dict[str, str]:
    """Return the page bundles among `sources`: each directory holding an `index.md` (or
    `.markdown`, `.qmd`) -> that source, but `content/` and `content/posts/` themselves."""
    found: dict[str, str] = {}
    for rel in sources:
        directory, name = posixpath.split(rel)
        if posixpath.splitext(name)[0] == BUNDLE_INDEX:
            found.setdefault(directory, rel)
    return {d: rel for d, rel in found.items() if d not in (CONTENT_DIR, f"{CONTENT_DIR}/posts")}


def asset_output(
    source: str, bundles: Mapping[str, str], published: Mapping[str, str]
) -> str | None:
    """Return the output rel of the content asset `source`, or None if it is not published.

    The innermost bundle holding it decides: under its post's URL, if that is published
    (None otherwise; a post published as a file, `permalink: /2020/x.html`, has its files
    in that file's folder); outside every bundle, its path under `content/`.
    """
    directory = posixpath.dirname(source)
    while directory.startswith(CONTENT_DIR + "/"):
        if directory in bundles:
            url = published.get(bundles[directory])
            if url is None:
                return None
            folder = url if url.endswith("/") or not url else posixpath.dirname(url) + "/"
            return folder.lstrip("/") + source[len(directory) + 1 :]
        directory = posixpath.dirname(directory)
    return source[len(CONTENT_DIR) + 1 :]


def static_files(root: Path) -> tuple[list[tuple[str, Path]], list[ContentError]]:
    """Return (rel, path) of every static file, sorted, and the errors of the site's symlinks
    that leave the site.

    A site file overrides the theme file of the same rel. Hidden files and directories are
    skipped. A symlink in the site's `static/` is followed only when its target is inside
    the site's directory.
    """
    found: dict[str, Path] = {}
    errors: list[ContentError] = []
    site = root.resolve()
    folder = root / "static"  # a link that loops or names nothing: no static/ at all
    broken = broken_symlink(folder, root) if folder.is_symlink() else None
    if broken is not None:
        errors.append(ContentError(broken, Location("static")))
    for directory in static_dirs(root):
        trusted = not directory.resolve().is_relative_to(site)  # the installed theme
        files, refused = _walk_static(directory, None if trusted else site, root)
        found.update(files)
        errors += [
            ContentError(message, Location(_origin(root, path))) for path, message in refused
        ]
    return sorted(found.items()), errors


_OUTSIDE_SITE = (
    "symlink points outside the site's directory; copy the file into static/ instead"
    " (a link could publish any file of this computer)"
)


def _walk_static(
    directory: Path, inside: Path | None, root: Path
) -> tuple[dict[str, Path], list[tuple[Path, str]]]:
    """Return the files under `directory` by rel, and (path, message) of the symlinks not
    followed: those whose targets leave `inside` (None: any target is followed) and those
    that lead nowhere (`broken_symlink`; paths in messages relative to the site's `root`).
    A directory reached twice is read once."""
    files: dict[str, Path] = {}
    refused: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    stack: list[tuple[Path, str]] = [(directory, "")]
    while stack:
        here, prefix = stack.pop()
        real = here.resolve()
        if real in seen:
            continue
        seen.add(real)
        with os.scandir(here) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
        for entry in entries:
            path = here / entry.name
            if entry.name.startswith("."):
                continue
            if entry.is_symlink():
                broken = broken_symlink(path, root)
                if broken is not None:
                    refused.append((path, broken))
                    continue
                if inside is not None and not path.resolve().is_relative_to(inside):
                    refused.append((path, _OUTSIDE_SITE))
                    continue
            if entry.is_dir():
                stack.append((path, f"{prefix}{entry.name}/"))
            elif entry.is_file() and not is_hidden(entry.name):
                files[prefix + entry.name] = path
    return files, refused


def _origin(root: Path, path: Path) -> str:
    """Return `path` relative to the site root when it is inside it, else as it is."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
