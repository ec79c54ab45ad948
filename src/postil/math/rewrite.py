r"""TeX rewrites before latex2mathml for commands it gets wrong or lacks.

Each function takes TeX and returns TeX (the pipeline's rewrite passes). Where latex2mathml
cannot express the result, a rewrite leaves a marker (`markers.py`): `\operatorname{…}`
with any content becomes an operator-name marker, `\eqref`/`\ref` a reference marker.
Environments are rewritten in `environments.py`, text mode in `textmode.py`.
"""

from __future__ import annotations

import re
import unicodedata

from postil.math.environments import unstar_matrices
from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import hide_label, marker

OPERATORNAME = re.compile(r"\\(operatorname\*?|operatornamewithlimits)(?![A-Za-z])")
REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")
UPRIGHT_LETTER = re.compile(r"\\(?:mathrm|mathup)\s*\{\s*([A-Za-z])\s*\}")
CHAR = re.compile(r'\\char\s*(?:"([0-9A-Fa-f]+)|(\d+))')
UNICODE = re.compile(r"\\unicode\s*\{\s*([^{}]*?)\s*\}")
CODE_POINT = re.compile(r"[xX]([0-9A-Fa-f]+)|([0-9]+)", re.ASCII)
MATHOP = re.compile(r"\\mathop\s*\{\s*\\(?:mathrm|rm|text)\s*\{([A-Za-z]+)\}\s*\}")
# A backslash before a tab or line end (after an even run of backslashes: `\\\⏎` is a row
# break, then this) is TeX's control space: plain.tex defines `\^^M` and `\^^I` as `\ `.
CONTROL_WHITESPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\[\t\n\r]")
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
    return REF.sub(lambda m: marker(m.group(1), hide_label(m.group(2).strip())), latex)


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
    a backslash before a line end or tab (a control space), lengths written `-.5em`.

    Each rewrite runs only when its command is in the text (most formulas have none).
    """
    if "\\math" in latex:
        latex = UPRIGHT_LETTER.sub(r"\\mathrm{{\1}}", latex)
    if "\\char" in latex:
        latex = CHAR.sub(lambda m: chr(_char_code(m)), latex)
    if "\\unicode" in latex:
        latex = UNICODE.sub(lambda m: rf"\unicode{{x{_unicode_code(m):X}}}", latex)
    latex = unstar_matrices(latex)
    if "\\\n" in latex or "\\\t" in latex or "\\\r" in latex:
        latex = CONTROL_WHITESPACE.sub(r"\1\\ ", latex)
    if "." in latex:
        latex = BARE_POINT.sub(r"\g<1>0.", latex)
    if "\\mathop" in latex:
        latex = MATHOP.sub(r"\\operatorname{\1}", latex)
    return latex


def _char_code(match: re.Match[str]) -> int:
    r"""Return the code point of `\char"41` (hex) or `\char65` (decimal), checked."""
    hex_digits, decimal = match.groups()
    number = _bounded(hex_digits, 16) if hex_digits else _bounded(decimal, 10)
    return check_code_point(number, match.group(0))


def _bounded(digits: str, base: int) -> int:
    """Return the number `digits` write, or 2**32 for anything longer than 8 digits (past
    every code point; `int()` of thousands of digits would be slow or refused)."""
    digits = digits.lstrip("0") or "0"
    return int(digits, base) if len(digits) <= 8 else 2**32


def _unicode_code(match: re.Match[str]) -> int:
    r"""Return the code point of `\unicode{x41}` (hex) or `\unicode{65}` (decimal), checked.

    MathJax's reading (https://docs.mathjax.org/en/latest/input/tex/extensions/unicode.html);
    latex2mathml would read `\unicode{65}` as hex, so every argument is rewritten as hex.
    """
    found = CODE_POINT.fullmatch(match.group(1))
    if found is None:
        raise MathUnsupportedError(
            f"{match.group(0)[:40]}: write the code point as decimal (\\unicode{{8730}}) or "
            "hex with an x (\\unicode{x221A})",
            match.start(),
            match.group(0),
        )
    hex_digits, decimal = found.groups()
    number = _bounded(hex_digits, 16) if hex_digits else _bounded(decimal, 10)
    return check_code_point(number, match.group(0))


def check_code_point(number: int, written: str) -> int:
    r"""Return `number` if it is a character a page can show; raise if not.

    Refused: numbers past U+10FFFF, surrogates (halves of UTF-16 pairs, not characters),
    control characters and the noncharacters U+FDD0-U+FDEF and U+xxFFFE/U+xxFFFF, which
    HTML's parser reports as errors.

    Raises:
        MathUnsupportedError: naming `written` (the command as the author wrote it) and why.
    """
    why = ""
    if number > 0x10FFFF:
        why = "is past Unicode's last code point U+10FFFF"
    elif 0xD800 <= number <= 0xDFFF:
        why = f"is U+{number:04X}, a surrogate (half of a UTF-16 pair), not a character"
    elif unicodedata.category(chr(number)) == "Cc":
        why = f"is U+{number:04X}, a control character"
    elif 0xFDD0 <= number <= 0xFDEF or number & 0xFFFE == 0xFFFE:
        why = f"is U+{number:04X}, a noncharacter"
    if why:
        raise MathUnsupportedError(
            f"{written[:40]} {why}; write a character a page can show", 0, written
        )
    return number


def rewrite_urls(latex: str) -> str:
    r"""Rewrite `\url{u}` as `\href{u}{\texttt{u}}` (the target is checked by `safety.py`)."""
    if "\\url" in latex:
        latex = URL.sub(r"\\href{\1}{\\texttt{\1}}", latex)
    return latex
