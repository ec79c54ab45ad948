"""`postil serve`: build into memory, serve over HTTP, rebuild on every save, reload browsers.

`DevServer` ties the pieces together: a `DevBuild` (the build's pipeline into memory), a
`SiteWatcher` feeding a `ChangeBatcher` (debounced, coalesced batches of changes, built on
one thread), a `SiteHub` (the served site and the event stream) and a `DevHTTPServer`.
It never writes `_site/` or any other directory.
"""

from __future__ import annotations

import gc
import ipaddress
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from postil.errors import Diagnostic, plural
from postil.render import prepare
from postil.serve.engine import BuildReport, DevBuild, FirstPages
from postil.serve.hub import SiteHub
from postil.serve.server import DevHTTPServer
from postil.serve.watcher import DEBOUNCE_SECONDS, ChangeBatcher, ChangeSet, SiteLayout, SiteWatcher

log = logging.getLogger("postil.serve")

GC_THRESHOLD = 100_000
"""Allocations (less deallocations) of container objects between two collections of the
youngest generation while serving and during the first build, instead of Python's 700: a
rebuild at 1,000 posts made 7 collections that cost 3-10 ms, a warm start 176 that cost
70-120 ms. The garbage is collected after each build instead, `GC_DELAY` seconds later,
when no page is waiting for the builder."""

GC_DELAY = 0.2
"""Seconds after a build's event before the garbage of that build is collected."""

WARM_DELAY = 1.0
"""Seconds the server waits for its first answer before it makes the Markdown parser and
imports the math layer (`render.prepare`, ~0.1 s of CPU): done at once, it would hold the
interpreter's lock while the first page (the home page, rendered on request) is made."""


@dataclass(frozen=True)
class ServeOptions:
    """How to serve a site.

    Attributes:
        root: the site directory (holds postil.yaml).
        host: the address to bind; loopback unless the user asks otherwise.
        port: the TCP port; 0 picks a free one.
        drafts: include draft posts (on by default: previewing drafts is what serve is for).
        future: include posts dated in the future.
        poll: watch by polling the file system (network drives, containers) instead of inotify.
        debounce: seconds of quiet after a change before the rebuild starts.
    """

    root: Path
    host: str = "127.0.0.1"
    port: int = 8000
    drafts: bool = True
    future: bool = False
    poll: bool = False
    debounce: float = DEBOUNCE_SECONDS


