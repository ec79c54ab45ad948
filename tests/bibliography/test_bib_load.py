"""The bibliography stage's check of keys defined in two files a post reads
(`bibliography.load.defined_in_two_files`)."""

from __future__ import annotations

from postil.bibliography.entries import BibFile, StoredWorks, Work
from postil.bibliography.load import defined_in_two_files


def bib(rel: str, *keys: str) -> BibFile:
    works = {key: Work(key, "misc", source=rel, line=n, col=7) for n, key in enumerate(keys, 1)}
    return BibFile(StoredWorks(works))


def test_each_later_definition_names_the_first_in_lookup_order_once():
    files = {
        "a.bib": bib("a.bib", "x", "y"),
        "b.bib": bib("b.bib", "y", "x"),
        "c.bib": bib("c.bib", "x"),
    }
    chains = [("a.bib", "b.bib", "c.bib"), ("c.bib", "a.bib"), ("a.bib", "gone.bib", "c.bib")]
    found = sorted(
        (str(d.location), d.message.split(": the entry in ")[1].split("`")[1])
        for d in defined_in_two_files(chains, files)
    )
    assert found == [
        ("a.bib:1:7", "c.bib:1:7"),  # the second chain reads c.bib first
        ("b.bib:1:7", "a.bib:2:7"),
        ("b.bib:2:7", "a.bib:1:7"),
        ("c.bib:1:7", "a.bib:1:7"),  # named once, though two chains read it after a.bib
    ]


def test_a_file_twice_in_a_chain_and_one_alone_are_no_duplicates():
    files = {"a.bib": bib("a.bib", "x")}
    assert defined_in_two_files([("a.bib", "a.bib"), ("a.bib",)], files) == []


def test_looking_a_key_up_in_a_stored_file_unpickles_nothing():
    works = bib("a.bib", "x", "y").works
    assert "x" in works and "z" not in works
    assert works._loaded == {}  # type: ignore[attr-defined]
