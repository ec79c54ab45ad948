"""Hashnode's embeds in posts kept from Hashnode: `%[URL]` on a line of its own.

Hashnode's editor writes an embedded page as `%[https://…]` alone on its line, and its
GitHub backups keep it so; Hashnode draws a player or a card for the URL (Hashnode's
`webembeds`: YouTube, Vimeo, posts on X, GitHub, CodePen and any page's Open Graph card).
Here it is what `postil.markdown.embed.push_url_embed` makes of the URL: a video player, a
quoted link to the post on X, else a paragraph holding a link to the page.

    %[https://www.youtube.com/watch?v=dQw4w9WgXcQ]

    %[https://github.com/hashnode/starter-kit]

`%[` anywhere else (inside a line, without a URL) stays text. CSS classes: `video` and
`embedded-post` (`postil.markdown.embed`).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.embed import push_url_embed
from postil.markdown.tagsyntax import Tag

EMBED = re.compile(r"%\[(https?://[^\s\]]+)\][ \t]*")
"""Hashnode's embed line: `%[`, a web address, `]`, nothing after but spaces."""


def hashnode_plugin(md: MarkdownIt) -> None:
    """Read Hashnode's `%[URL]` embed lines (see the module docstring)."""
    md.block.ruler.before(
        "paragraph", "hashnode_embed", hashnode_embed, {"alt": ["paragraph", "blockquote"]}
    )


def hashnode_embed(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: `%[URL]` alone on line `start` (up to 3 spaces before it)."""
    begin = state.bMarks[start] + state.tShift[start]
    if state.sCount[start] - state.blkIndent >= 4 or not state.src.startswith("%[", begin):
        return False
    found = EMBED.fullmatch(state.src, begin, state.eMarks[start])
    if found is None:
        return False
    if not silent:
        raw = found.group(0).rstrip()
        tag = Tag("tag", raw, raw[2:-1], "embed", False, begin, begin + len(raw))
        push_url_embed(state, start, tag, found.group(1))
        state.line = start + 1
    return True
