"""The "Cite this post" block: a BibTeX entry and an APA-style reference, from front matter.

BibTeX conventions follow the BibTeX manual (Patashnik, "BibTeXing", 1988): several authors
are joined with " and " (a name that itself holds the word "and" is braced, so BibTeX reads
one author); the citation key is Google Scholar's pattern
`<first author's family name><year><first significant title word>` (`sahu2026attention`).
A post is an `@misc` entry (a web page: BibTeX's standard styles have no `@online`, which
BibLaTeX reads `@misc` as anyway) with `howpublished` (the site), `url` and `urldate` (the
date the cited version was last changed), never an `@article` without a journal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from slugify import slugify

from postil.bibliography.read import person
from postil.bibliography.style import reference_name

_STOP_WORDS = frozenset(
    "a an the on of in for to and or from with at by as is are be how why what when where "
    "into onto via vs not no its it this that these those".split()
)
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIAL_RE = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIALS))


def escape_bibtex(text: str) -> str:
    """Escape TeX's special characters (`\\ { } & % $ # _ ~ ^`) so a field reads back as `text`.

    Non-ASCII letters are kept as UTF-8 (biblatex and BibTeX 0.99d+ read UTF-8 files).
    """
    return _SPECIAL_RE.sub(lambda m: _LATEX_SPECIALS[m.group(0)], text)


def family_name(author: str) -> str:
    """Return the family name of one author as BibTeX reads it (`bibliography.read.person`):
    without its particles ("Jan van der Berg" → "Berg", BibTeX's Last part), the whole
    name of an organisation braced whole (`{World Health Organization}`)."""
    return person(author).family


def display_name(author: str) -> str:
    """Return one author's name as a byline shows it, read by BibTeX's rules
    (`bibliography.read.person`): "Given von Family, Suffix" ("King, Jr., Martin Luther" →
    "Martin Luther King, Jr."; "van der Berg, Jan" → "Jan van der Berg"), TeX accents as
    letters, an organisation braced whole (`{World Health Organization}`) without braces.
    A name without a comma keeps its words in their order."""
    if not author.strip():
        return author
    found = person(author)
    name = " ".join(part for part in (found.given, found.von, found.family) if part)
    return f"{name}, {found.suffix}" if found.suffix else name or author.strip()


def bibtex_author(name: str) -> str:
    """Return one author for a BibTeX `author` field: escaped, braced whole when the name
    holds the word "and" ("Bob and Eve" is one author, not two) or was braced whole
    (`{World Health Organization}`: an organisation, kept one name), and a suffix written
    after the name ("Martin Luther King, Jr.") in BibTeX's "King, Jr., Martin Luther"."""
    found = person(name)
    if found.literal:
        name = name.strip()
        if name.startswith("{") and name.endswith("}"):
            name = name[1:-1]
        return f"{{{escape_bibtex(name)}}}"
    if found.suffix and name.count(",") == 1:  # "Martin Luther King, Jr." as written
        von = f"{found.von} " if found.von else ""
        name = f"{von}{found.family}, {found.suffix}, {found.given}"  # BibTeX's order
    return escape_bibtex(name)


def _ascii_word(text: str) -> str:
    return slugify(text, separator="")


def citation_key(authors: tuple[str, ...], year: int, title: str) -> str:
    """Return the BibTeX key: first author's family name + year + first significant title word.

    All parts are lowercase ASCII (accents transliterated); stop words ("the", "on", …) are
    skipped, so "On the Attention" gives `…attention`.
    """
    family = _ascii_word(family_name(authors[0])) if authors else ""
    return f"{family or 'anon'}{year}{_key_word(title)}"


def _key_word(title: str) -> str:
    """Return the first significant word of `title` as lowercase ASCII, else its first word,
    else "". Words are transliterated one at a time, up to the one the key takes: python-slugify
    costs ≈ 0.1 ms a word, and a title's first or second word is usually it (issue 20)."""
    first = ""
    for word in re.split(r"[\s\-–—:;,./]+", title):
        ascii_word = _ascii_word(word) if word else ""
        if ascii_word and ascii_word not in _STOP_WORDS:
            return ascii_word
        first = first or ascii_word
    return first


def bibtex_title(parts: Sequence[tuple[str, str]]) -> str:
    r"""Return a title's BibTeX field value from its ("text", …)/("math", TeX) pieces.

    Text is escaped (`escape_bibtex`); math stays TeX math in braces, `{$\alpha$}`, so
    BibTeX styles that change a title's case leave it alone (the BibTeX manual's advice
    for letters whose case matters: a brace group at the top level is never changed).
    """
    return "".join(
        f"{{${content}$}}" if kind == "math" else escape_bibtex(content) for kind, content in parts
    )


def bibtex_entry(
    authors: tuple[str, ...],
    year: int,
    title: str,
    url: str,
    parts: Sequence[tuple[str, str]] = (),
    site: str = "",
    changed: str = "",
    doi: str = "",
) -> str:
    """Return a BibTeX `@misc` entry of a post: author, title, howpublished, year, doi, url
    and urldate, fields aligned.

    Args:
        authors: author names in order ("Given Family" or "Family, Given").
        year: publication year.
        title: the post's title as plain text (TeX specials are escaped).
        url: the absolute URL of the post, including the site's base path.
        parts: the title's text and math pieces (`postil.markdown.title.split_math`);
            when given, the title field keeps its math as `{$…$}` (`bibtex_title`) and the
            citation key is made from its text pieces.
        site: the site's name (`howpublished`), or "" to leave it out.
        changed: the post's last change as YYYY-MM-DD (`urldate`), or "" to leave it out.
        doi: the post's DOI ("10.59350/abc"), or "" to leave it out.
    """
    text = "".join(content for kind, content in parts if kind == "text").strip()
    fields = [
        ("author", " and ".join(bibtex_author(a) for a in authors)),
        ("title", bibtex_title(parts) if parts else escape_bibtex(title)),
        ("howpublished", escape_bibtex(site)),
        ("year", str(year)),
        ("doi", escape_bibtex(doi)),
        ("url", url.replace("%", r"\%")),
        ("urldate", changed),
    ]
    fields = [(name, value) for name, value in fields if value]
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields)
    return f"@misc{{{citation_key(authors, year, text or title)},\n{body}\n}}"


def apa_author(author: str) -> str:
    """Return "Family, G. N." for one author, its name read by BibTeX's rules
    (`bibliography.read.person`: "Given Names Family", "Family, Given", "Family, Jr.,
    Given"): hyphenated given names keep their hyphen ("Jean-Pierre" is "J.-P.", APA 7
    §9.8), the particles stay with the family name ("van der Berg, J."), a suffix follows
    the initials ("King, M. L., Jr.", §9.8), and a name braced whole is an organisation,
    written as it is ("World Health Organization", §9.11)."""
    return reference_name(person(unicodedata.normalize("NFC", author)))


def apa_reference(
    authors: tuple[str, ...], year: int, title: str, site: str, url: str, doi: str = ""
) -> str:
    """Return a plain-text APA 7 reference for a blog post: Authors (Year). Title. Site. URL;
    with a DOI, its `https://doi.org/` link instead of the URL (APA 7 §9.34)."""
    names = [apa_author(a) for a in authors]
    if len(names) > 1:
        joined = ", ".join(names[:-1]) + ", & " + names[-1]
    else:
        joined = names[0] if names else site
    link = f"https://doi.org/{doi}" if doi else url
    return f"{joined} ({year}). {title}. {site}. {link}"
