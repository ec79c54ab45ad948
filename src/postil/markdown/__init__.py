"""postil's Markdown: one markdown-it-py parser with postil's plugins, and `render_post`.

The plugins live one per module in this package (the mdit-py-plugins pattern); each
registers rules and renderers only and keeps per-document state in `env["postil"]`
(a `postil.markdown.state.RenderState`).
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from postil.htmlfilter import summary_html
from postil.markdown.references import anchor_links, references
from postil.markdown.rendered import AnchorLink, RenderedMarkdown, TitleText, TocEntry
from postil.markdown.state import GroupRun, RenderState, SourceLines, get_state
from postil.model import Post

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore

# markdown-it is imported when a parser is made or used, not with this package: a warm
# start of the dev server takes every post's rendering from the cache and parses none
# (docs/performance.md, "The warm first page").

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
    """Return a CommonMark parser with GFM tables, strikethrough, task lists, definition lists,
    Pandoc's sub- and superscripts and every postil plugin.

    One instance is made per process and reused for every post (it holds no per-document
    state). Raw HTML in posts is allowed: the author owns the content.
    """
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin
    from mdit_py_plugins.subscript import sub_plugin
    from mdit_py_plugins.superscript import superscript_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    from postil.markdown.abbr import abbr_plugin
    from postil.markdown.adfence import adfence_plugin
    from postil.markdown.attrs import attrs_plugin
    from postil.markdown.callout import callout_plugin
    from postil.markdown.chunk import chunk_plugin
    from postil.markdown.cite import cite_plugin
    from postil.markdown.code import code_plugin
    from postil.markdown.comment import comment_plugin
    from postil.markdown.directive import directive_plugin
    from postil.markdown.distill import distill_plugin
    from postil.markdown.emoji import emoji_plugin
    from postil.markdown.fancylist import fancylist_plugin
    from postil.markdown.figure import figure_plugin
    from postil.markdown.forem import forem_plugin
    from postil.markdown.fragments import fragments_plugin
    from postil.markdown.franklin import franklin_plugin
    from postil.markdown.gitbook import gitbook_plugin
    from postil.markdown.gridtable import gridtable_plugin
    from postil.markdown.hashnode import hashnode_plugin
    from postil.markdown.heading import heading_plugin
    from postil.markdown.hexo import hexo_plugin
    from postil.markdown.htmlblock import htmlblock_plugin
    from postil.markdown.ids import ids_plugin
    from postil.markdown.images import images_plugin
    from postil.markdown.include import include_plugin
    from postil.markdown.keys import keys_plugin
    from postil.markdown.kramdown import kramdown_plugin
    from postil.markdown.kramdowntable import kramdowntable_plugin
    from postil.markdown.latextext import latextext_plugin
    from postil.markdown.lineblock import lineblock_plugin
    from postil.markdown.linebreak import linebreak_plugin
    from postil.markdown.links import links_plugin
    from postil.markdown.liquid import liquid_plugin
    from postil.markdown.logseq import logseq_plugin
    from postil.markdown.margin import margin_plugin
    from postil.markdown.mark import mark_plugin
    from postil.markdown.math import math_plugin
    from postil.markdown.mathcode import mathcode_plugin
    from postil.markdown.mdx import mdx_plugin
    from postil.markdown.myst import myst_plugin
    from postil.markdown.nesting import nesting_plugin
    from postil.markdown.notion import notion_plugin
    from postil.markdown.rawhtml import rawhtml_plugin
    from postil.markdown.rawtable import rawtable_plugin
    from postil.markdown.scholar import scholar_plugin
    from postil.markdown.shortcode import shortcode_plugin
    from postil.markdown.sidenote import sidenote_plugin
    from postil.markdown.spacedlink import spacedlink_plugin
    from postil.markdown.span import span_plugin
    from postil.markdown.strayend import strayend_plugin
    from postil.markdown.svelte import svelte_plugin
    from postil.markdown.table import table_plugin
    from postil.markdown.tabs import tabs_plugin
    from postil.markdown.template import template_plugin
    from postil.markdown.theorem import theorem_plugin
    from postil.markdown.toc import toc_plugin
    from postil.markdown.tufte import tufte_plugin
    from postil.markdown.widget import widget_plugin
    from postil.markdown.wikilink import wikilink_plugin
    from postil.markdown.wpcaption import wpcaption_plugin
    from postil.markdown.wplatex import wplatex_plugin
    from postil.markdown.xref import xref_plugin
    from postil.markdown.zola import zola_plugin

    md = MarkdownIt("commonmark", {"typographer": False}).enable(["table", "strikethrough"])
    # The extensions kramdown, Goldmark, Pandoc and Python-Markdown's users write (mdit-py-plugins):
    # definition lists, GFM task lists (each item's text its checkbox's label), `H~2~O`, `x^2^`
    md.use(deflist_plugin).use(tasklists_plugin, label=True).use(sub_plugin).use(superscript_plugin)
    for plugin in (
        fancylist_plugin,  # Pandoc's `a.`, `(ii)`, `#.` lists: markdown-it's list rule, wrapped
        lineblock_plugin,  # Pandoc's `| ` lines: after the table rule, which reads pipe tables
        math_plugin,
        mathcode_plugin,  # math-code.js's `` `$x$` ``: before markdown-it's code spans
        wplatex_plugin,  # WordPress' `$latex …$`: its rule goes before the math plugin's
        sidenote_plugin,
        cite_plugin,  # after the sidenote plugin: its list comes before the Notes
        scholar_plugin,  # jekyll-scholar's `{% cite %}`: before the template plugin's rule
        distill_plugin,  # Distill's `<d-cite>`, `<d-footnote>`, `<d-code>`: before htmlblock
        code_plugin,
        widget_plugin,
        figure_plugin,
        wpcaption_plugin,  # WordPress' `[caption]`: figures the figure plugin renders
        theorem_plugin,  # numbered by the figure plugin's counter
        xref_plugin,  # after figures are numbered; its `@eq-x` rule runs before citations
        heading_plugin,
        table_plugin,
        gridtable_plugin,  # Pandoc's grid tables: tokens the table plugin wraps
        kramdowntable_plugin,  # kramdown's separators, footers, headerless tables: the same
        links_plugin,
        spacedlink_plugin,  # `![a](my plot.png)`, kramdown's reading: after the link rules
        linebreak_plugin,  # after the math plugin, which reads `\\` in formulas first
        kramdown_plugin,  # `{::comment}`, `{::nomarkdown}`: before the attribute lists' rules
        mark_plugin,  # `==x==`: after the math plugin, which reads `$a == b$` first
        keys_plugin,  # MkDocs' `++ctrl+alt+del++`: after code and math, which read `++` first
        latextext_plugin,  # `\emph{…}` in prose: code spans and math read theirs first
        rawhtml_plugin,
        strayend_plugin,  # closing tags of the theme's elements in raw HTML: after rawhtml
        rawtable_plugin,  # the author's `<table>` in a scroll region, as Markdown's
        htmlblock_plugin,  # display math and code tags across a blank line in HTML
        notion_plugin,  # Notion's `<aside>` callouts: before the HTML block rules above
        images_plugin,
        ids_plugin,
        nesting_plugin,
        chunk_plugin,  # before the widget rule: `{r}` is a chunk, not a widget
        myst_plugin,  # before the chunk rule: `{code-cell}` is a chunk, `{math}` math
        liquid_plugin,
        hexo_plugin,  # Hexo's tags: its block rule goes before the Liquid plugin's
        shortcode_plugin,
        zola_plugin,  # before the template plugin: its inline math rule goes first
        gitbook_plugin,
        franklin_plugin,  # Franklin.jl's `@def` lines, `~~~` raw HTML, `\fig{…}`
        forem_plugin,  # dev.to's folds and embeds; its katex tags are the math plugin's
        hashnode_plugin,  # Hashnode's `%[URL]` embed lines
        template_plugin,  # before the links rule, which it hands evaluated links to
        tufte_plugin,  # after the liquid and template rules, which it goes before
        toc_plugin,
        attrs_plugin,
        span_plugin,  # after the sidenote plugin's rules: `[^1]{…}` is a note
        wikilink_plugin,
        comment_plugin,  # Obsidian's `%%…%%`: after code, math, links and raw HTML
        logseq_plugin,  # `key:: value` lines: a block rule that ends paragraphs
        callout_plugin,
        adfence_plugin,  # the Obsidian Admonition plugin's ```ad-note blocks: callout tokens
        directive_plugin,  # remark-directive's `::github{…}` lines and `:spoiler[…]`
        margin_plugin,  # after the callout plugin, which makes fenced divs `<div>`s
        tabs_plugin,
        include_plugin,
        mdx_plugin,  # `.mdx` only: ESM, expressions, components
        svelte_plugin,  # mdsvex posts: MDX's rules read their expressions and components
        emoji_plugin,  # `:rocket:` in the text every other rule has left
        abbr_plugin,  # marks the text every other rule has left
        fragments_plugin,  # last: every heading id and every link is final
    ):
        plugin(md)
    return md


EMPTY_POST = (
    "the post has front matter and no text, so it is published as an empty page and feed "
    "entry; write its text below the front matter, or set `draft: true` until then"
)
"""The warning at a post to be published with nothing after its front matter (`postil new`
writes its post as a draft, which stays quiet)."""


def render_post(md: MarkdownIt, post: Post, state: RenderState) -> RenderedMarkdown:
    """Render a post: its title, subtitle and summary (math in front matter), then its body.

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
    summary = None
    if meta.summary:  # HugoBlox/kit#284: math in a summary, typeset as the page's math
        at = meta.summary_at
        summary = render_title(meta.summary, at, state, line(at.line))
    if post.source.kind == "post" and not meta.draft and not post.body.strip():
        state.warn(-1, 1, EMPTY_POST)  # the line before the body: the closing `---`
    return render_markdown(
        md, post.body, state, title=title, subtitle=subtitle, front_summary=summary
    )


