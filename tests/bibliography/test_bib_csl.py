"""CSL JSON and CSL YAML bibliographies (Pandoc's and Quarto's other formats)."""

from __future__ import annotations

import json

from postil.bibliography.csl import read_csl
from postil.bibliography.entries import Person
from postil.bibliography.load import read_bibliography

ITEMS = [
    {
        "id": "pearl2009",
        "type": "book",
        "title": "Causality",
        "author": [{"family": "Pearl", "given": "Judea"}],
        "issued": {"date-parts": [[2009]]},
        "publisher": "Cambridge University Press",
        "DOI": "10.1017/CBO9780511803161",
    },
    {
        "id": "team2024",
        "type": "article-journal",
        "title": "A $5 model & more",
        "author": [
            {"literal": "R Core Team"},
            {"family": "Beek", "given": "Jan", "non-dropping-particle": "van"},
        ],
        "container-title": "Journal of Stuff",
        "volume": "3",
        "issue": "2",
        "page": "10-20",
        "issued": {"date-parts": [[2024, 5]]},
    },
]


def test_csl_json_items_are_works_with_their_names_dates_and_plain_text():
    bib = read_csl(json.dumps(ITEMS, indent=1).encode(), "refs.json")
    book, article = bib.works["pearl2009"], bib.works["team2024"]
    assert (book.kind, book.year, book.doi) == ("book", "2009", "10.1017/CBO9780511803161")
    assert book.authors == (Person("Pearl", "Judea"),)
    assert article.kind == "article" and article.pages == "10–20" and article.number == "2"
    assert article.authors == (Person("R Core Team", literal=True), Person("Beek", "Jan", "van"))
    assert article.title == (("text", "A $5 model & more"),)  # plain text: no math, no LaTeX
    assert article.container == (("text", "Journal of Stuff"),)
    assert bib.warnings == ()


def test_csl_yaml_reads_the_references_list():
    text = b"---\nreferences:\n- id: a\n  type: webpage\n  title: T\n  issued: {raw: '2020-03'}\n"
    bib = read_bibliography(text, "refs.yaml")
    assert (bib.works["a"].kind, bib.works["a"].year) == ("online", "2020")


def test_what_cannot_be_read_is_a_warning_at_its_line():
    text = '[\n {"id": "a", "title": "One"},\n {"title": "no id"},\n {"id": "a", "title": "Two"}\n]'
    bib = read_csl(text.encode(), "r.json")
    assert bib.works["a"].title == (("text", "One"),)
    assert [str(w) for w in bib.warnings] == [
        "r.json:3: warning: an item has no `id` and is left out",
        "r.json:4:9: warning: `a` is defined again: the entry on line 2, column 9 is the one "
        "cited; delete one of them, or give this one a new key and cite it by that",
    ]
    [broken] = read_csl(b"[1,", "bad.json").warnings
    assert str(broken).startswith("bad.json:1: warning: the file cannot be read (Expecting value")
    [shape] = read_csl(b"{}", "o.json").warnings
    assert "holds no list of CSL items" in str(shape)


def test_values_of_the_wrong_shape_never_show_as_python_and_odd_dates_keep_their_words():
    items = [
        {
            "id": "odd",
            "author": [{"given": "Madonna"}, {}, "R Core Team", {"family": None}],
            "issued": {"date-parts": [[None]]},
            "title": 42,
        },
        {"id": "list", "author": [{"family": ["x"]}], "issued": {"literal": "forthcoming"}},
        {"id": "raw", "author": "Bob", "issued": {"raw": "in press, 2021"}},
        1,
    ]
    bib = read_csl(json.dumps(items).encode(), "r.json")
    odd, listed, raw = bib.works["odd"], bib.works["list"], bib.works["raw"]
    assert odd.authors == (Person("Madonna", literal=True), Person("R Core Team", literal=True))
    assert (odd.year, odd.title) == ("", (("text", "42"),))
    assert (listed.authors, listed.year) == ((), "forthcoming")
    assert (raw.authors, raw.year) == ((Person("Bob", literal=True),), "2021")
    assert [str(w) for w in bib.warnings] == [
        "r.json:1: warning: an item is not a mapping and is left out"
    ]


def test_csl_yaml_keeps_its_scalars_as_text():
    bib = read_csl(b"references:\n- id: on\n  title: 1.10\n", "r.yaml")
    assert bib.works["on"].title == (("text", "1.10"),)
