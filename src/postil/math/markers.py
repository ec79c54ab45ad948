r"""Markers: how the passes talk to each other, in the TeX and in the MathML tree.

latex2mathml knows a fixed set of commands. Rather than patch it, a TeX pass rewrites
what it cannot do into a *marker*, `\text{<U+E000>kind<U+E001>payload}`, which
latex2mathml carries through untouched as an `<mtext>`; a tree pass then turns each
marker into the right MathML. The kinds:

| kind | left by | payload | becomes (`expand_markers`, or the pass named) |
| --- | --- | --- | --- |
| `mi`, `mo` | `symbols.glyph_macros` | a character [SEP class] | that token, kind fixed (class) |
| `mbin` | `symbols.glyph_macros` (`\centerdot`) | a symbol | an `<mo>` with TeX's medium spaces |
| `variant` | `symbols.glyph_macros` (`\mathscr`) | a class | that class on the next one's tokens |
| `digits` | `fonts.mark_digit_fonts` (`\bf`) | a mathvariant | it on the `<mn>`s after it (group) |
| `bmod` | `symbols.glyph_macros` (`\bmod`) | a word | an `<mo>` with `\bmod`'s 5mu in every style |
| `op`, `opl` | `rewrite.rewrite_operatornames` | a name | `<mi data-op>` (`opl`: `data-limits`) |
| `opgroup` | `rewrite.rewrite_operatornames` | `op`/`opl` | `data-op` on its group (math name) |
| `limits` | `limits.rewrite_limits` | `always`/`0`/`1` | `data-limits` on its operator |
| `env` | `environments.rewrite_environments` | a style (`:t`: `[t]`) | `data-env` (`data-top`) |
| `fracdelim` | `rewrite.rewrite_genfrac` | a delimiter | an `<mo>` sized by style (`\binom`'s) |
| `fracrule` | `rewrite.rewrite_genfrac` | a length | `linethickness` on the next `mfrac` |
| `sized` | `rewrite_specials` | a class | `DATA_CLASS` on a `\big` form's `<mo>` (`\bigm` spaced) |
| `logo` | `textmode.rewrite_logos` | the word | its group a `<semantics>`, word annotated |
| `ref`, `eqref` | `rewrite.rewrite_refs` | a label in hex | a link (`numbering.resolve_refs`) |

Besides markers, text inside `\text{…}` hides `{`, `}`, `\` behind `TEXT_STAND_INS` (restored
by `expand_markers`), and tree passes leave private `data-*` attributes on elements
(`FIXED`, `DATA_OP`, `DATA_LIMITS`, `DATA_ENV`, `DATA_TOP`) that `clean_markers` drops before
output.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

MARK = "\ue000"  # private-use sentinels of a marker `\text{MARK kind SEP payload}`
SEP = "\ue001"
TEXT_STAND_INS = {"{": "\ue004", "}": "\ue005", "\\": "\ue006"}
FIXED = "data-fixed"  # a token whose kind a marker chose: classes must not change it
DATA_OP = "data-op"  # an operator name (`\operatorname`): a function name for spacing
DATA_LIMITS = "data-limits"  # "1": limits in display style (`\operatorname*`); "always", "0"
DATA_CLASS = "data-class"  # the TeX class a class command gave a token (`\mathrel{\#}`)
DATA_ENV = "data-env"  # the environment style of an `mtable` (environments.STYLES)
DATA_TOP = "data-top"  # "t": an `mtable` whose first row sits on the baseline (`[t]`)
REF_KINDS = ("ref", "eqref")
BIN_SPACE = "0.2222em"  # \medmuskip, 4mu (The TeXbook p. 170)
DISPLAY_DELIMITER = "2.047em"
"""latex2mathml's size of a generalised fraction's delimiters (`\\binom`), and of `\\bigg`:
`styles.fix_fraction_delimiters` sizes the former by style; `\\bigg`'s carry `DATA_CLASS`."""
REL_SPACE = "0.2778em"  # \thickmuskip, 5mu (The TeXbook p. 170)
BMOD_SPACE = "0.2778em"
r"""`\bmod`'s 5mu (latex.ltx: `\nonscript\mskip-\medmuskip\mkern5mu\mathbin{mod}…\mkern5mu`:
the binary operator's own space is taken back, so 5mu in text, display and script style)."""


# What puts a marker or a stand-in into latex2mathml's tree: the TeX holding one, or an
# entity (`\text{&#xE000;}`) that `engine.decode_entities` turns into one, or latex2mathml's
# `\unicode{xE000}` (written as such an entity).
MAY_MARK = re.compile("[\ue000\ue004-\ue006]|&#|\\\\unicode")


