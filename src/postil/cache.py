"""The persistent build cache in `<site>/.postil-cache/`: what a rebuild need not redo.

One SQLite database (the standard library's `sqlite3`: one file, transactions, and rows read
or written one by one, so a build that changed one post rewrites one row, not the whole
cache). Each row is `(kind, name) -> (fingerprint, checksum, pickled value)`:

- a row is used only when its fingerprint equals what the build computes now (the hash of
  everything the value depends on) and its CRC-32 matches its bytes; anything else (a
  truncated or garbage file, a row from another version) is ignored and rebuilt;
- the database carries an environment stamp (`environment_stamp`: postil's version and
  source files, the versions of Python and of the libraries that shape the output); when it
  differs, every row is dropped.

Nothing here ever fails a build: a cache that cannot be opened, read or written behaves as
an empty one (`BuildCache.disabled()`), and the build does all the work.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import shutil
import sqlite3
import sys
import zlib
from collections.abc import Iterable, Iterator, MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, TypeVar

from postil import __version__
from postil.errors import PostilError

CACHE_DIR = ".postil-cache"
"""The cache directory's name, under the site root (git-ignored)."""

DATABASE = "build.sqlite3"
SCHEMA = 1
"""Bumped whenever the layout of rows or the meaning of a kind changes."""

FLUSH_BYTES = 8 << 20
"""Buffered rows are written once they hold this many bytes, to bound the memory they take."""

LIBRARIES = ("markdown_it", "mdit_py_plugins", "pygments", "latex2mathml", "jinja2", "yaml")
"""Libraries whose version shapes the output; a new version of any of them empties the cache."""

log = logging.getLogger("postil.cache")
V = TypeVar("V")
_Row = tuple[str, str, str, int, bytes]


