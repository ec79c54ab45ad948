"""The built-in citation styles: author–year (APA-like) and numeric.

Author–year follows APA 7 (Publication Manual, 7th ed., §8.17–8.19 and §9): one author
"(Müller, 2019)", two "(Müller & François, 2019)" (narrative "Müller and François (2019)"),
three or more "(Vaswani et al., 2017)"; works of the same authors and year get letters in
reference-list order, "2017a", "2017b". Numeric numbers works in the order a post first
cites them, "[3]". The reference list entry reads the same in both (APA's order: authors,
year, title, container, volume(number), pages, publisher, DOI or URL); the numeric list
is in citation order with its numbers, the author–year list alphabetical.

Titles keep the case they are written in (no sentence-casing): BibTeX's case-protecting
braces are dropped, never needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from postil.bibliography.entries import Person, Pieces, Work

Formula = Callable[[str], str]
"""Renders one formula of a title (TeX) as HTML (MathML) or as plain text."""

NO_DATE = "n.d."
"""APA's year of a work without one."""


@dataclass(frozen=True)
class Label:
    """How a post's citations name one work.

    Attributes:
        names: the authors as cited ("Vaswani et al.", "Müller & François"; "" if none).
        narrative_names: the same in running text ("Müller and François").
        year: the year with its disambiguating letter ("2017a"), or "n.d.".
        number: the work's number in the post (numeric style), from 1.
    """

    names: str
    narrative_names: str
    year: str
    number: int


def cited_name(person: Person) -> str:
    """Return the name a citation gives a person: particle and family name ("van Gogh")."""
    if person.literal:
        return person.family
    return " ".join(p for p in (person.von, person.family) if p)


def _names(work: Work, joiner: str) -> str:
    people = work.authors
    if not people:
        return ""
    if len(people) >= 3 or work.more_authors:
        return f"{cited_name(people[0])} et al."
    if len(people) == 2:
        return f"{cited_name(people[0])} {joiner} {cited_name(people[1])}"
    return cited_name(people[0])


def sort_key(work: Work, title: str) -> tuple[str, str, str]:
    """Return the order of the author–year list: authors, then year, then title."""
    names = "; ".join(cited_name(p) for p in work.authors) or title
    return names.casefold(), work.year or "9999", title.casefold()


def labels(cited: Sequence[Work], titles: Sequence[str], numeric: bool) -> dict[str, Label]:
    """Return each cited work's `Label`, by key.

    Args:
        cited: the works in the order the post first cites them.
        titles: their titles as plain text, in the same order (for sorting).
        numeric: number the works (they keep their citation order).
    """
    found: dict[str, Label] = {}
    order = reference_order(cited, titles, numeric)
    same: dict[tuple[str, str], list[str]] = {}
    for work in order:
        same.setdefault((_names(work, "&"), work.year), []).append(work.key)
    numbers = {work.key: n for n, work in enumerate(cited, 1)}
    for work in order:
        group = same[(_names(work, "&"), work.year)]
        # numbers tell works apart already: letters are author–year's
        letter = _letter(group.index(work.key)) if len(group) > 1 and not numeric else ""
        year = (work.year or NO_DATE) + ("-" if not work.year and letter else "") + letter
        found[work.key] = Label(_names(work, "&"), _names(work, "and"), year, numbers[work.key])
    return found


def _letter(index: int) -> str:
    """Return "a", "b", … "z", "aa", … for the 0-based `index`."""
    text = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def reference_order(cited: Sequence[Work], titles: Sequence[str], numeric: bool) -> list[Work]:
    """Return the works in reference-list order: citation order (numeric) or alphabetical."""
    if numeric:
        return list(cited)
    pairs = sorted(zip(cited, titles, strict=True), key=lambda pair: sort_key(*pair))
    return [work for work, _ in pairs]


_INITIAL_PARTS = re.compile(r"([\s.]+|-)")


def initials(given: str) -> str:
    """Return APA initials of given names: "Jean-Pierre" -> "J.-P.", "Ana María" -> "A. M."."""
    out = []
    for part in _INITIAL_PARTS.split(given):
        if part == "-":
            out.append("-")
        elif part.strip(" ."):
            out.append(part.strip(" .")[0] + ".")
        elif out and out[-1] != " " and part:
            out.append(" ")
    return "".join(out).strip()


