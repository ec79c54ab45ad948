"""pandas' DataFrame HTML, a notebook's output kept by nbconvert's Markdown, in Debian's
Chromium: drawn as Markdown's tables (collapsed rules, no `border` attribute's inset
boxes), its values right-aligned; a table the author wrote keeps its own rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe, write_article_page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

FRAME = """<table border="1" class="{cls}">
  <thead><tr style="text-align: right;"><th></th><th>mean</th><th>sd</th></tr></thead>
  <tbody>
    <tr><th>0</th><td>0.25</td><td>1.5</td></tr>
    <tr><th>1</th><td>12.75</td><td>0.5</td></tr>
  </tbody>
</table>"""

BODY = f"""A paragraph before the output.

<div>
<style scoped>
    .dataframe tbody tr th {{
        vertical-align: top;
    }}

    .dataframe thead th {{
        text-align: right;
    }}
</style>
{FRAME.format(cls="dataframe")}
</div>

The author's own table:

{FRAME.format(cls="mine")}
"""

STYLE_JS = """
(cls) => {
  const table = document.querySelector(`table.${cls}`);
  const cell = table.querySelector("tbody td");
  const style = getComputedStyle(table), cellStyle = getComputedStyle(cell);
  return [style.borderCollapse, cellStyle.borderTopStyle, cellStyle.textAlign];
}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Write the page of the two tables with the theme's stylesheets."""
    root = tmp_path_factory.mktemp("dataframe")
    body = create_markdown().render(BODY, {"postil": RenderState()})
    assert body.count('<div class="table-wrap" data-html') == 2
    write_article_page(root, "Frames", body)
    return root


def test_a_dataframe_is_drawn_as_markdowns_tables_and_the_authors_table_keeps_its_own(
    page, site, serve_dir
):
    page.goto(serve_dir(site))
    assert page.evaluate(STYLE_JS, "dataframe") == ["collapse", "none", "right"]
    assert page.evaluate(STYLE_JS, "mine") == ["separate", "inset", "start"]


def test_axe_finds_nothing_on_the_page_of_tables(page, site, serve_dir):
    page.goto(serve_dir(site))
    assert run_axe(page) == []
