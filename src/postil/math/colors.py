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

A name neither defined nor a dvips name is left as written, as MathJax passes it to CSS
(`red`, `#f80`, `teal`); `postil.math.enclosures` drops a box colour that is no CSS word.
Models: `rgb` and `gray` (0–1), `RGB` (0–255), `HTML` (six hex digits), `cmyk` (0–1, xcolor's
conversion) and `named`; MathJax has the first three and `named`, xcolor all of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from postil.math.errors import MathSyntaxError
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
    return "#" + name if HEX6.fullmatch(name) else name


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
            except ValueError as exc:
                raise MathSyntaxError(f"{reader.name}: {exc}", match.start(), reader.name) from None
            written = spec.strip() if model is None else None
            out.append("{" + (spec if css == written else css) + "}")
            pos = reader.pos
    out.append(latex[pos:])
    return "".join(out)
