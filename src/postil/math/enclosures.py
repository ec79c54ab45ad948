r"""Enclosures, negations and stretchy marks: what MathML Core does not draw by itself.

Chromium draws no `<menclose>` notation and stretches few accents, so postil gives each
construct a form that `static/css/math.css` ("Enclosures, strikes and stretchy marks")
can draw with borders and backgrounds in `currentColor`:

- **Boxes and strikes** (`\boxed`, `\fbox`, `\framebox`, `\cancel`, `\bcancel`,
  `\xcancel`, `\sout`, `\phase`, `\angl`): a `<menclose notation="…">`; the stylesheet draws
  each notation. `\phase`/`\angl` are rewritten to `\boxed` with a `box` marker naming the
  notation (`phasorangle`, `actuarial`, the names of MathML 3's `menclose`).
- **Colour boxes** (`\colorbox`, `\fcolorbox`): an `<mpadded class="colorbox">` with
  `mathbackground` and, for `\fcolorbox`, a border in the frame colour; their argument is
  text, with `$…$` as math inside it (as in LaTeX). MathJax's `\bbox[options]{math}` is an
  `<mpadded class="bbox">` whose options (comma-separated, MathJax's order-free list) are
  a background colour, a padding length (`5px`, `0.3em`), `border:…` and `style:…` CSS
  (border, padding, margin, background and colour properties only: `bbox_css`).
- **Negations** (`\not=`, `\not\in`): the precomposed Unicode character where one exists
  (≠ ∉ ⊄ …, `NEGATED`), else the symbol followed by U+0338 COMBINING LONG SOLIDUS OVERLAY
  (Unicode's way to negate a relation, as in its own decompositions of ≠ and ∉).
- **Wide accents** (`\widehat`, `\widetilde`, `\widecheck`, arrows over and under): the
  accent is an `<mpadded class="wide-…">` over an invisible `<mphantom>` copy of the base, so it is
  exactly as wide as the base; the stylesheet paints the accent's shape into that box. The
  accent's character is there too, in a zero-width `<mo class="wide-glyph">` the stylesheet
  makes transparent, so screen readers and copied text still have it.
- **Braces over and under** (`\overbrace`, `\underbracket`, `\overparen`, `\overgroup`, …):
  painted as the wide accents are, across a box as wide as the base (Chromium draws no
  stretched horizontal brace wider than about 250px: `BRACE_SHAPES`).
- **Extensible arrows** (`\xrightarrow[b]{a}` …): latex2mathml's labels are `<mpadded>`s with
  relative lengths MathML Core ignores; they become plain padding. Chromium stretches no
  arrow of STIX Two Math sideways (a `<mo stretchy="true">→</mo>` over a 5em label stays
  0.95em), so `→ ← ↔ ⇒ ⇐ ⇔ ↦`, the hooks, harpoons, two heads, `=` and the pairs `⇌ ⇋ ⇄`
  become a box as wide as the widest label (at least 1em) that the stylesheet paints as
  shafts and heads (`X_ARROWS`), spaced as a relation; other arrows keep a stretchy `<mo>`.
  `\overrightarrow`, `\overleftarrow`, `\overleftrightarrow`, `\Overrightarrow` and the
  `\under…` arrows are painted wide accents, as wide as the base.
"""

from __future__ import annotations

import copy
import re
import unicodedata
import xml.etree.ElementTree as ET

from latex2mathml.symbols_parser import convert_symbol

from postil.math.alphabets import styled_char
from postil.math.colors import light_dark
from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import MARK, SEP, hide_label, marker, read_marker, unhide_label
from postil.math.symbols import GLYPH_COMMANDS, ORD_CLASSES, glyph_marker, tex_classes
from postil.math.tables import add_style

