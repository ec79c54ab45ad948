"""What a `{name}` fence names: a MyST directive, a knitr/Quarto chunk or a postil widget.

MyST (```` ```{note} ````, `:::{note}`), knitr and Quarto (```` ```{python} ````) and
postil's widgets (```` ```{temperature} ````) all write a name in braces where a fence's
language goes. This module is the one registry of those names: the MyST directives
postil reads, leaves out or names as unsupported (here; `postil.markdown.myst` reads
them), the chunk plugin's engines (`chunk.ENGINES`) and the installed widgets
(`postil.widgets`). The MyST plugin runs first and asks `fence_kind`, so a name none of
the three knows is reported once, by name, as something postil does not read, never
guessed at as a code language and option or left as text without a word.
"""

from __future__ import annotations

from postil.markdown.chunk import ENGINES
from postil.markdown.margin import MARGIN_DIRECTIVES
from postil.widgets import known_widgets

CODE = {"code-cell", "code-block", "code", "sourcecode"}
"""Directives whose body is code in the language their argument names."""

LEFT_OUT = {
    "index",
    "tableofcontents",
    "exercise-start",
    "exercise-end",
    "solution-start",
    "solution-end",
}
"""Directives left out: an index entry, Jupyter Book's list of the book's chapters, and
sphinx-exercise's gated markers around content that is the post's own."""

UNSUPPORTED = frozenset(
    "toctree glue glue:figure glue:math glue:text bibliography csv-table table "
    "tab-set tab-item card grid grid-item grid-item-card "
    "literalinclude include only rubric topic versionadded versionchanged deprecated "
    "jupyter-execute pull-quote highlights tabbed div iframe video youtube "
    "myst mdast embed button glossary outline anywidget blockquote".split()
)
"""MyST and Sphinx directives postil has no equivalent for: shown as code (as Markdown in a
colon fence) with a warning. The last row are mystmd's (its directive reference): a name
nothing reads alone in braces is a widget's, and an unknown widget stops the build."""


CALLOUTS = {
    "note": "note",
    "tip": "tip",
    "hint": "tip",
    "important": "important",
    "attention": "important",
    "warning": "warning",
    "caution": "caution",
    "danger": "caution",
    "error": "caution",
    "seealso": "note",
    "admonition": "note",
    "exercise": "note",
    "solution": "tip",
    "dropdown": "note",  # sphinx-design: a folded block under its title
    "toggle": "note",  # sphinx-togglebutton (on in Jupyter Book): folded content
}
"""Admonition directives as callout kinds (`postil.markdown.callout.KINDS`); every
`prf:` directive (sphinx-proof's theorem, lemma, proof, …) is a note too."""

FOLDED = frozenset({"dropdown", "toggle"})
"""Directives whose callout starts folded (as `:class: dropdown` folds an admonition)."""


PROOF_KINDS = {
    "axiom": "axiom",
    "theorem": "thm",
    "lemma": "lem",
    "definition": "def",
    "remark": "rem",
    "conjecture": "cnj",
    "corollary": "cor",
    "algorithm": "alg",
    "criterion": "criterion",
    "example": "exm",
    "property": "property",
    "observation": "observation",
    "proposition": "prp",
    "assumption": "assumption",
    "notation": "notation",
    "proof": "proof",
}
"""sphinx-proof's directives (`{prf:theorem}` …) as theorem kinds: Quarto's prefix where
it has the kind (its CSS class `theorem-thm`), else the name; `proof` is unnumbered."""

THEOREM_ENGINES = {
    "theorem": ("thm", "Theorem"),
    "lemma": ("lem", "Lemma"),
    "corollary": ("cor", "Corollary"),
    "proposition": ("prp", "Proposition"),
    "conjecture": ("cnj", "Conjecture"),
    "definition": ("def", "Definition"),
    "example": ("exm", "Example"),
    "exercise": ("exr", "Exercise"),
    "hypothesis": ("hypothesis", "Hypothesis"),
    "proof": ("proof", "Proof"),
    "remark": ("remark", "Remark"),
    "solution": ("solution", "Solution"),
}
r"""bookdown's theorem and proof engines ("Authoring Books with R Markdown", 2.2.2
"Theorems and proofs"): ```` ```{theorem, label, name="…"} ```` and bare ```` ```{lemma} ````
fences whose body is Markdown, as (the theorem plugin's kind, its word); `proof`, `remark`
and `solution` are unnumbered (`theorem.PROOFS`). bookdown refers to them as
`\@ref(thm:label)` (`BOOKDOWN_PREFIXES`)."""

DIRECTIVES = frozenset({"math", "raw", "mermaid", "contents", *CODE, *LEFT_OUT})
"""The directives `myst_directives` reads (the others, as blocks, `myst_block`)."""


def is_directive(name: str) -> bool:
    """Return whether `name` (lower case) is a MyST directive postil reads or names as
    unsupported (`fence_kind` asks)."""
    return (
        name in DIRECTIVES
        or name in UNSUPPORTED
        or name in CALLOUTS
        or name in ("figure", "image", "epigraph", *MARGIN_DIRECTIVES)
        or name.startswith("prf:")
        or name in THEOREM_ENGINES
    )


def fence_kind(name: str) -> str:
    """Return what `{name}` names: "directive", "chunk", "widget", or "" for none.

    A name both MyST and knitr know (`glue`) is a directive, as `myst_directives` (which
    runs before the chunk rule) reads it.

    Args:
        name: the name between the braces, in any case.
    """
    name = name.lower()
    if is_directive(name):
        return "directive"
    if name in ENGINES:
        return "chunk"
    return "widget" if name in known_widgets() else ""


def unknown_fence_message(name: str, shown_as: str, kind: str = "") -> str:
    """Return the warning for a `{name}` fence no plugin reads as written, its body shown
    as `shown_as` ("code", "Markdown"), saying what to write instead; `kind` is what the
    name is (`fence_kind`) when it is known but not written as that kind is: a chunk
    engine with an argument after its braces (```` ```{r} setup ````)."""
    if kind == "chunk":
        return (
            f"`{{{name}}}` followed by words is not a code chunk (knitr and Quarto write its "
            f"options inside the braces, ```{{{name} label}}), so its body is shown as "
            f"{shown_as}; move the words inside the braces"
        )
    if kind == "widget":
        return (
            f"widget `{{{name}}}` takes no words after its braces (its options are YAML in "
            f"its body), so its body is shown as {shown_as}; remove them"
        )
    advice = (
        "write it as Markdown (a `:::` callout, an image, text), or as ```python to show code"
        if shown_as == "code"
        else "remove its fence lines, or make it a callout (`:::{note}`)"
    )
    return (
        f"`{{{name}}}` is not a MyST directive, code chunk or widget postil reads, so its "
        f"body is shown as {shown_as}; {advice}"
    )
