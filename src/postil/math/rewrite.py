r"""LaTeX rewrites before latex2mathml, and the markers they leave in the MathML tree.

latex2mathml knows a fixed set of environments and parses `\operatorname` only for
plain letters. Rather than patch it, postil rewrites the LaTeX into what it knows and
leaves *markers* — `\text{<U+E000>kind<U+E001>payload}` — that latex2mathml carries
through untouched as `<mtext>`; `expand_markers` then turns each marker into the right
MathML (an operator name, the environment's styling, an equation reference).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from postil.math.classes import FIXED
from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.numbering import MARK, SEP, EquationRow
from postil.math.symbols import text_mode
from postil.math.tree import local

# KaTeX environment -> (latex2mathml environment, style name for tables.py).
ENVIRONMENTS: dict[str, tuple[str, str]] = {
    "aligned": ("split", "aligned"),
    "split": ("split", "aligned"),
    "align": ("split", "aligned"),
    "align*": ("split", "aligned"),
    "flalign": ("split", "aligned"),
    "flalign*": ("split", "aligned"),
    "alignat": ("split", "alignat"),
    "alignat*": ("split", "alignat"),
    "alignedat": ("split", "alignat"),
    "gathered": ("matrix", "gathered"),
    "gather": ("matrix", "gathered"),
    "gather*": ("matrix", "gathered"),
    "multline": ("matrix", "multline"),
    "multline*": ("matrix", "multline"),
    "cases": ("cases", "cases"),
    "dcases": ("cases", "dcases"),
    "darray": ("array", "darray"),
    "subarray": ("array", "subarray"),
}
NUMBERED_TOP = re.compile(
    r"\s*\\begin\{(equation|align|flalign|alignat|gather|multline)(\*?)\}(.*)"
    r"\\end\{\1\2\}\s*",
    re.DOTALL,
)
UNSUPPORTED_ENVS = frozenset("CD tikzcd xy picture tabular".split())
BEGIN = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
OPERATORNAME = re.compile(r"\\(operatorname\*?|operatornamewithlimits)(?![A-Za-z])")
REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")
ROW_COMMANDS = re.compile(r"\\(label|tag\*?)\s*\{([^{}]*)\}|\\(nonumber|notag)(?![A-Za-z])")
TEXT_COMMANDS = re.compile(
    r"\\(text|textrm|textnormal|textbf|textit|textsf|texttt|textup|textmd|mbox|hbox|emph)"
    r"(?![A-Za-z])\s*(?=\{)"
)
BIN_SPACE = "0.2222em"  # \medmuskip, 4mu (The TeXbook p. 170)
TEXT_STAND_INS = {"{": "\ue004", "}": "\ue005", "\\": "\ue006"}
UPRIGHT_LETTER = re.compile(r"\\(?:mathrm|mathup)\s*\{\s*([A-Za-z])\s*\}")
CHAR = re.compile(r'\\char\s*(?:"([0-9A-Fa-f]+)|(\d+))')
VERB = re.compile(r"\\verb\*?([^A-Za-z\s])(.*?)\1")
MATHOP = re.compile(r"\\mathop\s*\{\s*\\(?:mathrm|rm|text)\s*\{([A-Za-z]+)\}\s*\}")
SPACES = re.compile(r"\\[,:;> ]|~|\\(?:thinspace|medspace|thickspace)(?![A-Za-z])")


@dataclass(frozen=True)
class Prepared:
    """A formula rewritten for latex2mathml.

    Attributes:
        latex: the rewritten source.
        rows: the display rows for numbering (one per row of a numbered environment,
            else one), see `numbering.EquationRow`.
    """

    latex: str
    rows: tuple[EquationRow, ...]


def marker(kind: str, payload: str) -> str:
    """Return the LaTeX of a marker that `expand_markers` replaces after conversion."""
    return rf"\text{{{MARK}{kind}{SEP}{payload}}}"


def top_level_rows(latex: str) -> list[str]:
    r"""Split `latex` at the `\\` that are not inside braces or an environment."""
    rows, depth, start, i = [], 0, 0, 0
    while i < len(latex):
        if latex.startswith("\\begin", i) or latex[i] == "{" and latex[i - 1 : i] != "\\":
            depth += 1
        elif latex.startswith("\\end", i) or latex[i] == "}" and latex[i - 1 : i] != "\\":
            depth -= 1
        elif latex.startswith("\\\\", i) and depth == 0:
            rows.append(latex[start:i])
            start, i = i + 2, i + 2
            continue
        i += 2 if latex[i] == "\\" else 1
    rows.append(latex[start:])
    return rows


def _row(latex: str, numbered: bool) -> tuple[EquationRow, str]:
    r"""Read `\label`, `\tag`, `\nonumber` out of one row; return the row and the rest."""
    label = tag = None
    star = False
    for match in ROW_COMMANDS.finditer(latex):
        if match.group(1) == "label":
            label = match.group(2).strip()
        elif match.group(1):
            tag, star = match.group(2).strip(), match.group(1) == "tag*"
        else:
            numbered = False
    rest = ROW_COMMANDS.sub(" ", latex)
    return EquationRow(label, tag, star, numbered or (label is not None and tag is None)), rest


def split_numbering(latex: str, display: bool) -> tuple[str, tuple[EquationRow, ...]]:
    r"""Find the equation rows of a formula and take `\label`/`\tag`/`\nonumber` out.

    A whole-formula `equation`/`align`/`gather`/`multline` (not starred) numbers its rows
    (`multline` and `equation` once); other display math is numbered when it has a
    `\label`; `\tag` always shows. Inline math has no rows.
    """
    top = NUMBERED_TOP.fullmatch(latex) if display else None
    if top is None:
        row, rest = _row(latex, False)
        return rest, (row,) if display else ()
    if top.group(1) == "equation":
        row, rest = _row(top.group(3), not top.group(2))
        return rest, (row,)
    env, star, body = top.groups()
    if env == "alignat":
        body = re.sub(r"^\s*\{\d+\}", "", body)
    parts = top_level_rows(body)
    if env in ("multline",):
        rows = [_row(p, False)[0] for p in parts]
        label = next((r.label for r in rows if r.label), None)
        tagged = next((r for r in rows if r.tag is not None), EquationRow())
        merged = EquationRow(label, tagged.tag, tagged.star_tag, not star and tagged.tag is None)
        inner = r"\\".join(_row(p, False)[1] for p in parts)
        return rf"\begin{{multline*}}{inner}\end{{multline*}}", (merged,)
    pairs = [_row(p, not star) for p in parts]
    if len(pairs) > 1 and not pairs[-1][1].strip():
        pairs.pop()  # a trailing `\\` makes no row
    inner = r"\\".join(rest for _, rest in pairs)
    target = "gathered" if env == "gather" else "aligned"
    return rf"\begin{{{target}}}{inner}\end{{{target}}}", tuple(r for r, _ in pairs)


def rewrite_environments(latex: str) -> str:
    """Map KaTeX environments onto latex2mathml's, leaving a style marker before each."""

    def replace(match: re.Match[str]) -> str:
        which, name = match.groups()
        if name in UNSUPPORTED_ENVS:
            raise MathUnsupportedError(
                f"environment {name} is not supported", match.start(), f"\\begin{{{name}}}"
            )
        if name == "equation" or name == "equation*":
            return " "
        if name in ("rcases", "drcases"):  # the brace on the right
            style = "dcases" if name == "drcases" else "cases"
            if which == "end":
                return r"\end{array}\right\}"
            return r"\left." + marker("env", style) + r"\begin{array}{ll}"
        if name not in ENVIRONMENTS:
            return match.group(0)
        target, style = ENVIRONMENTS[name]
        if which == "end":
            return rf"\end{{{target}}}"
        skip = ""
        if name.startswith("alignat") or name == "alignedat":
            skip = "\ue002"  # the column count argument, removed below
        return marker("env", style) + rf"\begin{{{target}}}" + skip

    out = BEGIN.sub(replace, latex)
    return re.sub("\ue002\\s*\\{\\d+\\}", "", out) if "\ue002" in out else out


