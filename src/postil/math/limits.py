r"""Limits: the scripts of `\sum`, `\lim`, `\max`, `\operatorname*` under/over in display style.

Which operators take limits: `symbols.LIMIT_OPERATORS`, `symbols.LIMIT_NAMES`, and names
marked `markers.DATA_LIMITS` (`\operatorname*`, `\DeclareMathOperator*`). latex2mathml
writes `\sum\nolimits_i` as `msub` with no mark, so its scripts stay beside.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from postil.math.markers import DATA_LIMITS
from postil.math.mathml import POSITIONAL, SCRIPTED, UNDER_OVER, local
from postil.math.symbols import LIMIT_NAMES, LIMIT_OPERATORS


def apply_limits(root: ET.Element, display: bool) -> None:
    """Stack the scripts of ∑, ∏, lim, max, `\\operatorname*` under/over in display style.

    latex2mathml writes `\\lim_{x}` as `<msub>`, which Chromium draws beside the operator.
    TeX puts such limits under/over only in display style, which fractions, scripts and
    (unless `displaystyle`) table cells leave (The TeXbook, ch. 17), so the style is
    tracked down the tree; `\\displaystyle` (an `mstyle`) turns it back on.
    """
    _limits(root, display)


def _limits(el: ET.Element, display: bool) -> None:
    """Apply `apply_limits` to `el` in the given style, then to its children."""
    tag = local(el)
    if tag in ("mstyle", "mtable") and el.get("displaystyle") in ("true", "false"):
        display = el.get("displaystyle") == "true"
    elif tag == "mtable":
        display = False
    if display and tag in SCRIPTED and len(el) and _takes_limits(el[0]):
        el.tag = UNDER_OVER[tag]
        tag = el.tag
    for index, child in enumerate(el):
        keeps = tag not in POSITIONAL or (index == 0 and tag != "mfrac")
        _limits(child, display and keeps)


def _takes_limits(base: ET.Element) -> bool:
    """Tell whether a script base is a big operator or a limit-taking name."""
    if base.get(DATA_LIMITS) == "0":
        return False
    text = (base.text or "").replace("\u2009", "").replace("\u2006", "")
    return base.get(DATA_LIMITS) == "1" or text in LIMIT_OPERATORS or text in LIMIT_NAMES
