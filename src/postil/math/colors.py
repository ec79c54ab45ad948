r"""Colours as MathJax's `color` extension and LaTeX's xcolor read them.

latex2mathml writes a colour argument into `mathcolor`/`mathbackground` as it is written,
which a browser reads as CSS. That is right for CSS names (`red`) and `#hex`, and wrong for
the rest of what the posts written for MathJax use:

- **dvips names** (`\color{OliveGreen}`, `\textcolor{BrickRed}{…}`): MathJax's colour
  extension knows xcolor's 68 `dvipsnames` (`DVIPS_NAMES`); CSS knows none of them (or, for
  `Red`, `Blue`, `Green`…, another shade), so the formula was drawn black or in the wrong
  colour;
- **a colour model** (`\color[RGB]{230,29,0}`, `\textcolor[rgb]{0,0.5,1}{x}`): the `[`
  became the colour and the model's letters and numbers were drawn as math;
- **`\definecolor{name}{model}{spec}`** (xcolor; MathJax's extension has it): a post names
  its colours once, often in a hidden macro preamble, and uses the names in later formulas.
  It is a definition like `\newcommand` (`postil.math.macros.extract_definitions` takes it
  out and keeps it under `color_key(name)`, so it holds for the rest of the post as macros
  do); `rewrite_colors` writes each use as the CSS colour it names.

- **xcolor's colour expressions** (`\color{red!80}`, `\colorbox{blue!10}{…}`,
  `\textcolor{red!60!black}{…}`, `-red`): LaTeX habits MathJax passes to CSS, which draws
  nothing for them (the formula came out black); KaTeX and Temml reject them.
  `xcolor_expression` mixes them as xcolor does.

A name neither defined nor a dvips name is left as written, as MathJax passes it to CSS
(`red`, `#f80`, `teal`); `postil.math.enclosures` drops a box colour that is no CSS word.

Last, **both colour schemes**: the theme has a light and a dark page, and a colour the
author chose for one is often unreadable on the other (`\color{black}` and `\color{navy}`
vanish on the dark page, `\color{cyan}` and `\colorbox{yellow}` on the light one or under
the dark page's light text). `scheme_colors` keeps every colour that is readable and moves
the rest in lightness only (`readable`), per scheme, through CSS `light-dark()`.
Models: `rgb` and `gray` (0–1), `RGB` (0–255), `HTML` (six hex digits), `cmyk` (0–1, xcolor's
conversion) and `named`; MathJax has the first three and `named`, xcolor all of them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from functools import cache

from postil.math.errors import MathSyntaxError, MathUnsupportedError
from postil.math.texreader import TexReader

DVIPS_NAMES = {
    "Apricot": "#FBB982",
    "Aquamarine": "#00B5BE",
    "Bittersweet": "#C04F17",
    "Black": "#221E1F",
    "Blue": "#2D2F92",
    "BlueGreen": "#00B3B8",
    "BlueViolet": "#473992",
    "BrickRed": "#B6321C",
    "Brown": "#792500",
    "BurntOrange": "#F7921D",
    "CadetBlue": "#74729A",
    "CarnationPink": "#F282B4",
    "Cerulean": "#00A2E3",
    "CornflowerBlue": "#41B0E4",
    "Cyan": "#00AEEF",
    "Dandelion": "#FDBC42",
    "DarkOrchid": "#A4538A",
    "Emerald": "#00A99D",
    "ForestGreen": "#009B55",
    "Fuchsia": "#8C368C",
    "Goldenrod": "#FFDF42",
    "Gray": "#949698",
    "Green": "#00A64F",
    "GreenYellow": "#DFE674",
    "JungleGreen": "#00A99A",
    "Lavender": "#F49EC4",
    "LimeGreen": "#8DC73E",
    "Magenta": "#EC008C",
    "Mahogany": "#A9341F",
    "Maroon": "#AF3235",
    "Melon": "#F89E7B",
    "MidnightBlue": "#006795",
    "Mulberry": "#A93C93",
    "NavyBlue": "#006EB8",
    "OliveGreen": "#3C8031",
    "Orange": "#F58137",
    "OrangeRed": "#ED135A",
    "Orchid": "#AF72B0",
    "Peach": "#F7965A",
    "Periwinkle": "#7977B8",
    "PineGreen": "#008B72",
    "Plum": "#92268F",
    "ProcessBlue": "#00B0F0",
    "Purple": "#99479B",
    "RawSienna": "#974006",
    "Red": "#ED1B23",
    "RedOrange": "#F26035",
    "RedViolet": "#A1246B",
    "Rhodamine": "#EF559F",
    "RoyalBlue": "#0071BC",
    "RoyalPurple": "#613F99",
    "RubineRed": "#ED017D",
    "Salmon": "#F69289",
    "SeaGreen": "#3FBC9D",
    "Sepia": "#671800",
    "SkyBlue": "#46C5DD",
    "SpringGreen": "#C6DC67",
    "Tan": "#DA9D76",
    "TealBlue": "#00AEB3",
    "Thistle": "#D883B7",
    "Turquoise": "#00B4CE",
    "Violet": "#58429B",
    "VioletRed": "#EF58A0",
    "White": "#FFFFFF",
    "WildStrawberry": "#EE2967",
    "Yellow": "#FFF200",
    "YellowGreen": "#98CC70",
    "YellowOrange": "#FAA21A",
}
"""xcolor's `dvipsnames` (dvipsnam.def's CMYK colours) in sRGB, as MathJax's colour
extension draws them (mathjax/MathJax-src, `ts/input/tex/color/ColorConstants.ts`). Case
matters, as in TeX: `Red` is this red, `red` CSS's."""

