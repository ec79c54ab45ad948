r"""Text mode inside math: `\text{…}` and its kin, `\verb`, text accents and symbols.

latex2mathml reads a text argument up to the first `}` and keeps `\&` as is; postil reads
the real group, resolves `\&`, `\'{e}`, `\textless` to characters (`symbols.TEXT_SYMBOLS`,
`symbols.ACCENTS`), keeps `$…$` inside as math, and hides `{`, `}`, `\` behind stand-ins
(`markers.hide_text`) that `markers.expand_markers` restores after conversion.
"""

from __future__ import annotations

import re
import unicodedata

from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group
from postil.math.markers import hide_text
from postil.math.symbols import ACCENTS, TEXT_SYMBOLS

TEXT_COMMANDS = re.compile(
    r"\\(text|textrm|textnormal|textbf|textit|textsf|texttt|textup|textmd|mbox|hbox|emph)"
    r"(?![A-Za-z])\s*(?=\{)"
)
VERB = re.compile(r"\\verb\*?([^A-Za-z\s])(.*?)\1")
ACCENT = re.compile(
    r"\\([`'^\"~=.]|[uvHrck](?![A-Za-z]))\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
)
# A control word eats the spaces after it (The TeXbook p. 47); a control symbol does not.
TEXT_COMMAND = re.compile(r"(\\[A-Za-z]+)\s*|(\\[&%$#_{} ])")


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
    return hide_text(command, resolved)


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


def rewrite_verb(latex: str) -> str:
    r"""Rewrite `\verb|a_b|` as monospaced text, its characters taken literally."""
    return VERB.sub(lambda m: hide_text("texttt", m.group(2)), latex)
