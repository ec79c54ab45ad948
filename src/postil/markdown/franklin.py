"""Franklin.jl's Markdown: its page variables, raw HTML blocks, figures and `\\toc`.

Franklin (franklinjl.org, "Markdown syntax") extends Markdown with lines and commands of its
own. A Franklin page is recognised by its page variables (`@def` lines, or a `+++` block of
Julia: `RenderState.front_matter_syntax` is "julia", `postil.content.franklin`); in such a
page:

- an `@def name = value` line anywhere shows nothing (the front matter reader has read it);
- `~~~` … `~~~` around HTML is raw HTML (Franklin's "raw HTML" block; elsewhere a `~~~`
  line opens a code fence, as CommonMark reads it);
- `\\fig{path}` alone on its line is the image at `path` (Franklin's `\\fig`);
- `\\toc` is the table of contents (for every page: `postil.markdown.toc`).

Franklin's own commands (`\\newcommand` for prose, `\\biblabel`, environments a site defines
in its `config.md`) are the site's, and not read.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.content.franklin import DEF_LINE
from postil.markdown.state import get_state

FIG = re.compile(r"\\fig\{([^{}\s]+)\}")
"""Franklin's `\\fig{path}` alone on its line: the image (or plot) at `path`."""

RAW_FENCE = "~~~"


def franklin_plugin(md: MarkdownIt) -> None:
    """Register the block rules of Franklin pages (module docstring): `@def` lines (any page:
    no other Markdown writes them), then raw HTML and `\\fig` (Franklin pages only)."""
    md.block.ruler.before(
        "fence", "franklin_raw", franklin_raw, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    md.block.ruler.before("paragraph", "franklin_def", franklin_def, {"alt": ["paragraph"]})
    md.block.ruler.before("paragraph", "franklin_fig", franklin_fig)


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _franklin(state: StateBlock) -> bool:
    return get_state(state.env).front_matter_syntax == "julia"


def franklin_def(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: an `@def name = value` line shows nothing (and ends a paragraph)."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("@def", pos) or not DEF_LINE.fullmatch(_line(state, start)):
        return False
    if not silent:
        state.line = start + 1
    return True


def franklin_raw(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, `~~~` lines around HTML are a raw HTML block.

    The opening `~~~` is alone on its line (with an info string it is a code fence) and the
    block ends at the next `~~~` line; without one, or with no `<` opening its first line,
    it is CommonMark's fence.
    """
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith(RAW_FENCE, pos) or _line(state, start).strip() != RAW_FENCE:
        return False
    if not _franklin(state):
        return False
    close = next(
        (line for line in range(start + 1, end) if _line(state, line).strip() == RAW_FENCE), None
    )
    if close is None:
        return False
    first = next((_line(state, line) for line in range(start + 1, close) if _line(state, line)), "")
    if not first.startswith("<"):
        return False  # `~~~` around code: a fence
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.map = [start, close + 1]
    token.content = state.getLines(start + 1, close, state.blkIndent, True)
    state.line = close + 1
    return True


def franklin_fig(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, `\\fig{path}` alone on its line is an image."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("\\fig{", pos):
        return False
    found = FIG.fullmatch(_line(state, start).rstrip())
    if found is None or not _franklin(state):
        return False
    if silent:
        return True
    state.push("paragraph_open", "p", 1).map = [start, start + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = f"![]({found.group(1)})", [start, start + 1], []
    state.push("paragraph_close", "p", -1)
    state.line = start + 1
    return True
