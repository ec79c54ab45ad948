"""Write the built site atomically (the only pipeline stage that writes).

The new site is written into a temporary sibling of the output directory and then swapped in
with one `renameat2(RENAME_EXCHANGE)` system call on Linux (atomic: a reader or a killed build
sees either the old site or the new one, never a mix; see renameat2(2)). Where that call is
missing, the old directory is renamed aside and the new one renamed in (two renames; the gap
is microseconds). A failed or killed build leaves the previous output untouched.

A file whose bytes did not change since the previous build is not written again: it is
hard-linked from the previous output into the temporary directory (`SiteWriter.reuse`). The
previous output is only read, never modified, so the guarantee above holds. A file is reused
only if the manifest of the previous build (`Stamp`s) says it had the same content token and
the file on disk still holds the bytes recorded when it was written (`intact`); a file
edited by hand in the output directory is therefore written afresh.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from postil.cache.manifest import (
    FILE_MODE,
    Stamp,
    content_token,
    holds_only,
    intact,
    prune,
    static_token,
)
from postil.errors import OutputError
from postil.model import OutputData, Pieces

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
DIR_MODE = 0o755


PROTECTED = ("content", "templates", "static", "src", ".git", ".postil-cache")
"""Directories of a site (relative to its root) that the output may never be or be inside."""

OUTPUT_MARKER = ".nojekyll"
"""A file every postil output holds: an existing non-empty directory without it is not ours."""


def check_output_dir(out_dir: Path, root: Path) -> None:
    """Refuse an output directory whose replacement would destroy files postil did not write.

    Every build replaces the whole output directory, so it must be safe to delete: it may not
    be the site root or hold it, lie inside the site's sources (`content/`, `templates/`,
    `static/`, …), hold a `.git` or `postil.yaml`, or be a non-empty directory that a postil
    build did not write (it has no `.nojekyll`). Zola refuses a foreign output directory the
    same way; Hugo only cleans one on request.

    Raises:
        ConfigError: the directory is not safe to replace; the message says why.
    """
    from postil.errors import ConfigError

    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise ConfigError(
            f"output path {out_dir} is a symlink or a file, not a directory postil can replace;"
            " move it away"
        )
    out = out_dir.resolve()
    site = root.resolve()
    if out == site or site.is_relative_to(out):
        raise ConfigError(f"output directory {out_dir} holds the site itself; use e.g. _site")
    for name in PROTECTED:
        if out.is_relative_to(site / name):
            raise ConfigError(f"output directory {out_dir} is inside the site's {name}/")
    if not out.is_dir() or not any(out.iterdir()):
        return
    for name in (".git", "postil.yaml"):
        if (out / name).exists():
            raise ConfigError(f"output directory {out_dir} holds {name}; it is not a build output")
    if not (out / OUTPUT_MARKER).exists():
        raise ConfigError(
            f"output directory {out_dir} is not empty and was not written by postil; "
            "choose a new or empty directory, or delete it yourself first"
        )


def check_rel(rel: str) -> None:
    """Check that `rel` is a relative POSIX path inside the output directory.

    Raises:
        OutputError: the path is empty or absolute, climbs out with `..`, or holds a
            backslash or a NUL.
    """
    if not rel or rel[0] == "/" or "\\" in rel or "\0" in rel or ".." in rel.split("/"):
        raise OutputError(f"refusing to write outside the output directory: {rel!r}")


def safe_rel(rel: str) -> PurePosixPath:
    """Return `rel` as a relative POSIX path inside the output directory (`check_rel`).

    Raises:
        OutputError: as `check_rel`.
    """
    check_rel(rel)
    return PurePosixPath(rel)


class SiteWriter:
    """Fill a directory with the new output, then swap it in for the old one (`commit`).

    The directory filled is a fresh temporary sibling of the output directory or, when the
    caller keeps one, the *spare*: the output before the previous one, retired by the last
    swap. In the spare only the files that differ are replaced, so a build that changed one
    post costs a few file writes, not a new directory tree. Either way the live output is
    only read until the atomic swap, and after it the retired output becomes the new spare
    (`retired` is its manifest) or is deleted; with none to retire (a first build, a fresh
    clone that built from a restored spare), the spare is made of hard links to the new
    output (`_link_spare`).

    Use as a context manager: leaving it without `commit` (an error, a kill) leaves the
    previous output as it was (a fresh temporary directory is removed; a half-updated spare
    must be forgotten by the caller, who drops its manifest before filling it). The first
    file put at a path wins; later ones are ignored (generated files go first).

    Args:
        out_dir: the output directory.
        previous: the manifest of `out_dir` from the build that wrote it, if known.
        spare: where the retired output is kept between builds (on the same file system as
            `out_dir`), or None to delete it after the swap.
        spare_manifest: the manifest of the directory at `spare`; without it a directory
            there is deleted and not used.
    """

    def __init__(
        self,
        out_dir: Path,
        previous: Mapping[str, Stamp] | None = None,
        spare: Path | None = None,
        spare_manifest: Mapping[str, Stamp] | None = None,
    ) -> None:
        self.out_dir = out_dir.absolute()
        self.previous = previous or {}
        self.spare = spare if spare is not None and _same_device(spare, self.out_dir) else None
        self.kept = spare_manifest or {} if self.spare is not None else {}
        if self.spare is not None and spare_manifest is None:
            remove_path(self.spare)
        self.manifest: dict[str, Stamp] = {}
        self.reused = 0
        self.retired: dict[str, Stamp] | None = None
        """After `commit`: the manifest of the directory now at `spare` (None: none there)."""
        self._tmp: Path | None = None
        self._dirs: set[Path] = set()
        self._links: list[str] = []
        self._same_as_live = 0
        self._committed = False
        self._read: dict[tuple[int, int], str] = {}
        """The digest of each file read to reuse it, by (device, inode) (`intact`); emptied
        by every write, after which a freed inode number may name a new file."""

    def __enter__(self) -> SiteWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._committed and self._tmp is not None and self._tmp != self.spare:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __contains__(self, rel: str) -> bool:
        return rel in self.manifest

    @property
    def tmp(self) -> Path:
        """The directory being filled (the spare, or a temporary one made on first use).

        Raises:
            OutputError: it cannot be created.
        """
        if self._tmp is None:
            if self.spare is not None and self.spare.is_dir():
                self._tmp = self.spare
            else:
                self._tmp = _make_temporary(self.out_dir)
            self._dirs.add(self._tmp)
        return self._tmp

    def reuse(self, rel: str, token: str) -> bool:
        """Put the file holding `token` at `rel` without its bytes, if one exists; say if done.

        It is the spare's file if that holds `token` intact, else the live output's file
        (hard-linked at `commit`); if nothing changed at all, the live output stays as is.
        Either file must still hold the bytes its stamp's digest recorded (`intact`): the
        two share inodes, and a flipped bit keeps a file's stat signature.

        Raises:
            OutputError: `rel` escapes the output directory.
        """
        check_rel(rel)
        if rel in self.manifest:
            return True
        live, kept = self.previous.get(rel), self.kept.get(rel)
        read = self._read
        live_ok = live is not None and live.token == token and intact(self.out_dir, rel, live, read)
        if kept is not None and kept.token == token and intact(self.spare, rel, kept, read):
            self.manifest[rel] = kept
        elif live_ok and live is not None:
            self.manifest[rel] = live
            self._links.append(rel)
        else:
            return False
        self._same_as_live += live_ok
        self.reused += 1
        return True

    def write(self, rel: str, data: OutputData) -> None:
        """Write `data` (bytes or `Pieces`) to `rel` (mode 0644) unless a file was already
        put there.

        Raises:
            OutputError: `rel` escapes the output directory, or the disk refused the write.
        """
        target = self._target(rel)
        if rel in self.manifest:
            return
        try:
            self._clear(target)
        except OSError as e:
            raise OutputError(f"cannot write {e.filename or target}: {e.strerror}") from e
        self.manifest[rel] = write_new_file(target, data)

    @property
    def replacing(self) -> bool:
        """Whether files already in `tmp` must be removed before writing (it is the spare)."""
        return self.tmp == self.spare

    def add(self, rel: str, stamp: Stamp) -> None:
        """Record a file that another process put into `tmp` at `rel` (with `put_file`)."""
        self._read.clear()
        self.manifest.setdefault(rel, stamp)

    def copy(self, rel: str, source: Path) -> None:
        """Copy the static file `source` to `rel`, unless an unchanged copy can be reused.

        Raises:
            OutputError: `rel` escapes the output directory, or a read or write failed.
        """
        try:
            token = static_token(source)
            if self.reuse(rel, token):
                return
            target = self._target(rel)
            self._clear(target)
            shutil.copyfile(source, target)
            os.chmod(target, FILE_MODE)
            st = os.stat(target)
            digest = content_token(Path(target).read_bytes())
        except OSError as e:
            raise OutputError(f"cannot copy {source} to {rel}: {e.strerror}") from e
        self.manifest[rel] = Stamp(token, st.st_ino, st.st_size, st.st_mtime_ns, digest)

    def commit(self) -> dict[str, Stamp]:
        """Swap the new output in for the old one; return the manifest of the new output.

        When every file is the live output's own and it holds nothing else, the live
        output already is the new one and stays in place (the spare is not touched).

        Raises:
            OutputError: the output path exists and is not a directory, or a rename failed.
        """
        if self._same_as_live == len(self.manifest) == len(self.previous) == self.reused:
            if holds_only(self.out_dir, self.manifest.keys()):
                self._committed = True
                self.retired = dict(self.kept) if self.kept else self._link_spare()
                return self.manifest
        try:
            for rel in self._links:
                self._link(rel)
            if self.tmp == self.spare:
                prune(str(self.tmp), set(self.manifest))
            os.chmod(self.tmp, DIR_MODE)
            old = _swap_in(self.tmp, self.out_dir)
            self._committed = True
            self.retired = self._retire(old)
        except OSError as e:
            raise OutputError(f"cannot replace {self.out_dir}: {e.strerror}") from e
        return self.manifest

    def _retire(self, old: Path | None) -> dict[str, Stamp] | None:
        """Keep the previous output at `spare` if its manifest is known, else delete it."""
        if old is None:
            return self._link_spare()
        if self.spare is None or not self.previous:
            shutil.rmtree(old, ignore_errors=True)
            return self._link_spare()
        if old != self.spare:
            try:
                remove_path(self.spare)
                self.spare.parent.mkdir(parents=True, exist_ok=True)
                os.rename(old, self.spare)
            except OSError:  # the spare is a cache: losing it never fails a build
                shutil.rmtree(old, ignore_errors=True)
                return None
        return dict(self.previous)

    def _link_spare(self) -> dict[str, Stamp] | None:
        """Make the spare a copy of the new output in hard links, where there was none to
        retire (a first build, a fresh clone); return its manifest (None: no spare).

        So the next build that changes a page updates the spare in place instead of making
        a new tree, and a fresh clone given this cache (CI restoring `.postil-cache/`) finds
        every unchanged file there instead of rendering its page. The links share the live
        files' inodes; neither tree is ever written in place (`_clear` unlinks first), and
        a file reused from either is checked by its bytes (`intact`).
        """
        if self.spare is None:
            return None
        remove_path(self.spare)
        spare = str(self.spare)
        made: set[str] = set()
        try:
            _make_directory(spare, replace=False)
            for rel in self.manifest:
                path = spare
                for part in rel.split("/")[:-1]:
                    path = f"{path}/{part}"
                    if path not in made:
                        _make_directory(path, replace=False)
                        made.add(path)
                os.link(f"{self.out_dir}/{rel}", f"{spare}/{rel}")
        except OSError:  # the spare is a cache: losing it never fails a build
            remove_path(self.spare)
            return None
        return dict(self.manifest)

    def _link(self, rel: str) -> None:
        """Hard-link `rel` from the live output (copy it where links are not possible)."""
        target = self._target(rel)
        self._clear(target)
        try:
            os.link(self.out_dir / rel, target)
        except OSError:
            shutil.copy2(self.out_dir / rel, target)

    def _target(self, rel: str) -> Path:
        return self.tmp / safe_rel(rel)

    def _clear(self, target: Path) -> None:
        """Make way for a new file at `target`: parent directories, nothing in its place."""
        self._read.clear()
        self._mkdirs(target.parent)
        if self.tmp == self.spare and os.path.lexists(target):
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()

    def _mkdirs(self, directory: Path) -> None:
        if directory in self._dirs:
            return
        self._mkdirs(directory.parent)
        if not directory.is_dir() or directory.is_symlink():
            if os.path.lexists(directory):
                directory.unlink()  # a file where the new output has a directory
            directory.mkdir(mode=DIR_MODE)
            os.chmod(directory, DIR_MODE)
        self._dirs.add(directory)


def write_new_file(target: Path | str, data: OutputData) -> Stamp:
    """Create the file `target` (it must not exist) holding `data`, mode 0644; return its stamp.

    `Pieces` are written and digested one at a time, never joined (a huge post's page and
    feeds; `postil.model.Pieces`); the stamp is the one of the pieces joined.

    Raises:
        OutputError: the disk refused the write.
    """
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        try:
            os.fchmod(fd, FILE_MODE)  # whatever the umask
            if isinstance(data, bytes):
                _write_all(fd, data)
                token = content_token(data)
            else:
                token = _write_pieces(fd, data)
            st = os.fstat(fd)
        finally:
            os.close(fd)
    except OSError as e:
        raise OutputError(f"cannot write {e.filename or target}: {e.strerror}") from e
    return Stamp(token, st.st_ino, st.st_size, st.st_mtime_ns, token)


WRITE_BYTES = 1 << 20
"""Small pieces are gathered into writes of about this many bytes (`_write_pieces`)."""


def _write_pieces(fd: int, pieces: Pieces) -> str:
    """Write `pieces` to `fd` in order; return their `content_token`.

    Pieces smaller than `WRITE_BYTES` are gathered into one write (a feed's XML comes in
    many small pieces between its bodies); larger ones are written as they are.
    """
    digest = hashlib.blake2b(digest_size=16)
    pending = bytearray()
    for piece in pieces:
        digest.update(piece)
        if len(piece) < WRITE_BYTES:
            pending += piece
            if len(pending) < WRITE_BYTES:
                continue
        if pending:
            _write_all(fd, pending)
            pending.clear()
        if len(piece) >= WRITE_BYTES:
            _write_all(fd, piece)
    _write_all(fd, pending)
    return digest.hexdigest()


def _write_all(fd: int, data: bytes | bytearray) -> None:
    """Write all of `data` to `fd` (`os.write` may write less than it is given)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def put_file(directory: Path, rel: str, data: OutputData, replace: bool, made: set[str]) -> Stamp:
    """Write `data` at `directory/rel`, making its parent directories; return its stamp.

    For worker processes filling `SiteWriter.tmp` side by side (`postil.parallel`): two of
    them may make the same parent directory at once, which is not an error. With `replace`
    (the directory is the spare), whatever is in the way is removed first: a file or
    symbolic link where a parent directory must be, anything at `rel` itself.

    Args:
        made: parent directories (absolute, as strings) this process already made or found;
            updated.

    Raises:
        OutputError: `rel` escapes the directory, or the disk refused a change.
    """
    parts = safe_rel(rel).parts
    path = str(directory)
    try:
        for part in parts[:-1]:
            path = f"{path}/{part}"
            if path not in made:
                _make_directory(path, replace)
                made.add(path)
        target = f"{path}/{parts[-1]}"
        if replace and os.path.lexists(target):
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            else:
                os.unlink(target)
    except OSError as e:
        raise OutputError(f"cannot write {e.filename or rel}: {e.strerror}") from e
    return write_new_file(target, data)


