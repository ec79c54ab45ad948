"""What a `.bib` file holds once read: people, works and the file's warnings."""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from postil.errors import Diagnostic, Location

Pieces = tuple[tuple[str, str], ...]
"""A field's text as ("text", Unicode) and ("math", TeX) pieces, in order."""


@dataclass(frozen=True)
class Person:
    """One author or editor, in BibTeX's four name parts (Patashnik, "BibTeXing", §4).

    Attributes:
        family: the last name ("Müller"), or the whole name of an organisation written in
            braces (`{Google DeepMind}`).
        given: the first names as written ("Jean-Pierre"), or "".
        von: the particle ("van der"), or "".
        suffix: "Jr.", "III", or "".
        literal: the name was braced whole: an organisation, never abbreviated.
    """

    family: str
    given: str = ""
    von: str = ""
    suffix: str = ""
    literal: bool = False


@dataclass(frozen=True)
class Work:
    """One entry of a `.bib` file, its LaTeX read (`postil.bibliography.latex`).

    Attributes:
        key: the citation key (`vaswani2017`).
        kind: the entry type, lower case (`article`, `inproceedings`, `online`, …).
        authors: the authors in order (the editors when there are none).
        more_authors: the list ended in `and others` ("et al." in any style).
        title: the title's pieces (math stays TeX, rendered as MathML on the page).
        container: the journal, proceedings or website (`journal`, `journaltitle`,
            `booktitle`, `howpublished`), as pieces; () when there is none.
        publisher: the publisher, institution, school or organisation, or "".
        year: the year as written ("2017"), or "" when there is none.
        volume: the volume, or "".
        number: the issue number, or "".
        pages: the pages with an en dash ("1–10"), or "".
        doi: the DOI without its resolver ("10.1000/xyz"), or "".
        url: a link to the work (`url`, or an arXiv `eprint`), or "".
        source: the `.bib` file, relative to the site root.
        line: the 1-based line of the entry's key in it.
        col: the 1-based column of the key on that line, or 0 when unknown.
    """

    key: str
    kind: str
    authors: tuple[Person, ...] = ()
    more_authors: bool = False
    title: Pieces = ()
    container: Pieces = ()
    publisher: str = ""
    year: str = ""
    volume: str = ""
    number: str = ""
    pages: str = ""
    doi: str = ""
    url: str = ""
    source: str = ""
    line: int = 0
    col: int = 0

    def place(self) -> Location:
        """Return where the entry's key is written: its file, line and column."""
        return Location(self.source, self.line, self.col)


@dataclass(frozen=True)
class BibFile:
    """A `.bib` file read: its works by key (first definition of a key wins), and what
    could not be read, as warnings at the file's lines."""

    works: Mapping[str, Work]
    warnings: tuple[Diagnostic, ...] = ()


class StoredWorks(Mapping[str, Work]):
    """The works of one file, each kept pickled on its own and unpickled when looked up.

    The build cache keeps a parsed file as this map: a warm build loads 2,000 short byte
    strings (about a millisecond) instead of 2,000 `Work`s with their `Person`s (about
    100 ms), and unpickles only the few works its posts cite.
    """

    def __init__(self, works: Mapping[str, Work]) -> None:
        self._blobs = {
            key: pickle.dumps(work, pickle.HIGHEST_PROTOCOL) for key, work in works.items()
        }
        self._loaded: dict[str, Work] = {}

    def __getitem__(self, key: str) -> Work:
        found = self._loaded.get(key)
        if found is None:
            found = self._loaded[key] = pickle.loads(self._blobs[key])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._blobs)

    def __len__(self) -> int:
        return len(self._blobs)

    def __contains__(self, key: object) -> bool:
        """Tell whether the file defines `key`, without unpickling its work."""
        return key in self._blobs

    def __getstate__(self) -> dict[str, bytes]:
        """Pickle the byte strings only (what was unpickled is rebuilt on demand)."""
        return self._blobs

    def __setstate__(self, blobs: dict[str, bytes]) -> None:
        self._blobs = blobs
        self._loaded = {}


class Works(Mapping[str, Work]):
    """The works a post can cite: its own `.bib` files first, then the site's.

    A read-only chain of the files' maps (no merged copy: a site's 2,000-entry file is
    shared by every post, and only the keys a post cites are looked up).
    """

    def __init__(self, files: Sequence[Mapping[str, Work]]) -> None:
        self._files = tuple(files)

    def __getitem__(self, key: str) -> Work:
        for works in self._files:
            found = works.get(key)
            if found is not None:
                return found
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(key for works in self._files for key in works))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def defined_again(key: str, first: Location, same_file: bool) -> str:
    """Return the warning at a key defined a second time (in one file, or in a later file of
    those a post reads), naming the first definition, which citations resolve to.

    BibTeX keeps the first entry of a key and reports the second ("Repeated entry").
    """
    where = f"on line {first.line}" if same_file else f"in `{first}`"
    if same_file and first.col:
        where += f", column {first.col}"
    read = "" if same_file else ", a file read before this one,"
    return (
        f"`{key}` is defined again: the entry {where}{read} is the one cited; delete one "
        "of them, or give this one a new key and cite it by that"
    )


CITATION_STYLES = ("author-year", "numeric")
"""The built-in citation styles (`postil.bibliography.style`)."""
