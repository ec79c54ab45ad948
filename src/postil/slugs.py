"""Heading slugs: postil's own, and the ids other generators give the same heading.

postil's heading id is `slug_for(text)` (python-slugify). Posts written for another
generator link to that generator's ids (a table of contents written by the author's editor,
`[Edge detection](#11-edge-detection)`), so `foreign_slugs` computes those too; the heading
plugin (`postil.markdown.fragments`) turns a link to one of them into a link to postil's id.
postil's ids themselves never change (links from elsewhere depend on them).

This module imports nothing heavy: the front matter stage slugs a page's title with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from slugify import slugify

from postil.theme import PAGE_IDS

RESERVED_IDS = frozenset({"notes", "references", "content", "toc", "top"}) | frozenset(PAGE_IDS)
"""Ids the page already uses: the Notes and References headings (sidenote and cite
plugins) and the templates' ids (`postil.theme.PAGE_IDS`: `## Cite this post` must not take
the citation block's id)."""

RESERVED_PREFIXES = ("fn-", "fnref-", "sn-", "mn-", "fig-", "tbl-", "eq-", "cite-", "cn-", "ref-")
"""Id prefixes of notes, figures, tables, equations and citations (`postil.markdown.cite`);
a heading slug never starts with one."""

FALLBACK_SLUG = "section"
"""The id of a heading whose text has no letters or digits."""

APOSTROPHES = [["'", ""], ["\u2019", ""], ["\u02bc", ""]]
"""An apostrophe joins its word (`Markov's` is `markovs`), as kramdown's, GitHub's (Hugo's
default), Pandoc's and Python-Markdown's heading ids have it, so a post's links written
against those ids (`#markovs-inequality`) land; python-slugify alone splits the word."""


def slug_for(text: str) -> str:
    """Return the id slug of a heading text: lower-case, Unicode letters kept, hyphens,
    apostrophes dropped (`APOSTROPHES`).

    A slug that is reserved or starts with a reserved prefix gets "sec-" in front, so
    headings never take the ids of notes, figures or the Notes section.
    """
    slug = slugify(text, allow_unicode=True, replacements=APOSTROPHES) or FALLBACK_SLUG
    if slug in RESERVED_IDS or slug.startswith(RESERVED_PREFIXES):
        slug = f"sec-{slug}"
    return slug


_GITHUB_DROPPED = frozenset({"No", "Pe", "Pf", "Pi", "Ps", "Po", "Pd", "Cc", "Co", "Cf", "Cn"})


def github_slug(text: str) -> str:
    """Return GitHub's heading id of `text` (github-slugger, also used by Docusaurus, and
    the rule of mdBook, Hugo's goldmark `github` ids and VS Code's Markdown All in One).

    github-slugger (Flet/github-slugger `index.js`, `script/generate-regex.mjs`) lower-cases
    the text, deletes every character of the general categories Other_Number, all
    punctuation but Connector (`_`), Symbol, Control, Private_Use, Format, Unassigned and
    Separator, except ASCII `-` and space and letters that are Alphabetic, then turns each
    space into `-`: `1.1. Edge detection` is `11-edge-detection`, `A & B` is `a--b`.
    """
    kept = []
    for ch in text.lower():
        if ch in " -" or ch.isalpha():
            kept.append(ch)
            continue
        category = unicodedata.category(ch)
        if category in _GITHUB_DROPPED or category[0] in "SZ":
            continue
        kept.append(ch)
    return "".join(kept).replace(" ", "-")


def mdbook_slug(text: str) -> str:
    """Return mdBook's heading id of `text` (`normalize_id`, rust-lang/mdBook
    `src/utils/mod.rs`): alphanumerics (any script), `_` and `-` kept, ASCII letters
    lower-cased, each whitespace character a `-`, everything else dropped."""
    kept = []
    for ch in text:
        if ch.isalnum() or ch in "_-":
            kept.append(ch.lower() if ch.isascii() else ch)
        elif ch.isspace():
            kept.append("-")
    return "".join(kept)


def kramdown_slug(text: str) -> str:
    """Return kramdown's heading id of `text` (Jekyll's default; kramdown
    `lib/kramdown/converter/base.rb`, `basic_generate_id`): everything before the first
    ASCII letter dropped, then every character but ASCII letters, digits, space and `-`,
    spaces turned into `-`, lower-cased; "section" when nothing is left."""
    slug = re.sub(r"^[^a-zA-Z]+", "", text)
    slug = re.sub(r"[^a-zA-Z0-9 -]", "", slug).replace(" ", "-").lower()
    return slug or "section"