def may_hold_markers(latex: str) -> bool:
    """Tell whether latex2mathml's tree of `latex` may hold a marker or a stand-in.

    False lets the passes that only act on markers skip their walk of the tree (issue 20:
    most formulas have none). latex2mathml's own strings and symbols hold no private-use
    character, so a marker's `U+E000` can only come from the TeX itself or an entity in it.
    """
    return MAY_MARK.search(latex) is not None


def marker(kind: str, payload: str) -> str:
    """Return the LaTeX of a marker (`\\text{…}`) that a tree pass replaces after conversion."""
    return rf"\text{{{MARK}{kind}{SEP}{payload}}}"


def hide_label(label: str) -> str:
    """Return a label as hex digits of its UTF-8, which latex2mathml's `\\text` keeps as they
    are (it turns spaces into no-break spaces and reads `$`, `#`, `~` …)."""
    return label.encode("utf-8", "surrogatepass").hex()


def unhide_label(payload: str) -> str:
    """Return the label `hide_label` hid in `payload`."""
    return bytes.fromhex(payload).decode("utf-8", "surrogatepass")


def read_marker(el: ET.Element) -> tuple[str, str] | None:
    """Return (kind, payload) if `el` is a marker's `<mtext>`, else None."""
    text = el.text or ""
    if el.tag != "mtext" or not text.startswith(MARK):
        return None
    kind, _, payload = text[len(MARK) :].partition(SEP)
    return kind, payload


def hide_text(command: str, text: str) -> str:
    """Return `\\command{text}` with `{`, `}`, `\\` in the text behind `TEXT_STAND_INS`."""
    for char, stand_in in TEXT_STAND_INS.items():
        text = text.replace(char, stand_in)
    return rf"\{command}{{{text}}}"


def visible(text: str) -> str:
    """Return `text` with markers and stand-ins readable: `⟦op⟧name`, `⟦{⟧` (for tracing)."""
    text = text.replace(MARK, "⟦").replace(SEP, "⟧")
    for char, stand_in in TEXT_STAND_INS.items():
        text = text.replace(stand_in, f"⟦{char}⟧")
    return text


def _next_sibling(parent: ET.Element, index: int) -> ET.Element | None:
    """Return the element after `parent[index]`, or None."""
    return parent[index + 1] if index + 1 < len(parent) else None


def _is_digits_marker(el: ET.Element) -> bool:
    """Tell whether `el` is a `digits` marker."""
    return el.tag == "mtext" and (el.text or "").startswith(MARK + "digits" + SEP)


def _style_digits(el: ET.Element, variant: str) -> None:
    """Give the `<mn>`s of `el` that have no font `variant`, except those after a `digits`
    marker of a group inside `el` (a switch nested in it: `{\\bf 1 {\\sf 2} 3}`)."""
    if el.tag == "mn":
        if "mathvariant" not in el.attrib:
            el.set("mathvariant", variant)
        return
    for child in el:
        if _is_digits_marker(child):
            break
        _style_digits(child, variant)


def has_markers(root: ET.Element, kinds: tuple[str, ...]) -> bool:
    """Tell whether an `<mtext>` in `root` is a marker of one of `kinds` (a cheap look:
    ElementTree finds the `mtext`s, so a pass can skip its walk of the whole tree)."""
    for el in root.iter("mtext"):
        text = el.text
        if text and text[0] == MARK and text[1:].partition(SEP)[0] in kinds:
            return True
    return False


def _has_marker_or_stand_in(root: ET.Element) -> bool:
    """Tell whether an `<mtext>` in `root` is a marker or holds a stand-in."""
    for el in root.iter("mtext"):
        text = el.text
        if text and (text[0] == MARK or any(s in text for s in TEXT_STAND_INS.values())):
            return True
    return False


def expand_markers(root: ET.Element) -> None:
    """Replace the token, operator-name and environment markers (refs stay for numbering).

    Also restores the characters `hide_text` put behind stand-ins.
    """
    if not _has_marker_or_stand_in(root):
        return
    for parent in list(root.iter()):
        if parent.find("mtext") is None:
            continue  # most parents hold none (a look in C, not a loop over the children)
        for index, el in reversed(list(enumerate(parent))):
            if el.tag != "mtext":
                continue
            text = el.text or ""
            if any(s in text for s in TEXT_STAND_INS.values()):
                for char, stand_in in TEXT_STAND_INS.items():
                    text = el.text = text.replace(stand_in, char)
            if not text.startswith(MARK):
                continue
            kind, _, payload = text[1:].partition(SEP)
            _expand(parent, index, el, kind, payload)


