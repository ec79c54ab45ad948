"""The build: run the pipeline stages of DESIGN.md from `postil.yaml` to the written site."""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from postil import __version__
from postil.config import load_config
from postil.content import discover
from postil.content.frontmatter import parse
from postil.content.posts import check_unique_urls, make_post
from postil.errors import BuildFailed, ContentError, Diagnostic, Location, PostilError, Severity
from postil.markdown import RenderedMarkdown, create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.model import OutputFile, Post, RenderedPost, SiteConfig
from postil.output import write_site
from postil.pages import render_site
from postil.site import collect
from postil.theme import create_template_env, static_dirs

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
    """

    root: Path
    out_dir: Path | None = None
    drafts: bool = False
    future: bool = False
    base_url: str | None = None
    strict: bool = False
    write: bool = True


@dataclass(frozen=True)
class BuildResult:
    """What a build did: files written, posts built, warnings, seconds taken."""

    files: int
    posts: int
    warnings: tuple[Diagnostic, ...]
    seconds: float


def build(options: BuildOptions, now: datetime | None = None) -> BuildResult:
    """Build the site described by `options`.

    Raises:
        ConfigError: postil.yaml is missing or invalid.
        BuildFailed: content errors (and warnings under `strict`), all of them, in file order;
            nothing is written and the previous output stays as it was.
        TemplateError, OutputError: the theme or the disk failed.
    """
    started = time.perf_counter()
    config = load_config(options.root, options.base_url)
    posts, diagnostics = load_posts(config)
    env = create_template_env(config.root)
    rendered = render_posts(config, posts, env, diagnostics)
    _fail_on(diagnostics, options.strict)
    site = collect(
        config, rendered, now or datetime.now(timezone.utc), options.drafts, options.future
    )
    outputs = render_site(site, env, generated_assets())
    files = 0
    if options.write:
        files = write_site(
            outputs, static_files(config.root), options.out_dir or config.root / "_site"
        )
    warnings = tuple(d for d in diagnostics if d.severity is Severity.WARNING)
    return BuildResult(files, len(site.posts), warnings, time.perf_counter() - started)


def load_posts(config: SiteConfig) -> tuple[list[Post], list[Diagnostic]]:
    """Discover and parse every source into a `Post`; return them and the errors found."""
    sources, errors = discover(config)
    posts: list[Post] = []
    for source in sources:
        try:
            meta, body, body_line = parse(source, config.timezone)
            posts.append(make_post(source, meta, body, body_line))
        except ContentError as e:
            errors.append(e)
    errors.extend(check_unique_urls(posts))
    return posts, [_as_diagnostic(e) for e in errors]


def markdown_key(config: SiteConfig, post: Post, links: dict[str, str]) -> str:
    """Return the cache key of a post's rendered Markdown.

    It covers everything rendering reads: the body and where it starts in its file, the
    macros in force, the URLs of the other posts (for links between posts), the base path
    (root-absolute links are put under it) and postil's version. Templates are not in the
    key: a change under templates/widgets/ must clear the cache (the dev server does).
    """
    digest = hashlib.sha256()
    for part in (
        __version__,
        post.source.rel,
        str(post.body_line),
        post.body,
        repr(sorted(dict(config.math_macros).items())),
        repr(post.meta.macros),
        repr(sorted(links.items())),
        config.base_path,
    ):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


def render_posts(
    config: SiteConfig,
    posts: list[Post],
    env: object,
    diagnostics: list[Diagnostic],
    cache: MutableMapping[str, RenderedMarkdown] | None = None,
) -> list[RenderedPost]:
    """Render every post's Markdown; append what the plugins report to `diagnostics`.

    Args:
        cache: rendered Markdown by `markdown_key`; hits skip rendering, misses are added.
    """
    md = None
    links = {p.source.rel: p.url for p in posts}
    rendered = []
    for post in posts:
        key = markdown_key(config, post, links)
        content = cache.get(key) if cache is not None else None
        if content is None:
            md = md or create_markdown()
            state = RenderState(
                path=post.source.rel,
                body_line=post.body_line,
                macros=dict(config.math_macros) | dict(post.meta.macros),
                links=links,
                base_path=config.base_path,
                templates=env,
            )
            content = render_markdown(md, post.body, state)
            if cache is not None:
                cache[key] = content
        diagnostics.extend(content.diagnostics)
        minutes = max(1, math.ceil(content.word_count / config.words_per_minute))
        rendered.append(RenderedPost(post=post, content=content, reading_minutes=minutes))
    return rendered


def generated_assets() -> dict[str, Callable[[], str]]:
    """Return the assets generated at build time: the Pygments stylesheet."""
    from postil.markdown.code import pygments_css

    return {"css/pygments.css": pygments_css}


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
    for d in diagnostics:
        if d not in failing:
            log.warning("%s", d)
    if failing:
        raise BuildFailed(sorted(failing, key=lambda d: d.location))


def _as_diagnostic(error: PostilError) -> Diagnostic:
    return Diagnostic(Severity.ERROR, error.location or Location("<site>"), error.message)


__all__ = ["BuildOptions", "BuildResult", "build", "OutputFile"]
