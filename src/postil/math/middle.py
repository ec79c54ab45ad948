r"""`\middle` ends the group of a generalized fraction (`\over`, `\atop`, `\choose`, …).

In TeX, `\left … \middle … \right` is one group split at each `\middle` (e-TeX's manual,
`\middle`): a `\over` before a `\middle` takes the material from the `\left` (or the last
`\middle`) to that `\middle` as its numerator and denominator, so
`\left\{a\over2\middle|b\right\}` is ½ of `a` over `2`, then a bar, then `b`
(ronkok/Temml#49). latex2mathml reads the `\over` across the `\middle`, putting the bar and
`b` in the denominator. `brace_middle_segments` braces each segment holding such a command,
so the fraction ends where TeX ends it.
"""

from __future__ import annotations

import re

GENERALIZED_FRACTIONS = re.compile(r"\\(?:over|atop|above|choose|brace|brack)(?![A-Za-z])")
r"""TeX's generalized fractions and amsmath's `\choose`, `\brace`, `\brack`."""
TOKEN = re.compile(r"\\(?:left|middle|right)(?![A-Za-z])|\\[A-Za-z]+|\\.|[{}]", re.S)
"""What the scan looks at: the fence commands, other control sequences, braces."""
DELIMITER = re.compile(r"\s*(?:\\[A-Za-z]+|\\.|[^\s\\])", re.S)
r"""The delimiter after `\left`, `\middle` or `\right`: a command or one character."""


def brace_middle_segments(latex: str) -> str:
    r"""Return `latex` with each `\left…\middle…\right` segment holding a generalized
    fraction at its own level put in braces (`\left(a\over b\middle|c\right)` →
    `\left({a\over b}\middle|{c}\right)`); a formula without `\middle` is returned as is."""
    if "\\middle" not in latex or not GENERALIZED_FRACTIONS.search(latex):
        return latex
    edits: list[tuple[int, int]] = []  # (start, end) of segments to brace
    stack: list[tuple[int, list[tuple[int, int]], int]] = []  # (depth, segments, start)
    depth = 0
    pos = 0
    while (token := TOKEN.search(latex, pos)) is not None:
        text, pos = token.group(), token.end()
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
        elif text in ("\\left", "\\middle", "\\right"):
            delimiter = DELIMITER.match(latex, pos)
            after = delimiter.end() if delimiter else pos
            if text == "\\left":
                stack.append((depth, [], after))
            elif stack and stack[-1][0] == depth:
                level, segments, start = stack.pop()
                segments.append((start, token.start()))
                if text == "\\middle":
                    stack.append((level, segments, after))
                elif len(segments) > 1:
                    edits += [s for s in segments if _fraction_at_level(latex, *s)]
            pos = after
    for start, end in sorted(edits, reverse=True):
        latex = latex[:start] + "{" + latex[start:end] + "}" + latex[end:]
    return latex


def _fraction_at_level(latex: str, start: int, end: int) -> bool:
    r"""Tell whether `latex[start:end]` holds a generalized fraction outside its groups
    (braces, and `\left…\right` pairs inside it)."""
    depth = 0
    for token in TOKEN.finditer(latex, start, end):
        text = token.group()
        depth += (text in ("{", "\\left")) - (text in ("}", "\\right"))
        if depth == 0 and GENERALIZED_FRACTIONS.fullmatch(text):
            return True
    return False