XCOLOR_BASE = {
    "red": (1, 0, 0),
    "green": (0, 1, 0),
    "blue": (0, 0, 1),
    "cyan": (0, 1, 1),
    "magenta": (1, 0, 1),
    "yellow": (1, 1, 0),
    "black": (0, 0, 0),
    "white": (1, 1, 1),
    "gray": (0.5, 0.5, 0.5),
    "darkgray": (0.25, 0.25, 0.25),
    "lightgray": (0.75, 0.75, 0.75),
    "brown": (0.75, 0.5, 0.25),
    "lime": (0.75, 1, 0),
    "olive": (0.5, 0.5, 0),
    "orange": (1, 0.5, 0),
    "pink": (1, 0.75, 0.75),
    "purple": (0.75, 0, 0.25),
    "teal": (0, 0.5, 0.5),
    "violet": (0.5, 0, 0.5),
}
"""xcolor's 19 base colours, always available in LaTeX (xcolor.sty's `rgb` definitions; the
xcolor manual's table of base colours). A colour expression mixes these, as LaTeX prints it:
xcolor's `green` is pure green, CSS's is half as bright."""

COLOR_COMMANDS = re.compile(r"\\(color|textcolor|colorbox|fcolorbox)(?![A-Za-z])")
r"""The commands whose first argument (two for `\fcolorbox`) is a colour."""

DECIMAL = re.compile(r"\d+(?:\.\d*)?|\.\d+")
HEX6 = re.compile(r"[0-9A-Fa-f]{6}")


def color_key(name: str) -> str:
    r"""Return the key a `\definecolor`d colour is kept under among a formula's macros:
    `color{name}`, which no macro call can name (a control sequence is letters or one
    character), as `\newenvironment`'s `begin{name}` is kept."""
    return f"color{{{name}}}"


def model_color(model: str, spec: str, colors: Mapping[str, str]) -> str:
    """Return the CSS colour `#RRGGBB` that `spec` gives in the xcolor `model`.

    Args:
        model: `rgb`, `RGB`, `gray`, `HTML`, `cmyk` or `named` (module doc); "" is `named`.
        spec: the model's values, comma-separated (`0.5,0,1`, `128,0,255`, `FF8000`).
        colors: the macros in force, which hold the post's `\\definecolor`s (`color_key`).

    Raises:
        ValueError: an unknown model, or values the model does not take (the message says
            what it takes).
    """
    spec = spec.strip()
    if model in ("", "named"):
        return color_by_name(spec, colors)
    parts = [part.strip() for part in spec.split(",")]
    if model in ("rgb", "RGB", "cmyk"):
        wanted = 4 if model == "cmyk" else 3
        if len(parts) != wanted:
            raise ValueError(f"the {model} model takes {wanted} values separated by commas")
    if model == "RGB":
        if not all(p.isdigit() and int(p) <= 255 for p in parts):
            raise ValueError("the RGB model takes whole numbers from 0 to 255")
        return "#" + "".join(f"{int(p):02X}" for p in parts)
    if model == "HTML":
        if not HEX6.fullmatch(spec):
            raise ValueError("the HTML model takes six hexadecimal digits (FF8000)")
        return "#" + spec.upper()
    if model not in ("rgb", "gray", "cmyk"):
        raise ValueError(f"unknown colour model `{model}`: use rgb, RGB, gray, HTML, cmyk or named")
    if model == "gray" and len(parts) != 1:
        raise ValueError("the gray model takes one value from 0 to 1")
    if not all(DECIMAL.fullmatch(p) and float(p) <= 1 for p in parts):
        raise ValueError(f"the {model} model takes decimal numbers from 0 to 1")
    values = [float(p) for p in parts]
    if model == "gray":
        values *= 3
    elif model == "cmyk":  # xcolor's conversion: 1 - min(1, c + k), and so on
        *cmy, black = values
        values = [1 - min(1.0, v + black) for v in cmy]
    # MathJax's rounding (floor(n × 255)), which the posts were drawn with.
    return "#" + "".join(f"{int(v * 255):02X}" for v in values)


