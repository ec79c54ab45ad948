r"""A formula that is one equation reference, `$\eqref{x}$`: a reference in prose.

Read by the math plugin's inline rule (`postil.markdown.math`) and by the formulas of raw
HTML (`postil.markdown.mathhtml`), which make it a `math_ref` token as `\eqref{x}` written
in text is (`math.render_math_ref`: a link to the equation outside `<math>`).
"""

from __future__ import annotations

import re
from typing import Any

ONLY_REF = re.compile(
    r"\s*(?P<open>\(\s*)?(?P<ref>\\(?P<kind>eqref|ref)\s*\{\s*(?P<label>[^{}\n]*?)\s*\})"
    r"(?P<close>\s*\))?\s*"
)
r"""A formula that is one `\eqref{x}` or `\ref{x}` (`$(\ref{x})$` too, as LaTeX posts write
`(\ref{x})` for an equation's number): `only_reference`."""


def only_reference(tex: str) -> re.Match[str] | None:
    r"""Return the match of `ONLY_REF` when a formula's TeX is one equation reference and
    nothing else (its parentheses paired), else None.

    Such a formula is a reference in prose (`math_ref`, rendered by `render_math_ref`): a
    link inside `<math>`, whose ARIA role `math` makes its content presentational, is an
    interactive control nested in another (axe-core's `nested-interactive`), and screen
    readers read the formula as a whole, not its link. A reference inside a larger formula
    (`$x = \eqref{a}$`) stays in the formula as `<mtext><a>(1)</a></mtext>`.
    """
    found = ONLY_REF.fullmatch(tex)
    if found is None or not found["label"] or (found["open"] is None) != (found["close"] is None):
        return None
    return found


def reference_meta(found: re.Match[str], offset: int) -> dict[str, Any]:
    """Return the `meta` of the `math_ref` token for `only_reference`'s match: its kind,
    label, the source offset of its backslash, and the text around it (the parentheses)."""
    return {
        "kind": found["kind"],
        "label": found["label"],
        "offset": offset,
        "around": ("(", ")") if found["open"] is not None else ("", ""),
    }
