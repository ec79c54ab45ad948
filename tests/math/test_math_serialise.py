"""postil's one-pass MathML serialiser writes exactly what ElementTree writes."""

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from postil.math import serialise
from postil.math.serialise import math_html, to_html

TAGS = ["math", "mrow", "mi", "mo", "mn", "mtext", "msub", "mtable", "mtd", "annotation"]
TEXT = st.text(alphabet=st.sampled_from(list("ab<>&\"'\r\n\t x∞𝑥")), max_size=6)


def trees(depth: int = 3) -> st.SearchStrategy[ET.Element]:
    def build(tag: str, attrs: dict[str, str], text: str, tail: str, children: list) -> ET.Element:
        element = ET.Element(tag, attrs)
        element.text = text or None
        element.tail = tail or None
        element.extend(children)
        return element

    leaf = st.builds(
        build,
        st.sampled_from(TAGS),
        st.dictionaries(st.sampled_from(["class", "style", "form"]), TEXT, max_size=2),
        TEXT,
        TEXT,
        st.just([]),
    )
    return st.recursive(
        leaf,
        lambda inner: st.builds(
            build,
            st.sampled_from(TAGS),
            st.dictionaries(st.sampled_from(["class", "style"]), TEXT, max_size=2),
            TEXT,
            TEXT,
            st.lists(inner, max_size=3),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None)
@given(trees())
def test_to_html_equals_elementtree_tostring(tree):
    tree.tail = None  # a root's tail is outside the element (a <math> root has none)
    assert to_html(tree) == ET.tostring(tree, encoding="unicode", short_empty_elements=False)


def _math_tree(content: ET.Element, latex: str, display: bool) -> ET.Element:
    """Return the `<math><semantics>` tree `math_html` writes as text."""
    math = ET.Element("math", display="block" if display else "inline")
    semantics = ET.SubElement(math, "semantics")
    if len(content) == 1 and content[0].get("class") == "numbered":
        content = content[0]
    semantics.append(content)
    annotation = ET.SubElement(semantics, "annotation", encoding="application/x-tex")
    annotation.text = latex
    return math


@settings(max_examples=300, deadline=None)
@given(trees(), TEXT, st.booleans())
def test_math_html_equals_the_serialised_math_element(content, latex, display):
    expected = ET.tostring(
        _math_tree(content, latex, display), encoding="unicode", short_empty_elements=False
    )
    assert math_html(content, latex, display) == expected


def test_math_html_unwraps_a_numbered_table_with_its_tail():
    content = ET.Element("mrow")
    table = ET.SubElement(content, "mtable", {"class": "numbered"})
    table.text, table.tail = "a", "&b"
    assert math_html(content, "x<y", True) == (
        '<math display="block"><semantics><mtable class="numbered">a</mtable>&amp;b'
        '<annotation encoding="application/x-tex">x&lt;y</annotation></semantics></math>'
    )


def test_start_tags_stay_right_when_the_kept_ones_are_emptied(monkeypatch):
    monkeypatch.setattr(serialise, "START_TAG_LIMIT", 2)
    monkeypatch.setattr(serialise, "_START_TAGS", {})
    elements = [ET.Element("mo", {"form": str(n), "stretchy": "false"}) for n in range(5)]
    for _ in range(2):
        assert [to_html(el) for el in elements] == [
            f'<mo form="{n}" stretchy="false"></mo>' for n in range(5)
        ]
    assert len(serialise._START_TAGS) <= 2