def pandoc_slug(text: str) -> str:
    """Return Pandoc's heading id of `text` (extension `auto_identifiers`, as Quarto and
    R Markdown use it; `inlineListToIdentifier` in `Text.Pandoc.Shared`): lower-cased,
    every character but alphanumerics, whitespace, `_`, `-` and `.` dropped, the words
    joined by `-`, then everything before the first letter dropped; "section" when empty."""
    kept = "".join(ch for ch in text.lower() if ch.isalnum() or ch.isspace() or ch in "_-.")
    slug = "-".join(kept.split())
    while slug and not slug[0].isalpha():
        slug = slug[1:]
    return slug or "section"


_VUEPRESS_SPECIAL = re.compile(r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'“”‘’<>,.?/]+")


def vuepress_slug(text: str) -> str:
    """Return VuePress' and VitePress' heading id of `text` (`slugify` of @vuepress/shared
    and @mdit-vue/shared): NFKD, combining marks U+0300–036F and control characters
    dropped, each run of whitespace and ASCII punctuation (and curly quotes) one `-`, no
    `-` at either end, `_` put before a leading digit, lower-cased: `1.1. Edge detection`
    is `_1-1-edge-detection`."""
    slug = unicodedata.normalize("NFKD", text)
    slug = re.sub("[\u0300-\u036f\u0000-\u001f]", "", slug)
    slug = _VUEPRESS_SPECIAL.sub("-", slug).strip("-")
    return re.sub(r"^(\d)", r"_\1", slug).lower()


def markdown_it_anchor_slug(text: str) -> str:
    """Return markdown-it-anchor's default heading id of `text` (Eleventy's usual plugin;
    its `slugify`: trimmed, lower-cased, each whitespace run a `-`, punctuation kept; the
    id is URI-encoded, which a link's fragment is compared decoded)."""
    return re.sub(r"\s+", "-", text.strip().lower())


def python_markdown_slug(text: str) -> str:
    """Return Python-Markdown's `toc` heading id of `text` (MkDocs' and Pelican's default;
    `markdown.extensions.toc.slugify`): NFKD folded to ASCII, every character but word
    characters, whitespace and `-` dropped, lower-cased, runs of whitespace and `-` one
    `-`."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^\w\s-]", "", ascii_text).strip().lower()
    return re.sub(r"[-\s]+", "-", slug)


_PYMDOWNX_TAGS = re.compile(r"</?[^>]*>")
_PYMDOWNX_DROPPED = re.compile(r"[^\w\- ]")


def pymdownx_slug(text: str) -> str:
    """Return the heading id of pymdown-extensions' `pymdownx.slugs.slugify` with its
    default `case: none` (Material for MkDocs' `toc: slugify:`; facelessuser/pymdown-extensions
    `pymdownx/slugs.py`, `_uslugify`): NFC, tags and the ends' whitespace stripped, the
    case kept, every character but word characters, `-` and space dropped, each space a
    `-`: `Cooley–Tukey FFT` is `CooleyTukey-FFT`."""
    slug = _PYMDOWNX_TAGS.sub("", unicodedata.normalize("NFC", text)).strip()
    return _PYMDOWNX_DROPPED.sub("", slug).replace(" ", "-")


def pymdownx_lower_slug(text: str) -> str:
    """Return `pymdownx.slugs.slugify(case="lower")`'s heading id (the setting Material for
    MkDocs' documentation shows, and the older `uslugify`): `pymdownx_slug` lower-cased."""
    return pymdownx_slug(text.lower())


FOREIGN_SLUGS: dict[str, Callable[[str], str]] = {
    "GitHub": github_slug,
    "mdBook": mdbook_slug,
    "kramdown": kramdown_slug,
    "Pandoc": pandoc_slug,
    "VuePress": vuepress_slug,
    "markdown-it-anchor": markdown_it_anchor_slug,
    "Python-Markdown": python_markdown_slug,
    "pymdownx.slugs": pymdownx_slug,
    "pymdownx.slugs (lower case)": pymdownx_lower_slug,
}
"""Other generators' heading id rules by the name a message gives them."""


def foreign_ids(texts: list[str]) -> dict[str, set[int]]:
    """Return, for a page's headings in order, every id another generator would give one
    of them, mapped to the indices of the headings that have it.

    Each generator's repeats are numbered as github-slugger numbers them (`-1`, `-2`,
    skipping a suffix another heading's own slug already took), which mdBook, kramdown,
    Pandoc and markdown-it-anchor (VuePress) also do for plain repeats; counted over the
    same headings in the same order.
    """
    found: dict[str, set[int]] = {}
    for rule in FOREIGN_SLUGS.values():
        counts: dict[str, int] = {}
        for index, text in enumerate(texts):
            slug = rule(text)
            if not slug:
                continue
            candidate = slug
            while candidate in counts:
                counts[slug] += 1
                candidate = f"{slug}-{counts[slug]}"
            counts[candidate] = 0
            found.setdefault(candidate, set()).add(index)
    return found
