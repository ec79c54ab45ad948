r"""bookdown's cross-references to equations, in R Markdown posts (bookdown, blogdown).

bookdown ("Authoring Books and Technical Documents with R Markdown", 2.2.1 "Equations" and
2.6 "Cross-references") labels an equation with `(\#eq:label)` inside its environment and
refers to it with `\@ref(eq:label)`, which prints the number alone (authors write
`(\@ref(eq:label))`). postil reads them as amsmath's `\label{eq:label}` and `\ref{eq:label}`:
the same numbering, links and checks (`postil.markdown.mathdoc`). `\@ref` to a theorem
(`thm:pyth`), figure or table is its number and a link, to a heading its words (postil does
not number sections; bookdown's unnumbered ones have no number either): resolved with
Quarto's references by `postil.markdown.xref` (`target_ids`).
"""

from __future__ import annotations

import re

BOOKDOWN_SUFFIXES = (".rmd", ".rmarkdown")
"""R Markdown sources (lower-cased endings), which bookdown joins into a book's chapters:
a file may open with a section's heading (`postil.content.frontmatter._untitled`), and its
section ids are the book's (`postil.content.headers.section_labels`)."""

LABEL = re.compile(r"\(\\#(eq:[\w:.-]+)\)")
r"""An equation's label in its TeX: `(\#eq:normal)`."""

REF = re.compile(r"\\@ref\(([\w:.-]+)\)")
r"""A reference in prose: `\@ref(eq:normal)`, `\@ref(fig:plot)`, `\@ref(intro)`."""

BOOKDOWN_PREFIXES = frozenset({"thm", "lem", "cor", "prp", "cnj", "def", "exm", "exr", "hyp"})
r"""bookdown's label prefixes of its theorem kinds, in `\@ref(thm:label)`."""

FLOAT_PREFIXES = {"fig": "fig", "tab": "tbl"}
"""bookdown's figure and table label prefixes, and Quarto's (`{#fig-x}`, `{#tbl-x}`)."""


def target_ids(label: str) -> list[str]:
    r"""Return the ids a `\@ref(label)` that is no equation may name in the post, most
    likely first: `thm:pyth` the theorem `::: {.theorem #pyth}` or ```` ```{theorem, pyth} ````
    (bookdown's prefixes, `BOOKDOWN_PREFIXES`), `fig:plot` the figure `{#plot}`,
    `{#fig:plot}` or `{#fig-plot}`, `intro` the heading `{#intro}` (or `{#sec-intro}`)."""
    kind, colon, name = label.partition(":")
    if not colon:
        return [label, f"sec-{label}"]
    if kind in BOOKDOWN_PREFIXES or kind in FLOAT_PREFIXES:
        quarto = FLOAT_PREFIXES.get(kind, kind)
        return [name, label, f"{quarto}-{name}"]
    return [label]


def missing_target(label: str) -> str:
    r"""Return the warning for a `\@ref(label)` that names nothing in the post."""
    kind, colon, _ = label.partition(":")
    what = {"fig": "figure", "tab": "table"}.get(kind, "theorem") if colon else "heading"
    chunk = " (one a code chunk makes has none: postil does not run code)"
    return (
        f"bookdown's `\\@ref({label})` names no {what} of this post (looked for the id "
        f"`{target_ids(label)[0]}`), so it shows ??; fix the label, or give the {what} "
        f"`{{#{target_ids(label)[0]}}}`{chunk if what in ('figure', 'table') else ''}"
    )


def equation_labels(latex: str) -> str:
    r"""Return `latex` with bookdown's `(\#eq:x)` written as `\label{eq:x}`."""
    return LABEL.sub(r"\\label{\1}", latex) if "(\\#" in latex else latex
