"""Table plugin: scroll regions that are focusable and named, and Pandoc-style captions."""

from __future__ import annotations

import html5lib
from markdown_it import MarkdownIt

from postil.markdown.figure import figure_plugin
from postil.markdown.table import table_plugin

TABLE = "| Variant | Memory in `n` |\n| --- | --- |\n| Flash | linear |\n"


def render(source: str) -> str:
    md = MarkdownIt("commonmark").enable("table")
    table_plugin(md)
    figure_plugin(md)
    return md.render(source, {})


def test_every_region_is_focusable_and_has_a_unique_name():
    html = render(
        TABLE + "\n" + TABLE + "\nTable: Second. {#tbl-b}\n\n" + TABLE.replace("Variant", "Kind")
    )
    document = html5lib.parse(html, namespaceHTMLElements=False)
    regions = document.findall(".//div[@role='region']")
    assert len(regions) == 3
    assert all(region.get("tabindex") == "0" for region in regions)
    names = [region.get("aria-label") for region in regions]
    assert names == ["Table: Variant, Memory in n", "Table 1", "Table: Kind, Memory in n"]


def test_caption_comes_first_in_a_figure_around_the_region():
    html = render(TABLE + "\nTable: Memory of variants. {#tbl-memory}\n")
    document = html5lib.parse(html, namespaceHTMLElements=False)
    figure = document.find(".//figure[@id='tbl-memory']")
    assert [child.tag for child in figure] == ["figcaption", "div"]
    assert "".join(figure.find("figcaption").itertext()) == "Table 1 Memory of variants."


def test_caption_paragraph_does_not_leave_its_text_behind():
    html = render(TABLE + "\nTable: Caption. {#tbl-x}\n\nAfter.\n")
    assert "Table:" not in html and "{#tbl-x}" not in html
    assert html.rstrip().endswith("<p>After.</p>")
