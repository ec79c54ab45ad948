"""The build: run the pipeline stages of DESIGN.md from `postil.yaml` to the written site.

Each stage skips the work an earlier build already did (`postil.cache`, in `.postil-cache/`):
front matter is parsed again only for changed sources, Markdown rendered again only for
posts whose `markdown_key` changed (in worker processes when there are many,
`postil.parallel`), pages rendered again only when a post they show or a template changed,
and output files whose bytes did not change are hard-linked from the previous output
(`postil.output.SiteWriter`). A warm build with nothing changed renders nothing.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from postil import __version__
from postil.anchors import check_anchors
from postil.cache import BuildCache, CachedRows, CacheError, fingerprint
from postil.config import load_config
from postil.content.discover import read_source, source_paths, stat_signature
from postil.content.frontmatter import parse
from postil.content.posts import check_unique_urls, make_post
from postil.errors import BuildFailed, ContentError, Diagnostic, Location, PostilError, Severity
from postil.manifest import RACY_NS
from postil.markdown import set_html_loader
from postil.model import OutputFile, Post, RenderedPost, SiteConfig, UnreadSource
from postil.output import check_output_dir
from postil.pagecache import check_pages, write_output
from postil.parallel import Conversions, Rendered, render_many
from postil.site import collect, is_published
from postil.theme import create_template_env, static_dirs, template_dirs

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
        rendered: posts whose Markdown was rendered (not taken from the cache).
        written: output files written (the others were linked unchanged from the last output).
    """

    files: int
    posts: int
    warnings: tuple[Diagnostic, ...]
    seconds: float
    rendered: int = 0
    written: int = 0


def build(options: BuildOptions, now: datetime | None = None) -> BuildResult:
    """Build the site described by `options`.

    A cache row found damaged or missing while pages are rendered (`CacheError`: bit rot,
    another build pruning it) does not fail the build: it is built once more with every
    post rendered afresh, which rewrites the rows, and a warning says so.

    Raises:
        ConfigError: postil.yaml is missing or invalid.
        BuildFailed: content errors (and warnings under `strict`), all of them, in file order;
            nothing is written and the previous output stays as it was.
        TemplateError, OutputError: the theme or the disk failed.
    """
    try:
        return _build(options, now, trust_cached_html=True)
    except CacheError as e:
        if not options.cache:
            raise
        log.warning("warning: %s; rendering every post again", e.message)
    try:
        return _build(options, now, trust_cached_html=False)
    except CacheError as e:
        raise CacheError(f"{e.message}; run `postil clean` and build again") from e


def _build(options: BuildOptions, now: datetime | None, trust_cached_html: bool) -> BuildResult:
    """Run the pipeline once (see `build`); `trust_cached_html` False renders every post."""
    started = time.perf_counter()
    config = load_config(options.root, options.base_url)
    out_dir = (options.out_dir or config.root / "_site").absolute()
    if options.write:
        check_output_dir(out_dir, config.root)
    cache = BuildCache.open(config.root) if options.cache else BuildCache.disabled()
    reader = cache.reader("html")
    set_html_loader(reader)  # for the bodies RenderedRows leaves in the cache
    try:
        posts, diagnostics = load_posts(config, cache)
        when = now or datetime.now(timezone.utc)
        # Drafts and future posts left out are not rendered at all, so a link to one is
        # reported like a link to a missing post instead of becoming a 404 on the site.
        posts = [p for p in posts if is_published(p.meta, when, options.drafts, options.future)]
        env = create_template_env(config.root, cache.bytecode_dir())
        store = RenderedRows(cache, trust_cached_html)
        keys = markdown_keys(config, posts)
        rendered = render_posts(
            config, posts, env, diagnostics, store, options.workers, cache, keys
        )
        store.prune()
        diagnostics.extend(check_anchors(rendered))
        _fail_on(diagnostics, options.strict)
        site = collect(config, rendered, when, options.drafts, options.future)
        by_rel = {post.source.rel: key for post, key in zip(posts, keys, strict=True)}
        assets, static = generated_assets(cache), static_files(config.root)
        if options.write:
            files, written = write_output(
                site, env, out_dir, cache, assets, static, by_rel, options.workers
            )
        else:
            files = written = check_pages(site, env)
    finally:
        set_html_loader(None)
        if reader is not None:
            reader.close()
        cache.close()
    warnings = tuple(d for d in diagnostics if d.severity is Severity.WARNING)
    seconds = time.perf_counter() - started
    return BuildResult(files, len(site.posts), warnings, seconds, store.added, written)


