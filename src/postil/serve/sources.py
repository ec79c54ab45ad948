"""The dev server's table of parsed sources: re-read only the files an editor touched.

`postil.content.discover` reads every file under content/; on a save the dev server re-reads
just that file through the same `read_source` and `parse`, applying discover's own rule for
which files count (`discoverable`), so a watched save and a full scan agree.
"""

from __future__ import annotations

from pathlib import Path

from postil.content import discover
from postil.content.discover import CONTENT_DIR, discoverable, read_source
from postil.content.frontmatter import parse
from postil.content.posts import make_post
from postil.errors import ContentError, Diagnostic, Location, Severity
from postil.model import Post, SiteConfig, SourceFile


def content_error(error: ContentError, text: str = "") -> Diagnostic:
    """Return `error` as an error `Diagnostic` whose excerpt is its line of `text`."""
    location = error.location or Location("<site>")
    lines = text.split("\n")
    excerpt = lines[location.line - 1] if 0 < location.line <= len(lines) else ""
    return Diagnostic(Severity.ERROR, location, error.message, excerpt)


class SourceTable:
    """Every source under content/ as a parsed `Post` or the error that stopped it, by rel.

    Attributes:
        entries: source rel ("content/posts/x.md") -> its `Post`, or a `Diagnostic` if it
            could not be read or parsed.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries: dict[str, Post | Diagnostic] = {}

    def rescan(self, config: SiteConfig, force: bool = False) -> set[str]:
        """List and read content/ again; re-parse files whose text changed (all if `force`).

        Returns:
            The rels that were added, removed or changed.
        """
        sources, errors = discover(config)
        fresh: dict[str, Post | Diagnostic] = {}
        for error in errors:
            location = error.location or Location("<site>")
            fresh[location.path] = content_error(error)
        for source in sources:
            old = self.entries.get(source.rel)
            same = isinstance(old, Post) and old.source.text == source.text
            fresh[source.rel] = old if same and old and not force else _parse(source, config)
        changed = {
            r for r in fresh.keys() | self.entries.keys() if fresh.get(r) is not self.entries.get(r)
        }
        self.entries = fresh
        return changed

    def reload(self, config: SiteConfig, path: Path) -> bool:
        """Read one changed, created or deleted file again; return whether its entry changed."""
        rel = path.relative_to(self.root).as_posix()
        parts = path.relative_to(self.root / CONTENT_DIR).parts
        if not discoverable(parts) or not path.is_file():
            return self.entries.pop(rel, None) is not None
        source = self._read(path, rel, parts)
        old = self.entries.get(rel)
        if isinstance(source, Diagnostic):
            self.entries[rel] = source
        elif isinstance(old, Post) and old.source.text == source.text:
            return False
        else:
            self.entries[rel] = _parse(source, config)
        return True

    def _read(self, path: Path, rel: str, parts: tuple[str, ...]) -> SourceFile | Diagnostic:
        if not path.resolve().is_relative_to((self.root / CONTENT_DIR).resolve()):
            return content_error(
                ContentError("symlink points outside content/; remove it", Location(rel))
            )
        try:
            return read_source(path, rel, "post" if parts[0] == "posts" else "page")
        except ContentError as e:
            return content_error(e)

    def posts(self) -> list[Post]:
        """Return the parsed posts and pages, sorted by source path (discover's order)."""
        return [e for _, e in sorted(self.entries.items()) if isinstance(e, Post)]

    def errors(self) -> list[Diagnostic]:
        """Return the errors of the sources that could not be read or parsed."""
        return [e for _, e in sorted(self.entries.items()) if isinstance(e, Diagnostic)]


def _parse(source: SourceFile, config: SiteConfig) -> Post | Diagnostic:
    try:
        meta, body, body_line = parse(source, config.timezone)
        return make_post(source, meta, body, body_line)
    except ContentError as e:
        return content_error(e, source.text)