def rewrite_operatornames(latex: str) -> str:
    r"""Turn `\operatorname{arg\,max}` (any content) into an operator-name marker."""
    out, pos = [], 0
    for match in OPERATORNAME.finditer(latex):
        if match.start() < pos:
            continue
        name, end = read_group(latex, match.end())
        text = SPACES.sub("\u2009", name)
        text = re.sub(r"\\(?:mathrm|text|textrm|mathit)\s*\{([^{}]*)\}", r"\1", text)
        text = text.replace("{", "").replace("}", "").strip()
        kind = "op" if match.group(1) == "operatorname" else "opl"
        out += [latex[pos : match.start()], marker(kind, text)]
        pos = end
    return "".join(out) + latex[pos:]


def _text_piece(command: str, content: str) -> str:
    """Return one text command with its content made safe for latex2mathml's tokenizer."""
    if not content:
        return "{}"
    resolved = text_mode(content)
    unknown = re.search(r"\\(?:[A-Za-z]+|[^A-Za-z\s])", resolved)
    if unknown:
        raise MathUnsupportedError(
            f"unsupported text-mode command {unknown.group(0)}", 0, unknown.group(0)
        )
    return _hide(command, resolved)


def _hide(command: str, resolved: str) -> str:
    """Return `\\command{text}` with `{`, `}`, `\\` in the text behind stand-ins."""
    for char, stand_in in TEXT_STAND_INS.items():
        resolved = resolved.replace(char, stand_in)
    return rf"\{command}{{{resolved}}}"


