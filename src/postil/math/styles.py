r"""TeX's math styles (display, text, script, scriptscript) down a MathML tree.

TeX sets every part of a formula in one of four styles (The TeXbook, ch. 17): display (D)
for display math, text (T) for inline math, script (S) and scriptscript (SS) for what is
written smaller. Several rules depend on the style: limits go under/over only in display
style (`limits.py`), the medium and thick spaces around binary operators and relations
are left out in script styles (`spacing.fix_atom_spacing`), and an automatically sized
`\binom` takes display-size or text-size parentheses (`fix_fraction_delimiters` below).

`walk_styles` yields every element with the style it is set in, as an int: `DISPLAY` (0),
`TEXT` (1), `SCRIPT` (2), `SCRIPTSCRIPT` (3).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from itertools import repeat

from postil.math.markers import DATA_CLASS, DATA_ENV, DISPLAY_DELIMITER
from postil.math.mathml import SCRIPTED, SCRIPTED_OR_STACKED, is_left_right_group
from postil.math.symbols import CLOSE_FENCES, OPEN_FENCES, symbol_class
from postil.math.texreader import read_group

DISPLAY, TEXT, SCRIPT, SCRIPTSCRIPT = 0, 1, 2, 3
DISPLAY_ENVS = frozenset(("aligned", "alignat", "gathered", "multline", "dcases", "darray"))
"""Environment styles (`environments.STYLES`) whose cells are display style: amsmath's
`aligned` family, `multline`, `dcases`, `darray` (and `eqnarray`, set as `darray`)."""
# latex2mathml's delimiters of an auto-sized `\binom`/`\choose`/`\genfrac`: display size
# always; text style takes the size of `\big` (KaTeX's size 1, what `\tbinom` gets).
TEXT_DELIMITER = "1.2em"
# latex2mathml sizes `\big`, `\Big`, `\bigg`, `\Bigg` as MathJax does (1.2, 1.623, 2.047,
# 2.470em); TeX takes the first glyph of Computer Modern's cmex chain at least as tall as
# plain.tex's boxes ask for, which is 1.2, 1.8, 2.4 and 3.0em (KaTeX's Size1-4 fonts, Temml):
# what a reader of a LaTeX paper sees. A display `\binom`'s `\delim1` (2.39em) is 2.4em too.
CM_DELIMITER_SIZES = {"1.623em": "1.8em", "2.047em": "2.4em", "2.470em": "3em"}
STYLE_SETTERS = frozenset(("mstyle", "mtable"))


def walk_styles(root: ET.Element, display: bool) -> Iterator[tuple[ET.Element, int]]:
    r"""Yield (element, style) for `root` and every element under it, parents first.

    The style changes as TeX's does (The TeXbook, ch. 17, p. 141): a fraction sets its
    numerator and denominator one style smaller (D -> T -> S -> SS), scripts and limits are
    script style (scriptscript inside scripts), a root's index scriptscript, a table's cells
    text style; `mstyle displaystyle`/`scriptlevel` (`\displaystyle`, `\scriptstyle`) set it.
    """
    stack = [(root, DISPLAY if display else TEXT)]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        el, style = pop()
        tag = el.tag  # read before the caller may retag `el` (limits.apply_limits)
        if tag in STYLE_SETTERS:
            style = _own_style(el, tag, style)
        yield el, style
        if not len(el):
            continue
        if tag == "mfrac":
            extend(zip(reversed(el), repeat(min(style + 1, SCRIPTSCRIPT))))
        elif (tag in SCRIPTED_OR_STACKED or tag in ("mroot", "mmultiscripts")) and not _is_accent(
            el, tag
        ):
            script = SCRIPTSCRIPT if tag == "mroot" or style >= SCRIPT else SCRIPT
            extend(zip(reversed(el[1:]), repeat(script)))
            push((el[0], style))
        else:  # an accent is the size of its base (TeX, Chromium)
            extend(zip(reversed(el), repeat(style)))


def _is_accent(el: ET.Element, tag: str) -> bool:
    """Tell whether `el` is a base with an accent (`accent`/`accentunder="true"`): MathML
    Core sets such a script at the base's size, as TeX sets an accent (a wide accent's or a
    rule's box holds a copy of the base, which must keep the base's spacing)."""
    return (tag == "mover" and el.get("accent") == "true") or (
        tag == "munder" and el.get("accentunder") == "true"
    )


def _own_style(el: ET.Element, tag: str, style: int) -> int:
    """Return the style `el` sets for itself and its content (`mstyle`, `mtable`; the table
    of a display environment is display style before `style_environment` says so)."""
    if el.get("displaystyle") == "true" or (tag == "mtable" and el.get(DATA_ENV) in DISPLAY_ENVS):
        return DISPLAY
    level = el.get("scriptlevel", "")
    if tag == "mstyle" and level.isdigit() and int(level) > 0:
        return min(SCRIPTSCRIPT, SCRIPT + int(level) - 1)
    if tag == "mstyle" and level.isdigit():  # an unsigned 0 is absolute (MathML Core's
        # math-depth: 0): `\textstyle` in a script, `\cfrac`'s parts in an inline fraction
        return TEXT if el.get("displaystyle") == "false" else min(style, TEXT)
    if el.get("displaystyle") == "false" or tag == "mtable":
        return max(style, TEXT)
    return style


def sets_display_style(root: ET.Element) -> bool:
    """Tell whether an element under `root` sets display style for its content, as
    `_own_style` reads it (`\\displaystyle`'s `mstyle`, a display environment's table):
    without one, no element of an inline formula is in display style."""
    for el in root.iter("mstyle"):
        if el.get("displaystyle") == "true":
            return True
    for el in root.iter("mtable"):
        if el.get("displaystyle") == "true" or el.get(DATA_ENV) in DISPLAY_ENVS:
            return True
    return False


def fix_fraction_delimiters(root: ET.Element, display: bool) -> None:
    r"""Size the parentheses of `\binom`, `\choose`, `\genfrac` by the style they are in.

    TeX's `\binom` is a generalised fraction whose delimiters are display size in display
    style and text size otherwise (The TeXbook, Appendix G, rule 15e: `\delim1`/`\delim2`);
    latex2mathml gives them display size everywhere, so an inline `\binom{n}{k}` stood
    twice as tall as the line. `\dbinom`/`\tbinom` set their own style and size already.
    """
    if not any(el.get("minsize") == DISPLAY_DELIMITER for el in root.iter("mo")):
        return  # no delimiter of latex2mathml's display size (`_auto_sized`): no `\binom`
    for parent, style in walk_styles(root, display):
        if style == DISPLAY:
            continue
        kids = list(parent)
        for index, kid in enumerate(kids):
            if kid.tag == "mfrac":
                for side in (index - 1, index + 1):
                    if 0 <= side < len(kids) and _auto_sized(kids[side]):
                        kids[side].set("minsize", TEXT_DELIMITER)
                        kids[side].set("maxsize", TEXT_DELIMITER)


def _auto_sized(el: ET.Element) -> bool:
    """Tell whether `el` is a generalised fraction's display-size delimiter (latex2mathml's)."""
    return (
        el.tag == "mo"
        and set(el.attrib) == {"minsize", "maxsize"}
        and el.get("minsize") == DISPLAY_DELIMITER
    )


def size_delimiters_in_scripts(root: ET.Element, display: bool) -> None:
    r"""Draw a `\big` … `\Bigg` delimiter in a script at its full size, as TeX does.

    plain.tex's `\big#1` is `{\hbox{$\left#1\vbox to8.5\p@{}\right.\n@space$}}`: the
    `\hbox` starts a formula of its own, in text style at the text font's size, so the
    delimiter is 8.5pt tall (at 10pt) whatever style it stands in; amsmath's `\bBigg@`
    measures it in an `\hbox` too (amsmath.dtx, "\big, \Big …"). So `e^{\big(x\big)}`
    has parentheses as tall as the line's, not a script's. Chromium scales a script's
    `em` down with its font (MathML Core's `math-depth`), which drew them at script size;
    `scriptlevel="0"` (a global attribute, MathML Core §2.1.3) sets the delimiter at the
    formula's own size. A sized delimiter is one `rewrite._sized_marker` gave a class
    (`DATA_CLASS`), so `\binom`'s, sized by its style, are left alone.
    """
    sized = [el for el in root.iter("mo") if DATA_CLASS in el.attrib and "minsize" in el.attrib]
    if not sized or not any(el.tag in SCRIPTED_OR_STACKED for el in root.iter()):
        return
    wanted = set(map(id, sized))
    for el, style in walk_styles(root, display):
        if style >= SCRIPT and id(el) in wanted:
            el.set("scriptlevel", "0")


def fix_delimiter_sizes(root: ET.Element) -> None:
    r"""Give `\Big`, `\bigg`, `\Bigg` (and a display `\binom`) Computer Modern's sizes,
    centred on the math axis.

    See `CM_DELIMITER_SIZES`; runs after `fix_fraction_delimiters`, which reads
    latex2mathml's display size to find a generalised fraction's delimiters. A sized
    delimiter that is a script's base (`\Big)^2`) goes into an `<mrow>` of its own: as the
    base itself Chromium drew it at text size.
    """
    scripted = []
    for el in root.iter():
        if el.tag in SCRIPTED and len(el) and el[0].tag == "mo" and "minsize" in el[0].attrib:
            scripted.append(el)
        size = el.get("minsize")
        if not size or el.get("maxsize") != size:
            continue
        el.set("minsize", CM_DELIMITER_SIZES.get(size, size))
        el.set("maxsize", CM_DELIMITER_SIZES.get(size, size))
        # plain.tex's `\big` boxes are centred on the math axis, as every `\left` is;
        # MathML Core centres a stretched operator only when it is symmetric.
        el.set("symmetric", "true")
        # Chromium sizes only operators that stretch, and the operator dictionary's infix
        # forms stretch no slash, bar or double bar (ronkok/Temml#71: `\big/`; `a\big|b`
        # was drawn at text size). `\big`, `\bigl`, `\bigr` make an Ord, Open, Close
        # atom (plain.tex: `\bigl` is `\mathopen\big`), without the relation spaces the
        # dictionary gives an infix `|` or arrow; `\bigm`'s marker gave it a relation's.
        el.set("stretchy", "true")
        el.set("lspace", el.get("lspace", "0em"))
        el.set("rspace", el.get("rspace", "0em"))
    for script in scripted:  # `\Big)^2`, `\bigg\vert_{x=0}`: Chromium stretches no script's
        row = ET.Element("mrow")  # base operator; one alone in a row it sizes (Temml's way)
        row.append(script[0])
        script[0] = row


LINE_TOKENS = frozenset(("mi", "mn", "mtext", "mspace"))
LOW_SCRIPT_TAGS = frozenset(("mi", "mn", "mo", "mrow"))
FENCE_CHARS = OPEN_FENCES | CLOSE_FENCES
SHORT_LETTERS = frozenset("acegmnopqrsuvwxyzαγεηικμνοπρστυχωϵ")
"""Letters without an ascender (or a dot): with an accent they reach as high as `f`."""
LOW_ACCENTS = frozenset("ˆ˜¯˙¨ˇ˘´`")
"""Accents that stay as low as TeX's over a short letter (STIX Two Math's `\\vec` arrow rises
above a parenthesis)."""


def fix_fence_sizes(root: ET.Element) -> None:
    r"""Draw `\left…\right` delimiters at their normal size around one line of symbols.

    TeX takes the first delimiter at least max(2δ·f/1000, 2δ − s) tall, δ being the
    content's reach above or below the math axis (The TeXbook, Appendix G, rule 19;
    plain.tex's `\delimiterfactor` f = 901 and `\delimitershortfall` s = 5pt): letters,
    digits, parentheses, a subscript of letters and an accent over a short letter (δ ≤
    0.54em in Computer Modern) keep the normal size. MathML Core stretches to the whole
    reach with no such margin: Chromium drew `\left(y_j\right)` 1.7em tall,
    `\left(\hat{x}\right)` 1.45em, `\left(f(x)\right)` and `\bra{\psi}` 1.2em, each in a box
    as wide as the widest size (a blank inside the fence). Around such a line the
    delimiters are not stretched; taller content (scripts above, fractions, accents over
    tall letters, large operators, tables) still stretches them.
    """
    for group in [el for el in root.iter("mrow") if is_left_right_group(el)]:
        if all(_on_one_line(kid) for kid in group[1:-1]):
            group[0].set("stretchy", "false")
            group[-1].set("stretchy", "false")


def _on_one_line(el: ET.Element) -> bool:
    r"""Tell whether `el` reaches no farther from the axis than a parenthesis, in TeX: tokens
    of the line, rows of them, a token with a subscript of letters (`y_{ij}`), an accent
    over a letter without an ascender (`\hat{x}`: as high as `f`)."""
    tag = el.tag
    if tag in LINE_TOKENS:  # a `\rule`'s `<mspace>` has a height of its own
        return tag != "mspace" or not ("height" in el.attrib or "depth" in el.attrib)
    if tag == "mo":
        return _plain_operator(el)
    if tag == "mrow":
        return all(_on_one_line(kid) for kid in el)
    if tag == "mover" and len(el) == 2 and (el[1].text or "") in LOW_ACCENTS:  # `\hat{x}`
        base = el[0][0] if el[0].tag == "mrow" and len(el[0]) == 1 else el[0]
        return base.tag == "mi" and (base.text or "") in SHORT_LETTERS
    if tag == "msub" and len(el) == 2 and el[0].tag in LINE_TOKENS:
        script = list(el[1].iter())
        return all(kid.tag in LOW_SCRIPT_TAGS for kid in script) and not any(
            kid.tag == "mo" and (not _plain_operator(kid) or (kid.text or "") in FENCE_CHARS)
            for kid in script
        )
    return False


def _plain_operator(el: ET.Element) -> bool:
    r"""Tell whether `<mo>` `el` is drawn at the line's size: not stretchy, not sized
    (`\big`), not a large operator (`\sum`)."""
    return (
        el.get("stretchy") != "true"
        and "minsize" not in el.attrib
        and symbol_class(el.text or "") != "mathop"
    )


CFRAC = re.compile(r"\\cfrac(?![A-Za-z])\s*(?:\[\s*([lcr])\s*\])?")
"""amsmath's `\\cfrac`, with its optional numerator position `[l]`, `[c]` or `[r]`."""


