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
    engine.COLOR: "t",  # a switch (`environments.scope_switches` drops one colouring nothing)
    **{engine.SQRT: "om", engine.SMASH: "om", engine.SUBSTACK: "m", engine.SIDESET: "mmm"},
    **{engine.RULE: "ott", engine.COLORBOX: "tt", engine.FCOLORBOX: "ttt"},
    **{engine.MATHCHOICE: "mmmm", engine.GENFRAC: "ttttmm"},
    # Rewritten by postil before latex2mathml sees them (rewrite.py, numbering.py).
    **dict.fromkeys(
        r"\operatorname \operatorname* \operatornamewithlimits \label \ref \eqref \url".split(),
        "t",
    ),
    r"\textsc": "t",  # textmode.py: small capitals
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
# The same tokens without `\verb` (TOKEN's one group): `findall` then returns the texts
# without making a match object for each token; offsets are only needed for an error.
TOKEN_TEXT = re.compile(
    r"%[^\n]*|\\(?:begin|end)\s*\{[^{}]*\}|\\(?:[A-Za-z]+\*?|.)|\S",
    re.DOTALL,
)
END = re.compile(r"\\end\s*\{")
# Tokens that end a group, a cell or a row: never an argument (TeX: "Missing { inserted").
NOT_AN_ARGUMENT = frozenset(("}", "&", "\\\\", "^", "_", "#", "\\right", "\\middle", "\\cr"))
SCRIPTS = {"^": "superscript", "_": "subscript"}


@lru_cache(maxsize=4096)
def command_spec(token: str) -> str:
    """Return the argument spec latex2mathml (or a postil rewrite) gives a token, `\\frac` ->
    `mm`, `\\sqrt` -> `om`, `^` -> `m`; "" for none (macros aside)."""
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


def _texts(latex: str) -> list[str]:
    """Return the text of every token (`_tokens` without offsets, which only errors need)."""
    if "\\verb" in latex:
        return [text for _, text in _tokens(latex)]
    texts = TOKEN_TEXT.findall(latex)
    return [text for text in texts if text[0] != "%"] if "%" in latex else texts


def _brackets(texts: list[str]) -> dict[int, int]:
    """Return index of `[` -> index of the first `]` after it in its group (TeX's rule)."""
    bracket: dict[int, int] = {}
    pending: list[list[int]] = [[]]  # `[`s waiting for a `]`, per group depth
    depth = 0  # `}` without an open `{` does not close a group
    for index, text in enumerate(texts):
        if text == "{":
            depth += 1
            pending.append([])
        elif text == "}" and depth:
            depth -= 1
            pending.pop()
        elif text == "[":
            pending[-1].append(index)
        elif text == "]":
            bracket.update(dict.fromkeys(pending[-1], index))
            pending[-1] = []
    return bracket


def _is_argument(texts: list[str], index: int) -> bool:
    """Tell whether the token at `index` can start an argument."""
    if index >= len(texts):
        return False
    text = texts[index]
    return text not in NOT_AN_ARGUMENT and not (text[:4] == "\\end" and END.match(text))


DELIMITER_CHARACTERS = frozenset("()[]|/.<>{}\u2016\u27e8\u27e9\u230a\u230b\u2308\u2309")
"""What may follow `\\left`, `\\middle`, `\\right` or a size command: TeX's delimiter
characters (The TeXbook, ch. 17: `( ) [ ] | / .`; `<`, `>` as MathJax reads them), a group
`{…}` (MathJax's), and the Unicode double bar, angles, floors and ceilings."""


def _is_delimiter(text: str) -> bool:
    """Tell whether a token can be the delimiter after `\\left`, `\\middle` or `\\big`: a
    delimiter character, or a command but another of these (`\\middle\\big|`, which showed
    a character reference's garbage) — a command may be a macro the post defines."""
    if text[0] != "\\":
        return text in DELIMITER_CHARACTERS
    return text not in DELIMITED


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


def check_arguments(latex: str, arities: Mapping[str, str]) -> None:
    """Raise if a command in `latex` has fewer arguments than it takes.

    Args:
        latex: a formula (definitions already blanked out, so `#1` does not occur).
        arities: macro name without backslash -> its arguments as `texreader.macro_spec`
            gives them (`mm`: two required, `om`: an optional one first); macros override
            latex2mathml's commands of the same name.

    Raises:
        MathSyntaxError: at the offset of the first command missing an argument (its
            message names the command and shows how to write it).
    """
    texts = _texts(latex)
    count = len(texts)
    bracket = _brackets(texts) if "[" in latex and "[" in texts else {}  # str search first
    ends = list(range(1, count + 1))  # index just past the item starting at each token
    closers: list[int] = []  # the `}`s after this token not yet paired, nearest last
    problems: list[tuple[int, str, str]] = []
    text_spans: list[tuple[int, int]] = []
    for index in reversed(range(count)):  # an argument's end is known before its owner's
        token = texts[index]
        if token[0] != "\\":  # one character: a brace, a script sign or an argument-less one
            if token == "}":
                closers.append(index)
                continue
            if token == "{":  # pairs with the nearest unpaired `}`, as a stack from the left would
                ends[index] = (closers.pop() if closers else count - 1) + 1
                continue
            if token not in SCRIPTS:
                continue
            spec = SPECS[token]
        elif token[1:] in arities:
            spec = arities[token[1:]]
        else:
            spec = command_spec(token)
        if spec:
            ends[index], found, spans = _read_arguments(texts, ends, bracket, index, spec)
            text_spans += spans
            if found is not None:
                problems.append((index, token, _message(token, spec, found)))
    if problems:
        _raise_first(latex, problems, text_spans)


def _read_arguments(
    texts: list[str], ends: list[int], bracket: dict[int, int], index: int, spec: str
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
            if at < len(texts) and texts[at] == "[":
                if at not in bracket:
                    return at, -1, spans  # latex2mathml would read to the end for a `]`
                at = bracket[at] + 1
            continue
        if kind == "e" or not _is_argument(texts, at):
            return at, found, spans
        if kind == "d" and not _is_delimiter(texts[at]):
            return at, found, spans  # `\middle\big|`, `\left x`: TeX's "Missing delimiter"
        # latex2mathml reads a math argument as a whole item (`\sqrt\frac12` is √½) but
        # a text argument or a delimiter as one token (`\text\frac` is the text "\frac")
        after = ends[at] if kind == "m" or texts[at] == "{" else at + 1
        if kind == "t":
            spans.append((at, after))
        at, found = after, found + 1
    return at, None, spans


def _raise_first(
    latex: str, problems: list[tuple[int, str, str]], text_spans: list[tuple[int, int]]
) -> None:
    """Raise the first problem not inside a text argument (`\\text{x^}` is text), at its
    offset in `latex` (`_tokens`: the check itself reads the tokens without offsets)."""
    tokens = _tokens(latex)
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
