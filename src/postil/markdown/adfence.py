"""The Obsidian Admonition plugin's code blocks: ```` ```ad-note ```` … ```` ``` ```` as callouts.

ebullient/obsidian-admonition (docs/options.md) writes an admonition as a fenced code block
whose language is `ad-<type>`; its first lines may set `title:`, `collapse:` (`open`,
`closed`, `none`), `icon:`, `color:` and `metadata:`, in any order, and the rest is
Markdown. Its types are MkDocs Material's (note, abstract, info, tip, success, question,
warning, failure, danger, bug, example, quote and their aliases), which the callout plugin
knows (`postil.markdown.callout.ALIASES`); an unknown one is a note with its warning there.
A blank `title:` shows no title. `icon`, `color` and `metadata` style the plugin's box and
are left out. The block becomes the `shortcode_callout_*` tokens the callout plugin re-types.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.shortcodecallout import open_callout
from postil.markdown.tagsyntax import tokenize_lines

OPENING = re.compile(r"(`{3,}|~{3,})[ \t]*ad-([A-Za-z][\w-]*)[ \t]*$")
"""An admonition's opening fence: its backticks or tildes and its type."""
PARAMETER = re.compile(r"(title|collapse|icon|color|metadata):(.*)")
"""A parameter line at the top of the block."""
COLLAPSE = {"open": "+", "closed": "true"}
"""`collapse:` values as the callout plugin's folding (`none` and others: not folded)."""


def adfence_plugin(md: MarkdownIt) -> None:
    """Render ```` ```ad-<type> ```` blocks as callouts (the module's doc).

    Syntax::

        ```ad-tip
        title: Cache the keys
        collapse: closed
        The body is *Markdown*: $x^2$.
        ```

    gives the callout plugin's `<details class="callout callout-tip">` titled "Cache the
    keys". No CSS classes of its own.
    """
    md.block.ruler.before(
        "fence", "ad_fence", ad_fence, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )


def ad_fence(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: an `ad-<type>` fence up to its closing fence (or its parent's end)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    first = state.bMarks[start] + state.tShift[start]
    if state.src[first : first + 3] not in ("```", "~~~"):
        return False
    opening = OPENING.match(state.src, first, state.eMarks[start])
    if opening is None:
        return False
    if silent:
        return True
    close = _closing_fence(state, start, end, opening[1])
    body, meta = _parameters(state, start + 1, close, opening[2])
    open_callout(state, (start, close), meta, opening[0])
    tokenize_lines(state, body, close)
    state.push("shortcode_callout_close", "aside", -1).map = [close, close + 1]
    state.line = min(close + 1, end)
    return True


def _closing_fence(state: StateBlock, start: int, end: int, fence: str) -> int:
    """Return the line of the fence that closes `fence` (as CommonMark closes a code
    block: the same character, at least as long, nothing after), else the parent's end."""
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent:
            return line  # a less indented line ends the list item or quote it is in
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if len(text) >= len(fence) and text == fence[0] * len(text):
            return line
    return end


def _parameters(
    state: StateBlock, line: int, close: int, kind: str
) -> tuple[int, dict[str, str | None]]:
    """Read the parameter lines from `line`; return the body's first line and the callout's
    meta (`kind`, `title`, `collapse`, and `untitled` for a blank `title:`)."""
    meta: dict[str, str | None] = {"kind": kind, "title": "", "collapse": None}
    while line < close:
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        found = PARAMETER.match(text)
        if found is None:
            break
        name, value = found[1], found[2].strip()
        if name == "title":
            meta["title"] = value
            meta["untitled"] = "" if value else "yes"
        elif name == "collapse":
            meta["collapse"] = COLLAPSE.get(value.lower())
        line += 1
    if meta.get("untitled"):
        meta["collapse"] = None  # "If the admonition's title is left blank, the `collapse`
        # parameter has no effect" (its docs/options.md)
    return line, meta
