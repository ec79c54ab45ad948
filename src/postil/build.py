"""The build: the pipeline of docs/architecture.md, from `postil.yaml` to the written site.

    discover + front matter   postil.content.load.load_posts
    render Markdown           postil.render.render_posts
    check anchors             postil.anchors.check_anchors
    collect the site          postil.site.collect
    render pages + write      postil.write.write_site (into a directory, or into memory)

`run` runs them once; `build` runs them for `postil build` and `postil check`, and the dev
server (`postil.serve.engine`) runs the same `run` on every save. Each stage skips the work
an earlier build already did (`postil.cache`): front matter is parsed again only for
changed sources, Markdown rendered again only for posts whose `markdown_key` changed (in
worker processes when there are many, `postil.parallel`), pages rendered again only when
a post they show or a template changed, and output files whose bytes did not change are
kept. A warm build with nothing changed renders nothing.
"""

from __future__ import annotations

import functools
import gc
import logging
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import partial
from itertools import chain, compress
from operator import and_, eq, is_, is_not, not_
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from postil import parallel
from postil.anchors import check_anchors
from postil.assets import SiteAssets, site_assets, unread_sources
from postil.bibliography.load import load_bibliographies
from postil.cache.keys import fingerprint, markdown_keys, templates_text
from postil.cache.rows import RenderedRows
from postil.cache.store import BuildCache, CacheError
from postil.config import config_warnings, load_config
from postil.content.load import load_posts
from postil.errors import BuildFailed, Diagnostic, Severity, as_diagnostic, located, plural
from postil.images import image_sizes, unreadable_images
from postil.model import FrontMatter, OutputFile, Post, RenderedPost, Site
from postil.output import check_output_dir
from postil.outputs import check_nav_links, check_references, check_social_images, site_outputs
from postil.pages import PageJobs, page_jobs
from postil.render import AssetMaps, render_posts
from postil.site import collect, is_published
from postil.sitemap import robots_note
from postil.sourcelinks import check_source_links
from postil.theme import broken_template_links, create_template_env
from postil.write import check_pages, write_directory

if TYPE_CHECKING:
    pass

log = logging.getLogger("postil")


@dataclass(frozen=True)
class BuildOptions:
    """What to build and where.

    Attributes:
        root: the site directory (holds postil.yaml).
        out_dir: the output directory (default `root/_site`).
        drafts: include drafts.
        future: include posts dated in the future.
        base_url: override the config's base_url.
        strict: treat warnings as errors.
        write: write the output (False: check only).
        cache: read and write the build cache in `root/.postil-cache` (`--no-cache`: False).
        workers: processes for rendering Markdown; None means one per CPU.
    """

    root: Path
    out_dir: Path | None = None
    drafts: bool = False
    future: bool = False
    base_url: str | None = None
    strict: bool = False
    write: bool = True
    cache: bool = True
    workers: int | None = None


@dataclass(frozen=True)
class BuildResult:
    """What a build did: files in the output, posts built, warnings, seconds taken.

    Attributes:
        warnings: every warning of the site, in file order.
        rendered: posts whose Markdown was rendered (not taken from the cache).
        written: output files written (the others were linked unchanged from the last output).
        next_publication: the earliest date of a post left out because it is dated in the
            future (the dev server builds again then), or None.
        notes: lines for the build's output about what was left out on purpose and why
            (no robots.txt on a project site: `postil.sitemap.robots_note`).
    """

    files: int
    posts: int
    warnings: tuple[Diagnostic, ...]
    seconds: float
    rendered: int = 0
    written: int = 0
    next_publication: datetime | None = None
    notes: tuple[str, ...] = ()


