"""The served site as a mapping: files already rendered, and files rendered on first request.

The archive, the tag index, the feeds and the sitemap show every post, so every edit may
change them, and rendering them costs time proportional to the whole site (a full-content
feed of 5,000 posts takes seconds). Rendering them after every save would delay the page
the author is looking at; the dev server instead renders them when they are first
requested after a change (a browser showing one reloads, and so requests it), and keeps
the result for later requests.
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

    def maker(self, rel: str) -> Callable[[], bytes]:
        """Return a function giving `rel`'s bytes: the ones made already, or its renderer.

        Raises:
            KeyError: `rel` is not a file of this site.
        """
        made = self._ready if rel in self._ready else self._made
        if rel in made:
            data = made[rel]
            return lambda: data
        return self._deferred[rel]

    @property
    def ready(self) -> dict[str, bytes]:
        """Return the files rendered at build time (a new build copies and updates these)."""
        return self._ready

    @property
    def deferred(self) -> frozenset[str]:
        """Return the rels rendered on first request."""
        return frozenset(self._deferred)