def render_markdown(
    md: MarkdownIt,
    body: str,
    state: RenderState,
    title: TitleText | None = None,
    subtitle: TitleText | None = None,
    front_summary: TitleText | None = None,
) -> RenderedMarkdown:
    """Render one Markdown body with `md`, collecting what the plugins report in `state`.

    Args:
        md: a parser from `create_markdown`.
        body: the Markdown text after the front matter (LF line endings).
        state: the document's state (path, body_line, macros, links); filled in place.
        title: the post's rendered title, kept in the result (`render_post`).
        subtitle: its rendered subtitle.
        front_summary: its rendered front matter summary.

    Returns:
        The HTML and everything the plugins found; problems are in `diagnostics`, never raised.
    """
    state.source_lines = SourceLines(body)
    env: dict[str, Any] = {"postil": state}
    buffer = io.BytesIO()
    word_count = parse_in_groups(md, body, env, buffer.write)
    html_utf8 = buffer.getvalue()  # the buffer itself, trimmed to size: no copy
    state.sort_diagnostics()
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
        anchor_links=tuple(anchor_links(state)),
        references=tuple(references(state)),
        images=tuple(state.extra.get("images", ())),
        title=title,
        subtitle=subtitle,
        front_summary=front_summary,
        math_chars="".join(sorted(state.math_chars)),
        toc_placed=bool(state.extra.get("toc_placed")),
        citations=tuple(state.extra.get("citations", ())),
        source_links=tuple(state.extra.get("source_links", ())),
        diagrams=frozenset(state.diagrams),
    )


