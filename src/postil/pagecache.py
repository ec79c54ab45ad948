"""The page stage with a memory: render only the pages whose inputs changed, write only the
files whose bytes changed (through `postil.output.SiteWriter`), keep the rest.

A page's bytes are a function of its key (`PageKeys`); the key and the digest of the bytes
are kept in the build cache by output path. A page whose key is the one of the previous
build, and whose file in the previous output is untouched, is neither rendered nor written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import jinja2

from postil import __version__
from postil.cache import BuildCache, fingerprint
from postil.model import OutputFile, Site
from postil.output import SiteWriter, content_token, remove_leftovers
from postil.pages import PageJob, page_jobs, prepare_env, render_job, site_files
from postil.parallel import render_pages
from postil.theme import template_dirs


def check_pages(site: Site, env: jinja2.Environment) -> int:
    """Render every page to check the templates, writing nothing; return the page count.

    Raises:
        TemplateError: a template is missing or fails.
    """
    prepare_env(site, env)
    return len([render_job(env, job) for job in page_jobs(site)])


def write_output(
    site: Site,
    env: jinja2.Environment,
    out_dir: Path,
    cache: BuildCache,
    assets: dict[str, Callable[[], str]],
    static: Iterable[tuple[str, Path]],
    keys: Mapping[str, str] | None = None,
    workers: int | None = None,
) -> tuple[int, int]:
    """Render the site's pages that changed and write the output into `out_dir`.

    Args:
        site: the collected site.
        env: the template environment.
        out_dir: the output directory (absolute).
        cache: the build cache (pages, output manifests, the spare output).
        assets: generated assets by output path (`postil.build.generated_assets`).
        static: (rel, path) of the static files.
        keys: the `markdown_key` of each post by source path (else its HTML is hashed).
        workers: processes to render pages in; None means one per CPU.

    Returns:
        (files in the output, files written rather than reused).

    Raises:
        TemplateError: a template is missing or fails.
        OutputError: the disk refused a write.
    """
    prepare_env(site, env)
    jobs = page_jobs(site)
    name, spare_name = str(out_dir), f"spare {out_dir}"
    previous, spare = cache.get("output", name, ""), cache.get("output", spare_name, "")
    cache.forget("output", [name, spare_name])
    cache.commit()  # a killed build must leave no manifest of a directory it changed
    spare_dir = cache.spare_dir(out_dir)
    if spare_dir is not None:  # this build holds the spare lock: no other one is writing
        remove_leftovers(out_dir)
    with SiteWriter(out_dir, previous, spare_dir, spare) as writer:
        _write_pages(writer, env, jobs, PageKeys(site, keys or {}), cache, workers)
        _write_files(writer, site_files(site, assets))
        for rel, source in static:
            writer.copy(rel, source)
        manifest = writer.commit()
    cache.put("output", name, "", manifest)
    if writer.retired is not None:
        cache.put("output", spare_name, "", writer.retired)
    return len(manifest), len(manifest) - writer.reused


def _write_pages(
    writer: SiteWriter,
    env: jinja2.Environment,
    jobs: list[PageJob],
    page_keys: PageKeys,
    cache: BuildCache,
    workers: int | None = None,
) -> None:
    """Reuse each page whose key is unchanged and file untouched; render and write the rest
    (`postil.parallel.render_pages`: in worker processes when there are many)."""
    pages = cache.load("page")
    todo: list[PageJob] = []
    keys: dict[str, str] = {}
    for job in jobs:
        key = page_keys.key(job)
        old = pages.get(job.rel)
        if old is not None and old[0] == key and writer.reuse(job.rel, old[1]):
            continue
        if job.rel not in keys and job.rel not in writer:  # the first job at a path wins
            keys[job.rel] = key
            todo.append(job)
    for rel, stamp in render_pages(env, todo, writer, workers):
        cache.put("page", rel, keys[rel], stamp.token)
    cache.forget("page", pages.keys() - {job.rel for job in jobs})


def _write_files(writer: SiteWriter, outputs: Iterable[OutputFile]) -> None:
    for out in outputs:
        if not writer.reuse(out.rel, content_token(out.data)):
            writer.write(out.rel, out.data)


class PageKeys:
    """The cache keys of a site's pages: what each page's bytes are a function of.

    A page's key covers the templates' text, the site configuration, the page's path and
    template, the site's shape (every post's URL and front matter, in order: lists and
    neighbours), and the fingerprint of every post the page shows (`PageJob.deps`; all
    posts when None), which covers its rendered Markdown and reading time.

    Args:
        site: the collected site.
        keys: the `markdown_key` of each post by source path (else its HTML is hashed).
    """

    def __init__(self, site: Site, keys: Mapping[str, str]) -> None:
        self.posts: dict[str, str] = {}
        shape = []
        for r in (*site.posts, *site.pages):
            post = r.post
            content = keys.get(post.source.rel) or fingerprint(repr(r.content))
            self.posts[post.url] = fingerprint(
                post.source.rel, post.output_rel, repr(post.meta), content, str(r.reading_minutes)
            )
            shape.append(f"{post.url} {post.meta!r}")
        templates = templates_text(site.config.root)
        self.site = fingerprint(__version__, repr(site.config), templates, *shape)
        self.every_post = fingerprint(*self.posts.values())

    def key(self, job: PageJob) -> str:
        """Return the key of one `PageJob`."""
        deps = (
            self.every_post
            if job.deps is None
            else " ".join(sorted(self.posts.get(url, url) for url in job.deps))
        )
        return fingerprint(self.site, job.rel, job.template, deps)


def templates_text(root: Path) -> str:
    """Return one digest of every template file's path and text (site and theme)."""
    parts = []
    for directory in template_dirs(root):
        for path in sorted(directory.rglob("*")):
            if path.is_file():
                parts += [path.as_posix(), path.read_text("utf-8", "replace")]
    return fingerprint(*parts)
