"""The citation styles: labels, disambiguation, reference entries, initials."""

import pytest

from postil.bibliography.entries import Person, Work
from postil.bibliography.style import Markup, Plain, initials, labels, reference


def work(key, *people, year="2020", title="T", **fields):
    return Work(
        key,
        "article",
        tuple(Person(*p) for p in people),
        title=(("text", title),),
        year=year,
        **fields,
    )


@pytest.mark.parametrize(
    ("given", "expected"),
    [("Jean-Pierre", "J.-P."), ("Ana María", "A. M."), ("J. R. R.", "J. R. R."), ("", "")],
)
def test_initials_keep_hyphens(given, expected):
    assert initials(given) == expected


def test_author_year_labels_use_et_al_and_ampersands():
    one, two = work("a", ("Ng", "Andrew")), work("b", ("Ng", "A"), ("Jordan", "M"))
    three = work("c", ("A", ""), ("B", ""), ("C", ""))
    found = labels([one, two, three], ["T", "T", "T"], numeric=False)
    assert (found["a"].names, found["b"].names, found["c"].names) == (
        "Ng",
        "Ng & Jordan",
        "A et al.",
    )
    assert found["b"].narrative_names == "Ng and Jordan"


def test_same_authors_same_year_get_letters_in_title_order():
    first, second = work("z", ("Lee", "K"), title="Zebra"), work("a", ("Lee", "K"), title="Apple")
    found = labels([first, second], ["Zebra", "Apple"], numeric=False)
    assert (found["a"].year, found["z"].year) == ("2020a", "2020b")


def test_numeric_numbers_follow_the_order_of_first_citation_without_letters():
    found = labels([work("x", ("B", "")), work("y", ("B", ""))], ["T", "U"], numeric=True)
    assert (found["x"].number, found["y"].number) == (1, 2)
    assert found["x"].year == found["y"].year == "2020"


def test_reference_entry_in_html_and_plain_text():
    entry = work(
        "k",
        ("Müller", "Hans"),
        ("François", "Jean-Pierre"),
        title="On $x$",
        container=(("text", "J. ML"),),
        volume="20",
        number="3",
        pages="1–9",
        doi="10.1/x",
    )
    html = reference(entry, Markup(lambda tex: "<math/>"))
    assert html == (
        "Müller, H., &amp; François, J.-P. (2020). On $x$. <cite>J. ML</cite>, <i>20</i>(3), "
        '1–9. <a class="reference-link" href="https://doi.org/10.1/x">https://doi.org/10.1/x</a>'
    )
    text = reference(entry, Plain(lambda tex: tex), "2020b")
    assert (
        text
        == "Müller, H., & François, J.-P. (2020b). On $x$. J. ML, 20(3), 1–9. https://doi.org/10.1/x"
    )


def test_emphasis_in_a_title_is_markup_in_html_and_text_in_plain_text():
    entry = Work("k", "book", title=(("text", "The "), ("em", "TeX"), ("strong", "book")))
    assert "The <em>TeX</em><strong>book</strong>." in reference(entry, Markup(str))
    assert "The TeXbook." in reference(entry, Plain(str))
