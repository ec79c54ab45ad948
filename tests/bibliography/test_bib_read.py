"""Reading a messy `.bib` file: LaTeX, macros, names, entries that cannot be read."""

from pathlib import Path

import pytest

from postil.bibliography.entries import Person
from postil.bibliography.latex import decode, pieces
from postil.bibliography.read import read_bib

MESSY = Path(__file__).parents[1] / "fixtures" / "cite.bib"


@pytest.fixture(scope="module")
def bib():
    return read_bib(MESSY.read_bytes(), "refs.bib")


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"M{\"u}ller", "Müller"),
        (r"Fran{\c c}ois", "François"),
        (r"{\O}stergaard", "Østergaard"),
        (r"R\'{e}seaux \& more", "Réseaux & more"),
        ("pages 1--10, and --- more", "pages 1–10, and — more"),
        ("{SGD} {GPU}s", "SGD GPUs"),
        (r"5% of \$3", "5% of $3"),
        ("J.~Smith", "J.\u00a0Smith"),
        (r"The {\TeX}book", "The TeXbook"),
        (r"{\LaTeX}: A System", "LaTeX: A System"),
        (r"\BibTeX{} and {\AmS}-\LaTeX", "BibTeX and AMS-LaTeX"),
        (r"\texttt{grep} in an \mbox{mbox}", "grep in an mbox"),
        (r"\mycommand{kept} \emph{and} \textbf{this}", "kept and this"),
    ],
)
def test_latex_in_fields_reads_as_unicode(latex, text):
    assert decode(latex) == text


def test_math_in_a_title_stays_tex_and_an_unclosed_dollar_is_text():
    assert pieces(r"The $\alpha$-divergence") == (
        ("text", "The "),
        ("math", r"\alpha"),
        ("text", "-divergence"),
    )
    assert pieces("costs $5") == (("text", "costs $5"),)


def test_string_macros_concatenation_and_month_macros_are_evaluated(bib):
    vaswani = bib.works["vaswani2017"]
    assert vaswani.container == (("text", "Advances in Neural Information Processing Systems 30"),)
    assert bib.works["muller2019"].container == (("text", "Journal of Machine Learning Research"),)
    assert vaswani.pages == "5998–6008" and vaswani.year == "2017"


def test_names_others_organisations_particles_and_suffixes(bib):
    vaswani = bib.works["vaswani2017"]
    assert [p.family for p in vaswani.authors] == ["Vaswani", "Shazeer", "Parmar"]
    assert vaswani.more_authors
    assert bib.works["muller2019"].authors[1] == Person("François", "Jean-Pierre")
    assert bib.works["deepmind2023"].authors == (Person("Google DeepMind", literal=True),)
    assert bib.works["vonneumann1945"].authors == (
        Person("Neumann", "John", von="von"),
        Person("Smith", "Bob", suffix="Jr."),
    )


def test_doi_resolver_is_stripped_and_urls_come_from_howpublished_and_eprints(bib):
    assert bib.works["muller2019"].doi == "10.5555/3322706.3322712"
    assert bib.works["deepmind2023"].url == "https://example.org/gemini"
    assert bib.works["deepmind2023"].container == ()
    assert bib.works["vonneumann1945"].url == "https://arxiv.org/abs/1234.5678"
    assert bib.works["vonneumann1945"].year == "1945"  # BibLaTeX `date`


def test_an_entry_that_cannot_be_read_is_a_warning_at_its_line_and_the_rest_still_work(bib):
    messages = [str(w) for w in bib.warnings]
    assert messages[0].startswith(
        "refs.bib:48: warning: entry `broken` cannot be read (Unexpected block start: "
    )
    assert "broken" not in bib.works
    assert "vonneumann1945" in bib.works and "undefinedmacro" in bib.works


def test_an_undefined_macro_is_a_warning_at_the_field_naming_entry_and_field(bib):
    assert str(bib.warnings[1]) == (
        "refs.bib:63: warning: entry `undefinedmacro`, field `journal`: `nosuchjournal` is "
        "not defined; add @string{nosuchjournal = {…}}"
    )
    assert len(bib.warnings) == 2


def test_a_duplicate_key_is_a_warning_and_the_first_entry_wins():
    text = b"@misc{a, title={First}}\n\n@misc{a, title={Second}}\n"
    bib = read_bib(text, "d.bib")
    assert bib.works["a"].title == (("text", "First"),)
    assert [str(w) for w in bib.warnings] == [
        "d.bib:3:7: warning: `a` is defined again: the entry on line 1, column 7 is the one "
        "cited; delete one of them, or give this one a new key and cite it by that"
    ]


@pytest.mark.parametrize(
    ("text", "key", "place"),
    [
        ("@misc{a, title={X}}", "a", (1, 7)),
        ("  @book{ b ,\n title={Y}}", "b", (1, 10)),  # indented, a space before the key
        ("@misc{x, title={X}} @misc{a, title={Y}}", "a", (1, 27)),  # two entries on a line
        ("@article(\n  a,\n  title={Y})", "a", (2, 3)),  # the key on the next line, `(` form
    ],
)
def test_an_entry_knows_the_line_and_column_of_its_key(text, key, place):
    work = read_bib(text.encode(), "k.bib").works[key]
    assert (work.line, work.col) == place


def test_a_field_given_twice_keeps_the_entry_and_its_first_value_as_bibtex_does():
    text = b"@misc{a,\n  title={First},\n  url={https://a.org},\n  title={Second}}\n"
    bib = read_bib(text, "f.bib")
    assert bib.works["a"].title == (("text", "First"),)
    assert bib.works["a"].url == "https://a.org"
    assert [str(w) for w in bib.warnings] == [
        "f.bib:1: warning: entry `a` gives `title` twice; the first is used: delete one"
    ]


def test_latin1_bytes_are_read_with_a_warning():
    bib = read_bib("@misc{a, author={Müller, H.}}\n".encode("latin-1"), "l.bib")
    assert bib.works["a"].authors[0].family == "Müller"
    assert str(bib.warnings[0]) == (
        "l.bib:1:19: warning: the file is not valid UTF-8 at byte 18 (0xfc); "
        "it is read as Latin-1: save it as UTF-8"
    )


def test_emphasis_commands_are_emphasis_pieces_and_logos_stay_in_the_title():
    assert pieces(r"{\LaTeX}: A System and \emph{more} of \textbf{it}") == (
        ("text", "LaTeX: A System and "),
        ("em", "more"),
        ("text", " of "),
        ("strong", "it"),
    )
    assert pieces(r"\textit{a {B} c} on $x$") == (("em", "a B c"), ("text", " on "), ("math", "x"))
    assert pieces(r"an \emph{unclosed one") == (("text", "an unclosed one"),)


def test_a_command_with_no_text_is_a_warning_at_its_field_and_known_ones_are_not():
    bib = read_bib(
        b"@book{a,\n  title = {The {\\TeX}book and \\mylogo{} of {\\em it}},\n"
        b"  publisher = {\\texttt{AW} \\relax $\\undefinedmath$}\n}\n",
        "f.bib",
    )
    assert [str(w) for w in bib.warnings] == [
        "f.bib:2: warning: entry `a`, field `title`: `\\mylogo` has no text postil knows and "
        "is left out; write the text it stands for"
    ]
    assert bib.works["a"].title == (("text", "The TeXbook and of it"),)