def reference_name(person: Person) -> str:
    """Return a person as a reference list writes them: "van Gogh, V.", "Google DeepMind"."""
    if person.literal:
        return person.family
    family = cited_name(person)
    given = initials(person.given)
    name = f"{family}, {given}" if given else family
    return f"{name}, {person.suffix}" if person.suffix else name


def reference_names(work: Work) -> str:
    """Return the author part of an entry: "A, B., C, D., & E, F." ("…, et al." for
    `and others`)."""
    names = [reference_name(p) for p in work.authors]
    if work.more_authors:
        return ", ".join(names) + ", et al."
    if len(names) > 1:
        return ", ".join(names[:-1]) + ", & " + names[-1]
    return names[0] if names else ""


class Markup:
    """How an entry is written: HTML (`escape`, `<cite>`, links) or plain text (`Plain`).

    Args:
        formula: writes one formula of a title or container (MathML, or readable text).
        link_attrs: added to links (`tabindex="-1"` in an aria-hidden margin copy).
    """

    def __init__(self, formula: Formula, link_attrs: str = "") -> None:
        self.formula = formula
        self.link_attrs = link_attrs

    def text(self, text: str) -> str:
        """Write text."""
        return escape(text, quote=False)

    def cite(self, inner: str) -> str:
        """Write the name of a work (a title in italics)."""
        return f"<cite>{inner}</cite>"

    def italic(self, inner: str) -> str:
        """Write a volume (italics in APA)."""
        return f"<i>{inner}</i>"

    def link(self, href: str) -> str:
        """Write a DOI or URL as a link showing itself."""
        extra = f" {self.link_attrs}" if self.link_attrs else ""
        return f'<a class="reference-link" href="{escape(href)}"{extra}>{escape(href)}</a>'

    def pieces(self, pieces: Pieces) -> str:
        """Write text pieces as text, emphasis as `emphasis`, math through `formula`."""
        return "".join(
            self.formula(c) if k == "math" else self.emphasis(k, self.text(c)) for k, c in pieces
        )

    def emphasis(self, kind: str, inner: str) -> str:
        """Write an `\\emph{…}` ("em") or `\\textbf{…}` ("strong") piece; text as it is."""
        return f"<{kind}>{inner}</{kind}>" if kind in ("em", "strong") else inner


class Plain(Markup):
    """Entries as plain text (JSON-LD, meta tags)."""

    def text(self, text: str) -> str:
        """Write text as it is."""
        return text

    def cite(self, inner: str) -> str:
        """Write a title as it is."""
        return inner

    def italic(self, inner: str) -> str:
        """Write a volume as it is."""
        return inner

    def emphasis(self, kind: str, inner: str) -> str:
        """Write emphasis as its text."""
        return inner

    def link(self, href: str) -> str:
        """Write the URL."""
        return href


def _end(text: str) -> str:
    """Return `text` ending in a full stop (not doubled after "?", "!" or ".")."""
    return text if text.rstrip().endswith((".", "?", "!")) else text + "."


def reference(work: Work, out: Markup, year: str = "") -> str:
    """Return one reference list entry, written by `out` (HTML: phrasing content only, fit
    for a margin note); `year` is the year as cited ("2017a", `Label.year`), if not the
    work's own."""
    parts = []
    names = reference_names(work)
    year = f"({year or work.year or NO_DATE})."
    parts.append(f"{out.text(_end(names))} {year}" if names else "")
    title = out.pieces(work.title) or out.text(work.key)
    if work.container:
        parts.append(_end(title))
        parts.append(_end(_container(work, out)))
    else:
        parts.append(out.cite(_end(title)))
    if not names:
        parts.append(year)
    if work.publisher and work.publisher not in {c for _, c in work.container}:
        parts.append(out.text(_end(work.publisher)))
    href = work_url(work)
    parts.append(out.link(href) if href else "")
    return " ".join(p for p in parts if p)


def _container(work: Work, out: Markup) -> str:
    text = out.cite(out.pieces(work.container))
    if work.volume:
        text += ", " + out.italic(out.text(work.volume))
        text += f"({out.text(work.number)})" if work.number else ""
    if work.pages:
        text += ", " + out.text(work.pages)
    return text


def doi_url(doi: str) -> str:
    """Return the resolver URL of a DOI (Crossref's display guidelines: https://doi.org/)."""
    return f"https://doi.org/{doi}"


def work_url(work: Work) -> str:
    """Return the link of a work: its DOI's URL, else its http(s) URL, else ""."""
    href = doi_url(work.doi) if work.doi else work.url
    return href if href.startswith(("http://", "https://")) else ""