def build(
    options: BuildOptions,
    now: datetime | None = None,
    font_process: parallel.Standby[None] | None = None,
) -> BuildResult:
    """Build the site described by `options` into its output directory.

    A cache row found damaged or missing while pages are rendered (`CacheError`: bit rot,
    another build pruning it) does not fail the build: it is built once more with every
    post rendered afresh, which rewrites the rows, and a warning says so.

    `font_process`: the math font's process (a `parallel.Standby` of
    `mathfont.import_font_tools`), started by the
    caller before this module was imported (`postil build` on a cold site: it then
    imports fontTools while this process imports postil, on a CPU that would be idle).
    The build uses it when it needs one (`_font_standby`) and stops it otherwise, also
    when the build fails; None: the build starts one itself when it needs one.

    Raises:
        ConfigError: postil.yaml is missing or invalid.
        BuildFailed: content errors (and warnings under `strict`), all of them, in file order;
            nothing is written and the previous output stays as it was.
        TemplateError, OutputError: the theme or the disk failed.
    """
    if options.write:  # before any work: a refused directory needs no build to report
        check_output_dir(_out_dir(options), options.root)
    with collecting_less():
        for trusted in (True, False):
            cache = BuildCache.open(options.root) if options.cache else BuildCache.disabled()
            if font_process is not None:  # for the first attempt only
                cache.memo(FONT_MEMO)["early"], font_process = font_process, None
            try:
                return run(options, cache, _to_directory(options), now, trusted, _log_warning)
            except CacheError as e:
                if not options.cache or not trusted:
                    raise CacheError(f"{e.message}; run `postil clean` and build again") from e
                log.warning("warning: %s; rendering every post again", e.message)
            finally:
                unused = cache.memo(FONT_MEMO).pop("early", None)
                if unused is not None:  # the build stopped before `_font_standby`
                    unused.close()
                cache.close()
    raise AssertionError("unreachable: the second attempt returns or raises")


@contextmanager
def collecting_less() -> Iterator[None]:
    """Run a build with fewer of the garbage collector's passes over the heap.

    A build makes few reference cycles but many objects (a warm build of 1,000 posts
    unpickles ≈ 100,000), and CPython's collector walks the young ones every 700
    allocations and, now and then, every object: ≈ 70 ms of a 0.6 s warm build, 25 ms
    with what is alive now frozen (`gc.freeze`: the imported modules) and a young
    generation of 10,000 objects. Restored on the way out (the dev server builds in a
    long-lived process).
    """
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


Output = Callable[[Site, jinja2.Environment, BuildCache, dict[str, str], PageJobs], tuple[int, int]]
"""The last stage: writes a collected site somewhere (its page jobs given, `page_jobs`);
returns (files, files written)."""


