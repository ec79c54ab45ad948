"""`latex_to_mathml`: the one entry point from LaTeX to MathML Core, wrapping latex2mathml.

The conversion itself is the ordered list of passes in `pipeline.py`; this module adds the
optional cache (`cache.MathCache`), which the caller owns and passes in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from postil.math.cache import MathCache, cache_key
from postil.math.pipeline import Formula, to_mathml


def latex_to_mathml(
    latex: str,
    *,
    display: bool = False,
    macros: Mapping[str, str] | None = None,
    equations: Mapping[str, str] | None = None,
    numbers: Sequence[str | None] | None = None,
    cache: MathCache | None = None,
) -> str:
    r"""Convert one formula to a `<math>` element (MathML Core) as an HTML string.

    Args:
        latex: the TeX source, without `$` delimiters.
        display: True for display math (`<math display="block">`, limits under/over).
        macros: name without backslash -> replacement (`{"RR": r"\mathbb{R}"}`, `#1` for
            arguments), on top of KaTeX's built-in aliases.
        equations: label -> number text of the whole document, for `\eqref`/`\ref`;
            None for a lone formula (labels defined in it still resolve; others show "??").
        numbers: the number text of each numbered row, in the order of
            `environments.split_numbering`'s rows (None entries for unnumbered rows); None
            numbers this formula's rows from 1.
        cache: where to look the result up and store it (keyed by everything the output
            depends on, `cache.cache_key`); None converts without caching.

    Returns:
        `<math display="block|inline"><semantics>…<annotation
        encoding="application/x-tex">source</annotation></semantics></math>`.

    Raises:
        MathSyntaxError: latex2mathml cannot parse the formula.
        MathUnsupportedError: an unknown or refused command (named, with its offset).
    """
    if cache is None:
        return to_mathml(Formula(latex, display, macros or {}, equations, numbers))
    key = cache_key(latex, display, macros, equations, numbers)
    found = cache.get(key)
    if found is None:
        found = to_mathml(Formula(latex, display, macros or {}, equations, numbers))
        cache.put(key, found)
    return found
