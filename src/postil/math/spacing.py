"""Spacing passes: lengths Chromium understands, and TeX's space after function names.

`fix_lengths` turns MathML's named spaces and TeX-only units into em and pt (Chromium
drops the others); `apply_functions` gives every function name (`\\log`, `\\operatorname`)
U+2061 and TeX's thin space before its argument (The TeXbook, ch. 18).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from postil.math.markers import DATA_OP
from postil.math.mathml import POSITIONAL, SCRIPTED_OR_STACKED, is_space, local
from postil.math.symbols import FUNCTION_NAMES, OPEN_FENCES, RELATIONS_AND_PUNCT

# MathML's named space widths (MathML 3 §2.1.5.2) in em; Chromium drops named lengths.
NAMED_SPACES = {
    "veryverythinmathspace": 1 / 18,
    "verythinmathspace": 2 / 18,
    "thinmathspace": 3 / 18,
    "mediummathspace": 4 / 18,
    "thickmathspace": 5 / 18,
    "verythickmathspace": 6 / 18,
    "veryverythickmathspace": 7 / 18,
}
# TeX units CSS lacks, in pt (The TeXbook p. 57).
TEX_UNITS_PT = {"bp": 72.27 / 72, "dd": 1238 / 1157, "cc": 12 * 1238 / 1157, "sp": 1 / 65536}
THIN = "0.1667em"


def _css_length(value: str) -> str:
    """Return a CSS length for a MathML/TeX length (`thinmathspace`, `3mu`, `2bp`)."""
    value = value.strip()
    negative = value.startswith("negative")
    name = value[len("negative") :] if negative else value
    if name in NAMED_SPACES:
        return f"{-NAMED_SPACES[name] if negative else NAMED_SPACES[name]:.4g}em"
    match = re.fullmatch(r"([+-]?(?:\d+\.?\d*|\.\d+))\s*(mu|bp|dd|cc|sp)", name)
    if match:
        number, unit = float(match.group(1)), match.group(2)
        if unit == "mu":
            return f"{number / 18:.4g}em"
        return f"{number * TEX_UNITS_PT[unit]:.4g}pt"
    return value


def fix_lengths(root: ET.Element) -> None:
    """Rewrite named and TeX-only lengths on spaces and operators as CSS lengths (em, pt)."""
    for el in root.iter():
        if not el.attrib:
            continue
        for attr in ("width", "height", "depth", "lspace", "rspace", "voffset"):
            if attr in el.attrib:
                el.attrib[attr] = _css_length(el.attrib[attr])


def _is_function_name(el: ET.Element) -> bool:
    """Tell whether `el` (maybe scripted) is a function name like `log` or `softmax`."""
    while local(el) in SCRIPTED_OR_STACKED and len(el):
        el = el[0]
    text = (el.text or "").replace("\u2009", "").replace("\u2006", "").replace(" ", "")
    if local(el) == "mi":
        return text in FUNCTION_NAMES or el.get(DATA_OP) == "1"
    return local(el) == "mo" and len(text) > 1 and text.isalpha() and "lspace" not in el.attrib


def _name_to_mi(el: ET.Element) -> None:
    """Make the base of a function name an `<mi>` (an `<mo>` word gets operator padding)."""
    while local(el) in SCRIPTED_OR_STACKED and len(el):
        el = el[0]
    if local(el) == "mo":
        el.tag = "mi"
        for attr in ("stretchy", "fence", "form", "lspace", "rspace"):
            el.attrib.pop(attr, None)
    el.attrib.pop(DATA_OP, None)


def apply_functions(root: ET.Element) -> None:
    """Give every function name U+2061 and TeX's spacing: `log p`, `sin(x)`, `softmax(x)`.

    TeX puts a thin space between an Op atom and a following Ord atom but none before an
    opening fence (The TeXbook, ch. 18, rule 20); Chromium gives U+2061 no width, so the
    thin space is an explicit `<mspace>`.
    """
    for parent in list(root.iter()):
        if not len(parent) or local(parent) in POSITIONAL:
            continue
        kids = list(parent)
        for i in range(len(kids) - 1, -1, -1):
            if not _is_function_name(kids[i]):
                continue
            _name_to_mi(kids[i])
            atom = next((k for k in kids[i + 1 :] if not is_space(k)), None)
            if atom is None or _starts_with_relation_or_end(atom):
                continue
            apply = ET.Element("mo")
            apply.text = "\u2061"
            parent.insert(i + 1, apply)
            if not _is_plain_open_fence(atom):
                parent.insert(i + 2, ET.Element("mspace", width=THIN))


def _is_plain_open_fence(el: ET.Element) -> bool:
    """Tell whether `el` is a non-stretchy opening fence, as in `\\log(x)` (TeX: no space).

    A `\\left(` group is an Inner atom in TeX and gets the thin space (The TeXbook p. 170).
    """
    return local(el) == "mo" and (el.text or "") in OPEN_FENCES and el.get("stretchy") != "true"


def _starts_with_relation_or_end(el: ET.Element) -> bool:
    """Tell whether a function name followed by `el` stands alone (`f = \\log`, `\\max,`)."""
    if local(el) == "mo":
        return (el.text or "") in RELATIONS_AND_PUNCT
    return False
