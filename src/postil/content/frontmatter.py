"""Split a source file into front matter and body, and validate the front matter.

Front matter is a YAML block between a first line `---` and the next line `---` (Jekyll's and
Hugo's convention). Values are converted by the explicit rules of `postil.yamlnodes`; dates
follow ISO 8601 (`2026-03-05`, `2026-03-05 14:30`, `2026-03-05T14:30:00+01:00`), and a date
without an offset is in the site's timezone.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from postil.errors import ContentError, Diagnostic, Location, Severity
from postil.model import FrontMatter, SourceFile, TextAt
from postil.yamlnodes import (
    Field,
    YamlFieldError,
    as_bool,
    as_str_mapping,
    as_text,
    as_text_list,
    compose_mapping,
    yaml_error_location,
    yaml_error_message,
)

_DATE = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?"
)


def split_front_matter(source: SourceFile) -> tuple[str, str, int]:
    """Return (yaml_text, body, body_line) of a source; `body_line` is 1-based.

    A file whose first line is not `---` (trailing spaces allowed) has no front matter:
    ("", text, 1).

    Raises:
        ContentError: the opening `---` has no closing `---`.
    """
    text = source.text
    lines = text.split("\n")
    if lines[0].rstrip() == "+++":
        raise ContentError(
            "TOML front matter (`+++`, Hugo's) is not supported; write it as YAML between "
            '`---` lines (`title = "x"` becomes `title: x`)',
            Location(source.rel, 1, 1),
        )
    if lines[0].rstrip() != "---":
        return "", text, 1
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    raise ContentError(
        "front matter has no closing `---`; add a line `---` after the last front matter line",
        Location(source.rel, 1, 1),
    )


def parse(
    source: SourceFile, timezone: str, warnings: list[Diagnostic] | None = None
) -> tuple[FrontMatter, str, int]:
    """Parse a source's front matter and return (FrontMatter, body, body_line).

    Args:
        source: the file.
        timezone: IANA zone for dates written without an offset.
        warnings: receives a warning for each unknown key (a key of Hugo or Jekyll such as
            `categories` is skipped, not fatal: importing old posts must not need an edit of
            every file first, and `--strict` still fails on it). None: log them instead.

    Raises:
        ContentError: YAML syntax errors (at the file's line and column), a block that is not a
            mapping, duplicate keys, a missing or non-text title, values of the wrong type.
    """
    if not source.text.strip():
        raise ContentError(
            "the file is empty; write front matter with a `title:` or delete the file",
            Location(source.rel, 1, 1),
        )
    yaml_text, body, body_line = split_front_matter(source)
    try:
        fields = compose_mapping(yaml_text) or []
        unknown = [f for f in fields if f.key not in _FIELDS]
        known = [f for f in fields if f.key in _FIELDS]
        values = _convert(known, ZoneInfo(timezone))
        values |= _positions(known, values, yaml_text)
    except yaml.MarkedYAMLError as e:
        raise ContentError(yaml_error_message(e), yaml_error_location(e, source.rel, 2)) from e
    except YamlFieldError as e:
        raise ContentError(e.message, Location(source.rel, e.line0 + 2, e.col0 + 1)) from e
    if "title" not in values:
        raise ContentError(
            "front matter has no `title`; add `title: …`", Location(source.rel, 1, 1)
        )
    _warn_unknown(source.rel, unknown, warnings)
    if source.kind == "post" and "date" not in values:
        _warn(
            warnings,
            Location(source.rel, 1, 1),
            "post has no `date:`; it sorts last and has no citation or feed date; "
            "add `date: YYYY-MM-DD`",
        )
    return FrontMatter(**values), body, body_line


def _warn_unknown(rel: str, unknown: list[Field], warnings: list[Diagnostic] | None) -> None:
    known = ", ".join(sorted(_FIELDS))
    for fld in unknown:
        _warn(
            warnings,
            Location(rel, fld.line0 + 2, fld.col0 + 1),
            f"unknown front matter key `{fld.key}` is ignored; known keys: {known}",
        )


def _warn(warnings: list[Diagnostic] | None, location: Location, message: str) -> None:
    found = Diagnostic(Severity.WARNING, location, message)
    if warnings is None:
        logging.getLogger("postil").warning("%s", found)
    else:
        warnings.append(found)


def _convert(fields: list[Field], tz: ZoneInfo) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for fld in fields:
        name, convert = _FIELDS[fld.key]
        if name in values:
            raise YamlFieldError(f"`{fld.key}` repeats another key; keep one", fld.line0, fld.col0)
        values[name] = convert(fld, tz)
    return values


POSITIONED = {"title": "title_at", "subtitle": "subtitle_at"}
"""Text fields whose position is kept, for messages about math inside them."""


def _positions(fields: list[Field], values: dict[str, Any], yaml_text: str) -> dict[str, TextAt]:
    """Return `FrontMatter`'s `title_at`/`subtitle_at` for the fields among `fields`."""
    lines = yaml_text.split("\n")
    found = {}
    for fld in fields:
        name = _FIELDS[fld.key][0]
        if name in POSITIONED:
            found[POSITIONED[name]] = text_at(fld.node, values[name], lines)
    return found


def text_at(node: yaml.Node, value: str, lines: list[str]) -> TextAt:
    """Return where a scalar's text starts in the file (front matter starts on line 2).

    The value is verbatim when the YAML line holds it character for character from its
    first character on (after the opening quote of a quoted scalar).
    """
    mark = node.start_mark
    col0 = mark.column + (1 if getattr(node, "style", None) in ("'", '"') else 0)
    line = lines[mark.line] if mark.line < len(lines) else ""
    return TextAt(mark.line + 2, col0 + 1, line[col0 : col0 + len(value)] == value)


def _clean_text(fld: Field, tz: ZoneInfo) -> str:
    """Return one-line text: control characters (from YAML escapes) removed, spaces collapsed."""
    return _one_line(as_text(fld))


def _one_line(text: str) -> str:
    """Return `text` with control characters and noncharacters as spaces, spaces collapsed.

    These are what HTML forbids in a document ("control-character-in-input-stream",
    "noncharacter-in-input-stream", WHATWG HTML §13.2.3.5); YAML's `"\\a"`, `"\\x1b"` or
    `"\\uFFFE"` escapes can put them in a title.
    """
    text = "".join(" " if _forbidden(c) else c for c in text)
    return " ".join(text.split())


def _forbidden(c: str) -> bool:
    code = ord(c)
    return unicodedata.category(c) == "Cc" or 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _title(fld: Field, tz: ZoneInfo) -> str:
    text = _clean_text(fld, tz)
    if not text:
        raise YamlFieldError("`title` is empty; write a title", fld.line0, fld.col0)
    return text


def _date(fld: Field, tz: ZoneInfo) -> datetime:
    """Parse an ISO 8601 date or date-time as written (YAML's own timestamp typing is bypassed)."""
    text = as_text(fld).strip()
    m = _DATE.fullmatch(text)
    try:
        if not m:
            raise ValueError(text)
        y, mo, d, hh, mm, ss, off = m.groups()
        moment = datetime.combine(
            date(int(y), int(mo), int(d)), time(int(hh or 0), int(mm or 0), int(ss or 0))
        )
    except ValueError as e:
        raise YamlFieldError(
            f"`{fld.key}: {text}` is not a date; write YYYY-MM-DD or YYYY-MM-DD HH:MM[+HH:MM]",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        ) from e
    if off is None:
        return moment.replace(tzinfo=tz)
    return moment.replace(tzinfo=_offset(fld, off))


def _offset(fld: Field, off: str) -> tzinfo:
    """Return the fixed zone of `Z`, `+HH:MM` or `+HHMM`; hours above 23 or minutes above 59
    are an error at the value."""
    if off == "Z":
        return timezone.utc
    digits = off[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 23 or minutes > 59:
        raise YamlFieldError(
            f"`{fld.key}`: offset `{off}` is out of range; write -23:59 to +23:59",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        )
    sign = -1 if off[0] == "-" else 1
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _text_list(fld: Field, tz: ZoneInfo) -> tuple[str, ...]:
    items = tuple(_one_line(t) for t in as_text_list(fld))
    return tuple(dict.fromkeys(t for t in items if t))


def _macros(fld: Field, tz: ZoneInfo) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k.lstrip("\\"), v) for k, v in as_str_mapping(fld).items()))


def _plain(convert: Callable[[Field], Any]) -> Callable[[Field, ZoneInfo], Any]:
    return lambda fld, tz: convert(fld)


_FIELDS: dict[str, tuple[str, Callable[[Field, ZoneInfo], Any]]] = {
    "title": ("title", _title),
    "date": ("date", _date),
    "updated": ("updated", _date),
    "subtitle": ("subtitle", _clean_text),
    "lede": ("subtitle", _clean_text),
    "label": ("label", _clean_text),
    "author": ("authors", _text_list),
    "authors": ("authors", _text_list),
    "tags": ("tags", _text_list),
    "draft": ("draft", _plain(as_bool)),
    "summary": ("summary", _clean_text),
    "slug": ("slug", _clean_text),
    "macros": ("macros", _macros),
    "citation": ("citation", _plain(as_bool)),
}
