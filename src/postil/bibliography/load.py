"""The bibliography stage: every `.bib` file the site and its posts name, read once.

A file is read (its bytes) on every build, and parsed only when its bytes changed: the
build cache keeps each parsed file ("bibliography" rows, by path) keyed by the fingerprint
of its bytes, so a warm build pays for reading and hashing the file and unpickling its
works (benchmarks/bibliography.py measures it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from postil.bibliography.entries import BibFile, Works
from postil.bibliography.read import read_bib
from postil.cache.keys import fingerprint
from postil.cache.store import BuildCache
from postil.errors import Diagnostic, Location, Severity
from postil.model import Post, SiteConfig

KIND = "bibliography"
"""The build cache's row kind of parsed `.bib` files."""


def post_bibliography(post: Post) -> tuple[str, ...]:
    """Return the site-relative paths of a post's own `.bib` files (written relative to
    the post's file, so a page bundle's `refs.bib` is `bibliography: refs.bib`)."""
    if not post.meta.bibliography:
        return ()  # most posts: no path to make (every build asks for every post)
    folder = PurePosixPath(post.source.rel).parent
    return tuple(_normal(folder / path) for path in post.meta.bibliography)


def _normal(path: PurePosixPath) -> str:
    """Return `path` with `..` and `.` resolved lexically (`a/b/../c.bib` -> `a/c.bib`)."""
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def load_bibliographies(
    config: SiteConfig, posts: Sequence[Post], cache: BuildCache
) -> tuple[dict[str, BibFile], list[Diagnostic]]:
    """Read every `.bib` file of the site and its posts, from the cache when unchanged.

    Returns:
        (parsed file by site-relative path, warnings): each file's warnings once (an entry
        that cannot be read, at the file's line), and one for each `bibliography:` of a post
        naming a file that does not exist, at the post's line and column.
    """
    files: dict[str, BibFile] = {}
    diagnostics: list[Diagnostic] = []
    for rel in config.bibliography:
        files[rel] = _read(config, rel, cache)
    for post in posts:
        for rel, at in zip(post_bibliography(post), post.meta.bibliography_at, strict=False):
            if rel in files:
                continue
            if not (config.root / rel).is_file():
                where = Location(post.source.rel, at.line, at.col)
                diagnostics.append(Diagnostic(Severity.WARNING, where, _missing(rel)))
                continue
            files[rel] = _read(config, rel, cache)
    cache.forget(KIND, cache.names(KIND) - set(files))
    for parsed in files.values():
        diagnostics.extend(parsed.warnings)
    return files, diagnostics


def _missing(rel: str) -> str:
    return (
        f"bibliography `{rel}` does not exist, so its entries cannot be cited; write the "
        "path relative to the post's file"
    )


def _read(config: SiteConfig, rel: str, cache: BuildCache) -> BibFile:
    """Return the parsed file at `rel`, from the cache when its bytes are unchanged."""
    data = (config.root / rel).read_bytes()
    key = fingerprint(data)
    found = cache.get(KIND, rel, key)
    if isinstance(found, BibFile):
        return found
    parsed = read_bib(data, rel)
    cache.put(KIND, rel, key, parsed)
    return parsed


def works_for(config: SiteConfig, post: Post, files: Mapping[str, BibFile]) -> Works | None:
    """Return the works a post can cite (its own files first, then the site's), or None
    when neither names a bibliography (then `[@key]` is not a citation)."""
    rels = [*post_bibliography(post), *config.bibliography]
    found = [files[rel].works for rel in rels if rel in files]
    if not rels:
        return None
    return Works(found)
