"""remark-directive's leaf and text directives, as Astro's Fuwari theme writes them.

Astro blogs built on remark-directive (Fuwari and its forks) write, besides `:::note`
containers (the callout plugin's):

- `::github{repo="owner/name"}` alone on its line: Fuwari's repository card, filled from
  GitHub's API when the page loads. postil fetches nothing while building, so the card is a
  link to the repository, named by it;
- `:spoiler[text]` inside a line: Fuwari's spoiler, its Markdown text hidden until hovered.
  The text is shown, in a `spoiler` span, with one warning a post.

Any other leaf directive alone on its line (`::youtube{id=…}`, `::name[label]`) is left out
with a warning naming it; remark-directive reads nothing else there, so the line showed as
text. Only the `spoiler` text directive is read: `:word[` inside prose is too common
(`Note:[1]`, `12:[a]`) to claim every one.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from postil.markdown.attrlist import attribute_end, read_attributes
from postil.markdown.inlinewarn import warn_inline
from postil.markdown.state import get_state

LEAF = re.compile(r"::([A-Za-z][\w-]*)(\[[^\]\n]*\])?(\{[^}\n]*\})?[ \t]*$")
"""A leaf directive alone on its line: `::name`, an optional `[label]`, optional `{attrs}`."""

REPO = re.compile(r"[\w.-]+/[\w.-]+")
"""A GitHub repository's `owner/name`."""

SPOILER = ":spoiler["

SPOILER_WARNING = (
    "`:spoiler[…]` (Fuwari's) hides its text until the reader hovers it; postil shows the "
    "text as it is (write the reveal as a fold, `:::details`, to keep it hidden)"
)


def directive_plugin(md: MarkdownIt) -> None:
    """Read remark-directive's `::github{repo=…}` lines and `:spoiler[…]` (see the module).

    CSS classes: spoiler (the spoiler's text, shown).
    """
    md.block.ruler.before("paragraph", "leaf_directive", leaf_directive)
    md.inline.ruler.before("link", "text_directive", text_directive)


def leaf_directive(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a leaf directive alone on its line (not indented as code)."""
    begin = state.bMarks[start] + state.tShift[start]
    if state.sCount[start] - state.blkIndent >= 4 or not state.src.startswith("::", begin):
        return False
    found = LEAF.match(state.src, begin, state.eMarks[start])
    if found is None or not (found[2] or found[3]):
        return False  # `::name` alone: too bare to claim (`::before` in a note on CSS)
    if silent:
        return True
    attrs = (read_attributes(found[3]) if found[3] else None) or {}
    repo = attrs.get("repo", "")
    if found[1] == "github" and REPO.fullmatch(repo):
        state.push("paragraph_open", "p", 1).map = [start, start + 1]
        inline = state.push("inline", "", 0)
        inline.content = f"[{repo}](https://github.com/{repo})"
        inline.map, inline.children = [start, start + 1], []
        state.push("paragraph_close", "p", -1)
    else:
        get_state(state.env).warn(
            start,
            state.sCount[start] + 1,
            f"remark-directive `{found[0].strip()}` is not supported and is left out; write "
            "its content as Markdown (a link, an image, the text)",
        )
    state.line = start + 1
    return True


def text_directive(state: StateInline, silent: bool) -> bool:
    """Inline rule: `:spoiler[text]` (an optional `{attrs}` after it is read and dropped)."""
    start = state.pos
    if not state.src.startswith(SPOILER, start) or (start and state.src[start - 1].isalnum()):
        return False
    bracket = start + len(SPOILER) - 1
    label_end = state.md.helpers.parseLinkLabel(state, bracket)
    if label_end < 0:
        return False
    end = label_end + 1
    if end < state.posMax and state.src[end] == "{":
        after = attribute_end(state.src, end, state.posMax)
        end = after if after > 0 else end
    if not silent:
        doc = get_state(state.env)
        if not doc.extra.get("spoiler_warned"):  # once a post
            doc.extra["spoiler_warned"] = True
            warn_inline(state, start, SPOILER_WARNING)
        state.push("spoiler_open", "span", 1).attrSet("class", "spoiler")
        old_max = state.posMax
        state.pos, state.posMax = bracket + 1, label_end
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("spoiler_close", "span", -1)
    state.pos = end
    return True