def run(
    options: BuildOptions,
    cache: BuildCache,
    output: Output,
    now: datetime | None = None,
    trusted: bool = True,
    on_warning: Callable[[Diagnostic], None] | None = None,
    changed: Collection[Path] | None = None,
    entries: Collection[Path] | None = None,
) -> BuildResult:
    """Run the pipeline once: discover and parse the sources, render their Markdown,
    collect the site, then hand it to `output` (which renders and writes its pages).

    `postil build` and `postil check` call it through `build` with the site's cache and a
    directory (or nothing) as output; `postil serve` calls it on every save with a
    `MemoryCache` and a `postil.serve.memory.MemoryWriter`. The warnings it returns and the
    errors it raises are the same for all of them.

    Args:
        options: what to build.
        cache: the build cache (any `BuildCache`; closed by the caller).
        output: the write stage.
        now: the build time (default: the clock), against which future posts are judged.
        trusted: False to render every post again instead of using cached Markdown.
        on_warning: called with each warning, in file order, once all posts are rendered
            (also when errors then fail the build; not under `strict`, where warnings are
            errors).
        changed: the source files that may have changed since the last build with this
            cache, when something proves that no other did (a dev server's watcher:
            `postil.serve.engine.DevBuild`); None (`postil build`): any file may have.
            Only the front matter stage reads it (`load_posts`), to leave the others
            unexamined; every stage after it finds what changed by what it is handed.
        entries: with `changed`, the entries under `content/` made, removed or renamed
            since that build (temp files too), which the same watcher proves are the only
            ones; None: any may have been (`postil.content.discover.walk_content`).

    Raises:
        As `build`; `CacheError` when a cached row proved damaged.
    """
    started = time.perf_counter()
    config = load_config(options.root, options.base_url)
    posts, diagnostics = load_posts(config, cache, changed, entries)
    failed = frozenset(d.location.path for d in diagnostics if d.severity is Severity.ERROR)
    diagnostics += config_warnings(config)
    when = now or datetime.now(timezone.utc)
    # Drafts and future posts left out are not rendered at all, so a link to one is
    # reported like a link to a missing post instead of becoming a 404 on the site.
    chosen = _published(posts, when, options, cache.memo("published"))
    upcoming_first, sources, (posts, published) = chosen.upcoming, chosen.sources, chosen.posts
    assets, problems = site_assets(config, sources, published, cache.memo("content"))
    problems = problems + broken_template_links(config.root)
    diagnostics += [as_diagnostic(e) for e in problems] + unread_sources(assets)
    env = _template_env(config.root, cache)
    rows = RenderedRows(cache, trusted)
    keys = markdown_keys(config, posts, cache.memo("markdown keys"))
    bibliographies, problems_bib = load_bibliographies(config, posts, cache)
    diagnostics += problems_bib
    sizes = image_sizes(assets.files, cache)
    diagnostics += unreadable_images(assets.files, sizes, assets.origins)
    maps = AssetMaps(assets.by_source, sizes, bibliographies)
    with _font_standby(options, cache, posts):
        rendered, found = render_posts(config, posts, env, cache, rows, options.workers, keys, maps)
        rows.prune()
        site = collect(
            config, rendered, when, options.drafts, options.future, assets.files, cache.memo("site")
        )
        jobs = page_jobs(site, cache.memo("page jobs"))  # listed once: checked, then rendered
        diagnostics += (
            found
            + check_anchors(rendered, cache.memo("anchors"))
            + check_site(site, assets, jobs, cache)
            + check_source_links(rendered, _held_back(chosen, options), failed, chosen.sources)
        )
        diagnostics = [located(d, config.root) for d in diagnostics]
        _fail_on(diagnostics, options.strict, on_warning)
        by_rel = _content_keys(posts, keys, rows, cache.memo("content keys"))
        files, written = output(site, env, cache, by_rel, jobs)
    warnings = tuple(_warnings(diagnostics))
    seconds = time.perf_counter() - started
    held = held_back_note(_held_back(chosen, options), upcoming_first)
    notes = tuple(n for n in [held, robots_note(config.base_url)] if n)
    return BuildResult(
        files, len(site.posts), warnings, seconds, rows.added, written, upcoming_first, notes
    )


