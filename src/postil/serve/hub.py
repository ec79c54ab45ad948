"""What the dev server's request threads share: the served site, its build state, its events.

The build thread publishes each `BuildReport` here; request threads read the current site
(waiting while a build is pending, so a page about to change is never served) and the
Server-Sent Events threads wait here for the next build.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from postil.errors import Diagnostic
from postil.serve.engine import BuildReport, FirstPages

HISTORY = 64
WAIT_SECONDS = 30.0
HELLO_CHANGES = 16
"""Builds whose changed files a `hello` lists (`SiteHub.hello`): a page served at one of the
last `HELLO_CHANGES` builds can tell whether the builds since changed it."""
FIRST_YIELD_SECONDS = 0.02
"""How long a build, once it has handed over its first pages, waits at most for the readers
that hand-over woke (`SiteHub.yield_to_readers`) before it renders the rest."""
HELLO_FILES = 200
"""A build that changed more files than this is listed in a `hello` without them (null:
a page served before it reloads), so a hello stays small after a template edit."""


def diagnostic_json(d: Diagnostic) -> dict[str, str]:
    """Return a diagnostic as the overlay shows it: `path:line:col`, message, source line,
    and the excerpt the terminal prints under the message (the line and a caret under the
    column: `Diagnostic.excerpt`)."""
    return {
        "location": str(d.location),
        "message": d.message,
        "source_line": d.source_line,
        "excerpt": d.excerpt(),
    }


@dataclass(frozen=True)
class SiteView:
    """One consistent view of the served site.

    Attributes:
        files: output rel -> bytes of the last good build (empty before the first success).
        build: the number of the last build (0 before the first).
        errors: the errors of the last build, if it failed (the overlay lists them).
        base_path: the URL path the site is served under ("/" or "/repo/").
        warnings: the warnings of the last build (the overlay lists them too).
        ready: None for a finished build; for a build still rendering, the only rels of
            `files` that are its own (`publish_first`): the others may be about to change.
    """

    files: Mapping[str, bytes]
    build: int
    errors: tuple[Diagnostic, ...]
    base_path: str
    warnings: tuple[Diagnostic, ...] = ()
    ready: frozenset[str] | None = None


class SiteHub:
    """The served site and the stream of build events, guarded by one condition.

    Args:
        busy: returns whether a change is waiting for its build (`ChangeBatcher.busy`);
            readers wait while it is true.
    """

    def __init__(self, busy: Callable[[], bool] = lambda: False) -> None:
        self.session = secrets.token_hex(8)
        self._busy = busy
        self._cond = threading.Condition()
        self._view = SiteView({}, 0, (), "/")
        self._first: SiteView | None = None  # a running build's first pages
        self._number = 0  # of the last event
        self._events: deque[tuple[int, str]] = deque(maxlen=HISTORY)
        self._changes: deque[tuple[int, list[str]]] = deque(maxlen=HELLO_CHANGES)
        self._closed = False
        self._waiting: dict[int, Callable[[SiteView], bool] | None] = {}  # thread -> wants
        self._streams: set[int] = set()  # threads of event streams waiting for an event
        self._owed: set[int] = set()  # threads the last `publish_first` woke, not yet done
        self.answered = threading.Event()
        """Set once a request has been answered (the server then warms up: `DevServer`)."""

    @property
    def closed(self) -> bool:
        """Return whether the server is shutting down (event streams should end)."""
        return self._closed

    def publish(self, report: BuildReport, files: Mapping[str, bytes], base_path: str) -> None:
        """Serve `files` (if the build succeeded) and send the build's event to every stream.

        The event names the files whose bytes changed, except those its `publish_first`
        event already named (`BuildReport.early`), so no page reloads twice; a failed
        build drops the pages `publish_first` served, and serves the last good site.
        """
        with self._cond:
            view = self._view
            self._number += 1
            self._view = SiteView(
                files if report.ok else view.files,
                self._number,
                report.errors,
                base_path,
                report.warnings,
            )
            self._first = None
            self._send(report.ok, report.changed - report.early, report.errors, report.warnings)

    def publish_first(self, pages: FirstPages) -> None:
        """Serve the first pages of a build still running (`DevBuild.on_first`) and send an
        event naming those that changed; every other file waits for the build's end."""
        with self._cond:
            self._number += 1
            self._first = first = SiteView(
                pages.files, self._number, (), pages.base_path, pages.warnings, pages.ready
            )
            self._owed = {t for t, wants in self._waiting.items() if wants and wants(first)}
            self._owed |= self._streams
            self._send(True, pages.changed, (), pages.warnings)

    def yield_to_readers(self, timeout: float = FIRST_YIELD_SECONDS) -> None:
        """Wait (up to `timeout` s) until every reader the last `publish_first` woke (a
        request for one of its pages, an event stream) has answered (`done`).

        The build thread calls it after the hand-over: the rest of the build holds the
        interpreter's lock, and each time a woken reader needs it back (waking, then after
        each send) it waited up to the switch interval (5 ms), 2-10 ms in all before the
        page left (docs/performance.md, "The first save").
        """
        with self._cond:
            self._cond.wait_for(lambda: self._closed or not self._owed, timeout)
            self._owed.clear()

    def done(self) -> None:
        """Say that the calling thread has answered what it read (see `yield_to_readers`)."""
        with self._cond:
            if threading.get_ident() in self._owed:
                self._owed.discard(threading.get_ident())
                if not self._owed:
                    self._cond.notify_all()

    def _send(
        self,
        ok: bool,
        changed: frozenset[str],
        errors: tuple[Diagnostic, ...],
        warnings: tuple[Diagnostic, ...],
    ) -> None:
        """Queue the event of build number `self._number` and wake its readers."""
        rels = sorted(changed)
        self._changes.append((self._number, rels))
        event = {
            "build": self._number,
            "ok": ok,
            "changed": rels,
            "errors": [diagnostic_json(d) for d in errors],
            "warnings": [diagnostic_json(d) for d in warnings],
        }
        self._events.append((self._number, json.dumps(event, ensure_ascii=False)))
        self._cond.notify_all()

    def view(
        self, timeout: float = WAIT_SECONDS, wants: Callable[[SiteView], bool] | None = None
    ) -> SiteView:
        """Return the current site, first waiting (up to `timeout` s) for a pending build.

        `wants` tells whether a view of a build still rendering (`SiteView.ready`) has
        what the reader asks for; if so, that view is returned at once. It is called under
        the hub's lock, so it must not block (nor make a deferred file).
        """

        def first() -> SiteView | None:
            view = self._first
            return view if view is not None and wants is not None and wants(view) else None

        me = threading.get_ident()
        with self._cond:
            self._waiting[me] = wants
            try:
                self._cond.wait_for(
                    lambda: self._closed or not self._busy() or first() is not None, timeout
                )
            finally:
                del self._waiting[me]
            return first() or self._view

    def hello(self) -> tuple[int, str]:
        """Return the number of the served build and the JSON of the `hello` event a new
        event stream starts with: the session, that build, its errors and warnings, and
        `changes`, the [number, changed rels] of each of the last `HELLO_CHANGES` events
        (the rels None for an event that named more than `HELLO_FILES`).

        `changes` lets a page served at an earlier build tell whether the builds since
        changed it (`livereload.js`): a page served from a build's first pages
        (`publish_first`) whose script connects only after that build's end has missed
        the end's event, which names the other pages; reloading it on the build number
        alone reloaded it a second time for nothing (docs/performance.md, "One reload for
        a rename save").
        """
        with self._cond:
            view = self._view
            hello = {
                "session": self.session,
                "build": view.build,
                "errors": [diagnostic_json(d) for d in view.errors],
                "warnings": [diagnostic_json(d) for d in view.warnings],
                "changes": [
                    [n, rels if len(rels) <= HELLO_FILES else None]
                    for n, rels in self._changes
                    if n <= view.build
                ],
            }
            return view.build, json.dumps(hello, ensure_ascii=False)

    def events_after(self, seen: int, timeout: float) -> list[tuple[int, str]] | None:
        """Wait up to `timeout` s for builds after number `seen`; return their (number, JSON).

        Returns [] on timeout and None once the hub is closed. If older events were dropped
        from the history, the first returned event is a `{"reload": true}` one.
        """
        me = threading.get_ident()
        with self._cond:
            self._streams.add(me)
            try:
                self._cond.wait_for(lambda: self._closed or self._number > seen, timeout)
            finally:
                self._streams.discard(me)
            if self._closed:
                return None
            fresh = [(n, data) for n, data in self._events if n > seen]
            if self._number > seen and (not fresh or fresh[0][0] > seen + 1):
                fresh.insert(0, (self._number, json.dumps({"reload": True})))
            return fresh

    def close(self) -> None:
        """End every event stream and release every waiting reader."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self.answered.set()
