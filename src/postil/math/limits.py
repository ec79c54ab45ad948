r"""Limits: the scripts of `\sum`, `\lim`, `\max`, `\operatorname*` under/over or beside.

TeX puts an operator's scripts under/over it in display style and beside it otherwise
(`\displaylimits`, the default); `\limits` puts them under/over in every style, `\nolimits`
beside in every style (The TeXbook, ch. 17, p. 144). Which operators take limits by
default: `symbols.LIMIT_OPERATORS`, `symbols.LIMIT_NAMES`, and names marked
`markers.DATA_LIMITS` (`\operatorname*`, `\DeclareMathOperator*`).

latex2mathml decides on its own (`\limits` always under, `\sum`/`\prod` under whenever
the formula is display math, even inside a fraction or after `\textstyle`) and Chromium
moves the limits of an `<mo>` back beside in compact style unless it says
`movablelimits="false"`. So `rewrite_limits` takes the choice away from latex2mathml: it
wraps the operator in a group that starts with a `limits` marker saying what the author
wrote, and `apply_limits` reads the marker and decides by the style (`styles.py`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from itertools import repeat

from postil.math.macros import read_group
from postil.math.markers import DATA_LIMITS, has_markers, marker, read_marker
from postil.math.mathml import SCRIPTED, SCRIPTED_OR_STACKED, UNDER_OVER, core
from postil.math.styles import DISPLAY, TEXT, sets_display_style, walk_styles
from postil.math.symbols import LIMIT_NAMES, LIMIT_OPERATORS

LIMITS = re.compile(r"\s*\\(no)?limits(?![A-Za-z])")
# latex2mathml stacks these two itself in display math (its `block` rule): take them out.
STACKED_BY_ENGINE = re.compile(r"\\(?:sum|prod)(?![A-Za-z])(?=\s*[_^])")
ALWAYS, NEVER, DISPLAY_ONLY = "always", "0", "1"  # values of `DATA_LIMITS`
MARKER_KIND = "limits"
SCRIPTS_OF = {stacked: scripted for scripted, stacked in UNDER_OVER.items()}
LIMIT_TAGS = frozenset((*SCRIPTED, *SCRIPTS_OF))


def rewrite_limits(latex: str) -> str:
    r"""Wrap each operator with `\limits`/`\nolimits`, and `\sum`/`\prod` with scripts.

    `\sum\limits_i` -> `{⟦limits⟧always\sum}_i`, `\int\nolimits_0` -> `{⟦limits⟧0\int}_0`,
    `\sum_i` -> `{⟦limits⟧1\sum}_i`. The operator before `\limits` is a control word or a
    `{…}` group with the command it belongs to (`\operatorname*{ess}`, a marker); a
    `\limits` after anything else is left for latex2mathml to refuse.
    """
    if "\\sum" in latex or "\\prod" in latex:
        latex = STACKED_BY_ENGINE.sub(
            lambda m: "{" + marker(MARKER_KIND, DISPLAY_ONLY) + m.group(0) + "}", latex
        )
    if "limits" not in latex:
        return latex
    out, pos = [], 0
    for match in LIMITS.finditer(latex):
        start = _operator_start(latex, match.start())
        if start is None or start < pos:
            continue
        mode = NEVER if match.group(1) else ALWAYS
        wrapped = "{" + marker(MARKER_KIND, mode) + latex[start : match.start()] + "}"
        out += [latex[pos:start], wrapped]
        pos = match.end()
    return "".join(out) + latex[pos:]


def _operator_start(latex: str, end: int) -> int | None:
    """Return where the operator ending at `end` starts: `\\sum`, `\\mathop{…}`, `{…}`."""
    if end and latex[end - 1] == "}":
        depth = 0
        for start in range(end - 1, -1, -1):
            if latex[start] == "}" and latex[start - 1 : start] != "\\":
                depth += 1
            elif latex[start] == "{" and latex[start - 1 : start] != "\\":
                depth -= 1
                if depth == 0:
                    command = re.search(r"\\[A-Za-z]+\*?\s*$", latex[:start])
                    return command.start() if command else start
        return None
    word = re.search(r"\\[A-Za-z]+$", latex[:end])
    return word.start() if word else None


def unwrap_limit_groups(root: ET.Element) -> None:
    """Replace each `limits` marker's group by its operator, marked with `DATA_LIMITS`."""
    if not has_markers(root, (MARKER_KIND,)):
        return
    for parent in root.iter():
        for index, group in enumerate(parent):
            if not len(group) or group[0].tag != "mtext" or group.tag != "mrow":
                continue
            found = read_marker(group[0])
            if not found or found[0] != MARKER_KIND:
                continue
            group.remove(group[0])
            operator = group[0] if len(group) == 1 else group
            if operator is not group:
                parent[index] = operator
            operator.set(DATA_LIMITS, found[1])


