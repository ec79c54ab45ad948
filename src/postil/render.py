"""The Markdown stage: render every post's body, reusing what the build cache still vouches for.

A post is rendered again only when its `markdown_key` changed, a link it looked up now
resolves differently, or it has a widget whose template changed (`Rendered.valid_for`);
the rest come from the cache. The posts to
render go to `render_many` (worker processes when there are many, through
`postil.parallel`), each with a fresh `RenderState` (`render_state`) that carries
everything rendering may read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import compress, islice, repeat
from math import ceil
from operator import and_, is_, is_not, not_
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from postil import parallel
from postil.bibliography.entries import BibFile, Work
from postil.bibliography.load import works_for
from postil.cache.keys import fingerprint, markdown_keys, widget_templates
from postil.cache.store import BuildCache
from postil.errors import Diagnostic
from postil.markdown.rendered import RenderedMarkdown
from postil.markdown.state import RenderState
from postil.model import Post, RenderedPost, SiteConfig

if TYPE_CHECKING:  # the math layer is imported only where posts are rendered
    from postil.math import MathCache

_Pair = tuple[dict[str, str], dict[tuple[Any, ...], str]]
"""(math cache key -> MathML, highlighting cache key -> HTML) of one post."""

KEEP_CONVERSIONS = 2_000
"""Entries kept per post across edits; beyond it only the last rendering's are kept."""

COMMIT_BYTES = 1 << 20
"""Rows of rendered posts are committed as soon as this many bytes wait, while the workers
are still rendering: done after the last post instead, 50 MB of rows at 1,000 posts took
0.5 s of a cold build with one CPU idle."""

Keep = Callable[[int, list["Rendered"]], None]
"""Called with (index of the first post, their results) as results arrive (`render_many`)."""


def reading_minutes(word_count: int, words_per_minute: int) -> int:
    """Return whole minutes to read `word_count` words: rounded up, at least 1 (README,
    "Reading time": prose and code words, each formula one word, at the site's speed)."""
    return max(1, ceil(word_count / words_per_minute))


V = TypeVar("V")


class AssetMaps(NamedTuple):
    """What rendering may look up about the site's files (`postil.assets`, `postil.images`).

    Attributes:
        sources: output rel of every published content asset by its source path.
        sizes: (width, height) of every measurable image by output rel.
        bibliographies: every `.bib` file the site and its posts name, parsed, by its path
            (`postil.bibliography.load`).
        labels: the source path and heading text of each section label one post of the
            site gives (`FrontMatter.labels`), by label, for references from other pages
            (`site_labels`).
    """

    sources: Mapping[str, str] = {}
    sizes: Mapping[str, tuple[int, int]] = {}
    bibliographies: Mapping[str, BibFile] = {}
    labels: Mapping[str, tuple[str, str]] = {}


def site_labels(posts: Sequence[Post]) -> dict[str, tuple[str, str]]:
    """Return (source path, heading text) of each section label by label
    (`FrontMatter.labels`). A label written (`{#id}`, `(label)=`) is taken over the same
    label made from a heading's text, as Pandoc keeps a written id and gives the made one
    another; a label two posts write, or two posts make and none writes, names neither (a
    reference to it stays unresolved, and says so)."""
    found: dict[str, tuple[str, str, bool]] = {}
    repeated: set[str] = set()
    for post in posts:
        rel = post.source.rel
        for label, text, written in post.meta.labels:
            known = found.get(label)
            if known is None or written and not known[2]:
                found[label] = (rel, text, written)
                repeated.discard(label)
            elif known[0] != rel and written == known[2]:
                repeated.add(label)
    return {label: (rel, text) for label, (rel, text, _) in found.items() if label not in repeated}