@dataclass(frozen=True)
class Published:
    """Which of the posts `load_posts` found go into the build (`_published`).

    Attributes:
        upcoming: the earliest date of a post left out only because it is still to come.
        sources: every post's source rel, published or not (in order).
        posts: the published posts (in order) and their URLs by source rel.
        since: the build time it was made at.
        until: the first date of any post after `since` (None: none): before it, no post's
            date passes the clock.
        inputs: the posts, `drafts` and `future` it was made from.
        places: for each of those posts, its index in the published posts (-1: left out).
    """

    upcoming: datetime | None
    sources: list[str]
    posts: tuple[list[Post], dict[str, str]]
    since: datetime
    until: datetime | None
    inputs: tuple[list[Post], bool, bool]
    places: list[int]

    @classmethod
    def of(cls, posts: list[Post], when: datetime, options: BuildOptions) -> Published:
        """Return which of `posts` go into a build at `when` (a pass over every post)."""
        drafts, future = options.drafts, options.future
        upcoming = [
            d for p in posts if (d := p.meta.published_at) and _upcoming(p.meta, when, options)
        ]
        places: list[int] = []
        kept: list[Post] = []
        for post in posts:
            places.append(len(kept) if is_published(post.meta, when, drafts, future) else -1)
            if places[-1] >= 0:
                kept.append(post)
        later = [d for p in posts if (d := p.meta.published_at) is not None and d > when]
        return cls(
            min(upcoming, default=None),
            [p.source.rel for p in posts],
            (kept, {p.source.rel: p.url for p in kept}),
            when,
            min(later, default=None),
            (posts, drafts, future),
            places,
        )

    def after(self, posts: list[Post], when: datetime, options: BuildOptions) -> Published | None:
        """Return this answer for `posts` at `when`, or None when it cannot be proven the
        same: every post that is not the very object it was made from (found by identity,
        in C) has the same source, URL, dates and draft flag, and no date lies between
        `since` and `when`; the changed posts take their places in the published list."""
        before, drafts, future = self.inputs
        if (drafts, future) != (options.drafts, options.future) or len(before) != len(posts):
            return None
        if when < self.since or (self.until is not None and when >= self.until):
            return None
        changed = list(compress(range(len(posts)), map(is_not, posts, before)))
        if not changed:
            return self if before is posts else replace(self, inputs=(posts, drafts, future))
        for i in changed:
            old, new = before[i], posts[i]
            if (old.source.rel, old.url, old.meta.date, old.meta.publish_date, old.meta.draft) != (
                new.source.rel,
                new.url,
                new.meta.date,
                new.meta.publish_date,
                new.meta.draft,
            ):
                return None
        kept = list(self.posts[0])  # a new list: the last build's stages keep the old one
        for i in changed:
            if self.places[i] >= 0:
                kept[self.places[i]] = posts[i]
        return replace(self, posts=(kept, self.posts[1]), inputs=(posts, drafts, future))


def held_back_note(held: dict[str, str], upcoming: datetime | None) -> str:
    """Return the line telling what a build left out on purpose, or "" for nothing: the
    drafts (`--drafts` builds them) and the posts still to come (`--future`; the first one's
    date, when the build goes out again), so a post missing from `_site/` is explained.

    Args:
        held: the reason of each source left out, "draft" or "future" (`_held_back`).
        upcoming: the earliest date of a post left out only because it is still to come.
    """
    drafts = sum(reason == "draft" for reason in held.values())
    future = len(held) - drafts
    parts = [f"{plural(drafts, 'draft')} (--drafts builds them)"] if drafts else []
    if future:
        first = f", the first dated {upcoming:%Y-%m-%d %H:%M %Z}" if upcoming else ""
        parts.append(f"{plural(future, 'post')} dated in the future (--future builds them{first})")
    return f"note: left out {' and '.join(parts)}" if parts else ""


def _held_back(chosen: Published, options: BuildOptions) -> dict[str, str]:
    """Return the sources `chosen` leaves out, by source path: "draft" (built with
    `--drafts`), else "future" (a date still to come; `--future`)."""
    everyone = chosen.inputs[0]
    return {
        post.source.rel: "draft" if post.meta.draft and not options.drafts else "future"
        for post, place in zip(everyone, chosen.places, strict=True)
        if place < 0
    }


def _published(
    posts: list[Post], when: datetime, options: BuildOptions, memo: dict[str, Any]
) -> Published:
    """Return which of `posts` go into a build at `when`; `memo` keeps the last answer,
    taken again while it is provably the same (`Published.after`: a dev server's edit
    of one post's body costs a pass over pointers, not a Python call a post)."""
    last: Published | None = memo.get("last")
    found = last.after(posts, when, options) if last is not None else None
    if found is None:
        found = Published.of(posts, when, options)
    memo["last"] = found
    return found


