"""Report Markdown whose text would be lost or swallowed silently.

Two cases: blocks nested too deeply (an error: the text is dropped) and a code fence that is
never closed (a warning: CommonMark runs it to the end of its container, so the rest of the
post shows as code).

markdown-it stops parsing blocks at `maxNesting` levels and skips the rest of the nested
range without a trace ("That's not ordinary situation and we should not care about content",
markdown_it/parser_block.py). A list level counts two (list + item), a blockquote one. postil
raises the limit from CommonMark preset's 20 to markdown-it's default preset's 100 (about 50
nested lists; the parser recurses per level, so the limit also keeps deep input off Python's
recursion limit) and reports an error at the first line that would be dropped:

```markdown
> > > > … (more than 100 levels) text
```

No output and no CSS classes of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import get_state

MAX_NESTING = 100
"""Block nesting levels markdown-it parses (its default preset's value)."""


def nesting_plugin(md: MarkdownIt, max_nesting: int = MAX_NESTING) -> None:
    """Set markdown-it's nesting limit to `max_nesting` and report content deeper than it.

    markdown-it has no hook at the point where it drops content, so the block tokenizer of
    this instance is wrapped (blockquotes and lists call it through `state.md.block`).
    """
    md.options["maxNesting"] = max_nesting
    md.block.tokenize = _guarded(md.block.tokenize)  # type: ignore[method-assign]
    md.core.ruler.after("block", "unclosed_fence", unclosed_fence)


def unclosed_fence(state: StateCore) -> None:
    """Warn at every code fence whose closing line is missing (before plugins re-type fences).

    Inside a list item, quote or grid table cell the fence ends with it (CommonMark: a
    container's end closes the blocks in it), so the message says the code runs to that
    end only.

    A fence's `map` ends after its closing line when it has one (markdown-it's fence rule);
    that line, without blockquote markers and indentation, is the opening markup or longer.
    """
    lines = state.src.split("\n")
    for token in state.tokens:
        if token.type != "fence" or token.map is None:
            continue
        if not token.markup.startswith(("`", "~")):
            continue  # a code block of another syntax ({% highlight %}), closed by its rule
        closed = token.meta.get("fence_closed") if token.meta else None
        if not (fence_closed(token, lines) if closed is None else closed):
            reach = "in the list item, quote or table cell it is in " if token.level else ""
            get_state(state.env).warn(
                token.map[0],
                1,
                f"code fence {token.markup} is never closed, so everything after it {reach}"
                f"shows as code; add a line {token.markup} where the code ends",
            )


def fence_closed(token: Token, lines: list[str]) -> bool:
    """Return whether a fence parsed from `lines` has its closing line (`token.map` is in
    them): the last line of its map, without blockquote markers and indentation, is the
    opening markup or longer. A plugin that parses text of its own (a grid table's cell)
    asks this of its text and keeps the answer in `meta["fence_closed"]`."""
    start, end = token.map or (0, 0)
    last = lines[end - 1].lstrip("> \t").rstrip() if start < end - 1 < len(lines) else ""
    return last.startswith(token.markup) and set(last) == {token.markup[0]}


def _guarded(tokenize: Callable[..., None]) -> Callable[..., None]:
    def nesting_guard(state: StateBlock, start_line: int, end_line: int, *args: Any) -> None:
        limit = state.md.options["maxNesting"]
        if state.level >= limit:
            line = state.skipEmptyLines(start_line)
            if line < end_line and state.sCount[line] >= state.blkIndent:
                get_state(state.env).error(
                    line,
                    1,
                    f"Markdown nested more than {limit} levels deep (each list counts two,"
                    " each blockquote one); the deeper text would be lost, so flatten it",
                )
        tokenize(state, start_line, end_line, *args)

    return nesting_guard
