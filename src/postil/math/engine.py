"""The engine: latex2mathml's parser and converter, and what postil checks around it.

`parse` runs latex2mathml on TeX the rewrite passes prepared and maps its exceptions
(which carry no message) to `MathSyntaxError` with a readable phrase and the source
offset (`syntax.locate_syntax_error`); `decode_entities` undoes its `&#x…;` strings;
`check_leftovers` reports a `\\command` that survived as text: latex2mathml did not know it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import lru_cache

from latex2mathml.converter import Converter

from postil.math.errors import MathError, MathSyntaxError, MathUnsupportedError
from postil.math.syntax import locate_syntax_error

ENTITY = re.compile(r"&#x([0-9A-Fa-f]+);")
RAW_COMMAND = re.compile(r"\\(?:[A-Za-z]+\*?|[^\sA-Za-z0-9])")
COMMENT = re.compile(r"(?<!\\)%[^\n]*")
HOW_TO_DEFINE = (
    "define it with \\newcommand{{\\{name}}}{{…}} in the post, or as `{name}: '…'` under "
    "`math: macros:` in postil.yaml or `macros:` in the front matter (a theme's MathJax setup "
    "or a LaTeX preamble: name it under `math: macros_from:`)"
)
# TeX primitives and package commands postil does not support (docs/math.md, "Not
# supported"), and supported ones whose misuse is reported (`\\multicolumn{x}`): defining
# them as macros is not the fix, so the error does not suggest it.
NOT_MACROS = frozenset(
    "expandafter futurelet afterassignment csname endcsname angl angln phase "
    "overlinesegment underlinesegment sixptsize xymatrix multicolumn cline cdashline enclose "
    "intertext shortintertext".split()
    # bussproofs' forms that `proofs.py` does not draw: the fix is its C forms, not a macro
    + "Axiom UnaryInf BinaryInf TrinaryInf QuaternaryInf QuinaryInf fCenter DisplayProof".split()
)
# latex2mathml's exceptions carry no message; say what each means and how to fix it.
ENGINE_ERRORS = {
    "NoAvailableTokensError": "a group or argument is empty where something is required",
    "MissingSuperScriptOrSubscriptError": "`^` or `_` has nothing after it",
    "ExtraLeftOrMissingRightError": "\\left, \\middle and \\right do not pair up",
    "DoubleSubscriptsError": "double subscript: write x_{a b} or {x_a}_b",
    "DoubleSuperscriptsError": "double superscript: write x^{a b} or {x^a}^b",
    "MissingEndError": "\\begin{…} has no matching \\end{…}",
    "StopIteration": "the formula ends where a command still needs its argument",
    "NumeratorNotFoundError": "\\over, \\atop or \\choose has nothing before it in its group",
    "DenominatorNotFoundError": "\\over, \\atop or \\choose has nothing after it in its group",
    "LimitsMustFollowMathOperatorError": "\\limits or \\nolimits must follow an operator",
    "InvalidAlignmentError": "an array's column letters may only be l, c, r and |",
    "InvalidStyleForGenfracError": "\\genfrac's fourth argument must be 0, 1, 2 or 3",
    "InvalidWidthError": "a width must be a TeX length such as 2em or 3pt",
    "RecursionError": (
        "it nests groups, environments or proof steps too deeply to convert; split it into "
        "formulas of their own"
    ),
}


def is_blank(latex: str) -> bool:
    """Tell whether `latex` holds nothing but spaces and `%` comments."""
    return not (COMMENT.sub("", latex) if "%" in latex else latex).strip()


def parse(latex: str, original: str, display: bool) -> ET.Element:
    """Run latex2mathml's parser and converter; map its exceptions to `MathSyntaxError`.

    An empty formula (latex2mathml refuses it: "no available tokens") converts to an
    empty `<mrow>`: whether that deserves a warning is the caller's choice.
    """
    converter = Converter(display="block" if display else "inline")
    if is_blank(latex):
        latex = "{}"
    try:
        return converter.convert_to_element(latex)
    except MathError:
        raise
    except Exception as exc:  # latex2mathml raises many unrelated types on bad input
        offset, what = locate_syntax_error(original)
        raise MathSyntaxError(
            f"cannot parse the formula: {what or _describe(exc)}", offset
        ) from exc


def _describe(exc: Exception) -> str:
    """Return a readable phrase for one of latex2mathml's exception classes."""
    if type(exc).__name__ in ENGINE_ERRORS:
        return ENGINE_ERRORS[type(exc).__name__]
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(exc).__name__).lower().replace(" error", "")
    return f"{words} {exc}".strip()


