"""VuePress' and VitePress' tab containers as postil's set of titled panels (`tabs`).

vuepress-theme-hope (`@mdit/plugin-tab`) writes a `::: tabs` container whose tabs start at
`@tab Title` lines (`@tab:active Title` is the one selected first; `::: code-tabs` is the
same for code), and VitePress a `::: code-group` of code blocks, each tab titled by the
`[label]` in its fence's info string (VitePress "Markdown Extensions", Code Groups).
Both are widgets with a script; postil has none for tabs, so, as MkDocs' content tabs
(`postil.markdown.tabs`), every panel is shown under its title, in order.
"""

from __future__ import annotations

import re
from typing import Literal

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.fenceinfo import parse_info

VUE_TABS_WORD = re.compile(r"(tabs|code-tabs|code-group)(?:#[\w-]*)?\s*\Z", re.IGNORECASE)
"""A tab container's word after `:::` (hope's `::: tabs#fruit` names the set for its
`tabs#fruit` memory of the chosen tab, which postil has no use for)."""

TAB_LINE = re.compile(r"@tab(?::active)?(?:[ \t]+(.*?))?(?:[ \t]*#[\w-]+)?[ \t]*")
"""A tab's first line in `::: tabs`: `@tab Title`, `@tab:active Title`, `@tab Title#id`."""

BRACKET = re.compile(r"\[([^\]]*)\]")
"""A code block's label in VitePress' code group: ```` ```sh [npm] ````."""


def vue_tabs(state: StateCore) -> None:
    """Turn `::: tabs`, `::: code-tabs` and `::: code-group` divs into tab sets.

    Runs after `callout_tokens` (which made the containers `div_open` … `div_close`,
    keeping the word in `info`) and before `inline`, so a tab's title is parsed as Markdown.
    """
    tokens = state.tokens
    if not any(t.type == "div_open" and VUE_TABS_WORD.match(t.info.strip()) for t in tokens):
        return
    out: list[Token] = []
    sets: list[tuple[str, int]] = []  # (word, level) of each open set, inside out
    tab_open: list[bool] = []
    drop_close = False  # the `</p>` of an `@tab` line taken whole
    for token in tokens:
        if drop_close and token.type == "paragraph_close":
            drop_close = False
            continue
        word = VUE_TABS_WORD.match(token.info.strip()) if token.type == "div_open" else None
        if word:
            sets.append((word.group(1).lower(), token.level))
            tab_open.append(False)
            _retype(token, "tabset_open", 1)
            out.append(token)
            continue
        inside = sets[-1] if sets else None
        if inside and token.type == "div_close" and token.level == inside[1]:
            if tab_open.pop():
                out.append(_token("tab_close", -1, token.level + 1))
            sets.pop()
            _retype(token, "tabset_close", -1)
            out.append(token)
            continue
        if inside and token.level - inside[1] == (1 if token.type == "fence" else 2):
            taken = _tab_start(inside[0], token, out, tab_open)
            drop_close = taken == 2
            if taken:
                continue
        out.append(token)
    state.tokens = out


def _tab_start(word: str, token: Token, out: list[Token], tab_open: list[bool]) -> int:
    """Start a tab at `token` when it begins one (an `@tab` paragraph's inline, a code
    group's fence), appending its opening to `out`; return 0 when `token` is no tab's
    start, 1 when it was taken, 2 when its paragraph's close must be dropped too."""
    if word == "code-group":
        if token.type != "fence":
            return 0
        label = BRACKET.search(token.info)
        title = label.group(1).strip() if label else parse_info(token.info).language
        if label:  # the tab's title: no caption from the code plugin too
            token.info = token.info[: label.start()] + token.info[label.end() :]
        _open_tab(out, tab_open, token.level, token, title)
        out.append(token)
        return 1
    if token.type != "inline" or not out or out[-1].type != "paragraph_open":
        return 0
    first, _, rest = token.content.partition("\n")
    match = TAB_LINE.fullmatch(first.strip())
    if not match:
        return 0
    paragraph = out.pop()
    _open_tab(out, tab_open, paragraph.level, token, match.group(1) or "")
    if not rest.strip():
        return 2
    token.content = rest  # the tab's body goes on in the same paragraph
    out += [paragraph, token]
    return 1


def _open_tab(out: list[Token], tab_open: list[bool], level: int, at: Token, title: str) -> None:
    """Close the tab before (if any) and open one titled `title` at block `level`, where
    `at` is."""
    if tab_open[-1]:
        out.append(_token("tab_close", -1, level))
    opening = _token("tab_open", 1, level, {"class": "tab"})
    opening.map, opening.meta = at.map, {"title": title}
    title_open = _token("tab_title_open", 1, level + 1, {"class": "tab-title"})
    inline = _token("inline", 0, level + 2)
    inline.content, inline.map, inline.children = title, at.map, []
    out += [opening, title_open, inline, _token("tab_title_close", -1, level + 1)]
    tab_open[-1] = True


def _token(
    kind: str, nesting: Literal[-1, 0, 1], level: int, attrs: dict[str, str] | None = None
) -> Token:
    """Return a block token of the tab set (a `<div>`, a title `<p>`, or inline)."""
    tag = "" if nesting == 0 else "p" if kind.startswith("tab_title") else "div"
    token = Token(kind, tag, nesting)
    token.level, token.block, token.attrs = level, True, dict(attrs or {})
    return token


def _retype(token: Token, kind: str, nesting: Literal[-1, 1]) -> None:
    """Make a container's `div_open`/`div_close` the tab set's."""
    token.type, token.tag, token.nesting = kind, "div", nesting
    token.attrs = {"class": "tabset"} if nesting == 1 else {}
