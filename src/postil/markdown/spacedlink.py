"""Links and images whose destination holds spaces, read as kramdown reads them.

CommonMark ends a link destination at a space, so `![Figure 1](/img/1-7. Figure1.png)` is
text there (the spec's "link destination"; a destination with spaces is written
`</img/1-7. Figure1.png>`). kramdown reads an inline link's URL up to the parenthesis that
closes it, a space before a quote alone starting a title (`link.rb`, `LINK_PAREN_STOP_RE`),
as Redcarpet did, so Jekyll blogs name images with spaces and show them. After
markdown-it's link and image rules have failed at a `[` or `![`, `spaced_link` reads such a
destination when it names a file: on one line, without `<`, `>`, quotes or parentheses, its
last part a file name extension (`[the notes](my notes.md)`, `![plot](1-7. Figure1.png)`).
The spec's own cases (`[link](/my uri)`, `[a](b "title")`) stay as CommonMark reads them.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from postil.markdown.state import find_ahead

SPACED_DESTINATION = re.compile(
    r"\([ \t]*([^\s()<>\"'][^()<>\"'\n]*?[ \t][^()<>\"'\n]*?\.[A-Za-z0-9]{1,5})[ \t]*\)"
)
"""`(` + a destination with a space inside, ending in a file name extension, + `)`."""


def spacedlink_plugin(md: MarkdownIt) -> None:
    """Read `[text](a file.md)` and `![alt](a file.png)` as a link and an image (see the
    module doc), after markdown-it's link and image rules. No CSS classes."""
    md.inline.ruler.after("image", "spaced_link", spaced_link)


def spaced_link(state: StateInline, silent: bool) -> bool:
    """Push a link or an image whose destination holds spaces (`SPACED_DESTINATION`); its
    `meta["written"]` is the destination as written, where the links plugin finds it."""
    src, start = state.src, state.pos
    image = src.startswith("![", start)
    if not image and src[start] != "[":
        return False
    opening = start + 1 if image else start
    if find_ahead(state, "](", opening) < 0:  # no destination ahead: no label scan
        return False  # (a label scanned from each `[` of `[a [b [c …` was quadratic)
    label_end = state.md.helpers.parseLinkLabel(state, opening, not image)
    if label_end < 0:
        return False
    found = SPACED_DESTINATION.match(src, label_end + 1, state.posMax)
    if found is None:
        return False
    written = found.group(1).rstrip()
    href = state.md.normalizeLink(written)
    if not state.md.validateLink(href):
        return False
    if not silent:
        _push(state, opening + 1, label_end, href, written, image)
    state.pos = found.end()
    return True


def _push(
    state: StateInline, label_start: int, label_end: int, href: str, written: str, image: bool
) -> None:
    """Push the image token, or the link's tokens with its text parsed, as markdown-it's
    image and link rules push them (no title)."""
    if image:
        content = state.src[label_start:label_end]
        children: list = []
        state.md.inline.parse(content, state.md, state.env, children)
        token = state.push("image", "img", 0)
        token.attrs = {"src": href, "alt": ""}
        token.children, token.content = children, content
        token.meta["written"] = written
        return
    old_max = state.posMax
    state.pos, state.posMax = label_start, label_end
    token = state.push("link_open", "a", 1)
    token.attrs = {"href": href}
    token.meta["written"] = written
    state.linkLevel += 1
    state.md.inline.tokenize(state)
    state.linkLevel -= 1
    state.push("link_close", "a", -1)
    state.posMax = old_max
