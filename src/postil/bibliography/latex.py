r"""LaTeX in `.bib` field values → Unicode text, with math kept as TeX.

Real `.bib` files are written for LaTeX: accents (`M{\"u}ller`, `Fran{\c c}ois`, `{\O}`,
`R\'{e}seaux`), escapes (`\&`, `\%`), ligature dashes (`--`, `---`), ties (`~`), braces that
protect case (`{SGD}`) and math (`$\alpha$`). Text is decoded by pylatexenc (the library
bibtexparser itself uses for this); braces are dropped and the case is kept as written (no
style here changes a title's case, so protecting braces have nothing to protect from).
The TeX logos (`\\TeX`, `{\\LaTeX}`, `\\BibTeX`, …) are written as their names, and a command
pylatexenc has no text for (`\\texttt{…}`, `\\mbox{…}`, a private `\\foo{…}`) keeps its arguments'
text: pylatexenc's own default drops both, which lost words from titles.
A field without a backslash takes a fast path that gives the same text, and decoded texts
are remembered (names repeat across a file): pylatexenc costs about 0.3 ms a field.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from postil.bibliography.entries import Pieces

_DASHES = (("---", "\u2014"), ("--", "\u2013"), ("~", "\u00a0"))
_BARE_PERCENT = re.compile(r"(?<!\\)%")
_SPACES = re.compile(r"[ \t\n\r]+")
"""Spaces that collapse; a tie (`~`, U+00A0) stays."""


@cache
def _decoder() -> tuple[Any, Any, Any]:
    """Return pylatexenc's walker class, its default LaTeX context (built once: building it
    is most of the cost of a short text) and a text converter."""
    from pylatexenc.latex2text import LatexNodes2Text
    from pylatexenc.latexwalker import LatexWalker, get_default_latex_context_db

    return (
        LatexWalker,
        get_default_latex_context_db(),
        LatexNodes2Text(latex_context=_text_context(), strict_latex_spaces=True),
    )


LOGOS = {
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2\u03b5",
    "BibTeX": "BibTeX",
    "BibLaTeX": "BibLaTeX",
    "biblatex": "biblatex",
    "XeTeX": "XeTeX",
    "XeLaTeX": "XeLaTeX",
    "LuaTeX": "LuaTeX",
    "LuaLaTeX": "LuaLaTeX",
    "pdfTeX": "pdfTeX",
    "pdfLaTeX": "pdfLaTeX",
    "eTeX": "\u03b5-TeX",
    "ConTeXt": "ConTeXt",
    "AmS": "AMS",
    "AMS": "AMS",
    "AmSTeX": "AMS-TeX",
    "AmSLaTeX": "AMS-LaTeX",
    "SliTeX": "SliTeX",
    "METAFONT": "METAFONT",
    "MF": "METAFONT",
    "MP": "MetaPost",
    "MetaPost": "MetaPost",
}
"""The logo commands of the TeX world (latex.ltx, hologo, the `\\BibTeX` of bibliography
styles) → their names as text."""


def _text_context() -> Any:
    """Return pylatexenc's text rules with the logos added and unknown commands keeping
    their arguments' text (the default drops a command it does not know with its text)."""
    from pylatexenc.latex2text import MacroTextSpec, get_default_latex_context_db

    context = get_default_latex_context_db()
    logos = [MacroTextSpec(name, simplify_repl=text) for name, text in LOGOS.items()]
    context.add_context_category("postil-logos", macros=logos, prepend=True)
    context.set_unknown_macro_spec(MacroTextSpec("", discard=False))
    return context


def _latex_to_text(latex: str) -> str:
    walker, context, converter = _decoder()
    nodes = walker(latex, latex_context=context, tolerant_parsing=True).get_latex_nodes()[0]
    return str(converter.nodelist_to_text(nodes))


@lru_cache(maxsize=1 << 16)
def decode(latex: str) -> str:
    """Return the Unicode text of LaTeX text (no math in it), spaces collapsed.

    `%` is a literal percent sign, as BibTeX reads it inside a field (LaTeX would start a
    comment).
    """
    if "\\" in latex:
        text = _latex_to_text(_BARE_PERCENT.sub(r"\\%", latex))
    else:
        text = latex.replace("{", "").replace("}", "")
        for ligature, char in _DASHES:
            text = text.replace(ligature, char)
    return _SPACES.sub(" ", text).strip(" \t\n\r")


NO_TEXT = frozenset(
    "em it bf sl sc rm sf tt up md normalfont itshape bfseries scshape upshape mdseries slshape "
    "rmfamily sffamily ttfamily tiny scriptsize footnotesize small normalsize large Large LARGE "
    "huge Huge relax protect noindent par newline linebreak nobreak hfill hfil allowbreak "
    "null unskip ignorespaces".split()
)
"""Commands that have no text of their own in LaTeX either (font and size switches,
spacing, `\\relax`): leaving them out loses nothing, so no warning names them."""


