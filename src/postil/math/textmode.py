r"""Text mode inside math: `\text{…}` and its kin, `\verb`, text accents and symbols.

latex2mathml reads a text argument up to the first `}` and keeps `\&` as is; postil reads
the real group, resolves `\&`, `\'{e}`, `\textless` to characters (`symbols.TEXT_SYMBOLS`,
`symbols.ACCENTS`), keeps `$…$` inside as math, and hides `{`, `}`, `\` behind stand-ins
(`markers.hide_text`) that `markers.expand_markers` restores after conversion.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import hide_text, marker
from postil.math.symbols import ACCENTS, TEXT_SYMBOLS

TEXT_COMMANDS = re.compile(
    r"\\(text|textrm|textnormal|textbf|textit|textsf|texttt|textup|textmd|textsc|mbox|hbox|emph)"
    r"(?![A-Za-z])\s*(?=\{)"
)
VERB = re.compile(r"\\verb\*?([^A-Za-z\s])(.*?)\1")
ACCENT = re.compile(
    r"\\([`'^\"~=.]|[uvHrck](?![A-Za-z]))\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
)
# A control word eats the spaces after it (The TeXbook p. 47); a control symbol does not.
# `\textsc{…}`: lowercase letters as Unicode's small capitals (q and x have none of their
# own in common fonts: ꞯ is recent, and x is the small capital's shape already).
SMALL_CAPITALS = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘqʀꜱᴛᴜᴠᴡxʏᴢ")
COMMAND_BEFORE = re.compile(r"\\[A-Za-z]+\s*\Z|\}\s*\Z")
r"""What makes a `{` a command's argument: a control word right before it, or another
argument (`\textcolor{red}{…}`)."""
TEXT_COMMAND = re.compile(r"(\\[A-Za-z]+)\s*(?:\{\})?|(\\[&%$#_{} ,:;!>\\])")
r"""A text-mode command: a control word with the spaces after it, or with the empty group
`{}` that ends it and keeps the space after (`\ss{} b`, `\LaTeX{} is`: TeX's idiom, in which
the group shows nothing), or a control symbol."""
# Spaces in text mode (LaTeX's `\quad` is 1em, `\enspace` 0.5em, `\,` a thin space 1/6em;
# amsmath's `\:`/`\>` 4/18em and `\;` 5/18em, `\!` a negative thin space, drawn as none)
# as Unicode spaces. `\\` and `\newline` end no line inside `\text` (a box of one line):
# they show as a word space, as Temml's `\text{a \\ b}` does in Chromium, never as "\".
TEXT_SPACES: dict[str, str] = {
    "\\quad": "\u2003",
    "\\qquad": "\u2003\u2003",
    "\\enspace": "\u2002",
    "\\enskip": "\u2002",
    "\\thinspace": "\u2009",
    "\\,": "\u2009",
    "\\:": "\u205f",
    "\\>": "\u205f",
    "\\;": "\u2004",
    "\\!": "",
    "\\\\": " ",
    "\\newline": " ",
}


def text_mode(text: str) -> str:
    r"""Resolve text-mode commands and accents in the content of `\text{…}`."""
    text = re.sub(r"(?<!\\)~", "\u00a0", text)  # a tie is a no-break space
    text = ACCENT.sub(_accent, text)
    return TEXT_COMMAND.sub(_text_symbol, text)


def _text_symbol(match: re.Match[str]) -> str:
    """Return the character of one text-mode command, or the command as written."""
    command = match.group(1) or match.group(2)
    if command in TEXT_SPACES:
        return TEXT_SPACES[command]
    return TEXT_SYMBOLS.get(command, match.group(0))


def _accent(match: re.Match[str]) -> str:
    """Compose one text accent with its letter (`\\'{e}` -> é)."""
    letter = match.group(2) or match.group(3)
    base = TEXT_SYMBOLS.get(letter, letter) if letter.startswith("\\") else letter
    return unicodedata.normalize("NFC", base + ACCENTS[match.group(1)])


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
    if command == "textsc":
        command, resolved = "text", resolved.translate(SMALL_CAPITALS)
    if command != "texttt" and any(char in resolved for char in "-`'!?"):
        resolved = TEXT_LIGATURE.sub(lambda m: TEXT_LIGATURES[m[0]], resolved)
    return hide_text(command, resolved)


TEXT_LIGATURES = {
    "---": "\u2014",
    "--": "\u2013",
    "``": "\u201c",
    "''": "\u201d",
    "`": "\u2018",
    "'": "\u2019",
    "!`": "\u00a1",
    "?`": "\u00bf",
}
"""What TeX's text fonts make of these characters: Computer Modern's ligatures (`--` an en
dash, `---` an em dash, ``` `` ``` and `''` double quotes, ``!` `` ¡; The TeXbook, ch. 2 and
Appendix F) and its quote glyphs (`'` is a right quote, the apostrophe of "Jensen's", and
`` ` `` a left one), in OT1 and T1 alike. So `\\text{Jensen's inequality}` shows an
apostrophe, not a typewriter quote; `\\texttt` keeps them as typed (cmtt has no such
ligatures); a `"` is left alone (OT1 draws a closing quote, T1 a straight one)."""
TEXT_LIGATURE = re.compile("|".join(re.escape(k) for k in TEXT_LIGATURES))


FONT_SWITCHES = {
    **dict.fromkeys(("bf", "bfseries"), "textbf"),
    **dict.fromkeys(("it", "itshape", "em", "sl", "slshape"), "textit"),
    **dict.fromkeys(("rm", "rmfamily", "normalfont", "upshape"), "textrm"),
    **dict.fromkeys(("sf", "sffamily"), "textsf"),
    **dict.fromkeys(("tt", "ttfamily"), "texttt"),
    **dict.fromkeys(("sc", "scshape"), "textsc"),
    "mdseries": "textmd",
}
r"""Text-mode font switches (plain TeX's `\bf`, LaTeX's `\bfseries`) -> the command taking
the same font as an argument."""
FONT_SWITCH = re.compile(r"\\(" + "|".join(FONT_SWITCHES) + r")(?![A-Za-z])\s*")


def _font_switches(content: str) -> str:
    r"""Rewrite font switches as text commands: `{\bf x} y` -> `\textbf{x} y`, and a switch
    outside braces applies to the rest of its group: `a \it b c` -> `a \textit{b c}`."""
    return _scoped_switches(
        content, FONT_SWITCH, lambda match: (FONT_SWITCHES[match.group(1)], match.end())
    )


def _scoped_switches(
    content: str, switch: re.Pattern[str], command: Callable[[re.Match[str]], tuple[str, int]]
) -> str:
    r"""Rewrite each `switch` in text as the command taking its scope as an argument: the
    group it opens (`{\bf x}` -> `\textbf{x}`), else the rest of the innermost group (`a
    \it b c` -> `a \textit{b c}`). `command(match)` gives the command (`textbf`,
    `textcolor{red}`) and the offset its scope starts at. A switch in math inside the text
    (`\text{a $\bf x$ b}`, `\colorbox{y}{$\color{red} x$}`) is math's own, left as
    written: rewritten, its scope ran past the closing `$`, which then showed as text."""
    for _ in range(100):  # each pass rewrites one switch; 100 are more than any text holds
        match = next(
            (m for m in switch.finditer(content) if not _in_math(content, m.start())), None
        )
        if match is None:
            return content
        name, after = command(match)
        start, opened = match.start(), _open_group(content, match.start())
        if opened is not None and content[opened + 1 : start].strip() == "":
            _, end = read_group(content, opened)  # `{\bf x}`: the group is the scope
            inner = content[after : end - 1]
            content = content[:opened] + f"\\{name}{{{inner}}}" + content[end:]
            continue
        end = len(content) if opened is None else read_group(content, opened)[1] - 1
        content = content[:start] + f"\\{name}{{{content[after:end]}}}" + content[end:]
    return content


def _open_group(text: str, pos: int) -> int | None:
    """Return the offset of the `{` of the innermost group open at `pos`, or None."""
    depth = 0
    for index in range(pos - 1, -1, -1):
        char = text[index]
        if char not in "{}" or index and text[index - 1] == "\\":
            continue
        if char == "}":
            depth += 1
        elif depth:
            depth -= 1
        else:
            return index
    return None


TEXT_HSPACE = re.compile(r"\\hspace\*?\s*\{([^{}]*)\}")
r"""LaTeX's `\hspace{1em}` (and `\hspace*`) in text: a space of its length, as in math."""


COLOR_SWITCH = re.compile(r"\\color(?![A-Za-z])\s*(?=\{)")
r"""xcolor's `\color{c}` in text: a switch like `\bf`, which colours the rest of its group."""


def _color_switches(content: str) -> str:
    r"""Rewrite colour switches in text as `\textcolor`: `a \color{red} b c` ->
    `a \textcolor{red}{b c}`, `{\color{red} b} c` -> `\textcolor{red}{b} c`
    (`_scoped_switches`)."""

    def command(match: re.Match[str]) -> tuple[str, int]:
        colour, after = read_group(match.string, match.end())
        return f"textcolor{{{colour}}}", after

    return _scoped_switches(content, COLOR_SWITCH, command)


def _in_math(text: str, pos: int) -> bool:
    """Tell whether `pos` is inside `$…$` in `text` (an odd number of unescaped `$` before it)."""
    return len(re.findall(r"(?<!\\)\$", text[:pos])) % 2 == 1


def _split_text(command: str, content: str) -> str:
    r"""Rewrite `\text{a $x$ b}` as `\text{a }x\text{ b}`: math inside text stays math."""
    if "\\" in content and FONT_SWITCH.search(content):
        content = _font_switches(content)
    if "\\color" in content:
        content = _color_switches(content)
    if "\\hspace" in content:  # a space of any length: math's `\hspace`, an `<mspace>`
        content = TEXT_HSPACE.sub(lambda m: "$\\hspace{" + m.group(1) + "}$", content)
    parts = _math_split(content)
    return "".join(
        _nested_text(command, part) if i % 2 == 0 else "{" + rewrite_text(part) + "}"
        for i, part in enumerate(parts)
    )


def _math_split(content: str) -> list[str]:
    r"""Split text at the `$`, `\(`, `\)` outside its commands' groups: text, math, text, …
    (a `$` in a nested `\textit{a $x$}` belongs to that group, which is split in its turn).

    A group no command takes, `\text{span({$x_0, G$})}`, is no wall: its `$…$` is math, and
    its braces stay on the page, as MathJax (which such posts were written for) shows them.
    """
    parts, start, pos = [], 0, 0
    groups: list[bool] = []  # for each open `{`: whether a command takes it as an argument
    while pos < len(content):
        char = content[pos]
        if char == "\\":
            if not any(groups) and content[pos + 1 : pos + 2] in ("(", ")"):
                parts.append(content[start:pos])
                start = pos + 2
            pos += 2
            continue
        if char == "{":
            groups.append(COMMAND_BEFORE.search(content, 0, pos) is not None)
        elif char == "}":
            if groups:
                groups.pop()
        elif char == "$" and not any(groups):
            parts.append(content[start:pos])
            start = pos + 1
        pos += 1
    return [*parts, content[start:]]


TEXT_PIECES = re.compile(TEXT_COMMANDS.pattern + r"|\\(textcolor|boxed)(?![A-Za-z])\s*(?=\{)")
r"""What text holds as pieces of its own: a text command (`TEXT_COMMANDS`), a colour
(`\textcolor{c}{…}`, and `\color{c}` once `_color_switches` has rewritten it), and a box
(`\fbox`, `\colorbox`, which `postil.math.enclosures` has made `\boxed{…}` before)."""


def _nested_text(command: str, text: str) -> str:
    r"""Rewrite text holding text commands as pieces: `\text{if \textbf{yes}}` ->
    `\text{if }\textbf{yes}` (a `\text`/`\mbox` inside keeps the outer font, as in LaTeX).

    A colour in text is a math-level `\textcolor` around its text (`\text{a \textcolor{red}
    {b}}` -> `\text{a }\textcolor{red}{\text{b}}`), and a box in text is the box
    (`\text{see \colorbox{yellow}{this}}`): KaTeX and MathJax take both in text mode.
    """
    out, pos = [], 0
    for match in TEXT_PIECES.finditer(text):
        if match.start() < pos:
            continue
        before = _text_piece(command, text[pos : match.start()]) if match.start() > pos else ""
        if match.group(2) == "textcolor":
            colour, after = read_group(text, match.end())
            inner, end = read_group(text, after)
            piece = f"\\textcolor{{{colour}}}{{{_split_text(command, inner)}}}"
        elif match.group(2) == "boxed":
            inner, end = read_group(text, match.end())
            piece = f"\\boxed{{{rewrite_text(inner)}}}"
        else:
            inner, end = read_group(text, match.end())
            keeps_font = match.group(1) in ("text", "mbox", "hbox")
            piece = _split_text(command if keeps_font else match.group(1), inner)
        out += [before, piece]
        pos = end
    if not out:
        return _text_piece(command, text)
    return "".join(out) + (_text_piece(command, text[pos:]) if pos < len(text) else "")


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
        pieces = _split_text(match.group(1), content)
        if ARGUMENT_BEFORE.search(latex, 0, match.start()) and MANY_PIECES.search(content):
            pieces = "{" + pieces + "}"  # `b_\text{c $d$ e}`: the script is all of it
        out += [latex[pos : match.start()], pieces]
        pos = end
    return "".join(out) + latex[pos:]


ARGUMENT_BEFORE = re.compile(r"(?:[_^]|\\[A-Za-z]+)\s*\Z")
r"""What may make a text command an argument: a script's `_`/`^` or a control word before it
(`\underbrace{…}_\text{…}`, `\sqrt\text{…}`; after `\quad` the braces do no harm)."""
MANY_PIECES = re.compile(
    r"\$|\\\(|\\(?:text|textrm|textnormal|textbf|textit|textsf|texttt|textup|textmd|textsc|mbox|hbox|emph"
    r"|textcolor|color|boxed)(?![A-Za-z])"
)
r"""Text that `_split_text` writes as several pieces: math in it, or a nested text command.
Such pieces are braced where the text is one argument, as TeX reads it (one box)."""


def rewrite_verb(latex: str) -> str:
    r"""Rewrite `\verb|a_b|` as monospaced text, its characters taken literally."""
    return VERB.sub(lambda m: hide_text("texttt", m.group(2)), latex)


LOGOS = {
    "TeX": r"\text{T}\kern-0.1667em\raise{-0.5ex}{\text{E}}\kern-0.125em\text{X}",
    "LaTeX": r"\text{L}\kern-0.35em\raise{0.2em}{\scriptstyle\text{A}}\kern-0.15em",
    "KaTeX": r"\text{K}\kern-0.17em\raise{0.205em}{\scriptstyle\text{A}}\kern-0.15em",
}
r"""The TeX logos in math, as plain TeX's `\TeX` and LaTeX's `\LaTeX` set them: upright
letters, TeX's E lowered .5ex, LaTeX's A small and raised (Temml's definitions; KaTeX's
for its own logo, whose A is raised .205em, T's height less 0.7 of A's: KaTeX's
macros.js). `\LaTeX` and `\KaTeX` end in `\TeX`'s letters. In TeX the words, as KaTeX's
MathML gives them, inside `\text{…}` (`TEXT_SYMBOLS`)."""
_LOGO = re.compile(r"\\(TeX|LaTeX|KaTeX)(?![A-Za-z])(?:\s*\{\})?")


def rewrite_logos(latex: str) -> str:
    r"""Write each `\TeX`, `\LaTeX`, `\KaTeX` of the math as its logo (`LOGOS`), one group.

    Run after `rewrite_text`, which has hidden the text arguments' contents, so a logo in
    `\text{…}` stays the word it resolved to there."""
    if "TeX" not in latex:
        return latex
    return _LOGO.sub(lambda m: _logo(m.group(1)), latex)


def _logo(name: str) -> str:
    """Return a logo's group, opened by a marker that keeps its word for plain text."""
    tail = LOGOS["TeX"] if name != "TeX" else ""
    return "{" + marker("logo", name) + LOGOS[name] + tail + "}"