@dataclass(frozen=True)
class Rendered:
    """A post's rendered Markdown and what else it read, as the cache keeps it.

    Attributes:
        content: what rendering produced.
        links_read: (source path, URL or None) of every entry of the links map that
            rendering looked up; the content stays valid while each gives the same answer.
        assets_read: likewise for the map of content assets (`RenderState.assets`).
        sizes_read: likewise for the sizes of images (`RenderState.sizes`).
        labels_read: likewise for the site's section labels (`AssetMaps.labels`).
        works_read: likewise for the works of its bibliography, by citation key (only the
            keys it cites: an edit of another entry of a shared `.bib` leaves it valid).
        widgets: `postil.cache.keys.widget_templates` when the post was rendered, if it
            has widgets ("" otherwise).
    """

    content: RenderedMarkdown
    links_read: tuple[tuple[str, str | None], ...]
    widgets: str = ""
    assets_read: tuple[tuple[str, str | None], ...] = ()
    sizes_read: tuple[tuple[str, tuple[int, int] | None], ...] = ()
    works_read: tuple[tuple[str, Work | None], ...] = ()
    labels_read: tuple[tuple[str, tuple[str, str] | None], ...] = ()

    def valid_for(
        self,
        links: Mapping[str, str],
        widgets: str,
        assets: AssetMaps | None = None,
        works: Mapping[str, Work] | None = None,
    ) -> bool:
        """Return whether every link, content asset, image size and cited work this post
        looked up is still the same and, if it has widgets, `widgets` (the widget
        templates' digest now) is the one it was rendered with."""
        if self.content.widgets and self.widgets != widgets:
            return False
        found_works = works if works is not None else {}  # (`works or {}` would count them)
        if any(found_works.get(key) != work for key, work in self.works_read):
            return False
        found = assets or AssetMaps()
        if any(found.sources.get(rel) != out for rel, out in self.assets_read):
            return False
        if any(found.sizes.get(rel) != size for rel, size in self.sizes_read):
            return False
        if any(found.labels.get(label) != where for label, where in self.labels_read):
            return False
        return all(links.get(rel) == url for rel, url in self.links_read)

    def content_key(self, markdown_key: str) -> str:
        """Return the key of this rendering for the pages that show it: `markdown_key`, and
        the content assets and image sizes it looked up (which the Markdown key does not
        cover; links are covered by the pages' own keys, `postil.cache.keys.PageKeys`)."""
        if not (self.assets_read or self.sizes_read or self.works_read or self.labels_read):
            return markdown_key
        reads = (repr(self.assets_read), repr(self.sizes_read), repr(self.works_read))
        labels = (repr(self.labels_read),) if self.labels_read else ()
        return fingerprint(markdown_key, *reads, *labels)


class LinkReads(Mapping[str, V]):
    """A read-only view of a map (links, content assets) that records which entries were
    looked up.

    Iterating over it or asking its length records the whole map as read.
    """

    def __init__(self, links: Mapping[str, V]) -> None:
        self._links = links
        self._reads: dict[str, V | None] = {}

    def __getitem__(self, rel: str) -> V:
        url = self._reads[rel] = self._links.get(rel)
        if url is None:
            raise KeyError(rel)
        return url

    def __iter__(self) -> Iterator[str]:
        self._reads.update(self._links)
        return iter(self._links)

    def __len__(self) -> int:
        self._reads.update(self._links)
        return len(self._links)

    @property
    def underlying(self) -> Mapping[str, V]:
        """The map viewed, whose reads are not recorded (for an index built once for every
        post, `postil.markdown.references`, which then reads its one entry through this)."""
        return self._links

    def reads(self) -> tuple[tuple[str, V | None], ...]:
        """Return the entries looked up so far, sorted."""
        return tuple(sorted(self._reads.items()))


@dataclass
class Conversions:
    """Math and highlighting results by post: seeds for rendering, and what rendering adds.

    Kept per post (the rows are named by source path), so re-rendering one edited post
    reads only its own earlier results, and a deleted post's results go with it. A formula
    a post shares with a post rendered before it in the same process is found in memory
    and so is not among its own entries: after an edit it is converted again.

    Attributes:
        known: source path -> (math, highlight) entries kept from its earlier renderings.
        cache: where `record` keeps what rendering adds (written as results arrive, so
            they need not all be held in memory), or None.
        added: what `record` was given, by source path, when there is no `cache`.
    """

    known: dict[str, _Pair] = field(default_factory=dict)
    cache: BuildCache | None = None
    added: dict[str, _Pair] = field(default_factory=dict)

    @classmethod
    def from_cache(cls, cache: BuildCache | None, rels: Sequence[str]) -> Conversions:
        """Return the conversions `cache` keeps for the posts `rels` (none if it is None)."""
        if cache is None or not cache.enabled:
            return cls()
        rows = cache.get_many("conversions", rels)
        return cls({rel: value for rel, (_, value) in rows.items()}, cache)

    def seeds(self) -> _Pair:
        """Return every known entry, merged, to seed the caches of a renderer."""
        math: dict[str, str] = {}
        highlight: dict[tuple[Any, ...], str] = {}
        for known_math, known_highlight in self.known.values():
            math.update(known_math)
            highlight.update(known_highlight)
        return math, highlight

    def record(self, rels: Sequence[str], added: Sequence[_Pair]) -> None:
        """Keep, for each post rendered, its earlier entries and those it added."""
        for rel, (math, highlight) in zip(rels, added, strict=True):
            if self.cache is None:
                self.added[rel] = (math, highlight)
                continue
            old_math, old_highlight = self.known.get(rel, ({}, {}))
            if len(old_math) + len(old_highlight) < KEEP_CONVERSIONS:
                math, highlight = old_math | math, old_highlight | highlight
            self.cache.put("conversions", rel, "", (math, highlight))


