r"""A formula as readable plain text, for places that cannot hold MathML.

`<title>`, Open Graph and feed titles, JSON-LD, `aria-label`s and citations take text, not
markup. `to_plain_text` converts a formula with the math layer itself (`latex_to_mathml`:
the same macros, symbols and alphabets as the page) and reads the MathML back as text:

    >>> to_plain_text(r"\alpha")
    'α'
    >>> to_plain_text(r"O(n^2)")
    'O(n²)'
    >>> to_plain_text(r"\frac{a+b}{2}")
    '(a + b)/2'

What becomes what:

- identifiers, numbers, operators and text (`<mi>`, `<mn>`, `<mo>`, `<mtext>`) are their
  characters, as the page draws them (`\alpha` α, `\mathbb{R}` ℝ, `\le` ≤, `-` −); the
  invisible function application and separators (U+2061–U+2064) are dropped;
- outside scripts, relations and binary operators get a space on each side and
  punctuation one after (TeX's math classes, `symbols.symbol_class`; a prefix sign gets
  none: `a ≤ −b`); spaces of at least a thin space (`\,`, `\quad`) are one space;
- superscripts and subscripts use Unicode's superscript and subscript characters when
  every character of the script has one (`n^2` n², `x_{i+1}` xᵢ₊₁; the characters are
  those Unicode decomposes as `<super>`/`<sub>`), else `^`/`_` before the script, in
  parentheses when it is longer than one character (`e^{i\pi}` e^(iπ)); primes stay
  primes (`f'` f′); limits under and over an operator are scripts too;
- function names (`\log`, `\operatorname{…}`) and big operators (`∑`, `∫`, `\lim`) get a
  space on each side (none before an opening bracket: `softmax(x)`, `∑ᵢ xᵢ`);
- `\frac{a}{b}` a/b, each part in parentheses when it has a space or a `/` outside brackets
  (`(a + b)/2`, `∂f/∂x`); `\sqrt{x}` √x, in parentheses unless one character, a number or
  one character with scripts (`√dₖ`, `√(x + 1)`); `\sqrt[3]{x}` ∛x (4: ∜; others: ⁿ√x
  through the superscripts);
- an accent over one letter or a run of letters is Unicode's combining mark after each,
  composed where Unicode has the accented letter (NFC): `\hat{x}` x̂, `\vec{v}` v⃗,
  `\bar{z}` z̄, `\grave{a}` à; also `\tilde`, `\dot`, `\ddot`, `\acute`, `\breve`,
  `\check`, `\overline`, `\underline`;
- an extensible arrow (`\xrightarrow[g]{f}`, mhchem's reaction arrows) is the arrow with
  its texts as scripts (`→_gᶠ`), spaced as a relation; an empty script is nothing, a ring
  superscript the degree sign (`90^\circ` 90°);
- anything else (tables and matrices, `\binom`, multiscripts, a formula that does not
  convert) makes the whole formula fall back to its TeX source, whitespace collapsed:
  `\begin{pmatrix}a & b\end{pmatrix}`.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from functools import cache

from postil.math.cache import MathCache
from postil.math.convert import latex_to_mathml
from postil.math.errors import MathError
from postil.math.symbols import PRIMES, symbol_class

INVISIBLE = str.maketrans("", "", "\u2061\u2062\u2063\u2064")
"""Function application, invisible times, separator and plus: MathML's, not the reader's."""

SPACED_CLASSES = frozenset({"mathrel", "mathbin"})
"""TeX classes set with a space on each side in text (outside scripts)."""

MIN_SPACE_EM = 0.16
"""The narrowest `<mspace>` read as a space: TeX's thin space `\\,` is 0.1667em."""

CUBE_ROOTS = {"3": "∛", "4": "∜"}
"""Root indices Unicode has a radical sign for."""

OVER_MARKS = {
    "^": "\u0302",
    "ˆ": "\u0302",
    "~": "\u0303",
    "`": "\u0300",
    "→": "\u20d7",
    "ˇ": "\u030c",
    "―": "\u0305",
    "‾": "\u0305",
}
r"""Accents over a base that Unicode does not decompose to a combining mark: the
characters latex2mathml draws for `\hat`, `\tilde`, `\grave`, `\vec`, `\check`,
`\overline` (`¯`, `˙`, `¨`, `´`, `˘` decompose: `<compat> 0020 0304`, …)."""

