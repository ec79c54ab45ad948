"""The one error hierarchy of postil, and located diagnostics.

Every problem a user can fix carries a `Location` so the CLI can print
`content/posts/x.md:14:3: message` (the GNU convention for compiler messages,
https://www.gnu.org/prep/standards/html_node/Errors.html).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file.

    Attributes:
        path: the file, relative to the site root when possible (POSIX separators).
        line: 1-based line number in the file, or 0 when unknown.
        col: 1-based column (in characters), or 0 when unknown.
    """

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.line and self.col:
            return f"{self.path}:{self.line}:{self.col}"
        if self.line:
            return f"{self.path}:{self.line}"
        return self.path


class Severity(str, Enum):
    """How bad a diagnostic is: a warning fails the build only under `--strict`."""

    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Diagnostic:
    """One located message found while building.

    Attributes:
        severity: `Severity.ERROR` fails the build; `Severity.WARNING` fails it under --strict.
        location: where the problem is.
        message: what is wrong and how to fix it.
        source_line: the offending line of the source file, for excerpts (may be empty).
    """

    severity: Severity
    location: Location
    message: str
    source_line: str = ""

    def __str__(self) -> str:
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        return f"{self.location}: {prefix}{self.message}"

    def report(self) -> str:
        """Return the message, then the source line and a caret under the column (as GCC does).

        The excerpt lines are indented by four spaces; tabs before the column are kept so the
        caret lines up in a terminal. A line longer than `EXCERPT_WIDTH` (a minified line, a
        notebook's output) is cut to that many characters around the column, `…` marking
        each cut: its thousands of warnings each printed the whole line.
        """
        line = self.source_line
        if not line.strip():
            return str(self)
        col = self.location.col
        if len(line) > EXCERPT_WIDTH:
            start = max(0, min(col - 1 - EXCERPT_WIDTH // 2, len(line) - EXCERPT_WIDTH))
            cut = line[start : start + EXCERPT_WIDTH]
            head, tail = ("…" if start else ""), ("…" if start + EXCERPT_WIDTH < len(line) else "")
            line, col = head + cut + tail, col - start + len(head)
        text = f"{self}\n    {line}"
        if 0 < col <= len(line) + 1:
            pad = "".join("\t" if c == "\t" else " " for c in line[: col - 1])
            text += f"\n    {pad}^"
        return text


EXCERPT_WIDTH = 160
"""The most characters of a source line a diagnostic's excerpt shows."""


class PostilError(Exception):
    """Base of every error postil reports to the user without a traceback.

    Args:
        message: what is wrong and how to fix it.
        location: where, if the problem is in a file.
    """

    exit_code = 1

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle with the location (an error raised in a worker process keeps it)."""
        return (type(self), (self.message, self.location))


class ConfigError(PostilError):
    """The site configuration (postil.yaml) or the command line is wrong; exit code 2."""

    exit_code = 2


class ContentError(PostilError):
    """A post or page cannot be built as written; exit code 1."""


class TemplateError(PostilError):
    """A Jinja2 template failed to load or render; exit code 1."""


class OutputError(PostilError):
    """The output directory could not be written; exit code 1."""


class WorkerLost(PostilError):
    """A worker process of the build died (killed, out of memory) more often than retried."""


class BuildFailed(PostilError):
    """The build found one or more errors; carries all of them.

    Args:
        diagnostics: every error (and, under --strict, every warning) found, in file order.
    """

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        errors = sum(d.severity is Severity.ERROR for d in self.diagnostics)
        warnings = len(self.diagnostics) - errors
        parts = [plural(errors, "error")] if errors else []
        if warnings:
            parts.append(f"{plural(warnings, 'warning')} (errors under --strict)")
        super().__init__(f"failed with {' and '.join(parts)}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self.diagnostics),))


class ConfigFailed(BuildFailed, ConfigError):
    """postil.yaml has one or more problems; carries every one, each at its line and column
    (a `BuildFailed`, reported as the build's errors are; a `ConfigError`, exit code 2)."""


def plural(count: int, noun: str) -> str:
    """Return "1 post", "2 posts": `count` and `noun`, with an "s" unless count is 1."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def located(diagnostic: Diagnostic, root: Path) -> Diagnostic:
    """Return `diagnostic` as every command reports it: its path relative to the site root
    `root` when the file is under it, and the source line it points at when it has none.

    `postil build`, `check` and `serve` all print (and serve shows) diagnostics through this,
    so they read the same everywhere.
    """
    location = diagnostic.location
    path = Path(location.path)
    if path.is_absolute() and path.is_relative_to(root):
        location = Location(path.relative_to(root).as_posix(), location.line, location.col)
    line = diagnostic.source_line or _source_line(root, location)
    if location == diagnostic.location and line == diagnostic.source_line:
        return diagnostic
    return Diagnostic(diagnostic.severity, location, diagnostic.message, line)


def as_diagnostic(error: PostilError) -> Diagnostic:
    """Return an error as an error `Diagnostic` (at `<site>` when it has no location)."""
    return Diagnostic(Severity.ERROR, error.location or Location("<site>"), error.message)


def _source_line(root: Path, location: Location) -> str:
    """Return line `location.line` of the file `location.path` (relative to `root`), or ""."""
    if location.line <= 0 or location.path.startswith("<"):
        return ""
    try:
        with open(root / location.path, encoding="utf-8-sig", newline="") as file:
            for number, text in enumerate(file, start=1):
                if number == location.line:
                    return text.rstrip("\r\n")
    except (OSError, UnicodeDecodeError):
        return ""
    return ""


def not_utf8(data: bytes, rel: str, error: UnicodeDecodeError) -> tuple[str, Location]:
    """Return the message and place of bytes that are not UTF-8: the file's line and column
    of the first bad byte, its offset and value, and how to fix it (save as UTF-8).

    Args:
        data: the file's bytes; error: what decoding them as UTF-8 raised.
        rel: the file's path relative to the site root.
    """
    line_start = data.rfind(b"\n", 0, error.start) + 1
    line = data.count(b"\n", 0, error.start) + 1
    col = len(data[line_start : error.start].decode("utf-8", "replace")) + 1
    byte = f"byte {error.start} (0x{data[error.start]:02x})"
    return f"the file is not valid UTF-8 at {byte}; save it as UTF-8", Location(rel, line, col)


def read_utf8(path: Path, rel: str, error: type[PostilError]) -> str:
    """Return the text of the file at `path` read as UTF-8, a byte order mark dropped.

    Args:
        rel: the file's path relative to the site root, where a problem is reported.
        error: the error class raised (`ConfigError` for postil.yaml, `ContentError` for a
            source).

    Raises:
        error: the file cannot be read (the system's reason), or is not UTF-8 (`not_utf8`:
            the first bad byte's line, column, offset and value).
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise error(f"the file cannot be read: {e.strerror}", Location(rel)) from e
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(*not_utf8(data, rel, e)) from e