def _expand(parent: ET.Element, index: int, el: ET.Element, kind: str, payload: str) -> None:
    """Turn one marker `<mtext>` into what its kind stands for (see the module table)."""
    if kind in ("mi", "mo"):
        el.tag, el.text, _, variant = kind, *payload.partition(SEP)
        el.set(FIXED, "1")  # the marker chose the kind (symbols.GLYPH_COMMANDS)
        if variant:  # the glyph variant math.css draws (symbols.GLYPH_VARIANTS); Chromium
            el.set("class", variant)  # shapes no stretchy operator (`⌢`) with the features
            if kind == "mo":
                el.set("stretchy", "false")
    elif kind == "mbin":  # a binary operator, `\centerdot`: TeX's medium spaces
        el.tag, el.text = "mo", payload
        el.attrib.update({FIXED: "1", "lspace": BIN_SPACE, "rspace": BIN_SPACE})
    elif kind == "bmod":  # latex.ltx's `\bmod`: 5mu on each side in every style
        el.tag, el.text = "mo", payload
        el.attrib.update({FIXED: "1", "lspace": BMOD_SPACE, "rspace": BMOD_SPACE})
    elif kind in ("op", "opl"):
        el.tag, el.text = "mi", payload
        el.attrib.clear()
        el.set(DATA_OP, "1")
        if len(payload) == 1:  # `\operatorname{E}`: upright (TeX's \operator@font), where
            el.set("mathvariant", "normal")  # a one-letter `<mi>` is italic
        if kind == "opl":
            el.set(DATA_LIMITS, "1")
    elif kind == "opgroup":  # the marker opens the group that is the operator's name
        parent.set(DATA_OP, "1")
        if payload == "opl":
            parent.set(DATA_LIMITS, "1")
        parent.remove(el)
    elif kind == "variant":  # `\mathscr{…}`: its tokens draw a glyph variant (math.css)
        target = _next_sibling(parent, index)
        for token in target.iter() if target is not None else ():
            if token.tag in ("mi", "mn", "mo"):
                token.set("class", payload)
        parent.remove(el)
    elif kind == "digits":  # `{\bf 0}`: the digits after it in its group, in that font
        for sibling in parent[index + 1 :]:
            if _is_digits_marker(sibling):
                break  # the group's next switch takes over from there
            _style_digits(sibling, payload)
        parent.remove(el)
    elif kind == "fracdelim":  # `\genfrac`'s delimiter, sized by style as `\binom`'s
        el.tag, el.text = "mo", payload
        el.attrib.clear()
        el.attrib.update(minsize=DISPLAY_DELIMITER, maxsize=DISPLAY_DELIMITER)
    elif kind == "fracrule":  # `\genfrac`'s rule thickness, on the fraction after it
        target = _next_sibling(parent, index)
        if target is not None and target.tag == "mfrac":
            target.set("linethickness", payload)
        parent.remove(el)
    elif kind == "sized":  # a `\big` form's delimiter: its atom's class (and so not a
        target = _next_sibling(parent, index)  # generalised fraction's, `\bigg`'s size)
        if target is not None:
            target.set(DATA_CLASS, payload)
            if payload == "mathrel":  # `\bigm|`: a relation, with its spaces (dropped in
                # scripts by the atom spacing, as TeX does)
                target.attrib.update({FIXED: "1", "lspace": REL_SPACE, "rspace": REL_SPACE})
        parent.remove(el)
    elif kind == "logo":  # opens a TeX logo's group: its word for readers of plain text
        parent.remove(el)
        shown = ET.Element("mrow")
        shown.extend(list(parent))
        parent[:] = []
        semantics = ET.SubElement(parent, "semantics")
        semantics.append(shown)
        ET.SubElement(semantics, "annotation", encoding="text/plain").text = payload
    elif kind == "env":
        target = _next_sibling(parent, index)
        table = next(target.iter("mtable"), None) if target is not None else None
        if table is not None:
            style, _, position = payload.partition(":")
            table.set(DATA_ENV, style)
            if position:  # `\begin{aligned}[t]` (`environments.top_align`)
                table.set(DATA_TOP, position)
        parent.remove(el)


def clean_markers(root: ET.Element) -> None:
    """Drop the private `data-*` attributes the passes used to talk to each other."""
    for el in root.iter():
        attrib = el.attrib
        for attr in attrib:  # most elements have no attribute, and none of them `data-*`
            if attr.startswith("data-"):
                for private in [a for a in attrib if a.startswith("data-")]:
                    del attrib[private]
                break
