"""postil's Markdown: one markdown-it-py parser with postil's plugins, and `render_post`.

The plugins live one per module in this package (the mdit-py-plugins pattern); each
registers rules and renderers only and keeps per-document state in `env["postil"]`
(a `postil.markdown.state.RenderState`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from markdown_it import MarkdownIt

from postil.htmlfilter import summary_html
from postil.markdown.rendered import AnchorLink, RenderedMarkdown, TitleText, TocEntry
from postil.markdown.state import RenderState, SourceLines
from postil.model import Post

__all__ = [
    "AnchorLink",
    "RenderedMarkdown",
    "TocEntry",
    "count_words",
    "create_markdown",
    "render_markdown",
    "render_post",
]


def create_markdown() -> MarkdownIt:
    """Return a CommonMark parser with GFM tables, strikethrough and every postil plugin.

    One instance is made per process and reused for every post (it holds no per-document
    state). Raw HTML in posts is allowed: the author owns the content.
    """
    from postil.markdown.attrs import attrs_plugin
    from postil.markdown.callout import callout_plugin
    from postil.markdown.chunk import chunk_plugin
    from postil.markdown.cite import cite_plugin
    from postil.markdown.code import code_plugin
    from postil.markdown.figure import figure_plugin
    from postil.markdown.heading import heading_plugin
    from postil.markdown.ids import ids_plugin
    from postil.markdown.images import images_plugin
    from postil.markdown.include import include_plugin
    from postil.markdown.links import links_plugin
    from postil.markdown.liquid import liquid_plugin
    from postil.markdown.math import math_plugin
    from postil.markdown.nesting import nesting_plugin
    from postil.markdown.rawhtml import rawhtml_plugin
    from postil.markdown.shortcode import shortcode_plugin
    from postil.markdown.sidenote import sidenote_plugin
    from postil.markdown.table import table_plugin
    from postil.markdown.tabs import tabs_plugin
    from postil.markdown.template import template_plugin
    from postil.markdown.toc import toc_plugin
    from postil.markdown.widget import widget_plugin
    from postil.markdown.xref import xref_plugin

    md = MarkdownIt("commonmark", {"typographer": False}).enable(["table", "strikethrough"])
    for plugin in (
        math_plugin,
        sidenote_plugin,
        cite_plugin,  # after the sidenote plugin: its list comes before the Notes
        code_plugin,
        widget_plugin,
        figure_plugin,
        xref_plugin,  # after figures are numbered; its `@eq-x` rule runs before citations
        heading_plugin,
        table_plugin,
        links_plugin,
        rawhtml_plugin,
        images_plugin,
        ids_plugin,
        nesting_plugin,
        chunk_plugin,  # before the widget rule: `{r}` is a chunk, not a widget
        liquid_plugin,
        shortcode_plugin,
        template_plugin,  # before the links rule, which it hands evaluated links to
        toc_plugin,
        attrs_plugin,
        callout_plugin,
        tabs_plugin,
        include_plugin,
    ):
        plugin(md)
    return md


def render_post(md: MarkdownIt, post: Post, state: RenderState) -> RenderedMarkdown:
    """Render a post: its title and subtitle (math in front matter), then its body.

    The title comes first, so its diagnostics come before the body's (file order); both use
    the same `state` (the post's macros and math cache).
    """
    from postil.markdown.title import render_title

    meta = post.meta
    head = post.source.text[: post.body_start].split("\n")

    def line(at: int) -> str:
        return head[at - 1] if 0 < at <= len(head) else ""

    title = render_title(meta.title, meta.title_at, state, line(meta.title_at.line))
    subtitle = None
    if meta.subtitle:
        at = meta.subtitle_at
        subtitle = render_title(meta.subtitle, at, state, line(at.line))
    return render_markdown(md, post.body, state, title=title, subtitle=subtitle)


def render_markdown(
    md: MarkdownIt,
    body: str,
    state: RenderState,
    title: TitleText | None = None,
    subtitle: TitleText | None = None,
) -> RenderedMarkdown:
    """Render one Markdown body with `md`, collecting what the plugins report in `state`.

    Args:
        md: a parser from `create_markdown`.
        body: the Markdown text after the front matter (LF line endings).
        state: the document's state (path, body_line, macros, links); filled in place.
        title: the post's rendered title, kept in the result (`render_post`).
        subtitle: its rendered subtitle.

    Returns:
        The HTML and everything the plugins found; problems are in `diagnostics`, never raised.
    """
    state.source_lines = SourceLines(body)
    env: dict[str, Any] = {"postil": state}
    tokens = md.parse(body, env)
    word_count = count_words(tokens)
    html_utf8 = _joined(render_blocks(md, tokens, env))
    toc = tuple(state.extra.get("toc", ()))
    return RenderedMarkdown(
        html_utf8=html_utf8,
        toc=toc,
        word_count=word_count,
        widgets=frozenset(state.widgets),
        figures=tuple(state.figures.items()),
        equations=tuple(state.equations.items()),
        diagnostics=tuple(state.diagnostics),
        summary=summary_html(html_utf8),
        anchor_links=tuple(state.extra.get("anchor_links", ())),
        references=tuple(state.extra.get("references", ())),
        images=tuple(state.extra.get("images", ())),
        title=title,
        subtitle=subtitle,
        math_chars="".join(sorted(state.math_chars)),
        toc_placed=bool(state.extra.get("toc_placed")),
        citations=tuple(state.extra.get("citations", ())),
    )


RENDER_GROUP = 4096
"""Tokens rendered at a time by `render_blocks` (whole top-level blocks, so a little more)."""


def render_blocks(md: MarkdownIt, tokens: list[Any], env: dict[str, Any]) -> Iterator[bytes]:
    """Render `tokens` (a parsed document) as UTF-8 HTML, a group of top-level blocks at a
    time, dropping each group's tokens once rendered.

    The pieces joined are byte for byte `md.renderer.render(tokens, ...)`: a group ends after
    a top-level token that closes a block or is one (`level` 0, `nesting` ≤ 0) and is not
    hidden, and the renderer reads neighbours only inside a block and the token before a
    block (for a line feed after a hidden one). A 20 MB post's
    tokens (≈ 450 bytes each) and its HTML (four bytes a character as one `str` when it
    has a math letter beyond U+FFFF) are thus never all alive at once.
    """
    start = 0
    while start < len(tokens):
        end = min(start + RENDER_GROUP, len(tokens))
        while end < len(tokens) and not _ends_block(tokens[end - 1]):
            end += 1
        html = md.renderer.render(tokens[start:end], md.options, env)
        tokens[start:end] = [None] * (end - start)  # free them; nothing reads them again
        yield html.encode("utf-8")
        start = end


def _joined(parts: Iterator[bytes]) -> bytes:
    """Return the parts joined, growing one buffer: `b"".join` of a generator holds every
    part and the result at once (110 MB for a 20 MB post's 55 MB of HTML; this, 62)."""
    buffer = io.BytesIO()
    for part in parts:
        buffer.write(part)
    return buffer.getvalue()  # the buffer itself, trimmed to size: no copy


def _ends_block(token: Any) -> bool:
    return token.level == 0 and token.nesting <= 0 and not token.hidden


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
