"""Hugo themes' callout, fold and quote shortcodes as postil's callouts and block quotes.

`postil.markdown.shortcode` finds the shortcodes and hands the paired ones named here to
`callout` (a callout or a folded callout, which `postil.markdown.callout` turns into one)
or `quote` (a block quote with its attribution).
"""

from __future__ import annotations

import re

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock

from postil.markdown.tagsyntax import Tag, push_blocks, shortcode_params, tokenize_lines

CALLOUTS = frozenset({"callout", "hint", "alert", "notice", "admonition", "box"})
"""Paired shortcodes of popular themes that draw a callout: Hugo Blox (Wowchemy)
`{{% callout note %}}`, Hugo Book `{{< hint warning >}}`, Docsy
`{{% alert title="T" color="warning" %}}`, Hextra `{{< callout type="info" >}}`, Blowfish
`{{< alert >}}`, Learn/Relearn `{{% notice tip %}}`, `admonition` themes, the Roneo
shortcode collection's `{{< box info >}}` (`info`, `tip`, `warning`, `important`)."""

QUOTES = frozenset({"quote", "blockquote"})
"""Paired shortcodes that quote their content, attributed (Hugo Stack's `quote`: `author`,
`source`, `url`; its HTML is a `<blockquote>` ending with a `<span class="cite">` line)."""

FOLDS = frozenset({"spoiler", "details", "expand"})
"""Paired shortcodes that fold their content under a title: Hugo Blox
`{{< spoiler text="…" >}}`, Hugo's and Hugo Book's `details`, Learn's `expand`."""

SAFE_URL = re.compile(r"(?:https?://|/|\.{0,2}/|#)[^\s\"<>]*\Z|[\w./#-]+\Z")
"""A `url` put into a quote's attribution: web, site-relative or relative, never a
`javascript:` URL."""


def callout_meta(tag: Tag) -> dict[str, str | None]:
    """Return a callout or fold shortcode's callout: its `kind`, `title` and `collapse`
    (None: not folded; "true": folded; "+": folded, shown open), from the tag's parameters."""
    positional, named = shortcode_params(tag.args)
    if tag.name in FOLDS:
        title = named.get("text") or named.get("summary") or named.get("title")
        title = title or (positional[0] if positional and positional[0] != "open" else "")
        opened = "open" in positional or named.get("open") in ("true", "")
        return {"kind": "note", "title": title or "Details", "collapse": "+" if opened else "true"}
    # the kind: `type=`, Docsy's `color=`, else the first word (Blowfish's is an icon)
    first = positional[0] if positional and tag.name != "alert" else ""
    kind = named.get("type") or named.get("color") or first or "note"
    return {"kind": kind, "title": named.get("title", ""), "collapse": None}


def callout_open(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push the `shortcode_callout_open` token of a callout or fold shortcode (lines `start`
    to `close`): its kind, title and folding from the tag's parameters."""
    open_callout(state, (start, close), callout_meta(tag), tag.raw)


def open_callout(
    state: StateBlock, lines: tuple[int, int], meta: dict[str, str | None], raw: str
) -> None:
    """Push a `shortcode_callout_open` token on `lines` (first, last) with a `callout_meta`
    dict; `raw` is the tag that opens it (Hugo's, Zola's, GitBook's)."""
    opening = state.push("shortcode_callout_open", "aside", 1)
    opening.map, opening.meta, opening.info = [lines[0], lines[1] + 1], meta, raw


def callout(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a callout for a theme's callout or fold shortcode and the Markdown between its
    lines (`postil.markdown.callout` turns the `shortcode_callout_*` tokens into one)."""
    push_callout(state, (start, close), callout_meta(tag), tag.raw)


def push_callout(
    state: StateBlock,
    lines: tuple[int, int],
    meta: dict[str, str | None],
    raw: str,
    body: str | None = None,
) -> None:
    """Push a callout (`callout_meta`'s `meta`) holding the Markdown between `lines` (the
    tags' lines), or the Markdown `body` when a parameter gives it (Zola's `body="…"`)."""
    start, close = lines
    open_callout(state, lines, meta, raw)
    if body is None:
        tokenize_lines(state, start + 1, close)
    else:
        push_blocks(state, start, body)
    state.push("shortcode_callout_close", "aside", -1).map = [close, close + 1]


def quote(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a block quote of the Markdown between a `quote` shortcode's lines, its
    attribution last (`QUOTES`; HTML escaped, the `url` checked as a link's is)."""
    push_quote(state, (start, close), shortcode_params(tag.args)[1])


def push_quote(
    state: StateBlock, lines: tuple[int, int], named: dict[str, str], body: str | None = None
) -> None:
    """Push a block quote of the Markdown between `lines` (the tags' lines), or of `body`
    when the tags share one line around it, attributed to `named`'s `author` and `source`
    (linked to its `url`), for Hugo's, Zola's and Hexo's quotes."""
    start, close = lines
    opening = state.push("blockquote_open", "blockquote", 1)
    opening.map = [start, close + 1]
    if body is None:
        tokenize_lines(state, start + 1, close)
    else:
        push_blocks(state, start, body)
    author, source, url = (named.get(key, "").strip() for key in ("author", "source", "url"))
    if author or source:
        cite = f"<cite>{escapeHtml(source)}</cite>" if source else ""
        if cite and url and SAFE_URL.match(url):
            cite = f'<a href="{escapeHtml(url)}">{cite}</a>'
        names = ", ".join(filter(None, [escapeHtml(author), cite]))
        line = state.push("html_block", "", 0)
        line.content, line.map = f'<p class="quote-source">― {names}</p>\n', [close, close + 1]
    state.push("blockquote_close", "blockquote", -1)