def render_state(
    config: SiteConfig,
    post: Post,
    links: Mapping[str, str],
    templates: Any,
    math_cache: MathCache | None = None,
    highlight_cache: MutableMapping[tuple[Any, ...], str] | None = None,
    assets: Mapping[str, str] | None = None,
    sizes: Mapping[str, tuple[int, int]] | None = None,
    works: Mapping[str, Work] | None = None,
    labels: Mapping[str, tuple[str, str]] | None = None,
) -> RenderState:
    """Return the fresh `RenderState` a post is rendered with (everything it may read).

    Whatever is added here must be covered by `postil.cache.keys.render_context` (the
    cache key). The conversion caches only make rendering faster, never different.

    Args:
        math_cache: a `postil.math.MathCache` shared by the posts one process renders.
        highlight_cache: likewise for highlighted code.
        assets: the published content assets by source path (`RenderState.assets`).
        sizes: the sizes of the site's images by output rel (`RenderState.sizes`).
        works: the works the post can cite (`postil.bibliography.load.works_for`), or None
            when it names no bibliography.
        labels: the site's section labels (`AssetMaps.labels`, `RenderState.labels`).
    """
    state = RenderState(
        path=post.source.rel,
        body_line=post.body_line,
        macros=dict(config.math_macros) | dict(post.meta.macros),
        double_dollar_in_text=config.math_double_dollar_in_text,
        code_spans=config.math_code_spans,
        links=links,
        assets=assets if assets is not None else {},
        sizes=sizes if sizes is not None else {},
        base_path=config.base_path,
        base_url=config.base_url,
        templates=templates,
        math_cache=math_cache,
        bibliography=works,
        labels=labels if labels is not None else {},
        citation_style=post.meta.citation_style or config.citation_style,
        media_path=post.meta.media_path,
        title_id=post.meta.title_id,
        title_text=post.meta.title if post.meta.title_heading else "",
        front_matter=dict(post.meta.vue_values),
        site_params=dict(config.params),
        front_matter_syntax=post.meta.front_matter_syntax,
    )
    if highlight_cache is not None:
        state.highlight_cache = highlight_cache
    return state


