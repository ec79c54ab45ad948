r"""`\pu{…}`: a physical quantity, a number then its units, as mhchem writes it.

The manual's "Physical Units": `1.2e3` is `1.2\cdot 10^{3}` (`E`, `x10^3`: `\times`; `*10^3`:
`\cdot`); a number of five digits or more has thin spaces between groups of three; a decimal
comma stays a comma. A non-breaking space separates the number from upright units: a space
between units a 3mu space, `*` or `·` a centred dot, `/` a slash, `//` a fraction, digits or
`^…` after a unit its power, `°C` a degree sign.
"""

from __future__ import annotations

import re

from postil.math.mhchem.grammar import ChemError

NUMBER = re.compile(
    r"(?P<sign>[+-]|−)?(?P<digits>\d+(?:[.,]\d+)?|[.,]\d+)"
    r"(?:\s*(?P<e>[eE])(?P<exp>[+-]?\d+)"
    r"|\s*(?P<times>[x×*·])\s*10\^(?:\{(?P<exp2>[+-]?\d+)\}|(?P<exp3>[+-]?\d+)))?"
    r"(?![\d.,+\-])"
)
UNIT = re.compile(
    r"(?P<name>°[A-Za-z]*|\\%|\\(?:mu|Omega|circ|degree)(?![A-Za-z])[A-Za-z]*"
    r"|[A-Za-zµμΩÅ]+)"
    r"(?:\^?(?P<power>[+-−]?\d+)|\^\{(?P<braced>[+-−]?\d+)\})?"
)
SEPARATORS = {
    " ": r"\mkern3mu ",
    "*": r"\mkern1mu{\cdot}\mkern1mu ",
    "·": r"\mkern1mu{\cdot}\mkern1mu ",
    "/": "/",
}


def translate_pu(argument: str, base: int = 0) -> str:
    r"""Return the TeX of a `\pu{…}` argument: `123 kJ/mol` → `{123~\mathrm{kJ}/\mathrm{mol}}`.

    Args:
        argument: the argument, without its braces.
        base: its offset in what the offsets of errors count from.

    Raises:
        ChemError: a construct postil does not read (a range, an uncertainty), at its offset.
    """
    lead = len(argument) - len(argument.lstrip())
    text = argument.strip()
    parts, units_at = [], 0
    if number := NUMBER.match(text):
        parts.append(_number(number))
        units_at = number.end()
    units = text[units_at:].lstrip()
    if units:
        parts.append(_units(units, base + lead + len(text) - len(units)))
    return "{" + "~".join(parts) + "}"


def _number(match: re.Match[str]) -> str:
    r"""Return a number's TeX: `12345` → `12\mkern2mu 345`, `1.2e3` → `1.2\cdot 10^{3}`."""
    sign = "-" if match.group("sign") in ("-", "−") else match.group("sign") or ""
    whole, point, fraction = re.fullmatch(r"(\d*)([.,]?)(\d*)", match.group("digits")).groups()  # type: ignore[union-attr]
    if len(whole) > 4:
        whole = re.sub(r"(?<=\d)(?=(\d{3})+$)", r"\\mkern2mu ", whole)
    if len(fraction) > 4:
        fraction = re.sub(r"(\d{3})(?=\d)", r"\1\\mkern2mu ", fraction)
    tex = sign + whole + ("{,}" if point == "," else point) + fraction
    exponent = match.group("exp") or match.group("exp2") or match.group("exp3")
    if exponent is not None:
        crossed = match.group("e") == "E" or match.group("times") in ("x", "×")
        times = r"\times" if crossed else r"\cdot"
        tex += rf"{times} 10^{{{exponent}}}"
    return tex


def _units(units: str, offset: int) -> str:
    r"""Return units' TeX: `kJ mol-1` → `\mathrm{kJ}\mkern3mu \mathrm{mol}^{-1}`; `kJ//mol`
    a fraction."""
    if "//" in units:
        numerator, denominator = units.split("//", 1)
        top = _units(numerator.strip(), offset)
        at = offset + units.index("//") + 2
        bottom = _units(denominator.strip(), at + len(denominator) - len(denominator.lstrip()))
        return rf"\tfrac{{{top}}}{{{bottom}}}"
    out, pos = [], 0
    while pos < len(units):
        if run := re.match(r"\s*([*·/])\s*|\s+", units[pos:]):
            out.append(SEPARATORS[run.group(1) or " "])
            pos += run.end()
            continue
        unit = UNIT.match(units, pos)
        if not unit:
            raise ChemError(f"unit `{units[pos : pos + 12]}`", offset + pos)
        out.append(_unit(unit))
        pos = unit.end()
    return "".join(out)


def _unit(unit: re.Match[str]) -> str:
    r"""Return one unit's TeX: `mol-1` → `\mathrm{mol}^{-1}`, `°C` → `{}^{\circ}\mathrm{C}`."""
    name = unit.group("name")
    power = unit.group("power") or unit.group("braced")
    if name.startswith(("°", "\\circ", "\\degree")):
        letters = re.sub(r"^(°|\\circ|\\degree)", "", name)
        tex = r"{}^{\circ}" + (rf"\mathrm{{{letters}}}" if letters else "")
    elif name == "\\%":
        tex = r"\%"
    else:
        tex = rf"\mathrm{{{name}}}"
    if power:
        tex += f"^{{{power.replace('−', '-')}}}"
    return tex