def _content_keys(
    posts: list[Post], keys: list[str], rows: RenderedRows, memo: dict[str, Any]
) -> dict[str, str]:
    """Return each post's content key (`Rendered.content_key`) by source path; `memo` keeps
    the last call's, reused for a post at the same place with the same key and row."""
    rels = [p.source.rel for p in posts]
    found = rows.lookup(keys)
    last = memo.get("last")
    if last is not None and last[0] == rels:
        by_rel = dict(last[3])
        same = map(and_, map(eq, keys, last[1]), map(is_, found, last[2]))
        redo: Iterable[int] = compress(range(len(rels)), map(not_, same))
    else:
        by_rel, redo = {}, range(len(rels))
    for i in redo:
        rendered = found[i]
        assert rendered is not None, "render_posts rendered every post"
        by_rel[rels[i]] = rendered.content_key(keys[i])
    memo["last"] = (rels, keys, found, by_rel)
    return by_rel


def _to_directory(options: BuildOptions) -> Output:
    """Return the write stage of `options`: the output directory, or (check) nothing."""

    def output(
        site: Site,
        env: jinja2.Environment,
        cache: BuildCache,
        keys: dict[str, str],
        jobs: PageJobs,
    ) -> tuple[int, int]:
        if not options.write:
            pages = check_pages(site, env, jobs)
            return pages, pages
        assets, static = generated_assets(cache, site), site.files
        out_dir = _out_dir(options)
        return write_directory(
            site, env, out_dir, cache, assets, static, keys, options.workers, jobs
        )

    return output


def _template_env(root: Path, cache: BuildCache) -> jinja2.Environment:
    """Return the template environment of the site at `root`: the last build's while the
    templates are the same (`BuildCache.memo`: a dev server's rebuild then loads no
    compiled template again), else a new one."""
    memo = cache.memo("environment")
    key = (root, cache.bytecode_dir(), templates_text(root, cache.memo("templates")))
    if memo.get("key") != key:
        memo.update(key=key, env=create_template_env(root, key[1]))
    env: jinja2.Environment = memo["env"]
    return env


def _upcoming(meta: FrontMatter, now: datetime, options: BuildOptions) -> bool:
    """Return whether a post is left out only because its date is still to come."""
    dated = meta.published_at is not None and meta.published_at > now
    return dated and not options.future and (options.drafts or not meta.draft)


def _out_dir(options: BuildOptions) -> Path:
    return (options.out_dir or options.root / "_site").absolute()


def _log_warning(warning: Diagnostic) -> None:
    log.warning("%s", warning.report())


def generated_assets(
    cache: BuildCache | None = None,
    site: Site | None = None,
    chars_memo: dict[str, Any] | None = None,
) -> dict[str, Callable[[], bytes]]:
    """Return the assets generated at build time by output path, each made when called.

    The Pygments stylesheet, and for a site with math the math font subset to the
    characters of its formulas with the font's licence (`postil.mathfont`).

    Args:
        cache: keeps the stylesheet (which changes only with Pygments or postil, which
            empty the cache, so a build that renders no code need not import Pygments) and
            the font, by the fingerprint of its character set.
        site: the site whose formulas the font must draw; None for no font.
        chars_memo: the scratch dictionary that keeps the font's characters
            (`_math_chars`); by default the cache's.
    """
    assets = {
        "css/pygments.css": lambda: _cached_asset(cache, "css/pygments.css", "", _pygments_css)
    }
    memo = chars_memo if chars_memo is not None or cache is None else cache.memo("math chars")
    chars = _math_chars(site, memo) if site is not None else ""
    standby = cache.memo(FONT_MEMO).pop("standby", None) if cache is not None else None
    if chars:
        from postil import mathfont

        key = fingerprint(chars)
        kept = cache.get("asset", mathfont.FONT_REL, key) if cache is not None else None
        font: Callable[[], bytes] = partial(mathfont.subset_woff2, chars)
        license_text: Callable[[], bytes] = mathfont.license_text
        if cache is not None and not isinstance(kept, bytes):
            # Subsetting takes 0.3-0.5 s of CPU: begun now, in another process, while the
            # pages render; with its licence, so that this process never imports fontTools.
            files = functools.cache(
                standby.run(mathfont.font_files, chars)
                if standby is not None
                else parallel.in_background(mathfont.font_files, None, chars)
            )
            standby = None
            font, license_text = (lambda: files()[0]), (lambda: files()[1])
        assets[mathfont.FONT_REL] = partial(_cached_asset, cache, mathfont.FONT_REL, key, font)
        assets[mathfont.LICENSE_REL] = partial(
            _cached_asset, cache, mathfont.LICENSE_REL, "", license_text
        )
    if standby is not None:
        standby.close()
    return assets