UNDER_MARKS = {"―": "\u0332", "_": "\u0332"}
r"""Accents under a base: `\underline`'s rule is the combining low line."""

BRACES = frozenset("⏞⏟⎴⎵")
r"""`\overbrace`/`\underbrace`: text has no brace over a run of characters; left out."""

GLUE = "\x01"
"""Marks a place where no space may follow (after a prefix sign); removed by `_tidy`."""

SOFT = "\x02"
r"""Marks the space after a function name or big operator: none before an opening bracket."""

OPENERS = "([{⟨"
CLOSERS = ")]},;⟩"

MATH_ALPHANUMERICS = range(0x1D400, 0x1D800)
r"""Mathematical Alphanumeric Symbols (`\mathit{x}` 𝑥): their script form is the plain
letter's (Unicode has no superscript bold x)."""


class _NoText(Exception):
    """A construct with no plain-text form: the formula falls back to its TeX source."""


def to_plain_text(
    latex: str, *, macros: Mapping[str, str] | None = None, cache: MathCache | None = None
) -> str:
    r"""Return a formula as readable text: Unicode where possible, else its TeX source.

    Args:
        latex: the TeX source without `$` delimiters.
        macros: the macros in force (site and post), as for `latex_to_mathml`.
        cache: a `MathCache` for the conversion, or None.

    Returns:
        The text (see the module docstring for each construct), or `latex` with its
        whitespace collapsed when the formula has a construct without a text form or does
        not convert. Never raises for bad TeX.
    """
    try:
        mathml = latex_to_mathml(latex, macros=macros, cache=cache)
    except MathError:
        return tex_source(latex)
    return text_of(mathml, latex)


def tag_text(tag: str) -> str:
    r"""Return a `\tag`'s text as a reference shows it: `$1'$` -> `1′` (plain as is)."""
    if "$" not in tag and "\\" not in tag:
        return tag
    return to_plain_text(rf"\text{{{tag}}}")


def text_of(mathml: str, latex: str) -> str:
    """Return the readable text of `mathml`, converted from `latex`, else `latex` on one line.

    For callers that already hold the MathML (a title, a heading) so the formula is
    converted once for the page and its text.
    """
    text = mathml_to_text(mathml)
    return tex_source(latex) if text is None else text


TEX_WORD = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\[A-Za-z]+\*?|\\.|[{}^_&$]")
"""TeX that never goes into an id or a slug: control words and symbols, environment
names, braces, script, alignment and math marks."""


def without_tex(text: str) -> str:
    r"""Return `text` with its TeX markup (`TEX_WORD`) as spaces, for ids and slugs.

    Applied to a formula's plain text, it matters only when the text fell back to TeX:
    `\begin{pmatrix}a & b\end{pmatrix}` gives "a b".
    """
    return " ".join(TEX_WORD.sub(" ", text).split())


def tex_source(latex: str) -> str:
    """Return TeX source as a one-line fallback text: whitespace runs become one space."""
    return " ".join(latex.split())


def mathml_to_text(mathml: str) -> str | None:
    """Return the readable text of a `<math>` element as `latex_to_mathml` writes it.

    Returns None when the formula has a construct without a text form (the module
    docstring lists them) or the markup does not parse; the caller falls back to TeX.
    """
    try:
        root = ET.fromstring(mathml)
        return _tidy(_text(root, False))
    except (ET.ParseError, _NoText):
        return None


def _text(node: ET.Element, script: bool) -> str:
    """Return the text of one MathML element; `script`: inside a sub- or superscript."""
    tag = node.tag
    if tag == "semantics" and (word := _plain_annotation(node)) is not None:
        return word  # a TeX logo: its word (`markers`, kind `logo`)
    if tag in ("math", "mrow", "mstyle", "mpadded", "semantics", "menclose"):
        return _row([c for c in node if c.tag != "annotation"], script)
    if tag in ("mi", "mn", "mtext", "ms"):
        return (node.text or "").translate(INVISIBLE)
    if tag == "mo":
        return _operator(node, script)
    if tag == "mspace":
        return " " if _em(node.get("width", "0")) >= MIN_SPACE_EM else ""
    if tag == "mphantom":
        return ""
    if tag in SCRIPTED:
        return SCRIPTED[tag](node, script)
    raise _NoText(tag)


