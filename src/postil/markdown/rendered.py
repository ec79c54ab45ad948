"""What rendering one Markdown body produces: `RenderedMarkdown` and its parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from postil.bibliography.entries import Work
from postil.errors import Diagnostic, Location


@dataclass(frozen=True)
class TocEntry:
    """One heading in a post's table of contents.

    Attributes:
        level: heading level, 2 for `##`.
        id: the heading's anchor id (unique in the page).
        text: the heading's plain text (math as readable text: `postil.math.text`).
        html: the heading's text as HTML for the table of contents: its math as MathML,
            the rest as escaped text ("": use `text`).
    """

    level: int
    id: str
    text: str
    html: str = ""


def contents(
    entries: Sequence[TocEntry], title: str = ""
) -> tuple[tuple[TocEntry, tuple[TocEntry, ...]], ...]:
    """Return a post's table of contents: each section with its headings of the next level
    used below it, from the post's headings in order (`state.extra["toc"]`).

    The sections are the shallowest level of headings (kramdown's `{:toc}` and
    Python-Markdown's `[TOC]` list every level from `#`, nested): `##` in most posts, `#`
    in 47 of 291 real posts of Jekyll, Hakyll, mdBook, VitePress and Franklin blogs (their
    `##` are subsections; postil listed only those, or nothing), `####` in some; a heading
    of a level deeper than the next is left out. A first heading alone at its level whose
    text is the post's `title` repeats it (a front matter title and `# Title` again): it is
    no section. A heading of the next level before any section is one of its own.
    """
    found = list(entries)
    if title and found and [e.level for e in found].count(found[0].level) == 1:
        if found[0].text.strip().casefold() == title.strip().casefold() and len(found) > 1:
            found = found[1:]
    if not found:
        return ()
    top = min(entry.level for entry in found)
    deeper = sorted({entry.level for entry in found if entry.level > top})
    groups: list[tuple[TocEntry, list[TocEntry]]] = []
    for entry in found:
        if entry.level == top or (deeper and entry.level == deeper[0] and not groups):
            groups.append((entry, []))
        elif deeper and entry.level == deeper[0]:
            groups[-1][1].append(entry)
    return tuple((entry, tuple(children)) for entry, children in groups)


@dataclass(frozen=True)
class TitleText:
    """A front matter text with math (title, subtitle), rendered for each use.

    Attributes:
        html: HTML: text escaped, math as inline MathML (or a `math-error` span).
        text: readable plain text: math through `postil.math.text.to_plain_text`'s rules.
        parts: ("text", text) and ("math", TeX source) pieces in order, for formats with
            math of their own (BibTeX keeps `$…$`).
    """

    html: str
    text: str
    parts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class AnchorLink:
    """A link with a `#fragment` to this page or another post, checked after rendering.

    Attributes:
        target: the source rel of the linked post (`content/posts/b.md`), "" for this page.
        fragment: the anchor id, percent-decoded.
        location: where the link is written.
    """

    target: str
    fragment: str
    location: Location


@dataclass(frozen=True)
class Reference:
    """A file of the built site a post refers to (an image, a link to a page or a file),
    checked once every output file is known (`postil.linkcheck`).

    Attributes:
        target: the output rel it needs, percent-decoded (`img/a.png`, `posts/b/`).
        url: the reference as written in the post.
        location: where it is written.
        beside: for a relative path, the file it was first looked for beside the post
            (`content/posts/a.png`: `references.Resolved.beside`); "" otherwise.
    """

    target: str
    url: str
    location: Location
    beside: str = ""


@dataclass(frozen=True)
class SourceLink:
    """A link to the source file of a post or page that no page of this build has
    (`[x](other.md)`), told once the build knows why (`postil.sourcelinks`).

    Attributes:
        source: the source path it names, from the site's root (`content/posts/other.md`).
        url: the link as written.
        location: where it is written.
    """

    source: str
    url: str
    location: Location


@dataclass(frozen=True)
class CitedWork:
    """A work a post cites, for its metadata (`citation_reference`, JSON-LD `citation`).

    Attributes:
        work: the work as its `.bib` file gives it.
        title: its title as readable plain text (math through `postil.math.text`).
        reference: its reference list entry as plain text.
    """

    work: Work
    title: str
    reference: str


@dataclass(frozen=True)
class RenderedMarkdown:
    """The HTML of one Markdown body and what rendering found in it.

    Attributes:
        html_utf8: the body as an HTML fragment (math as MathML, notes as sidenotes + Notes
            list), UTF-8 encoded; read it as text through `html`. Kept as bytes because a
            Python `str` with one character beyond U+FFFF (MathML's italic letters, e.g.
            U+1D465 𝑥, in most posts with math) stores every character in 4 bytes (PEP 393):
            at 1,000 posts the bodies took 90 MiB of the build process as `str`, 27 as UTF-8.
            None when it is left in the build cache under `html_key` (`html` loads it
            through `load_html`), so a build that renders few pages does not read every
            post's HTML.
        toc: the headings, in order.
        toc_placed: whether the body shows the table of contents itself (kramdown's
            `{:toc}` marker, `postil.markdown.toc`), so the page does not add it again.
        word_count: words of prose (code and math excluded), for the reading time.
        widgets: names of the widgets the body uses, so the page loads their scripts only.
        diagrams: the diagram languages the body uses ("mermaid"), so the page loads the
            script that draws them only then (`postil.markdown.diagram`).
        math_chars: the characters the body's formulas draw, sorted, for the math font's
            subset (`postil.mathfont`); "" when the body has no formula, so the page loads
            no math script.
        figures: figure id -> number.
        equations: equation label -> number text.
        diagnostics: warnings and errors, with file locations.
        anchor_links: links with a fragment, for `postil.anchors.check_anchors`.
        references: the local files and pages the body refers to, for
            `postil.linkcheck.check_references`.
        source_links: its links to sources no page of the build has (`postil.sourcelinks`).
        images: the output rel (or the absolute URL) of each image of the body, in order,
            for the page's social image (`og:image`).
        summary: the first top-level paragraph as HTML, notes and links removed
            (`postil.htmlfilter.summary_html`), for lists of posts; "" if there is none.
        title: the post's title rendered (`TitleText`), or None when not rendered here.
        subtitle: its subtitle rendered, or None when it has none.
        front_summary: its front matter `summary` rendered, or None when it has none.
        citations: the works the body cites, in reference-list order (`postil.markdown.cite`).
        html_key: the build cache's name of the HTML when `html_utf8` is None.
        load_html: reads the HTML named `html_key` from the build cache (the cache's
            `reader("html")`, attached by `postil.cache.rows.RenderedRows`); not stored.
    """

    html_utf8: bytes | None
    toc: tuple[TocEntry, ...]
    word_count: int
    widgets: frozenset[str]
    figures: tuple[tuple[str, int], ...]
    equations: tuple[tuple[str, str], ...]
    diagnostics: tuple[Diagnostic, ...]
    summary: str = ""
    anchor_links: tuple[AnchorLink, ...] = ()
    references: tuple[Reference, ...] = ()
    images: tuple[str, ...] = ()
    title: TitleText | None = None
    subtitle: TitleText | None = None
    front_summary: TitleText | None = None
    math_chars: str = ""
    toc_placed: bool = False
    citations: tuple[CitedWork, ...] = ()
    source_links: tuple[SourceLink, ...] = ()
    diagrams: frozenset[str] = frozenset()
    html_key: str = ""
    load_html: Callable[[str], bytes] | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, object]:
        """Pickle everything but `load_html`: a reader belongs to one cache and process."""
        return {**self.__dict__, "load_html": None}

    @property
    def html(self) -> str:
        """The body as an HTML fragment (decoded from `html_bytes` on each access).

        Raises:
            LookupError: the HTML is in the build cache but nothing can read it.
            CacheError: the cache lost or damaged it.
        """
        return self.html_bytes.decode("utf-8")

    @property
    def html_bytes(self) -> bytes:
        """The body as UTF-8 HTML (`html_utf8`, or loaded from the build cache on each access).

        Prefer it to `html` for what may be large: a body with one math letter beyond U+FFFF
        takes four times its characters as a `str`.

        Raises:
            LookupError: the HTML is in the build cache but nothing can read it.
            CacheError: the cache lost or damaged it.
        """
        data = self.html_utf8
        if data is None:
            if self.load_html is None:
                raise LookupError(f"the HTML of {self.html_key} is in the build cache, closed")
            data = self.load_html(self.html_key)
        return data