def apply_limits(root: ET.Element, display: bool, *, unwrap: bool = True) -> None:
    r"""Put each operator's scripts under/over or beside it, as TeX's style rules say.

    latex2mathml writes `\lim_{x}` as `<msub>`, which Chromium draws beside the operator;
    in display style (which fractions, scripts and, unless `displaystyle`, table cells
    leave: `styles.walk_styles`) it becomes `<munder>`. `\limits` stacks in every style
    (`movablelimits="false"`, else Chromium moves them beside in compact style), and
    `\nolimits` never does. `unwrap=False` skips `unwrap_limit_groups`, for a tree known to
    hold no marker (`markers.may_hold_markers`).
    """
    if unwrap:
        unwrap_limit_groups(root)
    if not any(
        el.tag in LIMIT_TAGS
        and len(el)
        and (_limits_mode(el[0]) is not None or _stacked_operator(el) is not None)
        for el in root.iter()
    ):
        return  # no operator takes limits: no need to know the styles
    if display or sets_display_style(root):
        styled: Iterable[tuple[ET.Element, int]] = walk_styles(root, display)
    else:  # no element is in display style, the only one this loop tells apart
        styled = zip(root.iter(), repeat(TEXT))
    for el, style in styled:
        tag = el.tag
        if tag not in SCRIPTED and tag not in SCRIPTS_OF or not len(el):
            continue
        mode = _limits_mode(el[0])
        if mode is None:
            stacked = _stacked_operator(el)
            if stacked is not None and style != DISPLAY:
                stacked.set("movablelimits", "false")
            continue
        if tag in SCRIPTED and (mode == ALWAYS or mode == DISPLAY_ONLY and style == DISPLAY):
            el.tag = UNDER_OVER[tag]
        elif tag in SCRIPTS_OF and mode == NEVER:
            el.tag = SCRIPTS_OF[tag]
        base = core(el[0])
        if el.tag in SCRIPTS_OF and base.tag == "mo" and style != DISPLAY:
            base.set("movablelimits", "false")


def _stacked_operator(el: ET.Element) -> ET.Element | None:
    r"""Return the `∑` of `\overset{a}{\sum}`: a stack's base operator Chromium would move.

    amsmath's `\overset`, `\underset` and `\stackrel` stack over or under their base in
    every style (`\mathop{…}\limits`), but Chromium draws a stack whose base is built on an
    `<mo>` the operator dictionary gives `movablelimits` (∑, ∏, ⋃ …) as scripts in compact
    style, `<mrow>` wrappers included (MathML Core §3.2.4.1); mathjax/MathJax#1929.
    None for a stack that is no such operator or says `movablelimits` itself.
    """
    if el.tag not in SCRIPTS_OF:
        return None
    base = el[0]
    while len(base) and (base.tag in SCRIPTED_OR_STACKED or base.tag == "mrow" and len(base) == 1):
        base = base[0]
    text = (base.text or "").strip()
    if base.tag != "mo" or text not in LIMIT_OPERATORS or "movablelimits" in base.attrib:
        return None
    return base


def _limits_mode(base: ET.Element) -> str | None:
    """Return how an operator takes limits (`ALWAYS`, `NEVER`, `DISPLAY_ONLY`), or None."""
    if DATA_LIMITS in base.attrib:
        return base.get(DATA_LIMITS)
    text = (base.text or "").replace("\u2009", "").replace("\u2006", "")
    if base.tag in ("mi", "mo") and (text in LIMIT_OPERATORS or text in LIMIT_NAMES):
        return DISPLAY_ONLY
    return None


