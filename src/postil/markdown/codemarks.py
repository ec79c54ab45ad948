r"""Lines marked inside a code block by comments: Shiki's `[!code …]` and Docusaurus' magic
comments.

VitePress and other Shiki users end a line with `// [!code highlight]` (also `hl`, `++`,
`--`, `focus`, `error`, `warning`, with a count: `[!code highlight:3]` marks this line and
the two after it; `[!code word:x]` marks a word) in any comment syntax (Shiki's transformer
"notation" family). Docusaurus puts `// highlight-next-line` on a line of its own, or
`// highlight-start` … `// highlight-end` around lines ("Code blocks": Line highlighting).
Readers of the source never see the markers: postil removes them and highlights the lines
(one mark for all of Shiki's kinds: postil's code blocks have one, `hl_lines`).
"""

from __future__ import annotations

import re

COMMENT = r"(?://|#|--|;|%|/\*|<!--|\{/\*)"
"""The comment openers a marker may follow (C, shell, SQL, Lisp, TeX, CSS, HTML, MDX)."""

SHIKI = re.compile(
    rf"[ \t]*{COMMENT}[ \t]*\[!code[ \t]+(?P<note>[^\]\s]+)\][ \t]*(?:\*/\}}|\*/|-->)?[ \t]*$"
)
"""Shiki's marker ending a line: `// [!code highlight]`, `<!-- [!code ++] -->`."""

DOCUSAURUS = re.compile(
    rf"[ \t]*{COMMENT}[ \t]*highlight-(?P<what>next-line|start|end)[ \t]*(?:\*/\}}|\*/|-->)?[ \t]*"
)
"""Docusaurus' magic comment alone on a line."""

SHIKI_KINDS = frozenset({"highlight", "hl", "++", "--", "focus", "error", "warning"})
"""Shiki's line notations; `word:…` marks a word, which postil leaves unmarked."""


def code_marks(code: str) -> tuple[str, tuple[int, ...]]:
    """Return `code` without its line markers, and the 1-based lines they mark.

    Lines are counted in the code returned (a Docusaurus comment's own line is gone).
    """
    if "[!code" not in code and "highlight-" not in code:
        return code, ()
    kept: list[str] = []
    marked: set[int] = set()
    pending = 0  # lines still to mark after a `[!code highlight:3]`
    next_line = opened = False
    for line in code.split("\n"):
        magic = DOCUSAURUS.fullmatch(line)
        if magic is not None:
            what = magic.group("what")
            next_line = next_line or what == "next-line"
            opened = {"start": True, "end": False}.get(what, opened)
            continue
        shiki = SHIKI.search(line)
        if shiki is not None:
            kind, _, count = shiki.group("note").partition(":")
            line = line[: shiki.start()]
            if kind in SHIKI_KINDS:
                pending = max(pending, int(count) if count.isdigit() else 1)
        kept.append(line)
        if pending or next_line or opened:
            marked.add(len(kept))
        pending = max(pending - 1, 0)
        next_line = False
    return "\n".join(kept), tuple(sorted(marked))
