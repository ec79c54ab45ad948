"""The write stage: render the pages whose inputs changed and put every file of the site
through a writer: `postil.output.SiteWriter` (a directory, swapped in atomically) for
`postil build`, `postil.serve.memory.MemoryWriter` (memory) for `postil serve`.

A page's bytes are a function of its key (`postil.cache.keys.PageKeys`); the key and the
writer's token of the bytes are kept in the build cache ("page" rows, by output path). A
page whose key is the one of the previous build, and whose file the writer still holds
unchanged (`reuse`), is neither rendered nor written.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import jinja2

from postil.cache.keys import PageKeys
from postil.cache.manifest import content_token, output_name
from postil.cache.store import BuildCache
from postil.model import OutputData, OutputFile, Site, output_bytes
from postil.output import SiteWriter, remove_leftovers
from postil.pages import (
    PageJob,
    PageJobs,
    PageSpec,
    page_jobs,
    prepare_env,
    render_job,
    site_files,
)
from postil.parallel import render_pages
from postil.search import SEARCH_DIR, search_index


class Writer(Protocol):
    """Where the write stage puts the site's files (`SiteWriter`, `MemoryWriter`)."""

    def reuse(self, rel: str, token: str) -> bool:
        """Keep the previous output's file at `rel` if it holds `token`; say if kept."""

    def write(self, rel: str, data: OutputData) -> None:
        """Put `data` (bytes or `Pieces`) at `rel` (the first file put at a path wins)."""

    def copy(self, rel: str, source: Path) -> None:
        """Put a copy of the static file `source` at `rel`."""

    def render(
        self,
        env: jinja2.Environment,
        jobs: Sequence[tuple[PageJob, str]],
        workers: int | None,
        first: Collection[str] = (),
    ) -> list[tuple[str, str]]:
        """Render each (job, page key) and put its file; return (rel, token) of each.

        `first`: the rels of the pages of the posts that changed themselves (not of their
        neighbours or lists), which a writer that serves pages as they are ready (the dev
        server) may render and offer before the others; the files are the same either way.
        """

    def render_first(
        self, env: jinja2.Environment, jobs: Sequence[tuple[PageJob, str]], workers: int | None
    ) -> list[tuple[str, str]]:
        """As `render`, for the own pages of the posts that changed themselves, before the
        write stage looks at any other page (`write_site` calls it only when other pages
        render after them); a writer that serves pages as they are ready (the dev server)
        may offer them at once. The files are the same either way."""

    def later(self, prefix: str, key: str, make: Callable[[], list[OutputFile]]) -> None:
        """Put the files `make` returns, all under `prefix` and named by `key` (the same
        key, the same files): now (a directory), or when first asked for (the dev server:
        the search index takes seconds to make and an edit does not wait for it)."""

    def __contains__(self, rel: str) -> bool: ...


def write_site(
    site: Site,
    env: jinja2.Environment,
    writer: Writer,
    cache: BuildCache,
    assets: dict[str, Callable[[], bytes]],
    static: Iterable[tuple[str, Path]],
    keys: Mapping[str, str],
    workers: int | None = None,
    jobs: PageJobs | None = None,
) -> None:
    """Put every page, generated file and static file of `site` through `writer`.

    Args:
        site: the collected site.
        env: the template environment.
        writer: where the files go.
        cache: the build cache ("page" rows).
        assets: generated assets by output path (`postil.build.generated_assets`).
        static: (rel, path) of the static files.
        keys: the `markdown_key` of each post by source path.
        workers: processes to render pages in; None means one per CPU.
        jobs: `page_jobs(site)`, if already listed (`postil.build.run` checks them first).

    Raises:
        TemplateError: a template is missing or fails.
        OutputError: the disk refused a write.
    """
    prepare_env(site, env)
    jobs = jobs if jobs is not None else page_jobs(site, cache.memo("page jobs"))
    pages = cache.load("page")
    page_keys = PageKeys(site, keys, cache.memo("page keys"))
    specs, found = jobs.specs, page_keys.keys(jobs.specs)
    rels = _rels(specs, cache.memo("page rels"))
    todo: dict[str, tuple[PageJob, str]] = {}
    reuse = writer.reuse
    own = _own_pages(site, page_keys.changed)
    ahead = _ahead(specs, found, pages, page_keys, own, len(rels) == len(specs))
    done = []
    for i in ahead:  # the edited posts' own pages, before every other page is looked at
        old = pages.get(specs[i].rel)
        if old is None or old[0] != found[i] or not reuse(specs[i].rel, old[1]):
            todo[specs[i].rel] = (jobs[i], found[i])
    if todo:
        done = writer.render_first(env, list(todo.values()), workers)
    skip = set(ahead)
    first = []
    for i, (spec, key) in enumerate(zip(specs, found, strict=True)):
        old = pages.get(spec.rel)  # the jobs themselves only for pages to render
        if i in skip or (old is not None and old[0] == key and reuse(spec.rel, old[1])):
            continue
        if spec.rel not in todo and spec.rel not in writer:  # the first job at a path wins
            todo[spec.rel] = (jobs[i], key)
            if own(i):
                first.append(spec.rel)
    taken = {rel for rel, _ in done}
    rest = [job for rel, job in todo.items() if rel not in taken]
    done += writer.render(env, rest, workers, first)
    for rel, token in done:
        cache.put("page", rel, todo[rel][1], token)
    cache.forget("page", pages.keys() - rels)
    for out in site_files(site, assets):
        _put(writer, out)
    index = search_index(site, cache, keys)
    if index is not None:
        writer.later(SEARCH_DIR, index.key, index.files)
    for rel, source in static:
        writer.copy(rel, source)


