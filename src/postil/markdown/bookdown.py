r"""bookdown's cross-references to equations, in R Markdown posts (bookdown, blogdown).

bookdown ("Authoring Books and Technical Documents with R Markdown", 2.2.1 "Equations" and
2.6 "Cross-references") labels an equation with `(\#eq:label)` inside its environment and
refers to it with `\@ref(eq:label)`, which prints the number alone (authors write
`(\@ref(eq:label))`). postil reads them as amsmath's `\label{eq:label}` and `\ref{eq:label}`:
the same numbering, links and checks (`postil.markdown.mathdoc`). `\@ref` to figures,
tables, theorems and sections is reported with the fix: Quarto's cross-references, which
postil reads (`postil.markdown.xref`), say the same.
"""

from __future__ import annotations

import re

LABEL = re.compile(r"\(\\#(eq:[\w:.-]+)\)")
r"""An equation's label in its TeX: `(\#eq:normal)`."""

REF = re.compile(r"\\@ref\(([\w:.-]+)\)")
r"""A reference in prose: `\@ref(eq:normal)`, `\@ref(fig:plot)`, `\@ref(intro)`."""

OTHER_KINDS = {"fig": "fig", "tab": "tbl", "thm": "thm", "lem": "lem", "def": "def"}
"""bookdown's label prefixes of figures, tables and theorems, and Quarto's for the fix."""


def equation_labels(latex: str) -> str:
    r"""Return `latex` with bookdown's `(\#eq:x)` written as `\label{eq:x}`."""
    return LABEL.sub(r"\\label{\1}", latex) if "(\\#" in latex else latex


def unsupported_ref(label: str) -> str:
    r"""Return the warning for a `\@ref(label)` that is not to an equation."""
    kind, _, name = label.partition(":")
    quarto = OTHER_KINDS.get(kind)
    if quarto is None:
        fix = f"give the heading `{{#sec-{label}}}` and write `@sec-{label}`"
    else:
        fix = f"label it `{{#{quarto}-{name}}}` and write `@{quarto}-{name}` (Quarto's)"
    return (
        f"bookdown's `\\@ref({label})` is only read for equations (`eq:`), so it shows as "
        f"text; {fix}"
    )
