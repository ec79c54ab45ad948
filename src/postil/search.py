"""Site search (`search: true`): a static Pagefind index of the published posts and pages.

Pagefind (https://pagefind.app, its Python package `pagefind` with the binary in
`pagefind-bin-extended`, which segments Chinese, Japanese and Korean) indexes one small
document per post: its title and body as the page shows them (notes once, without the
margin copies, as in the feeds), each formula as the words of its TeX so that a search for
`softmax` finds `\\operatorname{softmax}`. The index and Pagefind's own scripts are written
under `pagefind/` with the site, so search works offline and needs no CDN; the theme's
search page (`search/`) loads them under the base path. Drafts and future posts
(`Site.previews`) are never indexed. The index is made once per set of documents and kept
in the build cache ("search" rows), so a build that changed no post does not run Pagefind.
"""

from __future__ import annotations

import asyncio
import html
import re
import tempfile
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from postil.cache.keys import fingerprint
from postil.cache.store import BuildCache
from postil.errors import ConfigError
from postil.htmlfilter import feed_html
from postil.model import OutputFile, RenderedPost, Site

SEARCH_DIR = "pagefind/"
"""Where the index and Pagefind's scripts are published (Pagefind's default name)."""

_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.DOTALL)
_TEX_PUNCTUATION = re.compile(r"[\\{}^_()\[\]&,;:=+\-*/|<>!~'$.]+")


def search_files(site: Site, cache: BuildCache, keys: Mapping[str, str]) -> list[OutputFile]:
    """Return the files of the search index of `site` (empty without `search: true`).

    Args:
        site: the collected site.
        cache: keeps the index by the fingerprint of its documents.
        keys: each post's content key by source path (`markdown_key`), which stands for its
            rendered HTML in the index's fingerprint.

    Raises:
        ConfigError: `search: true` but Pagefind is not installed.
    """
    if not site.config.search:
        return []
    posts = indexed_posts(site)
    key = fingerprint(
        site.config.base_path,
        site.config.language,
        *(
            f"{r.post.url} {keys.get(r.post.source.rel) or fingerprint(r.content.html)}"
            for r in posts
        ),
    )
    files = cache.get("search", "pagefind", key)
    if not isinstance(files, list):
        # URLs from the site's root: the search page's script puts the base path before them.
        documents = [("/" + r.post.url, search_document(site, r)) for r in posts]
        files = [(rel, data) for rel, data in _run_pagefind(documents, site.config.language)]
        cache.put("search", "pagefind", key, files)
    return [OutputFile(SEARCH_DIR + rel, data) for rel, data in files]


def indexed_posts(site: Site) -> list[RenderedPost]:
    """Return the posts and pages the index holds: every one but the previews."""
    return [r for r in site.posts + site.pages if r.post.url not in site.previews]


def search_document(site: Site, rendered: RenderedPost) -> str:
    """Return the HTML Pagefind indexes for one post: its title and body (`feed_html`:
    notes once, no buttons or scripts), each formula replaced by the words of its TeX."""
    body = feed_html(rendered.content.html, site.config.base_url + rendered.post.url)
    body = _MATH.sub(_tex_words, body)
    title = html.escape(rendered.title_text)
    return (
        f'<html lang="{html.escape(site.config.language)}"><body><main data-pagefind-body>'
        f"<h1>{title}</h1>{body}</main></body></html>"
    )


def _tex_words(match: re.Match[str]) -> str:
    """Return a `<math>` element as its TeX source with TeX's punctuation as spaces."""
    tex = _TEX.search(match[0])
    words = _TEX_PUNCTUATION.sub(" ", html.unescape(tex[1])) if tex else ""
    return f" <span>{html.escape(' '.join(words.split()))}</span> "


def _run_pagefind(documents: list[tuple[str, str]], language: str) -> list[tuple[str, bytes]]:
    """Index (url, html) documents with Pagefind; return its files (path under
    `SEARCH_DIR`, bytes), sorted by path."""
    try:
        from pagefind.index import IndexConfig, PagefindIndex
    except ImportError as e:
        raise ConfigError(
            "search: true needs Pagefind; install it with pip install 'postil[search]'"
        ) from e

    async def index(out: Path) -> None:
        # Leaving the context writes the files to `output_path` (by default `pagefind/` in
        # the working directory). `get_files` is not used: its one reply line hangs the
        # client once it passes 2 MiB (the limit of pagefind.service's stream reader).
        lang = language.split("-")[0].lower()
        config = IndexConfig(force_language=lang, output_path=str(out))
        async with PagefindIndex(config=config) as pagefind:
            for url, document in documents:
                await pagefind.add_html_file(content=document, url=url)

    with tempfile.TemporaryDirectory(prefix="postil-search-") as scratch:
        out = Path(scratch) / "pagefind"
        # In a thread of its own: the caller may already run an event loop (an embedding
        # program, Playwright's sync API), where asyncio.run refuses to start another.
        with ThreadPoolExecutor(max_workers=1) as thread:
            thread.submit(lambda: asyncio.run(index(out))).result()
        files = (p for p in out.rglob("*") if p.is_file())
        return sorted((p.relative_to(out).as_posix(), p.read_bytes()) for p in files)
