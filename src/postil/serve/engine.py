"""The dev server's build: `postil.build.run`, the build's own pipeline, into memory.

On every batch of saves the dev server runs the same stages as `postil build --drafts`,
over a `MemoryCache` that keeps the work of the last build (and reads through to, and
writes through to, the site's `.postil-cache/`), and with a `MemoryWriter` as the write
stage. The cache makes a rebuild cost what changed: a post's Markdown is rendered again
only when its text, its links or a widget template changed, a page only when its key did
(`postil.cache.keys.PageKeys`). So whatever `postil build` writes and reports, the dev
server serves and reports, after every save.

A failed build changes nothing that is served: `files` stays the last good site.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2

from postil.build import BuildOptions, BuildResult, Output, generated_assets, run
from postil.cache.keys import templates_text
from postil.cache.store import BuildCache, CacheError, MemoryCache
from postil.errors import (
    BuildFailed,
    Diagnostic,
    Location,
    PostilError,
    Severity,
    as_diagnostic,
    located,
)
from postil.model import Site, SiteConfig
from postil.pages import PageJobs
from postil.serve.memory import Entry, Group, MemoryWriter, Overlay, SiteFiles
from postil.serve.watcher import ChangeSet
from postil.write import write_site

log = logging.getLogger("postil.serve")

PERSISTED = ("post", "markdown", "html", "conversions", "asset", "image", "bibliography")
"""Row kinds shared with the site's `.postil-cache/`: what `postil build` can reuse too.
Pages and output manifests describe what the dev server holds in memory, so they stay there."""

LAZY = ("html", "conversions", "served")
"""Row kinds read from `.postil-cache/` one row at a time, when asked for
(`MemoryCache`): a first build with a warm cache reads none of them."""

SERVED = "served"
"""The row kind (in `.postil-cache/`) of the pages a dev server rendered without error: by
output rel, the page key as fingerprint. With `postil build`'s "page" rows they let the
next server defer every page whose key is proven (`MemoryWriter`)."""

TEMPLATES = "template"
"""The row kind (in `.postil-cache/`) of the templates a dev server rendered a page with
without error: by template name, the digest of every template (`templates_text`) as
fingerprint. The next server with the same templates counts them as rendered without
error (`MemoryWriter`'s `templates_ok`), so its first build defers the pages that show
every post (archive, tag index) instead of rendering them to check their template."""

SPARE_ROWS = 256
"""Renderings of posts that no longer match their files kept in memory, so that undoing an
edit finds the old rendering (`BuildCache.spare_rows`)."""


@dataclass(frozen=True)
class FirstPages:
    """The pages of the edited posts themselves, ready while the rest of a rebuild runs.

    Attributes:
        ready: their output rels: the only files of `files` that are the new build's.
        changed: those of them whose bytes changed (the reload event names them).
        files: the last good site with these pages replaced.
        base_path: the URL path the site is served under.
        warnings: the build's warnings (all known before any page renders).
    """

    ready: frozenset[str]
    changed: frozenset[str]
    files: Mapping[str, bytes]
    base_path: str
    warnings: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class BuildReport:
    """What one build of the dev server did.

    Attributes:
        ok: the build succeeded and its output is now served.
        changed: output rels ("posts/x/index.html", "css/base.css") whose bytes changed,
            appeared or disappeared, plus the deferred pages that may have changed;
            empty when the build failed.
        errors: every error found (the build failed if there is one), in file order.
        warnings: every warning of the site, in file order (those `postil build` prints).
        posts: posts whose Markdown was rendered (not taken from the cache).
        pages: pages rendered.
        seconds: wall time of the build.
        next_publication: when the next future-dated post becomes due (the dev server
            builds again then, as a `postil build` then would include it), or None.
        early: the rels of `changed` already announced, with these very bytes, as
            `FirstPages` while the build ran (`DevBuild.on_first`).
        notes: the build's notes, as `postil build` prints them (`BuildResult.notes`: the
            drafts and future posts left out, a project site's robots.txt).
    """

    ok: bool
    changed: frozenset[str]
    errors: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]
    posts: int
    pages: int
    seconds: float
    next_publication: datetime | None = None
    early: frozenset[str] = frozenset()
    notes: tuple[str, ...] = ()


class DevBuild:
    """Build a site into memory with the build's pipeline, again after every change.

    Args:
        root: the site directory (holds postil.yaml).
        drafts: include draft posts (the dev server's default).
        future: include posts dated in the future.
        workers: processes for rendering Markdown (None: one per CPU), as `postil build -j`.

    Attributes:
        files: the last good site, output rel -> bytes; replaced whole by each successful
            build (never mutated), so a reader holding it sees one consistent site.
        config: the site configuration of the last successful build, or None.
        on_first: called (on the build's thread) with the edited posts' own pages, as
            `FirstPages`, once they are rendered and before the rest of a rebuild renders
            their neighbours', lists' and tags' pages; None: not called. Everything a build
            checks (content, links, outputs) is checked before any page renders, so only
            a template failing on another page can still fail the build after it.
    """

    def __init__(
        self, root: Path, drafts: bool = True, future: bool = False, workers: int | None = None
    ) -> None:
        self.root = root.absolute()
        self.options = BuildOptions(self.root, drafts=drafts, future=future, workers=workers)
        self.files = SiteFiles({})
        self.config: SiteConfig | None = None
        self._lock = threading.RLock()
        self._cache: MemoryCache | None = None
        self._entries: dict[str, Entry] = {}
        self._templates = ""
        self._templates_ok: set[str] = set()
        self._proven: set[tuple[str, str]] = set()
        self._proven_templates: dict[str, str] = {}
        self._groups: dict[str, Group] = {}
        self._watched = False
        self._since: set[Path] | None = None
        self._since_entries: set[Path] = set()
        self.on_first: Callable[[FirstPages], None] | None = None
        self._announced: dict[str, str] = {}

    def watching(self) -> None:
        """Say that from now on every change of the site's files reaches `build` as a
        `ChangeSet` (the dev server calls it once its watcher is running, when the watcher
        is `complete`).

        From then on a build learns which sources may have changed from the change sets
        instead of examining every source (`postil.content.load.load_posts`, `changed`):
        the sources the change sets named since the last successful build that began
        while watching (whose `stat`s therefore saw every write before it). A change set
        that moves or makes directories (`rescan`), a configuration change, a build with
        no change set, and a build the watcher did not see the start of, examine every
        source, as `postil build` does. Likewise the entries of `content/`'s directories
        the change sets saw made, removed or renamed (`ChangeSet.entries`, and the sources
        they named) are then the only ones that may have changed: a directory whose
        entries are still what its listing says is not listed again
        (`postil.content.discover.walk_content`).
        """
        self._watched = True

    def _changed_sources(
        self, changes: ChangeSet | None
    ) -> tuple[frozenset[Path] | None, frozenset[Path] | None]:
        """Return the sources and the entries of `content/` that may have changed since
        the last successful build (see `watching`), each None when any may have."""
        if changes is None or changes.rescan or changes.config or self._since is None:
            self._since = None
            self._since_entries = set()
            return None, None
        self._since |= changes.content
        self._since_entries |= changes.entries
        return frozenset(self._since), frozenset(self._since | self._since_entries)

    def build(self, changes: ChangeSet | None = None) -> BuildReport:
        """Build the site again and return what the build did.

        `changes` (what the watcher saw) triggers the build; the stages find what changed
        themselves, as `postil build` does, except that once the watcher is known to see
        every write (`watching`) the front matter stage examines only the sources it named.

        Never raises for a problem in the site: content, template and configuration errors
        (and, logged with a traceback, bugs) come back as a failed `BuildReport`.
        """
        with self._lock:
            started = time.perf_counter()
            watched = self._watched
            sources, touched = self._changed_sources(changes)
            warnings: list[Diagnostic] = []
            writer: list[MemoryWriter] = []
            self._announced = {}
            try:
                result = self._run(warnings, writer, sources, touched)
                self._remember(writer[0])
                self._since = set() if watched else None
                self._since_entries = set()
            except BuildFailed as e:
                return self._failed(e.diagnostics, warnings, started)
            except PostilError as e:
                error = located(as_diagnostic(e), self.root)
                return self._failed([error], warnings, started)
            except Exception as e:  # a bug must not stop the server; show it like an error
                log.exception("postil serve: the build crashed")
                if self._cache is not None:
                    self._cache.forget_memos()  # trust nothing a crashed build kept
                message = f"internal error: {type(e).__name__}: {e} (see the terminal)"
                error = Diagnostic(Severity.ERROR, Location("<postil>"), message)
                return self._failed([error], warnings, started)
            finally:
                if self._cache is not None:
                    self._cache.close()
            changed = self._commit(writer[0])
            seconds = time.perf_counter() - started
            pages = writer[0].rendered
            entries = writer[0].entries
            early = frozenset(
                rel
                for rel, token in self._announced.items()
                if rel in entries and entries[rel].token == token
            )
            return BuildReport(
                True,
                changed,
                (),
                tuple(warnings),
                result.rendered,
                pages,
                seconds,
                result.next_publication,
                early,
                result.notes,
            )

    def _run(
        self,
        warnings: list[Diagnostic],
        writer: list[MemoryWriter],
        changed: frozenset[Path] | None,
        entries: frozenset[Path] | None = None,
    ) -> BuildResult:
        """Run the pipeline (`changed`, `entries`: see `_changed_sources`); as `postil build` does,
        run it once more with every post rendered afresh if a cached row proved damaged or
        missing (`CacheError`)."""
        cache = self._open_cache()
        try:
            output = self._output(writer, warnings)
            return run(
                self.options,
                cache,
                output,
                on_warning=warnings.append,
                changed=changed,
                entries=entries,
            )
        except CacheError as e:
            log.warning("warning: %s; rendering every post again", e.message)
            cache.forget_memos()
            warnings.clear()
            writer.clear()
            output = self._output(writer, warnings)
            return run(self.options, cache, output, None, False, warnings.append)

    def close(self) -> None:
        """Close the on-disk cache behind the memory cache."""
        with self._lock:
            if self._cache is not None:
                self._cache.shutdown()
                self._cache = None

    def _open_cache(self) -> MemoryCache:
        """Return the memory cache (made on the first build, over `.postil-cache/`, whose
        "page" and "served" rows then tell which page keys are proven)."""
        if self._cache is None:
            disk = BuildCache.open(self.root)
            self._cache = MemoryCache(disk, (*PERSISTED, SERVED, TEMPLATES), SPARE_ROWS, LAZY)
            found = (*disk.fingerprints("page").items(), *disk.fingerprints(SERVED).items())
            self._proven = set(found)
            self._proven_templates = disk.fingerprints(TEMPLATES)
        return self._cache

    def _output(self, made: list[MemoryWriter], warnings: list[Diagnostic]) -> Output:
        """Return the write stage for `run`: the site into a new `MemoryWriter` (in `made`)."""

        def output(
            site: Site,
            env: jinja2.Environment,
            cache: BuildCache,
            keys: dict[str, str],
            jobs: PageJobs,
        ) -> tuple[int, int]:
            templates = templates_text(self.root, cache.memo("templates"))
            if templates != self._templates:
                self._templates, self._templates_ok = (
                    templates,
                    {
                        name
                        for name, digest in self._proven_templates.items()
                        if digest == templates
                    },
                )
            first = None if self.on_first is None else self._first(site, warnings, made)
            writer = MemoryWriter(
                self._entries, self._lock, self._templates_ok, self._proven, self._groups, first
            )
            made.append(writer)
            assets, static = generated_assets(cache, site), site.files
            workers = self.options.workers
            write_site(site, env, writer, cache, assets, static, keys, workers, jobs)
            self.config = site.config
            return len(writer.entries), writer.written + writer.rendered

        return output

    def _first(
        self, site: Site, warnings: list[Diagnostic], made: list[MemoryWriter]
    ) -> Callable[[list[str]], None]:
        """Return the `MemoryWriter`'s `on_first` for a build of `site`: hands `on_first`
        the last good site with those pages replaced (the writer is the one `made` gets)."""
        on_first = self.on_first
        assert on_first is not None

        def first(rels: list[str]) -> None:
            entries = made[-1].entries if made else {}
            new = {rel: data for rel in rels if (data := entries[rel].data) is not None}
            changed = frozenset(
                rel
                for rel in new
                if (old := self._entries.get(rel)) is None or old.token != entries[rel].token
            )
            if not changed:
                return  # nothing to announce: the whole build's event will say it all
            self._announced.update((rel, entries[rel].token) for rel in changed)
            base = site.config.base_path
            files = Overlay(self.files, new)
            on_first(FirstPages(frozenset(new), changed, files, base, tuple(warnings)))

        return first

    def _remember(self, writer: MemoryWriter) -> None:
        """Keep the keys of the pages `writer` rendered in the cache's "served" rows (and
        forget those of pages that are gone), and the templates that rendered without
        error in its "template" rows, for the next dev server."""
        assert self._cache is not None, "a build opened it"
        for rel, key in writer.proved:
            self._cache.put(SERVED, rel, key, None)
        known = self._proven_templates
        for name in self._templates_ok:
            if name and known.get(name) != self._templates:
                self._cache.put(TEMPLATES, name, self._templates, None)
                known[name] = self._templates
        gone = self._entries.keys() - writer.entries.keys()
        if gone:
            self._cache.forget(SERVED, gone)

    def _commit(self, writer: MemoryWriter) -> frozenset[str]:
        """Serve what `writer` holds; return the output rels whose bytes (may have) changed.

        A file whose token changed but whose bytes did not is not among them: a static
        file's token is its stat signature, or its digest while the file is younger than
        `RACY_NS` (`static_token`), so a stylesheet copied just before the server started
        has another token at the first rebuild, with the same bytes; announced, it
        restyled (or, for a script or image, reloaded) every page for nothing."""
        new, old = writer.entries, self._entries
        kept = old.get  # most entries are the very `Entry` of the last build (`reuse`)
        changed = set(new.keys() ^ old.keys()) | {
            rel
            for rel, entry in new.items()
            if (was := kept(rel)) is not entry
            and was is not None
            and was.token != entry.token
            and (was.data is None or was.data != entry.data)
        }
        ready = {rel: e.data for rel, e in new.items() if e.data is not None}
        deferred = {rel: e.lazy for rel, e in new.items() if e.lazy is not None}
        self.files = SiteFiles(ready, deferred, writer.groups)
        self._entries, self._groups = new, writer.groups
        return frozenset(changed)

    def _failed(
        self,
        errors: list[Diagnostic] | tuple[Diagnostic, ...],
        warnings: list[Diagnostic],
        started: float,
    ) -> BuildReport:
        seconds = time.perf_counter() - started
        return BuildReport(False, frozenset(), tuple(errors), tuple(warnings), 0, 0, seconds)