# `\not X` -> the precomposed negated character (Unicode's "negated" relations).
NEGATED: dict[str, str] = {
    "=": "≠",
    "<": "≮",
    ">": "≯",
    r"\in": "∉",
    r"\ni": "∌",
    r"\owns": "∌",
    r"\subset": "⊄",
    r"\supset": "⊅",
    r"\subseteq": "⊈",
    r"\supseteq": "⊉",
    r"\le": "≰",
    r"\leq": "≰",
    r"\ge": "≱",
    r"\geq": "≱",
    r"\equiv": "≢",
    r"\sim": "≁",
    r"\simeq": "≄",
    r"\approx": "≉",
    r"\cong": "≇",
    r"\asymp": "≭",
    r"\mid": "∤",
    r"\parallel": "∦",
    r"\exists": "∄",
    r"\prec": "⊀",
    r"\succ": "⊁",
    r"\preceq": "⋠",
    r"\succeq": "⋡",
    r"\sqsubseteq": "⋢",
    r"\sqsupseteq": "⋣",
    r"\vdash": "⊬",
    r"\models": "⊭",
    r"\vDash": "⊭",
    r"\Vdash": "⊮",
    r"\lhd": "⋪",
    r"\rhd": "⋫",
    r"\unlhd": "⋬",
    r"\unrhd": "⋭",
    r"\triangleleft": "⋪",
    r"\triangleright": "⋫",
    r"\trianglelefteq": "⋬",
    r"\trianglerighteq": "⋭",
    r"\lesssim": "≴",
    r"\gtrsim": "≵",
    r"\lessgtr": "≸",
    r"\gtrless": "≹",
    r"\leftarrow": "↚",
    r"\rightarrow": "↛",
    r"\to": "↛",
    r"\leftrightarrow": "↮",
    r"\Leftarrow": "⇍",
    r"\Rightarrow": "⇏",
    r"\Leftrightarrow": "⇎",
}
OVERLAY = "\u0338"  # COMBINING LONG SOLIDUS OVERLAY
NOT_SYMBOL = r"\\text\{" + MARK + r"m[a-z]+" + SEP + r"[^{}]+\}|\\[A-Za-z]+|[^\s\\{}]"
# `\not` and the symbol after it, bare (`\not=`) or alone in braces (`\not{=}`, `\not{\in}`:
# KaTeX, MathJax and Temml negate it as they do the bare one; latex2mathml set a slash
# beside the braced symbol, which lost the relation's spacing).
NOT = re.compile(r"\\not(?![A-Za-z])\s*(?:(" + NOT_SYMBOL + r")|\{\s*(" + NOT_SYMBOL + r")\s*\})")
# The commands the `macros` pass has already turned into glyph markers (`\sim` ->
# `\text{⟦mo⟧∼}`, symbols.GLYPH_COMMANDS) by the marker they became: `\not` reads them
# as the command the author wrote.
GLYPH_MARKERS = {glyph_marker(name): "\\" + name for name in GLYPH_COMMANDS}
# Commands rewritten into a `\boxed` with a `box` marker -> the marker's payload (notation).
NOTATIONS = {"phase": "phasorangle", "angl": "actuarial"}
DRAWN_NOTATIONS = (
    "box",
    "updiagonalstrike",
    "downdiagonalstrike",
    "horizontalstrike",
    "phasorangle",
    "actuarial",
)
"""The `<menclose>` notations the stylesheet draws: what MathJax's `\\enclose{…}` may name."""
# Wide accents -> (the `\overset`/`\underset` that holds them, the shape's CSS class).
WIDE_ACCENTS = {
    "widehat": ("overset", "wide-hat"),
    "widetilde": ("overset", "wide-tilde"),
    "widecheck": ("overset", "wide-check"),
    "utilde": ("underset", "wide-tilde"),  # undertilde.sty: `\widetilde` under its base
    "overrightarrow": ("overset", "wide-arrow-right"),
    "overleftarrow": ("overset", "wide-arrow-left"),
    "overleftrightarrow": ("overset", "wide-arrow-both"),
    "Overrightarrow": ("overset", "wide-arrow-right double"),
    "overrightharpoon": ("overset", "wide-harpoon right-up"),
    "overleftharpoon": ("overset", "wide-harpoon left-up"),
    "underrightarrow": ("underset", "wide-arrow-right"),
    "underleftarrow": ("underset", "wide-arrow-left"),
    "underleftrightarrow": ("underset", "wide-arrow-both"),
}
# The character each wide accent stands for (read by screen readers and copied as text).
WIDE_CHARACTERS = {
    "wide-hat": "^",
    "wide-tilde": "~",
    "wide-check": "ˇ",
    "wide-arrow-right": "→",
    "wide-arrow-left": "←",
    "wide-arrow-both": "↔",
    "wide-arrow-right double": "⇒",
    "wide-harpoon right-up": "⇀",
    "wide-harpoon left-up": "↼",
}
# Arrows over and under (`\overrightarrow{AB}`) and extensible arrows (`\xrightarrow{f}`):
# Chromium stretches no arrow of STIX Two Math sideways (`<mo stretchy="true">→</mo>` over a
# 5em label stays 0.95em; measured in Chromium 156), so the stylesheet paints them, a shaft
# and a head, across a box as wide as what they span. Their box: 0.4em, an arrow's height.
ARROW_BOX = {"height": "0.4em", "depth": "0"}
X_ARROW_BOX = {"height": "0.5em", "depth": "0"}  # centred on the math axis, as `\\rightarrow`
X_ARROWS = {
    "→": "wide-arrow-right",
    "←": "wide-arrow-left",
    "↔": "wide-arrow-both",
    "⇒": "wide-arrow-right double",
    "⇐": "wide-arrow-left double",
    "⇔": "wide-arrow-both double",
    "↦": "wide-arrow-right mapsto",
    "↪": "wide-arrow-right hook",
    "↩": "wide-arrow-left hook",
    "⇀": "wide-harpoon right-up",
    "⇁": "wide-harpoon right-down",
    "↼": "wide-harpoon left-up",
    "↽": "wide-harpoon left-down",
    "↠": "wide-arrow-right twohead",
    "↞": "wide-arrow-left twohead",
    "=": "wide-equal",
    "⇌": "wide-harpoons right-left",
    "⇋": "wide-harpoons left-right",
    "⇄": "wide-harpoons to-from",  # `\\xtofrom`: → over ←, each with its full head
}
X_ARROW_MIN = "1em"  # amsmath's `\ext@arrow`: never shorter than `\rightarrow`
BOX_COMMANDS = re.compile(
    r"\\(fbox|framebox|colorbox|fcolorbox|bbox|phase|angln|angl|enclose|"
    + "|".join(WIDE_ACCENTS)
    + r")(?![A-Za-z])"
)
COLOUR = re.compile(r"#?[A-Za-z0-9]+")
CSS_COLOUR = re.compile(r"rgba?\([0-9., /]+\)")
BRACES = frozenset("⏞⏟⎴⎵⏜⏝⏠⏡")  # horizontal braces, brackets, parentheses, shells
FRAME_RULE = "max(1px,0.4pt)"  # \fboxrule
ARROW_LABEL_PAD = "0.3889em"  # amsmath's \ext@arrow: 5mu and 9mu around a label, averaged


