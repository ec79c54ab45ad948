r"""Math macros: KaTeX's built-in aliases, post-level definitions and their expansion.

A macro maps a name without backslash to replacement LaTeX where `#1`…`#9` stand for
arguments (KaTeX's `macros` option and TeX's `\newcommand` use the same convention).
Expansion happens on the LaTeX string before conversion, so every later rewrite also
applies to what a macro produced.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from postil.math.arity import command_spec
from postil.math.colors import read_definecolor
from postil.math.errors import MathSyntaxError
from postil.math.paired import expand_paired, is_paired, read_paired_definition
from postil.math.texreader import NAME as _NAME
from postil.math.texreader import (
    TexReader,
    delimited_body,
    macro_signature,
    read_delimited,
    read_group,
    signed_body,
    split_delimited,
    substitute_arguments,
)

# KaTeX's standard aliases (https://katex.org/docs/supported.html, src/macros.js) that
# latex2mathml does not know; expanded before conversion.
BUILTIN_MACROS: dict[str, str] = {
    **dict.fromkeys(("R", "Reals", "reals"), r"\mathbb{R}"),
    **dict.fromkeys(("N", "natnums"), r"\mathbb{N}"),
    **dict.fromkeys(("Z",), r"\mathbb{Z}"),
    **dict.fromkeys(("C", "Complex", "cnums"), r"\mathbb{C}"),
    "Q": r"\mathbb{Q}",
    "sdot": r"\cdot",
    # plain TeX's `\buildrel a\over b`, which MathJax reads (mathjax/MathJax#2945): `a` over
    # the relation `b`, LaTeX's `\stackrel{a}{b}` (plain.tex, The TeXbook p. 437)
    "buildrel": delimited_body(r"#1\over#2", r"\stackrel{#1}{#2}"),
    # cancel.sty's `\cancelto{value}{x}`: x struck out, the value at the top right (the
    # strike has no arrowhead here; ronkok/Temml#112 asked for it in MathML).
    "cancelto": r"{\cancel{#2}}^{#1}",
    "argmax": r"\operatorname*{arg\,max}",
    "argmin": r"\operatorname*{arg\,min}",
    "rarr": r"\rightarrow",
    "larr": r"\leftarrow",
    "lrarr": r"\leftrightarrow",
    "harr": r"\leftrightarrow",
    "Rarr": r"\Rightarrow",
    "rArr": r"\Rightarrow",
    "Larr": r"\Leftarrow",
    "lArr": r"\Leftarrow",
    "Lrarr": r"\Leftrightarrow",
    "lrArr": r"\Leftrightarrow",
    "Harr": r"\Leftrightarrow",
    "hArr": r"\Leftrightarrow",
    "uarr": r"\uparrow",
    "darr": r"\downarrow",
    "Uarr": r"\Uparrow",
    "uArr": r"\Uparrow",
    "Darr": r"\Downarrow",
    "dArr": r"\Downarrow",
    "sub": r"\subset",
    "sube": r"\subseteq",
    "supe": r"\supseteq",
    "alef": r"\aleph",
    "alefsym": r"\aleph",
    "bull": r"\bullet",
    "clubs": r"\clubsuit",
    "diamonds": r"\diamondsuit",
    "hearts": r"\heartsuit",
    "spades": r"\spadesuit",
    "empty": r"\emptyset",
    "exist": r"\exists",
    "image": r"\Im",
    "real": r"\Re",
    "isin": r"\in",
    "infin": r"\infty",
    "lang": r"\langle",
    "rang": r"\rangle",
    "weierp": r"\wp",
    "plusmn": r"\pm",
    "thetasym": r"\vartheta",
    "sect": r"\S",
    "Dagger": r"\ddagger",
    "dag": r"\dagger",
    "ddag": r"\ddagger",
    # Greek capitals that look Latin: the Greek characters, upright as TeX sets them.
    **{
        name: rf"\mathrm{{{char}}}"
        for name, char in zip(
            "Alpha Beta Epsilon Zeta Eta Iota Kappa Mu Nu Omicron Rho Tau Chi".split(),
            "ΑΒΕΖΗΙΚΜΝΟΡΤΧ",
            strict=True,
        )
    },
    # gensymb.sty's units, upright (MathJax's gensymb: `mathcharUnit`, an upright `mi`;
    # Material for MkDocs' MathJax set-up autoloads it); its `\degree` latex2mathml knows.
    **{
        name: rf"\mathrm{{{char}}}"
        for name, char in zip(
            "celsius ohm micro perthousand".split(), "\u2103\u2126\u00b5\u2030", strict=True
        )
    },
    "arg": r"\operatorname{arg}",
    # amsmath: `\implies` is `\;\Longrightarrow\;`, a relation with thick spaces added.
    "implies": r"\;\Longrightarrow\;",
    "impliedby": r"\;\Longleftarrow\;",
    "iff": r"\;\Longleftrightarrow\;",
    "mathellipsis": r"\ldots",
    "set": r"\{#1\}",
    "Set": r"\left\{\:#1\:\right\}",
    # `\bra`, `\ket`, `\braket` are physics' (physics.py), which reads KaTeX's too.
    "Bra": r"\left\langle #1\right|",
    "Ket": r"\left|#1\right\rangle",
    "Braket": r"\left\langle #1\right\rangle",
    "begingroup": "{",
    "endgroup": "}",
    "relax": "",
    "allowbreak": "",
    "nobreak": "",
    "noexpand": "",
    "global": "",
    "long": "",
    "newline": r"\\",
    "wideparen": r"\overparen{#1}",  # yhmath's arc over its argument (KaTeX: the same)
    "overgroup": r"\overset{\text{⏠}}{#1}",
    "undergroup": r"\underset{\text{⏡}}{#1}",
    "raisebox": r"\raise{#1}{\text{#2}}",
    # amsopn.sty's `\varlimsup` … are `\mathop{\vtop{…lim…}}` (`\varlim@`): operators, so
    # their limits go under them in display style, as `\lim`'s do.
    "varliminf": r"\mathop{\underline{\lim}}",
    "varlimsup": r"\mathop{\overline{\lim}}",
    "varinjlim": r"\mathop{\underrightarrow{\lim}}",
    "varprojlim": r"\mathop{\underleftarrow{\lim}}",
    "mathnormal": "{#1}",
    # plain.tex's `\pmb`, "poor man's bold": the glyph overprinted three times, slightly
    # offset, so it keeps its shape (an italic letter stays italic): `\boldsymbol`'s, not
    # `\mathbf`'s upright bold (latex2mathml's reading).
    "pmb": r"\boldsymbol{#1}",
    # dsfont's and bbm's double-struck alphabets (`\mathds{1}`, the indicator function):
    # the Unicode double-struck letters and digits (U+1D538…, U+1D7D8–U+1D7E1).
    "mathds": r"\mathbb{#1}",
    "mathbbm": r"\mathbb{#1}",
    # xfrac's `\sfrac{1}{2}`: a slanted fraction, the numerator raised, the denominator
    # on the baseline beside a solidus, each at script size (as xfrac sets them).
    "sfrac": r"{\raise{0.3em}{\scriptstyle #1}\!/\!{\scriptstyle #2}}",
    # nicefrac's (units package) `\nicefrac{1}{2}`: the same slanted fraction
    "nicefrac": r"{\raise{0.3em}{\scriptstyle #1}\!/\!{\scriptstyle #2}}",
    # MathJax's and KaTeX's HTML commands: the math stays, its HTML does not. A class, id
    # or data attribute would need the author's own CSS or scripts (and could collide with
    # the page's ids), so only the content is kept; `\style`'s CSS goes through `\bbox`'s
    # allow-list (colour, background, border, padding, margin: `enclosures.bbox_css`).
    **dict.fromkeys(("class", "htmlClass", "cssId", "htmlId", "htmlData"), "{#2}"),
    **dict.fromkeys(("style", "htmlStyle"), r"\bbox[style:#1]{#2}"),
}

_DEFINERS = re.compile(
    r"\\(?:(?P<cmd>newcommand|renewcommand|providecommand|DeclareRobustCommand"
    r"|DeclareMathOperator)(?P<star>\*?)"
    r"|(?P<env>newenvironment|renewenvironment)|(?P<def>def|gdef|edef|xdef)|(?P<let>let)"
    r"|DeclarePairedDelimiter(?P<paired>X?)|(?P<color>definecolor))(?![A-Za-z])"
)
ENVIRONMENT_CALL = re.compile(r"\s*\{\s*([A-Za-z]+\*?)\s*\}")
"""The `{name}` after `\\begin`/`\\end`; a defined environment is the macros `begin{name}`
(its begin code, with the arguments) and `end{name}` (its end code)."""
MAX_EXPANSIONS = 500
REQUIRE = re.compile(r"\\require\s*\{[^{}]*\}")
"""MathJax's `\\require{ext}`, which loads a TeX extension in the browser; postil's math has
every extension it supports loaded, so it is taken out like a definition."""


def _read_definition(latex: str, match: re.Match[str]) -> tuple[str, str, int]:
    r"""Parse one definition starting at `match`; return (name, body, end offset).

    `\newenvironment{name}…{begin}{end}` returns the name `begin{name}` and the begin
    code; `_read_environment` gives its end code.
    """
    pos = match.end()
    if match.group("color"):
        return read_definecolor(latex, match.start(), pos, {})
    if match.group("paired") is not None:
        return read_paired_definition(latex, pos, extended=match.group("paired") == "X")
    if match.group("let"):
        names = re.match(r"\s*\\([A-Za-z]+|.)\s*=?\s*(\\[A-Za-z]+|\\.|[^\s\\])", latex[pos:])
        if not names:
            raise MathSyntaxError("\\let needs two command names", pos, "\\let")
        return names.group(1), names.group(2), pos + names.end()
    if match.group("def"):
        name_match = _NAME.match(latex, pos)
        if not name_match:
            raise MathSyntaxError("\\def needs a command name", pos, "\\def")
        pos = name_match.end()
        brace = latex.find("{", pos)
        if brace < 0:
            raise MathSyntaxError("\\def needs a `{…}` body", pos, "\\def")
        body, end = read_group(latex, brace)
        return name_match.group(1), delimited_body(latex[pos:brace], body), end
    raw_name, pos = read_group(latex, pos)
    name = raw_name.strip().lstrip("\\")
    count, default = 0, None
    nargs = re.match(r"\s*\[\s*(\d)\s*\]", latex[pos:])
    if nargs:
        pos += nargs.end()
        count = int(nargs.group(1))
        reader = TexReader(latex, match.start(), pos, match.group(0))
        default = reader.optional()
        pos = reader.pos
    body, end = read_group(latex, pos)
    if match.group("cmd") == "DeclareMathOperator":
        op = "operatorname*" if match.group("star") else "operatorname"
        body = rf"\{op}{{{body}}}"
    if match.group("env"):
        name = f"begin{{{name}}}"
    return name, signed_body(count, default, body), end


def _read_environment(latex: str, start: int, pos: int) -> tuple[str, int]:
    """Read the end code at `pos` of the `\\newenvironment` at `start`; return (the code,
    the offset after it)."""
    if latex[pos:].strip()[:1] != "{":
        raise MathSyntaxError(
            "\\newenvironment needs its begin and end code: write "
            "\\newenvironment{name}{\\left(}{\\right)}",
            start,
            "\\newenvironment",
        )
    return read_group(latex, pos)


def extract_definitions(latex: str) -> tuple[dict[str, str], str]:
    r"""Take `\newcommand`, `\renewcommand`, `\def`, `\DeclareMathOperator` out of a formula,
    and MathJax's `\require{…}` (`REQUIRE`).

    Args:
        latex: a formula's source.

    Returns:
        (name -> body of each definition, in order; the source with each definition
        replaced by as many spaces, so offsets into it still match the original).

    Raises:
        MathSyntaxError: a definition is malformed (missing name or body).
    """
    definitions: dict[str, str] = {}
    out = latex
    for match in _DEFINERS.finditer(latex):
        if out[match.start()] == " ":  # inside an earlier definition's body
            continue
        name, body, end = _read_definition(latex, match)
        definitions[name] = body
        if match.group("env"):
            end_name = "end" + name[len("begin") :]
            definitions[end_name], end = _read_environment(latex, match.start(), end)
        out = out[: match.start()] + " " * (end - match.start()) + out[end:]
    if "\\require" in out:
        out = REQUIRE.sub(lambda m: " " * len(m.group(0)), out)
    return definitions, out


def _expand_one(latex: str, start: int, pos: int, body: str) -> tuple[str, int]:
    """Replace the macro call at `start`…`pos` (its name) by its body with arguments
    substituted; an optional first argument (`macro_signature`) is its default when no
    `[…]` follows."""
    if is_paired(body):
        return expand_paired(latex, start, pos, body)
    if (delimited := split_delimited(body)) is not None:
        args, pos, body = _delimited_arguments(latex, start, pos, delimited)
        count, default = len(args), None
    else:
        count, default, body = macro_signature(body)
        args = []
    if default is not None:
        reader = TexReader(latex, start, pos, latex[start:pos])
        value = reader.optional()
        args.append(default if value is None else value)
        pos = reader.pos if value is not None else pos
    while len(args) < count:
        arg, pos = read_group(latex, pos)
        args.append(arg)
    expanded = substitute_arguments(body, args)
    if not _one_argument(expanded) and (taker := _argument_taker(latex, start)):
        # `\widehat\y`: a command's argument is the whole call; `x^\y`: a script is the
        # first item of the expansion (`x^\a b` with `\a` = `ab` is x^a b, as in TeX)
        end = len(expanded) if taker != "script" else _first_item_end(expanded)
        expanded = "{" + expanded[:end] + "}" + expanded[end:]
    if re.search(r"\\[A-Za-z]+$", expanded) and latex[pos : pos + 1].isalpha():
        expanded += " "  # `\foo{x}y` with body `#1\cdot` must not become `x\cdoty`
    if expanded[:1].isalpha() and re.search(r"\\[A-Za-z]+$", latex[:start]):
        expanded = " " + expanded  # `\expandafter\a` with body `x` is not `\expandafterx`
    return latex[:start] + expanded + latex[pos:], start


def _delimited_arguments(
    latex: str, start: int, pos: int, delimited: tuple[list[str], str]
) -> tuple[list[str], int, str]:
    r"""Read the arguments of a call of a `\def` with delimiters (`\pair(a,b)` of
    `\def\pair(#1,#2)`); return them, the offset after the call and the body.

    Raises:
        MathSyntaxError: the call lacks the text the definition puts before `#1` or a
            delimiter after an argument (TeX's "Use of \pair doesn't match its definition").
    """
    (prefix, *delimiters), body = delimited
    command = latex[start:pos].strip()
    while pos < len(latex) and latex[pos].isspace():
        pos += 1  # spaces after a control word are no tokens
    if not latex.startswith(prefix, pos):
        pattern = prefix + "".join(f"#{n}{text}" for n, text in enumerate(delimiters, 1))
        raise MathSyntaxError(
            f"{command} is defined as `{command}{pattern}`: write its call in that form",
            start,
            command,
        )
    pos += len(prefix)
    args = []
    for delimiter in delimiters:
        if delimiter:
            arg, pos = read_delimited(latex, pos, delimiter, command)
        else:
            arg, pos = read_group(latex, pos)
        args.append(arg)
    return args, pos, body


_BEFORE = re.compile(r"(?:\\([A-Za-z]+)|(?<!\\)([\^_]))\s*\Z")
"""The control word or script sign right before a macro call."""


def _argument_taker(latex: str, start: int) -> str:
    r"""Tell what takes the macro call at `start` as its argument: "command" for a command
    with arguments before it (`\widehat\y`, `\frac\y 2`), "script" for `^` or `_`
    (`x^\y`), "" for nothing (`\left\y`: a delimiter is one token).

    A command's argument is the unexpanded call (TeX's macro arguments; MathJax's
    `GetArgument`), so `\def\y{\textcolor{c}{y}}` under `\widehat\y` puts the hat on all
    of it. A script is the first item after expansion (TeX's math field, MathJax's
    `subsup` item): the first token, group, or command with its arguments.
    """
    before = _BEFORE.search(latex, max(0, start - 40), start)
    if before is None:
        return ""
    if before.group(2):
        return "script"
    spec = command_spec("\\" + before.group(1))
    return "command" if "m" in spec or "t" in spec else ""


def _first_item_end(text: str) -> int:
    r"""Return the offset just after the first item of `text`: a `{…}` group, a command
    with the arguments it takes (`\textcolor{c}{y}`, `\sqrt[3]{x}`), or one character."""
    pos = len(text) - len(text.lstrip())
    name = _NAME.match(text, pos)
    if text[pos : pos + 1] == "{":
        try:
            return read_group(text, pos)[1]
        except MathSyntaxError:
            return len(text)
    if name is None:
        return pos + 1
    spec = command_spec(name.group(0))
    if "e" in spec or name.group(0) == "\\left":
        return len(text)  # an environment or a `\left…\right` pair: too long to cut
    end = name.end()
    try:
        for kind in spec:
            if kind == "o":
                reader = TexReader(text, pos, end, name.group(0))
                if reader.optional() is not None:
                    end = reader.pos
            else:
                end = read_group(text, end)[1]
    except MathSyntaxError:
        return len(text)  # an argument is missing: the conversion reports it
    return end


def _one_argument(text: str) -> bool:
    """Tell whether `text` is one TeX argument already: one character, one command, or one
    `{…}` group."""
    text = text.strip()
    if len(text) <= 1 or _NAME.fullmatch(text):
        return True
    if text.startswith("{"):
        try:
            return read_group(text, 0)[1] == len(text)
        except MathSyntaxError:
            return False
    return False


def expand_macros(latex: str, macros: Mapping[str, str]) -> str:
    """Expand every macro call in `latex`, re-scanning expansions (TeX's rule).

    Args:
        latex: the formula.
        macros: name without backslash -> body with `#1`…`#9` parameters.

    Raises:
        MathSyntaxError: expansion does not terminate (a macro that calls itself).
    """
    pos = 0
    for _ in range(MAX_EXPANSIONS):
        call = _find_call(latex, pos, macros)
        if call is None:
            return latex
        latex, pos = _expand_one(latex, *call)
    raise MathSyntaxError("macro expansion does not terminate (a macro calls itself?)", 0)


def _find_call(latex: str, pos: int, macros: Mapping[str, str]) -> tuple[int, int, str] | None:
    """Return the next macro call at or after `pos`, skipping `\\\\`: (its offset, the
    offset after its name, its body). `\\begin{name}` and `\\end{name}` of an environment
    defined with `\\newenvironment` are calls too."""
    for match in _NAME.finditer(latex, pos):
        name = match.group(1)
        if name in macros:
            return match.start(), match.end(), macros[name]
        if name in ("begin", "end") and (env := ENVIRONMENT_CALL.match(latex, match.end())):
            key = f"{name}{{{env.group(1)}}}"
            if key in macros:
                return match.start(), env.end(), macros[key]
    return None


# braket.sty: inside `\Braket{…}` every bar is a `\middle` bar between thin spaces
# (`\egroup\,\mid@vertical\,\bgroup`), so `\Braket{\phi | A | \psi}` has bars as tall as its
# angle brackets; `||` or `\|` is a double bar. In `\Set{…}` the first bar is such a bar
# between thick spaces (`\Set{x | x > 0}`). Bars inside braces are the author's own.
BRAKET_BARS = {"Braket": (r"\,", None), "Set": (r"\;", 1)}
_BRAKET = re.compile(r"\\(Braket|Set)(?![A-Za-z])")


def rewrite_braket_bars(latex: str) -> str:
    r"""Turn the top-level bars of `\Braket{…}` and `\Set{…}` into `\middle` bars (braket.sty).

    Raises:
        MathSyntaxError: an argument's braces are not closed.
    """
    if "Braket" not in latex and "Set" not in latex:
        return latex
    out, pos = [], 0
    for match in _BRAKET.finditer(latex):
        if match.start() < pos:
            continue  # inside an argument already rewritten
        start = match.end()
        while start < len(latex) and latex[start].isspace():
            start += 1
        if start >= len(latex) or latex[start] != "{":
            continue
        body, end = read_group(latex, start)
        space, limit = BRAKET_BARS[match.group(1)]
        out.append(latex[pos:start] + "{" + _middle_bars(body, space, limit) + "}")
        pos = end
    out.append(latex[pos:])
    return "".join(out)


def _middle_bars(body: str, space: str, limit: int | None) -> str:
    """Replace `|`, `||` and `\\|` at brace depth 0 of `body` by `\\middle` bars."""
    out, depth, i, done = [], 0, 0, 0
    while i < len(body):
        char = body[i]
        if char == "\\" and body[i + 1 : i + 2] != "|":
            out.append(body[i : i + 2])
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        bar = r"\|" if body.startswith(r"\|", i) or body.startswith("||", i) else "|"
        if depth == 0 and (char == "|" or bar == r"\|") and (limit is None or done < limit):
            out.append(rf"{space}\middle{bar}{space}")
            i += 2 if bar == r"\|" else 1
            done += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)