def is_loopback(host: str) -> bool:
    """Return whether `host` is a loopback address or `localhost` (binding it is private)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class DevServer:
    """The running dev server; use as a context manager, or call `start()` and `stop()`.

    Example:
        with DevServer(ServeOptions(Path("site"), port=0)) as server:
            print(server.url)       # http://127.0.0.1:41234/ (or .../repo/ under a base path)
    """

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.builder = DevBuild(options.root, drafts=options.drafts, future=options.future)
        self.batcher: ChangeBatcher[BuildReport] = ChangeBatcher(
            self.builder.build, options.debounce, after=self._publish
        )
        self.hub = SiteHub(lambda: self.batcher.busy)
        self.builder.on_first = self._publish_first
        self.layout = SiteLayout.of(options.root)
        self.watcher: SiteWatcher | None = None
        self.http: DevHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._due: threading.Timer | None = None
        self._sweep: threading.Timer | None = None
        self._gc_threshold: tuple[int, int, int] | None = None
        self._warm: threading.Thread | None = None
        self._stopping = False
        self.first_build: BuildReport | None = None
        self._told: tuple[tuple[Diagnostic, ...], ...] | None = None  # the last printed

    @property
    def url(self) -> str:
        """Return the URL of the site's home page (with the base path)."""
        assert self.http is not None, "start() the server first"
        host, port = self.http.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{self.hub.view(timeout=0).base_path}"

    def start(self) -> BuildReport:
        """Build the site, start serving and watching; return the first build's report.

        Raises:
            OSError: the address cannot be bound (port in use, bad host).
        """
        # Bind first: a taken port is reported at once, not after a build of the whole site.
        self.http = DevHTTPServer((self.options.host, self.options.port), self.hub)
        # The first build allocates what the server keeps (a warm start unpickles every
        # post's rows): at Python's threshold of 700 the collector ran 176 times during a
        # warm start at 1,000 posts, 70-120 ms of its CPU, walking objects that all live.
        self._gc_threshold = gc.get_threshold()
        gc.set_threshold(GC_THRESHOLD, *self._gc_threshold[1:])
        try:
            self.first_build = self.builder.build()
        except BaseException:
            gc.set_threshold(*self._gc_threshold)
            self._gc_threshold = None
            self.http.server_close()
            self.http = None
            raise
        # What the first build left (the site, the caches: most of this process's objects)
        # lives as long as the server. Out of the cyclic collector's sight, a full
        # collection no longer walks it: one took 60-80 ms of an edit at 1,000 posts.
        gc.freeze()
        self._publish(self.first_build)
        self._thread = threading.Thread(
            target=self.http.serve_forever, args=(0.05,), name="postil-http"
        )
        self._thread.start()
        # The first build may have rendered no post (all from .postil-cache/): make the
        # parser and import the math layer now, not when the first save waits for them.
        self._warm = threading.Thread(target=self._prepare, name="postil-warm", daemon=True)
        self._warm.start()
        self.batcher.start()
        self.watcher = SiteWatcher(self.layout, self.batcher, poll=self.options.poll)
        self.watcher.start()
        if self.watcher.complete:
            self.builder.watching()
        return self.first_build

    def _prepare(self) -> None:
        """Once the first answer is sent (or `WARM_DELAY` has passed), build once more and
        make the parser, so that the first save costs what the later ones do.

        The build after the first finds what changed between the first build and the
        watch's start (no event told of it), and it is the first to begin while watching:
        it examines every source, as the first save's build did, and from then on builds
        examine only the sources the watcher named (`DevBuild.watching`), and the stages'
        memos hold a rebuild's state. The first save's build paid both before: 100-150 ms
        more than a later save's at 1,000 posts, the slowest of `serve_latency.py`'s 20
        edits and so most of its p95 (docs/performance.md, "The first save").
        """
        self.hub.answered.wait(WARM_DELAY)
        if not self._stopping:
            self.batcher.add(ChangeSet(rescan=True))
            prepare()

    def stop(self) -> None:
        """Stop watching, building and serving; join every thread the server started."""
        if self.watcher is not None:
            self.watcher.stop()
        self.batcher.stop()  # after its last build: that build sets the timers again
        for timer in (self._due, self._sweep):
            if timer is not None:
                timer.cancel()
                timer.join()
        if self._warm is not None:
            self._stopping = True
            self.hub.answered.set()
            self._warm.join()
        self.hub.close()
        if self.http is not None and self._thread is not None:
            self.http.shutdown()
            self.http.close_connections()
            self.http.server_close()
            self._thread.join()
        self.builder.close()
        if self._gc_threshold is not None:  # as it was (the server may run inside a program)
            gc.set_threshold(*self._gc_threshold)
            gc.unfreeze()
            self._gc_threshold = None

    def rebuild(self, changes: ChangeSet) -> None:
        """Queue changes as if the watcher had seen them (for tools and tests)."""
        self.batcher.add(changes)

    def _publish_first(self, pages: FirstPages) -> None:
        """Serve a build's first pages, and let the readers they woke answer before the
        build renders the rest (`SiteHub.yield_to_readers`)."""
        self.hub.publish_first(pages)
        self.hub.yield_to_readers()

    def _publish(self, report: BuildReport) -> None:
        config = self.builder.config
        base = config.base_path if config is not None else "/"
        self.hub.publish(report, self.builder.files, base)
        told = (report.warnings, report.errors)
        if not report.ok and told == self._told:  # the warm-up build, or a save that fixed
            log.error(  # nothing: one line, not every error again
                "build failed again in %.0f ms: the same %d error(s) as above; serving the "
                "last good site",
                report.seconds * 1000,
                len(report.errors),
            )
        elif not (report.ok and not report.changed and told == self._told):
            _log_report(report, first=self._told is None)
        self._told = told
        if report.ok:
            self._build_when_due(report.next_publication)
        if self.watcher is not None:
            self._follow_new_directories()
        if self._sweep is not None:
            self._sweep.cancel()
        self._sweep = threading.Timer(GC_DELAY, gc.collect)
        self._sweep.daemon = True
        self._sweep.start()

    def _build_when_due(self, when: datetime | None) -> None:
        """Build again when the next future-dated post becomes due, as a `postil build`
        run then would include it (one timer at a time, replaced by each build)."""
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if when is None:
            return
        delay = max(0.0, (when - datetime.now(timezone.utc)).total_seconds()) + 0.05
        self._due = threading.Timer(delay, self.batcher.add, [ChangeSet(config=True)])
        self._due.daemon = True
        self._due.start()

    def _follow_new_directories(self) -> None:
        """Watch source directories created since the start (a new templates/ or static/),
        and build once more to pick up what was written there before the watch began."""
        assert self.watcher is not None
        config = self.builder.config  # the files it was read from, as the build read them
        layout = SiteLayout.of(self.options.root, config.math_macros_from if config else ())
        if layout != self.layout:
            self.layout = self.watcher.handler.layout = layout
        if self.watcher.watch(layout.watched()):
            # Files written into the new directory before its watch began sent no event.
            self.batcher.add(ChangeSet(config=True))

    def __enter__(self) -> DevServer:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _log_report(report: BuildReport, first: bool = False) -> None:
    """Print a build's warnings and errors as `postil build` prints them, then its outcome
    ("built" for the `first` build). The server prints nothing for a build that changed no
    file and found what the last printed one did: the one after the first that makes the
    first save fast (`DevServer._prepare`) printed every warning of the site again."""
    for warning in report.warnings:
        log.warning("%s", warning.report())
    for error in report.errors:
        log.error("%s", error.report())
    ms = report.seconds * 1000
    if not report.ok:
        log.error("build failed in %.0f ms; serving the last good site", ms)
        return
    for note in report.notes:  # as `postil build` prints them, before the summary
        log.info("%s", note)
    log.info(
        "%s in %.0f ms: %s and %s rendered, %s changed",
        "built" if first else "rebuilt",
        ms,
        plural(report.posts, "post"),
        plural(report.pages, "page"),
        plural(len(report.changed), "file"),
    )


def serve(options: ServeOptions, ready: Callable[[DevServer], None]) -> None:
    """Run the dev server until interrupted (Ctrl-C); call `ready(server)` once it serves.

    Raises:
        OSError: the address cannot be bound.
        KeyboardInterrupt: on Ctrl-C, after everything has been stopped.
    """
    with DevServer(options) as server:
        ready(server)
        threading.Event().wait()
