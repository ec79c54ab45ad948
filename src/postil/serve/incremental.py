"""The dev server's build: the whole site in memory, re-rendering only what a change touches.

The first build runs every stage of `postil.build`. After that, each batch of changes runs
the same stages over the same in-memory state, skipping the work whose inputs did not change:

- a changed post is re-read and re-parsed alone, and only its Markdown is rendered again
  (`MarkdownCache`, keyed by content hash, also turns an undo into a cache hit);
- the site is collected again (cheap: sorting), and only the page jobs whose posts changed
  are rendered (`PageJob.deps`: the post, its neighbours, the index page listing it, every
  page that depends on all posts); a job whose dependency set changed (a post moved to
  another index page) is rendered too;
- a template change renders every page but reuses every post's Markdown, except for posts
  with widgets when a template under `templates/widgets/` changed (widgets render during
  Markdown);
- a static file change re-reads that file; postil.yaml or a data file rebuilds everything.

A failed build changes nothing that is served: `files` stays the last good site, and what
changed since then is remembered so the build that fixes the error renders all of it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import jinja2

from postil.build import generated_assets, static_files
from postil.config import load_config
from postil.content.posts import check_unique_urls
from postil.errors import BuildFailed, Diagnostic, Location, PostilError, Severity
from postil.model import Post, RenderedPost, Site, SiteConfig
from postil.pages import PageJob, page_jobs, prepare_env, render_job, site_files
from postil.serve.rendercache import MarkdownCache, uses_widgets
from postil.serve.sitefiles import SiteFiles
from postil.serve.sources import SourceTable, content_error
from postil.serve.watcher import ChangeSet
from postil.site import collect
from postil.theme import create_template_env, template_dirs

log = logging.getLogger("postil.serve")
_MISSING = object()


@dataclass
class _Pages:
    """What `_render_pages` produced: rendered pages, deferred ones, every job's deps."""

    rendered: dict[str, bytes] = field(default_factory=dict)
    deferred: dict[str, Callable[[], bytes]] = field(default_factory=dict)
    late: set[str] = field(default_factory=set)  # deferred pages that may have changed
    deps: dict[str, frozenset[str] | None] = field(default_factory=dict)


@dataclass(frozen=True)
class BuildReport:
    """What one build of the dev server did.

    Attributes:
        ok: the build succeeded and its output is now served.
        changed: output rels ("posts/x/index.html", "css/base.css") whose bytes changed,
            appeared or disappeared, plus the deferred pages that may have changed (those
            showing every post: they are rendered on request); empty when the build failed.
        errors: every error found (the build failed if there is one), in file order.
        warnings: warnings of the posts rendered in this build.
        posts: posts whose Markdown was rendered (cache misses).
        pages: page jobs rendered.
        seconds: wall time of the build.
    """

    ok: bool
    changed: frozenset[str]
    errors: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]
    posts: int
    pages: int
    seconds: float


