"""`latex_to_mathml`: the one entry point from LaTeX to MathML Core, wrapping latex2mathml.

Pipeline: safety checks → definitions taken out → macro expansion → LaTeX rewrites
(`rewrite.py`) → latex2mathml's parser and converter → MathML tree passes (`tree.py`,
`tables.py`, `numbering.py`) → `<math>` with `<semantics>` and the TeX source as an
`application/x-tex` annotation, serialised with every text escaped.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from latex2mathml.converter import Converter

from postil.math import classes, rewrite, symbols, tables, tree
from postil.math.arity import check_arguments
from postil.math.cache import CACHE, cache_key
from postil.math.errors import MathError, MathSyntaxError, MathUnsupportedError
from postil.math.macros import BUILTIN_MACROS, expand_macros, extract_definitions, macro_arity
from postil.math.numbering import attach_numbers, resolve_refs
from postil.math.safety import check_safety
from postil.math.serialise import to_html
from postil.math.syntax import locate_syntax_error

GLYPH_MACROS = symbols.glyph_macros()
STATIC_ARITIES = {name: macro_arity(body) for name, body in (GLYPH_MACROS | BUILTIN_MACROS).items()}
RAW_COMMAND = re.compile(r"\\(?:[A-Za-z]+\*?|[^\sA-Za-z0-9])")
COMMENT = re.compile(r"(?<!\\)%[^\n]*")
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
}


def latex_to_mathml(
    latex: str,
    *,
    display: bool = False,
    macros: Mapping[str, str] | None = None,
    equations: Mapping[str, str] | None = None,
    numbers: Sequence[str | None] | None = None,
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
            `numbering.equation_rows` (None entries for unnumbered rows); None numbers
            this formula's rows from 1.

    Returns:
        `<math display="block|inline"><semantics>…<annotation
        encoding="application/x-tex">source</annotation></semantics></math>`.

    Raises:
        MathSyntaxError: latex2mathml cannot parse the formula.
        MathUnsupportedError: an unknown or refused command (named, with its offset).
    """
    key = cache_key(latex, display, macros, equations, numbers)
    cached = CACHE.get(key)
    if cached is None:
        cached = _convert(latex, display, macros or {}, equations, numbers)
        CACHE.put(key, cached)
    return cached


def _convert(
    latex: str,
    display: bool,
    macros: Mapping[str, str],
    equations: Mapping[str, str] | None,
    numbers: Sequence[str | None] | None,
) -> str:
    """Run the pipeline on one formula (no cache); see `latex_to_mathml`."""
    check_safety(latex)
    definitions, body = extract_definitions(latex)
    offset, problem = locate_syntax_error(body)
    if problem:
        raise MathSyntaxError(f"cannot parse the formula: {problem}", offset)
    arities = STATIC_ARITIES | _arities(macros) | _arities(definitions)
    check_arguments(body, arities)
    expanded = expand_macros(body, {**GLYPH_MACROS, **BUILTIN_MACROS, **macros, **definitions})
    check_safety(expanded)
    _check_expanded_arguments(expanded, arities, latex)
    try:
        prepared = rewrite.prepare(expanded, display)
    except MathUnsupportedError as exc:
        raise MathUnsupportedError(exc.message, _locate(exc.command, latex), exc.command) from None
    math = _parse(prepared.latex, latex, display)
    content = _postprocess(math, display)
    attach_numbers(content, prepared.rows, numbers)
    resolve_refs(content, prepared.rows, numbers, equations)
    _check_leftovers(content, latex)
    return _serialise(content, latex, display)


def _arities(macros: Mapping[str, str]) -> dict[str, int]:
    """Return macro name -> number of arguments."""
    return {name: macro_arity(body) for name, body in macros.items()}


def _check_expanded_arguments(expanded: str, arities: Mapping[str, int], latex: str) -> None:
    """Check argument counts in what macros produced (`\\half` -> `\\frac{1}`), at the source.

    The error points at the command in the source when it is there, else at 0 (a macro's
    body); the macros themselves are expanded already, so only engine commands count.
    """
    if expanded == latex:
        return
    try:
        check_arguments(expanded, {})
    except MathSyntaxError as exc:
        raise MathSyntaxError(exc.message, _locate(exc.command, latex), exc.command) from None


def is_blank(latex: str) -> bool:
    """Tell whether `latex` holds nothing but spaces and `%` comments."""
    return not COMMENT.sub("", latex).strip()


def _parse(latex: str, original: str, display: bool) -> ET.Element:
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


def _postprocess(math: ET.Element, display: bool) -> ET.Element:
    """Apply the tree passes; return the content `<mrow>` (the `<math>`'s only child)."""
    content = math[0]
    tree.decode_entities(content)
    rewrite.expand_markers(content)
    symbols.resolve_symbols(content)
    classes.classify_tokens(content)
    tree.merge_letters(content)
    tree.apply_mathvariant(content)
    tree.fix_lengths(content)
    tree.apply_limits(content, display)
    tree.apply_functions(content)
    tables.style_tables(content)
    classes.mark_prefix_operators(content)
    return content


def _check_leftovers(content: ET.Element, latex: str) -> None:
    """Raise if a `\\command` survived as text: latex2mathml did not know it."""
    for el in content.iter():
        if tree.local(el) not in ("mi", "mo", "mn") or not el.text:
            continue  # mtext was checked when its text commands were resolved (rewrite.py)
        match = RAW_COMMAND.search(el.text)
        if match:
            command = match.group(0)
            raise MathUnsupportedError(
                f"unsupported command {command}", _locate(command, latex), command
            )


def _locate(command: str, latex: str) -> int:
    """Return the offset of `command` in the source (0 when a macro produced it)."""
    found = re.search(re.escape(command) + r"(?![A-Za-z])", latex) if command else None
    return found.start() if found else 0


def _serialise(content: ET.Element, latex: str, display: bool) -> str:
    """Wrap the content in `<math><semantics>` with the TeX annotation; return HTML text."""
    tree.clean_markers(content)
    math = ET.Element("math", display="block" if display else "inline")
    semantics = ET.SubElement(math, "semantics")
    if len(content) == 1 and content[0].get("class") == "numbered":
        content = content[0]  # a full-width table must not sit in a shrink-wrapping mrow
    semantics.append(content)
    annotation = ET.SubElement(semantics, "annotation", encoding="application/x-tex")
    annotation.text = latex
    return to_html(math)