def _negate(match: re.Match[str]) -> str:
    """Return the marker of the negated relation `\\not X` (precomposed, or X + U+0338)."""
    symbol = match.group(1) or match.group(2)
    if symbol.startswith("\\text{"):  # a glyph marker: `\not\sim` after the macros pass
        if symbol not in GLYPH_MARKERS:
            return match.group(0)
        symbol = GLYPH_MARKERS[symbol]
        if symbol not in NEGATED:
            return _overlaid(GLYPH_COMMANDS[symbol[1:]][1])
    if symbol in NEGATED:
        return marker("mo", NEGATED[symbol])
    code = convert_symbol(symbol) if symbol.startswith("\\") else None
    if code is None and not symbol.startswith("\\"):
        return _overlaid(symbol)
    if code is None:
        return match.group(0)
    return _overlaid(chr(int(code, 16)))


def _overlaid(char: str) -> str:
    """Return the marker of `char` struck through by U+0338, a token of `char`'s own kind.

    A relation or operator stays an `<mo>`; a letter, digit or other ordinary symbol
    (`\\not a`, Feynman's slash `\\not\\partial`, `\\not{p}`) is an `<mi>`, as MathJax and
    Temml make it, since an `<mo>` spaced it as an operator; a Latin or lowercase Greek
    letter is in its math italic form, as TeX sets it (a two-character `<mi>` is upright:
    mathjax/MathJax#2617).
    """
    if not (char.isalnum() or tex_classes().get(char) in ORD_CLASSES):
        return marker("mo", char + OVERLAY)
    if char.isascii() and char.isalpha() or "GREEK SMALL" in unicodedata.name(char, ""):
        char = styled_char("italic", char)
    return marker("mi", char + OVERLAY)


