"""Read one `.bib` file (BibTeX or BibLaTeX) into `Work`s, with warnings at its lines.

bibtexparser v2 splits the file into blocks (MIT, python-bibtexparser); postil evaluates the
values itself: `#` concatenation, `@string` macros (case-insensitive, later definitions
win, as in BibTeX) and the month macros `jan` … `dec`, then reads names with bibtexparser's
BibTeX name rules and LaTeX with `postil.bibliography.latex`. An entry that cannot be read
is a warning at `file:line` naming it; the others still work.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import bibtexparser
from bibtexparser import model
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from postil.bibliography.entries import BibFile, Person, StoredWorks, Work, defined_again
from postil.bibliography.latex import decode, dropped_commands, pieces
from postil.errors import Diagnostic, Location, Severity, not_utf8


class _Quiet(logging.Filter):
    """Drop bibtexparser's own messages about a block it gave up on: `read_bib` reports
    each one at its line, in postil's words."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


logging.getLogger("bibtexparser.splitter").addFilter(_Quiet())

MONTHS = (
    "January February March April May June July August September October November December"
).split()
"""BibTeX's month macros `jan` … `dec` expand to these names (plain.bst)."""

CONTAINERS = ("journal", "journaltitle", "booktitle", "howpublished")
"""Fields naming where a work appeared, the first present wins (BibTeX's, then BibLaTeX's)."""

PUBLISHERS = ("publisher", "institution", "school", "organization")
"""Fields naming who published a work, the first present wins."""

SHOWN_FIELDS = frozenset({"title", "subtitle", *CONTAINERS, *PUBLISHERS})
"""The text fields a reference shows, whose unknown commands are worth a warning."""

_MACROS = {name[:3].lower(): name for name in MONTHS}
_KEY = re.compile(r"@\s*(\w+)\s*[{(]\s*([^,\s]*)")
_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_URL = re.compile(r"\\url\{([^}]*)\}")


class _FieldProblem(ValueError):
    """A value that cannot be evaluated (an unknown macro)."""


def read_bib(data: bytes, rel: str) -> BibFile:
    """Return the works of a `.bib` file's bytes, and warnings for what could not be read.

    Args:
        data: the file's bytes (UTF-8; other bytes are read as Latin-1, with a warning).
        rel: the file's path relative to the site root, for the warnings.
    """
    warnings: list[Diagnostic] = []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        text = data.decode("latin-1")
        message, where = not_utf8(data, rel, e)
        message = message.replace("; save it", "; it is read as Latin-1: save it")
        warnings.append(Diagnostic(Severity.WARNING, where, message))
    try:
        library = bibtexparser.parse_string(text.replace("\r\n", "\n"), parse_stack=[])
    except Exception as e:  # the parser's own invariants failed: report the file, go on
        warnings.append(_warning(rel, 1, f"the file cannot be read ({e}); no entry of it is used"))
        return BibFile({}, tuple(warnings))
    works: dict[str, Work] = {}
    strings = dict(_MACROS)
    lines = text.replace("\r\n", "\n").split("\n")
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, model.String):
            _define(block, strings, rel, warnings)
        elif isinstance(block, model.Entry):
            _add_entry(block, strings, rel, works, warnings, lines)
        elif isinstance(block, model.DuplicateBlockKeyBlock):
            warnings.append(_duplicate(block, rel, works, lines))
        elif isinstance(block, model.DuplicateFieldKeyBlock) and isinstance(
            entry := block.ignore_error_block, model.Entry
        ):  # BibTeX: the first one counts
            _add_entry(entry, strings, rel, works, warnings, lines)
            for key in sorted(block.duplicate_keys):
                message = f"entry `{entry.key}` gives `{key}` twice; the first is used: delete one"
                warnings.append(_warning(rel, line, message))
        elif isinstance(block, model.ParsingFailedBlock):
            warnings.append(_warning(rel, line, _failed(block)))
    return BibFile(StoredWorks(works), tuple(warnings))


def _warning(rel: str, line: int, message: str) -> Diagnostic:
    return Diagnostic(Severity.WARNING, Location(rel, line), message)


