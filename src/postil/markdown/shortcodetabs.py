"""Hugo themes' tab shortcodes as postil's content tabs (`postil.markdown.tabs`).

- Hugo Book: `{{< tabs "id" >}}` around `{{< tab "macOS" >}} … {{< /tab >}}`, whose body
  may sit on the tags' own line (`{{< tab "macOS" >}} # macOS {{< /tab >}}`);
- Hextra: `{{< tabs items="A,B" >}}` around untitled `{{< tab >}}`s, titled in that order;
- Docsy: `{{< tabpane >}}` around `{{< tab header="English" lang="en" >}}`, whose body is
  code in `lang` unless the pane or the tab says `text=true`;
- a tab's `name=` or `title=` titles it too.

Each set is one `tabset` of `tab`s, every panel shown under its title as MkDocs' tabs are.
"""

from __future__ import annotations

from markdown_it.rules_block import StateBlock

from postil.markdown.state import get_state
from postil.markdown.tabs import close_tabset, open_tab, open_tabset
from postil.markdown.tagsyntax import Tag, push_blocks, shortcode_params, tokenize_lines

TABSETS = frozenset({"tabs", "tabpane"})
"""Shortcodes around a set of tabs (Hugo Book, Hextra, Docsy)."""

TABS = frozenset({"tab"})
"""The shortcode of one tab."""


def push_tabset(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a set of tabs for a `tabs`/`tabpane` shortcode on lines `start` to `close`,
    its tabs read from the lines between (the shortcode rule reads each `tab`)."""
    _, named = shortcode_params(tag.args)
    items = [item.strip() for item in named.get("items", "").split(",") if item.strip()]
    text = named.get("text", "").lower() == "true" or tag.name == "tabs"
    panes: list[dict[str, object]] = get_state(state.env).extra.setdefault("tab_panes", [])
    panes.append({"items": items, "count": 0, "text": text})
    open_tabset(state, start, close)
    tokenize_lines(state, start + 1, close)
    close_tabset(state, close)
    panes.pop()


def push_tab(state: StateBlock, lines: tuple[int, int], tag: Tag, body: str | None) -> None:
    """Push one `tab` shortcode: its title and its body, the lines between `lines` (the
    tags' lines), or `body` when the tags share a line with it."""
    start, close = lines
    positional, named = shortcode_params(tag.args)
    panes = get_state(state.env).extra.get("tab_panes") or [{"items": [], "count": 0}]
    pane = panes[-1]
    index = int(str(pane.get("count", 0)))
    pane["count"] = index + 1
    items = pane.get("items") or []
    title = named.get("name") or named.get("title") or named.get("header")
    title = title or (positional[0] if positional else "")
    title = title or (str(items[index]) if isinstance(items, list) and index < len(items) else "")
    code = named.get("lang") if not (pane.get("text") or named.get("text") == "true") else None
    open_tab(state, start, close, title or f"Tab {index + 1}")
    if code is not None and body is None:
        fence = state.push("fence", "code", 0)
        fence.info, fence.map = code, [start + 1, close]
        fence.markup = tag.raw  # no backtick fence: `nesting.unclosed_fence` skips it
        fence.content = "".join(state.getLines(start + 1, close, state.blkIndent, False))
    elif body is not None:
        push_blocks(state, start, body)
    else:
        tokenize_lines(state, start + 1, close)
    state.push("tab_close", "div", -1).markup = "tab"
