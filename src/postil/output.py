"""Write the built site atomically (the only pipeline stage that writes).

The new site is written into a temporary sibling of the output directory and then swapped in
with one `renameat2(RENAME_EXCHANGE)` system call on Linux (atomic: a reader or a killed build
sees either the old site or the new one, never a mix; see renameat2(2)). Where that call is
missing, the old directory is renamed aside and the new one renamed in (two renames; the gap
is microseconds). A failed or killed build leaves the previous output untouched.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from postil.errors import OutputError
from postil.model import OutputFile

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
FILE_MODE = 0o644
DIR_MODE = 0o755


def safe_rel(rel: str) -> PurePosixPath:
    """Return `rel` as a relative POSIX path inside the output directory.

    Raises:
        OutputError: the path is absolute, empty, or climbs out with `..`.
    """
    path = PurePosixPath(rel)
    if not rel or path.is_absolute() or ".." in path.parts or "\\" in rel or "\0" in rel:
        raise OutputError(f"refusing to write outside the output directory: {rel!r}")
    return path


def write_site(
    outputs: Iterable[OutputFile], static: Iterable[tuple[str, Path]], out_dir: Path
) -> int:
    """Write every output file and static file into `out_dir`, replacing it atomically.

    Args:
        outputs: generated files (pages, feeds, CSS).
        static: (rel, source path) pairs copied byte for byte; a generated file of the same
            `rel` wins over a static one.
        out_dir: the output directory (created if missing; its parent must exist or be creatable).

    Returns:
        The number of files written.

    Raises:
        OutputError: a path escapes the output directory, or the disk refused a write.
    """
    out_dir = out_dir.absolute()
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.new-", dir=out_dir.parent))
    except OSError as e:
        raise OutputError(f"cannot create the output directory next to {out_dir}: {e}") from e
    try:
        count = _fill(tmp, outputs, static)
        os.chmod(tmp, DIR_MODE)
        _swap_in(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return count


def _fill(tmp: Path, outputs: Iterable[OutputFile], static: Iterable[tuple[str, Path]]) -> int:
    written: set[str] = set()
    try:
        for out in outputs:
            target = tmp / safe_rel(out.rel)
            _mkdirs(target.parent, tmp)
            target.write_bytes(out.data)
            os.chmod(target, FILE_MODE)
            written.add(out.rel)
        for rel, source in static:
            if rel in written:
                continue
            target = tmp / safe_rel(rel)
            _mkdirs(target.parent, tmp)
            shutil.copyfile(source, target)
            os.chmod(target, FILE_MODE)
            written.add(rel)
    except OSError as e:
        raise OutputError(f"cannot write {e.filename}: {e.strerror}") from e
    return len(written)


def _mkdirs(directory: Path, top: Path) -> None:
    if directory.is_dir():
        return
    _mkdirs(directory.parent, top)
    directory.mkdir(mode=DIR_MODE)
    os.chmod(directory, DIR_MODE)


def _swap_in(new: Path, out_dir: Path) -> None:
    if not out_dir.exists():
        os.rename(new, out_dir)
        return
    if not out_dir.is_dir() or out_dir.is_symlink():
        raise OutputError(f"{out_dir} exists and is not a directory; move it away")
    if _exchange(new, out_dir):
        shutil.rmtree(new, ignore_errors=True)  # `new` now holds the previous site
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    os.rmdir(old)
    os.rename(out_dir, old)
    os.rename(new, out_dir)
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories atomically via renameat2(RENAME_EXCHANGE); False if unsupported."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(libc_name, use_errno=True)
        rc = libc.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
        return bool(rc == 0)
    return False
