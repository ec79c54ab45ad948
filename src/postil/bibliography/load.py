"""The bibliography stage: every `.bib` file the site and its posts name, read once.

A file is read (its bytes) once a build, and parsed only when its bytes changed: the
build cache keeps each parsed file ("bibliography" rows, by path) keyed by the fingerprint
of its bytes, so a warm build pays for reading and hashing the file and unpickling its
works (benchmarks/bibliography.py measures it). A dev server's rebuild reads a file again
only when its stat signature changed (`load_bibliographies`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from operator import is_
from pathlib import PurePosixPath
from typing import Any

from postil.bibliography.entries import BibFile, Works, defined_again
from postil.cache.keys import fingerprint
from postil.cache.manifest import RACY_NS
from postil.cache.store import BuildCache
from postil.content.discover import stat_signature
from postil.errors import Diagnostic, Location, Severity
from postil.model import Post, SiteConfig, TextAt

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

    While the cache lives (a dev server's), its scratch dictionary (`BuildCache.memo`)
    keeps what each post names (redone only for a post that is not the very `Post` of the
    last build) and each file parsed with its stat signature: a file whose signature is
    the one it was read with, and was so at least `RACY_NS` after its last change, is not
    read again (git's "racily clean" rule, as for sources).

    Returns:
        (parsed file by site-relative path, warnings): each file's warnings once (an entry
        that cannot be read, at the file's line), and one for each `bibliography:` of a post
        naming a file that does not exist, at the post's line and column.
    """
    memo = cache.memo(KIND)
    files: dict[str, BibFile] = {}
    diagnostics: list[Diagnostic] = []
    for rel in config.bibliography:
        files[rel] = _read(config, rel, cache, memo)
    named = _named(posts, memo)
    for post, rel, at in named:
        if rel in files:
            continue
        if not (config.root / rel).is_file():
            where = Location(post.source.rel, at.line, at.col)
            diagnostics.append(Diagnostic(Severity.WARNING, where, _missing(rel)))
            continue
        files[rel] = _read(config, rel, cache, memo)
    if memo.get("kept") != files.keys():  # the rows of files no longer named go
        cache.forget(KIND, cache.names(KIND) - set(files))
        memo["kept"] = set(files)
    for parsed in files.values():
        diagnostics.extend(parsed.warnings)
    diagnostics += defined_in_two_files(_chains(config, named), files)
    return files, diagnostics


def _chains(config: SiteConfig, named: list[tuple[Post, str, TextAt]]) -> list[tuple[str, ...]]:
    """Return each distinct list of files a post reads, in the order its citations look
    keys up (`works_for`): its own files, then the site's."""
    own: dict[int, list[str]] = {}
    for post, rel, _ in named:
        own.setdefault(id(post), []).append(rel)
    chains = [tuple(config.bibliography)]
    chains += [tuple(dict.fromkeys((*rels, *config.bibliography))) for rels in own.values()]
    return list(dict.fromkeys(chains))


def defined_in_two_files(
    chains: Sequence[Sequence[str]], files: Mapping[str, BibFile]
) -> list[Diagnostic]:
    """Return a warning at each entry whose key a file read before its own defines too.

    Args:
        chains: the lists of files posts read, each in lookup order (the first file that
            defines a key is the one cited, `Works`).
        files: the files read, by site-relative path (a missing one is skipped).

    Returns:
        one warning per (later file, key), at the later entry's key, naming the first
        (`entries.defined_again`); a key twice in one file is the reader's warning. Each
        pair of files is compared once, by the smaller one's keys: a post's own small file
        against the site's large one costs its own size, however many posts there are.
    """
    shared: dict[tuple[str, str], list[str]] = {}
    found: dict[tuple[str, str], Diagnostic] = {}
    for chain in chains:
        present = [rel for rel in dict.fromkeys(chain) if rel in files]
        for at, later in enumerate(present):
            for earlier in present[:at]:  # in lookup order: the first definer is named
                pair = (earlier, later)
                if pair not in shared:
                    shared[pair] = _shared_keys(files[earlier].works, files[later].works)
                for key in shared[pair]:
                    if (later, key) not in found:
                        first = files[earlier].works[key].place()
                        message = defined_again(key, first, False)
                        where = files[later].works[key].place()
                        found[later, key] = Diagnostic(Severity.WARNING, where, message)
    return list(found.values())


