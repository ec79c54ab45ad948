"""Find and read the site's Markdown sources (the only pipeline stage that reads content)."""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from postil.cache.manifest import RACY_NS
from postil.content.notebook import notebook_markdown
from postil.errors import ContentError, Diagnostic, Location, Severity, read_utf8
from postil.model import SiteConfig, SourceFile
from postil.symlink import broken_symlink

CONTENT_DIR = "content"

NOTEBOOK_SUFFIX = ".ipynb"
"""A Jupyter notebook: read as the Markdown its cells make (`postil.content.notebook`)."""

R_MARKDOWN_SUFFIXES = (".Rmd", ".rmd", ".Rmarkdown")
"""R Markdown (blogdown, R's distill, bookdown): Pandoc's Markdown with knitr's chunks, read
as a `.qmd` is (`postil.markdown.chunk`: code shown, not run)."""

SOURCE_SUFFIXES = (
    ".md",
    ".markdown",
    ".mkdown",  # Jekyll's other default endings (`markdown_ext`)
    ".mkdn",
    ".mkd",
    ".mdown",  # Hugo's
    ".pandoc",  # Hugo's Pandoc Markdown
    ".pdc",
    ".mmark",  # Hugo's Mmark (its content format until Hugo 0.60): Markdown with `$$` math
    ".qmd",
    ".mdx",
    ".svx",  # mdsvex: Markdown with Svelte (`postil.markdown.svelte`)
    NOTEBOOK_SUFFIX,
    *R_MARKDOWN_SUFFIXES,
)
"""File name endings of sources: Markdown (as Jekyll's `markdown_ext` and Hugo's content
formats name it: `.markdown`, `.mkdn`, `.mdown`, Pandoc's `.pandoc`, `.mmark`), Quarto, MDX
(Docusaurus, Astro: `postil.markdown.mdx`), mdsvex (`postil.markdown.svelte`) and
R Markdown. The one list: every stage reads it."""

OTHER_FORMATS = {
    ".org": "Org mode",
    ".adoc": "AsciiDoc",
    ".asciidoc": "AsciiDoc",
    ".ad": "AsciiDoc",
    ".rst": "reStructuredText",
    ".textile": "Textile",
}
"""Endings of the content formats other generators read that postil does not (Hugo reads
all of them, Pelican and Nikola reStructuredText, Jekyll Textile with a plugin): such a
file under `content/` is published as a file, and said so (`postil.assets`)."""

MARKDOWN_ENDINGS = SOURCE_SUFFIXES[:6]
"""The plain Markdown endings, read in any case (`is_source`): Jekyll compares a file's
ending with `markdown_ext` downcased (`Jekyll::Converters::Markdown#matches`), so a
Windows-made `Post.MD` or `Notes.Markdown` is a post there; here it was published as a
file, silently."""


def is_source(name: str) -> bool:
    """Tell whether a file name (or path) ends as a source: `SOURCE_SUFFIXES`, or a plain
    Markdown ending in capitals (`MARKDOWN_ENDINGS`: `x.MD`, `x.Markdown`). The one test:
    discovery, links to sources, output collisions and the dev server's watcher use it."""
    return name.endswith(SOURCE_SUFFIXES) or name.lower().endswith(MARKDOWN_ENDINGS)


KNITTED_SUFFIXES = (".md", ".markdown")
"""What blogdown knits an R Markdown source into, beside it: `x.Rmarkdown` -> `x.markdown`,
`x.Rmd` -> `x.html` (and `x.md` with `keep_md`)."""


def discover(config: SiteConfig) -> tuple[list[SourceFile], list[ContentError]]:
    """Return every source (`SOURCE_SUFFIXES`) under `content/`, sorted by path, and the files
    that failed.

    Posts are the files under `content/posts/` (a page bundle `posts/<slug>/index.md` counts
    as one post); every other `.md` is a page. Hidden files and directories (`.name`) and
    editor backups (`name~`, `#name#`) are skipped. Symlinks (files or directories) are
    followed when they point inside `content/`; one pointing outside is refused, so a crafted
    link cannot pull files from elsewhere into the site.

    Returns:
        (sources, errors): a file that is not UTF-8 gives a `ContentError` naming the byte
        offset instead of a `SourceFile`; the others are still read.
    """
    paths, errors = source_paths(config)
    sources: list[SourceFile] = []
    for path, rel, kind in paths:
        try:
            sources.append(read_source(path, rel, kind))
        except ContentError as e:
            errors.append(e)
    return sources, errors


