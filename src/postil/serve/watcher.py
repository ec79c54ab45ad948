"""Watch the site's sources and turn editor saves into batches of changes for the next build.

Editors do not simply write a file: Vim writes a probe file `4913`, renames the original to
`name~` and writes a new one; many editors write `name.tmp` and rename it over the original
(an atomic save); Emacs leaves `.#name` lock links. Watchdog reports each step as created,
modified, moved or deleted events. `SiteEvents` maps them onto the site's own files (temp
and swap files are dropped, a rename counts as "the destination changed, the source is
gone"), and `ChangeBatcher` debounces a burst (~50 ms of quiet) and coalesces everything
that arrives while a build runs into one next build.

A save that is visibly complete needs no long wait: a file closed after writing
(inotify's IN_CLOSE_WRITE) or renamed into place is "settled", and once every file of a
batch is settled the batcher waits only `SETTLE_SECONDS` for stragglers (an editor's chmod
after the rename) instead of the whole debounce. Where the observer reports every close
(inotify), such a file is also `closed`: its writer said it is done, so a batch whose every
file is closed waits for no quiet at all (a straggler is built by a next build, as any later
save is). Deleted, moved-away and half-written files keep the full debounce, so Vim's
"rename the original away, write a new one" never builds the moment in between, when the
post does not exist.

A save that is visibly *in progress* is waited for: where the events report closes
(inotify), a file written to but not yet closed is `writing`, and no build starts until its
writer closes it (or `WRITER_PATIENCE` seconds pass without news: a writer that keeps the
file open for good). An editor that writes half a file, pauses, then writes the rest
therefore never has its half file built. Before every build the batcher also checks that
the files' size and modification time held still (a writer whose events are not seen:
polling, network drives): each file's are taken when its change arrives and compared once
the batch has been quiet for `SETTLE_SECONDS` (for a closed batch: at once), so a settled
save waits that long once, not twice; a file that changed since its event arrived (a write
whose event is still on its way) makes the batch wait `SETTLE_SECONDS` and look again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import stat
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from postil.config import CONFIG_NAME, load_config
from postil.content.discover import is_source
from postil.errors import ConfigError, ConfigFailed
from postil.theme import static_dirs, template_dirs

CONTENT_DIR = "content"
DATA_DIR = "data"
DATA_SUFFIXES = (".bib", ".yaml", ".yml", ".json", ".csv", ".toml")
DEBOUNCE_SECONDS = 0.05
SETTLE_SECONDS = 0.01
"""Quiet before a batch whose every file is settled is built, over which the files' size
and modification time must hold still; a batch whose every file is `closed` (inotify saw
its writer close it or rename it into place) does not wait for it (see
docs/performance.md, "The dev server")."""
WRITER_PATIENCE = 2.0
"""Seconds without any event after which a file still open for writing is built anyway."""
T = TypeVar("T")

# Editor temp, swap and backup names (Vim, Emacs, JetBrains, gedit, LibreOffice, rsync, sed -i).
_TEMP_NAME = re.compile(
    r"""^(?:
        \..*                          # hidden: .name.swp, .#name (Emacs lock), .~lock.x#
      | \#.*\#                        # Emacs auto-save
      | 4913                          # Vim's probe for a writable directory
      | .*~                           # backups
      | .*\.(?:swp|swo|swx|swpx|tmp|temp|part|crdownload|bak|orig|rej)
      | .*___jb_(?:tmp|old)___        # JetBrains safe write
      | .*\.tmp\.\d+ | .*\.sb-[0-9a-f]+-\w+   # atomic writers with a numeric/random suffix
      | sed[A-Za-z0-9]{6}             # sed -i
      | \.goutputstream-.*
    )$""",
    re.VERBOSE,
)


def is_temp_name(name: str) -> bool:
    """Return whether a file name is an editor's temp, swap, lock or backup file.

    The patterns are the ones editors document or leave behind: Vim (`.x.swp`, `x~`, `4913`),
    Emacs (`.#x`, `#x#`), JetBrains (`x___jb_tmp___`), gedit (`.goutputstream-*`), and
    generic `.tmp`/`.part`/`.bak` names; every hidden file counts as temporary.
    """
    return bool(_TEMP_NAME.match(name))


@dataclass
class ChangeSet:
    """The site files touched since the last build, by what they mean for the build.

    Attributes:
        content: changed, created or deleted `.md` files under content/ (absolute paths).
        templates: changed template files (any template directory of the theme lookup).
        static: changed static files (any static directory).
        assets: changed files under content/ that are published as they are (a bundle's
            image, `content/img/x.png`): the build copies them, and a post that shows an
            image takes its new width and height.
        config: postil.yaml or a data file changed: everything is rebuilt.
        rescan: a directory under content/ was created, moved or deleted: list content/ again.
        settled: the paths whose write the events completed (closed after writing, or
            renamed into place); the batcher need not wait the full debounce for them.
        writing: the paths written to and not closed since, where the events report
            closes (inotify): a writer is still at work, so the batcher waits for it.
        closed: the settled paths whose write an observer that reports every close
            (inotify) saw end, by IN_CLOSE_WRITE or a rename into place: the batcher
            builds them without waiting for quiet.
        entries: every path under content/ a file (or link) was made at, removed from or
            renamed from or to, whatever its name (temp files, images, hidden files):
            with a watcher that reports every such change, the entries of `content/`'s
            directories that may have changed (`postil.content.discover.walk_content`).
            They alone do not call for a build (no source changed), but are kept for the
            next one.
    """

    content: set[Path] = field(default_factory=set)
    templates: set[Path] = field(default_factory=set)
    static: set[Path] = field(default_factory=set)
    assets: set[Path] = field(default_factory=set)
    config: bool = False
    rescan: bool = False
    settled: set[Path] = field(default_factory=set)
    writing: set[Path] = field(default_factory=set)
    closed: set[Path] = field(default_factory=set)
    entries: set[Path] = field(default_factory=set)

    def __bool__(self) -> bool:
        files = self.content or self.templates or self.static or self.assets
        return bool(files or self.config or self.rescan)

    def merge(self, other: ChangeSet) -> None:
        """Add every change of `other` to this set (coalescing two batches into one)."""
        self.content |= other.content
        self.templates |= other.templates
        self.static |= other.static
        self.assets |= other.assets
        self.config = self.config or other.config
        self.rescan = self.rescan or other.rescan
        self.settled = (self.settled - other.files()) | other.settled
        self.closed = (self.closed - other.files()) | other.closed
        self.writing = (self.writing - other.settled) | other.writing
        self.entries |= other.entries

    def files(self) -> set[Path]:
        """Return every changed content, template, static and content asset file."""
        return self.content | self.templates | self.static | self.assets


@dataclass(frozen=True)
class SiteLayout:
    """Where a site's watched files live.

    Attributes:
        root: the site directory (holds postil.yaml).
        templates: template directories, the site's first (see `postil.theme.template_dirs`).
        static: static directories (see `postil.theme.static_dirs`).
        config_files: files postil.yaml names that the configuration is read from (`math:
            macros_from:`, `postil.macrofiles`), in the site or beside it (`../x.tex`, its
            `..` folded): a change is a change of the configuration.
    """

    root: Path
    templates: tuple[Path, ...]
    static: tuple[Path, ...]
    config_files: frozenset[Path] = frozenset()

    @classmethod
    def of(cls, root: Path, named: tuple[str, ...] | None = None) -> SiteLayout:
        """Return the layout of the site at `root`, including the default theme's directories
        and the files its postil.yaml reads: `named` (paths from the site's folder, as the
        last build's configuration has them), else as postil.yaml names them now (none
        while it cannot be read: the build says why, and fixing it is a change the watch
        sees)."""
        root = root.absolute()
        if named is None:
            try:
                named = load_config(root).math_macros_from
            except (ConfigError, ConfigFailed):
                named = ()
        # `..` folded (`../preamble.tex`, a book's shared preamble): events name real paths
        files = frozenset(Path(os.path.normpath(root / rel)) for rel in named)
        return cls(root, tuple(template_dirs(root)), tuple(static_dirs(root)), files)

    def watched(self) -> list[tuple[Path, bool]]:
        """Return (directory, recursive) pairs to watch; missing directories are left out."""
        dirs = [(self.root, False)]
        for d in (self.root / CONTENT_DIR, self.root / DATA_DIR, *self.templates, *self.static):
            if d.is_dir() and (d, True) not in dirs:
                dirs.append((d, True))
        for parent in sorted({path.parent for path in self.config_files}):
            inside = any(parent.is_relative_to(d) for d, deep in dirs if deep)
            if parent.is_dir() and not inside and (parent, False) not in dirs:
                dirs.append((parent, False))
        return dirs

    def classify(self, path: Path, is_dir: bool, into: ChangeSet) -> None:
        """Record what a change of `path` means in `into`; ignore files the build never reads."""
        if is_temp_name(path.name):
            return
        if path in self.config_files:
            into.config = True
            return
        if path.parent == self.root:
            if path.name == CONFIG_NAME or path.suffix in DATA_SUFFIXES:
                into.config = True
            elif is_dir and path.name in (CONTENT_DIR, DATA_DIR, "templates", "static"):
                into.config = True  # a whole source directory appeared or vanished
            return
        content = self.root / CONTENT_DIR
        if path.is_relative_to(content):
            if is_dir:
                into.rescan = True
            elif is_source(path.name):
                into.content.add(path)
            elif path.suffix == ".bib":  # a post's bibliography: the build finds what it changed
                into.config = True
            elif not is_source(path.stem):  # published as it is: a bundle's image
                into.assets.add(path)
            # (`x.md.aBc123`: a source's temp file, which Qt's and rsync's atomic saves
            # rename onto the source; the rename is the change)
        elif path.is_relative_to(self.root / DATA_DIR):
            into.config = True
        elif not is_dir and any(path.is_relative_to(d) for d in self.templates):
            into.templates.add(path)
        elif not is_dir and any(path.is_relative_to(d) for d in self.static):
            into.static.add(path)


def classify_event(layout: SiteLayout, event: FileSystemEvent, closes: bool = False) -> ChangeSet:
    """Return the changes one watchdog event stands for (possibly none).

    A move counts twice: its source is gone and its destination changed, so an atomic save
    (`x.md.tmp` renamed onto `x.md`) is a change of `x.md`. A file closed after writing, or
    the destination of a move, is also `settled`. With `closes` (the observer reports
    closes), a file created or modified is `writing` until its close, and a settled file
    is `closed` too. Directory "modified" events (a child changed) and "opened"/"closed
    without writing" events carry no news. A file made, deleted or moved under content/
    (any name) is in `entries` (a directory there is a `rescan`).
    """
    changes = ChangeSet()
    if event.event_type in ("opened", "closed_no_write"):
        return changes
    if event.is_directory and event.event_type == "modified":
        return changes
    src, dest = (_text(p) for p in (event.src_path, getattr(event, "dest_path", "")))
    content = layout.root / CONTENT_DIR
    for path in (src, dest):
        if path:
            layout.classify(Path(path), event.is_directory, changes)
            if event.event_type in ("created", "deleted", "moved") and not event.is_directory:
                if Path(path).is_relative_to(content):
                    changes.entries.add(Path(path))
    done = dest if event.event_type == "moved" else src if event.event_type == "closed" else ""
    if done and Path(done) in changes.files():
        changes.settled.add(Path(done))
        if closes:
            changes.closed.add(Path(done))
    if closes and event.event_type in ("created", "modified") and not event.is_directory:
        changes.writing |= changes.files()
    return changes


def _text(path: bytes | str | None) -> str:
    if isinstance(path, bytes):
        return path.decode()
    return path or ""


class ChangeBatcher(Generic[T]):
    """Debounce changes and hand them to `build` in batches, one build at a time, on a thread.

    A batch is built once no new change has arrived for `debounce` seconds. Changes that
    arrive while a build runs are merged into one pending batch, built right after (so a
    burst of saves during a slow build costs one more build, not one per save).

    `busy` is true from the moment a change is added until the build that includes it has
    finished, so the server can hold requests instead of serving a page about to change.

    Args:
        build: called on the batcher's thread with each batch; must not raise.
        debounce: seconds of quiet before a batch is built (~50 ms absorbs an editor's
            write-rename-chmod burst).
        after: called with what `build` returned, once `busy` reflects that build.
        settle: seconds of quiet before a batch whose every path is settled is built.
    """

    def __init__(
        self,
        build: Callable[[ChangeSet], T],
        debounce: float = DEBOUNCE_SECONDS,
        after: Callable[[T], None] | None = None,
        settle: float = SETTLE_SECONDS,
    ) -> None:
        self._build = build
        self._after = after
        self._debounce = debounce
        self._settle = min(settle, debounce)
        self._cond = threading.Condition()
        self._pending = ChangeSet()
        self._last = 0.0
        self._added = 0  # changes added so far
        self._done = 0  # changes whose build has finished
        self._stopped = False
        self._seen: dict[Path, tuple[int, int] | None] = {}  # each pending file's last stat
        self._thread = threading.Thread(target=self._run, name="postil-rebuild", daemon=True)

    def start(self) -> None:
        """Start the build thread."""
        self._thread.start()

    def add(self, changes: ChangeSet) -> None:
        """Queue changes for the next build; an empty set is ignored (its `entries` are
        kept for the next build, which they do not call for)."""
        if not changes:
            if changes.entries:
                with self._cond:
                    self._pending.entries |= changes.entries
            return
        seen = {path: _stat_signature(path) for path in changes.files()}
        with self._cond:
            self._seen.update(seen)
            self._pending.merge(changes)
            self._last = time.monotonic()
            self._added += 1
            self._cond.notify_all()

    @property
    def busy(self) -> bool:
        """Return whether a change has been added whose build has not finished yet."""
        return self._added != self._done

    def stop(self) -> None:
        """Stop the thread after the build in progress, dropping changes not yet built."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()

    def _next_batch(self) -> tuple[ChangeSet, int] | None:
        """Wait for changes, then for `debounce` seconds of quiet; return (batch, changes added
        so far); None once stopped."""
        with self._cond:
            while not self._stopped:
                if not self._pending:
                    self._cond.wait()
                    continue
                wait = self._quiet_needed()
                quiet = time.monotonic() - self._last
                if quiet < wait:
                    self._cond.wait(wait - quiet)
                elif _open_for_writing(self._pending) and quiet < WRITER_PATIENCE:
                    self._cond.wait(WRITER_PATIENCE - quiet)  # its close event wakes us
                elif not self._held_still():
                    self._cond.wait(self._settle)
                else:
                    batch, self._pending = self._pending, ChangeSet()
                    self._seen = {}
                    return batch, self._added
            return None

    def _held_still(self) -> bool:
        """Return whether the pending files' size and mtime are what they were when last
        looked at (when their change arrived, or at the last call), and look again."""
        now = {path: _stat_signature(path) for path in self._pending.files()}
        still = all(path in self._seen and self._seen[path] == found for path, found in now.items())
        self._seen.update(now)
        return still

    def _quiet_needed(self) -> float:
        """Return the seconds without a new change the pending batch needs before it is
        built: the full debounce while a file of it is not settled (or the batch changes
        the configuration or directories), none when every file is `closed` (its writer's
        close or rename was seen), else `settle`. The files must still have held still
        (`_held_still`) and none be open for writing."""
        pending = self._pending
        files = pending.files()
        if pending.config or pending.rescan or not files <= pending.settled:
            return self._debounce
        return 0.0 if files <= pending.closed else self._settle

    def _run(self) -> None:
        while (taken := self._next_batch()) is not None:
            batch, added = taken
            result = self._build(batch)
            self._done = added
            if self._after is not None:
                self._after(result)


