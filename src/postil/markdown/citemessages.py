"""What a citation with nothing to cite from says and shows, shared by the citation plugin
(`cite.py`) and the cross-reference plugin (`xref.py`, for a `[@id]` that names no element
of the page and so is a citation after all)."""

from __future__ import annotations

from html import escape

NO_BIBLIOGRAPHY = (
    "{shown} reads as a citation but the post names no bibliography; add "
    "`bibliography: refs.bib` to its front matter (or postil.yaml)"
)
"""The warning at a citation in a post without a bibliography (`shown`: as written)."""

UNKNOWN_KEY = (
    "citation key `{key}` is not in the bibliography; add an entry `{key}` to the .bib "
    "file, fix the key, or write \\@{key} for literal text"
)
"""The warning at a citation of a key the bibliography lacks."""


def missing_html(key: str, numeric: bool) -> str:
    """Return what a citation of a key the bibliography lacks shows: `(@key)`, `[@key]`."""
    inner = f'<span class="citation-missing">@{escape(key)}</span>'
    before, after = ("[", "]") if numeric else ("(", ")")
    return f'<span class="citation">{before}{inner}{after}</span>'