class RenderedRows(CachedRows[Rendered]):
    """Rendered Markdown by `markdown_key` in the build cache, the HTML apart.

    Two row kinds: "markdown" holds each `Rendered` without its HTML (`html_utf8` None,
    `html_key` its key) and "html" the HTML bytes, which `RenderedMarkdown.html` reads only
    when a page that shows the body is rendered. A warm build of 1,000 posts thus reads
    1 MB of rows instead of 30, and an edit reads the HTML of the few pages it renders. A
    row whose HTML is missing (a build killed between two writes) is not used.

    Args:
        cache: the build cache.
        trusted: False to use no row at all (every post is rendered and its rows rewritten:
            `build` does so after a row proved damaged).
    """

    def __init__(self, cache: BuildCache, trusted: bool = True) -> None:
        super().__init__(cache, "markdown")
        self._trusted = trusted

    def _all(self) -> dict[str, Rendered]:
        if self._rows is None and not self._trusted:
            self._rows = {}  # every post is rendered again and its rows rewritten
        if self._rows is None:
            stored = self._cache.names("html")
            rows = self._cache.load("markdown").items()
            self._rows = {key: value for key, (_, value) in rows if key in stored}
        return self._rows

    def __setitem__(self, key: str, value: Rendered) -> None:
        self.added += 1
        content = value.content
        self._cache.put("html", key, "", content.html_utf8)
        kept = replace(content, html_utf8=None, html_key=key)
        self._cache.put("markdown", key, "", replace(value, content=kept))
        self._all()[key] = value  # this build keeps the HTML it rendered in memory
        self._used.add(key)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._cache.forget("html", [key])

    def prune(self) -> None:
        """Forget the rows (and HTML) no lookup or store of this build touched."""
        super().prune()
        self._cache.forget("html", self._cache.names("html") - self._used)


def reading_minutes(word_count: int, words_per_minute: int) -> int:
    """Return whole minutes to read `word_count` words: rounded up, at least 1 (README,
    "Reading time": prose and code words, each formula one word, at the site's speed)."""
    return max(1, math.ceil(word_count / words_per_minute))


def load_posts(
    config: SiteConfig, cache: BuildCache | None = None
) -> tuple[list[Post], list[Diagnostic]]:
    """Discover and parse every source into a `Post`; return them and the errors and
    warnings (unknown front matter keys) found.

    Args:
        cache: parsed posts of earlier builds by source path (a post with warnings is not
            kept, so its warnings are reported by every build). A kept post is reused when
            the source's path, kind and the site's time zone are the same, and either the
            file's stat signature is the recorded one and older than `RACY_NS` before the
            build that recorded it (the file is then not read at all: `UnreadSource`) or its
            text is the same.
    """
    paths, errors = source_paths(config)
    known = cache.load("post") if cache is not None else {}
    started = time.time_ns()
    posts: list[Post] = []
    warnings: list[Diagnostic] = []
    for path, rel, kind in paths:
        settings = fingerprint(str(path), kind, config.timezone)
        hit = known.get(rel)
        kept: _PostRow | None = hit[1] if hit is not None and hit[0] == settings else None
        try:
            signature = stat_signature(path)
        except OSError:
            signature = None  # read_source reports it
        if kept is not None and signature == kept.signature and kept.vouches():
            posts.append(Post(UnreadSource(path, rel, kind, signature), *kept.post))
            continue
        try:
            source = read_source(path, rel, kind)
        except ContentError as e:
            errors.append(e)
            continue
        text_digest = fingerprint(source.text)
        if kept is not None and kept.text_digest == text_digest:
            posts.append(Post(source, *kept.post))
        else:
            found: list[Diagnostic] = []
            try:
                meta, body, body_line = parse(source, config.timezone, found)
                post = make_post(source, meta, body, body_line)
            except ContentError as e:
                errors.append(e)
                continue
            posts.append(replace(post, body_digest=fingerprint(post.body)))
            warnings.extend(found)
            if found:
                continue
        if cache is not None and signature is not None:
            row = _PostRow(text_digest, signature, started, _post_fields(posts[-1]))
            if row != kept:
                cache.put("post", rel, settings, row)
    if cache is not None:
        cache.forget("post", known.keys() - {rel for _, rel, _ in paths})
    errors.extend(check_unique_urls(posts))
    return posts, [_as_diagnostic(e) for e in errors] + warnings