def source_paths(
    config: SiteConfig,
    memo: dict[Any, Any] | None = None,
    entries: Collection[Path] | None = None,
) -> tuple[list[tuple[Path, str, str]], list[ContentError]]:
    """Return (path, rel, kind) of every source `discover` reads, in its order, without
    reading them; and the errors of symlinks pointing outside `content/`.

    Args:
        memo: a scratch dictionary kept between builds (`BuildCache.memo`): see
            `walk_content`; an unchanged listing gives the very same list as last time.
        entries: the entries of `content/`'s directories a watcher saw made, removed or
            renamed, or None: see `walk_content`.
    """
    content = config.root / CONTENT_DIR
    if not content.is_dir():
        broken = broken_symlink(content, config.root) if content.is_symlink() else None
        return [], [ContentError(broken, Location(CONTENT_DIR))] if broken else []
    memo = memo if memo is not None else {}
    paths, _, errors = walk_content(content, config.root, memo, entries=entries)
    last = memo.get("sources")
    if last is not None and last[0] is paths:
        return last[1], errors
    found = []
    for path, rel in paths:
        kind = "post" if rel.startswith("posts/") else "page"
        found.append((path, f"{CONTENT_DIR}/{rel}", kind))
    memo["sources"] = (paths, found)
    return found, errors


def stat_signature(path: Path) -> tuple[int, int, int, int]:
    """Return (inode, size, modification time, change time) of a file, times in ns.

    Writing a file changes its modification and change times, replacing it changes its
    inode, and no program can set the change time: a file with the signature an earlier
    build recorded holds what it held then (but see `postil.cache.manifest.RACY_NS`).

    Raises:
        OSError: the file cannot be examined.
    """
    return signature_of(os.stat(path))


def signature_of(st: os.stat_result) -> tuple[int, int, int, int]:
    """Return the `stat_signature` of a file from its `os.stat` result."""
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_unchanged(path: Path, rel: str, kind: str, signature: tuple[int, ...]) -> str:
    """Read a source the cache vouched for with `signature`; return its text.

    Raises:
        ContentError: the file no longer has that signature (it was edited or removed
            during the build) or cannot be read; building again picks the change up.
    """
    problem = ContentError(
        "the file changed while the site was being built; build again", Location(rel)
    )
    try:
        before = stat_signature(path)
        text = read_source(path, rel, kind).text
        after = stat_signature(path)
    except OSError as e:
        raise problem from e
    if not before == after == tuple(signature):
        raise problem
    return text


def is_hidden(name: str) -> bool:
    """Return whether a file or directory name is skipped: hidden (`.name`) or an editor
    backup or lock (`name~`, `#name#`)."""
    return name.startswith((".", "#")) or name.endswith("~")


