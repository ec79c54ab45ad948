"""The served site as a mapping: files already rendered, and files rendered on first request.

Feeds and the sitemap show every post, so every edit changes them, and rendering them costs
time proportional to the whole site (a full-content feed of 5,000 posts takes seconds).
They are not HTML, so no browser page carries the live-reload script for them and no one
waits for their change: the dev server renders them when they are first requested after a
change, and keeps the result for later requests.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping


class SiteFiles(Mapping[str, bytes]):
    """Output rel -> bytes; a deferred file is rendered (once) when first read.

    Args:
        ready: the rendered files. Not mutated by the caller afterwards.
        deferred: files rendered on demand, rel -> function returning the bytes; it may
            raise (e.g. `TemplateError`), which then reaches the reader.
        lock: held while a deferred file renders (the builder's lock, so that rendering
            never overlaps a build that shares its template environment).
    """

    def __init__(
        self,
        ready: dict[str, bytes],
        deferred: Mapping[str, Callable[[], bytes]] | None = None,
        lock: threading.RLock | None = None,
    ) -> None:
        self._ready = ready
        self._deferred = dict(deferred or {})
        self._lock = lock or threading.RLock()
        self._made: dict[str, bytes] = {}

    def __getitem__(self, rel: str) -> bytes:
        data = self._ready.get(rel)
        if data is not None:
            return data
        make = self._deferred[rel]
        with self._lock:
            if rel not in self._made:
                self._made[rel] = make()
            return self._made[rel]

    def __contains__(self, rel: object) -> bool:
        return rel in self._ready or rel in self._deferred

    def __iter__(self) -> Iterator[str]:
        yield from self._ready
        yield from (rel for rel in self._deferred if rel not in self._ready)

    def __len__(self) -> int:
        return len(self._ready) + sum(1 for rel in self._deferred if rel not in self._ready)

    @property
    def ready(self) -> dict[str, bytes]:
        """Return the files rendered at build time (a new build copies and updates these)."""
        return self._ready

    @property
    def deferred(self) -> frozenset[str]:
        """Return the rels rendered on first request."""
        return frozenset(self._deferred)