def _shared_keys(first: Mapping[str, Any], second: Mapping[str, Any]) -> list[str]:
    """Return the keys both maps hold, found by the smaller one's keys."""
    small, large = (first, second) if len(first) <= len(second) else (second, first)
    return [key for key in small if key in large]


def _named(posts: Sequence[Post], memo: dict[str, Any]) -> list[tuple[Post, str, TextAt]]:
    """Return (post, `.bib` path, where its front matter names it) of every file a post
    names, in post order; `memo` keeps each post's, reused while it is the same `Post`."""
    last: tuple[list[Post], list[tuple[tuple[Post, str, TextAt], ...]]] | None
    last = memo.get("named")
    if last is not None and len(last[0]) == len(posts):
        same = list(map(is_, posts, last[0]))
        found = [
            kept if reuse else _names(post)
            for post, kept, reuse in zip(posts, last[1], same, strict=True)
        ]
    else:
        found = [_names(post) for post in posts]
    memo["named"] = (list(posts), found)
    return [named for each in found for named in each]


def _names(post: Post) -> tuple[tuple[Post, str, TextAt], ...]:
    rels = post_bibliography(post)
    return tuple((post, rel, at) for rel, at in zip(rels, post.meta.bibliography_at, strict=False))


def _missing(rel: str) -> str:
    return (
        f"bibliography `{rel}` does not exist, so its entries cannot be cited; write the "
        "path relative to the post's file"
    )


def _read(config: SiteConfig, rel: str, cache: BuildCache, memo: dict[str, Any]) -> BibFile:
    """Return the parsed file at `rel`, from `memo` when its stat signature vouches that it
    is the file parsed last time, else from the cache when its bytes are unchanged."""
    path = config.root / rel
    read: dict[str, tuple[tuple[int, int, int, int], BibFile]] = memo.setdefault("read", {})
    try:
        signature = stat_signature(path)
    except OSError:
        signature = None
    kept = read.get(rel)
    if kept is not None and kept[0] == signature:
        return kept[1]
    started = time.time_ns()
    data = path.read_bytes()
    key = fingerprint(data)
    found = cache.get(KIND, rel, key)
    parsed = found if isinstance(found, BibFile) else read_bibliography(data, rel)
    if not isinstance(found, BibFile):
        cache.put(KIND, rel, key, parsed)
    if signature is not None and max(signature[2:]) < started - RACY_NS:
        read[rel] = (signature, parsed)  # changed since: a new signature
    else:
        read.pop(rel, None)
    return parsed


def read_bibliography(data: bytes, rel: str) -> BibFile:
    """Return a bibliography file read by its kind: CSL JSON (`.json`) or CSL YAML
    (`.yaml`, `.yml`) with `postil.bibliography.csl`, else BibTeX or BibLaTeX."""
    if rel.lower().endswith((".json", ".yaml", ".yml")):
        return read_csl(data, rel)
    return read_bib(data, rel)


def read_bib(data: bytes, rel: str) -> BibFile:
    """Return a BibTeX or BibLaTeX file read (`postil.bibliography.read.read_bib`).

    The reader (bibtexparser's) is imported when a file is read: a build whose
    bibliographies all come from the cache, or a site with none, does not import it (the
    dev server's warm first page: docs/performance.md)."""
    from postil.bibliography.read import read_bib as read

    return read(data, rel)


def read_csl(data: bytes, rel: str) -> BibFile:
    """Return a CSL JSON or YAML file read (`postil.bibliography.csl.read_csl`), its reader
    imported when a file is read (as `read_bib`)."""
    from postil.bibliography.csl import read_csl as read

    return read(data, rel)


def works_for(config: SiteConfig, post: Post, files: Mapping[str, BibFile]) -> Works | None:
    """Return the works a post can cite (its own files first, then the site's), or None
    when neither names a bibliography (then `[@key]` is not a citation)."""
    rels = [*post_bibliography(post), *config.bibliography]
    found = [files[rel].works for rel in rels if rel in files]
    if not rels:
        return None
    return Works(found)