FONT_MEMO = "math font"
"""The `BuildCache.memo` through which `_font_standby` hands its process to
`generated_assets`."""


@contextmanager
def _font_standby(options: BuildOptions, cache: BuildCache, posts: list[Post]) -> Iterator[None]:
    """Start the math font's process before the posts render when the write stage will
    likely have to make the font, and stop it afterwards if `generated_assets` did not use it.

    Likely means: the build writes, the cache holds no font from an earlier build (a cold
    build, `--no-cache`, a dev server's first build) and some source has TeX-looking text.
    The process imports fontTools (≈ 0.2 s of CPU, `mathfont.import_font_tools`) while the
    posts render, when the CPUs still have slack (the pool starting, its last chunks); a
    wrong guess costs that import in another process, never a different output. A process
    `build` was handed (in the memo as "early": started before postil was imported) is
    taken instead of a new one, or stopped when none is needed.
    """
    from postil import mathfont

    memo = cache.memo(FONT_MEMO)
    early = memo.pop("early", None)
    if (
        options.write
        and mathfont.FONT_REL not in cache.names("asset")
        and any(_looks_like_tex(p.source.text) for p in posts)
    ):
        memo["standby"] = (
            early if early is not None else parallel.Standby(mathfont.import_font_tools)
        )
    elif early is not None:
        early.close()
    try:
        yield
    finally:
        standby = memo.pop("standby", None)
        if standby is not None:
            standby.close()


def _looks_like_tex(text: str) -> bool:
    return "$" in text or "\\(" in text or "\\[" in text or "\\begin" in text


def _math_chars(site: Site, memo: dict[str, Any] | None = None) -> str:
    """Return the characters the math font must hold for every formula of `site`
    (`memo`: the last answer, kept while every post's characters are the same, and not
    looked at while every post's rendered content is the very same object)."""
    memo = memo if memo is not None else {}
    contents = [r.content for r in site.posts + site.pages]
    last = memo.get("contents")
    if last is not None and len(last) == len(contents) and all(map(is_, contents, last)):
        kept: str = memo["chars"]
        return kept
    found = [content.math_chars for content in contents]
    if memo.get("found") != found:
        used = set().union(*found)
        from postil.mathfont import subset_chars

        memo.update(found=found, chars=subset_chars(used) if used else "")
    memo["contents"] = contents
    chars: str = memo["chars"]
    return chars


def _pygments_css() -> bytes:
    from postil.markdown.code import pygments_css

    return pygments_css().encode()


def _cached_asset(cache: BuildCache | None, rel: str, key: str, make: Callable[[], bytes]) -> bytes:
    """Return the asset at `rel` from the cache if it was made from `key`, else make it."""
    data = cache.get("asset", rel, key) if cache is not None else None
    if not isinstance(data, bytes):
        data = make()
        if cache is not None:
            cache.put("asset", rel, key, data)
    return data


def check_site(
    site: Site, assets: SiteAssets, jobs: PageJobs | None = None, cache: BuildCache | None = None
) -> list[Diagnostic]:
    """Return the errors of output paths claimed twice and the warnings of references to
    files the site does not publish (`postil.outputs`).

    Args:
        jobs: the site's `page_jobs`, if already listed (the write stage renders them).
        cache: its scratch dictionaries (`BuildCache.memo`) keep the font's characters, and
            each post's reference warnings while the site's outputs are the same: a dev
            server's rebuild checks the references of the posts an edit changed.
    """
    chars_memo = cache.memo("math chars") if cache is not None else None
    generated = [*generated_assets(None, site, chars_memo), ".nojekyll"]
    generated += ["CNAME"] if site.config.cname else []
    jobs = jobs if jobs is not None else page_jobs(site)
    memo = cache.memo("references") if cache is not None else {}
    outputs, problems = _outputs(site, jobs, generated, assets.origins, memo)
    base_path = site.config.base_path
    references = _references(site.posts + site.pages, outputs, memo, base_path)
    images = check_social_images(site, outputs)
    return problems + references + images + check_nav_links(site, outputs)