SIDESET = re.compile(r"\\(sideset|prescript)(?![A-Za-z])\s*")
OPERATOR_TOKEN = re.compile(r"\s*(\\[A-Za-z]+|[^\s{}\\])")


def rewrite_sidesets(latex: str) -> str:
    r"""Rewrite amsmath's `\sideset{_a^b}{_c^d}\prod` as a `sideset` marker, the left scripts
    on an empty group and the operator with its right scripts, in a group:
    `{\text{⟦sideset⟧op}{}_a^b{\prod}_c^d}`; `fix_sidesets` builds them into one
    `<mmultiscripts>`. mathtools' `\prescript{14}{6}{C}` (scripts before a base, flush
    against it: the mathtools manual, 3.5) is the same without an operator:
    `{\text{⟦sideset⟧}{}^{14}_{6}{C}}`.

    amsmath sets the scripts at the operator's four corners and makes the whole a `\mathop`
    (amsmath.dtx, `\sideset`), so limits written after it (`\sideset{}{'}\sum_{n<k}`) go
    under it in display style. latex2mathml drew the right-hand scripts as limits (`'` over
    the ∑) and the limits beside the whole.
    """
    out, pos = [], 0
    for match in SIDESET.finditer(latex):
        if match.start() < pos:
            continue
        left, end = read_group(latex, match.end())
        right, end = read_group(latex, end)
        if match.group(1) == "prescript":  # mathtools: {sup}{sub}{base}, no operator
            base, end = read_group(latex, end)
            body = f"{marker(SIDESET_KIND, '')}{{}}^{{{left}}}_{{{right}}}{{{base}}}"
            out += [latex[pos : match.start()], "{", body, "}"]
            pos = end
            continue
        if latex[end:].lstrip().startswith("{"):
            operator, end = read_group(latex, len(latex) - len(latex[end:].lstrip()))
        else:
            token = OPERATOR_TOKEN.match(latex, end)
            if token is None:
                continue  # `\sideset` without its operator: the arguments check reports it
            operator, end = token.group(1), token.end()
        body = f"{marker(SIDESET_KIND, 'op')}{{}}{left}{{{operator}}}{right}"
        out += [latex[pos : match.start()], "{", body, "}"]
        pos = end
    return "".join(out) + latex[pos:] if out else latex


SIDESET_KIND = "sideset"


def fix_sidesets(root: ET.Element) -> None:
    """Build each `sideset` marker's scripts and operator into one `<mmultiscripts>`, an
    operator that takes limits (see `rewrite_sidesets`)."""
    if not has_markers(root, (SIDESET_KIND,)):
        return
    for parent in list(root.iter()):
        for el in [e for e in parent if (read_marker(e) or ("", ""))[0] == SIDESET_KIND]:
            index = list(parent).index(el)
            pre, post = (list(parent) + [None, None])[index + 1 : index + 3]
            if pre is None or post is None:
                parent.remove(el)
                continue
            multi = ET.Element("mmultiscripts")
            base, post_scripts = _base_and_scripts(post)
            multi.append(base)
            multi.extend(post_scripts)
            ET.SubElement(multi, "mprescripts")
            multi.extend(_base_and_scripts(pre)[1])
            for old in (el, pre, post):
                parent.remove(old)
            parent.insert(index, multi)
            if (read_marker(el) or ("", ""))[1] != "op":
                continue  # `\\prescript`: a base, no operator
            if len(parent) == 1 and parent.tag == "mrow":
                parent.set(DATA_LIMITS, DISPLAY_ONLY)  # the group is the operator
            else:
                multi.set(DATA_LIMITS, DISPLAY_ONLY)


def _base_and_scripts(el: ET.Element) -> tuple[ET.Element, list[ET.Element]]:
    """Return a scripted element's base and its (subscript, superscript), `<mrow/>` for one
    missing; an element without scripts is the base itself."""
    if el.tag == "msubsup":
        return el[0], [el[1], el[2]]
    if el.tag == "msub":
        return el[0], [el[1], ET.Element("mrow")]
    if el.tag == "msup":
        return el[0], [ET.Element("mrow"), el[1]]
    return el, [ET.Element("mrow"), ET.Element("mrow")]
