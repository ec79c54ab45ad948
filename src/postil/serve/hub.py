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
from postil.serve.engine import BuildReport

HISTORY = 64
WAIT_SECONDS = 30.0


def diagnostic_json(d: Diagnostic) -> dict[str, str]:
    """Return a diagnostic as the overlay shows it: `path:line:col`, message, source line."""
    return {"location": str(d.location), "message": d.message, "source_line": d.source_line}


@dataclass(frozen=True)
class SiteView:
    """One consistent view of the served site.

    Attributes:
        files: output rel -> bytes of the last good build (empty before the first success).
        build: the number of the last build (0 before the first).
        errors: the errors of the last build, if it failed (the overlay lists them).
        base_path: the URL path the site is served under ("/" or "/repo/").
        warnings: the warnings of the last build (the overlay lists them too).
    """

    files: Mapping[str, bytes]
    build: int
    errors: tuple[Diagnostic, ...]
    base_path: str
    warnings: tuple[Diagnostic, ...] = ()


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
        self._events: deque[tuple[int, str]] = deque(maxlen=HISTORY)
        self._closed = False

    @property
    def closed(self) -> bool:
        """Return whether the server is shutting down (event streams should end)."""
        return self._closed

    def publish(self, report: BuildReport, files: Mapping[str, bytes], base_path: str) -> None:
        """Serve `files` (if the build succeeded) and send the build's event to every stream."""
        with self._cond:
            view = self._view
            number = view.build + 1
            self._view = SiteView(
                files if report.ok else view.files,
                number,
                report.errors,
                base_path,
                report.warnings,
            )
            event = {
                "build": number,
                "ok": report.ok,
                "changed": sorted(report.changed),
                "errors": [diagnostic_json(d) for d in report.errors],
                "warnings": [diagnostic_json(d) for d in report.warnings],
            }
            self._events.append((number, json.dumps(event, ensure_ascii=False)))
            self._cond.notify_all()

    def view(self, timeout: float = WAIT_SECONDS) -> SiteView:
        """Return the current site, first waiting (up to `timeout` s) for a pending build."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or not self._busy(), timeout)
            return self._view

    def events_after(self, seen: int, timeout: float) -> list[tuple[int, str]] | None:
        """Wait up to `timeout` s for builds after number `seen`; return their (number, JSON).

        Returns [] on timeout and None once the hub is closed. If older events were dropped
        from the history, the first returned event is a `{"reload": true}` one.
        """
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._view.build > seen, timeout)
            if self._closed:
                return None
            fresh = [(n, data) for n, data in self._events if n > seen]
            if self._view.build > seen and (not fresh or fresh[0][0] > seen + 1):
                fresh.insert(0, (self._view.build, json.dumps({"reload": True})))
            return fresh

    def close(self) -> None:
        """End every event stream and release every waiting reader."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
