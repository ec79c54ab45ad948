r"""Symbols latex2mathml leaves as `\command` text, with the characters KaTeX and Temml use.

Three tables: text-mode commands inside `\text{…}` (`\&`, `\textless`, `\ss`), text accents
(`\'{e}` -> é, as combining marks then NFC), and math-mode commands latex2mathml lacks or
draws with another glyph than KaTeX (`\doublecap`, the mathtools colon relations,
`\bullet` as U+2219). `resolve_symbols` applies them to the converted tree; whatever
`\command` is still left after it is reported as unsupported.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET

from latex2mathml.symbols_parser import convert_symbol

from postil.math.classes import FIXED
from postil.math.numbering import MARK, SEP
from postil.math.tree import local

TEXT_SYMBOLS: dict[str, str] = {
    **{f"\\{c}": c for c in "&%$#_{} "},
    "\\textbackslash": "\\",
    "\\textless": "<",
    "\\textgreater": ">",
    "\\textbar": "|",
    "\\textbardbl": "‖",
    "\\textbraceleft": "{",
    "\\textbraceright": "}",
    "\\textdagger": "†",
    "\\textdaggerdbl": "‡",
    "\\textdegree": "°",
    "\\textdollar": "$",
    "\\textellipsis": "…",
    "\\textemdash": "—",
    "\\textendash": "–",
    "\\textquotedblleft": "“",
    "\\textquotedblright": "”",
    "\\textquoteleft": "‘",
    "\\textquoteright": "’",
    "\\textregistered": "®",
    "\\textsterling": "£",
    "\\textunderscore": "_",
    "\\textasciitilde": "~",
    "\\textasciicircum": "^",
    "\\ss": "ß",
    "\\ae": "æ",
    "\\AE": "Æ",
    "\\oe": "œ",
    "\\OE": "Œ",
    "\\o": "ø",
    "\\O": "Ø",
    "\\aa": "å",
    "\\AA": "Å",
    "\\i": "ı",
    "\\j": "ȷ",
    "\\copyright": "©",
    "\\P": "¶",
    "\\S": "§",
    "\\lq": "‘",
    "\\rq": "’",
    "\\dag": "†",
    "\\ddag": "‡",
    "\\KaTeX": "KaTeX",
    "\\LaTeX": "LaTeX",
    "\\TeX": "TeX",
}
# Text accents -> combining marks (LaTeX's \' \` \^ \" \~ \= \. \u \v \H \r \c \k).
ACCENTS: dict[str, str] = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "r": "\u030a",
    "c": "\u0327",
    "k": "\u0328",
}
ACCENT = re.compile(
    r"\\([`'^\"~=.]|[uvHrck](?![A-Za-z]))\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
)
# A control word eats the spaces after it (The TeXbook p. 47); a control symbol does not.
TEXT_COMMAND = re.compile(r"(\\[A-Za-z]+)\s*|(\\[&%$#_{} ])")

# Math-mode commands latex2mathml does not know: command -> (tag, text); a text with
# spaces is several operators in a row (`\colonapprox` is ":" then "≈").
MATH_SYMBOLS: dict[str, tuple[str, str]] = {
    "\\copyright": ("mi", "©"),
    "\\P": ("mi", "¶"),
    "\\lq": ("mi", "‘"),
    "\\doublecap": ("mo", "⋒"),
    "\\doublecup": ("mo", "⋓"),
    "\\shortparallel": ("mo", "∥"),
    "\\nleqq": ("mo", "≰"),
    "\\nsupseteqq": ("mo", "⊉"),
    "\\minuso": ("mo", "⦵"),
    "\\coloncolon": ("mo", "∷"),
    "\\dblcolon": ("mo", "∷"),
    "\\colonequals": ("mo", "≔"),
    "\\Colonapprox": ("mo", "∷≈"),
    "\\coloncolonapprox": ("mo", "∷≈"),
    "\\coloncolonequals": ("mo", "⩴"),
    "\\coloncolonminus": ("mo", "∷−"),
    "\\Eqcolon": ("mo", "−∷"),
    "\\Eqqcolon": ("mo", "=∷"),
    "\\equalscolon": ("mo", "≕"),
    "\\equalscoloncolon": ("mo", "=∷"),
    "\\minuscolon": ("mo", "∹"),
    "\\minuscoloncolon": ("mo", "−∷"),
    "\\approxcolon": ("mo", "≈:"),
    "\\approxcoloncolon": ("mo", "≈∷"),
    "\\simcolon": ("mo", "∼:"),
    "\\simcoloncolon": ("mo", "∼∷"),
    "\\colonapprox": ("mo", ": ≈"),
    "\\colonsim": ("mo", ": ∼"),
    "\\Colonsim": ("mo", ": ∼"),
    "\\coloncolonsim": ("mo", ": ∼"),
    "\\colonminus": ("mo", ": −"),
    "\\ratio": ("mo", ":"),
    "\\vcentcolon": ("mo", ":"),
}
# Commands latex2mathml draws with another glyph than KaTeX/Temml and TeX's fonts, or
# without the variation selector of the variant glyph, or whose TeX class differs from
# that of their character (classes.py): command -> (tag, character).
GLYPH_COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("mo", "∼"),
    "ast": ("mo", "∗"),
    "bullet": ("mo", "∙"),
    "bull": ("mo", "∙"),
    "Box": ("mi", "□"),
    "triangle": ("mi", "△"),  # Ord in TeX; the same character as \bigtriangleup (Bin)
    "colon": ("mo", ":"),  # Punct: Chromium's dictionary spaces `:` as TeX's \colon
    "ldotp": ("mo", "."),  # Punct in TeX; a bare `.` is Ord
    "And": ("mo", "&"),  # amsmath: \mathbin{\&}; `\&` is Ord
    "bmod": ("mbin", "mod"),  # \mathbin{mod}: a word set as a binary operator
    "square": ("mi", "□"),
    "blacksquare": ("mi", "■"),
    "blacktriangle": ("mi", "▲"),
    "blacktriangledown": ("mi", "▼"),
    "triangledown": ("mi", "▽"),
    "Diamond": ("mi", "◊"),
    "backepsilon": ("mo", "∍"),
    "doublebarwedge": ("mo", "⩞"),
    "Join": ("mo", "⋈"),
    "leadsto": ("mo", "⇝"),
    "lhd": ("mo", "⊲"),
    "rhd": ("mo", "⊳"),
    "triangleleft": ("mo", "◃"),
    "triangleright": ("mo", "▹"),
    "models": ("mo", "⊨"),
    "ncong": ("mo", "≆"),
    "setminus": ("mo", "∖"),
    "gvertneqq": ("mo", "≩\ufe00"),
    "lvertneqq": ("mo", "≨\ufe00"),
    "varsubsetneq": ("mo", "⊊\ufe00"),
    "varsubsetneqq": ("mo", "⫋\ufe00"),
    "Coloneq": ("mo", "∷−"),
    "varsupsetneqq": ("mo", "⫌\ufe00"),
}
# Output characters to change wherever they come from.
GLYPHS: dict[str, str] = {
    "*": "∗",  # TeX's math `*` is the asterisk operator
    "\u20db": "...",  # \dddot's combining mark: Temml and KaTeX stack three dots
    "\u20dc": "....",  # \ddddot
}


def glyph_macros() -> dict[str, str]:
    """Return macros that turn `GLYPH_COMMANDS` into symbol markers (see rewrite.py)."""
    return {
        name: rf"\text{{{MARK}{tag}{SEP}{char}}}" for name, (tag, char) in GLYPH_COMMANDS.items()
    }


def text_mode(text: str) -> str:
    r"""Resolve text-mode commands and accents in the content of `\text{…}`."""
    text = re.sub(r"(?<!\\)~", "\u00a0", text)  # a tie is a no-break space
    text = ACCENT.sub(_accent, text)
    return TEXT_COMMAND.sub(_text_symbol, text)


def _text_symbol(match: re.Match[str]) -> str:
    """Return the character of one text-mode command, or the command as written."""
    command = match.group(1) or match.group(2)
    return TEXT_SYMBOLS.get(command, match.group(0))


def _accent(match: re.Match[str]) -> str:
    """Compose one text accent with its letter (`\\'{e}` -> é)."""
    letter = match.group(2) or match.group(3)
    base = TEXT_SYMBOLS.get(letter, letter) if letter.startswith("\\") else letter
    return unicodedata.normalize("NFC", base + ACCENTS[match.group(1)])


def resolve_symbols(root: ET.Element) -> None:
    """Replace `\\command` texts latex2mathml left in tokens, and fix its glyph choices."""
    for parent in list(root.iter()):
        for index, el in enumerate(list(parent)):
            tag, text = local(el), el.text or ""
            if tag == "mtext" and "\\" in text:
                el.text = text_mode(text)
            elif tag in ("mi", "mo") and text.startswith("\\"):
                _replace_command(parent, index, el, text)
            elif tag == "mo" and text in GLYPHS:
                el.text = GLYPHS[text]


def _replace_command(parent: ET.Element, index: int, el: ET.Element, text: str) -> None:
    """Turn one `<mi>\\cmd</mi>` into the symbol(s) it stands for, if known."""
    if text in MATH_SYMBOLS:
        tag, chars = MATH_SYMBOLS[text]
        parts = chars.split(" ")
        el.tag, el.text = tag, parts[0]
        el.set(FIXED, "1")
        for offset, part in enumerate(parts[1:], start=1):
            extra = ET.Element(tag)
            extra.text = part
            extra.set(FIXED, "1")
            parent.insert(index + offset, extra)
        return
    if text in TEXT_SYMBOLS and text not in ("\\ ",):
        el.text = TEXT_SYMBOLS[text]
        return
    code = convert_symbol(text)
    if code:
        el.text = chr(int(code, 16))
