r"""mhchem's `\ce{…}` and `\pu{…}`: chemical equations, formulas and units, as TeX.

mhchem is a parser that turns chemists' shorthand into TeX (`\ce{SO4^2-}` →
`\mathrm{SO}_{4}{}^{2-}`); KaTeX (contrib/mhchem), MathJax and Temml typeset that TeX. This
package is postil's own reading of the same syntax, written from the mhchem manual
(https://mhchem.github.io/MathJax-mhchem/) and checked against the TeX mhchem 3.3 emits
(no code of mhchem's is in it), in TeX latex2mathml lays out as mhchem's looks: scripts on
the element they follow, isotopes as `\prescript`, reaction arrows as the extensible arrows
padded to mhchem's shortest length.

- `equations.py`: `\ce`'s words, operators, arrows with `[above][below]` texts, coefficients;
- `formulas.py`: one formula: elements, subscripts, charges, oxidation states, isotopes,
  states, addition compounds, bonds, Greek letters, `$math$`, `{text}`;
- `units.py`: `\pu`'s number and units;
- `grammar.py`: the arrows, bonds, patterns, and `ChemError`.

`\cee` and `\cf` are `\ce` (mhchem's aliases for MathJax 2). What is not read (a script of
no kind mhchem has, `\ce{X^{1/2}}`; ranges and uncertainties in `\pu`; …) raises
`MathUnsupportedError` naming the construct at its offset, so the build warns at
`path:line:col` and the page shows the TeX instead of a wrong formula.
"""

from __future__ import annotations

import re

from postil.math.errors import MathUnsupportedError
from postil.math.mhchem.equations import find_commands, translate_ce
from postil.math.mhchem.grammar import SIGNS, ChemError
from postil.math.mhchem.units import translate_pu

__all__ = ["SIGNS", "rewrite_mhchem", "translate_ce", "translate_pu"]

TEXT_GROUP = re.compile(r"\\(?:text|textrm|mbox|textnormal)\s*\{")
UNREAD = "write that part as math (\\mathrm{…}, _{…}, ^{…})"


def rewrite_mhchem(latex: str) -> str:
    r"""Replace every `\ce{…}`, `\cee{…}`, `\cf{…}` and `\pu{…}` by the TeX mhchem makes.

    A `\ce` inside `\text{…}` is set as math there (`$…$`), as LaTeX's mhchem sets it.

    Raises:
        MathUnsupportedError: at the construct of an argument that is not read here, or at
            a command without its `{…}` argument.
    """
    if not any(sign in latex for sign in SIGNS):
        return latex
    out, last, name = [], 0, "ce"
    try:
        for match, start, end in find_commands(latex):
            name = match.group(1)
            argument = latex[start + 1 : end - 1]
            tex = (
                translate_pu(argument, start + 1)
                if name == "pu"
                else translate_ce(argument, start + 1)
            )
            if _in_text(latex, match.start()):
                tex = f"${tex}$"
            out += [latex[last : match.start()], tex]
            last = end
    except ChemError as exc:
        raise MathUnsupportedError(_message(exc, name), exc.offset, f"\\{name}") from None
    return "".join(out) + latex[last:]


def _message(exc: ChemError, name: str) -> str:
    """Return the warning's message for `exc` in `\\name{…}`."""
    if exc.fix:
        return f"\\{name}{{…}}: {exc.what}; {exc.fix}"
    return f"mhchem's {exc.what} in \\{name}{{…}} is not supported; {UNREAD}"


def _in_text(latex: str, offset: int) -> bool:
    r"""Tell whether `offset` lies in the text of a `\text{…}`-like group, outside `$…$`."""
    for match in TEXT_GROUP.finditer(latex, 0, offset):
        depth, dollars = 1, 0
        for char in latex[match.end() : offset]:
            depth += {"{": 1, "}": -1}.get(char, 0)
            dollars += char == "$"
            if depth == 0:
                break
        if depth > 0 and dollars % 2 == 0:
            return True
    return False