def _plain_annotation(node: ET.Element) -> str | None:
    """Return the text of a `<semantics>`' plain-text annotation, or None."""
    found = node.find("annotation[@encoding='text/plain']")
    return None if found is None else found.text or ""


def _row(children: list[ET.Element], script: bool) -> str:
    r"""Return the text of a row; a function name (`\log`, `\operatorname`: an `<mi>`
    before U+2061) gets a space on each side outside scripts, and the thin space the math
    layer puts after it is left out."""
    out = []
    skip_space = False
    for i, child in enumerate(children):
        if skip_space and child.tag == "mspace":
            continue
        after = children[i + 1] if i + 1 < len(children) else None
        skip_space = after is not None and after.tag == "mo" and after.text == "\u2061"
        text = _text(child, script)
        out.append(f" {text}{SOFT}" if skip_space and not script else text)
        skip_space = skip_space or (child.tag == "mo" and child.text == "\u2061")
    return "".join(out)


def _tidy(text: str) -> str:
    """Return the text with the spacing marks resolved and spaces collapsed: none after an
    opening bracket or a prefix sign, none before a closing bracket or punctuation."""
    text = re.sub(SOFT + r"\s*(?=[" + re.escape(OPENERS + CLOSERS) + "]|$)", "", text)
    text = re.sub(GLUE + r"\s*", "", text.replace(SOFT, " "))
    text = re.sub("([" + re.escape(OPENERS) + r"])\s+", r"\1", text)
    text = re.sub(r"\s+([" + re.escape(CLOSERS) + "])", r"\1", text)
    return " ".join(text.split())


def _operator(node: ET.Element, script: bool) -> str:
    """Return an operator's character, with its spacing outside scripts (`_spaces`)."""
    text = (node.text or "").translate(INVISIBLE)
    if script or not text.strip():
        return text
    if node.get("form") == "prefix" and symbol_class(text.strip()) == "mathbin":
        return text + GLUE
    before, after = _spaces(node, text.strip())
    return " " * before + text + " " * after


def _spaces(node: ET.Element, text: str) -> tuple[bool, bool]:
    r"""Return whether a space goes before and after an operator.

    The math layer's own `lspace`/`rspace` win (a relation `:` gets thick spaces, `\bmod`
    medium ones, `:=` none between its two relations), except where it drops both spaces of
    a spaced operator because the formula sets it in script style (the numerator of an
    inline fraction): plain text is read at text size. A bare `:` is `\colon`,
    punctuation (`symbols.REL_SPACE`); otherwise the TeX class of the character decides,
    and a prefix sign gets none.
    """
    kind = "mathpunct" if text == ":" else symbol_class(text)
    lspace, rspace = node.get("lspace"), node.get("rspace")
    if lspace or rspace:
        before, after = _em(lspace or "0") > 0, _em(rspace or "0") > 0
        if before or after or kind not in SPACED_CLASSES:
            return before, after
    if kind in SPACED_CLASSES and node.get("form") != "prefix":
        return True, True
    return False, kind == "mathpunct"


def _em(width: str) -> float:
    """Return an `<mspace>` width in em (postil writes spaces in em; other units: 0)."""
    try:
        return float(width.removesuffix("em")) if width.endswith("em") else 0.0
    except ValueError:
        return 0.0


def _children(node: ET.Element, count: int) -> list[ET.Element]:
    children = list(node)
    if len(children) != count:
        raise _NoText(node.tag)
    return children


def _sup(node: ET.Element, script: bool) -> str:
    base, sup = _children(node, 2)
    return _base(base, script) + _script(sup, "super", "^") + _after_operator(base, script)


def _sub(node: ET.Element, script: bool) -> str:
    base, sub = _children(node, 2)
    return _base(base, script) + _script(sub, "sub", "_") + _after_operator(base, script)


