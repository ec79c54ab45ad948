"""Pandoc's fancy lists: ordered lists numbered by letters or Roman numerals.

Pandoc's `fancy_lists` extension (on in Pandoc's Markdown, so in Quarto, R Markdown,
Hakyll and every Pandoc-built blog; Pandoc's manual, "Ordered lists"), read in the sources
written in Pandoc's Markdown (`PANDOC_SUFFIXES`):

    a. first            i. first          (a) first        #. first
    b. second          ii. second         (b) second       #. second

A marker is a letter, a Roman numeral or `#` (Pandoc's default numbering), followed by `.` or
`)`, or enclosed in `(…)`; the first marker sets the list's numbering style and start
(`c.` starts at 3). Pandoc's rules kept here: `i`/`I` alone are Roman numerals, other single
letters letters, longer ones Roman numerals when they are; a capital letter (or one-letter
capital numeral) with a period must be followed by at least two spaces ("B. Russell was an
English philosopher" is a sentence, not a list); a new style starts a new list. As in
Pandoc, a fancy list does not interrupt a paragraph, except a list nested in a list item.

Pandoc's numbered examples (`example_lists`, on with `fancy_lists`): `(@)`, `@.`, `@)` and
labelled `(@good)` items are one numbering across the post (a later example list goes on
from the earlier one: `start`), the lists `class="example"` as Pandoc's HTML; `(@good)` in
the text is the example's number, also before it (the block stage has read every list when
the inline rules run); `(@name)` naming no example is left to the citation rules.

markdown-it reads only decimal markers, so these lines were text (mdit-py-plugins#34 asks
for the plugin; Pandoc posts write them). `fancy_list` runs markdown-it's own list rule
with each marker of the list's style stood in by a decimal one of the same length (`a.` as
`1.`, `(ii)` as ` 01)`), then sets the list's `type` and `start` from the markers as
written; the source is given back after the rule, so no text shows a stand-in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from postil.markdown.state import get_state

MARKER = re.compile(r"(\()?([A-Za-z]+|#|[0-9]+|@[\w-]*)([.)])([ \t]+|$)")
"""A fancy marker opening a line: `a.`, `iv)`, `(B)`, `#.`, `(@good)`, with the space after it."""
EXAMPLE_REF = re.compile(r"@([\w-]+)\)")
"""A reference to a numbered example after its `(`: `(@good)` (Pandoc's `example_lists`)."""
ROMAN = re.compile(r"m*(?:c[md]|d?c{0,3})(?:x[cl]|l?x{0,3})(?:i[xv]|v?i{0,3})")
ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
FIRST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ(#@")
"""What a fancy marker starts with (decimal ones only enclosed: `(1)`)."""
DECIMAL = re.compile(r"[0-9]{1,9}[.)](?:[ \t]|$)")
"""markdown-it's own ordered list marker."""
PANDOC_SUFFIXES = (".qmd", ".rmd", ".rmarkdown", ".pandoc", ".pdc")
"""Sources written in Pandoc's Markdown, where `fancy_lists` is on: Quarto, R Markdown, and
Hugo's `.pandoc`. In other Markdown (CommonMark, kramdown, goldmark, GitHub's) a paragraph
opening `e. coli …`, `c. 1900 …` or `p. 5 shows …` is a paragraph."""
QUICK_FIRST = frozenset("(#@ivxlcdmIVXLCDM")
"""First characters of markers longer than a letter and its delimiter (`(a)`, `#.`, `iv.`):
a line starting with any other letter not followed by `.` or `)` opens no fancy list."""


@dataclass(frozen=True)
class Marker:
    """One fancy list marker as written.

    Attributes:
        style: "a", "A", "i", "I" (HTML's `type`) or "1" for `#`.
        delimiter: ".", ")" or "()".
        value: the number it stands for (`c` 3, `iv` 4, `#` 1).
        width: its length in the source, with the parentheses.
    """

    style: str
    delimiter: str
    value: int
    width: int


def fancylist_plugin(md: MarkdownIt) -> None:
    """Read Pandoc's letter- and Roman-numbered lists with markdown-it's list rule, and its
    numbered examples, `(@)` and `(@label)` items numbered across the post, `(@label)` in
    the text their number (Pandoc's manual, "Numbered example lists")."""
    index = md.block.ruler.__find__("list")
    list_rule = md.block.ruler.__rules__[index].fn
    alt = md.block.ruler.__rules__[index].alt
    md.block.ruler.at("list", _fancy(list_rule), {"alt": alt})
    md.inline.ruler.push("example_ref", example_ref)


def _number_examples(state: StateBlock, size: int) -> None:
    """Number the items of the example list opened at `state.tokens[size]` on from the
    post's earlier examples, keeping each `(@label)`'s number; the list is `class="example"`
    (Pandoc's HTML) and starts at its first number."""
    examples = get_state(state.env).extra.setdefault("examples", {"count": 0, "labels": {}})
    opening, first = state.tokens[size], examples["count"] + 1
    for token in state.tokens[size + 1 :]:
        if token.type == "ordered_list_close" and token.level == opening.level:
            break
        if token.type != "list_item_open" or token.level != opening.level + 1 or not token.map:
            continue
        examples["count"] += 1
        line = state.src[state.bMarks[token.map[0]] + state.tShift[token.map[0]] :]
        label = MARKER.match(line)
        if label and label[2][1:]:
            examples["labels"].setdefault(label[2][1:], examples["count"])
    opening.attrs = {"class": "example", **({"start": str(first)} if first != 1 else {})}


def example_ref(state: StateInline, silent: bool) -> bool:
    """Inline rule: `(@label)` of a numbered example of the post is its number, `(3)`."""
    if state.src[state.pos] != "@" or state.src[state.pos - 1 : state.pos] != "(":
        return False
    labels = get_state(state.env).extra.get("examples", {}).get("labels")
    found = EXAMPLE_REF.match(state.src, state.pos) if labels else None
    if found is None or found[1] not in labels:
        return False
    if not silent:
        state.push("text", "", 0).content = str(labels[found[1]])
    state.pos = found.end(1)
    return True


def read_marker(line: str, style: str | None = None) -> Marker | None:
    """Return the fancy marker opening `line` (its indentation removed), or None.

    `style`: the list's, for a later item: Pandoc reads later markers in the first one's
    style, so `h.` `i.` `j.` go on as letters."""
    if not line or line[0] not in FIRST_CHARS:
        return None
    found = MARKER.match(line)
    if found is None or (found[1] and found[3] != ")"):
        return None
    text, delimiter = found[2], "()" if found[1] else found[3]
    read = _numbering(text, style, bool(found[1]))
    if read is None:
        return None
    if text.isupper() and len(text) == 1 and delimiter == "." and len(found[4]) < 2:
        return None  # Pandoc: "B. Russell" is a sentence; a capital letter wants two spaces
    return Marker(read[0], delimiter, read[1], found.end(3))


def _numbering(text: str, style: str | None, enclosed: bool) -> tuple[str, int] | None:
    """Return (style, value) of a marker's text, in `style` when given (None if it is not
    one of that style): `#`, digits only in `(…)` (markdown-it reads `1.` and `1)`)."""
    if text.startswith("@"):  # a numbered example: its number comes from the document
        return ("@", 0) if style in (None, "@") else None
    lower, case = text.lower(), ("A" if text.isupper() else "a")
    if not (text.isupper() or text.islower() or text.isdigit() or text == "#"):
        return None  # `Mix.`: a word, not a numeral
    if text == "#" or (text.isdigit() and enclosed and len(text) < 10):
        found = ("1", 1 if text == "#" else int(text))
    elif (
        style in (None, "i", "I")
        and ROMAN.fullmatch(lower)
        and (style or len(text) > 1 or lower == "i")
    ):
        found = ("i" if case == "a" else "I", _roman(lower))
    elif len(text) == 1 and text.isalpha() and text.isascii():
        found = (case, ord(lower) - ord("a") + 1)
    else:
        return None
    return found if style is None or found[0] == style else None


def _roman(text: str) -> int:
    """Return the value of a lower-case Roman numeral."""
    total = 0
    for char, following in zip(text, [*text[1:], ""], strict=True):
        value = ROMAN_VALUES[char]
        total += -value if following and ROMAN_VALUES[following] > value else value
    return total


def _fancy(list_rule: Callable[..., bool]) -> Callable[..., bool]:
    """Return markdown-it's list rule reading fancy markers too."""

    def fancy_list(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        """Parse a list at `start`; a fancy one with its markers stood in by decimal ones."""
        if silent and not state.blkIndent:  # (most calls: may a line end a paragraph?)
            return list_rule(state, start, end, silent)
        begin = state.bMarks[start] + state.tShift[start]
        char = state.src[begin : begin + 1]
        if char not in FIRST_CHARS or (
            char not in QUICK_FIRST and state.src[begin + 1 : begin + 2] not in (".", ")")
        ):
            return list_rule(state, start, end, silent)  # (a word: no marker)
        first = read_marker(state.src[begin : state.eMarks[start]])
        if first is None or not get_state(state.env).path.lower().endswith(PANDOC_SUFFIXES):
            return list_rule(state, start, end, silent)
        src, (shifted, stop) = state.src, _stand_in(state, start, end, first)
        size = len(state.tokens)
        try:
            matched = list_rule(state, start, stop, silent)
        finally:
            state.src = src
            for line in shifted:
                state.tShift[line] -= 1
                state.sCount[line] -= 1
        if matched and not silent and len(state.tokens) > size and first.style == "@":
            _number_examples(state, size)
        elif matched and not silent and len(state.tokens) > size:
            opening = state.tokens[size]
            if first.style != "1":
                opening.attrSet("type", first.style)
            if first.value != 1:
                opening.attrSet("start", str(first.value))
            elif "start" in (opening.attrs or {}):
                del opening.attrs["start"]
        return matched

    return fancy_list


def _stand_in(state: StateBlock, start: int, end: int, first: Marker) -> tuple[list[int], int]:
    """Write a decimal marker of value 1 over each marker of `first`'s style at the first
    marker's indentation, from `start` to where the list must end; return the lines whose
    `(` became a space (their indentation grows by one while the rule runs), and the line
    the list must end before: one at its indentation with another style's marker (Pandoc:
    "a new style starts a new list"; `1.` after `a.` and `b.` is a list of its own)."""
    indent, chars, shifted = state.sCount[start], list(state.src), []
    for line in range(start, end):
        begin = state.bMarks[line] + state.tShift[line]
        text = state.src[begin : state.eMarks[line]]
        if not text.strip():
            continue
        marker = read_marker(text, first.style) if state.sCount[line] == indent else None
        if marker is None and line > start and state.sCount[line] == indent:
            if DECIMAL.match(text) or read_marker(text) is not None:
                end = line  # another style's item: a list of its own
                break
        if marker is None or (marker.style, marker.delimiter) != (first.style, first.delimiter):
            if state.sCount[line] <= indent and line > start and state.isEmpty(line - 1):
                break  # text at the list's indentation after a blank line: the list ends
            continue
        digits = marker.width - (2 if marker.delimiter == "()" else 1)
        stand_in = (
            "0" * (digits - 1) + "1" + (")" if marker.delimiter == "()" else marker.delimiter)
        )
        if marker.delimiter == "()":
            stand_in = " " + stand_in
            shifted.append(line)
            state.tShift[line] += 1
            state.sCount[line] += 1
        chars[begin : begin + marker.width] = stand_in
    state.src = "".join(chars)
    return shifted, end
