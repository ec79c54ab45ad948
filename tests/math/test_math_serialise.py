"""postil's one-pass MathML serialiser writes exactly what ElementTree writes."""

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from postil.math.serialise import to_html

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