def walk_content(
    content: Path,
    root: Path,
    memo: dict[Any, Any] | None = None,
    again: bool = False,
    entries: Collection[Path] | None = None,
) -> tuple[list[tuple[Path, str]], list[tuple[Path, str]], list[ContentError]]:
    """Return the `.md` files and the other files under `content` as (path, path relative
    to `content`), each list sorted by path, and the errors of symlinks that leave it.

    A symlinked file or directory is followed when its target is inside `content/` (a series
    kept in one folder and linked from another); one pointing outside is an error, and a
    directory reached twice (a link cycle or a second link) is read once. Hidden files and
    editor backups (`is_hidden`) are skipped. (`os.scandir` and strings rather than `Path`
    objects: a rebuild lists every source, 1,000s of them.)

    Args:
        memo: a scratch dictionary kept between builds (`BuildCache.memo`), or None. Each
            directory without symlinks is listed once and kept there with its stat
            signature: adding, removing or renaming an entry changes the directory's
            modification time, so a directory with the same signature, last changed at
            least `RACY_NS` before it was listed (git's "racily clean" rule), is not listed
            again; and when no directory was, the very same lists are returned.
        again: the same build walks `content/` again (`postil.assets`): a directory it
            listed within `RACY_NS` of its last change is not listed a second time (the
            next build lists it again). It uses the `entries` of the first walk.
        entries: the paths of every entry (file, link, any name: temp files and hidden
            ones too) made, removed or renamed from or to under `content` since the last
            walk with this `memo`, when a watcher that reports every such change proves no
            other entry was (`postil.serve.engine.DevBuild`); None: any may have been.
            Given (and when the last walk followed no symlink), a directory reached
            without a symlink is listed again only when one of these entries in it is not
            what its listing says (now there with the same kind, or absent), or when its
            signature changed and none of them is in it (a change the watcher did not
            report): an editor's atomic save (a temp file made, then renamed onto the
            post) leaves the same entries, so 1,000 posts are not listed again for it. A
            new post, a deletion or a rename to a new name is listed. A directory none of
            them is in and whose signature is the same keeps its listing even within
            `RACY_NS` of its change: a change since its listing would have been reported.

    `memo["linked"]` then says whether the walk followed a symlink (a file reached through
    one changes under another path than its own: `postil.content.load` asks).
    """
    memo = memo if memo is not None else {}
    listed: dict[Path, _Listing] = memo.setdefault("dirs", {})
    epoch = memo["epoch"] = memo.get("epoch", 0) + (0 if again else 1)
    if again:
        first = memo.get("touched")
        touched = first[1] if first is not None and first[0] == epoch else None
    else:
        vouched = entries is not None and memo.get("linked") is False
        touched = _by_directory(content, entries) if vouched and entries is not None else None
        memo["touched"] = (epoch, touched)
    inside = content.resolve()
    markdown: list[tuple[Path, str]] = []
    other: list[tuple[Path, str]] = []
    errors: list[ContentError] = []
    visited: list[_Listing] = []
    seen: set[Path] = set()
    # (directory, its rel + "/", its real path, reached through a symlink)
    stack: list[tuple[Path, str, Path, bool]] = [(content, "", inside, False)]
    while stack:
        directory, prefix, real, linked = stack.pop()
        if real in seen:
            continue
        seen.add(real)
        names = None if touched is None or linked else touched.get(prefix, frozenset())
        listing = listed[directory] = _list_directory(
            directory, prefix, listed.get(directory), epoch, names
        )
        visited.append(listing)
        for path, rel in listing.dirs:
            stack.append((path, rel + "/", real / path.name, linked))
        markdown += listing.markdown  # in C: a walk costs no Python step per source
        other += listing.other
        for path, rel in listing.links:
            broken = broken_symlink(path, root)
            if broken is not None:
                where = path.relative_to(root).as_posix()
                errors.append(ContentError(broken, Location(where)))
                continue
            target = path.resolve()
            if not target.is_relative_to(inside):
                where = path.relative_to(root).as_posix()
                errors.append(
                    ContentError("symlink points outside content/; remove it", Location(where))
                )
            elif path.is_dir():
                stack.append((path, rel + "/", target, True))
            elif path.is_file():
                (markdown if is_source(path.name) else other).append((path, rel))
    memo["linked"] = any(listing.links for listing in visited)
    last = memo.get("walk")
    if last is not None and len(last[0]) == len(visited) and all(map(_same, last[0], visited)):
        return last[1], last[2], errors
    markdown.sort(key=_path_order)
    other.sort(key=_path_order)
    if not errors:
        memo["walk"] = (visited, markdown, other)
    return markdown, other, errors