def rewrite_cfrac(latex: str) -> str:
    r"""Write amsmath's `\cfrac{a}{b}` as its definition, `{\displaystyle\frac{\strut a}{b}}`.

    Each level of a continued fraction is a display-style fraction whose numerator has a
    strut (amsmath.sty), so `\cfrac` inline is as tall as in display math and the nested
    levels are not shrunk. latex2mathml set the parts in text style but the fraction in
    the surrounding style (an inline `\cfrac` took Chromium's smaller inline gaps), and
    read `[l]` as part of the numerator. The position is dropped: MathML Core has no
    `numalign`, so every numerator is centred. The last `\cfrac` is rewritten first, so
    its arguments hold no `\cfrac` left to read.
    """
    while (found := _last_cfrac(latex)) is not None:
        numerator, after = read_group(latex, found.end())
        denominator, end = read_group(latex, after)
        latex = (
            f"{latex[: found.start()]}{{\\displaystyle\\frac{{\\strut {numerator}}}"
            f"{{{denominator}}}}}{latex[end:]}"
        )
    return latex


def _last_cfrac(latex: str) -> re.Match[str] | None:
    """Return the last `\\cfrac` in `latex` (with its option), or None."""
    found = list(CFRAC.finditer(latex))
    return found[-1] if found else None
