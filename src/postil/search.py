"""Site search (`search: true`): a static Pagefind index of the published posts and pages.

Pagefind (https://pagefind.app; its Python package `pagefind` finds the binary that
`pagefind-bin-extended` ships, which segments Chinese, Japanese and Korean) indexes one small
document per post: its title and body as the page shows them (notes once, without the
margin copies, as in the feeds), each formula as the words of its TeX so that a search for
`softmax` finds `\\operatorname{softmax}`. The index and Pagefind's own scripts are written
under `pagefind/` with the site, so search works offline and needs no CDN; the theme's
search page (`search/`) loads them under the base path. Drafts and future posts
(`Site.previews`) are never indexed. The index is made once per set of documents and kept
in the build cache ("search" rows), so a build that changed no post does not run Pagefind.
"""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from postil.cache.keys import fingerprint
from postil.cache.store import BuildCache
from postil.config import key_location
from postil.errors import ConfigError, OutputError
from postil.htmlfilter import feed_html
from postil.model import OutputFile, RenderedPost, Site

SEARCH_DIR = "pagefind/"
"""Where the index and Pagefind's scripts are published (Pagefind's default name)."""

_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.DOTALL)
_BACKREF = re.compile(r' ?<a [^>]*class="(?:footnote|citation)-backref"[^>]*>[^<]*</a>')
"""A note's or a reference's ↩︎ back-link: navigation, not text (its arrow showed in
search results: "… 5–48. ↩︎. Kahan, W. …")."""
_TEX_PUNCTUATION = re.compile(r"[\\{}^_()\[\]&,;:=+\-*/|<>!~'$.]+")


@dataclass(frozen=True)
class SearchIndex:
    """The search index of a site, made when asked for (running Pagefind takes seconds).

    Attributes:
        key: the fingerprint of its documents: the same key, the same files.
        files: returns its files, under `SEARCH_DIR` (from the cache when it has them).
    """

    key: str
    files: Callable[[], list[OutputFile]]


def search_index(site: Site, cache: BuildCache, keys: Mapping[str, str]) -> SearchIndex | None:
    """Return the search index of `site`, not yet made (None without `search: true`).

    Args:
        site: the collected site.
        cache: keeps the index by the fingerprint of its documents.
        keys: each post's content key by source path (`markdown_key`), which stands for its
            rendered HTML in the index's fingerprint.

    Raises:
        ConfigError: `search: true`, the cache does not hold the index and Pagefind is not
            installed (said at once, before the index is made).
    """
    if not site.config.search:
        return None
    posts = indexed_posts(site)
    key = fingerprint(
        site.config.base_path,
        site.config.language,
        *(
            f"{r.post.url} {keys.get(r.post.source.rel) or fingerprint(r.content.html)}"
            for r in posts
        ),
    )

    kept = cache.get("search", "pagefind", key)
    if not isinstance(kept, list):
        _pagefind_executable(site.config.root)  # fail now, as making the index would

    def files() -> list[OutputFile]:
        found = kept if isinstance(kept, list) else cache.get("search", "pagefind", key)
        if not isinstance(found, list):
            # At the pages' paths: Pagefind gives each its URL from the site's root, and
            # the search page's script puts the base path before it.
            documents = [(r.post.output_rel, search_document(site, r)) for r in posts]
            documents = documents or [("index.html", _home_document(site))]
            found = list(_run_pagefind(documents, site.config.language, site.config.root))
            cache.put("search", "pagefind", key, found)
        return [OutputFile(SEARCH_DIR + rel, data) for rel, data in found]

    return SearchIndex(key, files)


def search_files(site: Site, cache: BuildCache, keys: Mapping[str, str]) -> list[OutputFile]:
    """Return the files of the search index of `site` (empty without `search: true`).

    Args: as `search_index`.

    Raises:
        ConfigError: `search: true` but Pagefind is not installed.
        OutputError: Pagefind failed.
    """
    index = search_index(site, cache, keys)
    return index.files() if index is not None else []