class IncrementalBuilder:
    """Build a site into memory, then keep it up to date change by change.

    Args:
        root: the site directory (holds postil.yaml).
        drafts: include draft posts (the dev server's default).
        future: include posts dated in the future.

    Attributes:
        files: the last good site, output rel -> bytes. A build replaces the whole mapping at
            once (never mutates it), so a reader holding it sees one consistent site. Pages
            that show every post (archive, feeds, sitemap) are rendered when first read
            (see `postil.serve.sitefiles`).
    """

    def __init__(self, root: Path, drafts: bool = True, future: bool = False) -> None:
        self.root = root.absolute()
        self.drafts = drafts
        self.future = future
        self.files = SiteFiles({})
        self._lock = threading.RLock()
        self._misses_before = 0  # Markdown cache misses when the build started
        self.config: SiteConfig | None = None
        self._env: jinja2.Environment | None = None
        self._sources = SourceTable(self.root)
        self._cache = MarkdownCache()
        self._rendered: dict[str, RenderedPost] = {}
        self._links: dict[str, str] = {}
        self._pages: dict[str, bytes] = {}
        self._generated: dict[str, bytes] = {}
        self._static: dict[str, tuple[Path, tuple[int, int], bytes]] = {}
        self._deps: dict[str, frozenset[str] | None] = {}
        # What differs from the last good site; kept across failed builds.
        self._dirty_urls: set[str] = set()
        self._touched: set[str] = set()
        self._all_pages = True
        self._reload_all = True

    def build(self, changes: ChangeSet | None = None) -> BuildReport:
        """Apply `changes` (None: rebuild everything) and return what the build did.

        Never raises for a problem in the site: content, template and configuration errors
        (and, logged with a traceback, bugs) come back as a failed `BuildReport`.
        """
        with self._lock:
            return self._guarded(changes or ChangeSet(config=True), time.perf_counter())

    def _guarded(self, changes: ChangeSet, started: float) -> BuildReport:
        self._misses_before = self._cache.misses
        try:
            return self._build(changes, started)
        except BuildFailed as e:
            return self._failed(e.diagnostics, started)
        except PostilError as e:
            location = _relative(self.root, e.location or Location("<site>"))
            error = Diagnostic(Severity.ERROR, location, e.message, _excerpt(self.root, location))
            return self._failed([error], started)
        except Exception as e:  # a bug must not stop the server; show it like an error
            log.exception("postil serve: the build crashed")
            message = f"internal error: {type(e).__name__}: {e} (see the terminal)"
            return self._failed(
                [Diagnostic(Severity.ERROR, Location("<postil>"), message)], started
            )

    def _build(self, changes: ChangeSet, started: float) -> BuildReport:
        if changes.config or self._reload_all:
            self._load_everything()
        else:
            self._apply(changes)
        site, warnings = self._collect()
        pages = self._render_pages(site)
        changed = self._commit(pages)
        posts = self._cache.misses - self._misses_before
        seconds = time.perf_counter() - started
        return BuildReport(True, changed, (), warnings, posts, len(pages.rendered), seconds)

    def _failed(
        self, errors: tuple[Diagnostic, ...] | list[Diagnostic], started: float
    ) -> BuildReport:
        posts = self._cache.misses - self._misses_before
        seconds = time.perf_counter() - started
        return BuildReport(False, frozenset(), tuple(errors), (), posts, 0, seconds)

    def _load_everything(self) -> None:
        """Read postil.yaml, every source and every static file again; render all pages."""
        self._reload_all = True
        self.config = load_config(self.root)
        self._env = create_template_env(self.root)
        self._sources.rescan(self.config, force=True)
        self._read_static(None)
        self._all_pages = True
        self._reload_all = False

    def _apply(self, changes: ChangeSet) -> None:
        """Re-read the sources, templates and static files in `changes`."""
        assert self.config is not None
        if changes.templates:
            self._env = create_template_env(self.root)
            self._all_pages = True
            if any(_is_widget_template(self.root, p) for p in changes.templates):
                self._forget_widget_posts()
        if changes.rescan:
            self._sources.rescan(self.config)
        for path in sorted(changes.content):
            self._sources.reload(self.config, path)
        if changes.static:
            self._read_static(changes.static)

    def _forget_widget_posts(self) -> None:
        assert self.config is not None
        posts = [
            r.post for r in self._rendered.values() if r.content.widgets or uses_widgets(r.post)
        ]
        self._cache.forget(self.config, posts)
        for post in posts:
            self._rendered.pop(post.source.rel, None)

    def _collect(self) -> tuple[Site, tuple[Diagnostic, ...]]:
        """Render the Markdown of changed posts, check for errors, and collect the site.

        Raises:
            BuildFailed: a source could not be parsed, two posts share a URL, or Markdown
                rendering reported an error; every error of the site is listed.
        """
        assert self.config is not None
        posts = self._sources.posts()
        errors = self._sources.errors()
        errors += [content_error(e, _text_of(posts, e.location)) for e in check_unique_urls(posts)]
        rendered, warnings = self._render_posts(posts)
        for r in rendered:
            errors += [d for d in r.content.diagnostics if d.severity is Severity.ERROR]
        if errors:
            raise BuildFailed(sorted(errors, key=lambda d: d.location))
        now = datetime.now(timezone.utc)
        return collect(self.config, rendered, now, self.drafts, self.future), warnings

    def _render_posts(self, posts: list[Post]) -> tuple[list[RenderedPost], tuple[Diagnostic, ...]]:
        """Render the posts whose source or looked-up links changed; reuse the others."""
        assert self.config is not None
        links = {p.source.rel: p.url for p in posts}
        links_changed = links != self._links
        rendered: dict[str, RenderedPost] = {}
        warnings: list[Diagnostic] = []
        for post in posts:
            rel = post.source.rel
            old = self._rendered.get(rel)
            if old is not None and old.post is post and not links_changed:
                rendered[rel] = old
                continue
            new = rendered[rel] = self._cache.render(self.config, post, links, self._env)
            if old is None or old.content is not new.content or old.post is not post:
                self._dirty_urls.update({new.post.url} | ({old.post.url} if old else set()))
                warnings += [d for d in new.content.diagnostics if d.severity is Severity.WARNING]
        for rel in self._rendered.keys() - rendered.keys():
            self._dirty_urls.add(self._rendered[rel].post.url)
        self._rendered, self._links = rendered, links
        self._cache.trim(len(rendered))
        return list(rendered.values()), tuple(warnings)

    def _render_pages(self, site: Site) -> _Pages:
        """Render the page jobs whose posts changed (all of them after a template change).

        Pages that show every post (`deps=None`: archive, tag index, feeds, sitemap) are
        deferred: rendered when first requested (`SiteFiles`), since their cost grows with
        the site and most edits are looked at on the post's own page. After a template or
        config change the HTML ones are rendered at once, so a template error in them is
        reported with the others.

        Raises:
            TemplateError: a template is missing or fails.
        """
        assert self._env is not None
        env = prepare_env(site, self._env)
        if self._all_pages:
            self._set_generated(site)
        out = _Pages()
        for job in page_jobs(site):
            out.deps[job.rel] = job.deps
            stale = self._stale(job)
            costly = job.deps is None or job.lazy
            defer = costly and not (self._all_pages and job.rel.endswith(".html"))
            if defer and stale:
                out.deferred[job.rel] = partial(self._render_late, site, env, job)
                out.late.add(job.rel)
            elif defer:
                out.deferred[job.rel] = self.files.maker(job.rel)
            elif stale:
                out.rendered[job.rel] = render_job(env, job).data
        return out

    def _stale(self, job: PageJob) -> bool:
        """Return whether a job's page may differ from the last good build's."""
        if self._all_pages or self._deps.get(job.rel, _MISSING) != job.deps:
            return True
        if job.deps is None:
            return bool(self._dirty_urls)
        return not job.deps.isdisjoint(self._dirty_urls)

    def _render_late(self, site: Site, env: jinja2.Environment, job: PageJob) -> bytes:
        with self._lock:
            return render_job(prepare_env(site, env), job).data

    def _set_generated(self, site: Site) -> None:
        generated = {f.rel: f.data for f in site_files(site, generated_assets())}
        self._touched |= generated.keys() | self._generated.keys()
        self._generated = generated

    def _commit(self, new: _Pages) -> frozenset[str]:
        """Make the new site the served one; return the output rels whose bytes changed.

        A deferred page that may have changed counts as changed (it is rendered later).
        """
        removed = self._deps.keys() - new.deps.keys()
        pages = self._pages | new.rendered
        ready = dict(self.files.ready)
        for rel in removed | new.deferred.keys():
            pages.pop(rel, None)
        for rel in new.deferred:
            ready.pop(rel, None)
        changed = set(new.late)
        for rel in self._touched | new.rendered.keys() | removed:
            data = pages.get(rel, self._generated.get(rel))
            if data is None and rel in self._static:
                data = self._static[rel][2]
            if rel in new.deferred or data is None:
                if ready.pop(rel, None) is not None and rel not in new.deferred:
                    changed.add(rel)
            elif ready.get(rel) != data:
                ready[rel] = data
                changed.add(rel)
        self.files = SiteFiles(ready, new.deferred, self._lock)
        self._pages, self._deps = pages, new.deps
        self._dirty_urls.clear()
        self._touched.clear()
        self._all_pages = False
        return frozenset(changed)

    def _read_static(self, paths: set[Path] | None) -> None:
        """Re-read static files that changed (by event or by size and mtime); all if None."""
        fresh: dict[str, tuple[Path, tuple[int, int], bytes]] = {}
        for rel, path in static_files(self.root):
            old = self._static.get(rel)
            try:
                stat = path.stat()
                signature = (stat.st_mtime_ns, stat.st_size)
                if paths is None or old is None or old[:2] != (path, signature) or path in paths:
                    old = (path, signature, path.read_bytes())
            except OSError:  # deleted between listing and reading; the next event tells
                continue
            fresh[rel] = old
        self._touched |= {
            r for r in fresh.keys() | self._static.keys() if fresh.get(r) != self._static.get(r)
        }
        self._static = fresh


def _is_widget_template(root: Path, path: Path) -> bool:
    """Return whether `path` is under `widgets/` of one of the template directories."""
    return any(
        path.is_relative_to(d) and path.relative_to(d).parts[:1] == ("widgets",)
        for d in template_dirs(root)
    )


def _text_of(posts: list[Post], location: Location | None) -> str:
    return next((p.source.text for p in posts if location and p.source.rel == location.path), "")


def _excerpt(root: Path, location: Location) -> str:
    """Return line `location.line` of the file `location.path` (relative to `root`), or ""."""
    if location.line <= 0:
        return ""
    try:
        lines = (root / location.path).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[location.line - 1] if location.line <= len(lines) else ""


def _relative(root: Path, location: Location) -> Location:
    """Return `location` with its path relative to `root` when it is a file under it."""
    path = Path(location.path)
    if path.is_absolute() and path.is_relative_to(root):
        return Location(path.relative_to(root).as_posix(), location.line, location.col)
    return location
