"""What a citation with nothing to cite from says and shows, shared by the citation plugin
(`cite.py`) and the cross-reference plugin (`xref.py`, for a `[@id]` that names no element
of the page and so is a citation after all)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from postil.errors import did_you_mean
from postil.markdown.state import named_lines

NO_BIBLIOGRAPHY = (
    "{shown} reads as a citation but the post names no bibliography; add "
    "`bibliography: refs.bib` to its front matter (or postil.yaml)"
)
"""The warning at a citation in a post without a bibliography (`shown`: as written)."""


def no_bibliography(shown: str, lines: Sequence[int]) -> str:
    """Return the warning at the first of the citations written one way in a post without a
    bibliography (`shown`: it as written), naming the others' file `lines` when there are
    several (`RenderState.warn_each` gives them: one warning a post, not one a citation)."""
    if len(lines) < 2:
        return NO_BIBLIOGRAPHY.format(shown=shown)
    return (
        f"{shown} and {len(lines) - 1} more written so ({named_lines(lines)}) read as "
        "citations but the post names no bibliography; add `bibliography: refs.bib` to its "
        "front matter (or postil.yaml)"
    )


def unknown_key(key: str, known: Iterable[str]) -> str:
    """Return the warning at a citation of `key`, which the bibliography's `known` keys lack,
    naming the nearest of them (`errors.did_you_mean`: `higam2002` → `higham2002`)."""
    return (
        f"citation key `{key}` is not in the bibliography{did_you_mean(key, known)}; add an "
        f"entry `{key}` to the .bib file, fix the key, or write \\@{key} for literal text"
    )


def missing_html(key: str, numeric: bool) -> str:
    """Return what a citation of a key the bibliography lacks shows: `(@key)`, `[@key]`."""
    inner = f'<span class="citation-missing">@{escape(key)}</span>'
    before, after = ("[", "]") if numeric else ("(", ")")
    return f'<span class="citation">{before}{inner}{after}</span>'