def fingerprint(*parts: str | bytes) -> str:
    """Return the SHA-256 hex digest of `parts`, each ended by NUL (("ab", "c") != ("a", "bc"))."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def environment_stamp() -> str:
    """Return the stamp of everything outside the site that shapes postil's output.

    It covers the cache schema, postil's version and the size and modification time of each
    of its source files (so editing postil in a checkout empties the cache), the Python
    version (pickles), and the installed files of each library in `LIBRARIES`.
    """
    from importlib.util import find_spec

    package = Path(__file__).resolve().parent
    parts = [f"schema {SCHEMA}", f"postil {__version__}", sys.version]
    for name in LIBRARIES:
        # An installed library's files are replaced on upgrade: the size and time of its
        # `__init__.py` change with its version, and reading them imports nothing.
        spec = find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        stat = origin.stat() if origin is not None and origin.exists() else None
        parts.append(f"{name} {origin} {stat and (stat.st_size, stat.st_mtime_ns)}")
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        parts.append(f"{path.relative_to(package)} {stat.st_size} {stat.st_mtime_ns}")
    return fingerprint(*parts)


def clean(root: Path) -> bool:
    """Delete the site's cache directory; return whether there was one.

    Raises:
        OSError: the directory exists but cannot be removed.
    """
    directory = root / CACHE_DIR
    if not directory.exists():
        return False
    shutil.rmtree(directory)
    return True


class BuildCache:
    """Rows of earlier builds' work, read on demand and written in one transaction.

    Use `BuildCache.open(root)`; `put` buffers, `commit` writes. Kinds in use: "post"
    (parsed front matter by source path), "markdown" (rendered Markdown by `markdown_key`),
    "conversions" (math and highlighting results by source path), "page" (page digests by
    output path), "output" (manifests of the output and spare directories), "asset"
    (generated assets).
    """

    def __init__(self, connection: sqlite3.Connection | None, path: Path | None = None) -> None:
        self._db = connection
        self._path = path
        self._pending: dict[tuple[str, str], tuple[str, bytes] | None] = {}
        self._pending_bytes = 0
        self._broken = False
        self._lock: IO[str] | None = None

    @classmethod
    def disabled(cls) -> BuildCache:
        """Return a cache that finds nothing and keeps nothing (`--no-cache`)."""
        return cls(None)

    @classmethod
    def open(cls, root: Path) -> BuildCache:
        """Open (creating if needed) the cache of the site at `root`.

        A database that is not readable (garbage, truncated, locked, another schema) is
        deleted and created afresh; if even that fails the cache is disabled.
        """
        path = root / CACHE_DIR / DATABASE
        for attempt in range(2):
            try:
                return cls(_connect(path), path)
            except (sqlite3.Error, OSError) as e:
                log.debug("build cache %s unusable (%s); starting afresh", path, e)
                if attempt == 0:
                    _remove_database(path)
        return cls.disabled()

    def spare_dir(self, out_dir: Path) -> Path | None:
        """Return where the output before the last one of `out_dir` is kept (None: disabled).

        See `postil.output.SiteWriter`: updating that spare copy in place and swapping it in
        is much cheaper than making a new directory tree for each build. Only one build at a
        time may use it: it is None while another process holds the spare lock (held from
        this call until `close`).
        """
        if self._path is None or self._db is None or not self._lock_spares():
            return None
        return self._path.parent / "spare" / fingerprint(str(out_dir))[:16]

    def _lock_spares(self) -> bool:
        """Take the exclusive, non-blocking lock on the spare directories; say if taken."""
        if self._lock is not None:
            return True
        try:
            import fcntl

            assert self._path is not None
            lock = open(self._path.parent / "spare.lock", "a")  # noqa: SIM115 - held until close
        except (ImportError, OSError):
            return False
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return False
        self._lock = lock
        return True

    def reader(self, kind: str) -> RowReader | None:
        """Return a reader of this cache's committed rows of `kind` that works in forked
        worker processes too (None when the cache is disabled)."""
        if self._path is None or self._db is None:
            return None
        return RowReader(self._path, kind)

    def bytecode_dir(self) -> Path | None:
        """Return the directory for Jinja2's compiled templates (None: the cache is disabled).

        Jinja2's `FileSystemBytecodeCache` keys a template by name and source checksum but
        not by the environment's options, which postil may change between versions: the
        directory is named by the environment stamp, and those of other stamps are removed.
        Loading compiled templates instead of compiling them saves ≈ 30 ms a build.
        """
        if self._path is None or self._db is None:
            return None
        directory = self._path.parent / f"jinja-{environment_stamp()[:16]}"
        try:
            for old in self._path.parent.glob("jinja-*"):
                if old != directory:
                    shutil.rmtree(old, ignore_errors=True)
            directory.mkdir(exist_ok=True)
        except OSError:
            return None
        return directory

    @property
    def enabled(self) -> bool:
        """Whether rows are read and written at all."""
        return self._db is not None

    def load(self, kind: str) -> dict[str, tuple[str, Any]]:
        """Return every intact row of `kind` as name -> (fingerprint, value)."""
        return {name: (fp, value) for name, fp, value in self._rows(kind, None)}

    def get_many(self, kind: str, names: Iterable[str]) -> dict[str, tuple[str, Any]]:
        """Return the intact rows of `kind` among `names`, as name -> (fingerprint, value)."""
        wanted = list(names)
        found: dict[str, tuple[str, Any]] = {}
        for start in range(0, len(wanted), 500):  # SQLite's limit on host parameters
            for name, fp, value in self._rows(kind, wanted[start : start + 500]):
                found[name] = (fp, value)
        return found

    def names(self, kind: str) -> set[str]:
        """Return the names of the rows of `kind` (without reading their values)."""
        if self._db is None:
            return set()
        try:
            query = "SELECT name FROM entries WHERE kind = ?"
            return {name for (name,) in self._db.execute(query, [kind])}
        except sqlite3.Error:
            self._broken = True
            return set()

    def get(self, kind: str, name: str, fingerprint: str) -> Any | None:
        """Return the value of row (kind, name) if its fingerprint is `fingerprint`, else None."""
        found = self.get_many(kind, [name]).get(name)
        return found[1] if found is not None and found[0] == fingerprint else None

    def put(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Buffer a row for the next `commit` (a later put of the same row wins)."""
        if self._db is not None:
            data = pickle.dumps(value, protocol=5)
            self._pending[(kind, name)] = (fingerprint, data)
            self._pending_bytes += len(data)
            if self._pending_bytes > FLUSH_BYTES:
                self.commit()

    def forget(self, kind: str, names: Iterable[str]) -> None:
        """Buffer the deletion of rows of `kind` (entries of deleted posts, stale manifests)."""
        if self._db is not None:
            for name in names:
                self._pending[(kind, name)] = None

    def commit(self) -> None:
        """Write every buffered row in one transaction; on any error keep the cache as it was."""
        if self._db is None or not self._pending:
            return
        rows = [
            (kind, name, fp, zlib.crc32(data), data)
            for (kind, name), row in self._pending.items()
            if row is not None
            for fp, data in [row]
        ]
        gone = [key for key, row in self._pending.items() if row is None]
        self._pending.clear()
        self._pending_bytes = 0
        try:
            with self._db:
                self._db.executemany("DELETE FROM entries WHERE kind = ? AND name = ?", gone)
                self._db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as e:
            log.debug("build cache not written: %s", e)

    def close(self) -> None:
        """Commit what is buffered and close the database (deleting it if it proved damaged)."""
        if not self._broken:
            self.commit()
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        if self._broken and self._path is not None:
            _remove_database(self._path)  # the next build starts a fresh one
        if self._lock is not None:
            self._lock.close()  # releases the spare lock
            self._lock = None

    def _rows(self, kind: str, names: list[str] | None) -> Iterator[tuple[str, str, Any]]:
        """Yield (name, fingerprint, value) of intact rows; a damaged row is skipped."""
        if self._db is None:
            return
        query = (
            "SELECT kind, name, fingerprint, crc, CAST(data AS BLOB) FROM entries WHERE kind = ?"
        )
        args: list[str] = [kind]
        if names is not None:
            query += f" AND name IN ({', '.join('?' * len(names))})"
            args += names
        try:
            rows: Iterator[_Row] = self._db.execute(query, args)
            for _, name, fp, crc, data in rows:  # one row at a time: a low peak of memory
                value = _unpickle(data, crc)
                if value is not _DAMAGED:
                    yield name, fp, value
        except sqlite3.Error as e:
            log.debug("build cache unreadable (%s); ignoring it", e)
            self._broken = True