def _optional(latex: str, pos: int) -> tuple[str, int]:
    """Return the text of one `[…]` optional argument at `pos` ("" without one) and the
    offset after it."""
    after = _skip_optional(latex, pos)
    if after == pos:
        return "", pos
    text = latex[pos:after].strip()
    return text[1:-1], after


def _skip_optional(latex: str, pos: int) -> int:
    """Return the offset after any `[…]` optional arguments at `pos` (`\\framebox[2cm][l]`)."""
    while True:
        rest = latex[pos:].lstrip()
        if not rest.startswith("["):
            return pos
        close = rest.find("]")
        if close < 0:
            return pos
        pos = len(latex) - len(rest) + close + 1


def _enclose(latex: str, start: int, pos: int) -> tuple[str, int]:
    r"""Return MathJax's `\enclose{notations}[attributes]{math}` as a `\boxed` with a `box`
    marker naming its notations, drawn as `\cancel`, `\sout` and `\boxed` are (Mathpix's
    answer in Mathpix/mathpix-markdown-it#353 writes `\enclose{horizontalstrike}{…}`); its
    attributes style MathJax's box and are left out.

    Raises:
        MathUnsupportedError: a notation the stylesheet does not draw (`circle`, `longdiv`).
    """
    notation, pos = read_group(latex, pos)
    _, pos = _optional(latex, pos)
    body, pos = read_group(latex, pos)
    words = notation.replace(",", " ").split()
    missing = [word for word in words if word not in DRAWN_NOTATIONS] or ([] if words else [""])
    if missing:
        raise MathUnsupportedError(
            f"\\enclose{{{notation}}}: postil draws only the notations "
            f"{', '.join(DRAWN_NOTATIONS)}; use one of them, or \\cancel, \\sout or \\boxed",
            start,
            "\\enclose",
        )
    return r"\boxed{" + marker("box", " ".join(words)) + body + "}", pos


def _box(latex: str, match: re.Match[str]) -> tuple[str, int]:
    """Return the rewrite of one box command at `match` and the offset after its arguments."""
    name, pos = match.group(1), match.end()
    if name == "angln":
        return r"\boxed{" + marker("box", "actuarial") + "n}", pos
    if name in WIDE_ACCENTS:
        holder, shape = WIDE_ACCENTS[name]
        base, pos = read_group(latex, pos)
        return rf"\{holder}{{{marker('wide', shape)}}}{{{base}}}", pos
    if name in NOTATIONS:
        body, pos = read_group(latex, pos)
        return r"\boxed{" + marker("box", NOTATIONS[name]) + body + "}", pos
    if name == "enclose":
        return _enclose(latex, match.start(), pos)
    if name == "bbox":
        options, pos = _optional(latex, pos)
        body, pos = read_group(latex, pos)
        return r"\boxed{" + marker("box", "bbox " + hide_label(options)) + body + "}", pos
    if name == "framebox":
        pos = _skip_optional(latex, pos)
    colours = []
    for _ in range({"colorbox": 1, "fcolorbox": 2}.get(name, 0)):
        colour, pos = read_group(latex, pos)
        colours.append(colour.strip())
    text, pos = read_group(latex, pos)
    payload = marker("box", " ".join([name, *map(hide_label, colours)])) if colours else ""
    return r"\boxed{" + payload + r"\text{" + text + "}}", pos