def color_by_name(name: str, colors: Mapping[str, str]) -> str:
    """Return the CSS colour of a colour name: the post's `\\definecolor`, else a dvips name
    (`DVIPS_NAMES`), else six hex digits as `#` and the digits (KaTeX's `parseColorGroup`
    reads `\\colorbox{e0e0e0}` in xcolor's HTML model; CSS draws nothing for `e0e0e0`),
    else the name as written (CSS reads `red`, `#f80`, `teal`). A colour defined by name
    (`\\definecolor{accent}{named}{BrickRed}`) is followed to what it names."""
    for _ in range(8):  # a chain of names, never a loop
        defined = colors.get(color_key(name))
        if defined is None or defined == name:
            break
        name = defined
    if name in DVIPS_NAMES:
        return DVIPS_NAMES[name]
    if "!" in name or ">" in name or name.startswith("-"):
        return xcolor_expression(name, colors)
    return "#" + name if HEX6.fullmatch(name) else name


EXPRESSION = re.compile(
    r"(-*)([A-Za-z][\w.]*)((?:!\s*\d*\.?\d+\s*!\s*[A-Za-z][\w.]*)*)(?:!\s*(\d*\.?\d+))?"
)
"""xcolor's standard colour expression: a prefix of `-`s, a colour, then `!percent!colour`
mixes, and a last `!percent` that mixes with white (the xcolor manual, "Color expressions")."""


def xcolor_expression(expression: str, colors: Mapping[str, str]) -> str:
    r"""Return the `#RRGGBB` of an xcolor colour expression, mixed as xcolor mixes.

    `red!80` is 80 % red and 20 % white; `red!60!black` 60 % red and 40 % black; each further
    `!p!c` mixes the result so far with `c`; each leading `-` takes the complement (1 - each
    RGB value). Percentages above 100 count as 100. Names are the post's `\definecolor`s,
    xcolor's base colours (`XCOLOR_BASE`), dvips names and CSS's colour names, in that order.

    Raises:
        MathUnsupportedError: an expression of another form (xcolor's `!!` colour series,
            `>` functions) or a name none of those knows.
    """
    match = EXPRESSION.fullmatch(expression.strip())
    if match is None:
        raise MathUnsupportedError(
            f"colour expression `{expression}` is not supported: write one such as red!80 "
            "or red!60!black, a colour name, or #RRGGBB",
            0,
            expression,
        )
    prefix, first, mixes, last = match.groups()
    rgb = _rgb(first, colors)
    for percent, name in re.findall(r"!\s*(\d*\.?\d+)\s*!\s*([A-Za-z][\w.]*)", mixes):
        rgb = _mix(rgb, _rgb(name, colors), float(percent))
    if last is not None:
        rgb = _mix(rgb, (1, 1, 1), float(last))
    if len(prefix) % 2:
        rgb = tuple(1 - value for value in rgb)
    return "#" + "".join(f"{round(value * 255):02X}" for value in rgb)


def _mix(one: tuple[float, ...], other: tuple[float, ...], percent: float) -> tuple[float, ...]:
    """Return `percent` % of `one` and the rest of `other`, value by value (xcolor's mix)."""
    share = min(percent, 100.0) / 100
    return tuple(share * a + (1 - share) * b for a, b in zip(one, other, strict=True))