RENDER_GROUP = 4096
"""Tokens parsed inline and rendered at a time by `parse_in_groups` and `render_blocks`
(whole top-level blocks, so a little more)."""


def parse_in_groups(
    md: MarkdownIt, body: str, env: dict[str, Any], write: Callable[[bytes], object]
) -> int:
    """Parse and render `body` a group of top-level blocks at a time; return its word count.

    The core chain runs up to `inline` on the whole body (the block stage: link reference
    and note definitions anywhere count everywhere). Then the block tokens are cut into
    groups of about `RENDER_GROUP` tokens (`group_bounds`), and for each group in turn
    `inline`, every core rule after it and the renderer run, and the group's tokens are let
    go, so a 20 MB post never holds every inline child at once. A body of one group (every
    normal post) runs the chain exactly as `md.parse` does. A body of several groups is run
    twice (`postil.markdown.state.GroupRun`): ahead on a copy of each group, where the
    document-wide rules gather what the whole document holds (note bodies and numbers,
    citation labels, equation and figure numbers, heading ids and the table of contents,
    every id used), with the document's state put back afterwards; then for real.
    Diagnostics are ordered by the rule that reported them (`RenderState.sort_diagnostics`).

    Args:
        md: a parser from `create_markdown`.
        body: the Markdown text.
        env: markdown-it's environment, with the document's `RenderState` in "postil".
        write: called with each group's UTF-8 HTML in order; joined, the pieces are
            byte for byte `md.render(body, env)`.

    Returns:
        The words of the body (`count_words`).
    """
    from markdown_it.rules_core import StateCore

    state = get_state(env)
    rules = [rule for rule in md.core.ruler.__rules__ if rule.enabled]
    split = next(i for i, rule in enumerate(rules) if rule.name == "inline")
    core = StateCore(body, md, env)
    for rule in rules[:split]:
        rule.fn(core)
    tokens: list[Any] = core.tokens
    del core
    bounds = group_bounds(tokens, RENDER_GROUP)
    after = [rule.fn for rule in rules[split:]]
    run = state.groups = GroupRun()
    if len(bounds) > 1:
        saved = _saved(env)
        run.ahead = True
        for index, (start, end) in enumerate(bounds):
            run.first, run.last = index == 0, index == len(bounds) - 1
            _run_rules(after, StateCore(body, md, env, copy.deepcopy(tokens[start:end])), split)
        _restore(env, saved)
        run.ahead, run.carry = False, {}
    words = 0
    for index, (start, end) in enumerate(bounds):
        run.first, run.last = index == 0, index == len(bounds) - 1
        group = StateCore(body, md, env, tokens[start:end])
        _run_rules(after, group, split)
        tokens[start:end] = [None] * (end - start)  # the group's tokens: only `group` has them
        words += count_words(group.tokens)
        state.phase = (len(rules), 0)
        for part in render_blocks(md, group.tokens, env):
            write(part)
        del group
    run.carry = {}
    return words