@dataclass(frozen=True)
class _PostRow:
    """What the build cache keeps of a parsed source (kind "post", by source path).

    Attributes:
        text_digest: `fingerprint` of the source's text.
        signature: its `stat_signature` when it was read.
        recorded_ns: when the build that read it started (ns since the epoch).
        post: the `Post`'s fields after its source (`_post_fields`).
    """

    text_digest: str
    signature: tuple[int, int, int, int]
    recorded_ns: int
    post: tuple[Any, ...]

    def vouches(self) -> bool:
        """Whether the signature alone vouches for the text: the file was last modified and
        last changed at least `RACY_NS` before it was recorded (the change time counts too:
        `touch -d`, `cp -p` and rsync restore the modification time, never the change time)."""
        return max(self.signature[2], self.signature[3]) < self.recorded_ns - RACY_NS


def _post_fields(post: Post) -> tuple[Any, ...]:
    """Return a post's fields after its source, as `Post(source, *fields)` takes them."""
    return (
        post.meta,
        post.body_start,
        post.body_line,
        post.slug,
        post.url,
        post.output_rel,
        post.body_digest,
    )


def markdown_key(config: SiteConfig, post: Post, context: str | None = None) -> str:
    """Return the cache key of a post's rendered Markdown.

    It covers everything rendering reads but the links map: the post's source path, the
    body and where it starts in its file, its macros, and the `render_context` (the site's
    configuration, the widget templates, postil's version). Links to other posts are
    checked separately: a cached post is valid while every link it looked up resolves the
    same way (`postil.parallel.Rendered.valid_for`), so adding a post re-renders nothing.

    Args:
        context: `render_context(config)`, computed once for many posts.
    """
    if context is None:
        context = render_context(config)
    body = post.body_digest or fingerprint(post.body)
    return fingerprint(context, post.source.rel, str(post.body_line), repr(post.meta.macros), body)


def markdown_keys(config: SiteConfig, posts: list[Post]) -> list[str]:
    """Return the `markdown_key` of every post, in order (the context is hashed once)."""
    context = render_context(config)
    return [markdown_key(config, post, context) for post in posts]


def render_context(config: SiteConfig) -> str:
    """Return the digest of what rendering reads besides the post itself and the links.

    That is postil's version, the whole site configuration (macros, base path, ...) and
    the text of the widget templates (`templates/widgets/*`, which widgets render during
    Markdown rendering).
    """
    widgets = []
    for directory in template_dirs(config.root):
        for path in sorted((directory / "widgets").glob("**/*")):
            if path.is_file():
                widgets += [path.as_posix(), path.read_text("utf-8", "replace")]
    return fingerprint(__version__, repr(config), *widgets)