def _rgb(name: str, colors: Mapping[str, str]) -> tuple[float, ...]:
    """Return the 0–1 RGB values of a colour name in an xcolor expression (`xcolor_expression`)."""
    defined = colors.get(color_key(name))
    if defined is not None and defined != name:
        name = color_by_name(defined, colors)
    elif name in XCOLOR_BASE:
        return XCOLOR_BASE[name]
    elif name in DVIPS_NAMES:
        name = DVIPS_NAMES[name]
    parsed = _css_color(name)
    if parsed is None:
        raise MathUnsupportedError(
            f"unknown colour `{name}` in a colour expression: use xcolor's base colours, "
            "a dvips or CSS colour name, or \\definecolor it first",
            0,
            name,
        )
    return parsed


@cache
def _css_color(css: str) -> tuple[float, float, float] | None:
    """Return the sRGB values (0–1) of a CSS colour (`navy`, `#f80`, `#FF8000`), or None."""
    from coloraide import Color  # a post without colours does not load it (60 ms)

    try:
        red, green, blue = Color(css).convert("srgb").clip()[:3]
    except ValueError:
        return None
    return (red, green, blue)


def read_definecolor(
    latex: str, start: int, pos: int, colors: Mapping[str, str]
) -> tuple[str, str, int]:
    r"""Read `\definecolor{name}{model}{spec}`, whose name ends at `pos`.

    Returns:
        (`color_key(name)`, the CSS colour, the offset after the definition).

    Raises:
        MathSyntaxError: an argument is missing, or the model or its values are wrong (at
            the command).
    """
    reader = TexReader(latex, start, pos, "\\definecolor")
    how = r"\definecolor{name}{model}{values}, e.g. \definecolor{accent}{RGB}{230,29,0}"
    name, model, spec = (reader.braced(how).strip() for _ in range(3))
    try:
        css = model_color(model, spec, colors)
    except ValueError as exc:
        raise MathSyntaxError(f"\\definecolor{{{name}}}: {exc}", start, "\\definecolor") from None
    return color_key(name), css, reader.pos


def rewrite_colors(latex: str, colors: Mapping[str, str]) -> str:
    r"""Write the colour arguments of `\color`, `\textcolor`, `\colorbox` and `\fcolorbox`
    as the CSS colours they name, their `[model]` taken out (module doc).

    Args:
        latex: the formula, its macros expanded.
        colors: the macros in force (`\definecolor`s are among them: `color_key`).

    Raises:
        MathSyntaxError: a model or its values are wrong, at the command.
        MathUnsupportedError: a colour expression postil cannot mix (`xcolor_expression`).
    """
    if "color" not in latex:
        return latex
    out, pos = [], 0
    for match in COLOR_COMMANDS.finditer(latex):
        if match.start() < pos:
            continue
        out.append(latex[pos : match.end()])
        pos = match.end()
        reader = TexReader(latex, match.start(), pos, "\\" + match.group(1))
        for _ in range(2 if match.group(1) == "fcolorbox" else 1):
            model = reader.optional()
            spec = reader.group()
            if spec is None:  # `\color red`, or a missing argument the checks report
                break
            try:
                css = model_color((model or "").strip(), spec, colors)
            except MathUnsupportedError as exc:  # an expression postil cannot mix
                raise MathUnsupportedError(
                    f"{reader.name}: {exc.message}", match.start(), reader.name
                ) from None
            except ValueError as exc:
                raise MathSyntaxError(f"{reader.name}: {exc}", match.start(), reader.name) from None
            written = spec.strip() if model is None else None
            out.append("{" + (spec if css == written else css) + "}")
            pos = reader.pos
    out.append(latex[pos:])
    return "".join(out)


PAGE_BACKGROUND = {"light": "#fffdf8", "dark": "#171614"}
"""The theme's page background in each colour scheme (`--bg` in static/css/base.css; a test
checks they agree)."""
PAGE_TEXT = {"light": "#1f1d1a", "dark": "#e8e4dc"}
"""The theme's text colour in each scheme (`--fg` in static/css/base.css)."""
MINIMUM_CONTRAST = 3.0
"""The contrast ratio below which a colour is moved: WCAG 2's minimum for large text and for
graphics (success criteria 1.4.3 and 1.4.11). A higher bar would move common choices (pure
`red` on the light page is 3.95:1)."""
MOVED_CONTRAST = 4.5
"""The contrast ratio a moved colour is given: WCAG 2's AA minimum for body text (1.4.3), so
what was unreadable becomes comfortably readable, not just barely."""