def rewrite_enclosures(latex: str) -> str:
    r"""Rewrite `\not X`, boxes of text, `\phase`, `\angl` and wide accents (module docstring).

    Raises:
        MathSyntaxError: a command is missing its argument (see `macros.read_group`).
    """
    if "\\not" in latex:
        latex = NOT.sub(_negate, latex)
    out, pos = [], 0
    for match in BOX_COMMANDS.finditer(latex):
        if match.start() < pos:
            continue  # inside an argument already rewritten
        out.append(latex[pos : match.start()])
        replacement, pos = _box(latex, match)
        out.append(rewrite_enclosures(replacement))  # a box or accent inside the arguments
    out.append(latex[pos:])
    return "".join(out)


def _first_marker(el: ET.Element, kind: str) -> tuple[ET.Element, ET.Element, str] | None:
    """Find a `kind` marker among the first tokens of `el`: (its parent, it, its payload)."""
    parent = el
    while len(parent):
        first = parent[0]
        found = read_marker(first)
        if found is not None and found[0] == kind:
            return parent, first, found[1]
        parent = first
    return None


def _colour(value: str) -> str | None:
    r"""Return a colour safe to write into a style, or None: a name, `#hex` or CSS's
    `rgb(…)`, `rgba(…)` (`\colorbox{rgba(255,0,0,0.2)}`, which MathJax passes to CSS)."""
    return value if COLOUR.fullmatch(value) or CSS_COLOUR.fullmatch(value) else None


def _fix_box(el: ET.Element) -> None:
    """Apply a `box` marker: a notation for `<menclose>`, or a colour box."""
    found = _first_marker(el, "box")
    if found is None:
        return
    parent, mark, payload = found
    parent.remove(mark)
    words = payload.split()
    if words[0] == "bbox":
        el.tag, el.attrib = "mpadded", {"class": "bbox"}
        _bbox_options(el, unhide_label(words[1]) if len(words) > 1 else "")
        return
    if words[0] not in ("colorbox", "fcolorbox"):
        el.set("notation", payload)
        return
    el.tag = "mpadded"
    el.attrib.clear()
    el.set("class", "colorbox")
    words = re.split(r"\s", payload)  # an empty colour (`\colorbox{}{x}`) stays a word
    words = [words[0], *(unhide_label(word).strip() for word in words[1:])]  # `hide_label`ed
    background = _colour(words[-1]) if len(words) > 1 else None
    if background:
        el.set("mathbackground", background)
    frame = _colour(words[1]) if len(words) == 3 else None
    if frame:
        add_style(el, f"border:{FRAME_RULE} solid {light_dark(frame)}")


BBOX_PROPERTIES = re.compile(
    r"(?:border|padding|margin|background|background-color|color|border-radius)"
    r"(?:-(?:top|right|bottom|left|width|style|color))*\Z"
)
"""CSS properties a `\bbox` option may set (`style:` and `border:`)."""

CSS_VALUE = re.compile(r"[\w\s#.%,-]+\Z")
"""A CSS value without parentheses, quotes, backslashes or `;` (nothing it could load)."""

LENGTH = re.compile(r"\d*\.?\d+(?:px|pt|em|ex|mm|cm|in)\Z")


def bbox_css(options: str) -> tuple[str | None, list[str]]:
    """Return the background colour and the CSS declarations of `\bbox`'s options.

    MathJax's options, comma-separated in any order: a colour (the background), a length
    (the padding on every side), `border:CSS` and `style:CSS`. Declarations whose property
    is not a box or colour property (`BBOX_PROPERTIES`) or whose value is not plain
    (`CSS_VALUE`) are left out, so a post cannot load anything through one.
    """
    background, rules = None, []
    for option in (o.strip() for o in options.split(",")):
        key, colon, value = option.partition(":")
        if colon and key.strip().lower() in ("border", "style"):
            css = f"border:{value}" if key.strip().lower() == "border" else value
            rules += [r for r in _declarations(css) if r]
        elif LENGTH.match(option):
            rules.append(f"padding:{option}")
        elif _colour(option):
            background = option
    return background, rules


def _declarations(css: str) -> list[str]:
    """Return the safe `property:value` declarations of a CSS text (see `bbox_css`)."""
    kept = []
    for declaration in css.split(";"):
        name, colon, value = declaration.partition(":")
        name, value = name.strip().lower(), value.strip()
        if colon and BBOX_PROPERTIES.match(name) and CSS_VALUE.match(value):
            kept.append(f"{name}:{value}")
    return kept