def render_posts(
    config: SiteConfig,
    posts: list[Post],
    env: object,
    diagnostics: list[Diagnostic],
    cache: MutableMapping[str, Rendered] | None = None,
    workers: int | None = None,
    conversions_cache: BuildCache | None = None,
    keys: list[str] | None = None,
) -> list[RenderedPost]:
    """Render every post's Markdown; append what the plugins report to `diagnostics`.

    The result (and the diagnostics, in post order) does not depend on `workers`.

    Args:
        cache: rendered Markdown by `markdown_key`; hits whose links still resolve the same
            way skip rendering, the others are rendered and stored.
        workers: processes to render in (`postil.parallel.render_many`); None: one per CPU.
        conversions_cache: where math and highlighting results of earlier builds are kept;
            read only when some post must be rendered.
        keys: `markdown_keys(config, posts)`, if already computed.
    """
    links = {p.source.rel: p.url for p in posts}
    keys = keys if keys is not None else markdown_keys(config, posts)
    if conversions_cache is not None:  # results of deleted posts go with them
        conversions_cache.forget("conversions", conversions_cache.names("conversions") - set(links))
    found = {}
    for key in keys:
        hit = cache.get(key) if cache is not None else None
        if hit is not None and hit.valid_for(links):
            found[key] = hit
    todo = [(post, key) for post, key in zip(posts, keys, strict=True) if key not in found]
    if todo:
        conversions = Conversions.from_cache(conversions_cache, [p.source.rel for p, _ in todo])
        contents = render_many(config, [p for p, _ in todo], links, env, conversions, workers)
        new = dict(zip([k for _, k in todo], contents, strict=True))
        found.update(new)
        if cache is not None:
            cache.update(new)
    rendered = []
    for post, key in zip(posts, keys, strict=True):
        content = found[key].content
        diagnostics.extend(content.diagnostics)
        minutes = reading_minutes(content.word_count, config.words_per_minute)
        rendered.append(RenderedPost(post=post, content=content, reading_minutes=minutes))
    return rendered


def generated_assets(cache: BuildCache | None = None) -> dict[str, Callable[[], str]]:
    """Return the assets generated at build time: the Pygments stylesheet.

    Args:
        cache: keeps the stylesheet between builds (it changes only with Pygments or
            postil, which empty the cache), so a build that renders no code need not
            import Pygments.
    """
    return {"css/pygments.css": lambda: _cached_asset(cache, "css/pygments.css", _pygments_css)}


def _pygments_css() -> str:
    from postil.markdown.code import pygments_css

    return pygments_css()


def _cached_asset(cache: BuildCache | None, rel: str, make: Callable[[], str]) -> str:
    text = cache.get("asset", rel, "") if cache is not None else None
    if not isinstance(text, str):
        text = make()
        if cache is not None:
            cache.put("asset", rel, "", text)
    return text


def static_files(root: Path) -> list[tuple[str, Path]]:
    """Return (rel, path) of every static file; a site file overrides the theme file of that rel."""
    found: dict[str, Path] = {}
    for directory in static_dirs(root):
        for path in sorted(directory.rglob("*")):
            rel = path.relative_to(directory).as_posix()
            if path.is_file() and not any(p.startswith(".") for p in rel.split("/")):
                found[rel] = path
    return sorted(found.items())


def _fail_on(diagnostics: list[Diagnostic], strict: bool) -> None:
    failing = [d for d in diagnostics if d.severity is Severity.ERROR or strict]
    if not strict:  # under --strict every warning is in `failing` and printed with the errors
        warnings = (d for d in diagnostics if d.severity is Severity.WARNING)
        for d in sorted(warnings, key=lambda d: d.location):
            log.warning("%s", d.report())
    if failing:
        raise BuildFailed(sorted(failing, key=lambda d: d.location))


def _as_diagnostic(error: PostilError) -> Diagnostic:
    return Diagnostic(Severity.ERROR, error.location or Location("<site>"), error.message)


__all__ = ["BuildOptions", "BuildResult", "build", "OutputFile"]