def _subsup(node: ET.Element, script: bool) -> str:
    base, sub, sup = _children(node, 3)
    scripts = _script(sub, "sub", "_") + _script(sup, "super", "^")
    return _base(base, script) + scripts + _after_operator(base, script)


def _base(base: ET.Element, script: bool) -> str:
    """Return the text of a scripted base; a big operator gets a space before it."""
    if _big_operator(base):
        return ("" if script else " ") + (base.text or "").strip()
    return _text(base, script)


def _after_operator(base: ET.Element, script: bool) -> str:
    """Return the space after a big operator with limits (`∑ᵢ xᵢ`), outside scripts."""
    return SOFT if not script and _big_operator(base) else ""


def _big_operator(node: ET.Element) -> bool:
    r"""Whether `node` is a big operator (`∑`, `∫`: TeX's Op class) or `\lim`-like name."""
    if node.tag == "mo":
        return symbol_class((node.text or "").strip()) == "mathop"
    return node.tag == "mi" and len(node.text or "") > 1


def _painted(script: ET.Element) -> ET.Element:
    """Return the character a painted script stands for (a wide accent's, a rule's hidden
    `<mo class="wide-glyph">`), or `script` itself."""
    if script.tag == "mpadded" and script.get("class"):
        glyph = next((el for el in script.iter("mo") if el.get("class") == "wide-glyph"), None)
        if glyph is not None:
            return glyph
    return script


def _over(node: ET.Element, script: bool) -> str:
    return _stacked(node, script, OVER_MARKS, _sup)


def _under(node: ET.Element, script: bool) -> str:
    return _stacked(node, script, UNDER_MARKS, _sub)


def _stacked(
    node: ET.Element, script: bool, marks: Mapping[str, str], fallback: Callable[..., str]
) -> str:
    """Return a base with a script over or under it: an accent as a combining mark (`marks`),
    a brace left out, an extensible arrow as `_x_arrow`, anything else as `fallback` (a
    superscript or subscript)."""
    if node.get("class") == "x-arrow":
        return _x_arrow(node)
    base, stacked = _children(node, 2)
    accent = _painted(stacked)
    mark = _combining(accent, marks)
    if mark is not None:
        return _accented(_text(base, script), mark)
    if accent.tag == "mo" and accent.text in BRACES:
        return _text(base, script)
    return fallback(node, script)


def _under_over(node: ET.Element, script: bool) -> str:
    """Return a base with scripts under and over it (an extensible arrow as `_x_arrow`)."""
    return _x_arrow(node) if node.get("class") == "x-arrow" else _subsup(node, script)


def _x_arrow(node: ET.Element) -> str:
    r"""Return an extensible arrow (`\xrightarrow[g]{f}`, mhchem's reaction arrows): the
    arrow, its texts after it as subscript and superscript, spaced as the relation it is."""
    arrow = next((el for el in node.iter("mo") if el.get("class") == "wide-glyph"), None)
    if arrow is None:
        raise _NoText("x-arrow")
    texts = list(node)[1:]
    kinds = {"mover": ["super"], "munder": ["sub"]}.get(node.tag, ["sub", "super"])
    scripts = "".join(
        _script(text, kind, "^" if kind == "super" else "_")
        for text, kind in zip(texts, kinds, strict=False)
    )
    return f" {(arrow.text or '').strip()}{scripts} "


def _frac(node: ET.Element, script: bool) -> str:
    if node.get("linethickness") in ("0", "0px", "0em"):  # \binom, \atop: no text form
        raise _NoText("mfrac")
    num, den = _children(node, 2)
    return f"{_grouped(_text(num, script))}/{_grouped(_text(den, script))}"


def _sqrt(node: ET.Element, script: bool) -> str:
    return "√" + _atom(_row(list(node), script))


def _root(node: ET.Element, script: bool) -> str:
    base, index = _children(node, 2)
    degree = _text(index, True)
    sign = CUBE_ROOTS.get(degree) or _all_in(degree, "super") + "√"
    return sign + _atom(_text(base, script))


