"""Where the build cache keeps its rows: on disk (SQLite), in memory (the dev server), or nowhere.

Every implementation offers the same row interface, `BuildCache`: each row is
`(kind, name) -> (fingerprint, value)`, read on demand and written on `commit`. The stages
never see which one they use:

- `SqliteCache` (`BuildCache.open(root)`): one SQLite database in `<site>/.postil-cache/`
  (the standard library's `sqlite3`: one file, transactions, rows read or written one by
  one, so a build that changed one post rewrites one row). Each row also holds a CRC-32 of
  its pickled value; a row whose checksum or pickle is bad is ignored and rebuilt, and the
  database carries the `environment_stamp`: when it differs, every row is dropped.
- `MemoryCache`: rows as Python objects in a dictionary, kept by the dev server between
  builds; the kinds it is told to persist are read from and written through to another
  cache (the site's `SqliteCache`), so `postil serve` starts warm and leaves the cache warm.
- `NullCache` (`BuildCache.disabled()`, `--no-cache`): finds nothing, keeps nothing.

Nothing here ever fails a build: a database that cannot be opened, read or written behaves
as an empty one, and the build does all the work.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import pickle
import shutil
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from postil.cache.keys import environment_stamp, fingerprint
from postil.cache.manifest import output_name
from postil.errors import PostilError

CACHE_DIR = ".postil-cache"
"""The cache directory's name, under the site root (git-ignored)."""

DATABASE = "build.sqlite3"

FLUSH_BYTES = 8 << 20
"""Buffered rows are written once they hold this many bytes, to bound the memory they take."""

