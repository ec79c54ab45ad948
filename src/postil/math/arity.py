r"""Commands with too few arguments (`\frac{a}`, `\sqrt`, `x^`, `\left` alone) are syntax errors.

latex2mathml reads a command's arguments with `_walk(limit=n)`, which returns fewer when
the group or the formula ends first: `\frac{a}` becomes a fraction without a denominator
and `\binom{n}` a binomial with one row, silently. TeX stops with "Missing { inserted" or
"Argument of \frac has an extra }"; postil reports the command at its offset instead.

Argument counts come from latex2mathml's own tables (`latex2mathml.commands`: the one- and
two-parameter lists, fonts, extensible arrows, big delimiters) plus the commands its walker
reads by hand and the ones postil rewrites itself (`\operatorname`, `\label`, macros).
A spec is a string with one letter per argument: `m` math, `t` text (its content is not
checked: `\text{a_b}` is fine), `d` one delimiter token, `o` an optional `[…]`, `e` an
environment name (only a bare `\begin` reaches the check: `\begin{x}` is one token).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from latex2mathml import commands as engine
from latex2mathml.symbols_parser import convert_symbol

from postil.math.errors import MathSyntaxError

TEXT_COMMANDS = (
    *(engine.TEXT, engine.TEXTBF, engine.TEXTIT, engine.TEXTMD, engine.TEXTNORMAL),
    *(engine.TEXTRM, engine.TEXTSF, engine.TEXTTT, engine.TEXTUP, engine.EMPH),
    *(engine.CLAP, engine.LLAP, engine.RLAP, engine.FBOX, engine.HBOX, engine.MBOX),
    *(engine.TAG, engine.TAGSTAR, engine.LEFTROOT, engine.UPROOT),
    *(engine.HSKIP, engine.HSPACE, engine.KERN, engine.MKERN, engine.MSKIP, engine.MSPACE),
)
DELIMITED = (*engine.BIG, *engine.BIG_OPEN_CLOSE, engine.LEFT, engine.RIGHT, engine.MIDDLE)
SPECS: dict[str, str] = {
    **dict.fromkeys(engine.COMMANDS_WITH_ONE_PARAMETER, "m"),
    **dict.fromkeys(engine.COMMANDS_WITH_TWO_PARAMETERS, "mm"),
    **dict.fromkeys(engine.LOCAL_FONTS, "m"),
    **dict.fromkeys(engine.EXTENSIBLE_ARROWS, "om"),
    **dict.fromkeys(DELIMITED, "d"),
    **dict.fromkeys(TEXT_COMMANDS, "t"),
    **dict.fromkeys((engine.RAISE, engine.LOWER, engine.MOVELEFT, engine.MOVERIGHT), "tm"),
    **dict.fromkeys((engine.TEXTCOLOR, engine.HREF, engine.SKEW, engine.CLASS, engine.STYLE), "tm"),
    engine.COLOR: "tm",  # a switch in TeX, but latex2mathml fails when nothing follows it
    **{engine.SQRT: "om", engine.SMASH: "om", engine.SUBSTACK: "m", engine.SIDESET: "mmm"},
    **{engine.RULE: "ott", engine.COLORBOX: "tt", engine.FCOLORBOX: "ttt"},
    **{engine.MATHCHOICE: "mmmm", engine.GENFRAC: "ttttmm"},
    # Rewritten by postil before latex2mathml sees them (rewrite.py, numbering.py).
    **dict.fromkeys(
        r"\operatorname \operatorname* \operatornamewithlimits \label \ref \eqref \url".split(),
        "t",
    ),
    "^": "m",
    "_": "m",
    # `\begin{name}` is one token (TOKEN); a bare `\begin` lacks its name: "e" never matches
    "\\begin": "e",
    "\\end": "e",
}
TOKEN = re.compile(
    r"%[^\n]*|\\verb\*?([^A-Za-z\s*]).*?\1|\\(?:begin|end)\s*\{[^{}]*\}"
    r"|\\(?:[A-Za-z]+\*?|.)|\S",
    re.DOTALL,
)
# Tokens that end a group, a cell or a row: never an argument (TeX: "Missing { inserted").
NOT_AN_ARGUMENT = frozenset(("}", "&", "\\\\", "^", "_", "#", "\\right", "\\middle", "\\cr"))
SCRIPTS = {"^": "superscript", "_": "subscript"}


def spec_of(token: str, arities: Mapping[str, int]) -> str:
    """Return the argument spec of a token ("" for none); macros (name -> arity) win."""
    if token[0] == "\\" and token[1:] in arities:
        return "m" * arities[token[1:]]
    return _engine_spec(token)


@lru_cache(maxsize=4096)
def _engine_spec(token: str) -> str:
    """Return the argument spec latex2mathml gives a token (`spec_of` without macros)."""
    if token in SPECS:
        return SPECS[token]
    if token.startswith(engine.MATH) and token not in engine.MATH_NON_FONT_COMMANDS:
        # latex2mathml's tokenizer: a \math… that names a symbol (`\mathsterling`) is
        # that symbol; any other is a one-argument font
        return "" if convert_symbol(token) else "m"
    return ""


def _tokens(latex: str) -> list[tuple[int, str]]:
    """Return (offset, text) of every token, without spaces and `%` comments."""
    return [(m.start(), m.group(0)) for m in TOKEN.finditer(latex) if m.group(0)[0] != "%"]


def _groups(tokens: list[tuple[int, str]]) -> tuple[dict[int, int], dict[int, int]]:
    """Return (index of `{` -> index of its `}`, index of `[` -> first `]` of its group)."""
    closing: dict[int, int] = {}
    bracket: dict[int, int] = {}
    opened: list[int] = []
    pending: list[list[int]] = [[]]  # `[`s waiting for a `]`, per group depth (TeX's rule)
    for index, (_, text) in enumerate(tokens):
        if text == "{":
            opened.append(index)
            pending.append([])
        elif text == "}" and opened:
            closing[opened.pop()] = index
            pending.pop()
        elif text == "[":
            pending[-1].append(index)
        elif text == "]":
            bracket.update(dict.fromkeys(pending[-1], index))
            pending[-1] = []
    return closing, bracket


def _is_argument(tokens: list[tuple[int, str]], index: int) -> bool:
    """Tell whether the token at `index` can start an argument."""
    if index >= len(tokens):
        return False
    text = tokens[index][1]
    return text not in NOT_AN_ARGUMENT and not re.match(r"\\end\s*\{", text)


def _message(token: str, spec: str, found: int) -> str:
    """Return what is missing after `token` and how to write it."""
    if token in SCRIPTS:
        return f"`{token}` needs a {SCRIPTS[token]} after it: write x{token}{{…}}"
    if spec == "e":
        return f"{token} needs an environment name in braces: write {token}{{matrix}}"
    if spec == "d":
        return f"{token} needs a delimiter after it, such as ( [ \\{{ | or ."
    if found < 0:
        return f"{token}[ has no closing ]: write {token}[…]{{…}}"
    wanted = len(spec.replace("o", ""))
    plural = "s" if wanted > 1 else ""
    return f"{token} needs {wanted} argument{plural}, found {found}: write {token}{'{…}' * wanted}"


def check_arguments(latex: str, arities: Mapping[str, int]) -> None:
    """Raise if a command in `latex` has fewer arguments than it takes.

    Args:
        latex: a formula (definitions already blanked out, so `#1` does not occur).
        arities: macro name without backslash -> number of arguments; macros override
            latex2mathml's commands of the same name.

    Raises:
        MathSyntaxError: at the offset of the first command missing an argument (its
            message names the command and shows how to write it).
    """
    tokens = _tokens(latex)
    closing, bracket = _groups(tokens)
    ends = list(range(1, len(tokens) + 1))  # index just past the item starting at each token
    problems: list[tuple[int, str, str]] = []
    text_spans: list[tuple[int, int]] = []
    for index in reversed(range(len(tokens))):  # an argument's end is known before its owner's
        token = tokens[index][1]
        if token == "{":
            ends[index] = closing.get(index, len(tokens) - 1) + 1
            continue
        spec = spec_of(token, arities)
        if spec:
            ends[index], found, spans = _read_arguments(tokens, ends, bracket, index, spec)
            text_spans += spans
            if found is not None:
                problems.append((index, token, _message(token, spec, found)))
    _raise_first(tokens, problems, text_spans)


def _read_arguments(
    tokens: list[tuple[int, str]], ends: list[int], bracket: dict[int, int], index: int, spec: str
) -> tuple[int, int | None, list[tuple[int, int]]]:
    """Read the arguments of the command at `index`.

    Returns:
        (index past its last argument, how many it found if one is missing else None,
        the token ranges of its text arguments).
    """
    at, found = index + 1, 0
    spans: list[tuple[int, int]] = []
    for kind in spec:
        if kind == "o":
            if at < len(tokens) and tokens[at][1] == "[":
                if at not in bracket:
                    return at, -1, spans  # latex2mathml would read to the end for a `]`
                at = bracket[at] + 1
            continue
        if kind == "e" or not _is_argument(tokens, at):
            return at, found, spans
        # latex2mathml reads a math argument as a whole item (`\sqrt\frac12` is √½) but
        # a text argument or a delimiter as one token (`\text\frac` is the text "\frac")
        after = ends[at] if kind == "m" or tokens[at][1] == "{" else at + 1
        if kind == "t":
            spans.append((at, after))
        at, found = after, found + 1
    return at, None, spans


def _raise_first(
    tokens: list[tuple[int, str]],
    problems: list[tuple[int, str, str]],
    text_spans: list[tuple[int, int]],
) -> None:
    """Raise the first problem not inside a text argument (`\\text{x^}` is text)."""
    if not problems:
        return
    depth = [0] * (len(tokens) + 1)
    for start, stop in text_spans:
        depth[start] += 1
        depth[stop] -= 1
    inside, running = [], 0
    for step in depth:
        running += step
        inside.append(running > 0)
    for index, token, message in reversed(problems):  # found last to first
        if not inside[index]:
            raise MathSyntaxError(message, tokens[index][0], token)
