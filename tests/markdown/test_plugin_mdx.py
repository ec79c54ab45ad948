"""MDX posts: ESM, comments, expressions and components read in `.mdx` sources only."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

FIXTURES = Path(__file__).parents[1] / "fixtures" / "mdx.md"


@pytest.mark.parametrize(
    ("line", "title", "source", "expected"),
    read_fixture_file(FIXTURES),
    ids=[f"{line}:{title}" for line, title, _, _ in read_fixture_file(FIXTURES)],
)
def test_mdx_fixture_renders_expected_html(line, title, source, expected):
    # a title starting `md:` is a case of a `.md` post, where MDX's syntax is text
    path = "content/posts/x.md" if title.startswith("md:") else "content/posts/x.mdx"
    html = create_markdown().render(source, {"postil": RenderState(path=path)})
    assert html == expected


def render(body: str, path: str = "content/posts/p/index.mdx") -> tuple[str, list[str]]:
    state = RenderState(path=path, body_line=5)
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_unknown_component_warns_once_per_name_at_its_first_tag():
    body = "Text.\n\n<Note>\n\nA.\n\n</Note>\n\n  <Note>\n\nB.\n\n  </Note>\n"
    html, warnings = render(body)
    assert "<p>A.</p>" in html and "<p>B.</p>" in html and "Note" not in html
    assert len(warnings) == 1
    assert warnings[0].startswith(
        "content/posts/p/index.mdx:7:1: MDX component `<Note>` is not one postil has: its "
        "content is kept, the tags left out; write it as Markdown or HTML"
    )


def test_self_closing_and_inline_components_warn_at_their_column():
    _, warnings = render("A <Em>b</Em> c <Icon name='x' /> d.\n")
    assert [w.split(" is not")[0] for w in warnings] == [
        "content/posts/p/index.mdx:5:3: MDX component `<Em>`",
        "content/posts/p/index.mdx:5:16: MDX component `<Icon />`",
    ]
    assert "it is left out" in warnings[1]


def test_expression_using_an_export_warns_once_naming_the_export_and_its_line():
    body = "import X from 'x';\nexport const year = 2024;\n\nIn {year}, and {year + 1}.\n"
    html, warnings = render(body)
    assert html == "<p>In , and .</p>\n"
    assert warnings == [
        "content/posts/p/index.mdx:8:4: `{year}` uses `year`, exported at line 6: postil "
        "runs no JavaScript, so it is left out; write its value in the text (or in front "
        "matter)"
    ]


def test_other_expression_warns_and_shows_nothing():
    html, warnings = render("Sum: {1 + 2}.\n")
    assert html == "<p>Sum: .</p>\n"
    assert warnings == [
        "content/posts/p/index.mdx:5:6: MDX expression `{1 + 2}` is left out: postil runs no "
        "JavaScript; write its value as text, or `{'text'}` for a string"
    ]


def test_unclosed_component_warns_and_keeps_its_content():
    html, warnings = render("<Tabs>\n<TabItem value='a'>\n\nA.\n")
    assert "<p>A.</p>" in html
    assert warnings[0].startswith("content/posts/p/index.mdx:5:1: `<Tabs>` is never closed")
    assert "add a line `</Tabs>` where it ends" in warnings[0]


def test_stray_closing_tag_warns():
    _, warnings = render("A.\n\n</Tabs>\n")
    assert warnings == ["content/posts/p/index.mdx:7:1: `</Tabs>` closes no open tag; remove it"]


def test_image_with_an_imported_src_is_left_out_with_a_warning():
    html, warnings = render("<Image src={hero} alt='Hero' />\n")
    assert html == ""
    assert warnings[0].startswith("content/posts/p/index.mdx:5:1: `<Image>` has `src={hero}`")


def test_same_syntax_in_a_md_post_gives_no_mdx_warning():
    """A `.md` post is no MDX: its `import` (not opening the body) and `{year}` are text;
    only the component, which a browser shows nothing for, is told (by the raw HTML plugin)."""
    body = "Intro.\n\nimport X from 'x';\n\n<Note />\n\n{year}\n"
    _, warnings = render(body, "content/posts/p.md")
    (warning,) = warnings
    assert warning.startswith("content/posts/p.md:9:1: `<Note />` names no HTML element")


def test_a_md_post_opening_with_an_import_is_read_as_docusaurus_mdx():
    """Docusaurus reads every `.md` file as MDX: one opening with an ESM import has its
    expressions and components read as in a `.mdx` post."""
    _, warnings = render("import X from 'x';\n\n<Note />\n\n{year}\n", "content/posts/p.md")
    assert [w.split(": ", 1)[0] for w in warnings] == [
        "content/posts/p.md:7:1",
        "content/posts/p.md:9:1",
    ]
    assert "MDX component `<Note />`" in warnings[0] and "`{year}`" in warnings[1]


def test_a_jsx_attribute_left_out_is_told_at_its_place():
    body = "Text.\n\n<div style={{width: w}}>\n\nIn.\n\n</div>\n"
    html, warnings = render(body)
    assert "<div>\n<p>In.</p>\n</div>" in html
    assert warnings == [
        "content/posts/p/index.mdx:7:6: `style={{width: w}}` on `<div>` is left out: postil "
        "runs no JavaScript; write its value as an object of strings and numbers"
    ]


def test_summary_ends_at_the_truncate_comment():
    state = RenderState(path="content/posts/p.mdx")
    body = "One.\n\nTwo.\n\n{/* truncate */}\n\nThree.\n"
    rendered = render_markdown(create_markdown(), body, state)
    assert rendered.summary == "One. Two."


def test_a_callout_component_inside_a_line_says_to_put_it_on_a_line_of_its_own():
    _, warnings = render("Text <Callout>inline</Callout> here.\n")
    assert warnings == [
        "content/posts/p/index.mdx:5:6: MDX component `<Callout>` inside a line of text is not "
        "read as one: its content is kept, the tags left out; put `<Callout>` at the start of a "
        "line of its own (its content may follow it on that line, up to its closing tag)"
    ]