SCRIPTED = {
    "msup": _sup,
    "msub": _sub,
    "msubsup": _subsup,
    "mover": _over,
    "munder": _under,
    "munderover": _under_over,
    "mfrac": _frac,
    "msqrt": _sqrt,
    "mroot": _root,
}
"""Elements with parts: element name -> its reader."""


def _grouped(text: str) -> str:
    """Return a fraction's part as it reads beside `/`: in parentheses when it has a space
    or a `/` outside brackets (`(a + b)/2`, but `∂σᵢ/∂zⱼ`, `exp(x)/n`)."""
    bare = _tidy(text)
    return f"({bare})" if re.search(r"[ /]", _outside_brackets(bare)) else bare


def _atom(text: str) -> str:
    """Return a radicand as it reads after `√`: in parentheses unless one character, a
    number, or one character with scripts (`√2`, `√10`, `√dₖ`, else `√(2π)`)."""
    bare = _tidy(text)
    scripts = set(script_characters("super").values()) | set(script_characters("sub").values())
    single = len(bare) == 1 or bare.isdigit() or all(c in scripts for c in bare[1:])
    return bare if bare and single else f"({bare})"


def _outside_brackets(text: str) -> str:
    """Return `text` with every bracketed part removed (`f(a b)c` -> `fc`)."""
    out, depth = [], 0
    for char in text:
        if char in OPENERS:
            depth += 1
        elif char in ")]}⟩" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def _script(node: ET.Element, kind: str, marker: str) -> str:
    """Return a script as Unicode super/subscript characters, or `marker` and the text; an
    empty one (an arrow's `\\hspace` text) as nothing, a ring superscript (`90^\\circ`) as
    the degree sign."""
    text = _tidy(_text(node, True))
    if not text.strip():
        return ""
    if text == "∘" and kind == "super":
        return "°"
    if text and all(c in PRIMES for c in text):
        return text
    try:
        return _all_in(text, kind)
    except _NoText:
        return marker + (text if len(text) == 1 else f"({text})")


def _all_in(text: str, kind: str) -> str:
    """Return `text` in Unicode's super- or subscript characters; `_NoText` if one lacks one."""
    table = script_characters(kind)
    out = []
    for char in text:
        if ord(char) in MATH_ALPHANUMERICS:
            char = unicodedata.normalize("NFKC", char)
        found = table.get(char)
        if found is None:
            raise _NoText(char)
        out.append(found)
    if not out:
        raise _NoText(text)
    return "".join(out)


@cache
def script_characters(kind: str) -> dict[str, str]:
    """Return character -> its Unicode `kind` ("super" or "sub") form, from the UCD.

    A character's form is the one whose decomposition is `<super> X` (or `<sub> X`) of that
    single character; when several are (ª and ᵃ), the later code point, in the blocks made
    for scripts, wins.
    """
    prefix = f"<{kind}> "
    table: dict[str, str] = {}
    for code in range(0xA0, 0x2C80):  # to Latin Extended-C; later ones lack fonts
        char = chr(code)
        decomposition = unicodedata.decomposition(char)
        if decomposition.startswith(prefix) and " " not in decomposition[len(prefix) :]:
            table[chr(int(decomposition[len(prefix) :], 16))] = char
    return table


def _combining(accent: ET.Element, marks: Mapping[str, str]) -> str | None:
    """Return the combining mark of an accent element (`<mo>^</mo>`), or None.

    `marks` are the accents Unicode does not decompose (`OVER_MARKS`, `UNDER_MARKS`); an
    accent over a base may also be a spacing character that decomposes to a space and a
    combining mark (`¯` is `<compat> 0020 0304`).
    """
    if accent.tag != "mo" or not accent.text or len(accent.text) != 1:
        return None
    char = accent.text
    if char in marks:
        return marks[char]
    if marks is UNDER_MARKS:
        return None
    parts = unicodedata.decomposition(char).split()
    if len(parts) == 3 and parts[:2] == ["<compat>", "0020"]:
        return chr(int(parts[2], 16))
    return None


def _accented(base: str, mark: str) -> str:
    """Return `base` with `mark` after each character; `_NoText` unless letters/digits."""
    if not base or not base.isalnum():
        raise _NoText(base)
    return "".join(unicodedata.normalize("NFC", c + mark) for c in base)
