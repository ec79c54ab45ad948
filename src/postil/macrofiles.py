r"""Math macros read from files: a LaTeX preamble, or the old theme's MathJax or KaTeX setup.

A blog moved to postil often defines its macros where its old generator typeset math: a
MathJax configuration in a layout include (`_includes/head.html`, Hugo's
`layouts/partials/math.html`: `MathJax = {tex: {macros: {R: "\\mathbb{R}"}}}`), KaTeX's
auto-render options (`macros: {"\\R": "\\mathbb{R}"}`), a LaTeX preamble (bookdown's
`preamble.tex`, a Quarto site's `_macros.tex`), or hidden `\newcommand`s in a page
(`<div hidden>$\newcommand{\R}{\mathbb{R}}$</div>`). `math: macros_from:` in postil.yaml
names such files, and their definitions are in force in every post, before the site's own
`math: macros:` (which win) and each post's (`SiteConfig.math_macros`).

What is read, by the file's ending:

- `.js`, `.mjs`, `.json`: each `macros: {…}` object of a MathJax 2 or 3 or KaTeX setup
  (`postil.markdown.mathloader.config_macro_entries`: `name: "TeX"`, `name: ["TeX #1", 1]`,
  `"\\name": "TeX"`);
- `.html`, `.htm`: those objects in its scripts, and the TeX definitions in the rest
  (their HTML entities decoded, `&lt;` is `<`, as the browser gives MathJax the text);
- anything else (`.tex`, `.sty`, `.md`, `.qmd`, `.txt`): the TeX definitions
  (`\newcommand`, `\renewcommand`, `\providecommand`, `\def`, `\let`,
  `\DeclareMathOperator`, `\DeclarePairedDelimiter`, `\newenvironment`, `\definecolor`:
  `postil.math.macros.extract_definitions`), outside TeX comments.
"""

from __future__ import annotations

import html
import re
from pathlib import Path, PurePosixPath

from postil.markdown.mathloader import config_macro_entries
from postil.math.errors import MathError
from postil.math.macros import extract_definitions

CONFIG_SUFFIXES = frozenset({".js", ".mjs", ".json"})
"""Files read for MathJax's and KaTeX's `macros: {…}` objects only."""

HTML_SUFFIXES = frozenset({".html", ".htm"})
"""Files read for both: the objects in their scripts, TeX definitions in the rest."""

SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script\s*>", re.I | re.S)
TEX_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
r"""A TeX comment: `%` (not `\%`) to the end of its line."""


class MacroFileError(ValueError):
    """A macros file that cannot be read, or whose definitions cannot be.

    Args:
        message: what is wrong and how to fix it.
        line: 1-based line in the file (0: the file as a whole).
        col: 1-based column (0: the line as a whole).
        source_line: the text of that line, for the error's excerpt.
    """

    def __init__(self, message: str, line: int = 0, col: int = 0, source_line: str = "") -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.source_line = message, line, col, source_line


def read_macro_file(path: Path, rel: str) -> dict[str, str]:
    """Return the macros a file defines, name (no backslash) -> body, in file order.

    Args:
        path: the file.
        rel: its path as the site's postil.yaml names it, for messages.

    Raises:
        MacroFileError: the file cannot be read or is not UTF-8; a definition is malformed
            (at its line and column); the file defines no macro at all (the wrong file named).
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise MacroFileError(f"`{rel}` is not UTF-8 text ({e.reason}); save it as UTF-8") from e
    except OSError as e:
        raise MacroFileError(f"`{rel}` cannot be read: {e.strerror}") from e
    suffix = PurePosixPath(rel).suffix.lower()
    entries: list[tuple[int, str]] = []
    if suffix in CONFIG_SUFFIXES:
        entries, tex = config_macro_entries(text), ""
    elif suffix in HTML_SUFFIXES:
        for script in SCRIPT.finditer(text):
            at = script.start(1)
            entries += [(at + offset, entry) for offset, entry in config_macro_entries(script[1])]
        # scripts blanked, not cut, so that offsets into `tex` are offsets into the file
        tex = SCRIPT.sub(lambda m: " " * len(m.group(0)), text)
    else:
        tex = TEX_COMMENT.sub(lambda m: " " * len(m.group(0)), text)
    found: dict[str, str] = {}
    for offset, entry in entries:
        try:
            found |= extract_definitions(entry)[0]
        except MathError as e:  # a MathJax entry whose TeX is malformed: at the entry
            message = f"this `macros` entry cannot be read: {e.message}"
            raise _error_at(text, offset, message) from e
    try:
        defined = extract_definitions(tex)[0]
    except MathError as e:
        raise _error_at(text, e.offset, e.message) from e
    if suffix in HTML_SUFFIXES:  # the browser decodes `&lt;` before MathJax reads the TeX
        defined = {name: html.unescape(body) for name, body in defined.items()}
    found |= defined
    if not found:
        raise MacroFileError(
            f"`{rel}` defines no macro: postil reads `\\newcommand`, `\\def`, "
            "`\\DeclareMathOperator` … and MathJax's or KaTeX's `macros: {…}`; name the file "
            "that defines them"
        )
    return found


def _error_at(text: str, offset: int, message: str) -> MacroFileError:
    """Return the error `message` at `offset` of the file's `text` (its line and column)."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line_text = text[start : end if end >= 0 else len(text)]
    line = text.count("\n", 0, offset) + 1
    return MacroFileError(message, line, offset - start + 1, line_text)