def _make_directory(path: str, replace: bool) -> None:
    """Make the directory `path` (mode 0755) unless there is one; with `replace`, first
    remove a file or symbolic link in its place. Another process making it too is fine."""
    if replace and os.path.lexists(path) and (os.path.islink(path) or not os.path.isdir(path)):
        # Another worker may have removed it already, or even made the directory since.
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            os.unlink(path)
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        if os.path.islink(path) or not os.path.isdir(path):
            raise
        return
    os.chmod(path, DIR_MODE)


def remove_leftovers(out_dir: Path) -> None:
    """Delete the temporary siblings of `out_dir` that killed builds left behind.

    Call it only when no other build can be writing into `out_dir` (the build holds the
    cache's spare lock): a running build's temporary directory looks the same.
    """
    for pattern in (f".{out_dir.name}.new-*", f".{out_dir.name}.old-*"):
        for path in out_dir.parent.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


def remove_path(path: Path) -> None:
    """Remove whatever is at `path` (directory tree, file or link), ignoring failures."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _make_temporary(out_dir: Path) -> Path:
    """Create a fresh temporary sibling of `out_dir` (hidden, removed by the writer)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    except OSError as e:
        raise OutputError(f"cannot create the output directory next to {out_dir}: {e}") from e


def _same_device(spare: Path, out_dir: Path) -> bool:
    """Return whether a directory at `spare` can be renamed to `out_dir` (same file system)."""
    try:
        spare.parent.mkdir(parents=True, exist_ok=True)
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return os.stat(spare.parent).st_dev == os.stat(out_dir.parent).st_dev
    except OSError:
        return False


def _swap_in(new: Path, out_dir: Path) -> Path | None:
    """Put `new` at `out_dir`; return where the previous output now is (None: there was none)."""
    if not out_dir.exists():
        os.rename(new, out_dir)
        return None
    if not out_dir.is_dir() or out_dir.is_symlink():
        raise OutputError(f"{out_dir} exists and is not a directory; move it away")
    if _exchange(new, out_dir):
        return new  # `new` now holds the previous site
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    os.rmdir(old)
    os.rename(out_dir, old)
    os.rename(new, out_dir)
    return old


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories atomically via renameat2(RENAME_EXCHANGE); False if unsupported."""
    with contextlib.suppress(OSError, AttributeError, TypeError):  # TypeError: no CDLL(None)
        # The process's own symbols include libc's on Linux; `ctypes.util.find_library`
        # would run `ldconfig` in a subprocess (milliseconds) to find the same library.
        libc = ctypes.CDLL(None, use_errno=True)
        rc = libc.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
        return bool(rc == 0)
    return False
