r"""What each symbol is: the tables every pass looks characters and commands up in.

- Commands latex2mathml leaves as `\command` text or draws with another glyph than KaTeX
  and Temml: text-mode commands inside `\text{…}` (`TEXT_SYMBOLS`: `\&`, `\textless`,
  `\ss`), text accents (`ACCENTS`: `\'{e}` -> é), math-mode commands latex2mathml lacks
  (`MATH_SYMBOLS`: `\doublecap`, the mathtools colon relations), commands whose glyph or
  class differs (`GLYPH_COMMANDS`: `\bullet` as U+2219), output characters (`GLYPHS`).
- TeX math classes (`tex_classes`, `symbol_class`): Ord symbols are identifiers,
  Bin/Rel/Op/Open/Close/Punct operators (MathML Core §3.2.4, The TeXbook ch. 17), from the
  unicode-math table latex2mathml ships and plain TeX's `\mathcode`s for ASCII.
- Names: TeX's `\log`-like function names, limit-taking operators and names, fences.

The passes that use them: `tokens.resolve_symbols`, `tokens.classify_tokens`,
`spacing.apply_functions`, `limits.apply_limits`, `textmode.text_mode`.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

import latex2mathml.symbols_parser

from postil.math.markers import SEP, marker

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
    "\\dots": "…",  # LaTeX's \dots and \ldots are \textellipsis in text (KaTeX's too)
    "\\ldots": "…",
    "\\textbullet": "•",
    "\\pounds": "£",
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
    "\\textsection": "§",  # textcomp's names of the symbols above and a few more
    "\\textparagraph": "¶",
    "\\textcopyright": "©",
    "\\texttrademark": "™",
    "\\textperthousand": "‰",
    "\\texteuro": "€",
    "\\euro": "€",
    "\\textyen": "¥",
    "\\textcent": "¢",
    "\\textmu": "µ",
    "\\textonehalf": "½",
    "\\textpm": "±",
    "\\texttimes": "×",
    "\\textdiv": "÷",
    "\\textminus": "−",
    "\\textperiodcentered": "·",
    "\\dagger": "†",  # `\dag` in text after KaTeX's alias `\dag` -> `\dagger` (macros.py)
    "\\ddagger": "‡",
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
    "bmod": ("bmod", "mod"),  # latex.ltx: `mod` with 5mu on each side, also in scripts
    "centerdot": ("mbin", "⬝"),  # amssymb: \mathbin; unicode-math's U+2B1D is Ord
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
    "shortmid": ("mo", "∣"),
    "nshortmid": ("mo", "∤"),
    "shortparallel": ("mo", "∥"),
    "nshortparallel": ("mo", "∦"),
    "smallfrown": ("mo", "⌢"),
    "smallsmile": ("mo", "⌣"),
    "emptyset": ("mi", "∅"),
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


# TeX's \log-like operators (The TeXbook p. 162) and amsmath's additions.
FUNCTION_NAMES = frozenset(
    """arccos arcsin arctan arctg arcctg arg argmax argmin ch cos cosh cot cotg coth csc ctg cth
    cosec deg det dim exp gcd hom inf ker lg lim liminf limsup ln log max min Pr sec sh sin
    sinh sup tan tanh tg th injlim projlim plim""".split()
)
# Operators whose scripts go under/over in display style (TeX's \displaylimits default).
LIMIT_OPERATORS = frozenset("∑∏∐⋀⋁⋂⋃⨀⨁⨂⨄⨆")
LIMIT_NAMES = frozenset("lim liminf limsup max min sup inf det gcd Pr injlim projlim plim".split())
OPEN_FENCES = frozenset("([{|‖⟨⌈⌊〈")
CLOSE_FENCES = frozenset(")]}⟩⌉⌋〉")
RELATIONS_AND_PUNCT = frozenset("=<>≤≥≈≠∈∉⊂⊆→←↦,;:.)]}|∼≡≔∝⟩⌉⌋+−±∓×⋅·")
OPERATOR_CLASSES = frozenset("mathbin mathrel mathop mathopen mathclose mathpunct".split())
ORD_CLASSES = frozenset(("mathord", "mathalpha"))
# Plain TeX's \mathcode classes of the ASCII symbols (plain.tex; The TeXbook p. 344).
ASCII_CLASSES = {
    **dict.fromkeys("./", "mathord"),
    **dict.fromkeys("+-*", "mathbin"),
    **dict.fromkeys(":=<>", "mathrel"),
    **dict.fromkeys("([{", "mathopen"),
    **dict.fromkeys(")]}!?", "mathclose"),
    **dict.fromkeys(",;", "mathpunct"),
    "|": "mathfence",
}
# Where TeX's command differs from unicode-math's class for the character: `\vdots` is a
# box and `\ddots` an Inner atom in plain TeX, never a relation; `\ldots`, `\cdots` are
# Inner (no relation/operator padding, which Chromium's dictionary would add); amssymb
# makes `\therefore`, `\because` and the dashed and circle arrows relations, `\bigcirc` a
# binary operator, `\blacklozenge` ordinary; the moustaches are delimiters.
OVERRIDES = {
    **dict.fromkeys("⋮⋱⋰…⋯⧫", "mathord"),
    **dict.fromkeys("∴∵⇠⇢↺↻", "mathrel"),
    "◯": "mathbin",
    "⎰": "mathopen",
    "⎱": "mathclose",
}
PRIMES = frozenset("′″‴⁗‵‶‷")
VARIATION_SELECTORS = str.maketrans("", "", "\ufe00\ufe0e\ufe0f")
PREFIX_SIGNS = frozenset("−+±∓")
# A relation written `:` gets TeX's thick spaces (`REL_SPACE`); Chromium's dictionary spaces
# it as punctuation (0 before, thin after), which is `\colon` (symbols.GLYPH_COMMANDS).
# Binary operators and relations that Chromium's operator dictionary (MathML Core,
# "Operator dictionary", which it applies as written) spaces otherwise than TeX: TeX gives
# every Bin atom 4mu on each side and every Rel atom 5mu (The TeXbook, p. 170); the
# dictionary gives `×`, `·`, `∘`, `∗`, `⊗`, `⋆` 3mu, `†`, `△`, `◁` 5mu, `∴`, `⌢` none.
# `spacing.fix_atom_spacing` writes TeX's spaces on these; the others' dictionary spaces
# are TeX's. `tests/browser/test_operator_spacing.py` measures every Bin and Rel symbol.
MISSPACED_BINS = frozenset(
    "*·×†‡•⁀⁎⅋∗∘∙∾≀⊗⊙⊚⊛⊜⊠⊡⊺⋄⋅⋆⋇⋉⋊⋋⋌⌅⌆⌽△▴▵▶▷▸▹"
    "▽▾▿◀◁◂◃○◫◯⟇⟑⟠⟡⟢⟣⟤⟥⦂⦵⦶⦷⦹⧀⧁⧆⧇⧈⧍⧖⧗⧢⧾⧿⨯⨰⨱⨲⨳⨴⨵⨶⨷⨻⨼⨽⨿⩐⩤⩥⩱⩲⫴⫵⫾"
)
MISSPACED_RELATIONS = frozenset(
    "\u2234\u2235\u2236\u2322\u2323\u29d4\u29d5\u2a59\u2adb\u2adc\u2add\u2aec\u2aed"
)  # ∴ ∵ ∶ ⌢ ⌣ ⧔ ⧕ ⩙ ⫛ U+2ADC ⫝ ⫬ ⫭


# Commands of `GLYPH_COMMANDS` drawn with a variant of their character's glyph: command ->
# the token's class, for which math.css asks STIX Two Math for that variant. TeX's
# `\setminus` is as tall as `\backslash` (cmsy), but STIX Two Math's default U+2216 is the
# small `\smallsetminus` (0.33em; its ss14 variant is 0.96em); amssymb's `\shortmid` and
# `\shortparallel` are half as tall as `\mid` (STIX's ss06: 0.48em against 0.9em), its
# `\smallfrown`, `\smallsmile` two thirds as wide as `\frown` (ss12); TeX's `\emptyset`
# is a tall oval (cmsy), the font's default U+2205 the round `\varnothing` (cv03: the oval).
GLYPH_VARIANTS = {
    "setminus": "setminus",
    **dict.fromkeys(("shortmid", "nshortmid", "shortparallel", "nshortparallel"), "short"),
    **dict.fromkeys(("smallfrown", "smallsmile"), "small"),
    "emptyset": "emptyset",
}


def glyph_marker(name: str) -> str:
    """Return the token marker (`markers.marker`) of command `name` of `GLYPH_COMMANDS`,
    its class from `GLYPH_VARIANTS` after a `SEP` in the payload."""
    tag, char = GLYPH_COMMANDS[name]
    variant = GLYPH_VARIANTS.get(name)
    return marker(tag, char if variant is None else char + SEP + variant)


# mathrsfs's `\mathscr` is a roundhand script, `\mathcal` (cmsy) a chancery one; Unicode
# has one script alphabet, which STIX Two Math draws as chancery and, in its ss01 set, as
# roundhand (Temml's STIX stylesheet does the same). latex2mathml reads both as one
# `mathvariant`; a `variant` marker gives `\mathscr`'s tokens their class.
SCRIPT_MACROS = {"mathscr": "{" + marker("variant", "mathscr") + r"\mathcal{#1}}"}


def glyph_macros() -> dict[str, str]:
    """Return macros that turn `GLYPH_COMMANDS` into token markers (`glyph_marker`), and
    `SCRIPT_MACROS`."""
    return {name: glyph_marker(name) for name in GLYPH_COMMANDS} | SCRIPT_MACROS


@cache
def tex_classes() -> dict[str, str]:
    """Return character -> unicode-math category (`mathord`, `mathbin`, …) for math symbols.

    Read from latex2mathml's copy of unimathsymbols.txt (fields separated by `^`: code
    point, character, LaTeX, unicode-math name, Unicode class, category, …); every code
    point has one category there. ASCII entries come from `ASCII_CLASSES` instead.
    """
    classes: dict[str, str] = {}
    table = Path(latex2mathml.symbols_parser.SYMBOLS_FILE).read_text(encoding="utf-8")
    for line in table.splitlines():
        fields = line.split("^")
        if line.startswith("#") or len(fields) < 6 or not fields[5]:
            continue
        char = chr(int(fields[0], 16))
        if not char.isascii():
            classes.setdefault(char, fields[5])
    return {**classes, **ASCII_CLASSES, **OVERRIDES}


@lru_cache(maxsize=4096)
def symbol_class(text: str) -> str | None:
    """Return the TeX class of a one-symbol token text (variation selectors ignored), or None.

    Memoised: a formula's tokens are mostly the same few symbols.
    """
    bare = text.translate(VARIATION_SELECTORS)
    if len(bare) != 1 or bare.isalnum():
        return None
    return tex_classes().get(bare)
