"""Figure plugin: numbering across kinds, state.figures, and errors for unknown targets."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from postil.errors import Severity
from postil.markdown.figure import figure_plugin
from postil.markdown.state import RenderState
from postil.markdown.table import table_plugin


def render(source: str, *extra_plugins) -> tuple[str, RenderState]:
    md = MarkdownIt("commonmark").enable("table")
    for plugin in (*extra_plugins, figure_plugin):
        plugin(md)
    state = RenderState(path="post.md", body_line=4)
    return md.render(source, {"postil": state}), state


def test_unknown_figure_reference_is_a_warning_at_its_line_and_column_and_shows_marks():
    # a warning, as an unknown `\eqref` is (an error under --strict): a mystmd course's 26
    # links to labels of its other files stopped the whole site's build
    html, state = render("![A](a.png){#fig-a}\n\nText\nsee [](#fig-x) now.\n")
    assert [str(d) for d in state.diagnostics] == [
        "post.md:7:5: warning: empty link to #fig-x: no figure, table, equation or `(label)=` "
        "target has the id 'fig-x' (figures and tables: fig-a), so it shows ??; fix the id "
        "or write the link text (another page's `(label)=` target is found when that page "
        "alone has it; else link to it as `[text](other.md#fig-x)`, which postil checks)"
    ]
    assert state.diagnostics[0].severity is Severity.WARNING
    assert '<a href="#fig-x">??</a>' in html


def test_a_duplicate_figure_id_is_a_warning_and_the_second_figure_gets_a_free_id():
    # Quarto warns and links to the first; the page keeps its ids unique
    html, state = render("![A](a.png){#fig-a}\n\n![B](b.png){#fig-a}\n\nSee [](#fig-a).\n")
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: two figures have the id 'fig-a'; references go to the first: "
        "give each figure its own id"
    ]
    assert html.count('id="fig-a"') == 1 and html.count('id="fig-a-2"') == 1
    assert 'href="#fig-a">Figure 1</a>' in html


def test_a_figure_and_a_table_with_one_id_are_named_as_what_they_are():
    source = "![A](a.png){#x}\n\n| x |\n|---|\n| 1 |\n\nTable: T. {#x}\n"
    _, state = render(source, table_plugin)
    assert [str(d) for d in state.diagnostics] == [
        "post.md:6:1: warning: a figure (Figure 1) and a table have the id 'x'; references go "
        "to the first: give each one its own id"
    ]


def test_figures_and_tables_are_numbered_separately_in_state():
    source = (
        "![A](a.png){#fig-a}\n\n| x |\n|---|\n| 1 |\n\nTable: T. {#tbl-t}\n\n![B](b.png){#fig-b}\n"
    )
    _, state = render(source, table_plugin)
    assert state.figures == {"fig-a": 1, "tbl-t": 1, "fig-b": 2}
    assert state.extra["figure_labels"] == {
        "fig-a": "Figure 1",
        "tbl-t": "Table 1",
        "fig-b": "Figure 2",
    }


def widget_like_plugin(md: MarkdownIt) -> None:
    """Stand-in for the widget plugin: a core rule marking a block token as a figure."""

    def mark(state) -> None:
        token = Token("widget", "div", 0, map=[0, 1])
        token.meta = {"figure": {"id": "fig-widget", "kind": "figure"}}
        state.tokens.insert(0, token)

    md.core.ruler.push("mark_widget", mark)
    md.add_render_rule(
        "widget",
        lambda self, tokens, idx, options, env: (
            f"<div>Figure {tokens[idx].meta['figure_number']}</div>\n"
        ),
    )


def test_tokens_marked_by_other_plugins_share_the_figure_numbering():
    html, state = render("![A](a.png){#fig-a}\n\nSee [](#fig-widget).\n", widget_like_plugin)
    assert state.figures == {"fig-widget": 1, "fig-a": 2}
    assert html.startswith("<div>Figure 1</div>")
    assert '<a href="#fig-widget">Figure 1</a>' in html


def render_source(source: str, path: str) -> str:
    """Render `source` as the post at `path` with every plugin (attrs give the classes)."""
    from postil.markdown import create_markdown

    return create_markdown().render(source, {"postil": RenderState(path=path, body_line=4)})


IMPLICIT = "Text.\n\n![The loss falls.](loss.png)\n\n![](bare.png)\n\nAn ![inline](i.png) one.\n"


def test_quarto_image_alone_with_a_caption_is_an_unnumbered_figure():
    html = render_source(IMPLICIT, "posts/p.qmd")
    assert (
        '<figure class="figure">\n<img src="loss.png" alt="The loss falls.">\n'
        "<figcaption>The loss falls.</figcaption>\n</figure>"
    ) in html
    assert '<p><img src="bare.png" alt="" /></p>' in html  # no caption: no figure
    assert '<p>An <img src="i.png" alt="inline" /> one.</p>' in html  # not alone
    assert "figure-label" not in html


def test_markdown_image_alone_stays_an_image_as_commonmark_has_it():
    html = render_source(IMPLICIT, "posts/p.md")
    assert "<figure" not in html
    assert '<p><img src="loss.png" alt="The loss falls." /></p>' in html


def test_implicit_figures_leave_numbered_figures_numbered_from_one():
    source = "![Plain.](a.png)\n\n![Numbered.](b.png){#fig-b}\n\nSee [](#fig-b).\n"
    html = render_source(source, "p.Rmd")
    assert "<figcaption>Plain.</figcaption>" in html
    assert '<span class="figure-label">Figure 1</span> Numbered.' in html
    assert '<a href="#fig-b">Figure 1</a>' in html


def test_column_class_on_a_figure_image_places_the_figure_and_fig_alt_is_its_alt():
    source = '![Beside the text.](m.png){.column-margin .bordered fig-alt="A plot of m."}\n'
    html = render_source(source, "p.qmd")
    assert (
        '<figure class="figure column-margin">\n'
        '<img src="m.png" alt="A plot of m." class="bordered">\n'
        "<figcaption>Beside the text.</figcaption>"
    ) in html