@dataclass(frozen=True)
class _Listing:
    """One directory under `content/` as `walk_content` listed it.

    Attributes:
        entries: (path, rel, "dir" | "markdown" | "other" | "knitted") of each entry that
            is not a symlink nor hidden, by name.
        links: (path, rel) of each symlink, by name (followed on every walk: its target
            can change while the directory does not).
        signature: the directory's (inode, modification time, change time) when listed.
        racy: the directory changed within `RACY_NS` of being listed: its signature
            vouches for the listing only in the build that made it (`epoch`).
        epoch: the number of the build that listed it (`walk_content`).
        kinds: the kind of each entry by name ("link" for a symlink, "knitted" for what
            blogdown made beside an R Markdown source: `_knitted`), hidden ones left out.
        dirs, markdown, other: (path, rel) of the entries of each kind, by name.
    """

    entries: tuple[tuple[Path, str, str], ...]
    links: tuple[tuple[Path, str], ...]
    signature: tuple[int, int, int]
    racy: bool
    epoch: int
    kinds: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    dirs: tuple[tuple[Path, str], ...] = field(default=(), compare=False, repr=False)
    markdown: tuple[tuple[Path, str], ...] = field(default=(), compare=False, repr=False)
    other: tuple[tuple[Path, str], ...] = field(default=(), compare=False, repr=False)


def _same(a: _Listing, b: _Listing) -> bool:
    """Whether two listings of a directory list the same entries (a listing kept for a
    changed signature has the very entries of the last one) and no symlink."""
    return a.entries is b.entries and not a.links and not b.links


def _by_directory(content: Path, entries: Collection[Path]) -> dict[str, frozenset[str]] | None:
    """Return the names of `entries` by the rel + "/" of their directory under `content`
    ("" for `content` itself), or None if one is not under `content` (nothing is vouched)."""
    found: dict[str, set[str]] = {}
    for path in entries:
        try:
            rel = path.relative_to(content).as_posix()
        except ValueError:
            return None
        head, _, name = rel.rpartition("/")
        found.setdefault(f"{head}/" if head else "", set()).add(name)
    return {prefix: frozenset(names) for prefix, names in found.items()}


def _list_directory(
    directory: Path,
    prefix: str,
    last: _Listing | None,
    epoch: int,
    names: frozenset[str] | None = None,
) -> _Listing:
    """Return the listing of `directory` (whose entries' rels start with `prefix`): `last`
    if the directory's stat signature vouches that it is unchanged, or (`names` given: the
    entries a watcher saw made, removed or renamed in it, see `walk_content`) if each of
    `names` is what `last` says; else a fresh one (`_scan`)."""
    st = os.stat(directory)
    signature = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    if last is None:
        return _scan(directory, prefix, None, st, epoch)
    if last.signature == signature and (
        not last.racy or last.epoch == epoch or names is not None and not names
    ):
        return last
    if names and all(_kind(directory, name) == last.kinds.get(name) for name in names):
        return replace(last, signature=signature, racy=_racy(st), epoch=epoch)
    return _scan(directory, prefix, last, st, epoch)


def _kind(directory: Path, name: str) -> str | None:
    """Return what `_scan` would list `directory / name` as ("link" for a symlink), or None
    if it would not list it (absent, hidden, neither a file nor a directory); "unknown"
    (never a listing's) if it cannot be examined."""
    if is_hidden(name):
        return None
    try:
        mode = os.lstat(directory / name).st_mode
    except FileNotFoundError:
        return None
    except OSError:
        return "unknown"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        return "markdown" if is_source(name) else "other"
    return None


def _racy(st: os.stat_result) -> bool:
    """Whether a directory with this `os.stat` result changed within `RACY_NS` of now."""
    return max(st.st_mtime_ns, st.st_ctime_ns) >= time.time_ns() - RACY_NS


