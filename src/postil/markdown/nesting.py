"""Report Markdown nested too deeply instead of dropping it silently.

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