def indexed_posts(site: Site) -> list[RenderedPost]:
    """Return the posts and pages the index holds: every one but the previews."""
    return [r for r in site.posts + site.pages if r.post.url not in site.previews]


def search_document(site: Site, rendered: RenderedPost) -> str:
    """Return the HTML Pagefind indexes for one post: its title and body (`feed_html`:
    notes once, no buttons or scripts), each formula replaced by the words of its TeX, the
    back-links of notes and references left out."""
    body = feed_html(rendered.content.html, site.config.base_url + rendered.post.url)
    body = _BACKREF.sub("", _MATH.sub(_tex_words, body))
    title = html.escape(rendered.title_text)
    return (
        f'<html lang="{html.escape(site.config.language)}"><body><main data-pagefind-body>'
        f"<h1>{title}</h1>{body}</main></body></html>"
    )


def _home_document(site: Site) -> str:
    """Return the HTML Pagefind indexes for the home page (its title and description),
    the one document of a site with no published post or page: Pagefind makes no index of
    nothing (it fails), which failed the build of a new site whose only post was a draft,
    and its search page needs the index's scripts."""
    config = site.config
    return (
        f'<html lang="{html.escape(config.language)}"><body><main data-pagefind-body>'
        f"<h1>{html.escape(config.title)}</h1><p>{html.escape(config.description or '')}</p>"
        "</main></body></html>"
    )


def _tex_words(match: re.Match[str]) -> str:
    """Return a `<math>` element as its TeX source with TeX's punctuation as spaces."""
    tex = _TEX.search(match[0])
    words = _TEX_PUNCTUATION.sub(" ", html.unescape(tex[1])) if tex else ""
    return f" <span>{html.escape(' '.join(words.split()))}</span> "


def _run_pagefind(
    documents: list[tuple[str, str]], language: str, root: Path
) -> list[tuple[str, bytes]]:
    """Index (output rel, html) documents with Pagefind's binary; return its files (path
    under `SEARCH_DIR`, bytes), sorted by path. `root` is the site's, for the error.

    The documents are written to a scratch folder at their pages' paths, so Pagefind gives
    each the page's URL from the site's root. The binary is run as a command, not through
    the package's Python API: that sends each document over a pipe and waits for its reply
    (106 s for 1,000 posts here, against 8 s for the command), and its `get_files` reply
    hangs once it passes 2 MiB.

    Raises:
        ConfigError: Pagefind is not installed.
        OutputError: Pagefind failed (its last lines are in the message).
    """
    executable = _pagefind_executable(root)
    with tempfile.TemporaryDirectory(prefix="postil-search-") as scratch:
        site, out = Path(scratch) / "site", Path(scratch) / "pagefind"
        for rel, document in documents:
            path = site / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(document, encoding="utf-8")
        lang = language.split("-")[0].lower()
        command = [str(executable), "--site", str(site), "--output-path", str(out)]
        command += ["--force-language", lang, "--silent"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
            raise OutputError(f"Pagefind failed to index the site (exit {done.returncode}): {tail}")
        files = (p for p in out.rglob("*") if p.is_file())
        return sorted((p.relative_to(out).as_posix(), p.read_bytes()) for p in files)


def pagefind_installed() -> Path | None:
    """Return Pagefind's binary as the `pagefind` package finds it (the extended build
    first), or None when the `search` extra is not installed."""
    try:
        from pagefind.service import get_executable

        executable = get_executable()
    except ImportError:
        return None
    return Path(executable) if executable is not None else None


def _pagefind_executable(root: Path) -> Path:
    """Return Pagefind's binary (`pagefind_installed`).

    Raises:
        ConfigError: Pagefind is not installed; at `search:` in `root/postil.yaml`.
    """
    executable = pagefind_installed()
    if executable is None:
        raise ConfigError(
            "`search: true` needs Pagefind, which is not installed: install it with "
            "pip install 'postil[search]', or set `search: false`",
            key_location(root, "search"),
        )
    return executable