def render_posts(
    config: SiteConfig,
    posts: Sequence[Post],
    templates: Any,
    cache: BuildCache,
    rendered_rows: MutableMapping[str, Rendered],
    workers: int | None = None,
    keys: Sequence[str] | None = None,
    assets: AssetMaps | None = None,
) -> tuple[list[RenderedPost], list[Diagnostic]]:
    """Render every post's Markdown, reusing the cached results still valid.

    The result (and the diagnostics, in post order) does not depend on `workers`.

    Args:
        config: the site configuration.
        posts: every post and page to render.
        templates: the Jinja2 environment widgets render with (this process's).
        cache: where math and highlighting results of earlier builds are kept (read only
            when some post must be rendered).
        rendered_rows: rendered Markdown by `markdown_key` (`RenderedRows`); hits whose
            links still resolve the same way skip rendering, the others are rendered and
            stored.
        workers: processes to render in (`render_many`); None: one per CPU.
        keys: `markdown_keys(config, posts)`, if already computed.
        assets: what rendering may look up about the site's files (`AssetMaps`).

    Returns:
        (the rendered posts in input order, what the plugins reported).
    """
    links = {p.source.rel: p.url for p in posts}
    assets = assets if assets is not None else AssetMaps()
    keys = keys if keys is not None else markdown_keys(config, posts)
    cache.forget("conversions", cache.names("conversions") - set(links))  # deleted posts'
    widgets = widget_templates(config.root)
    memo = cache.memo("render")
    assets = assets._replace(labels=site_labels(posts))
    inputs = (links, widgets, assets.sources, assets.sizes, assets.bibliographies, assets.labels)
    # What the last call found valid stays valid while everything it looked up is equal.
    same_inputs = memo.get("inputs") == inputs
    proven: dict[str, Rendered] = memo.get("valid", {}) if same_inputs else {}
    # `RenderedRows.lookup`: every post's row at once (a plain mapping is asked one by one)
    lookup = getattr(rendered_rows, "lookup", None)
    hits: list[Rendered | None] = (
        lookup(keys) if lookup is not None else [rendered_rows.get(key) for key in keys]
    )
    # The rows the last call found valid, found again by identity (in C): the other
    # posts' rows are looked at one by one.
    kept = list(map(and_, map(is_, map(proven.get, keys), hits), map(is_not, hits, repeat(None))))
    proven_hits = cast("Iterator[Rendered]", compress(hits, kept))  # none of them None
    found: dict[str, Rendered] = dict(zip(compress(keys, kept), proven_hits, strict=True))
    for i in compress(range(len(keys)), map(not_, kept)):
        post, key, row = posts[i], keys[i], hits[i]
        if row is None:
            continue
        hit: Rendered = row
        cites = hit.works_read
        works = works_for(config, post, assets.bibliographies) if cites else None
        if hit.valid_for(links, widgets, assets, works):
            found[key] = hit
    missing = compress(range(len(keys)), map(not_, map(found.__contains__, keys)))
    todo = [(posts[i], keys[i]) for i in missing]
    if todo:
        conversions = Conversions.from_cache(cache, [p.source.rel for p, _ in todo])
        todo_posts, todo_keys = [p for p, _ in todo], [k for _, k in todo]

        def keep(start: int, results: list[Rendered]) -> None:
            """Store results as they arrive, while the workers go on rendering."""
            keys_here = todo_keys[start : start + len(results)]
            for key, result in zip(keys_here, results, strict=True):
                if result.content.widgets:
                    result = replace(result, widgets=widgets)
                found[key] = rendered_rows[key] = result
            if cache.commit(COMMIT_BYTES):
                _release_html(rendered_rows, found)

        render_many(config, todo_posts, links, templates, conversions, workers, assets, keep)
        if cache.commit():
            _release_html(rendered_rows, found)
    memo["inputs"], memo["valid"] = inputs, found
    # Only a row that is not the one the last call found valid can differ from it.
    fresh = compress(range(len(keys)), map(not_, kept)) if same_inputs else None
    return _rendered_posts(config, posts, keys, found, memo, fresh)


def _release_html(rows: MutableMapping[str, Rendered], found: dict[str, Rendered]) -> None:
    """Let the rendered posts written to the build cache read their HTML from there
    (`RenderedRows.release_html`), in `found` too."""
    release = getattr(rows, "release_html", None)  # a plain mapping keeps what it is given
    for key in release() if release is not None else ():
        found[key] = rows[key]


def _rendered_posts(
    config: SiteConfig,
    posts: Sequence[Post],
    keys: Sequence[str],
    found: Mapping[str, Rendered],
    memo: dict[str, Any],
    fresh: Iterable[int] | None = None,
) -> tuple[list[RenderedPost], list[Diagnostic]]:
    """Return each post with its rendering, and the diagnostics of all, in post order.

    `memo` keeps the last call's posts, contents, `RenderedPost`s and diagnostics: a post
    whose `Post` and content are the very objects of the last call at the same place keeps
    its `RenderedPost` (its reading time is a function of them and the site's reading
    speed), so the later stages can tell by identity that it did not change.

    Args:
        fresh: the indices whose row (`found[keys[i]]`) may be another than the one the
            last call used for the same key, or None: any. With it, only those and the
            posts that are not the very objects of the last call are looked at (an edit
            costs two passes over pointers, not three over the posts' fields).
    """
    last = memo.get("last")
    speed = config.words_per_minute
    if last is not None and last[0] == speed and len(last[1]) == len(posts):
        look: Sequence[int] = list(compress(range(len(posts)), map(is_not, posts, last[1])))
        if fresh is not None:
            contents = list(last[2])
            look = sorted(set(look).union(fresh))
            for i in look:
                contents[i] = found[keys[i]].content
            quiet = all(not contents[i].diagnostics and not last[2][i].diagnostics for i in look)
        else:
            contents, look, quiet = [found[key].content for key in keys], range(len(keys)), False
        diagnostics = list(last[4]) if quiet else _diagnostics(contents)
        rendered = list(last[3])  # the same places: look at the posts that changed
        redo: Iterable[int] = [
            i for i in look if posts[i] is not last[1][i] or contents[i] is not last[2][i]
        ]
    else:  # posts added or removed: match them by source path
        contents = [found[key].content for key in keys]
        diagnostics = _diagnostics(contents)
        before = {r.post.source.rel: r for r in last[3]} if last and last[0] == speed else {}
        rendered = [before.get(post.source.rel) for post in posts]  # type: ignore[misc]
        redo = [
            i
            for i, (was, post, content) in enumerate(zip(rendered, posts, contents, strict=True))
            if was is None or was.post is not post or was.content is not content
        ]
    for i in redo:
        content = contents[i]
        minutes = reading_minutes(content.word_count, speed)
        rendered[i] = RenderedPost(post=posts[i], content=content, reading_minutes=minutes)
    memo["last"] = (speed, list(posts), contents, rendered, diagnostics)
    return list(rendered), list(diagnostics)