def _bbox_options(el: ET.Element, options: str) -> None:
    """Give a `\bbox`'s `<mpadded>` its background and CSS (`bbox_css`)."""
    background, rules = bbox_css(options)
    if background:
        el.set("mathbackground", background)
    for rule in rules:
        add_style(el, rule)


def _fix_wide_accent(el: ET.Element) -> None:
    """Replace a `wide` marker script by a box as wide as the base, for CSS to paint."""
    if len(el) != 2:
        return
    found = read_marker(el[1]) or (read_marker(el[1][0]) if len(el[1]) == 1 else None)
    if found is None or found[0] != "wide":
        return
    shape = found[1].replace("\u00a0", " ")  # latex2mathml's `\text` has no plain spaces
    size = {"height": "0.3em", "depth": "0"}
    if el.tag == "munder":  # `\utilde`
        size = {"height": "0", "depth": "0.3em"}
    if shape.startswith(("wide-arrow", "wide-harpoon")):
        tall = "0.5em" if "double" in shape else ARROW_BOX["height"]  # its wider head
        size = (
            {"height": tall, "depth": "0"} if el.tag == "mover" else {"height": "0", "depth": tall}
        )
    _paint_script(el, shape, WIDE_CHARACTERS[shape], size)


# `\overline`, `\underline`: latex2mathml's `<mo>―</mo>` does not stretch, so a rule over a
# wide base fell short. A box as wide as the base with a border is TeX's rule: `θ` thick
# (0.04em), 3θ from the base (The TeXbook, Appendix G, rules 9 and 10).
RULES = {
    "mover": ("rule-over", "‾", {"height": "0.12em", "depth": "0"}),
    "munder": ("rule-under", "_", {"height": "0", "depth": "0.12em"}),
}


def _fix_rule(el: ET.Element) -> None:
    """Replace `\\overline`'s or `\\underline`'s `―` by a rule exactly as wide as its base."""
    script = el[1] if len(el) == 2 else None
    if script is None or script.tag != "mo" or (script.text or "") != "―":
        return
    shape, char, size = RULES[el.tag]
    _paint_script(el, shape, char, size)


def _paint_script(
    el: ET.Element, shape: str, char: str, size: dict[str, str], least: str | None = None
) -> None:
    """Make `el`'s script a box as wide as its base (an `<mphantom>` copy), of class `shape`
    for the stylesheet to paint, holding `char` in a zero-width transparent `<mo>` for
    screen readers and copied text. With `least` (a length), the box is at least that wide
    (the phantom stacks the base over an `<mspace>`), and the base is centred over it."""
    box = ET.Element("mpadded", {"class": shape, **size})
    glyph = ET.SubElement(box, "mpadded", {"width": "0", "height": "0", "depth": "0"})
    # As an embellished operator the zero-width box would still get the character's spaces.
    attrs = {"class": "wide-glyph", "stretchy": "false", "lspace": "0em", "rspace": "0em"}
    ET.SubElement(glyph, "mo", attrs).text = char
    phantom = ET.SubElement(box, "mphantom")
    if least is not None:
        phantom = ET.SubElement(phantom, "mover", {"accent": "true"})  # no script size
    phantom.append(copy.deepcopy(el[0]))
    if least is not None:
        ET.SubElement(phantom, "mspace", {"width": least})
    el.remove(el[1])
    el.append(box)
    el.attrib.pop("accent", None)
    el.set("accent" if el.tag == "mover" else "accentunder", "true")


# The accents TeX sets at one fixed size (`\hat`, `\tilde`, `\check`, `\breve`, `\acute`,
# `\grave`, `\dot`, `\ddot`, `\mathring`) -> the spacing accent character of that size:
# latex2mathml writes `\hat`'s and `\tilde`'s as ASCII `^` and `~`, which fonts draw wide
# (Chromium even stretched the caret over `\hat{f}` like `\widehat`).
FIXED_ACCENTS = {"^": "ˆ", "~": "˜", **{c: c for c in "ˆ˜ˇ˘´`˙¨˚"}}


