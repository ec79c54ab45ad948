"""Content tabs as MkDocs Material writes them (pymdownx.tabbed): `=== "Title"`; the tokens
Hugo themes' tab shortcodes make too (`postil.markdown.shortcodetabs`)."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

TAB = re.compile(r'===([!+]{0,2})[ \t]+"(.*)"[ \t]*')
"""A tab's first line: `=== "Title"`; `===!` starts a new set, `===+` selects the tab."""

BODY_INDENT = 4
"""How far a tab's body is indented from its `===` (pymdownx.tabbed's rule, as admonitions)."""


def tabs_plugin(md: MarkdownIt) -> None:
    """Render MkDocs Material content tabs as one set of titled panels, all shown.

    Syntax::

        === "C++"

            ```cpp
            int gcd(int a, int b);
            ```

        === "Python"
            Any Markdown, indented by four spaces: $x^2$, code, callouts.

    Consecutive tabs (blank lines between them allowed) are one set; `===! "Title"` starts
    a new set right after another; a tab may follow a paragraph's last line directly.
    postil has no script for tabs, so every panel is shown under its title, in order (as
    in print); `===+` (the selected tab) reads as `===`.

    Output::

        <div class="tabset">
        <div class="tab">
        <p class="tab-title">C++</p>
        …
        </div>
        </div>

    CSS classes: tabset, tab, tab-title. A `===` line without a quoted title stays text.
    """
    # pymdownx.tabbed finds a tab anywhere in a block of lines, so a tab ends a paragraph
    md.block.ruler.before("fence", "tab", tab_block, {"alt": ["paragraph"]})


def tab_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a tab, its title and its indented body; joins the set just before it."""
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    match = TAB.fullmatch(state.src, begin, state.eMarks[start_line])
    if match is None:
        return False
    if silent:
        return True
    indent = state.sCount[start_line] + BODY_INDENT
    last = _body_end(state, start_line, end_line, indent)
    _open_set(state, new_set="!" in match.group(1))
    opening = state.push("tab_open", "div", 1)
    opening.attrs, opening.markup, opening.map = {"class": "tab"}, "===", [start_line, last]
    opening.meta = {"title": match.group(2)}
    _title(state, match.group(2), start_line)
    old = state.parentType, state.lineMax, state.blkIndent
    state.parentType, state.lineMax, state.blkIndent = "tab", last, indent
    state.md.block.tokenize(state, start_line + 1, last)
    state.parentType, state.lineMax, state.blkIndent = old
    state.push("tab_close", "div", -1).markup = "==="
    state.push("tabset_close", "div", -1)
    state.line = last
    return True


def _body_end(state: StateBlock, start_line: int, end_line: int, indent: int) -> int:
    """Return the line after a tab's last body line (indented by `indent` columns or more)."""
    last = line = start_line + 1
    while line < end_line:
        if not state.isEmpty(line):
            if state.sCount[line] < indent:
                break
            last = line + 1
        line += 1
    return last


def _open_set(state: StateBlock, new_set: bool) -> None:
    """Reopen the set the previous token closed (this tab joins it), or open a new one."""
    if not new_set and state.tokens and state.tokens[-1].type == "tabset_close":
        state.tokens.pop()
        state.level += 1
        return
    token = state.push("tabset_open", "div", 1)
    token.attrs = {"class": "tabset"}


def _title(state: StateBlock, title: str, line: int) -> None:
    """Push a tab's title paragraph: `<p class="tab-title">` with its inline content."""
    token = state.push("tab_title_open", "p", 1)
    token.attrs, token.map = {"class": "tab-title"}, [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = title, [line, line + 1], []
    state.push("tab_title_close", "p", -1)


def open_tabset(state: StateBlock, start: int, close: int) -> None:
    """Push the opening of a set of tabs spanning lines `start` to `close`."""
    token = state.push("tabset_open", "div", 1)
    token.attrs, token.map = {"class": "tabset"}, [start, close + 1]


def close_tabset(state: StateBlock, close: int) -> None:
    """Push the end of a set of tabs (at line `close`)."""
    state.push("tabset_close", "div", -1).map = [close, close + 1]


def open_tab(state: StateBlock, start: int, close: int, title: str) -> None:
    """Push the opening of a tab spanning lines `start` to `close` and its title (Markdown)."""
    opening = state.push("tab_open", "div", 1)
    opening.attrs, opening.map, opening.meta = (
        {"class": "tab"},
        [start, close + 1],
        {"title": title},
    )
    _title(state, title, start)
