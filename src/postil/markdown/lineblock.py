"""Pandoc's line blocks: lines opening with `| `, their line breaks and indentation kept.

Pandoc's manual, "Extension: line_blocks" (on in Pandoc's Markdown, so in Quarto and
R Markdown): "A line block is a sequence of lines beginning with a vertical bar (`|`)
followed by a space. The division into lines will be preserved in the output, as will any
leading spaces; otherwise, the lines will be formatted as Markdown", and a line "can be
hard-wrapped if needed, but the continuation line must begin with a space". Verse and
postal addresses are written so; read as CommonMark they ran together into one paragraph
with their bars shown (marktext/marktext#1526, MacDownApp/macdown#259 ask for them).

Only in sources written in Pandoc's Markdown (`fancylist.PANDOC_SUFFIXES`), as fancy lists:
elsewhere a `| ` line is text. A pipe table (its delimiter row under the header) is a table,
as Pandoc tries tables first; a `|` line inside a paragraph stays in the paragraph.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.fancylist import PANDOC_SUFFIXES
from postil.markdown.state import get_state


def lineblock_plugin(md: MarkdownIt) -> None:
    """Read Pandoc's line blocks in Pandoc's Markdown.

    Syntax::

        | The limerick packs laughs anatomical
        | In space that is quite economical.
        |    But the good ones I've seen

    Output: `<div class="line-block">The limerick …<br />\\nIn space …<br />\\n` then the
    third line with its three spaces as no-break spaces, `</div>`. CSS classes: line-block.
    """
    md.block.ruler.before("paragraph", "line_block", line_block)


def line_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: `| ` lines and their continuation lines (a space first) as one block
    whose lines are joined by hard breaks, each line's leading spaces kept."""
    if state.sCount[start] - state.blkIndent >= 4 or _bar_line(state, start) is None:
        return False
    if not get_state(state.env).path.lower().endswith(PANDOC_SUFFIXES):
        return False
    if silent:
        return True
    lines: list[str] = []
    line = start
    while line < end and not state.isEmpty(line):
        text = _bar_line(state, line)
        if text is not None:
            lines.append(text)
        elif state.sCount[line] > state.blkIndent:  # a wrapped line goes on
            lines[-1] += " " + state.src[state.bMarks[line] : state.eMarks[line]].strip()
        else:
            break
        line += 1
    opening = state.push("line_block_open", "div", 1)
    opening.attrs, opening.map = {"class": "line-block"}, [start, line]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = "  \n".join(lines), [start, line], []
    state.push("line_block_close", "div", -1)
    state.line = line
    return True


def _bar_line(state: StateBlock, line: int) -> str | None:
    """Return a line block line's text after `| ` (its leading spaces as no-break spaces,
    which HTML keeps; an empty line one of them, so it keeps its line break), or None when
    `line` opens with no `|` and a space or its end."""
    begin, end = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    if state.src[begin : begin + 1] != "|" or (begin + 1 < end and state.src[begin + 1] != " "):
        return None
    text = state.src[begin + 2 : end].rstrip()
    stripped = text.lstrip(" ")
    return "\u00a0" * (len(text) - len(stripped)) + stripped or "\u00a0"  # `|` alone: a line