def _fix_accent(el: ET.Element) -> None:
    """Set a fixed-size accent over a base at text size, never stretched (TeX's `\\accent`).

    Chromium sets an over-script one size smaller; TeX's accent is the base's size
    (`math-depth:0`, as Temml writes it). The mover stays an over-script: as
    `accent="true"` Chromium lowers the spacing accents onto the letter.
    """
    script = el[1] if el.tag == "mover" and len(el) == 2 else None
    if script is None or script.tag != "mo" or "class" in script.attrib:
        return
    if script.text == "→":  # `\vec`: TeX's fixed vector accent, never as wide as `\vec{AB}`
        script.set("stretchy", "false")  # (`\overrightarrow` is painted: `_fix_wide_accent`)
        return
    char = FIXED_ACCENTS.get(script.text or "")
    if char is not None:
        script.text = char
        script.set("stretchy", "false")
        add_style(script, "math-depth:0")
        el.attrib.pop("accent", None)


# `\llap`, `\mathllap` and `\clap`, `\mathclap`: latex2mathml writes MathML 3's pseudo-unit
# (`lspace="-1width"`), which MathML Core and Chromium drop, so the overlap went right.
LAP_CLASSES = {"-1width": "llap", "-0.5width": "clap"}


def _fix_lap(el: ET.Element) -> None:
    """Make a left or centred overlap a zero-width box the stylesheet hangs its content from.

    The box holds an `<mphantom>` copy of the content (its height and depth, no ink) and the
    content itself, which `math.css` positions out of the flow: ending at the box
    (`.llap`) or centred on it (`.clap`), as TeX's `\\hss` boxes put it.
    """
    kind = LAP_CLASSES.get(el.get("lspace", ""))
    if kind is None or el.get("width") not in ("0", "0px"):
        return
    content = list(el)
    for child in content:
        el.remove(child)
    el.attrib.clear()
    el.attrib.update({"width": "0", "class": kind})
    phantom = ET.SubElement(ET.SubElement(el, "mpadded", {"width": "0"}), "mphantom")
    phantom.extend(copy.deepcopy(content))
    ET.SubElement(el, "mrow", {"class": "lap"}).extend(content)


# Over/under shapes latex2mathml writes as text (`<mtext>⏠</mtext>` for `\overgroup`).
STRETCHED_TEXT = {"⏠": "⏠", "⏡": "⏡"}
# Braces, brackets, parentheses and groups over and under a base: Chromium draws a stretched
# horizontal one no wider than about 250 CSS px whatever the font and its size (a glyph
# assembly of STIX Two Math or DejaVu Math, measured in Chromium 156), so `\underbrace` of a
# long term was a brace under its middle only. The stylesheet paints each (ends, tip, and
# shafts between them) across a box as wide as the base (`_paint_script`); the box holds
# TeX's gap (0.2em) and the shape (0.3em), plain.tex's `\overbrace` kerns and brace.
BRACE_SHAPES = {
    "⏞": "wide-brace over",
    "⏟": "wide-brace under",
    "⎴": "wide-bracket over",
    "⎵": "wide-bracket under",
    "⏜": "wide-paren over",
    "⏝": "wide-paren under",
    "⏠": "wide-group over",
    "⏡": "wide-group under",
}
BRACE_BOX = {
    "mover": {"height": "0.5em", "depth": "0"},
    "munder": {"height": "0", "depth": "0.5em"},
}
BRACE_LEAST = "0.9em"  # its two ends and tip, 0.3em each: under one letter it overhangs it
# `\overbrace` and `\underbrace`, and mathtools' `\overbracket`, `\underbracket`, are
# operators with limits: `^`/`_` go above/below the brace, not beside it.
LIMIT_BRACES = frozenset("⏞⏟⎴⎵")


