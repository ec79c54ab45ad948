"""What a `{name}` fence names: a MyST directive, a knitr/Quarto chunk or a postil widget.

MyST (```` ```{note} ````, `:::{note}`), knitr and Quarto (```` ```{python} ````) and
postil's widgets (```` ```{temperature} ````) all write a name in braces where a fence's
language goes. Three plugins read them (`myst`, `chunk`, `widget`); each asks this one
registry what a name is, so a name none of them knows is reported once, by name, as
something postil does not read (`myst.myst_directives`, `myst.myst_block`), never
guessed at as a code language and option or left as text without a word.
"""

from __future__ import annotations

from postil.markdown.chunk import ENGINES
from postil.widgets import known_widgets


def fence_kind(name: str) -> str:
    """Return what `{name}` names: "directive", "chunk", "widget", or "" for none.

    A name both MyST and knitr know (`glue`) is a directive, as `myst_directives` (which
    runs before the chunk rule) reads it.

    Args:
        name: the name between the braces, in any case.
    """
    from postil.markdown import myst  # myst asks this registry: imported when first asked

    name = name.lower()
    if myst.is_directive(name):
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