def _scan(
    directory: Path, prefix: str, last: _Listing | None, st: os.stat_result, epoch: int
) -> _Listing:
    """List `directory` (its `os.stat` result `st`, taken before) afresh; `last`'s paths
    are reused for the names it listed."""
    signature = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    listed_at = time.time_ns()
    with os.scandir(directory) as scan:
        found = sorted(scan, key=lambda entry: entry.name)
    entries = []
    links = []
    kinds: dict[str, str] = {}
    known = {rel: path for path, rel, _ in last.entries} if last is not None else {}
    for entry in found:
        name = entry.name
        if is_hidden(name):
            continue
        rel = prefix + name
        path = known.get(rel) or directory / name
        if entry.is_symlink():
            links.append((path, rel))
            kinds[name] = "link"
        elif entry.is_dir():
            entries.append((path, rel, "dir"))
            kinds[name] = "dir"
        elif entry.is_file():
            kind = kinds[name] = "markdown" if is_source(name) else "other"
            entries.append((path, rel, kind))
    if any(name.endswith(R_MARKDOWN_SUFFIXES) for name in kinds):
        _knitted(kinds)
        entries = [(path, rel, kinds[rel[len(prefix) :]]) for path, rel, _ in entries]
    if any(name.endswith(NOTEBOOK_SUFFIX) for name in kinds) and _paired_notebooks(kinds):
        entries = [(path, rel, kinds[rel[len(prefix) :]]) for path, rel, _ in entries]
    racy = max(st.st_mtime_ns, st.st_ctime_ns) >= listed_at - RACY_NS
    by_kind: dict[str, list[tuple[Path, str]]] = {"dir": [], "markdown": [], "other": []}
    for path, rel, kind in entries:
        if kind != "knitted":
            by_kind[kind].append((path, rel))
    dirs, markdown, other = (tuple(by_kind[kind]) for kind in ("dir", "markdown", "other"))
    return _Listing(
        tuple(entries), tuple(links), signature, racy, epoch, kinds, dirs, markdown, other
    )


def _knitted(kinds: dict[str, str]) -> None:
    """Mark, in a directory's `kinds`, what blogdown made of an R Markdown source as
    "knitted" (left out of the site): the source itself when its knitted Markdown is beside
    it (`x.Rmarkdown` and `x.markdown`: the knitted file holds R's output, and it is what
    Hugo publishes; blogdown's sites ignore `.Rmd` and `.Rmarkdown`), and the HTML page
    blogdown rendered from `x.Rmd` (`x.html`: its front matter would be copied as text)."""
    for name in [name for name in kinds if name.endswith(R_MARKDOWN_SUFFIXES)]:
        stem = name.rpartition(".")[0]
        if any(kinds.get(stem + suffix) == "markdown" for suffix in KNITTED_SUFFIXES):
            kinds[name] = "knitted"
        if kinds.get(stem + ".html") == "other":
            kinds[stem + ".html"] = "knitted"


def _paired_notebooks(kinds: dict[str, str]) -> bool:
    """Mark, in a directory's `kinds`, each notebook beside a Markdown source of the same
    name (`x.ipynb` and `x.md`, in any case) as a file to publish, not a post; return
    whether there was one.

    The Markdown is the post: Pelican blogs embed the notebook in it
    (liquid_tags' `{% notebook x.ipynb cells[1:] %}`), Jupytext pairs the two files as one
    document, nbconvert writes the Markdown from it; as two posts they took one slug and
    stopped the build (a Pelican blog: 9 such pairs)."""
    stems = {
        name.rpartition(".")[0].lower()
        for name, kind in kinds.items()
        if kind == "markdown" and not name.endswith(NOTEBOOK_SUFFIX)
    }
    paired = [
        name
        for name, kind in kinds.items()
        if kind == "markdown"
        and name.endswith(NOTEBOOK_SUFFIX)
        and name[: -len(NOTEBOOK_SUFFIX)].lower() in stems
    ]
    for name in paired:
        kinds[name] = "other"
    return bool(paired)


def _path_order(pair: tuple[Path, str]) -> list[str]:
    """Sort key of (path, rel): by path components, as `Path.parts` compare."""
    return pair[1].split("/")


def read_source(path: Path, rel: str, kind: str) -> SourceFile:
    """Read one file as UTF-8, strip a BOM and turn CRLF and lone CR line endings into LF;
    take out terminal escape sequences (`TERMINAL_ESCAPE`) and the characters HTML forbids
    (`forbidden_characters`), which the returned source lists in `dropped` for the load
    stage to warn of.

    Raises:
        ContentError: the file is not valid UTF-8 (names the byte offset, line and column)
            or cannot be read.
    """
    text = read_utf8(path, rel, ContentError)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if rel.endswith(NOTEBOOK_SUFFIX):
        text = notebook_markdown(text, rel)
    if "\x1b" in text:
        text = TERMINAL_ESCAPE.sub("", text)
    pattern = _FORBIDDEN_ASCII if text.isascii() else _FORBIDDEN
    if pattern.search(text) is None:
        return SourceFile(path=path, rel=rel, text=text, kind=kind)
    dropped = forbidden_characters(text, pattern)
    return SourceFile(path=path, rel=rel, text=pattern.sub("", text), kind=kind, dropped=dropped)


