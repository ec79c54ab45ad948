"""postil's Markdown: one markdown-it-py parser with postil's plugins, and `render_post`.

The plugins live one per module in this package (the mdit-py-plugins pattern); each
registers rules and renderers only and keeps per-document state in `env["postil"]`
(a `postil.markdown.state.RenderState`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from postil.errors import Diagnostic, Location
from postil.htmlfilter import summary_html
from postil.markdown.state import RenderState


@dataclass(frozen=True)
class TocEntry:
    """One heading in a post's table of contents.

    Attributes:
        level: heading level, 2 for `##`.
        id: the heading's anchor id (unique in the page).
        text: the heading's plain text.
    """

    level: int
    id: str
    text: str


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
class RenderedMarkdown:
    """The HTML of one Markdown body and what rendering found in it.

    Attributes:
        html_utf8: the body as an HTML fragment (math as MathML, notes as sidenotes + Notes
            list), UTF-8 encoded; read it as text through `html`. Kept as bytes because a
            Python `str` with one character beyond U+FFFF (MathML's italic letters, e.g.
            U+1D465 𝑥, in most posts with math) stores every character in 4 bytes (PEP 393):
            at 1,000 posts the bodies took 90 MiB of the build process as `str`, 27 as UTF-8.
            None when it is left in the build cache under `html_key` (`html` loads it there
            through the loader `set_html_loader` installed), so a build that renders few
            pages does not read every post's HTML.
        toc: the headings, in order.
        word_count: words of prose (code and math excluded), for the reading time.
        widgets: names of the widgets the body uses, so the page loads their scripts only.
        figures: figure id -> number.
        equations: equation label -> number text.
        diagnostics: warnings and errors, with file locations.
        anchor_links: links with a fragment, for `postil.anchors.check_anchors`.
        summary: the first top-level paragraph as HTML, notes and links removed
            (`postil.htmlfilter.summary_html`), for lists of posts; "" if there is none.
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
    html_key: str = ""

    @property
    def html(self) -> str:
        """The body as an HTML fragment (decoded from `html_utf8`, or loaded, on each access).

        Raises:
            LookupError: the HTML is in the build cache but no loader is installed.
            PostilError: the loader found the cache damaged.
        """
        data = self.html_utf8
        if data is None:
            if _HTML_LOADER is None:
                raise LookupError(f"the HTML of {self.html_key} is in the build cache, closed")
            data = _HTML_LOADER(self.html_key)
        return data.decode("utf-8")


_HTML_LOADER: Callable[[str], bytes] | None = None


def set_html_loader(loader: Callable[[str], bytes] | None) -> None:
    """Install (None: remove) what `RenderedMarkdown.html` calls with `html_key` to get the
    UTF-8 HTML of a body left in the build cache. Forked processes inherit it."""
    global _HTML_LOADER
    _HTML_LOADER = loader


def create_markdown() -> MarkdownIt:
    """Return a CommonMark parser with GFM tables, strikethrough and every postil plugin.

    One instance is made per process and reused for every post (it holds no per-document
    state). Raw HTML in posts is allowed: the author owns the content.
    """
    from postil.markdown.code import code_plugin
    from postil.markdown.figure import figure_plugin
    from postil.markdown.heading import heading_plugin
    from postil.markdown.links import links_plugin
    from postil.markdown.math import math_plugin
    from postil.markdown.nesting import nesting_plugin
    from postil.markdown.sidenote import sidenote_plugin
    from postil.markdown.table import table_plugin
    from postil.markdown.widget import widget_plugin

    md = MarkdownIt("commonmark", {"typographer": False}).enable(["table", "strikethrough"])
    for plugin in (
        math_plugin,
        sidenote_plugin,
        code_plugin,
        widget_plugin,
        figure_plugin,
        heading_plugin,
        table_plugin,
        links_plugin,
        nesting_plugin,
    ):
        plugin(md)
    return md


def render_markdown(md: MarkdownIt, body: str, state: RenderState) -> RenderedMarkdown:
    """Render one Markdown body with `md`, collecting what the plugins report in `state`.

    Args:
        md: a parser from `create_markdown`.
        body: the Markdown text after the front matter (LF line endings).
        state: the document's state (path, body_line, macros, links); filled in place.

    Returns:
        The HTML and everything the plugins found; problems are in `diagnostics`, never raised.
    """
    state.source_lines = body.split("\n")
    env: dict[str, Any] = {"postil": state}
    tokens = md.parse(body, env)
    html = md.renderer.render(tokens, md.options, env)
    toc = tuple(state.extra.get("toc", ()))
    return RenderedMarkdown(
        html_utf8=html.encode("utf-8"),
        toc=toc,
        word_count=count_words(tokens),
        widgets=frozenset(state.widgets),
        figures=tuple(state.figures.items()),
        equations=tuple(state.equations.items()),
        diagnostics=tuple(state.diagnostics),
        summary=summary_html(html),
        anchor_links=tuple(state.extra.get("anchor_links", ())),
    )


FORMULA_TOKENS = frozenset({"math_inline", "math_inline_display", "math_block", "math_ref"})
"""Token types of the math plugin that a reader reads as one word each."""


def count_words(tokens: list[Any]) -> int:
    """Count the words a reader reads: prose, code, and each formula as one word.

    Prose is the text of paragraphs, headings, lists and tables; code blocks count by their
    whitespace-separated words, as Hugo's `.WordCount` does; each math formula counts as one
    word however long its TeX. Widget bodies (YAML options) are not read and do not count.
    """
    words = 0
    for token in tokens:
        if token.type in ("fence", "code_block"):
            words += len(token.content.split())
        elif token.type in FORMULA_TOKENS:
            words += 1
        elif token.type == "inline" and token.children:
            for child in token.children:
                if child.type in ("text", "code_inline"):
                    words += len(child.content.split())
                elif child.type in FORMULA_TOKENS:
                    words += 1
    return words
