"""Why a symlink in `content/` or `static/` leads nowhere: a loop, or a missing target.

Both walks of the site's files (`postil.content.discover.walk_content` and
`postil.assets.static_files`) ask before following a link, so a link that cannot be
followed is a content error at the link's path, the same in `postil build`, `check` and
`serve`, instead of an `OSError` from `Path.resolve` or a file silently left out.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

_MOST_HOPS = 40
"""Links followed before giving up, as Linux's `MAXSYMLINKS` (an `ELOOP` after 40)."""


def broken_symlink(path: Path, root: Path) -> str | None:
    """Return the message for the symlink `path` when it cannot be followed, else None.

    Args:
        path: a symlink (an entry of a directory walk; `os.lstat` says it is a link).
        root: the site's directory: the paths a message names are relative to it when
            they are inside it.

    Returns:
        None when the link reaches a file or a directory; else a message naming the
        links followed and how to fix it: "symlink loop (`a` → `b` → `a`)…" when the links
        lead back to one already followed, "symlink points to `x`, which does not exist…"
        when the last one names nothing.
    """
    try:
        path.stat()
        return None
    except OSError as e:
        problem = e.errno
    chain = _chain(path)
    names = " → ".join(f"`{_shown(hop, root)}`" for hop in chain)
    if problem == errno.ELOOP:
        return (
            f"symlink loop ({names}): the links lead back to themselves and never reach a"
            " file; remove the link or point it at a file or directory"
        )
    if problem in (errno.ENOENT, errno.ENOTDIR):
        through = f" (through {names})" if len(chain) > 2 else ""
        return (
            f"symlink points to `{_shown(chain[-1], root)}`, which does not exist{through};"
            " restore the file or directory it names, or remove the link"
        )
    return f"symlink cannot be followed ({os.strerror(problem or 0)}); fix or remove it"


def _chain(path: Path) -> list[Path]:
    """Return `path` and each path its links lead to in turn (made absolute and normalized,
    not resolved), up to the first one that is no link or that was reached before."""
    chain = [Path(os.path.normpath(path.absolute()))]
    while len(chain) <= _MOST_HOPS:
        here = chain[-1]
        try:
            target = os.readlink(here)
        except OSError:  # no link (or nothing at all): the end of the chain
            break
        hop = Path(os.path.normpath(here.parent / target))
        chain.append(hop)
        if hop in chain[:-1]:
            break
    return chain


def _shown(path: Path, root: Path) -> str:
    """Return `path` relative to the site's resolved or given directory when inside it, else
    as it is."""
    for base in (root.absolute(), root.resolve()):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return path.as_posix()