log = logging.getLogger("postil.cache")
_Row = tuple[str, str, str, int, bytes]


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
    """The build cache's row interface; this base class finds nothing and keeps nothing.

    The row kinds: parsed front matter by source path ("post"), rendered Markdown by
    `markdown_key` without its HTML ("markdown") and the HTML ("html"), math and
    highlighting results by source path ("conversions"), page keys by output path ("page"),
    manifests of the output and spare directories ("output"), generated assets ("asset").

    `put` and `forget` buffer, `commit` writes, `close` commits and releases. `BuildCache.open`
    returns the site's on-disk cache, `BuildCache.disabled` the null one.
    """

    @staticmethod
    def open(root: Path) -> BuildCache:
        """Open (creating if needed) the on-disk cache of the site at `root`.

        A database that is not readable (garbage, truncated, locked, another schema) is
        deleted and created afresh; if even that fails the cache is disabled.
        """
        path = root / CACHE_DIR / DATABASE
        for attempt in range(2):
            try:
                return SqliteCache(_connect(path), path)
            except (sqlite3.Error, OSError) as e:
                log.debug("build cache %s unusable (%s); starting afresh", path, e)
                if attempt == 0:
                    _remove_database(path)
        return NullCache()

    @staticmethod
    def disabled() -> BuildCache:
        """Return a cache that finds nothing and keeps nothing (`--no-cache`)."""
        return NullCache()

    spare_rows = 0
    """Unused rows of rendered Markdown kept beyond those a build used (`MemoryCache`: so
    that undoing an edit in the dev server finds the old rendering)."""

    @property
    def enabled(self) -> bool:
        """Whether rows are read and written at all."""
        return False

    def load(self, kind: str) -> dict[str, tuple[str, Any]]:
        """Return every intact row of `kind` as name -> (fingerprint, value)."""
        return {}

    def get_many(self, kind: str, names: Iterable[str]) -> dict[str, tuple[str, Any]]:
        """Return the intact rows of `kind` among `names`, as name -> (fingerprint, value)."""
        return {}

    def names(self, kind: str) -> set[str]:
        """Return the names of the rows of `kind` (without reading their values)."""
        return set()

    def fingerprints(self, kind: str) -> dict[str, str]:
        """Return the fingerprint of every row of `kind` by name (without reading values)."""
        return {}

    def get(self, kind: str, name: str, fingerprint: str) -> Any | None:
        """Return the value of row (kind, name) if its fingerprint is `fingerprint`, else None."""
        found = self.get_many(kind, [name]).get(name)
        return found[1] if found is not None and found[0] == fingerprint else None

    def put(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Buffer a row for the next `commit` (a later put of the same row wins)."""

    def forget(self, kind: str, names: Iterable[str]) -> None:
        """Buffer the deletion of rows of `kind` (entries of deleted posts, stale manifests)."""

    def keep(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Replace a row's value by an equal one that is quicker to use next time, where the
        cache holds values in memory (`MemoryCache`); a no-op elsewhere."""

    def commit(self, min_bytes: int = 0) -> bool:
        """Write every buffered row (if at least `min_bytes` of them wait); on any error keep
        the cache as it was.

        Returns:
            Whether every row put so far can now be read back through `reader` (False
            here: this cache keeps nothing).
        """
        return False

    def close(self) -> None:
        """Commit what is buffered and release what the cache holds."""

    def reader(self, kind: str) -> Callable[[str], Any] | None:
        """Return a function from a row name of `kind` to its committed value, usable in
        forked worker processes too (None: rows are not kept). It raises `CacheError` when
        the row is missing or damaged."""
        return None

    def spare_dir(self, out_dir: Path) -> Path | None:
        """Return where the spare copy of `out_dir` is kept (None: nowhere): the output
        before the last one, or hard links to the last one when there was none to retire.

        See `postil.output.SiteWriter`: updating that spare copy in place and swapping it in
        is much cheaper than making a new directory tree for each build, and a clone given
        this cache finds every unchanged file in it. Only one build at a
        time may use it: it is None while another process holds the spare lock (held from
        this call until `close`).
        """
        return None

    def bytecode_dir(self) -> Path | None:
        """Return the directory for Jinja2's compiled templates (None: compile afresh)."""
        return None

    def memo(self, name: str) -> dict[Any, Any]:
        """Return the scratch dictionary `name`: Python objects a stage keeps for the next
        call while this cache lives (one build, or every build of the dev server: a
        `MemoryCache`), never written anywhere.

        A stage keeps the result of a pure function there beside its inputs and reuses it
        when the inputs are the very same objects (`is`) or equal: so a dev server's
        rebuild does not redo per-post work for the posts an edit left alone (the Post
        objects of unchanged sources are reused by `postil.content.load.load_posts`).
        """
        memos: dict[str, dict[Any, Any]] = self.__dict__.setdefault("_memos", {})
        return memos.setdefault(name, {})

    def forget_memos(self) -> None:
        """Drop every scratch dictionary (`memo`): the next build starts from nothing."""
        self.__dict__.pop("_memos", None)


class NullCache(BuildCache):
    """The cache of `--no-cache`: every look-up misses, nothing is kept."""


class SqliteCache(BuildCache):
    """Rows of earlier builds' work in the site's SQLite database (see the module docstring).

    Args:
        connection: the open database (`_connect`).
        path: its file.
    """

    def __init__(self, connection: sqlite3.Connection | None, path: Path | None = None) -> None:
        self._db = connection
        self._path = path
        self._pending: dict[tuple[str, str], tuple[str, _Pickle] | None] = {}
        self._pending_bytes = 0
        self._broken = False
        self._lost = False  # a commit failed: rows put may be missing
        self._lock: IO[str] | None = None
        self._readers: dict[str, RowReader] = {}

    def spare_dir(self, out_dir: Path) -> Path | None:
        """See `BuildCache.spare_dir`: `spare/<hash of out_dir's name>` beside the database
        (`manifest.output_name`: its path in the site, so a clone in another folder finds it)."""
        if self._path is None or self._db is None or not self._lock_spares():
            return None
        name = output_name(out_dir, self._path.parent.parent)
        return self._path.parent / "spare" / fingerprint(name)[:16]

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
        """See `BuildCache.reader` (a `RowReader`, closed with the cache)."""
        if self._path is None or self._db is None:
            return None
        if kind not in self._readers:
            self._readers[kind] = RowReader(self._path, kind)
        return self._readers[kind]

    def bytecode_dir(self) -> Path | None:
        """Return the directory for Jinja2's compiled templates (None: it cannot be made).

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

    def fingerprints(self, kind: str) -> dict[str, str]:
        """Return the fingerprint of every row of `kind` by name (without reading values)."""
        if self._db is None:
            return {}
        try:
            query = "SELECT name, fingerprint FROM entries WHERE kind = ?"
            return dict(self._db.execute(query, [kind]))
        except sqlite3.Error:
            self._broken = True
            return {}

    def put(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Buffer a row for the next `commit` (a later put of the same row wins)."""
        if self._db is not None:
            pieces = _pickled(value, self._path.parent if self._path is not None else None)
            self._pending[(kind, name)] = (fingerprint, pieces)
            self._pending_bytes += _size(pieces)
            if self._pending_bytes > FLUSH_BYTES:
                self.commit()

    def forget(self, kind: str, names: Iterable[str]) -> None:
        """Buffer the deletion of rows of `kind` (entries of deleted posts, stale manifests)."""
        if self._db is not None:
            for name in names:
                self._pending[(kind, name)] = None

    def commit(self, min_bytes: int = 0) -> bool:
        """Write every buffered row in one transaction (if at least `min_bytes` of them wait);
        on any error keep the cache as it was. Return whether nothing put is left unwritten
        (see `BuildCache.commit`)."""
        if self._db is None:
            return False
        if not self._pending:
            return not self._lost
        if self._pending_bytes < min_bytes:
            return False
        rows = [
            (kind, name, fp, pieces)
            for (kind, name), row in self._pending.items()
            if row is not None
            for fp, pieces in [row]
        ]
        gone = [key for key, row in self._pending.items() if row is None]
        self._pending.clear()
        self._pending_bytes = 0
        large = [row for row in rows if _BLOB_IO and _size(row[3]) > BLOB_CHUNK]
        small = [
            (kind, name, fp, zlib.crc32(data), data)
            for kind, name, fp, pieces in rows
            if not (_BLOB_IO and _size(pieces) > BLOB_CHUNK)
            for data in [_whole(pieces)]
        ]
        try:
            with self._db:
                self._db.executemany("DELETE FROM entries WHERE kind = ? AND name = ?", gone)
                self._db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)", small)
                for row in large:
                    _insert_in_chunks(self._db, row)
        except sqlite3.Error as e:
            log.debug("build cache not written: %s", e)
            self._lost = True  # rows put before may be missing: none is vouched for now
            return False
        return not self._lost

    def close(self) -> None:
        """Commit what is buffered and close the database (deleting it if it proved damaged)."""
        if not self._broken:
            self.commit()
        for reader in self._readers.values():
            reader.close()
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


