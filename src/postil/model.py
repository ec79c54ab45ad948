"""The frozen dataclasses that flow through postil's build pipeline (DESIGN.md, "The pipeline").

discover -> SourceFile; front matter -> FrontMatter; posts -> Post; Markdown -> RenderedPost;
collect -> Site; pages -> OutputFile. Each stage returns new objects; nothing is filled in later.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from markupsafe import Markup, escape

if TYPE_CHECKING:  # only for annotations: `postil new` should not import markdown-it
    from postil.markdown.rendered import RenderedMarkdown


DEFAULT_MERMAID_URL = "https://cdn.jsdelivr.net/npm/mermaid@12/dist/mermaid.esm.min.mjs"
"""Mermaid's ES module, major version 12, from the jsDelivr CDN (as Hugo's documentation,
"Diagrams", and MkDocs Material load it): what pages with a diagram import by default."""

DEFAULT_NAV = (("Posts", "/"), ("Archive", "/archive/"), ("Tags", "/tags/"), ("Feed", "/feed.xml"))
"""The header links of a site whose `postil.yaml` has no `nav`: every page the theme makes."""


@dataclass(frozen=True)
class SiteConfig:
    """The validated contents of `postil.yaml`.

    Attributes:
        root: the site's directory (holds postil.yaml, content/, templates/, static/).
        title: the site's name, shown in the header and the feed.
        author: the default author of posts.
        base_url: the absolute URL the site is published at, ending in "/"
            (`https://user.github.io/repo/`); its path is the base path of every internal link.
        language: BCP 47 language tag for `<html lang>`.
        description: one sentence about the site, for the index and the feed.
        timezone: IANA zone name for dates written without an offset.
        paginate: posts per index page.
        math_macros: site-wide math macros, name (no backslash) -> replacement LaTeX: the
            definitions of the `math: macros_from:` files, then `math: macros:`.
        math_macros_from: the files `math: macros_from:` names, from the site's folder
            (`postil.macrofiles`); their macros are in `math_macros`.
        math_double_dollar_in_text: how `$$…$$` inside a line of text reads, "inline"
            (kramdown's reading) or "display" (Pandoc's); `math: double_dollar_in_text:`.
        math_code_spans: how a code span holding a formula (`` `$x$` ``) reads, "code"
            or "math" (math-code.js's reading: `postil.markdown.mathcode`); `math: code_spans:`.
        cname: custom domain for GitHub Pages (written to CNAME), or "".
        nav: header links as (label, url) pairs; urls without a scheme are site-relative.
            Default `DEFAULT_NAV` (posts, archive, tags, feed); `nav: []` shows none.
        footer: footer text (plain text).
        words_per_minute: reading speed for "N min read".
        feed_limit: how many of the newest posts the Atom and RSS feeds hold, in full; 0
            means every post (a feed is re-read by every reader on every poll: keep it small).
        image: the site's social image (`og:image` of pages and of posts without an image
            of their own): a URL, or a path from the site's root (`/img/card.png`); or "".
        bibliography: the site's `.bib` files, relative to the site root: every post can
            cite their entries (`postil.bibliography`).
        citation_style: how citations read, "author-year" ("(Vaswani et al., 2017)") or
            "numeric" ("[3]"); a post's `citation_style:` overrides it.
        cite_this_post: whether posts show the "Cite this post" block (a post's
            `citation: false` turns it off for that post).
        search: build a Pagefind search index, a search page and a search box
            (`postil.search`; needs `pip install 'postil[search]'`).
        mermaid_url: the URL of Mermaid's ES module that pages with a diagram import
            (`postil.markdown.diagram`), `DEFAULT_MERMAID_URL` unless `mermaid:` names
            another (an http(s) URL or a path from the site's root); "" with
            `mermaid: false`: diagrams are shown as their source.
        params: the site's own values, (name, text) pairs, a nested mapping's by dotted
            name: what posts read as Jekyll's `{{ site.name }}`, Hugo's
            `{{< param name >}}` and Quarto's `{{< var name >}}` (`params:`).
    """

    root: Path
    title: str
    author: str
    base_url: str
    language: str = "en"
    description: str = ""
    timezone: str = "UTC"
    paginate: int = 10
    math_macros: tuple[tuple[str, str], ...] = ()
    math_macros_from: tuple[str, ...] = ()
    math_double_dollar_in_text: str = "inline"
    math_code_spans: str = "code"
    cname: str = ""
    nav: tuple[tuple[str, str], ...] = DEFAULT_NAV
    footer: str = ""
    words_per_minute: int = 200
    feed_limit: int = 20
    image: str = ""
    bibliography: tuple[str, ...] = ()
    citation_style: str = "author-year"
    cite_this_post: bool = True
    search: bool = False
    mermaid_url: str = DEFAULT_MERMAID_URL
    params: tuple[tuple[str, str], ...] = ()

    @property
    def base_path(self) -> str:
        """Return the path part of `base_url`, always starting and ending with "/"."""
        from urllib.parse import urlsplit

        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"


@dataclass(frozen=True)
class SourceFile:
    """A content file as read from disk.

    Attributes:
        path: the file on disk.
        rel: the path relative to the site root, POSIX separators (for messages).
        text: the decoded text: UTF-8, BOM stripped, CRLF and lone CR turned into LF,
            characters HTML forbids left out (`dropped`).
        kind: "post" for files under content/posts/, "page" otherwise.
        dropped: where the characters HTML forbids were, in the file as written, and which
            they were: (line, column, code point) each, 1-based (`read_source`).
    """

    path: Path
    rel: str
    text: str
    kind: str
    dropped: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class TextAt:
    """Where a front matter text value is written, so a message can point into it.

    Attributes:
        line: 1-based file line of the value's first character.
        col: 1-based column of the value's first character (after an opening quote).
        verbatim: the value is the file's characters one for one from there (a plain or
            quoted scalar on one line, without escapes or collapsed spaces), so its
            character `i` is at column `col + i`; otherwise messages point at `col`.
    """

    line: int = 1
    col: int = 1
    verbatim: bool = False


@dataclass(frozen=True)
class Author:
    """One author of a post, as Distill, al-folio and Quarto front matter describe them.

    Attributes:
        name: the name as written.
        url: a link for the name (a home page), or "".
        affiliations: the author's institutions, in order (shown on the page under the title).
    """

    name: str
    url: str = ""
    affiliations: tuple[str, ...] = ()


@dataclass(frozen=True)
class FrontMatter:
    """Typed front matter of a post or page.

    Attributes:
        title: the title as the author wrote it: text, with math in `$…$` or `\\(…\\)`
            (rendered as MathML on the page, as readable text elsewhere: see
            `RenderedPost.title_html` and `title_text`).
        date: the post's date, timezone-aware (None for pages without a date).
        publish_date: when the post goes into the site, if later than its date (Hugo's
            `publishDate`), or None: its `date` (`published_at`).
        updated: time of the last significant update, timezone-aware, or None.
        subtitle: the lede under the title, or "" (math as in `title`).
        label: a small label above the title ("Placeholder post"), or "".
        authors: the authors' names in order (defaults to the site author).
        author_details: the authors with their links and affiliations, when front matter
            gives them as mappings (`authors: [{name: …, affiliations: …}]`); else ().
        tags: the post's tags (taxonomy terms), as written; `categories` join them.
        draft: drafts are built only with --drafts.
        summary: the summary for lists and feeds (`summary:`, `description:`, `excerpt:`),
            or "" (then the first paragraph is used); math as in `title`.
        slug: an explicit slug, or "" to derive one from the file name.
        macros: per-post math macros.
        citation: whether to show the "Cite this post" block.
        image: the post's social image (a URL or a site path as written, `image:`), or "".
        toc: whether the page shows a table of contents; None: when it has 3 or more h2.
        title_at: where `title` is written in the file (for math errors in it).
        title_id: the title's element id, or "": for a source without `title:` titled by
            its opening `# heading`, that heading's `{#id}`, else its slug
            (`postil.slugs.slug_for`), so links to `#id` land on the title as they land
            on the `h1` of GitHub, mdBook and VuePress.
        title_heading: whether the title is the body's opening `# heading`.
        canonical: the URL of the post's original when it was published first elsewhere
            (`canonical_url:`), the page's `<link rel="canonical">`; "" for the post's own.
        front_matter_syntax: how the front matter is written: "yaml", "toml", "julia"
            (Franklin.jl's page variables), "meta" (`Key: value` lines), "nikola" (Nikola's
            `.. key: value` lines), … or "" (none);
            the Markdown reads a dialect's own syntax by it (`postil.markdown.franklin`).
        labels: (label, heading text as written, whether the label is written rather than
            made from the text) of the sections the body labels for references from other
            pages: MyST's `(label)=` targets and, in R Markdown, headings' `{#id}` or Pandoc
            identifiers (`postil.content.headers.section_labels`).
        vue_values: the front matter's scalar values (key, text as written) when the body
            reads them (VitePress' `{{ $frontmatter.title }}`, Hugo's `{{< param key >}}`,
            Quarto's `{{< meta key >}}`), else ().
        subtitle_at: where `subtitle` is written.
        summary_at: where `summary` is written.
        image_at: where `image` (or `images`, `thumbnail`, `cover`) is written.
        bibliography: the post's own `.bib` files as written, relative to its file (its
            bundle may hold them); cited before the site's.
        bibliography_at: where each of them is written.
        citation_style: "author-year" or "numeric" for this post; "": the site's.
        permalink: the post's own URL path (`permalink:`, Hugo's `url:`) as
            `fieldtypes.site_path` normalises it ("2012/12/04/x/"), or "": from its slug.
        permalink_at: where `permalink` is written.
        slug_at: where `slug` is written (a slug another post has is reported there).
        aliases: paths that redirect to the post (Hugo's `aliases:`, Jekyll's
            `redirect_from:`), normalised the same way, with a `/` in front when written
            from the site's root; one without is relative to the post's folder
            (`content.posts.alias_path`).
        aliases_at: where each of them is written.
        doi: the post's own DOI (`doi:`) without its resolver ("10.59350/abc"), or "":
            in its citation block and metadata.
        styles: the page's own CSS (`styles:`, al-folio's `_styles:`), or "": written in a
            `<style>` element in its head, after the theme's stylesheets.
        media_path: the folder its relative image paths are read from, as written
            (Chirpy's `media_subpath:`, older `img_path:`: `/assets/img/post-x`), or "":
            the post's own folder.
        lang: the page's language, a BCP 47 tag (`lang: zh`, Pandoc's and Quarto's
            metadata field), or "": the site's `language`.
    """

    title: str
    date: datetime | None = None
    publish_date: datetime | None = None
    updated: datetime | None = None
    subtitle: str = ""
    label: str = ""
    authors: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    draft: bool = False
    summary: str = ""
    slug: str = ""
    macros: tuple[tuple[str, str], ...] = ()
    citation: bool = True
    image: str = ""
    toc: bool | None = None
    author_details: tuple[Author, ...] = ()
    title_at: TextAt = TextAt()
    subtitle_at: TextAt = TextAt()
    summary_at: TextAt = TextAt()
    image_at: TextAt = TextAt()
    bibliography: tuple[str, ...] = ()
    bibliography_at: tuple[TextAt, ...] = ()
    citation_style: str = ""
    permalink: str = ""
    permalink_at: TextAt = TextAt()
    slug_at: TextAt = TextAt()
    aliases: tuple[str, ...] = ()
    aliases_at: tuple[TextAt, ...] = ()
    doi: str = ""
    title_id: str = ""
    title_heading: bool = False
    vue_values: tuple[tuple[str, str], ...] = ()
    media_path: str = ""
    styles: str = ""
    lang: str = ""
    front_matter_syntax: str = ""
    canonical: str = ""
    labels: tuple[tuple[str, str, bool], ...] = ()

    @property
    def published_at(self) -> datetime | None:
        """When the post goes into the site: its `publish_date`, else its `date` (Hugo's
        rule: a `publishDate` still to come holds the post back, as a future `date` does)."""
        return self.publish_date or self.date


@dataclass(frozen=True)
class Post:
    """A post or page whose URL is known but whose Markdown is not rendered yet.

    Attributes:
        source: the file it comes from.
        meta: its front matter.
        body_start: where the body (the Markdown after the front matter) starts in
            `source.text`, in characters; read the body as `body`. An offset rather than a
            copy of the text: the build holds every post at once.
        body_line: the 1-based file line where `body` starts.
        slug: the URL-safe name.
        url: the site-relative URL without the base path, e.g. "posts/my-post/".
        output_rel: the output file, relative to the output directory ("posts/my-post/index.html").
        body_digest: `postil.cache.fingerprint` of the body, when known ("": not computed),
            so the Markdown cache key of an unread source needs no read.
    """

    source: SourceFile
    meta: FrontMatter
    body_start: int
    body_line: int
    slug: str
    url: str
    output_rel: str
    body_digest: str = ""

    @property
    def body(self) -> str:
        """The Markdown after the front matter (a fresh slice of `source.text`)."""
        return self.source.text[self.body_start :]


@dataclass(frozen=True)
class RenderedPost:
    """A post with its rendered body.

    Attributes:
        post: the post.
        content: what Markdown rendering produced.
        reading_minutes: whole minutes to read at the site's words per minute (≥ 1).
    """

    post: Post
    content: RenderedMarkdown
    reading_minutes: int

    @property
    def title_html(self) -> Markup:
        """The title as HTML, its math as MathML (for `<h1>` and lists of posts)."""
        title = self.content.title
        return Markup(title.html) if title else escape(self.post.meta.title)

    @property
    def title_text(self) -> str:
        """The title as readable plain text (`<title>`, feeds, metadata, citations)."""
        title = self.content.title
        return title.text if title else self.post.meta.title

    @property
    def subtitle_html(self) -> Markup:
        """The subtitle as HTML, its math as MathML ("" when there is none)."""
        subtitle = self.content.subtitle
        return Markup(subtitle.html) if subtitle else escape(self.post.meta.subtitle)

    @property
    def subtitle_text(self) -> str:
        """The subtitle as readable plain text ("" when there is none)."""
        subtitle = self.content.subtitle
        return subtitle.text if subtitle else self.post.meta.subtitle

    @property
    def summary_html(self) -> Markup:
        """The front matter summary as HTML, its math as MathML (lists of posts, feeds);
        "" when the post has none."""
        summary = self.content.front_summary
        return Markup(summary.html) if summary else escape(self.post.meta.summary)

    @property
    def summary_text(self) -> str:
        """The front matter summary as readable plain text, math as in `title_text`
        (`<meta name="description">`, JSON-LD); "" when the post has none."""
        summary = self.content.front_summary
        return summary.text if summary else self.post.meta.summary

    def language(self, site_language: str) -> str:
        """The page's BCP 47 language: its front matter's `lang`, else `site_language`."""
        return self.post.meta.lang or site_language


@dataclass(frozen=True)
class Site:
    """Everything the page stage needs: config, posts (newest first), pages, tags.

    Attributes:
        config: the site configuration.
        posts: the published posts, newest first (ties broken by slug).
        pages: stand-alone pages (about.md) by slug.
        tags: tag -> posts with that tag, newest first, tags sorted case-insensitively.
        files: (output rel, file) of every file published as it is: static files and the
            content assets (`postil.assets`), sorted by rel.
        previews: URLs of the posts and pages in the site only for a preview (`--drafts`,
            `--future`, `postil serve`): drafts and posts dated after the build. They are
            shown, but never go into the feeds or the sitemap.
    """

    config: SiteConfig
    posts: tuple[RenderedPost, ...]
    pages: tuple[RenderedPost, ...] = ()
    tags: tuple[tuple[str, tuple[RenderedPost, ...]], ...] = field(default=())
    files: tuple[tuple[str, Path], ...] = ()
    previews: frozenset[str] = frozenset()


class Pieces:
    """An output file's bytes as consecutive pieces, written one at a time, never joined.

    A post's page is its head, its body's bytes (shared with the rendered post, not
    copied) and its tail; a feed is its XML with each entry's body between, made a
    segment at a time as the file is written. So a 20 MB post's 55 MB page and 70 MB
    feeds are never one `bytes` (issue 19; docs/performance.md). Every writer takes them:
    `postil.output.write_new_file` writes and digests them piece by piece, the dev server
    joins them (it keeps each file in memory anyway), `postil check` reads them through.

    Args:
        parts: the pieces in order: a tuple (read any number of times) or an iterable that
            makes them as it is read (a generator: read once).

    Raises:
        RuntimeError: (on reading) pieces made as they are read were read before.
    """

    __slots__ = ("_parts", "_read")

    def __init__(self, parts: Iterable[bytes]) -> None:
        self._parts = parts
        self._read = False

    def __iter__(self) -> Iterator[bytes]:
        if not isinstance(self._parts, tuple):
            if self._read:
                raise RuntimeError("pieces made as they are read can be read only once")
            self._read = True
        return iter(self._parts)

    def joined(self) -> bytes:
        """Return the pieces as one `bytes` (for what keeps a file whole: the dev server)."""
        return b"".join(self)


OutputData: TypeAlias = bytes | Pieces
"""An output file's bytes: whole, or as `Pieces` (a large page, a feed)."""


def output_bytes(data: OutputData) -> bytes:
    """Return `data` as one `bytes` (joining `Pieces`; reading them if made as read)."""
    return data if isinstance(data, bytes) else data.joined()


@dataclass(frozen=True)
class OutputFile:
    """One file of the built site.

    Attributes:
        rel: path relative to the output directory (POSIX).
        data: its bytes, whole or as `Pieces` (a page spliced around a post's body, a
            feed); the writers write either (`postil.output.write_new_file`).
    """

    rel: str
    data: OutputData