def scheme_colors(root: ET.Element) -> None:
    """Give each colour of a formula a readable value in the light and the dark scheme.

    A `mathcolor` is checked against what it is drawn on: the page's background in each
    scheme, or the nearest `mathbackground` box. One that reaches `MINIMUM_CONTRAST` is
    kept as the author wrote it; one that does not is moved in lightness only (`readable`).
    A box keeps the author's colour (it may name a figure's series); where the scheme's text
    colour is unreadable on it (the dark page's light text on `\\colorbox{yellow}`), the
    box's text takes the other scheme's text colour, as a highlighter's ink stays dark.

    Where a scheme needs another colour the element gets an inline `color` of CSS's
    `light-dark(light, dark)`, which follows the page's `color-scheme` (set by the theme
    and by its light/dark switch); `mathcolor` and `mathbackground` stay for readers that
    drop styles (feeds), written as MathML 3 allows (`_valid_attribute`).
    """
    light, dark = PAGE_BACKGROUND["light"], PAGE_BACKGROUND["dark"]
    for el, backgrounds in _with_backgrounds(root, (light, dark)):
        colour = _valid_attribute(el, "mathcolor", "color")
        if colour and _opaque(colour):
            pair = (readable(colour, backgrounds[0]), readable(colour, backgrounds[1]))
            if pair != (colour, colour):
                _set_style(el, "color", _scheme_value(*pair))
        box = _valid_attribute(el, "mathbackground", "background-color")
        if box and not colour and _opaque(box):
            text = (_box_text(box, "light"), _box_text(box, "dark"))
            if text != ("currentcolor", "currentcolor"):
                _set_style(el, "color", _scheme_value(*text))


HTML_COLOR_NAMES = frozenset(
    "aqua black blue fuchsia gray green lime maroon navy olive purple red silver teal white "
    "yellow".split()
)
"""The colour names MathML 3 allows in `mathcolor` and `mathbackground` (its "html-color-name",
section 2.1.5.2); any other is written `#RRGGBB`."""

HEX_COLOR = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
"""A colour value MathML 3 allows besides the names: `#rgb` or `#rrggbb`."""


def _valid_attribute(el: ET.Element, name: str, css_property: str) -> str | None:
    r"""Return the colour attribute `name` of `el` (None if it has none), first rewritten to
    a value MathML 3 allows (its `mathcolor` is `#rgb`, `#rrggbb` or an HTML 4 name, as the
    Nu Html Checker requires; MathML Core takes any CSS colour):

    - a name outside `HTML_COLOR_NAMES` (`cyan`, `orange`) or another CSS form (`rgb(…)`)
      is written `#RRGGBB`, the same colour;
    - a colour with transparency has no MathML 3 form: a transparent `\color` (LaTeX's
      `\color{transparent}` hides what it colours and keeps its space) puts the content in an
      `<mphantom>`, which hides it in feeds too, unless something inside has a colour of its
      own; a transparent background is no background; any other goes to the inline style's
      `css_property`;
    - a word CSS does not know (`\color{notacolour}`), which browsers ignore as MathJax
      does, is dropped.
    """
    value = el.get(name)
    if value == "" or (value is not None and not value.strip()):  # `\color{}`: no colour
        del el.attrib[name]
        return None
    if not value or value.lower() in HTML_COLOR_NAMES or HEX_COLOR.fullmatch(value):
        return value
    hex_value = _hex(value)
    if hex_value is not None:
        el.set(name, hex_value)
        return hex_value
    del el.attrib[name]
    alpha = _alpha(value)
    if alpha is None or (alpha == 0 and name == "mathbackground"):
        return None
    if alpha == 0 and not any(inner.get("mathcolor") for inner in el.iter() if inner is not el):
        phantom = ET.Element("mphantom")
        phantom[:] = list(el)
        el[:] = [phantom]
    else:
        _set_style(el, css_property, value)
    return None


@cache
def _alpha(css: str) -> float | None:
    """Return the opacity of a CSS colour (0 to 1), or None when CSS does not know it."""
    from coloraide import Color

    try:
        return float(Color(css).alpha())
    except ValueError:
        return None


