"""Unicode mathematical alphanumerics: `mathvariant` as characters MathML Core renders.

Chromium's MathML Core ignores `mathvariant` except `normal` on a one-letter `<mi>`
(https://w3c.github.io/mathml-core/#the-mathvariant-attribute), so `\\mathbf{x}` must be
written as U+1D431 𝐱. The characters come from the Unicode block Mathematical
Alphanumeric Symbols (U+1D400–U+1D7FF) and, for its holes, Letterlike Symbols.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# mathvariant value -> the style words Unicode uses in character names.
STYLE_NAMES: dict[str, str] = {
    "bold": "BOLD",
    "italic": "ITALIC",
    "bold-italic": "BOLD ITALIC",
    "script": "SCRIPT",
    "bold-script": "BOLD SCRIPT",
    "fraktur": "FRAKTUR",
    "bold-fraktur": "BOLD FRAKTUR",
    "double-struck": "DOUBLE-STRUCK",
    "sans-serif": "SANS-SERIF",
    "bold-sans-serif": "SANS-SERIF BOLD",
    "sans-serif-italic": "SANS-SERIF ITALIC",
    "sans-serif-bold-italic": "SANS-SERIF BOLD ITALIC",
    "monospace": "MONOSPACE",
}

# The holes of the Mathematical Alphanumeric Symbols block, encoded earlier elsewhere.
HOLES: dict[tuple[str, str], str] = {
    ("italic", "h"): "ℎ",
    **{("script", k): v for k, v in zip("BEFHILMRego", "ℬℰℱℋℐℒℳℛℯℊℴ", strict=True)},
    **{("fraktur", k): v for k, v in zip("CHIRZ", "ℭℌℑℜℨ", strict=True)},
    **{("double-struck", k): v for k, v in zip("CHNPQRZ", "ℂℍℕℙℚℝℤ", strict=True)},
}


def _candidate_names(style: str, char: str) -> list[str]:
    """Return the Unicode names the styled form of `char` may have."""
    name = unicodedata.name(char, "")
    words = name.split()
    if name.startswith("LATIN CAPITAL LETTER "):
        return [f"MATHEMATICAL {style} CAPITAL {words[-1]}"]
    if name.startswith("LATIN SMALL LETTER "):
        return [f"MATHEMATICAL {style} SMALL {' '.join(words[3:])}"]
    if name.startswith("DIGIT "):
        return [f"MATHEMATICAL {style} DIGIT {words[-1]}"]
    if name.startswith("GREEK CAPITAL LETTER "):
        return [f"MATHEMATICAL {style} CAPITAL {' '.join(words[3:])}"]
    if name.startswith("GREEK SMALL LETTER "):
        return [f"MATHEMATICAL {style} SMALL {' '.join(words[3:])}"]
    if name.startswith("GREEK ") and name.endswith(" SYMBOL"):
        rest = " ".join(w for w in words[1:] if w not in ("LUNATE",))
        return [f"MATHEMATICAL {style} {rest}", f"MATHEMATICAL {style} {' '.join(words[1:])}"]
    if name in ("NABLA", "PARTIAL DIFFERENTIAL"):
        return [f"MATHEMATICAL {style} {name}"]
    if name.startswith("MATHEMATICAL ITALIC ") and "ITALIC" in style:  # `\varGamma` 𝛤
        return [f"MATHEMATICAL {style} {name.removeprefix('MATHEMATICAL ITALIC ')}"]
    if name == "LATIN SMALL LETTER DOTLESS I":
        return [f"MATHEMATICAL {style} SMALL DOTLESS I"]
    return []


@lru_cache(maxsize=4096)
def styled_char(variant: str, char: str) -> str:
    """Return `char` in the math alphabet `variant` (`"bold"`, `"double-struck"`, ...).

    Characters with no styled form in Unicode (punctuation, most symbols) come back as they
    are; `variant` values other than those in `STYLE_NAMES` leave `char` unchanged too.
    """
    if (variant, char) in HOLES:
        return HOLES[(variant, char)]
    style = STYLE_NAMES.get(variant)
    if style is None:
        return char
    for name in _candidate_names(style, char):
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return _styled_accented(variant, char)


def _styled_accented(variant: str, char: str) -> str:
    """Return an accented letter (`é`, `ö`, `Å`, `ç`) as its styled base letter followed by
    its combining marks (`𝐞́`), or `char` unchanged.

    Unicode has no styled forms of accented letters (its math alphabets are the letters of
    `_candidate_names`), so `\\textbf{Schrödinger}` came out with an upright ö among bold
    letters, and `\\mathbf{é}` not bold at all. Canonical decomposition (NFD) gives the base
    letter and its marks; fonts place the marks over the styled letter as over the plain one
    (checked in Chromium with STIX Two Math). LaTeX sets such a letter in the font of its
    neighbours.
    """
    parts = unicodedata.normalize("NFD", char)
    if len(parts) < 2 or not all(unicodedata.combining(c) for c in parts[1:]):
        return char
    base = styled_char(variant, parts[0])
    if base == parts[0]:
        return char
    if parts[0] in DOTLESS and unicodedata.combining(parts[1]) == ABOVE:
        dotless = styled_char(variant, DOTLESS[parts[0]])  # ï: no dot under the diaeresis
        base = dotless if dotless != DOTLESS[parts[0]] else base
    return base + parts[1:]


DOTLESS = {"i": "ı", "j": "ȷ"}
ABOVE = 230  # the canonical combining class of marks set above the letter


def styled_text(variant: str, text: str) -> str:
    """Return `text` with every character in the math alphabet `variant` where one exists."""
    return "".join(styled_char(variant, c) for c in text)