class RowReader:
    """Reads committed rows of one kind by name from a cache database, in any process.

    A SQLite connection must not cross `fork` (https://www.sqlite.org/howtocorrupt.html,
    2.6): the reader opens its own read-only connection in each process that uses it.

    Args:
        path: the database file.
        kind: the row kind.
    """

    def __init__(self, path: Path, kind: str) -> None:
        self._path = path
        self._kind = kind
        self._db: sqlite3.Connection | None = None
        self._pid = 0

    def __call__(self, name: str) -> Any:
        """Return the value of row `name`.

        Raises:
            CacheError: the row is missing or damaged (the cache changed under the build).
        """
        try:
            if self._db is None or self._pid != os.getpid():
                # as_uri percent-encodes the path: a `#`, `?` or `%` in a folder name
                # would otherwise end the file name or start a query
                uri = f"{self._path.absolute().as_uri()}?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, timeout=5)
                self._pid = os.getpid()
            query = "SELECT crc, CAST(data AS BLOB) FROM entries WHERE kind = ? AND name = ?"
            row = self._db.execute(query, [self._kind, name]).fetchone()
        except sqlite3.Error as e:
            raise CacheError(f"cannot read the build cache ({e})") from e
        value = _unpickle(row[1], row[0]) if row is not None else _DAMAGED
        if value is _DAMAGED:
            raise CacheError(f"the build cache lost or damaged its {self._kind} row {name}")
        return value

    def close(self) -> None:
        """Close this process's connection, if it opened one."""
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None


class CacheError(PostilError):
    """The build cache changed or broke while a build was reading it (`postil.build.build`
    then builds once more without trusting the rows that broke)."""


class CachedRows(MutableMapping[str, V]):
    """The rows of one kind as a mapping from row name to value (fingerprints unused).

    For values keyed by their own fingerprint (rendered Markdown by `markdown_key`). Rows
    are read on first use; `prune` forgets the rows this build did not use (the old
    versions of edited posts), so the cache does not grow with every edit.

    Args:
        cache: the build cache.
        kind: the row kind, e.g. "markdown".
    """

    def __init__(self, cache: BuildCache, kind: str) -> None:
        self._cache = cache
        self._kind = kind
        self._rows: dict[str, V] | None = None
        self._used: set[str] = set()
        self.added = 0
        """Rows set by this build (rendered, not found)."""

    def _all(self) -> dict[str, V]:
        if self._rows is None:
            self._rows = {k: v for k, (_, v) in self._cache.load(self._kind).items()}
        return self._rows

    def __getitem__(self, key: str) -> V:
        value = self._all()[key]
        self._used.add(key)
        return value

    def __setitem__(self, key: str, value: V) -> None:
        self.added += 1
        self._cache.put(self._kind, key, "", value)
        self._all()[key] = value
        self._used.add(key)

    def __delitem__(self, key: str) -> None:
        del self._all()[key]
        self._cache.forget(self._kind, [key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def prune(self) -> None:
        """Forget the rows no lookup or store of this build touched."""
        self._cache.forget(self._kind, self._all().keys() - self._used)


_DAMAGED = object()


def _unpickle(data: bytes, crc: int) -> Any:
    """Return the value pickled in `data`, or `_DAMAGED` if its checksum or pickle is bad."""
    if not isinstance(data, bytes) or zlib.crc32(data) != crc:
        return _DAMAGED
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 - any damage to a pickle is a cache miss, never an error
        return _DAMAGED


def _connect(path: Path) -> sqlite3.Connection:
    """Open the database at `path`, creating it, and empty it if its stamp is another's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=5)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        # No fsync: a cache damaged by a power cut is detected (CRC, SQLite's own checks)
        # and rebuilt, and fsyncs cost more than the rest of a warm build on slow disks.
        db.execute("PRAGMA synchronous=OFF")
        with db:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            db.execute(
                "CREATE TABLE IF NOT EXISTS entries (kind TEXT, name TEXT, fingerprint TEXT,"
                " crc INTEGER, data BLOB, PRIMARY KEY (kind, name))"
            )
            row = db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
            if row is None or row[0] != environment_stamp():
                db.execute("DELETE FROM entries")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('stamp', ?)", [environment_stamp()])
    except BaseException:
        db.close()
        raise
    return db


def _remove_database(path: Path) -> None:
    """Delete the database and its WAL side files, ignoring what is already gone."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            Path(f"{path}{suffix}").unlink()