def _failed(block: model.ParsingFailedBlock) -> str:
    match = _KEY.match(block.raw or "")
    name = f"entry `{match.group(2)}`" if match and match.group(2) else "an entry"
    reason = getattr(block.error, "abort_reason", "") or str(block.error)
    reason = " ".join(reason.split()).rstrip(". ")
    return f"{name} cannot be read ({reason}) and is left out; check its braces, quotes and commas"


def _duplicate(
    block: model.DuplicateBlockKeyBlock, rel: str, works: dict[str, Work], lines: list[str]
) -> Diagnostic:
    """Return the warning at the key of an entry whose key an earlier entry has."""
    line, col = key_place(block.raw or "", block.start_line or 0, lines)
    first = works.get(block.key)
    if first is None:  # the first one could not be read: its line, as bibtexparser has it
        before = block.previous_block.start_line
        first = Work(block.key, "", source=rel, line=(before or 0) + 1)
    where = Location(rel, line, col)
    return Diagnostic(Severity.WARNING, where, defined_again(block.key, first.place(), True))


def key_place(raw: str, start_line: int, lines: list[str]) -> tuple[int, int]:
    """Return the 1-based line and column of an entry's key (`@article{key,`), from the
    entry's text `raw` and its 0-based first line in the file's `lines`; the entry's line
    and column 0 when the key is not found."""
    found = _KEY.match(raw)
    if not found or not found.group(2) or start_line >= len(lines):
        return start_line + 1, 0
    offset = found.start(2)
    breaks = raw.count("\n", 0, offset)
    if breaks:
        return start_line + 1 + breaks, offset - raw.rfind("\n", 0, offset)
    opened = lines[start_line].find(raw.split("\n", 1)[0])
    return start_line + 1, (max(opened, 0) + offset + 1)


def _define(block: model.String, strings: dict[str, str], rel: str, warnings: list) -> None:
    try:
        strings[block.key.lower()] = evaluate(block.value, strings)
    except _FieldProblem as e:
        warnings.append(_warning(rel, (block.start_line or 0) + 1, f"@string `{block.key}`: {e}"))


def evaluate(raw: str, strings: dict[str, str]) -> str:
    """Return a field's value: `{…}` and `"…"` parts unwrapped, numbers as written, macro
    names replaced by their `@string` value, all joined at `#` (BibTeX's concatenation).

    Raises:
        _FieldProblem: a name that no `@string` (nor a month) defines.
    """
    out = []
    for part in _split_concatenation(raw):
        if part[:1] in '{"' and len(part) >= 2:
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        elif part.lower() in strings:
            out.append(strings[part.lower()])
        else:
            raise _FieldProblem(f"`{part}` is not defined; add @string{{{part} = {{…}}}}")
    return "".join(out)