def _outputs(
    site: Site,
    jobs: PageJobs,
    generated: list[str],
    origins: Mapping[str, str],
    memo: dict[str, Any],
) -> tuple[dict[str, str], list[Diagnostic]]:
    """Return `site_outputs`; `memo` keeps the last answer, the very same while what it is
    made of is the same: every post's output and source path, the page layout (the same
    `PageSpec`s), the generated files and the published files' origins."""
    posts = [r.post for r in site.posts + site.pages]
    last = memo.get("outputs of")
    before: list[Post] = last[0][0] if last is not None else []
    if (
        last is not None
        and last[1] is jobs.specs
        and (generated, origins) == last[0][1:]
        and len(posts) == len(before)
        and all(
            _same_output(before[i], posts[i])
            for i in compress(range(len(posts)), map(is_not, before, posts))
        )
    ):
        found: tuple[dict[str, str], list[Diagnostic]] = last[2]
    else:
        found = site_outputs(site, jobs.specs, generated, origins)
    memo["outputs of"] = ((posts, generated, origins), jobs.specs, found)
    return found[0], list(found[1])


def _same_output(a: Post, b: Post) -> bool:
    return a.output_rel == b.output_rel and a.source.rel == b.source.rel


def _references(
    shown: tuple[RenderedPost, ...], outputs: dict[str, str], memo: dict[str, Any], base_path: str
) -> list[Diagnostic]:
    """Return `check_references` of every post and page, reusing from `memo` the warnings
    of a post whose rendered content is the very object checked last time against the
    same (or equal) outputs and base path; while the posts are in the same order, the posts whose
    content is another object are found by identity (in C) and only they are looked at."""
    contents = [page.content for page in shown]
    last = memo.get("checked")
    same_outputs = last is not None and (last[0] is outputs or last[0] == outputs)
    same_outputs = same_outputs and last is not None and last[4] == base_path
    rels: list[str] | None = None
    if same_outputs and last is not None and len(last[1]) == len(contents):
        found = list(last[2])
        redo = list(compress(range(len(contents)), map(is_not, contents, last[1])))
        rels = last[3]
        if any(shown[i].post.source.rel != last[3][i] for i in redo):
            redo, rels = list(range(len(shown))), None
    else:
        found, redo = [[] for _ in shown], list(range(len(shown)))
    for i in redo:
        found[i] = check_references([shown[i]], outputs, base_path)
    rels = rels if rels is not None else [p.post.source.rel for p in shown]
    memo["checked"] = (outputs, contents, found, rels, base_path)
    return list(chain.from_iterable(found))


def _warnings(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Return the warnings among `diagnostics`, in file order."""
    warnings = (d for d in diagnostics if d.severity is Severity.WARNING)
    return sorted(warnings, key=lambda d: d.location)


def _fail_on(
    diagnostics: list[Diagnostic],
    strict: bool,
    on_warning: Callable[[Diagnostic], None] | None,
) -> None:
    """Hand every warning to `on_warning`; raise `BuildFailed` with the errors (and, under
    `strict`, the warnings), in file order, if there are any."""
    failing = [d for d in diagnostics if d.severity is Severity.ERROR or strict]
    if not strict and on_warning is not None:
        for d in _warnings(diagnostics):
            on_warning(d)
    if failing:
        raise BuildFailed(sorted(failing, key=lambda d: d.location))


__all__ = ["BuildOptions", "BuildResult", "build", "OutputFile"]
