r"""TeX rewrites before latex2mathml for commands it gets wrong or lacks.

Each function takes TeX and returns TeX (the pipeline's rewrite passes). Where latex2mathml
cannot express the result, a rewrite leaves a marker (`markers.py`): `\operatorname{…}`
with any content becomes an operator-name marker, `\eqref`/`\ref` a reference marker.
Environments are rewritten in `environments.py`, text mode in `textmode.py`.
"""

from __future__ import annotations

import re

from postil.math.environments import unstar_matrices
from postil.math.macros import read_group
from postil.math.markers import marker

OPERATORNAME = re.compile(r"\\(operatorname\*?|operatornamewithlimits)(?![A-Za-z])")
REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")
UPRIGHT_LETTER = re.compile(r"\\(?:mathrm|mathup)\s*\{\s*([A-Za-z])\s*\}")
CHAR = re.compile(r'\\char\s*(?:"([0-9A-Fa-f]+)|(\d+))')
MATHOP = re.compile(r"\\mathop\s*\{\s*\\(?:mathrm|rm|text)\s*\{([A-Za-z]+)\}\s*\}")
SPACES = re.compile(r"\\[,:;> ]|~|\\(?:thinspace|medspace|thickspace)(?![A-Za-z])")
URL = re.compile(r"\\url\s*\{([^{}]*)\}")
# A length with no digit before its point (`\kern-.5em`, `\hspace{.2em}`): TeX reads it,
# latex2mathml reads `-` or `.5` alone (a width of "-").
BARE_POINT = re.compile(
    r"(\\(?:kern|mkern|mskip|hskip|hspace\*?\s*\{|mspace\s*\{)\s*[+-]?)\.(?=\d)"
)
MATH_IN_NAME = re.compile(r"[\\^_$&#%]")  # an operator name that is not a plain word


def rewrite_refs(latex: str) -> str:
    r"""Turn `\eqref{x}`/`\ref{x}` into reference markers (`numbering.resolve_refs` links them)."""
    return REF.sub(lambda m: marker(m.group(1), m.group(2).strip()), latex)


def rewrite_operatornames(latex: str) -> str:
    r"""Turn `\operatorname{arg\,max}` (any content) into an operator-name marker.

    A name that is a word (letters, digits, `\,`, `-`, `\text{…}`) becomes one `<mi>`; a
    name with math in it (`\operatorname*{\mathbb{E}}`, from `\DeclareMathOperator*`)
    is set as a group in `\mathrm` (TeX's `\operatorfont`) after an `opgroup` marker, which
    makes the group the operator (`markers.expand_markers`).
    """
    out, pos = [], 0
    for match in OPERATORNAME.finditer(latex):
        if match.start() < pos:
            continue
        name, end = read_group(latex, match.end())
        text = SPACES.sub("\u2009", name)
        text = re.sub(r"\\(?:mathrm|text|textrm|mathit)\s*\{([^{}]*)\}", r"\1", text)
        text = text.replace("{", "").replace("}", "").strip()
        kind = "op" if match.group(1) == "operatorname" else "opl"
        if MATH_IN_NAME.search(text):
            operator = "{" + marker("opgroup", kind) + rf"\mathrm{{{name}}}}}"
        else:
            operator = marker(kind, text)
        out += [latex[pos : match.start()], operator]
        pos = end
    return "".join(out) + latex[pos:]


def rewrite_specials(latex: str) -> str:
    r"""Rewrite small constructs latex2mathml gets wrong: `\mathrm{d}`, `\char"41`, `*matrix*`,
    lengths written `-.5em`.

    Each rewrite runs only when its command is in the text (most formulas have none).
    """
    if "\\math" in latex:
        latex = UPRIGHT_LETTER.sub(r"\\mathrm{{\1}}", latex)
    if "\\char" in latex:
        latex = CHAR.sub(
            lambda m: chr(int(m.group(1), 16) if m.group(1) else int(m.group(2))), latex
        )
    latex = unstar_matrices(latex)
    if "." in latex:
        latex = BARE_POINT.sub(r"\g<1>0.", latex)
    if "\\mathop" in latex:
        latex = MATHOP.sub(r"\\operatorname{\1}", latex)
    return latex


def rewrite_urls(latex: str) -> str:
    r"""Rewrite `\url{u}` as `\href{u}{\texttt{u}}` (the target is checked by `safety.py`)."""
    if "\\url" in latex:
        latex = URL.sub(r"\\href{\1}{\\texttt{\1}}", latex)
    return latex