def _diagnostics(contents: list[RenderedMarkdown]) -> list[Diagnostic]:
    """Return the diagnostics of every content, in order."""
    return [d for content in contents for d in content.diagnostics]


@dataclass
class _Worker:
    """What one process needs to render posts: the parser, templates, site facts, and the
    conversion caches shared by the posts it renders."""

    config: SiteConfig
    links: Mapping[str, str]
    md: Any
    templates: Any
    math_cache: MathCache
    highlight_cache: dict[tuple[Any, ...], str]
    assets: AssetMaps


_WORKER: _Worker | None = None
"""This process's `_Worker`, set by `_start_worker` (a pool worker) or `_render_here`."""


def render_many(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    templates: Any,
    conversions: Conversions,
    workers: int | None = None,
    assets: AssetMaps | None = None,
    keep: Keep | None = None,
) -> None:
    """Render the Markdown of `posts`, handing the results to `keep` as they arrive;
    diagnostics are inside each result. Nothing keeps them here: a cold build's rendered
    posts need not all be in memory at once (`render_posts` keeps their HTML in the build
    cache once written there).

    Below `postil.parallel.SEQUENTIAL_BELOW` posts (more when workers must be spawned),
    or with one worker, the posts are rendered in this process; otherwise in a pool, in
    chunks of `CHUNK_POSTS`. The results are the same either way.

    Args:
        config: the site configuration (macros).
        posts: the posts to render.
        links: every post's URL by its source path (for links between posts).
        templates: the Jinja2 environment for widgets, used in this process; workers make
            their own from `config.root`.
        conversions: seeds for the math and highlighting caches; what rendering adds is
            recorded in it.
        workers: processes to use; None means one per CPU; 1 renders in this process.
        assets: what rendering may look up about the site's files (`AssetMaps`).
        keep: called with each run of consecutive results as it arrives (in the order the
            workers finish), after its conversions are recorded.
    """
    count = workers if workers is not None else (os.cpu_count() or 1)
    context = parallel.pool_context()
    forked = context.get_start_method() == "fork"
    small = parallel.SEQUENTIAL_BELOW if forked else parallel.SPAWNED_SEQUENTIAL_BELOW
    found = assets if assets is not None else AssetMaps()
    if count <= 1 or len(posts) < small:
        _render_here(config, posts, links, templates, conversions, found, keep)
    else:
        _render_in_pool(config, posts, links, conversions, count, context, found, keep)


def _render_here(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    templates: Any,
    conversions: Conversions,
    assets: AssetMaps,
    keep: Keep | None = None,
) -> None:
    """Render `posts` one after the other in this process."""
    global _WORKER
    _WORKER = _new_worker(config, links, templates, *conversions.seeds(), assets)
    try:
        results, added = _render_chunk(list(posts))
    finally:
        _WORKER = None
    conversions.record([p.source.rel for p in posts], added)
    if keep is not None:
        keep(0, results)