TERMINAL_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
"""A terminal's escape sequence (ECMA-48: CSI `ESC[31m`, `ESC[K`; OSC `ESC]…BEL`; a
two-character `ESC@`…`ESC_`), pasted with a program's output into a code block: taken out
when the source is read, as a terminal shows it (colours and cursor moves are not text).
A lone ESC is still a forbidden character."""

# Characters HTML forbids in a document (WHATWG HTML, "control-character-in-input-stream" and
# "noncharacter-in-input-stream"): C0 controls but tab, LF, FF, CR; DEL and C1; NUL, which
# CommonMark would turn into U+FFFD; and the noncharacters.
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff"
    + "".join(f"{chr(p << 16 | 0xFFFE)}{chr(p << 16 | 0xFFFF)}" for p in range(1, 17))
    + "]"
)
_FORBIDDEN_ASCII = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")
"""The same rule for pure-ASCII text: a class without astral ranges searches ~7x faster."""


def forbidden_characters(
    text: str, pattern: re.Pattern[str] = _FORBIDDEN
) -> tuple[tuple[int, int, int], ...]:
    """Return (line, column, code point), 1-based, of each character of `text` that HTML
    forbids (`_FORBIDDEN`).

    Such a character is a stray paste (a unit separator between two formulas of a real Hugo
    blog, a lone ESC) or corruption, never prose: Hugo and Jekyll publish it and a browser
    shows nothing, but a page holding it is invalid HTML and a feed holding it is not XML
    (XML 1.0, section 2.2), so `read_source` leaves it out and the load stage warns.
    """
    found = []
    line, line_start, scanned = 1, 0, 0
    for match in pattern.finditer(text):
        at = match.start()
        newlines = text.count("\n", scanned, at)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", scanned, at) + 1
        scanned = at
        found.append((line, at - line_start + 1, ord(match.group())))
    return tuple(found)


def dropped_characters_warning(source: SourceFile) -> Diagnostic | None:
    """Return the one warning for the characters HTML forbids that `read_source` left out of
    `source` (at the first one, naming how many and on which lines), or None."""
    if not source.dropped:
        return None
    line, col, code = source.dropped[0]
    names = sorted({f"U+{point:04X}" for _, _, point in source.dropped})
    lines = sorted({at for at, _, _ in source.dropped})
    where = ", ".join(map(str, lines[:8])) + (", …" if len(lines) > 8 else "")
    many = len(source.dropped)
    return Diagnostic(
        Severity.WARNING,
        Location(source.rel, line, col),
        f"character{'s' if len(names) > 1 else ''} {', '.join(names)} "
        f"{'are' if len(names) > 1 else 'is'} not allowed in HTML and "
        f"{'were' if many > 1 else 'was'} left out ({many} in all, "
        f"line{'s' if len(lines) > 1 else ''} {where}); delete "
        f"{'them' if many > 1 else 'it'} from the file (a pasted terminal colour code or "
        "control character, or a corrupt file?)",
    )


class UnreadSource(SourceFile):
    """A `SourceFile` the build cache vouches for: its text is read only when used.

    `postil.content.posts.load_posts` makes one for a file whose stat signature (inode, size,
    modification and change times) is the one recorded with its parsed post, so a build
    need not read the sources it will not render again.

    Args:
        signature: the `stat_signature` the cache trusted.

    Raises (on reading `text`):
        ContentError: the file changed or went away since it was checked (edited during the
            build); building again picks the change up.
    """

    def __init__(self, path: Path, rel: str, kind: str, signature: tuple[int, ...]) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "rel", rel)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "signature", signature)

    def __getattr__(self, name: str) -> Any:
        if name != "text":
            raise AttributeError(name)
        text = read_unchanged(self.path, self.rel, self.kind, self.__dict__["signature"])
        object.__setattr__(self, "text", text)
        return text