@cache
def _hex(css: str) -> str | None:
    """Return an opaque CSS colour as `#RRGGBB`, or None (not a colour, or not opaque)."""
    if not _opaque(css):
        return None
    from coloraide import Color

    return Color(css).convert("srgb").fit("srgb").to_string(hex=True, upper=True)


def _with_backgrounds(
    root: ET.Element, backgrounds: tuple[str, str]
) -> Iterator[tuple[ET.Element, tuple[str, str]]]:
    """Yield each element below `root` with the (light, dark) background it is drawn on: the
    page's, or the nearest enclosing `mathbackground` box's own."""
    for el in root:
        yield el, backgrounds
        box = el.get("mathbackground")
        yield from _with_backgrounds(el, (box, box) if box and _opaque(box) else backgrounds)


def _box_text(box: str, scheme: str) -> str:
    """Return the text colour for a box of colour `box` in `scheme`: `currentcolor` (the
    text's own, the theme's) where the scheme's text colour is readable on the box, else the
    other scheme's where that is more so."""
    own, other = PAGE_TEXT[scheme], PAGE_TEXT["dark" if scheme == "light" else "light"]
    if _contrast(box, own) >= MINIMUM_CONTRAST or _contrast(box, other) <= _contrast(box, own):
        return "currentcolor"
    return other


@cache
def _contrast(one: str, other: str) -> float:
    """Return WCAG 2's contrast ratio of two CSS colours (1 to 21)."""
    from coloraide import Color

    return float(Color(one).contrast(Color(other)))


@cache
def _opaque(css: str) -> bool:
    """Whether `css` is a colour CSS knows, without transparency (`transparent` hides on
    purpose, and is left so)."""
    from coloraide import Color

    try:
        return Color(css).alpha() >= 1
    except ValueError:
        return False


def _scheme_value(light: str, dark: str) -> str:
    """Return the CSS value of a colour per scheme: `light-dark(light,dark)`, or the one
    colour both schemes take."""
    return light if light == dark else f"light-dark({light},{dark})"


def _set_style(el: ET.Element, prop: str, value: str) -> None:
    """Append `prop:value` to the element's inline style."""
    old = el.get("style", "").rstrip("; ")
    el.set("style", f"{old};{prop}:{value}" if old else f"{prop}:{value}")


def light_dark(colour: str) -> str:
    """Return a CSS colour for `colour` drawn against the page (an `\\fcolorbox` frame):
    `colour` itself where it is readable on both pages, else `light-dark(light, dark)`
    (`readable`)."""
    if not _opaque(colour):
        return colour
    pair = tuple(readable(colour, PAGE_BACKGROUND[scheme]) for scheme in ("light", "dark"))
    return colour if pair == (colour, colour) else _scheme_value(*pair)


@cache
def readable(colour: str, against: str) -> str:
    """Return `colour` if its contrast with `against` reaches `MINIMUM_CONTRAST`, else the
    colour of the same OKLCH hue and chroma whose lightness is the nearest that reaches
    `MOVED_CONTRAST` (`#rrggbb`, fitted into sRGB).

    Args:
        colour: a CSS colour (`navy`, `#f80`).
        against: the CSS colour it is drawn on.

    Contrast is WCAG 2's ratio of relative luminances, (L1 + 0.05) / (L2 + 0.05); OKLCH is
    Björn Ottosson's perceptual space (CSS Color 4), in which a change of lightness keeps
    the hue the reader sees. Both through the coloraide library.
    """
    from coloraide import Color

    if _contrast(colour, against) >= MINIMUM_CONTRAST:
        return colour
    original, other = Color(colour).convert("oklch"), Color(against)
    lighter = other.luminance() < 0.18  # move away from the other colour's lightness
    low, high = (original["lightness"], 1.0) if lighter else (0.0, original["lightness"])
    best = None
    for _ in range(24):  # bisection on lightness: the contrast grows monotonically with it
        middle = (low + high) / 2
        fitted = original.clone().set("lightness", middle).fit("srgb")
        trial = Color(fitted.convert("srgb").to_string(hex=True))  # as it will be written
        if trial.contrast(other) >= MOVED_CONTRAST:
            best = trial
            high, low = (middle, low) if lighter else (high, middle)
        else:
            low, high = (middle, high) if lighter else (low, middle)
    if best is None:
        best = Color("white" if lighter else "black")
    return best.convert("srgb").to_string(hex=True)
