"""Read a CSL JSON or CSL YAML bibliography (Pandoc's and Quarto's other formats) into `Work`s.

Zotero, Better BibTeX and Pandoc write references as CSL items (the Citation Style
Language's data schema, https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html):
a JSON array, or YAML with the items under `references:`. Each item becomes the `Work` a
`.bib` entry would: its `id` is the key, its CSL `type` the nearest BibTeX entry type, names
keep their parts (`family`, `given`, the particles, `literal` for an organisation). Text is
plain, not LaTeX: it is taken as written. An item that cannot be read is a warning at its
line; the others still work.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import yaml
from yaml import BaseLoader

from postil.bibliography.entries import BibFile, Person, StoredWorks, Work, defined_again
from postil.errors import Diagnostic, Location, Severity

KINDS = {
    "article-journal": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "article": "article",
    "paper-conference": "inproceedings",
    "book": "book",
    "chapter": "incollection",
    "report": "techreport",
    "thesis": "phdthesis",
    "webpage": "online",
    "post-weblog": "online",
    "post": "online",
    "software": "software",
    "dataset": "dataset",
}
"""CSL item types and the BibTeX/BibLaTeX entry type of the same kind (others: `misc`)."""


def read_csl(data: bytes, rel: str) -> BibFile:
    """Return the works of a CSL JSON (`.json`) or CSL YAML (`.yaml`, `.yml`) file's bytes,
    and warnings for what could not be read.

    Args:
        data: the file's bytes (UTF-8).
        rel: the file's path relative to the site root, for the warnings.
    """
    text = data.decode("utf-8-sig", errors="replace")
    try:
        # YAML's scalars stay text (`id: on` is the key "on", as in Pandoc's YAML 1.2)
        loaded: Any = json.loads(text) if rel.endswith(".json") else yaml.load(text, BaseLoader)
    except (ValueError, yaml.YAMLError) as e:
        line = getattr(e, "lineno", None) or getattr(getattr(e, "problem_mark", None), "line", 0)
        message = f"the file cannot be read ({_first(e)})"
        return BibFile({}, (_warning(rel, int(line or 1), message),))
    items = loaded.get("references") if isinstance(loaded, Mapping) else loaded
    if not isinstance(items, list):
        message = "holds no list of CSL items (a JSON array, or YAML `references:`)"
        return BibFile({}, (_warning(rel, 1, message),))
    works: dict[str, Work] = {}
    warnings: list[Diagnostic] = []
    cursor = 0  # where the items read so far are written: a key is looked for after it
    for item in items:
        key = _plain(item.get("id")) if isinstance(item, Mapping) else ""
        cursor = _find(text, key, cursor)
        line = text.count("\n", 0, cursor) + 1
        col = cursor - text.rfind("\n", 0, cursor) if key else 0
        if not isinstance(item, Mapping):
            warnings.append(_warning(rel, line, "an item is not a mapping and is left out"))
        elif not key:
            warnings.append(_warning(rel, line, "an item has no `id` and is left out"))
        elif key in works:
            message = defined_again(key, works[key].place(), True)
            warnings.append(Diagnostic(Severity.WARNING, Location(rel, line, col), message))
        else:
            works[key] = _work(key, item, rel, line, col)
    return BibFile(StoredWorks(works), tuple(warnings))


def _work(key: str, item: Mapping[str, Any], rel: str, line: int, col: int) -> Work:
    """Return the `Work` of one CSL item, its `id` at `line` and `col` of the file `rel`."""
    people = item.get("author") or item.get("editor") or []
    people = people if isinstance(people, list) else [people]
    names = (_person(p) for p in people if isinstance(p, Mapping) or _plain(p))
    return Work(
        key=key,
        kind=KINDS.get(_plain(item.get("type")), "misc"),
        authors=tuple(name for name in names if name.family or name.given),
        title=_text(item.get("title")),
        container=_text(item.get("container-title")),
        publisher=_plain(item.get("publisher")),
        year=_year(item.get("issued")),
        volume=_plain(item.get("volume")),
        number=_plain(item.get("issue") or item.get("number")),
        pages=_plain(item.get("page")).replace("--", "–").replace("-", "–"),
        doi=_plain(item.get("DOI")),
        url=_plain(item.get("URL")),
        source=rel,
        line=line,
        col=col,
    )


def _person(name: Any) -> Person:
    """Return a CSL name as BibTeX's parts (`literal`, or a name written as plain text: an
    organisation, never abbreviated); a name without a family part is its given name."""
    if not isinstance(name, Mapping):
        return Person(_plain(name), literal=True)
    if not _plain(name.get("family")) and _plain(name.get("given")):
        return Person(_plain(name.get("given")), literal=True)
    if name.get("literal"):
        return Person(_plain(name["literal"]), literal=True)
    particles = [_plain(name.get(part)) for part in ("dropping-particle", "non-dropping-particle")]
    return Person(
        family=_plain(name.get("family")),
        given=_plain(name.get("given")),
        von=" ".join(p for p in particles if p),
        suffix=_plain(name.get("suffix")),
    )


def _year(issued: Any) -> str:
    """Return the year of a CSL date: `{"date-parts": [[2017, 6]]}`, else the four digits of
    its `raw` or `literal` text (`2020-03`), else that text (`forthcoming`)."""
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            found = YEAR.search(_plain(parts[0][0]))
            if found:
                return found.group()
        text = _plain(issued.get("raw") or issued.get("literal"))
    else:
        text = _plain(issued)
    found = YEAR.search(text)
    return found.group() if found else text


YEAR = re.compile(r"\b\d{4}\b")


def _plain(value: Any) -> str:
    """Return a CSL value as one line of text: a text or a number; "" for anything else
    (a list, a mapping, null: never Python's picture of it)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return " ".join(str(value).split())


def _text(value: Any) -> tuple[tuple[str, str], ...]:
    """Return a CSL text field as `Work`'s pieces: plain text, never math or LaTeX."""
    text = _plain(value)
    return (("text", text),) if text else ()


def _find(text: str, key: str, cursor: int) -> int:
    """Return where the item `key` is written after `cursor`; for an item without a key,
    where the next item starts (a JSON `{`, a YAML `- `); `cursor` when not found."""
    if key:
        at = text.find(f'"{key}"', cursor)
        at = text.find(key, cursor) if at < 0 else at
    else:
        at = min(
            (i for i in (text.find("{", cursor + 1), text.find("\n-", cursor)) if i >= 0),
            default=-1,
        )
    return at if at >= 0 else cursor


def _first(error: Exception) -> str:
    """Return the first line of an error's message."""
    return str(error).strip().split("\n")[0]


def _warning(rel: str, line: int, message: str) -> Diagnostic:
    return Diagnostic(Severity.WARNING, Location(rel, line), message)
