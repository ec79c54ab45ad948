r"""Emoji shortcodes, `:rocket:`, as GitHub (jemoji on Jekyll), Hugo's `enableEmoji`, Quarto and
MkDocs Material write them.

Each `:name:` in a post's text that names an emoji (GitHub's and Slack's aliases, `:+1:`,
`:tada:`, and Unicode's CLDR names, `:thumbs_up:`) is that emoji, as the `emoji` library
(PyPI, BSD) maps them; any other `:word:` stays as written (`10:30:00`, `:name:` in a
sentence). Material for MkDocs' icons (`:material-github:`, `:fontawesome-brands-x:`,
`:octicons-mark-16:`, `:simple-rss:`: `MATERIAL_ICON`) are SVG files of its theme, which
postil does not have: they are left out, with one warning a post naming them.
Code spans and blocks, math, link destinations and raw HTML are never read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from postil.markdown.rendered import TocEntry
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import locate

CANDIDATE = re.compile(r":[\w+-]+:")
"""Something that could be a shortcode: the library is loaded only when a text holds one."""

MATERIAL_ICON = re.compile(
    r":(?:material|fontawesome-(?:brands|regular|solid)|octicons|simple)-[a-z0-9]+(?:-[a-z0-9]+)*:"
)
"""An icon shortcode of Material for MkDocs (`pymdownx.emoji` with its `twemoji` index:
the Material Design, FontAwesome, Octicons and Simple Icons sets, "Icons, Emojis")."""


def emoji_plugin(md: MarkdownIt) -> None:
    """Replace emoji shortcodes in the text by their emoji.

    Syntax::

        Shipped :rocket: and :+1: to that.

    Output: `<p>Shipped 🚀 and 👍 to that.</p>`. CSS classes: none.
    """
    md.core.ruler.push("emoji", emoji_shortcodes)


def emoji_shortcodes(state: StateCore) -> None:
    """Core rule: emojize the text tokens of every inline block that holds a candidate, and
    the text the heading plugin took from them before (a heading's anchor label and its
    table of contents entry). Heading ids keep the words (`#rocket-quick-facts`), as
    GitHub's and kramdown's do.

    When a huge post is rendered in groups, the run ahead that gathers its headings
    (`state.GroupRun.ahead`) is left alone: the contents it gathers must be made from the
    words, as the whole post's are; the real run then makes their text emoji here."""
    doc = get_state(state.env)
    if doc.groups.ahead:
        return
    changed = False
    icons: list[tuple[str, int | None, str]] = []  # (icon, block line, block text)
    for block in state.tokens:
        if block.type == "heading_close" and changed and block.meta.get("anchor"):
            heading_id, text = block.meta["anchor"]
            block.meta["anchor"] = (heading_id, _emojize(MATERIAL_ICON.sub("", text)))
        if block.type != "inline" or not block.children or ":" not in block.content:
            continue
        for token in block.children:
            if token.type == "text" and CANDIDATE.search(token.content):
                if ":" in token.content[1:] and MATERIAL_ICON.search(token.content):
                    line0 = block.map[0] if block.map else None
                    found = MATERIAL_ICON.findall(token.content)
                    icons.extend((icon, line0, block.content) for icon in found)
                    token.content = MATERIAL_ICON.sub("", token.content)
                token.content, changed = _emojize(token.content), True
    if icons:
        _warn_icons(state, icons)
    if changed:
        entries = doc.extra.get("toc")
        if entries:
            doc.extra["toc"] = [_entry(entry) for entry in entries]


def _warn_icons(state: StateCore, icons: list[tuple[str, int | None, str]]) -> None:
    """Warn once, at the first, that the post's Material for MkDocs icons are left out."""
    doc = get_state(state.env)
    first, line0, text = icons[0]
    line, col = (None, 1) if line0 is None else locate(doc, line0, text, max(text.find(first), 0))
    names = list(dict.fromkeys(icon for icon, *_ in icons))
    shown = ", ".join(f"`{name}`" for name in names[:3]) + (", …" if len(names) > 3 else "")
    count = f"{len(icons)} icons ({shown}) are" if len(icons) > 1 else f"icon {shown} is"
    doc.warn(
        line,
        col,
        f"Material for MkDocs' {count} left out: its icons are SVG files of its theme, which "
        "postil does not have; write a character (🕓, ★) or an image instead",
    )


def _entry(entry: TocEntry) -> TocEntry:
    """Return a table of contents entry with its shortcodes as emoji (its HTML left alone
    when it holds code, whose `:name:` is code)."""
    if not CANDIDATE.search(entry.text):
        return entry
    html = entry.html if "<code" in entry.html else _emojize(MATERIAL_ICON.sub("", entry.html))
    return replace(entry, text=_emojize(MATERIAL_ICON.sub("", entry.text)), html=html)


@lru_cache(maxsize=4096)
def _emojize(text: str) -> str:
    """Return `text` with each known shortcode as its emoji (`emoji.emojize`, aliases too)."""
    import emoji  # ~40 ms: only for posts that could hold a shortcode

    return emoji.emojize(text, language="alias")
