"""MathJax and KaTeX loaded by a post itself: left out, their macros kept.

Posts written before their theme typeset math load a math renderer in their own raw HTML:

    <script async src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.5/MathJax.js?config=TeX-MML-AM_CHTML"></script>
    <script type="text/x-mathjax-config">
      MathJax.Hub.Config({TeX: {Macros: {R: "{\\mathbb{R}}", norm: ["\\lVert #1 \\rVert", 1]}}});
    </script>
    <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/katex/dist/katex.min.css">
    <script>renderMathInElement(document.body, {macros: {"\\E": "\\mathbb{E}"}});</script>

postil typesets the math at build time, so such a script would only typeset the page a
second time in the reader's browser (MathJax 2 turns postil's MathML into its own, and
reads any `$` left in the text as a delimiter). `browser_math` tells these elements apart:
a `<script>` whose `src` loads MathJax or KaTeX, a `<link>` to their stylesheets, and a
script configuring them (`text/x-mathjax-config`, `MathJax.Hub.Config(…)`,
`window.MathJax = {…}`, `renderMathInElement(…)`, `katex.render(…)`). They are left out
of the page (`postil.markdown.mathhtml`), silently: the post's math is still typeset. The
macros such a configuration defines (MathJax's `Macros`/`macros`, KaTeX's `macros`) are
read (`config_macros`) and become `\\newcommand`s in force from that point of the post on,
as they were in the browser.
"""

from __future__ import annotations

import re

LOADER_URL = re.compile(r"mathjax|katex", re.I)
"""A URL of MathJax's or KaTeX's files (CDNs and local copies name them so)."""

CONFIG = re.compile(
    r"MathJax\.Hub\.Config|MathJax\s*=|MathJax\.Ajax|renderMathInElement|katex\.render", re.I
)
"""Script text that configures or runs MathJax or KaTeX."""

_ATTR = re.compile(r"""([A-Za-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_MACROS = re.compile(r"\bmacros\s*:\s*\{", re.I)
_JS_STRING = r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\$]|\\.|\$(?!\{))*`"""
"""A JavaScript string: double- or single-quoted, or a template literal without `${…}`."""
_JS_COMMENT = re.compile(rf"({_JS_STRING})|//[^\n]*|/\*.*?\*/", re.S)
"""A JavaScript comment (`//` to the line's end, `/* … */`), or a string, matched whole so
that a `//` inside one (a URL) is no comment."""
_ENTRY = re.compile(
    rf"""\s*(?:({_JS_STRING})|([A-Za-z]+))\s*:\s*"""
    rf"""(?:({_JS_STRING})|\[\s*({_JS_STRING})\s*(?:,\s*(\d)\s*)?"""
    rf"""(?:,\s*({_JS_STRING})\s*)?(?:,[^\]]*)?\])\s*,?""",
    re.S,
)
_ESCAPE = re.compile(r"\\(.)", re.S)
_NOT_NEWLINE = re.compile(r"[^\n]")
_SPACE = re.compile(r"\s*")
_JS_ESCAPES = {"n": "\n", "t": "\t"}


def browser_math(tag: str, body: str = "") -> bool:
    """Return True when an HTML element loads, configures or runs MathJax or KaTeX.

    Args:
        tag: the element's start tag as written (`<script src="…">`, `<link …>`).
        body: a script's text (empty for a `<link>`).
    """
    attrs = _attributes(tag)
    name = tag[1:].split(None, 1)[0].rstrip(">/").lower() if tag.startswith("<") else ""
    if name == "link":
        return bool(LOADER_URL.search(attrs.get("href", "")))
    if name != "script":
        return False
    if LOADER_URL.search(attrs.get("src", "")):
        return True
    return attrs.get("type", "").lower() == "text/x-mathjax-config" or bool(CONFIG.search(body))


def config_macros(body: str) -> str:
    r"""Return the `\newcommand`s of the macros a MathJax or KaTeX configuration defines.

    Reads each `macros: {…}` object (MathJax 2's `TeX: {Macros: …}`, MathJax 3's
    `tex: {macros: …}`, KaTeX's option): `name: "TeX"`, `name: ["TeX with #1", 1]`
    (MathJax's form with the number of arguments), `name: ["#1 #2", 2, "default"]` (the
    first argument optional, with that default), `"\\name": "TeX"` (KaTeX's, the
    backslash in the key). JavaScript's string escapes are undone (`"\\mathbb{R}"` is
    `\mathbb{R}`), a template literal's too (`` `\\frac{1}{2}` ``, no `${…}` in it).
    JavaScript's comments are skipped: one between entries ended its object's reading, and
    a `macros: {…}` commented out was read. An entry written any other way (a variable, a
    function) ends the reading of its object: the macros before it are kept.

    Returns:
        `\newcommand{\R}{\mathbb{R}}`, one after another, or "" for none.
    """
    return "".join(definition for _, definition in config_macro_entries(body))


def config_macro_entries(body: str) -> list[tuple[int, str]]:
    r"""Return each macro `config_macros` reads as (offset of its entry in `body`, its
    `\newcommand`), in order: for a message at the entry that cannot be read
    (`postil.macrofiles`)."""
    out: list[tuple[int, str]] = []
    if "/" in body:  # comments blanked, their lines kept (a string is kept whole)
        body = _JS_COMMENT.sub(lambda m: m.group(1) or _NOT_NEWLINE.sub(" ", m.group(0)), body)
    for found in _MACROS.finditer(body):
        pos = found.end()
        while (entry := _ENTRY.match(body, pos)) is not None:
            quoted_key, bare_key, value, array_value, count, default = entry.groups()
            key = _js_string(quoted_key) if quoted_key else bare_key
            name = key.lstrip("\\")
            if re.fullmatch(r"[A-Za-z]+", name):
                tex = _js_string(value or array_value)
                arity = f"[{count}]" if count and count != "0" else ""
                if arity and default is not None:
                    option = _js_string(default)
                    arity += f"[{{{option}}}]" if "]" in option else f"[{option}]"
                start = _SPACE.match(body, pos).end()  # type: ignore[union-attr]
                out.append((start, f"\\newcommand{{\\{name}}}{arity}{{{tex}}}"))
            pos = entry.end()
    return out


def _js_string(literal: str) -> str:
    """Return the text of a JavaScript string literal (its quotes and escapes undone)."""
    return _ESCAPE.sub(lambda m: _JS_ESCAPES.get(m.group(1), m.group(1)), literal[1:-1])


def _attributes(tag: str) -> dict[str, str]:
    """Return a start tag's attributes by lower-case name."""
    return {
        match.group(1).lower(): next(g for g in match.groups()[1:] if g is not None)
        for match in _ATTR.finditer(tag)
    }