@lru_cache(maxsize=1 << 12)
def dropped_commands(latex: str) -> tuple[str, ...]:
    r"""Return the commands of a field's text (not its math) that have no text and so are
    left out: a `\name` pylatexenc does not know, with no `{…}` after it (`\LaTeX`-like
    logos and `\name{text}` keep their text), in order, each once."""
    if "\\" not in latex:
        return ()
    walker, context, converter = _decoder()
    found: dict[str, None] = {}
    for kind, content in _split_math(latex):
        if kind == "text" and "\\" in content:
            parsed = walker(content, latex_context=context, tolerant_parsing=True)
            _find_dropped(parsed.get_latex_nodes()[0], converter.latex_context, found)
    return tuple(found)


def _find_dropped(nodes: list[Any], text_context: Any, found: dict[str, None]) -> None:
    from pylatexenc.latexwalker import LatexGroupNode, LatexMacroNode

    for i, node in enumerate(nodes or ()):
        if isinstance(node, LatexGroupNode):
            _find_dropped(node.nodelist, text_context, found)
        elif isinstance(node, LatexMacroNode):
            args = node.nodeargd.argnlist if node.nodeargd else []
            for arg in args:
                if isinstance(arg, LatexGroupNode):
                    _find_dropped(arg.nodelist, text_context, found)
            after = nodes[i + 1] if i + 1 < len(nodes) else None
            grouped = isinstance(after, LatexGroupNode) and after.nodelist
            unknown = text_context.get_macro_spec(node.macroname) is text_context.unknown_macro_spec
            silent = not node.macroname.isalpha() or node.macroname in NO_TEXT
            if unknown and not silent and not any(args) and not grouped:
                found["\\" + node.macroname] = None


def pieces(latex: str) -> Pieces:
    r"""Return a field's text, emphasis and math pieces: `$…$` is ("math", TeX), `\$` a
    dollar; `\emph{…}`, `\textit{…}`, `\textsl{…}` are ("em", text) and `\textbf{…}`
    ("strong", text), which styles that write markup keep (`EMPHASIS`).

    A `$` without its closing `$` is text.
    """
    found: list[tuple[str, str]] = []
    for kind, content in _split_math(latex):
        if kind == "math":
            found.append(("math", content.strip()))
            continue
        for style, part in _split_emphasis(content):
            _add_text(found, style, part)
    if found and found[-1][0] != "math":
        found[-1] = (found[-1][0], found[-1][1].rstrip())
    return tuple(piece for piece in found if piece[1])


EMPHASIS = {"emph": "em", "textit": "em", "textsl": "em", "textbf": "strong"}
"""LaTeX's emphasis commands → the piece kind a reference writes as `<em>` or `<strong>`."""

_EMPHASIS = re.compile(r"\\(" + "|".join(EMPHASIS) + r")\s*\{")


def _split_emphasis(latex: str) -> list[tuple[str, str]]:
    """Split LaTeX text at its emphasis commands into ("text"|"em"|"strong", LaTeX) parts;
    a command whose `{` is not closed stays text."""
    parts, pos = [], 0
    for match in _EMPHASIS.finditer(latex):
        if match.start() < pos:
            continue  # inside an emphasis already taken
        depth, end = 1, match.end()
        while end < len(latex) and depth:
            depth += {"{": 1, "}": -1}.get(latex[end], 0)
            end += 2 if latex[end] == "\\" else 1
        if depth:
            break
        parts += [
            ("text", latex[pos : match.start()]),
            (EMPHASIS[match.group(1)], latex[match.end() : end - 1]),
        ]
        pos = end
    parts.append(("text", latex[pos:]))
    return [part for part in parts if part[1]]


def _add_text(found: list[tuple[str, str]], kind: str, content: str) -> None:
    """Append decoded text of `kind` to `found`, keeping one space at an edge where the
    source had one (`decode` strips them), and joining text after an unclosed `$`."""
    text = decode(content)
    lead = " " if content[:1].isspace() and found else ""
    tail = " " if content[-1:].isspace() else ""
    if text or lead or tail:
        text = lead + text + (tail if text else "")
        if kind == "text" and found and found[-1][0] == "text":
            text = found.pop()[1] + text
        found.append((kind, text))


def _split_math(latex: str) -> list[tuple[str, str]]:
    """Split at unescaped `$` pairs into ("text", LaTeX) and ("math", TeX) parts."""
    parts: list[tuple[str, str]] = []
    start, i, opened = 0, 0, -1
    while i < len(latex):
        char = latex[i]
        if char == "\\":
            i += 2
            continue
        if char == "$":
            if opened < 0:
                parts.append(("text", latex[start:i]))
                opened = i
            else:
                parts.append(("math", latex[opened + 1 : i]))
                opened, start = -1, i + 1
        i += 1
    if opened >= 0:  # an unclosed `$`: the rest is text
        parts.append(("text", latex[opened:]))
    else:
        parts.append(("text", latex[start:]))
    return parts


def plain(latex: str) -> str:
    """Return a field as one line of plain text: its math as the TeX between `$`s."""
    return "".join(f"${c}$" if kind == "math" else c for kind, c in pieces(latex))