def _open_for_writing(changes: ChangeSet) -> bool:
    """Return whether a file of `changes` is still being written (and still exists)."""
    return any(path.exists() for path in changes.writing)


def _stat_signature(path: Path) -> tuple[int, int] | None:
    """Return a file's (size, mtime in ns), or None if it is not there."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


INOTIFY_LOGGER = "watchdog.observers.inotify_c"
"""The logger by which watchdog reports that the kernel's inotify queue overflowed."""


class SiteEvents(FileSystemEventHandler):
    """A watchdog handler that classifies every event and queues the changes in a batcher.

    `closes`: the observer reports a file's close after writing (inotify does; polling does
    not), so a file written and not yet closed can be waited for.
    """

    def __init__(
        self, layout: SiteLayout, batcher: ChangeBatcher[Any], closes: bool = False
    ) -> None:
        super().__init__()
        self.layout = layout
        self.batcher = batcher
        self.closes = closes

    def on_any_event(self, event: FileSystemEvent) -> None:
        """Queue what `event` changed (see `classify_event`)."""
        self.batcher.add(classify_event(self.layout, event, self.closes))


class SiteWatcher:
    """Watch a site's sources (content/, data/, templates, static, postil.yaml) with watchdog.

    Args:
        layout: the site's directories.
        batcher: receives the classified changes.
        poll: use watchdog's `PollingObserver` (stat every `poll_interval` seconds) instead of
            the OS's notifications: for network drives and containers where inotify is blind.
    """

    def __init__(
        self,
        layout: SiteLayout,
        batcher: ChangeBatcher[Any],
        poll: bool = False,
        poll_interval: float = 0.25,
    ) -> None:
        # A directory moved out of a watched tree and back makes watchdog's inotify emitter
        # add a callback it already has, with a multi-line RuntimeWarning; the watch is right.
        warnings.filterwarnings(
            "ignore", "Callback with id .* already exists", RuntimeWarning, r"watchdog\."
        )
        self.observer: BaseObserver = PollingObserver(timeout=poll_interval) if poll else Observer()
        self.handler = SiteEvents(layout, batcher, closes=_reports_closes(self.observer))
        self._watched: dict[tuple[Path, bool], tuple[ObservedWatch, tuple[int, int]]] = {}
        self.watch(layout.watched())

    def watch(self, dirs: Iterable[tuple[Path, bool]]) -> int:
        """Start watching more (directory, recursive) pairs; return how many were new.

        A directory that was deleted, or deleted and made again (a new inode: its old watch
        sees nothing), is watched afresh; the watch of one that is gone is dropped.
        """
        for key, (watch, known) in list(self._watched.items()):
            if _inode(key[0]) != known:
                with contextlib.suppress(KeyError, OSError):
                    self.observer.unschedule(watch)
                del self._watched[key]
        added = 0
        for directory, recursive in dirs:
            inode = _inode(directory)
            if (directory, recursive) not in self._watched and inode is not None:
                watch = self.observer.schedule(self.handler, str(directory), recursive=recursive)
                self._watched[(directory, recursive)] = (watch, inode)
                added += 1
        return added

    @property
    def complete(self) -> bool:
        """Whether every write of a watched file is reported as it happens (inotify: a
        file's change is an event; polling compares sizes and times now and then, and can
        miss a write that keeps both). A queue overflow, when the kernel drops events, is
        reported as a change of every file (`ChangeSet.rescan`)."""
        return self.handler.closes

    def start(self) -> None:
        """Start the observer thread."""
        logging.getLogger(INOTIFY_LOGGER).addFilter(self._overflow)
        self.observer.start()

    def stop(self) -> None:
        """Stop the observer and join its threads."""
        self.observer.stop()
        if self.observer.is_alive():
            self.observer.join()
        logging.getLogger(INOTIFY_LOGGER).removeFilter(self._overflow)

    def _overflow(self, record: logging.LogRecord) -> bool:
        """Queue a rescan when watchdog reports that inotify dropped events (it says so only
        in this log record); let the record through."""
        if "overflow" in record.getMessage():
            self.handler.batcher.add(ChangeSet(rescan=True))
        return True


def _reports_closes(observer: BaseObserver) -> bool:
    """Return whether `observer` reports closes after writing (Linux's inotify does)."""
    try:
        from watchdog.observers.inotify import InotifyObserver
    except ImportError:  # not Linux
        return False
    return isinstance(observer, InotifyObserver)


def _inode(directory: Path) -> tuple[int, int] | None:
    """Return (device, inode) of a directory, or None if it is not one (any more)."""
    try:
        st = directory.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None