def _fix_brace(el: ET.Element) -> None:
    """Make a brace, bracket, parenthesis or group shape over/under a base (`\\overbrace`,
    `\\underbracket`, `\\overparen`, `\\overgroup`) a box as wide as the base, for the
    stylesheet to paint (`BRACE_SHAPES`)."""
    script = el[1] if len(el) == 2 and el.tag in BRACE_BOX else None
    if script is not None and script.tag == "mrow" and len(script) == 1:
        text = script[0]
        if text.tag == "mtext" and (text.text or "") in STRETCHED_TEXT:
            el.remove(script)
            script = ET.SubElement(el, "mo")
            script.text = STRETCHED_TEXT[text.text or ""]
    if script is not None and script.tag == "mo" and (script.text or "") in BRACES:
        char = script.text or ""
        _paint_script(el, BRACE_SHAPES[char], char, BRACE_BOX[el.tag], BRACE_LEAST)


def _brace_limits(el: ET.Element) -> None:
    """Set `\\overbracket{x}^{n}` as `\\overbrace{x}^{n}` is: the label above the bracket."""
    base = el[0] if len(el) == 2 else None
    wanted = {"msup": "mover", "msub": "munder"}.get(el.tag)
    if base is None or wanted is None or base.tag != wanted or len(base) != 2:
        return
    if base[1].tag == "mo" and (base[1].text or "") in LIMIT_BRACES:
        el.tag = wanted


def _fix_arrow(el: ET.Element) -> None:
    """Make an extensible arrow's `<mo>` stretch and its labels plain padded rows."""
    base = el[0] if len(el) else None
    if base is None or base.tag != "mstyle" or len(base) != 1 or base[0].tag != "mo":
        return
    labels = [c for c in el[1:] if c.tag == "mpadded" and c.get("width", "").startswith("+")]
    if not labels:
        return
    arrow = base[0]
    el.remove(base)
    el.insert(0, arrow)
    arrow.set("stretchy", "true")
    for label in labels:
        label.attrib.clear()
        add_style(label, f"padding:0 {ARROW_LABEL_PAD}")
        for space in [c for c in label if c.tag == "mspace" and "depth" in c.attrib]:
            label.remove(space)
    shape = X_ARROWS.get(arrow.text or "")
    if shape is not None:
        _paint_arrow(el, arrow, shape)


def _paint_arrow(el: ET.Element, arrow: ET.Element, shape: str) -> None:
    """Replace an extensible arrow's `<mo>` by a box as wide as its widest label (at least
    `X_ARROW_MIN`), of class `shape` for the stylesheet to paint (`ARROW_BOX`).

    The box holds the arrow's `<mo>` at zero width, transparent (screen readers and copied
    text keep it). The box is no embellished operator (its phantom is not space-like), so
    the stylesheet gives the arrow with its labels a relation's thick spaces (5mu) as a
    margin, as amsmath's `\\mathrel`.
    """
    box = ET.Element("mpadded", {"class": shape, **X_ARROW_BOX})
    glyph = ET.SubElement(box, "mpadded", {"width": "0", "height": "0", "depth": "0"})
    arrow.attrib.clear()  # as an embellished operator it would still get its spaces
    arrow.attrib.update({"class": "wide-glyph", "stretchy": "false", "lspace": "0em"})
    arrow.set("rspace", "0em")
    glyph.append(arrow)
    stack = ET.SubElement(ET.SubElement(box, "mphantom"), el.tag)
    ET.SubElement(stack, "mspace", {"width": X_ARROW_MIN})
    for label in el[1:]:
        stack.append(copy.deepcopy(label))
    el.remove(arrow)
    el.insert(0, box)
    el.set("class", "x-arrow")  # math.css: a relation's thick spaces around it


def fix_enclosures(root: ET.Element) -> None:
    """Apply the tree side of this module to every element under `root` (module docstring)."""
    for el in list(root.iter()):
        tag = el.tag
        if tag == "menclose":
            _fix_box(el)
        elif tag == "mpadded":
            _fix_lap(el)
        elif tag in ("msup", "msub"):
            _brace_limits(el)
        elif tag in ("mover", "munder", "munderover"):
            _fix_wide_accent(el)
            _fix_rule(el)
            _fix_accent(el)
            _fix_brace(el)
            _fix_arrow(el)