def _own_pages(site: Site, changed: frozenset[str] | None) -> Callable[[int], bool]:
    """Return whether the page at an index of the layout (`pages._layout`: the posts'
    pages, then the standalone pages', then the rest) is the own page of a post in
    `changed` (URLs; None: not known, no page is)."""
    posts, pages = site.posts, site.pages
    if not changed:
        return lambda i: False

    def own(i: int) -> bool:
        if i < len(posts):
            return posts[i].post.url in changed
        i -= len(posts)
        return i < len(pages) and pages[i].post.url in changed

    return own


def _ahead(
    specs: Sequence[PageSpec],
    found: Sequence[str],
    pages: Mapping[str, tuple[str, Any]],
    page_keys: PageKeys,
    own: Callable[[int], bool],
    unique: bool,
) -> list[int]:
    """Return the indices of the own pages of the posts that changed (`own`) to hand the
    writer before any other page (`Writer.render_first`): when `page_keys` made again only
    the keys of the pages that show a changed post (`PageKeys.looked_at`), every page has
    a path of its own (`unique`: the first job at a path wins), and another page that is
    rendered rather than made on request (it shows given posts, `deps`, and is not
    `lazy`) has a new key and renders after them; else none, and every page is looked at
    in order (`Writer.render`'s `first` still names them)."""
    looked_at = page_keys.looked_at
    if not unique or not looked_at or not page_keys.changed:
        return []
    ahead = [i for i in looked_at if own(i)]
    if not ahead:
        return []
    for i in looked_at:
        spec = specs[i]
        if own(i) or spec.deps is None or spec.lazy:
            continue
        old = pages.get(spec.rel)
        if old is None or old[0] != found[i]:
            return ahead  # a page renders after them
    return []


def _rels(specs: Sequence[PageSpec], memo: dict[str, Any]) -> set[str]:
    """Return the output rels of `specs`; `memo` keeps them for the very same specs (a
    layout kept from the last build)."""
    if memo.get("specs") is not specs:
        memo.update(specs=specs, rels={spec.rel for spec in specs})
    rels: set[str] = memo["rels"]
    return rels


def _put(writer: Writer, out: OutputFile) -> None:
    """Put one file through `writer`, keeping the previous output's if it is the same
    (generated files: small, so `Pieces` are joined to be read twice)."""
    data = output_bytes(out.data)
    if not writer.reuse(out.rel, content_token(data)):
        writer.write(out.rel, data)


def write_directory(
    site: Site,
    env: jinja2.Environment,
    out_dir: Path,
    cache: BuildCache,
    assets: dict[str, Callable[[], bytes]],
    static: Iterable[tuple[str, Path]],
    keys: Mapping[str, str],
    workers: int | None = None,
    jobs: PageJobs | None = None,
) -> tuple[int, int]:
    """Write the site into `out_dir` with `write_site` (`jobs` as there), swapping it in
    atomically.

    The manifests of the output and of the spare directory (`SiteWriter`) are kept in the
    build cache ("output" rows); they are dropped before the directories change, so a
    killed build leaves no manifest of a directory it changed.

    Returns:
        (files in the output, files written rather than reused).

    Raises:
        TemplateError, OutputError: as `write_site`.
    """
    name = output_name(out_dir, site.config.root)
    spare_name = f"spare {name}"
    previous, spare = cache.get("output", name, ""), cache.get("output", spare_name, "")
    cache.forget("output", [name, spare_name])
    cache.commit()
    spare_dir = cache.spare_dir(out_dir)
    if spare_dir is not None:  # this build holds the spare lock: no other one is writing
        remove_leftovers(out_dir)
    with SiteWriter(out_dir, previous, spare_dir, spare) as writer:
        write_site(site, env, _Directory(writer), cache, assets, static, keys, workers, jobs)
        manifest = writer.commit()
    cache.put("output", name, "", manifest)
    if writer.retired is not None:
        cache.put("output", spare_name, "", writer.retired)
    return len(manifest), len(manifest) - writer.reused


def check_pages(site: Site, env: jinja2.Environment, jobs: Sequence[PageJob] | None = None) -> int:
    """Render every page (`jobs`, else `page_jobs(site)`) to check the templates, writing
    nothing; return the page count.

    Each page is made to its last byte (`Pieces` read through, as a writer would) and let
    go before the next: a huge post's page and feeds are never held together.

    Raises:
        TemplateError: a template is missing or fails.
    """
    prepare_env(site, env)
    count = 0
    for job in jobs if jobs is not None else page_jobs(site):
        data = render_job(env, job).data
        if not isinstance(data, bytes):
            for _ in data:
                pass
        count += 1
    return count


class _Directory:
    """A `SiteWriter` as a `Writer`: pages rendered by `postil.parallel.render_pages`."""

    def __init__(self, writer: SiteWriter) -> None:
        self._writer = writer
        self.reuse = writer.reuse
        self.write = writer.write
        self.copy = writer.copy

    def __contains__(self, rel: str) -> bool:
        return rel in self._writer

    def later(self, prefix: str, key: str, make: Callable[[], list[OutputFile]]) -> None:
        for out in make():
            _put(self, out)

    def render(
        self,
        env: jinja2.Environment,
        jobs: Sequence[tuple[PageJob, str]],
        workers: int | None,
        first: Collection[str] = (),
    ) -> list[tuple[str, str]]:
        done = render_pages(env, [job for job, _ in jobs], self._writer, workers)
        return [(rel, stamp.token) for rel, stamp in done]

    def render_first(
        self, env: jinja2.Environment, jobs: Sequence[tuple[PageJob, str]], workers: int | None
    ) -> list[tuple[str, str]]:
        return self.render(env, jobs, workers)
