"""Cite this post: BibTeX key, escaping, round trip through a BibTeX parser, APA text."""

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors

from postil import citation
from postil.citation import (
    apa_author,
    apa_reference,
    bibtex_author,
    bibtex_entry,
    citation_key,
    display_name,
    escape_bibtex,
)


def test_reference_post_entry_matches_the_seed_exactly():
    entry = bibtex_entry(
        ("Surya Kant Sahu",),
        2026,
        "Attention, from the softmax up",
        "https://ojus1.github.io/posts/attention-from-the-softmax-up/",
    )
    assert entry == (
        "@misc{sahu2026attention,\n"
        "  author = {Surya Kant Sahu},\n"
        "  title  = {Attention, from the softmax up},\n"
        "  year   = {2026},\n"
        "  url    = {https://ojus1.github.io/posts/attention-from-the-softmax-up/}\n"
        "}"
    )


def test_key_skips_stop_words_and_transliterates():
    assert citation_key(("José Núñez",), 2025, "On the Ünicode of Slugs") == "nunez2025unicode"
    assert citation_key(("Knuth, Donald E.",), 1984, "The TeXbook") == "knuth1984texbook"


def test_key_falls_back_to_the_first_word_then_to_none():
    assert citation_key(("Ada Lovelace",), 2026, "On the") == "lovelace2026on"
    assert citation_key(("Ada Lovelace",), 2026, " -- : On") == "lovelace2026on"
    assert citation_key((), 2026, "") == "anon2026"


def test_key_transliterates_only_the_title_words_up_to_the_one_it_takes(monkeypatch):
    """python-slugify costs ≈ 0.1 ms a word: the key reads the author's name and the
    title's words up to its first significant one, not every word of the title."""
    read: list[str] = []

    def counting(text: str, **options: object) -> str:
        read.append(text)
        return slugify(text, **options)

    slugify = citation.slugify
    monkeypatch.setattr(citation, "slugify", counting)
    key = citation_key(("Ada Lovelace",), 2026, "On the Attention of Many Heads in Long Titles")
    assert key == "lovelace2026attention"
    assert read == ["Lovelace", "On", "the", "Attention"]


def test_specials_are_escaped():
    assert escape_bibtex("a {b} & 50% $x$ #1 a_b ~ ^ \\") == (
        r"a \{b\} \& 50\% \$x\$ \#1 a\_b \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )


def test_entry_with_specials_and_accents_parses_back_to_the_same_fields():
    title = "Braces {x} & 100% of a_b"
    authors = ("Zoë Ångström", "Bob Smith")
    text = bibtex_entry(authors, 2024, title, "https://e.github.io/blog/posts/x/")
    library = bibtexparser.parse_string(
        text, append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors()]
    )
    assert not library.failed_blocks
    (entry,) = library.entries
    assert entry.fields_dict["title"].value == title
    assert entry.fields_dict["author"].value == list(authors)
    assert entry.fields_dict["year"].value == "2024"


def test_apa_reference_lists_authors_with_initials():
    text = apa_reference(("Surya Kant Sahu", "Ada Lovelace"), 2026, "Title", "Site", "https://x/")
    assert text == "Sahu, S. K., & Lovelace, A. (2026). Title. Site. https://x/"


def test_apa_keeps_name_particles_with_the_family_name_as_bibtex_splits_them():
    authors = ("Jan van der Berg", "Maria de la Cruz", "Jean de La Fontaine", "de la Cruz, Ana")
    assert apa_reference(authors, 2024, "T", "S", "https://x/") == (
        "van der Berg, J., de la Cruz, M., de La Fontaine, J., & de la Cruz, A. (2024). T. S. "
        "https://x/"
    )
    # a capitalised word after the given name is a given name, as in BibTeX
    assert citation.apa_author("Mary Ann Evans") == "Evans, M. A."
    assert citation_key(("Jan van der Berg",), 2024, "Sets") == "berg2024sets"


def test_apa_puts_a_suffix_after_the_initials_and_writes_an_organisation_braced_whole():
    authors = ("King, Jr., Martin Luther", "{World Health Organization}", "von Neumann, Jr, John")
    assert apa_reference(authors, 2024, "T", "S", "https://x/") == (
        "King, M. L., Jr., World Health Organization, & von Neumann, J., Jr (2024). T. S. "
        "https://x/"
    )
    assert citation_key(("{World Health Organization}",), 2024, "Report") == (
        "worldhealthorganization2024report"
    )
    entry = bibtex_entry(authors[:2], 2024, "T", "https://x/")
    library = bibtexparser.parse_string(entry, append_middleware=[SeparateCoAuthors()])
    (parsed,) = library.entries
    assert parsed.fields_dict["author"].value == [
        "King, Jr., Martin Luther",
        "{World Health Organization}",
    ]


def test_a_doi_is_a_field_before_the_url_and_the_apa_link():
    entry = bibtex_entry(("Ada Lovelace",), 2024, "Notes", "https://x.org/n/", doi="10.1/a_b")
    assert entry.splitlines()[4:6] == ["  doi    = {10.1/a\\_b},", "  url    = {https://x.org/n/}"]
    apa = apa_reference(("Ada Lovelace",), 2024, "Notes", "X", "https://x.org/n/", "10.1/a_b")
    assert apa == "Lovelace, A. (2024). Notes. X. https://doi.org/10.1/a_b"


def test_a_byline_shows_names_read_by_bibtex_rules_in_reading_order():
    shown = [
        citation.display_name(name)
        for name in (
            "King, Jr., Martin Luther",
            "van der Berg, Jan",
            "{World Health Organization}",
            'Kurt G{\\"o}del',
            "Ada Lovelace",
            "Plato",
        )
    ]
    assert shown == [
        "Martin Luther King, Jr.",
        "Jan van der Berg",
        "World Health Organization",
        "Kurt Gödel",
        "Ada Lovelace",
        "Plato",
    ]


@pytest.mark.parametrize(
    ("author", "byline", "apa", "bibtex"),
    [
        # one name holding "and" is an organisation's: BibTeX read "and" as a particle
        ("Tom and Jerry", "Tom and Jerry", "Tom and Jerry", "{Tom and Jerry}"),
        (
            "Research and Development Team",
            "Research and Development Team",
            "Research and Development Team",
            "{Research and Development Team}",
        ),
        # a suffix after the name in prose order: BibTeX read "Jr." as the given name
        (
            "Martin Luther King, Jr.",
            "Martin Luther King, Jr.",
            "King, M. L., Jr.",
            "King, Jr., Martin Luther",
        ),
        (
            "King, Jr., Martin Luther",
            "Martin Luther King, Jr.",
            "King, M. L., Jr.",
            "King, Jr., Martin Luther",
        ),
    ],
)
def test_an_organisation_and_a_suffixed_name_as_front_matter_writes_them(
    author, byline, apa, bibtex
):
    assert (display_name(author), apa_author(author), bibtex_author(author)) == (
        byline,
        apa,
        bibtex,
    )
    assert citation_key(("Tom and Jerry",), 2023, "Cats") == "tomandjerry2023cats"