def decode_entities(root: ET.Element) -> None:
    """Turn latex2mathml's `&#x…;` strings into characters (it serialises with unescape())."""
    for el in root.iter():
        text = el.text
        if text and "&#x" in text:
            el.text = _decoded(text)


@lru_cache(maxsize=4096)
def _decoded(text: str) -> str:
    """Return `text` with its `&#x…;` decoded (memoised: `&#x0003D;` and its like recur)."""
    return ENTITY.sub(_entity_char, text)


def _entity_char(match: re.Match[str]) -> str:
    """Return the character of `&#x…;`, or the text as written if it names no character
    (`\\text{&#x110000;}` reaches here as text: it is the author's, not latex2mathml's)."""
    digits = match.group(1)
    number = int(digits, 16) if len(digits) <= 6 else -1
    if 0 <= number <= 0x10FFFF and not 0xD800 <= number <= 0xDFFF:
        return chr(number)
    return match.group(0)


def check_leftovers(content: ET.Element, latex: str, macros: Mapping[str, str]) -> None:
    """Raise if a `\\command` survived as text: latex2mathml did not know it.

    The error names the command and, when a macro of `macros` produced it, that macro, at
    the place the author wrote it (`locate_command`); it says how to define the command.
    """
    command = find_leftover(content)
    if command is not None:
        raise unsupported(f"unsupported command {command}", command, latex, macros)


def find_leftover(content: ET.Element) -> str | None:
    """Return the first `\\command` left as the text of an `mi`, `mo` or `mn`, or None."""
    for el in content.iter():
        text = el.text
        if not text or "\\" not in text or el.tag not in ("mi", "mo", "mn"):
            continue  # mtext was checked when its text commands were resolved (textmode.py)
        match = RAW_COMMAND.search(text)
        if match:
            return match.group(0)
    return None


def unsupported(
    message: str, command: str, latex: str, macros: Mapping[str, str]
) -> MathUnsupportedError:
    r"""Return the error for an unsupported `command`, located and with how to fix it.

    Args:
        message: what is wrong, naming `command` as the author wrote it.
        command: the command (`\foo`).
        latex: the formula's source.
        macros: the macros in force (name -> body), to find the one that produced it.
    """
    offset, via = locate_command(command, latex, macros)
    if via:
        message += f" (in the expansion of {via})"
    if command.lstrip("\\").rstrip("*") not in NOT_MACROS and re.fullmatch(r"\\[A-Za-z]+", command):
        message += "; " + HOW_TO_DEFINE.format(name=command[1:])
    return MathUnsupportedError(message, offset, command)


def locate_command(
    command: str, latex: str, macros: Mapping[str, str] | None = None
) -> tuple[int, str]:
    """Return (offset of `command` in the source, the macro call it came from or "").

    A command a macro produced is not in the source: it is located at the first call of
    a macro whose expansion contains it (through macros calling macros), else at 0.
    """
    wanted, seen = [command], set()
    while wanted:
        name = wanted.pop(0)
        found = re.search(re.escape(name) + r"(?![A-Za-z])", latex) if name else None
        if found:
            return found.start(), "" if name == command else name
        seen.add(name)
        pattern = re.compile(re.escape(name) + r"(?![A-Za-z])")
        wanted += [
            "\\" + macro
            for macro, body in (macros or {}).items()
            if pattern.search(body) and "\\" + macro not in seen
        ]
    return 0, ""