class MemoryCache(BuildCache):
    """Rows kept in memory as Python objects (never pickled), for builds in one process.

    The dev server keeps one for as long as it runs, so each rebuild finds the work of the
    one before. Rows of the kinds in `persist` are first read from `backing` and every
    change to them is passed on to it (committed with each `commit`), so the dev server's
    first build is as warm as `postil build`'s and leaves the on-disk cache warm too; the
    other kinds (the served pages and their keys) stay in memory.

    Args:
        backing: the cache to read through to and write through to, or None.
        persist: the kinds shared with `backing`.
        spare_rows: see `BuildCache.spare_rows`.
        lazy: persisted kinds read one row at a time, when first asked for, instead of all
            at once: those a build needs only for the posts it renders or the pages it
            renders (HTML, math and highlighting results), so a first build that renders
            none reads none of them (27 MiB of HTML at 1,000 posts).
    """

    def __init__(
        self,
        backing: BuildCache | None = None,
        persist: Iterable[str] = (),
        spare_rows: int = 0,
        lazy: Iterable[str] = (),
    ) -> None:
        self.spare_rows = spare_rows
        self._backing = backing if backing is not None and backing.enabled else None
        self._persist = frozenset(persist) if self._backing is not None else frozenset()
        self._lazy = frozenset(lazy) & self._persist
        self._rows: dict[str, dict[str, tuple[str, Any]]] = {}
        self._names: dict[str, set[str]] = {}  # of the lazy kinds: every row's name

    @property
    def enabled(self) -> bool:
        """Always True: rows are kept."""
        return True

    def _kind(self, kind: str) -> dict[str, tuple[str, Any]]:
        """Return the rows of `kind` in memory (of a lazy kind: those read so far)."""
        rows = self._rows.get(kind)
        if rows is None:
            backing = self._backing
            whole = backing is not None and kind in self._persist and kind not in self._lazy
            rows = backing.load(kind) if whole and backing is not None else {}
            self._rows[kind] = rows
        return rows

    def _known(self, kind: str) -> set[str]:
        """Return the names of every row of the lazy `kind` (read from the backing once)."""
        names = self._names.get(kind)
        if names is None:
            assert self._backing is not None, "only persisted kinds are lazy"
            names = self._names[kind] = self._backing.names(kind)
        return names

    def _read(self, kind: str, names: Iterable[str]) -> dict[str, tuple[str, Any]]:
        """Return the rows of `kind` in memory, first reading those among `names` that only
        the backing holds (a lazy kind)."""
        rows = self._kind(kind)
        if kind in self._lazy:
            known = self._known(kind)
            missing = [name for name in names if name not in rows and name in known]
            if missing:
                assert self._backing is not None, "only persisted kinds are lazy"
                rows.update(self._backing.get_many(kind, missing))
        return rows

    def load(self, kind: str) -> dict[str, tuple[str, Any]]:
        """Return every row of `kind` as name -> (fingerprint, value) (a copy)."""
        names = self._known(kind) if kind in self._lazy else ()
        return dict(self._read(kind, names))

    def get_many(self, kind: str, names: Iterable[str]) -> dict[str, tuple[str, Any]]:
        """Return the rows of `kind` among `names`."""
        wanted = list(names)
        rows = self._read(kind, wanted)
        return {name: rows[name] for name in wanted if name in rows}

    def names(self, kind: str) -> set[str]:
        """Return the names of the rows of `kind`."""
        return set(self._known(kind)) if kind in self._lazy else set(self._kind(kind))

    def put(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Keep a row (and pass it on to the backing cache if its kind persists)."""
        self._kind(kind)[name] = (fingerprint, value)
        if kind in self._lazy:
            self._known(kind).add(name)
        if self._backing is not None and kind in self._persist:
            self._backing.put(kind, name, fingerprint, value)

    def keep(self, kind: str, name: str, fingerprint: str, value: Any) -> None:
        """Replace a row's value in memory only (see `BuildCache.keep`)."""
        rows = self._kind(kind)
        if name in rows:
            rows[name] = (fingerprint, value)

    def forget(self, kind: str, names: Iterable[str]) -> None:
        """Drop rows (and pass the deletion on to the backing cache if the kind persists)."""
        rows = self._kind(kind)
        if kind in self._lazy:
            known = self._known(kind)
            gone = [name for name in names if name in known]
            for name in gone:
                known.discard(name)
                rows.pop(name, None)
        else:
            gone = [name for name in names if rows.pop(name, None) is not None]
        if self._backing is not None and kind in self._persist:
            self._backing.forget(kind, gone)

    def commit(self, min_bytes: int = 0) -> bool:
        """Commit the backing cache (if at least `min_bytes` wait there). Return True: the
        rows are held here, so `reader` reads every row put, written to disk or not."""
        if self._backing is not None:
            self._backing.commit(min_bytes)
        return True

    def close(self) -> None:
        """Commit the backing cache (the rows in memory stay, for the next build)."""
        self.commit()

    def shutdown(self) -> None:
        """Close the backing cache; the memory cache must not be used afterwards."""
        if self._backing is not None:
            self._backing.close()

    def reader(self, kind: str) -> Callable[[str], Any]:
        """Return a function from a row name of `kind` to its value (`CacheError` if absent).

        A row of a lazy kind is read from the backing when first asked for (the dev server
        asks under its builder's lock, so the database is used by one thread at a time)."""

        def read(name: str) -> Any:
            found = self._read(kind, [name]).get(name)
            if found is None:
                raise CacheError(f"the build cache lost its {kind} row {name}")
            return found[1]

        return read

    def bytecode_dir(self) -> Path | None:
        """Return the backing cache's directory for compiled templates."""
        return self._backing.bytecode_dir() if self._backing is not None else None


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
            query = "SELECT rowid, crc, length(data) FROM entries WHERE kind = ? AND name = ?"
            row = self._db.execute(query, [self._kind, name]).fetchone()
            value = _DAMAGED if row is None else _read_row(self._db, *row)
        except sqlite3.Error as e:
            raise CacheError(f"cannot read the build cache ({e})") from e
        if value is _DAMAGED:
            raise CacheError(f"the build cache lost or damaged its {self._kind} row {name}")
        return value

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the path and kind only: a connection is per process."""
        return {"_path": self._path, "_kind": self._kind, "_db": None, "_pid": 0}

    def close(self) -> None:
        """Close this process's connection, if it opened one."""
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None


class CacheError(PostilError):
    """The build cache changed or broke while a build was reading it (`postil.build.build`
    then builds once more without trusting the rows that broke)."""


_DAMAGED = object()


def _unpickle(data: bytes, crc: int) -> Any:
    """Return the value pickled in `data`, or `_DAMAGED` if its checksum or pickle is bad."""
    if not isinstance(data, bytes) or zlib.crc32(data) != crc:
        return _DAMAGED
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 - any damage to a pickle is a cache miss, never an error
        return _DAMAGED


def _read_row(db: sqlite3.Connection, rowid: int, crc: int, size: int) -> Any:
    """Return the value of one row (`_DAMAGED` if damaged); a large `bytes` value (a huge
    post's HTML, pickled by `_pickled` around it) is read a chunk at a time into one buffer.

    `SELECT` copies a value out of SQLite, and `pickle.loads` copies it again into the
    `bytes` it makes: a 55 MB HTML row cost 110 MB while the page showing it rendered.
    Incremental blob I/O reads it page by page (https://www.sqlite.org/c3ref/blob_open.html)
    and `BytesIO.getvalue` hands over its buffer without a copy.
    """
    if not _BLOB_IO or size <= BLOB_CHUNK:
        query = "SELECT CAST(data AS BLOB) FROM entries WHERE rowid = ?"
        return _unpickle(db.execute(query, [rowid]).fetchone()[0], crc)
    with db.blobopen("entries", "data", rowid, readonly=True) as blob:  # type: ignore[attr-defined,unused-ignore]
        head = blob.read(len(_LARGE_BYTES) + 8)
        length = size - len(head) - 1  # the value's, between its opcodes and STOP
        if head[:3] != _LARGE_BYTES or int.from_bytes(head[3:], "little") != length:
            return _unpickle(head + blob.read(), crc)  # another value: read whole
        found, buffer = zlib.crc32(head), io.BytesIO()
        for at in range(0, length, BLOB_CHUNK):
            chunk = blob.read(min(BLOB_CHUNK, length - at))
            found = zlib.crc32(chunk, found)
            buffer.write(chunk)
        stop = blob.read(1)
    if stop != b"." or zlib.crc32(stop, found) != crc:
        return _DAMAGED
    return buffer.getvalue()


BLOB_CHUNK = 1 << 20
"""A row's value larger than this is written a chunk of this size at a time."""

_BLOB_IO = hasattr(sqlite3.Connection, "blobopen")  # Python 3.11 on

_LARGE_BYTES = b"\x80\x05\x8e"
"""How `_pickled` starts a large `bytes` value: PROTO 5, BINBYTES8 (its 8-byte length next)."""


class _Spool:
    """A pickle being written (`_pickled`): in memory up to `BLOB_CHUNK` bytes, then in an
    unnamed temporary file, which `_insert_in_chunks` copies into the database a chunk at a
    time; its size and CRC-32 are counted as it is written.

    A 20 MB post's conversions row (its formulas' MathML, 34 MiB pickled) was one `bytes`
    from `put` to `commit`, at the end of rendering (the peak of a build with the cache).

    Args:
        directory: where the temporary file goes (the cache's; None: the system's).
    """

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.head: io.BytesIO | None = io.BytesIO()
        self.file: IO[bytes] | None = None
        self.size = 0
        self.crc = 0

    def write(self, data: Any) -> int:
        """Append `data` (bytes-like: the pickler's frames); return its length."""
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        if self.file is None and self.size > BLOB_CHUNK:
            self.file = tempfile.TemporaryFile(dir=self.directory)  # noqa: SIM115 - kept until written
            assert self.head is not None
            self.file.write(self.head.getbuffer())
            self.head = None
        if self.file is not None:
            return self.file.write(data)
        assert self.head is not None
        return self.head.write(data)

    def chunks(self) -> Iterator[bytes]:
        """Yield the pickle from the file a `BLOB_CHUNK` at a time, then close the file."""
        assert self.file is not None
        with self.file:
            self.file.seek(0)
            while chunk := self.file.read(BLOB_CHUNK):
                yield chunk


_Pickle = tuple[bytes, ...] | _Spool
"""A pending row's pickle: in pieces (`_pickled`), or spooled to a temporary file."""


def _size(pickled: _Pickle) -> int:
    return pickled.size if isinstance(pickled, _Spool) else sum(map(len, pickled))


def _whole(pickled: _Pickle) -> bytes:
    """Return a pickle as one `bytes` (rows written as one parameter: small ones)."""
    if isinstance(pickled, _Spool):
        return b"".join(pickled.chunks())
    return pickled[0] if len(pickled) == 1 else b"".join(pickled)


SPOOL_ENTRIES = 4096
"""A row whose value holds a container of more entries than this is pickled through a
`_Spool` (a huge post's conversions: 10,000s of formulas); others by `pickle.dumps`, which
is ≈ 6 µs a row faster (a `Pickler` costs that to make: measured for small rows)."""


def _many_entries(value: Any) -> bool:
    """Return whether `value`, or one item of a short tuple or list, is a container of more
    than `SPOOL_ENTRIES` entries (a cheap sign of a large pickle: no walk of the value)."""
    if not isinstance(value, _CONTAINERS):
        return False
    if len(value) > SPOOL_ENTRIES:
        return True
    if isinstance(value, (tuple, list)) and len(value) <= 8:
        return any(isinstance(x, _CONTAINERS) and len(x) > SPOOL_ENTRIES for x in value)
    return False


_CONTAINERS = (dict, list, tuple, set, frozenset)


def _pickled(value: Any, directory: Path | None = None) -> _Pickle:
    """Return the pickle of `value` in pieces: a large `bytes` value (a post's HTML) stays
    where it is, between the opcodes that make it a pickle (PROTO 5, BINBYTES8, STOP;
    https://peps.python.org/pep-3154/), instead of being copied into one; a value of many
    entries (`SPOOL_ENTRIES`) whose pickle outgrows `BLOB_CHUNK` is spooled to a temporary
    file in `directory` (`_Spool`), which the database takes a chunk at a time (Python
    3.11 on)."""
    if type(value) is bytes and len(value) > BLOB_CHUNK:
        return (_LARGE_BYTES + len(value).to_bytes(8, "little"), value, b".")
    if not _BLOB_IO or not _many_entries(value):
        return (pickle.dumps(value, protocol=5),)
    spool = _Spool(directory)
    pickle.Pickler(spool, protocol=5).dump(value)
    return spool if spool.head is None else (spool.head.getvalue(),)


def _insert_in_chunks(db: sqlite3.Connection, row: tuple[str, str, str, _Pickle]) -> None:
    """Insert one large row as a zero-filled blob, then write its pieces a chunk at a time.

    Bound as one parameter, a value is copied by SQLite, and again into the record it
    builds: a 20 MB post's 55 MB HTML row cost 111 MiB more while it was written, and was
    the peak of its build. `zeroblob` and incremental blob I/O write it page by page
    (https://www.sqlite.org/c3ref/blob_open.html).
    """
    kind, name, fp, pieces = row
    if isinstance(pieces, _Spool):
        crc, chunks = pieces.crc, pieces.chunks()
    else:
        crc = 0
        for piece in pieces:
            crc = zlib.crc32(piece, crc)
        chunks = iter(pieces)
    cursor = db.execute(
        "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, zeroblob(?))",
        (kind, name, fp, crc, _size(pieces)),
    )
    with db.blobopen("entries", "data", cursor.lastrowid) as blob:  # type: ignore[attr-defined,arg-type,unused-ignore]
        for piece in chunks:
            view = memoryview(piece)
            for at in range(0, len(piece), BLOB_CHUNK):
                blob.write(view[at : at + BLOB_CHUNK])


def _connect(path: Path) -> sqlite3.Connection:
    """Open the database at `path`, creating it, and empty it if its stamp is another's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # One thread at a time, but not always the one that opened it: the dev server builds
    # on its own thread, and reads rows for a page rendered on request on the HTTP's
    # (every use is under the builder's lock; https://docs.python.org/3/library/sqlite3.html
    # #sqlite3.connect). Refused, its writes failed and were dropped (`commit`).
    db = sqlite3.connect(path, timeout=5, check_same_thread=False)
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
