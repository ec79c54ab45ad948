r"""postil's math layer: LaTeX -> MathML Core at build time, wrapping latex2mathml.

    >>> from postil.math import latex_to_mathml
    >>> latex_to_mathml(r"\log_2 7 \approx 2.81")[:25]
    '<math display="inline"><s'

See `convert.latex_to_mathml` for the entry point, `pipeline.PASSES` for the ordered list
of passes (`python -m postil.math --trace 'TeX'` shows each one's output), `cache.MathCache`
for the conversion cache the caller may pass in, and `docs/math.md` for the syntax.
"""

from postil.math.cache import MathCache
from postil.math.convert import latex_to_mathml
from postil.math.errors import MathError, MathSyntaxError, MathUnsupportedError
from postil.math.numbering import EquationRow, anchor_id

__all__ = [
    "EquationRow",
    "MathCache",
    "MathError",
    "MathSyntaxError",
    "MathUnsupportedError",
    "anchor_id",
    "latex_to_mathml",
]