def _render_in_pool(
    config: SiteConfig,
    posts: Sequence[Post],
    links: Mapping[str, str],
    conversions: Conversions,
    count: int,
    context: Any,
    assets: AssetMaps,
    keep: Keep | None = None,
) -> None:
    """Render `posts` in `count` worker processes, chunk by chunk (`keep` gets each chunk's
    results with the index of its first post)."""
    import postil.markdown.code  # noqa: F401 - imported once here, inherited by forked workers
    import postil.math  # noqa: F401

    if context.get_start_method() == "fork":
        # Made once here and inherited, not once per worker: making it imports the plugins
        # and compiles their ≈ 80 regular expressions (≈ 0.1 s of CPU, issue 20).
        parser()
    size = parallel.CHUNK_POSTS
    chunks = [list(posts[i : i + size]) for i in range(0, len(posts), size)]
    args = (config, links, *conversions.seeds(), assets)

    def arrived(index: int, done: tuple[list[Rendered], list[_Pair]]) -> None:
        rendered, added = done
        conversions.record([p.source.rel for p in chunks[index]], added)
        if keep is not None:
            keep(index * size, rendered)

    parallel.map_chunks(
        _render_chunk, chunks, count, context, _start_worker, args, on_result=arrived
    )


@lru_cache(maxsize=1)
def parser() -> Any:
    """Return this process's `MarkdownIt` (`postil.markdown.create_markdown`), made on
    first use: a process renders every post with one parser (per-document state is in
    `env`), so the dev server does not make one, nor import the math layer, per save."""
    from postil.markdown import create_markdown

    return create_markdown()


def prepare() -> None:
    """Make this process's parser and import the math and code layers now, so the first
    post rendered does not wait for them (the dev server calls it once it serves)."""
    import postil.markdown.code  # noqa: F401 - imported for what it costs, not used here
    import postil.math  # noqa: F401

    parser()


def _new_worker(
    config: SiteConfig,
    links: Mapping[str, str],
    templates: Any,
    math: Mapping[str, str],
    highlight: Mapping[tuple[Any, ...], str],
    assets: AssetMaps,
) -> _Worker:
    """Return a `_Worker` with this process's parser (`parser`) and fresh conversion caches
    seeded with `math` and `highlight`."""
    from postil.math import MathCache

    math_cache = MathCache()
    math_cache.load(math)
    md = parser()
    return _Worker(config, links, md, templates, math_cache, dict(highlight), assets)


def _start_worker(
    config: SiteConfig,
    links: Mapping[str, str],
    math: Mapping[str, str],
    highlight: Mapping[tuple[Any, ...], str],
    assets: AssetMaps,
) -> None:
    """Initialise a pool worker: one parser, one template environment, seeded caches."""
    from postil.theme import create_template_env

    global _WORKER
    parallel.exit_with_parent()
    templates = create_template_env(config.root)
    _WORKER = _new_worker(config, links, templates, math, highlight, assets)


def _render_chunk(posts: list[Post]) -> tuple[list[Rendered], list[_Pair]]:
    """Render a chunk with this process's `_WORKER`; return the results and, per post, the
    math and highlighting entries its rendering added."""
    from postil.markdown import render_post

    assert _WORKER is not None, "_start_worker or _render_here sets it"
    worker = _WORKER
    results, added = [], []
    for post in posts:
        marks = (worker.math_cache.misses, len(worker.highlight_cache))
        links, assets = LinkReads(worker.links), LinkReads(worker.assets.sources)
        sizes = LinkReads(worker.assets.sizes)
        bib = works_for(worker.config, post, worker.assets.bibliographies)
        works = LinkReads(bib) if bib is not None else None
        labels = LinkReads(worker.assets.labels)
        state = render_state(
            worker.config,
            post,
            links,
            worker.templates,
            worker.math_cache,
            worker.highlight_cache,
            assets,
            sizes,
            works,
            labels,
        )
        content = render_post(worker.md, post, state)
        reads = (assets.reads(), sizes.reads(), works.reads() if works is not None else ())
        results.append(Rendered(content, links.reads(), "", *reads, labels.reads()))
        added.append(_conversions_since(worker, marks))
    return results, added


def _conversions_since(worker: _Worker, marks: tuple[int, int]) -> _Pair:
    """Return the math and highlighting entries `worker`'s caches gained since `marks`.

    Each math miss adds at most one entry, at the end (the oldest are dropped when full), so
    the newest `misses` entries hold every new one; the highlighting cache only grows.
    """
    math = worker.math_cache.newest(worker.math_cache.misses - marks[0])
    highlight = worker.highlight_cache
    return math, dict(islice(reversed(highlight.items()), len(highlight) - marks[1]))
