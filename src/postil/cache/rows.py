"""The row formats of the build cache that are more than a value: rendered Markdown with
its HTML kept apart, and parsed sources with the stat signature that vouches for them."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass, replace
from itertools import compress, filterfalse, repeat
from operator import is_not
from typing import TYPE_CHECKING, Any, TypeVar

from postil.cache.manifest import RACY_NS
from postil.cache.store import BuildCache

if TYPE_CHECKING:
    from postil.render import Rendered

V = TypeVar("V")


class CachedRows(MutableMapping[str, V]):
    """The rows of one kind as a mapping from row name to value (fingerprints unused).

    For values keyed by their own fingerprint (rendered Markdown by `markdown_key`). Rows
    are read on first use; `prune` forgets the rows this build did not use (the old
    versions of edited posts), so the cache does not grow with every edit.

    Args:
        cache: the build cache.
        kind: the row kind, e.g. "markdown".
    """

    def __init__(self, cache: BuildCache, kind: str) -> None:
        self._cache = cache
        self._kind = kind
        self._rows: dict[str, V] | None = None
        self._used: set[str] = set()
        self.added = 0
        """Rows set by this build (rendered, not found)."""

    def _all(self) -> dict[str, V]:
        if self._rows is None:
            self._rows = {k: v for k, (_, v) in self._cache.load(self._kind).items()}
        return self._rows

    def __getitem__(self, key: str) -> V:
        value = self._all()[key]
        self._used.add(key)
        return value

    def lookup(self, keys: Sequence[str]) -> list[V | None]:
        """Return the value of each of `keys` (None where there is none), marking them used:
        `self.get` for many keys at once (a build asks for every post's)."""
        found = list(map(self._all().get, keys))  # in C, as the next line
        self._used.update(compress(keys, map(is_not, found, repeat(None))))  # in C
        return found

    def __setitem__(self, key: str, value: V) -> None:
        self.added += 1
        self._cache.put(self._kind, key, "", value)
        self._all()[key] = value
        self._used.add(key)

    def __delitem__(self, key: str) -> None:
        del self._all()[key]
        self._cache.forget(self._kind, [key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def prune(self) -> None:
        """Forget the rows no lookup or store of this build touched."""
        self._cache.forget(self._kind, self._all().keys() - self._used)


class RenderedRows(CachedRows["Rendered"]):
    """Rendered Markdown by `markdown_key` in the build cache, the HTML apart.

    Two row kinds: "markdown" holds each `Rendered` without its HTML (`html_utf8` None,
    `html_key` its key) and "html" the HTML bytes, which `RenderedMarkdown.html` reads
    through the cache's reader only when a page that shows the body is rendered. A warm
    build of 1,000 posts thus reads 1 MB of rows instead of 30, and an edit reads the HTML
    of the few pages it renders. A row whose HTML is missing (a build killed between two
    writes) is not used.

    The mapping of every row is made once per cache (`BuildCache.memo` "rendered rows")
    and kept up to date by this class's own stores, deletions and prunes, the only changes
    to these two kinds: a dev server's rebuild starts from the last build's mapping instead
    of reading and copying every row again (≈ 2 ms at 1,000 posts). `postil build` opens a
    cache per build, so it reads them once, as before. An untrusted build keeps nothing,
    and a crashed one drops the memo (`BuildCache.forget_memos`).

    Args:
        cache: the build cache.
        trusted: False to use no row at all (every post is rendered and its rows rewritten:
            `postil.build.build` does so after a row proved damaged).
    """

    MEMO = "rendered rows"
    """The scratch dictionary (`BuildCache.memo`) that keeps the mapping across builds."""

    def __init__(self, cache: BuildCache, trusted: bool = True) -> None:
        super().__init__(cache, "markdown")
        self._trusted = trusted
        self._html = cache.reader("html")
        self._holding: list[str] = []  # keys set with their HTML in memory
        memo = cache.memo(self.MEMO)
        if not trusted:
            memo.clear()
        elif memo.get("rows") is not None:
            self._rows = memo["rows"]

    def _all(self) -> dict[str, Rendered]:
        if self._rows is None and not self._trusted:
            self._rows = {}  # every post is rendered again and its rows rewritten
        if self._rows is None:
            self._rows = self._stored()
            self._cache.memo(self.MEMO)["rows"] = self._rows
        return self._rows

    def _stored(self) -> dict[str, Rendered]:
        """Return every row of the cache whose HTML is there too, readable (`_readable`)."""
        stored = self._cache.names("html")
        rows = self._cache.load("markdown").items()
        return {key: self._readable(key, value) for key, (_, value) in rows if key in stored}

    def _readable(self, key: str, value: Rendered) -> Rendered:
        """Return a row whose HTML can be read: with this cache's reader attached (a row
        unpickled from disk has none; a `MemoryCache` keeps the one with it)."""
        if value.content.load_html is not None or self._html is None:
            return value
        value = replace(value, content=replace(value.content, load_html=self._html))
        self._cache.keep(self._kind, key, "", value)
        return value

    def __setitem__(self, key: str, value: Rendered) -> None:
        self.added += 1
        content = value.content
        self._cache.put("html", key, "", content.html_utf8)
        kept = replace(content, html_utf8=None, html_key=key, load_html=self._html)
        self._cache.put("markdown", key, "", replace(value, content=kept))
        self._all()[key] = value  # with its HTML until the cache holds it: `release_html`
        self._holding.append(key)
        self._used.add(key)

    def release_html(self) -> list[str]:
        """Let go of the HTML of the rows set since the last call, once the cache can read
        it back (call after a `BuildCache.commit` that returned True): each row is then the
        one the next build finds, HTML read when a page needs it. A cold build of 1,000
        posts thus holds ≈ 1 MB of HTML at a time instead of 28 (its peak memory).

        Nothing is let go when the rows are not trusted (a build again after a row proved
        damaged keeps everything it renders in memory) or the cache keeps nothing.

        Returns:
            The keys whose rows changed (read them again).
        """
        held, self._holding = self._holding, []
        if not self._trusted or self._html is None:
            return []
        rows = self._all()
        for key in held:
            content = rows[key].content
            if content.html_utf8 is not None:
                kept = replace(content, html_utf8=None, html_key=key, load_html=self._html)
                rows[key] = replace(rows[key], content=kept)
        return held

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._cache.forget("html", [key])

    def prune(self) -> None:
        """Forget the rows (and HTML) no lookup or store of this build touched, but the
        `spare_rows` of the cache last stored."""
        rows = self._all()
        unused = list(filterfalse(self._used.__contains__, rows))  # in C
        spare = self._cache.spare_rows
        gone = set(unused[:-spare] if spare else unused)
        self._cache.forget(self._kind, gone)
        for key in gone:
            del rows[key]  # the kept mapping is the cache's rows
        self._cache.forget("html", self._cache.names("html") - rows.keys())


@dataclass(frozen=True)
class PostRow:
    """What the build cache keeps of a parsed source (kind "post", by source path).

    Attributes:
        text_digest: `fingerprint` of the source's text.
        signature: its `stat_signature` when it was read.
        recorded_ns: when the build that read it started (ns since the epoch).
        post: the `Post`'s fields after its source (`post_fields`).
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