def _split_text(command: str, content: str) -> str:
    r"""Rewrite `\text{a $x$ b}` as `\text{a }x\text{ b}`: math inside text stays math."""
    parts = re.split(r"(?<!\\)\$|\\[()]", content)
    return "".join(
        _text_piece(command, part) if i % 2 == 0 else "{" + part + "}"
        for i, part in enumerate(parts)
    )


def rewrite_text(latex: str) -> str:
    r"""Resolve text-mode commands inside `\text{…}`-like arguments before conversion.

    latex2mathml reads a text argument up to the first `}` and keeps `\&` as is; postil
    reads the real group, resolves `\&`, `\'{e}`, `\textless` to characters, keeps
    `$…$` inside as math, and hides `{`, `}`, `\` behind stand-ins restored afterwards.
    """
    out, pos = [], 0
    for match in TEXT_COMMANDS.finditer(latex):
        if match.start() < pos:
            continue
        content, end = read_group(latex, match.end())
        out += [latex[pos : match.start()], _split_text(match.group(1), content)]
        pos = end
    return "".join(out) + latex[pos:]


def rewrite_specials(latex: str) -> str:
    r"""Rewrite small constructs latex2mathml gets wrong: `\mathrm{d}`, `\char"41`, `*matrix*`.

    Each rewrite runs only when its command is in the text (most formulas have none).
    """
    if "\\math" in latex:
        latex = UPRIGHT_LETTER.sub(r"\\mathrm{{\1}}", latex)
    if "\\char" in latex:
        latex = CHAR.sub(
            lambda m: chr(int(m.group(1), 16) if m.group(1) else int(m.group(2))), latex
        )
    if "matrix*" in latex:
        latex = re.sub(r"\\(begin|end)\{([pbBvV]?matrix)\*\}", r"\\\1{\2}", latex)
    if "\\mathop" in latex:
        latex = MATHOP.sub(r"\\operatorname{\1}", latex)
    return latex


def prepare(latex: str, display: bool) -> Prepared:
    """Rewrite a (macro-expanded) formula for latex2mathml; collect its equation rows."""
    body, rows = split_numbering(latex, display)
    body = REF.sub(lambda m: marker(m.group(1), m.group(2).strip()), body)
    body = VERB.sub(lambda m: _hide("texttt", m.group(2)), body)
    body = rewrite_specials(body)
    body = rewrite_operatornames(body)
    body = rewrite_text(body)
    if display and "\\\\" in body and len(top_level_rows(body)) > 1:
        body = rf"\begin{{gathered}}{body}\end{{gathered}}"
    if "\\url" in body:
        body = re.sub(r"\\url\s*\{([^{}]*)\}", r"\\href{\1}{\\texttt{\1}}", body)
    return Prepared(rewrite_environments(body), rows)


def _next_sibling(parent: ET.Element, index: int) -> ET.Element | None:
    """Return the element after `parent[index]`, or None."""
    return parent[index + 1] if index + 1 < len(parent) else None


def expand_markers(root: ET.Element) -> None:
    """Replace operator-name and environment markers left by `prepare` (refs stay)."""
    for parent in list(root.iter()):
        for index, el in reversed(list(enumerate(parent))):
            if local(el) != "mtext":
                continue
            text = el.text or ""
            if any(s in text for s in TEXT_STAND_INS.values()):
                for char, stand_in in TEXT_STAND_INS.items():
                    text = el.text = text.replace(stand_in, char)
            if not text.startswith(MARK):
                continue
            kind, _, payload = text[1:].partition(SEP)
            if kind in ("mi", "mo"):
                el.tag, el.text = kind, payload
                el.set(FIXED, "1")  # the marker chose the kind (symbols.GLYPH_COMMANDS)
            elif kind == "mbin":  # a binary operator word, `\bmod`: TeX's medium spaces
                el.tag, el.text = "mo", payload
                el.attrib.update({FIXED: "1", "lspace": BIN_SPACE, "rspace": BIN_SPACE})
            elif kind in ("op", "opl"):
                el.tag, el.text = "mi", payload
                el.attrib.clear()
                el.set("data-op", "1")
                if kind == "opl":
                    el.set("data-limits", "1")
            elif kind == "env":
                target = _next_sibling(parent, index)
                table = (
                    next((t for t in target.iter() if local(t) == "mtable"), None)
                    if target is not None
                    else None
                )
                if table is not None:
                    table.set("data-env", payload)
                parent.remove(el)
