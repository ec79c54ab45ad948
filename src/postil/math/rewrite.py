r"""TeX rewrites before latex2mathml for commands it gets wrong or lacks.

Each function takes TeX and returns TeX (the pipeline's rewrite passes). Where latex2mathml
cannot express the result, a rewrite leaves a marker (`markers.py`): `\operatorname{…}`
with any content becomes an operator-name marker, `\eqref`/`\ref` a reference marker.
Environments are rewritten in `environments.py`, text mode in `textmode.py`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from latex2mathml.symbols_parser import convert_symbol

from postil.math.environments import shield_body_brackets, unstar_matrices
from postil.math.errors import MathSyntaxError, MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import TEXT_STAND_INS, hide_label, marker
from postil.math.symbols import FUNCTION_NAMES, LIMIT_OPERATORS, symbol_class

OPERATORNAME = re.compile(r"\\(operatorname\*?|operatornamewithlimits)(?![A-Za-z])")
REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")
UPRIGHT_LETTER = re.compile(r"\\(?:mathrm|mathup)\s*\{\s*([A-Za-z])\s*\}")
CHAR = re.compile(r'\\char\s*(?:"([0-9A-Fa-f]+)|(\d+))')
UNICODE = re.compile(r"\\unicode\s*\{\s*([^{}]*?)\s*\}")
CODE_POINT = re.compile(r"[xX]([0-9A-Fa-f]+)|([0-9]+)", re.ASCII)
MATHOP = re.compile(r"\\mathop(?![A-Za-z])\s*")
r"""`\mathop` (its argument read by `rewrite_mathop`)."""
MATHOP_WORD = re.compile(
    r"\s*(?:\\(?:mathrm|text|textrm|operatorname)\s*\{(?P<braced>[^{}]*)\}"
    r"|\\rm(?![A-Za-z])\s*\{?(?P<rm>[^{}]*?)\}?)\s*"
)
r"""A `\mathop` argument that is one upright word: `\rm arg\,max`, `\mathrm{tr}`."""
_NAME = "|".join(sorted(FUNCTION_NAMES))
OPERATOR_NAME = re.compile(rf"\\operatorname\s*\{{({_NAME})\}}|\\({_NAME})(?![A-Za-z])")
r"""One operator name: `\max`, or `\operatorname{arg}` (what the built-in `\arg` is)."""
MATHOP_NAMES = re.compile(rf"(?:\s*(?:{OPERATOR_NAME.pattern}))+\s*")
r"""A `\mathop` argument of operator names only: `\arg\max`."""
WORD = re.compile(r"(?:[A-Za-z0-9 -]|\\[,;: ]|\\thinspace(?![A-Za-z]))+")
"""The text of an operator word: letters, digits, spaces, hyphens and TeX's spaces."""
LARGE_OPERATORS = {f"{ord(c):05X}" for c in LIMIT_OPERATORS | set("∫∬∭∮∯∰⨌")}
"""The code points (as latex2mathml's symbol table writes them) of the large operators."""
# A backslash before a tab or line end (after an even run of backslashes: `\\\⏎` is a row
# break, then this) is TeX's control space: plain.tex defines `\^^M` and `\^^I` as `\ `.
CONTROL_WHITESPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\[\t\n\r]")
SPACES = re.compile(r"\\[,:;> ]|~|\\(?:thinspace|medspace|thickspace)(?![A-Za-z])")
URL = re.compile(r"\\url\s*\{([^{}]*)\}")
# A length with no digit before its point (`\kern-.5em`, `\hspace{.2em}`,
# `\raisebox{-.5ex}` as `\raise{-.5ex}` after the macros): TeX reads it, latex2mathml
# reads `-` or `.5` alone (a width of "-", a raise of ".21" with no unit).
BARE_POINT = re.compile(
    r"(\\(?:kern|mkern|mskip|hskip|hspace\*?\s*\{|mspace\s*\{|raise\s*\{|lower\s*\{)"
    r"\s*[+-]?)\.(?=\d)"
)
"""A length's bare point after a spacing command (`\\kern-.5em`); `rewrite_specials` runs it
only when one of their words (kern, skip, space, raise, lower) is in the formula: most
points are in numbers, `(1.2)`, and the search cost ≈ 5 µs a formula (issue 20)."""
RULE = re.compile(r"\\rule\s*(?:\[([^\[\]{}]*)\])?\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
"""LaTeX's `\rule[raise]{width}{height}`: a box of ink (a strut when its width is 0)."""
MATH_IN_NAME = re.compile(r"[\\^_$&#%]")  # an operator name that is not a plain word
# TeX's generalized fractions, infix: `{n \choose k}` (The TeXbook, ch. 17).
INFIX_FRACTION = re.compile(r"\\(?:over|atop|above|choose|brace|brack)(?![A-Za-z])")
# The tokens that open or close what TeX's infix fractions divide: groups, cells, rows,
# `\left … \right`, `\begin{…} … \end{…}`; any other token is content.
FRACTION_TOKEN = re.compile(
    r"\\begin\s*\{(?:array|subarray|darray|alignat\*?|alignedat)\}\s*\{[^{}]*\}"
    r"|\\(?:begin|end)\s*\{[^{}]*\}|\\(?:left|right)(?![A-Za-z])\s*(?:\\[A-Za-z]+|\\.|.)?"
    r"|\\(?:cr|over|atop|above|choose|brace|brack)(?![A-Za-z])|\\[A-Za-z]+|\\.|%[^\n]*|\S",
    re.DOTALL,
)


DOTS = re.compile(r"\\dots(?![A-Za-z])(?=\s*(\\[A-Za-z]+|\\.|.)?)", re.DOTALL)
r"""amsmath's `\dots` and the token after it (spaces skipped), which chooses its dots."""
DOTS_BINARY = frozenset("+=<>-*:")
r"""The characters after which amsmath's `\dots` is `\dotsb` (amsmath.dtx, `\keybin@`)."""
DOTSB_COMMANDS = frozenset(("\\not", "\\iff", "\\implies", "\\impliedby", "\\And"))
r"""Commands amsmath marks `\DOTSB` that are no binary operator or relation symbol."""
INTEGRALS = frozenset("∫∬∭∮∯∰⨌")


def rewrite_dots(latex: str) -> str:
    r"""Choose amsmath's dots for each `\dots` by the token after it (amsmath.dtx, `\mdots@`).

    Before a binary operator, a relation (`+ \dots +`, `\cup \dots \cup`, `= \dots =`,
    `\not`) or a large operator (`\sum`, `\bigcup`), `\dotsb`: centred dots `\cdots`;
    before an integral, `\dotsi` (`\!\cdots`); otherwise, a comma included, the dots on the
    baseline `\ldots` (`\dotsc`, `\dotso`). KaTeX and MathJax choose the same way. Runs after
    the text pass, so a `\dots` in `\text{…}` (hidden there) stays the text's ellipsis.
    """
    if "\\dots" not in latex:
        return latex
    return DOTS.sub(_dots, latex)


def _dots(match: re.Match[str]) -> str:
    r"""Return the dots amsmath's `\dots` sets before `match`'s next token."""
    token = match.group(1) or ""
    char = token
    if token.startswith("\\") and len(token) > 2:
        code = convert_symbol(token)
        char = chr(int(code, 16)) if code else ""
    kind = symbol_class(char) if char else None
    if char in INTEGRALS:
        dots = "\\!\\cdots"
    elif (
        token in DOTS_BINARY or token in DOTSB_COMMANDS or kind in ("mathbin", "mathrel", "mathop")
    ):
        dots = "\\cdots"
    else:
        dots = "\\ldots"
    return dots


Replacement = Callable[[re.Match[str]], tuple[str, int]]
"""What replaces one command: (the new TeX, the offset where its arguments end)."""


def replace_commands(latex: str, pattern: re.Pattern[str], replace: Replacement) -> str:
    """Return `latex` with each command `pattern` finds replaced, with the arguments it reads:
    `replace(match)` gives the new TeX and where the command's arguments end. A match inside
    arguments an earlier command read belongs to that command and is left to it.
    """
    out, pos = [], 0
    for match in pattern.finditer(latex):
        if match.start() < pos:
            continue
        text, end = replace(match)
        out += [latex[pos : match.start()], text]
        pos = end
    return "".join(out) + latex[pos:]


MODULAR = re.compile(r"\\(pmod|pod|mod)(?![A-Za-z])")


def rewrite_modular(latex: str, display: bool) -> str:
    r"""Write amsmath's `\pmod{n}`, `\pod{n}` and `\mod{n}` with their spaces by style.

    amsmath.dtx: `\pod{#1}` is `\mkern18mu(#1)` in display math and `\mkern8mu(#1)` inline,
    `\pmod{#1}` is `\pod{mod\mkern6mu #1}`, `\mod{#1}` is `\mkern18mu mod\,\,#1` (12mu
    inline); `mod` is an upright word (`\mathrm`), not a function name. latex2mathml gave
    18mu inline too. The argument is read as TeX reads one (`\pmod n` takes the `n`).

    Raises:
        MathSyntaxError: the command has no argument.
    """

    def modular(match: re.Match[str]) -> tuple[str, int]:
        argument, end = read_group(latex, match.end())
        name = match.group(1)
        space = 18 if display else 12 if name == "mod" else 8
        if name == "mod":
            return rf"\mkern{space}mu\mathrm{{mod}}\mkern6mu{{{argument}}}", end
        word = r"\mathrm{mod}\mkern6mu" if name == "pmod" else ""
        return rf"\mkern{space}mu({word}{{{argument}}})", end

    return replace_commands(latex, MODULAR, modular)


ESCAPED_PERCENT = re.compile(r"(?<!\\)\\\\%")
r"""`\\%`: a row break and a comment in TeX, or `\%` escaped for a Markdown processor."""


def rewrite_escaped_percent(latex: str) -> str:
    r"""Read `\\%` as `\%` (a percent sign) where TeX's reading, a row break and then a
    comment running to the end of the line, could not be meant: in a formula of one line,
    or at the very end of a formula (`$$\frac12 = 50\\%$$`).

    Hugo's Markdown (Goldmark without its passthrough) and Zola's turn `\\%` into `\%`
    before KaTeX or MathJax read the page, so posts written for them escape the percent
    sign so; as raw TeX the comment swallowed the rest of the formula, and with it the
    `\end{gathered}` that several rows are set in. A `\\%` that ends an inner line of a
    formula of several lines stays TeX's (`a \\% the first row`).
    """
    if "\\\\%" not in latex:
        return latex
    one_line = "\n" not in latex.strip()
    return ESCAPED_PERCENT.sub(
        lambda m: "\\%" if one_line or not latex[m.end() :].strip() else m.group(), latex
    )


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
    a backslash before a line end or tab (a control space), lengths written `-.5em`, a
    limit control after a script's `_` or `^` (`SCRIPT_LIMITS`).

    Each rewrite runs only when its command is in the text (most formulas have none).
    """
    if "\\math" in latex:
        latex = UPRIGHT_LETTER.sub(r"\\mathrm{{\1}}", latex)
    if "\\char" in latex:
        latex = CHAR.sub(lambda m: chr(_char_code(m)), latex)
    if "\\unicode" in latex:
        latex = UNICODE.sub(lambda m: rf"\unicode{{x{_unicode_code(m):X}}}", latex)
    latex = unstar_matrices(shield_body_brackets(latex))
    if "\\\n" in latex or "\\\t" in latex or "\\\r" in latex:
        latex = CONTROL_WHITESPACE.sub(r"\1\\ ", latex)
    if "\\rule" in latex:
        latex = RULE.sub(_rule, latex)
    if "." in latex and (
        "kern" in latex
        or "skip" in latex
        or "space" in latex
        or "raise" in latex
        or "lower" in latex
    ):
        latex = BARE_POINT.sub(r"\g<1>0.", latex)
    if "\\mathop" in latex:
        latex = rewrite_mathop(latex)
    if INFIX_FRACTION.search(latex):
        latex = fill_empty_fractions(latex)
    if "\\genfrac" in latex:
        latex = rewrite_genfrac(latex)
    if "\\textcircled" in latex:
        latex = rewrite_textcircled(latex)
    if "\\substack" in latex:
        latex = brace_substacks(latex)
    if "ig" in latex and ("\\big" in latex or "\\Big" in latex):
        latex = SIZED.sub(_sized_marker, latex)
    if "limits" in latex:
        latex = move_trailing_limits(SCRIPT_LIMITS.sub(r"\2\1", latex))
    if "<" in latex or ">" in latex or "\\middle" in latex:
        latex = DELIMITER_CHARACTER.sub(_delimiter_command, latex)
    return latex


DELIMITER_CHARACTER = re.compile(
    r"(\\(?:left|right|middle|[Bb]igg?[lrm]?)(?![A-Za-z])\s*)([<>\[\]])"
)
r"""A delimiter written as a character after `\left`, `\right`, `\middle` or a `\big` size."""
DELIMITER_COMMANDS = {"<": "\\langle ", ">": "\\rangle ", "[": "\\lbrack ", "]": "\\rbrack "}


def _delimiter_command(match: re.Match[str]) -> str:
    r"""Write the delimiter character of `DELIMITER_CHARACTER` as its command: `\left<` is
    TeX's angle bracket (plain.tex: `\delcode`<="4268 0A`, the `\langle` glyph), which
    latex2mathml drew as a stretched less-than sign; `\middle[` and `\middle]` came out as
    `&#xNone;` (carloskiki/pulldown-latex#25 for `\middle]`)."""
    return match[1] + DELIMITER_COMMANDS[match[2]]


SCRIPT_LIMITS = re.compile(r"([_^])\s*(\\(?:no|display)?limits)(?![A-Za-z])")
SCRIPT_MARK = re.compile(r"(?<!\\)[_^]")
LIMIT_CONTROL = re.compile(r"\s*(\\(?:no|display)?limits)(?![A-Za-z])")


def move_trailing_limits(latex: str) -> str:
    r"""Move a limit control written after an operator's scripts to the operator:
    `\int_0^1\nolimits` is `\int\nolimits_0^1`.

    TeX applies `\limits` to the operator noad the scripts belong to, wherever it comes
    after them (The TeXbook, ch. 17: it modifies the current Op atom); latex2mathml read it
    only right after the operator: `\int_0^1\nolimits` was an unsupported command and
    `\sum_{i=1}^n\limits` an empty `<munderover>` (mathjax/MathJax-src#1497 for the same
    construct).
    """
    out, done, at = [], 0, 0
    while (mark := SCRIPT_MARK.search(latex, at)) is not None:
        end = _scripts_end(latex, mark.start())
        control = LIMIT_CONTROL.match(latex, end)
        if control is not None and end > mark.start():
            out += [latex[done : mark.start()], control[1], latex[mark.start() : end]]
            done = control.end()
        at = max(end, mark.start() + 1)
    return "".join(out) + latex[done:] if out else latex


def _scripts_end(latex: str, start: int) -> int:
    """Return where the one or two scripts (`_a^b`) from `start` end, or `start`."""
    end = start
    for _ in range(2):
        mark = SCRIPT_MARK.match(latex, end + len(latex[end:]) - len(latex[end:].lstrip()))
        if mark is None:
            break
        try:
            _, end = read_group(latex, mark.end())
        except MathSyntaxError:
            break
    return end


r"""`\sum_\limits{i=1}^{m}`: the limit control after the script's `_` (Typora's users write
it so). MathJax applies it to the operator and reads `{i=1}` as the subscript; latex2mathml
made `\limits` the subscript, an empty `<munderover>`, and set `i=1` as a superscript.
Written back as `\sum\limits_{i=1}^{m}`."""


SUBSTACK = re.compile(r"\\substack(?![A-Za-z])")


def brace_substacks(latex: str) -> str:
    r"""Brace each `\substack{…}` that is not a group's whole content: `\max_\substack{a\\b} f`,
    `\bigg\{ \substack{…} \bigg\}`.

    `\substack` takes one argument (amsmath); latex2mathml took the rest of the group into
    its one cell, so the rows ran together and what followed was set at script size
    (KaTeX/KaTeX#3178).

    Raises:
        MathSyntaxError: `\substack` has no argument.
    """

    def braced(match: re.Match[str]) -> tuple[str, int]:
        _, end = read_group(latex, match.end())
        whole = latex[: match.start()].rstrip().endswith("{") and latex[end:].lstrip()[:1] == "}"
        command = latex[match.start() : end]
        return (command if whole else "{" + command + "}"), end

    return replace_commands(latex, SUBSTACK, braced)


TEXTCIRCLED = re.compile(r"\\textcircled(?![A-Za-z])")


def circled(text: str) -> str:
    """Return `text` in a circle: Unicode's circled form of a number from 0 to 20 or of a
    Latin letter (①, ⑳, ⓐ, Ⓐ), else each character followed by U+20DD (combining enclosing
    circle). LaTeXML does the same (brucemiller/LaTeXML#2198). The circled numbers from 21
    (㉑) are CJK compatibility characters that the math font and common Latin fonts lack."""
    if text.isdigit() and int(text) <= 20:
        number = int(text)
        return chr(0x2460 + number - 1) if number else "\u24ea"
    if len(text) == 1 and "a" <= text <= "z":
        return chr(0x24D0 + ord(text) - ord("a"))
    if len(text) == 1 and "A" <= text <= "Z":
        return chr(0x24B6 + ord(text) - ord("A"))
    return "".join(char + "\u20dd" for char in text)


def rewrite_textcircled(latex: str) -> str:
    r"""Write `\textcircled{1}` (text mode; LaTeX sets it in math too, with a warning, and
    KaTeX supports it in both) as the circled character, as text: `\text{①}`.

    Numbered derivation steps (`&\textcircled{1}\\` at the end of each aligned row) are
    its common use. The argument is read as TeX reads one (`\textcircled a`).

    Raises:
        MathSyntaxError: `\textcircled` has no argument.
    """

    def circle(match: re.Match[str]) -> tuple[str, int]:
        argument, end = read_group(latex, match.end())
        text = _circle_text(argument)
        # Plain text is circled; anything else (`{$x$}`, `\#`) is set as text, uncircled,
        # rather than a circle put after each character of its TeX.
        shown = circled(text) if PLAIN_TEXT.fullmatch(text) else text
        return "\\text{" + shown + "}", end

    return replace_commands(latex, TEXTCIRCLED, circle)


SIZE_SWITCH = re.compile(
    r"\\(?:tiny|scriptsize|footnotesize|small|normalsize|large|Large|LARGE|huge|Huge|"
    r"rm|bf|it|sf|tt|upshape|itshape|bfseries|mdseries|rmfamily|sffamily|ttfamily)"
    r"(?![A-Za-z])\s*"
)
r"""Font switches inside `\textcircled{…}` (`\textcircled{\scriptsize 1}`, LaTeX's idiom for
a smaller figure in the circle): the Unicode character has its own size."""
PLAIN_TEXT = re.compile(r"[^\\{}$&#%^_~]+")


def _circle_text(argument: str) -> str:
    """Return `\\textcircled`'s argument without its font switches and enclosing braces."""
    text = argument.strip()
    while True:
        bare = SIZE_SWITCH.sub("", text).strip()
        if bare.startswith("{") and bare.endswith("}"):
            inner, end = read_group(bare, 0)
            if end == len(bare):
                bare = inner.strip()
        if bare == text:
            return text
        text = bare


GENFRAC = re.compile(r"\\genfrac(?![A-Za-z])")
SIZED = re.compile(r"\\([Bb]igg?)([lrm]?)(?![A-Za-z])")
r"""`\big`, `\Big`, `\bigg`, `\Bigg` and their `l`, `r`, `m` forms."""


def _sized_marker(match: re.Match[str]) -> str:
    r"""Put a `sized` marker naming the atom's class before each `\big` form.

    plain.tex makes `\big(` an Ord atom (`\def\big#1{{\hbox{$\left#1…$}}}`: the braces),
    `\bigl` an Open, `\bigr` a Close and `\bigm` a Rel (`\def\bigl{\mathopen\big}`,
    `\def\bigm{\mathrel\big}`; amsmath's `\bBigg@` keeps them). latex2mathml writes
    `\bigl|`, `\bigr|` and `\bigm|` alike and `\big|` without a side, so without the
    marker a sign after `\bigr)` was read as unary and one before `\big\|` lost its
    spaces; `\bigg`'s marker also keeps its size apart from a generalised fraction's."""
    return marker("sized", SIZED_CLASSES[match[2]]) + match[0]


SIZED_CLASSES = {"": "mathord", "l": "mathopen", "r": "mathclose", "m": "mathrel"}
"""The TeX class of a `\big` form's atom, by its suffix (plain.tex, amsmath)."""


TEX_DIMENSION = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)\s*(?:pt|em|ex|mm|cm|in|bp|pc|dd|cc|sp|mu|px)")
"""A length TeX reads as `\\genfrac`'s thickness (CSS's `px` too, as MathJax takes it)."""
GENFRAC_STYLES = {"": "", "0": "\\displaystyle", "1": "\\textstyle", "2": "\\scriptstyle"}
GENFRAC_STYLES["3"] = "\\scriptscriptstyle"
DELIMITER_NAMES = {"\\{": "{", "\\}": "}", "\\|": "‖", "\\lbrace": "{", "\\rbrace": "}"}


def rewrite_genfrac(latex: str) -> str:
    r"""Write amsmath's `\genfrac{L}{R}{thickness}{style}{num}{den}` as TeX postil sets.

    amsmath's user's guide §4.11.3: the delimiters braced or bare (`{(}`, `(`, `{\langle}`,
    `{}` or `.` for none), an empty thickness is the default rule, an empty style the
    current one (0–3: display, text, script, scriptscript). latex2mathml took bare
    delimiter characters and a style digit only (`{(}` or an empty style stopped the build;
    `\langle` came out as the letters "l" and "a"). The delimiters are sized by style as
    `\binom`'s (`fracdelim` markers), the thickness set on the fraction (`fracrule`).

    Raises:
        MathSyntaxError: an argument is missing, the style is not empty or 0–3, or a
            delimiter is no delimiter.
    """
    return replace_commands(latex, GENFRAC, _genfrac)


def _genfrac(match: re.Match[str]) -> tuple[str, int]:
    """Return one `\\genfrac` (at `match`) as postil's TeX and where its arguments end."""
    latex = match.string
    args, end = [], match.end()
    for _ in range(6):
        try:
            arg, end = read_group(latex, end)
        except MathSyntaxError:
            raise MathSyntaxError(
                r"\genfrac needs 6 arguments: write \genfrac{(}{)}{0pt}{}{n}{k}",
                match.start(),
                "\\genfrac",
            ) from None
        args.append(arg.strip())
    left, right, thickness, style, numerator, denominator = args
    if thickness and not TEX_DIMENSION.fullmatch(thickness):
        message = (
            r"\genfrac's thickness (3rd argument) must be empty or a length such as 0pt, "
            f"not `{thickness}`"
        )
        raise MathSyntaxError(message, match.start(), "\\genfrac")
    if "\\genfrac" in numerator + denominator:  # a fraction of fractions
        numerator, denominator = rewrite_genfrac(numerator), rewrite_genfrac(denominator)
    if style not in GENFRAC_STYLES:
        message = rf"\genfrac's style (4th argument) must be empty or 0, 1, 2, 3, not `{style}`"
        raise MathSyntaxError(message, match.start(), "\\genfrac")
    fraction = rf"\frac{{{numerator}}}{{{denominator}}}"
    if thickness:
        fraction = marker("fracrule", thickness) + fraction
    parts = [GENFRAC_STYLES[style], _fraction_delimiter(left, match.start()), fraction]
    parts.append(_fraction_delimiter(right, match.start()))
    return "{" + " ".join(p for p in parts if p) + "}", end


def _fraction_delimiter(written: str, offset: int) -> str:
    """Return the marker of a `\\genfrac` delimiter (`(`, `\\langle`, `\\{`), "" for none."""
    if written in ("", "."):
        return ""
    char = DELIMITER_NAMES.get(written, written)
    if char.startswith("\\"):
        code = convert_symbol(char)
        char = chr(int(code, 16)) if code else ""
    if len(char) != 1 or char.isalnum():
        message = rf"\genfrac's delimiter `{written}` is no delimiter: write one like ( or \langle"
        raise MathSyntaxError(message, offset, "\\genfrac")
    return marker("fracdelim", TEXT_STAND_INS.get(char, char))  # `{` hidden from `\\text`


def _rule(match: re.Match[str]) -> str:
    r"""Return `\rule[r]{w}{h}` as latex2mathml reads it: `\raise{r}{\rule{w}{h}}`, each
    length with a digit before its point. latex2mathml takes no optional argument (the
    `[` became the width) and reads `.5em` as `.5`; LaTeX raises the box by `r` (its
    manual, "\\rule")."""
    raised, width, height = (_zero_point(part) for part in match.groups(""))
    box = rf"\rule{{{width}}}{{{height}}}"
    return rf"\raise{{{raised}}}{{{box}}}" if raised else box


def _zero_point(length: str) -> str:
    """Return a TeX length with a `0` before a bare point: `-.5em` -> `-0.5em`."""
    length = length.strip()
    return re.sub(r"\A([+-]?)\.(?=\d)", r"\g<1>0.", length)


def rewrite_mathop(latex: str) -> str:
    r"""Make each `\mathop{…}` the operator TeX makes of it (an Op atom: a function's
    spacing, its limits under and over in display style, TeX's `\displaylimits`).

    latex2mathml wrote the argument inside an `<mo>` (`<mo><mrow>…</mrow></mo>`, no valid
    MathML, and `\mathop{\rm arg\,max}` came out as the function "arg" applied to "max").
    One upright word (`\rm arg\,max`, `\mathrm{tr}`, `\text{arg min}`) or operator names
    only (`\arg\max`) is `\operatorname*{…}` of that word; any other argument
    (`\mathbb{E}`, `\sum'`) is a group made the operator by an `opgroup` marker.
    """

    def operator(match: re.Match[str]) -> tuple[str, int]:
        body, end = read_group(latex, match.end())
        word = MATHOP_WORD.fullmatch(body)
        text = next((w for w in (word.group("braced"), word.group("rm")) if w), "") if word else ""
        if not text and MATHOP_NAMES.fullmatch(body):
            text = "\\,".join(a or b for a, b in OPERATOR_NAME.findall(body))
        if text and WORD.fullmatch(text):
            return rf"\operatorname*{{{text.strip()}}}", end
        if convert_symbol(body.strip()) in LARGE_OPERATORS:
            return body, end  # `\mathop{\sum}` is `\sum`
        return "{" + marker("opgroup", "opl") + body + "}", end

    return replace_commands(latex, MATHOP, operator)


def fill_empty_fractions(latex: str) -> str:
    r"""Make the extent of each infix fraction explicit where latex2mathml would misread it.

    TeX divides what comes before `\over`, `\atop`, `\above`, `\choose`, `\brace` or
    `\brack` in its group (a brace group, an array cell, `\left…\right`) by what comes
    after (The TeXbook, ch. 17), and either side may be empty: `$\choose n$` is an empty
    top over n (MathJax and KaTeX agree). latex2mathml refuses an empty side and, in an
    array, takes the cell's `&` and the row's `\\` into the fraction. So an empty side gets
    an empty group `{}` (`\choose{n}{2}` → `{}\choose{n}{2}`: empty over n2, TeX's result),
    and a cell holding an infix fraction is braced (`a \over b & c` → `{a \over b}& c`).
    """
    inserts: list[tuple[int, int, str]] = []  # (offset, order at one offset, text)
    frames = [_FractionGroup(0, braced=True)]
    for match in FRACTION_TOKEN.finditer(latex):
        token, at = match.group(), match.start()
        frame = frames[-1]
        if token[0] == "%":
            continue
        closes = token == "}" or token.startswith(("\\end", "\\right"))
        if closes or token in ("&", "\\\\", "\\cr"):
            inserts += frame.close(at, braced=token == "}" or token.startswith("\\right"))
            if closes and len(frames) > 1:
                frames.pop()
                frames[-1].content()
            else:
                frames[-1] = _FractionGroup(match.end(), braced=False)
        elif token == "{" or token.startswith("\\left"):
            frames[-1].content()
            frames.append(_FractionGroup(match.end(), braced=True))
        elif token.startswith("\\begin"):
            frames[-1].content()
            frames.append(_FractionGroup(match.end(), braced=False))
        elif INFIX_FRACTION.fullmatch(token):
            if not frame.before:
                inserts.append((at, 1, "{}"))
            frame.fraction, frame.after = True, False
        else:
            frame.content()
    if len(frames) == 1:
        inserts += frames[0].close(len(latex), braced=True)
    out, pos = [], 0
    for at, _, text in sorted(inserts):
        out += [latex[pos:at], text]
        pos = at
    return "".join(out) + latex[pos:]


class _FractionGroup:
    """What `fill_empty_fractions` knows of one group, cell or row while it reads it."""

    def __init__(self, start: int, braced: bool) -> None:
        self.start, self.braced = start, braced
        self.before = self.fraction = self.after = False

    def content(self) -> None:
        """Note a token of content, before or after the group's infix fraction."""
        if self.fraction:
            self.after = True
        else:
            self.before = True

    def close(self, end: int, braced: bool) -> list[tuple[int, int, str]]:
        """Return the inserts the group needs, given how it ends at `end`."""
        if not self.fraction:
            return []
        inserts = [] if self.after else [(end, 1, "{}")]
        if not (self.braced and braced):
            inserts += [(self.start, 0, "{"), (end, 2, "}")]
        return inserts


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


PRIMES_THEN_SUPERSCRIPT = re.compile(r"('{2,})\s*\^")
"""Two primes or more and a superscript after them (`f''^n`)."""


def rewrite_prime_superscripts(latex: str) -> str:
    r"""Write primes followed by a superscript as one superscript: `f''^n` is
    `f^{\prime\prime n}`.

    TeX reads `'` as `^{\prime}` that takes the primes after it and a superscript after
    them into one superscript (The TeXbook, chapter 16; latex.ltx's `\active@math@prime`), so
    `f''^n` is "f double prime to the n", as KaTeX and MathJax read it; latex2mathml reads
    two primes as a superscript of their own and refused the `^` after them ("double
    superscript"). One prime and a superscript it reads itself (`f'^2`); after a subscript,
    `tokens.merge_prime_scripts` puts them together.
    """
    if "''" not in latex:
        return latex
    out: list[str] = []
    done = 0
    for found in PRIMES_THEN_SUPERSCRIPT.finditer(latex):
        if found.start() < done:
            continue
        try:
            argument, end = read_group(latex, found.end())
        except MathSyntaxError:
            continue  # `f''^` at the end: latex2mathml's own error says it
        primes = "\\prime" * len(found[1])
        out += [latex[done : found.start()], "^{", primes, " ", argument, "}"]
        done = end
    return "".join(out) + latex[done:] if out else latex