def group_bounds(tokens: list[Any], size: int) -> list[tuple[int, int]]:
    """Return (start, end) of the groups `parse_in_groups` runs: at least `size` tokens,
    ending after a top-level token that closes a block or is one (never between a table
    and its `Table:` caption paragraph, after it or before it, which the table plugin makes
    its caption); at least one group, even for no tokens."""
    bounds: list[tuple[int, int]] = []
    start = 0
    open_tables: list[set[int]] = []  # `_open_raw_tables`, found when first needed
    while start < len(tokens) or not bounds:
        end = min(start + size, len(tokens))
        while end < len(tokens) and (
            not _ends_block(tokens[end - 1]) or _kept_together(tokens, end, open_tables)
        ):
            end += 1
        bounds.append((start, end))
        start = end
    return bounds


def _kept_together(tokens: list[Any], end: int, open_tables: list[set[int]]) -> bool:
    """Tell if the tokens before `end` and from `end` on must be in one group: a table and
    the caption paragraph after it, a caption paragraph and the table after it, or two raw
    HTML blocks of one raw table (`rawtable.wrap_raw_tables` wraps a table whose blocks it
    sees together: `<font><table>…` and, after a blank line, `…</table></font>`), or a
    block and the Obsidian block id alone in the paragraph after it, which names the block
    (`wikilink.block_ids`)."""
    from postil.markdown.attrs import CAPTION_PREFIX  # the table plugin's (no import cycle)
    from postil.markdown.wikilink import BLOCK_ID_ALONE

    last = tokens[end - 1]
    if last.type == "table_close":
        return True
    after = tokens[end + 1] if end + 1 < len(tokens) else None
    if after is not None and after.type == "inline" and BLOCK_ID_ALONE.fullmatch(after.content):
        return True
    if last.type == "html_block":
        if not open_tables:
            open_tables.append(_open_raw_tables(tokens))
        if end - 1 in open_tables[0]:
            return True
    return (
        last.type == "paragraph_close"
        and tokens[end].type == "table_open"
        and end >= 2
        and CAPTION_PREFIX.match(tokens[end - 2].content) is not None
    )


def _open_raw_tables(tokens: list[Any]) -> set[int]:
    """Return the indices of the raw HTML blocks after which a raw `<table>` is still open
    (`rawtable.raw_table_spans`: the same reading the table's region is written by)."""
    from postil.markdown.rawtable import raw_table_spans

    return {i for first, _, last, _ in raw_table_spans(tokens) for i in range(first, last)}


def _run_rules(rules: list[Callable[[StateCore], None]], group: StateCore, first: int) -> None:
    """Run the core rules from `inline` on, each reporting in its phase (`RenderState.phase`)."""
    state = get_state(group.env)
    for index, rule in enumerate(rules, first):
        state.phase = (index, 0)
        rule(group)


def _saved(env: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of what the core rules from `inline` on change in `env`, for `_restore`."""
    state = get_state(env)
    mutable = ("diagnostics", "figures", "equations", "widgets", "math_chars", "extra")
    return {
        "env": {key: copy.deepcopy(value) for key, value in env.items() if key != "postil"},
        "state": {name: copy.deepcopy(getattr(state, name)) for name in mutable},
        "reported": set(state._reported),
        "phases": list(state._phases),
    }


def _restore(env: dict[str, Any], saved: dict[str, Any]) -> None:
    """Put `env` back as `_saved` found it (the gathering run's changes are thrown away)."""
    state = env["postil"]
    env.clear()
    env.update(saved["env"], postil=state)
    for name, value in saved["state"].items():
        setattr(state, name, value)
    state._reported, state._phases = saved["reported"], saved["phases"]


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