def _split_concatenation(raw: str) -> list[str]:
    """Split a raw value at the `#` signs outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(raw):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0 and (i == 0 or raw[i - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(raw[start:i].strip())
            start = i + 1
    parts.append(raw[start:].strip())
    return [p for p in parts if p]


def _add_entry(
    entry: model.Entry,
    strings: dict[str, str],
    rel: str,
    works: dict[str, Work],
    warnings: list,
    lines: list[str],
) -> None:
    fields: dict[str, str] = {}
    for fld in entry.fields:
        if fld.key.lower() in fields:
            continue  # a field given twice: BibTeX ignores the extra one
        line = (fld.start_line or entry.start_line or 0) + 1
        try:
            fields[fld.key.lower()] = evaluate(str(fld.value), strings)
        except _FieldProblem as e:
            warnings.append(_warning(rel, line, f"entry `{entry.key}`, field `{fld.key}`: {e}"))
            continue
        if fld.key.lower() in SHOWN_FIELDS:
            for command in dropped_commands(fields[fld.key.lower()]):
                message = (
                    f"entry `{entry.key}`, field `{fld.key}`: `{command}` has no text postil "
                    f"knows and is left out; write the text it stands for"
                )
                warnings.append(_warning(rel, line, message))
    line, col = key_place(entry.raw or "", entry.start_line or 0, lines)
    work = make_work(entry.key, entry.entry_type.lower(), fields, rel, line, col)
    works.setdefault(entry.key, work)


def make_work(
    key: str, kind: str, fields: dict[str, str], rel: str, line: int, col: int = 0
) -> Work:
    """Return the `Work` of an entry's evaluated fields (names lower case, values LaTeX),
    its key at `line` and `col` of the file `rel`."""
    people, more = people_of(fields.get("author") or fields.get("editor") or "")
    title = fields.get("title", "")
    if fields.get("subtitle"):  # BibLaTeX
        title = f"{title}: {fields['subtitle']}"
    container = next(
        (fields[n] for n in CONTAINERS if n in fields),
        "",
    )
    publisher = next(
        (fields[n] for n in PUBLISHERS if n in fields),
        "",
    )
    date = fields.get("year") or fields.get("date", "")[:4]
    return Work(
        key=key,
        kind=kind,
        authors=people,
        more_authors=more,
        title=pieces(title),
        container=() if _URL.fullmatch(container.strip()) else pieces(container),
        publisher=decode(publisher),
        year=decode(date),
        volume=decode(fields.get("volume", "")),
        number=decode(fields.get("number", "") or fields.get("issue", "")),
        pages=decode(fields.get("pages", "").replace("-", "--").replace("----", "--")),
        doi=_DOI.sub("", fields.get("doi", "").strip()),
        url=_link(fields, container),
        source=rel,
        line=line,
        col=col,
    )


def _link(fields: dict[str, Any], container: str) -> str:
    """Return the work's URL: `url`, a `\\url{…}` in `howpublished`, or an arXiv eprint."""
    if fields.get("url"):
        return fields["url"].strip()
    found = _URL.search(container)
    if found:
        return found.group(1).strip()
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    if fields.get("eprint") and archive == "arxiv":
        return f"https://arxiv.org/abs/{fields['eprint'].strip()}"
    return ""


def people_of(raw: str) -> tuple[tuple[Person, ...], bool]:
    """Return the people of an `author`/`editor` value and whether it ends in `and others`.

    BibTeX's rules: names are separated by `and` outside braces; each is "First von Last",
    "von Last, First" or "von Last, Jr, First"; a name braced whole (`{Google DeepMind}`)
    is one organisation.
    """
    if not raw.strip():
        return (), False
    names = split_multiple_persons_names(raw)
    more = bool(names) and names[-1].strip().lower() == "others"
    if more:
        names = names[:-1]
    return tuple(person(name) for name in names if name.strip()), more


def person(name: str) -> Person:
    """Return one name read by BibTeX's rules (`people_of`): "First von Last", "von Last,
    First", "von Last, Jr, First", or `{An Organisation}` braced whole (literal)."""
    name = name.strip()
    if name.startswith("{") and name.endswith("}") and _closes_at_end(name):
        return Person(family=decode(name[1:-1]), literal=True)
    if AND_WORD.search(name):  # one name holding "and" (BibTeX would split it): braced whole
        return Person(family=decode(name), literal=True)
    suffixed = SUFFIXED.fullmatch(name)
    if suffixed:  # "Martin Luther King, Jr.", as written in prose: BibTeX's "King, Jr., Martin"
        found = person(suffixed.group(1))
        return Person(found.family, found.given, found.von, suffixed.group(2), found.literal)
    parts = parse_single_name_into_parts(name, strict=False)
    return Person(
        family=decode(" ".join(parts.last)),
        given=decode(" ".join(parts.first)),
        von=decode(" ".join(parts.von)),
        suffix=decode(" ".join(parts.jr)),
    )


AND_WORD = re.compile(r"\band\b", re.IGNORECASE)
"""The word BibTeX separates names with: a single name holding it (`Tom and Jerry`, the
front matter's `author: Research and Development Team`) is an organisation's."""

SUFFIXED = re.compile(r"([^,]+\s[^,]+),\s*(Jr\.?|Sr\.?|II|III|IV|V)")
"""A name in prose order with a generational suffix after a comma ("Martin Luther King,
Jr."), which BibTeX's "Last, First" rule read as the family "Martin Luther King" and the
given name "Jr."."""


def _closes_at_end(name: str) -> bool:
    """Return whether the brace that opens `name` is the one that ends it."""
    depth = 0
    for i, char in enumerate(name):
        depth += (char == "{") - (char == "}")
        if depth == 0:
            return i == len(name) - 1
    return False
