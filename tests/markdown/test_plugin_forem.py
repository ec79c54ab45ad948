"""dev.to's posts (`postil.markdown.forem`) and Notion's exports (`postil.markdown.notion`): what
the fixture files cannot show, the places of warnings and math errors, and which posts are
read as dev.to's."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/p.md", body_line=5)
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_a_post_with_an_inline_katex_tag_reads_every_bare_katex_tag_as_display():
    html, warnings = render(
        "A {% katex inline %}x{% endkatex %}.\n\n{% katex %}\na \\\\\\\\ b\n{% endkatex %}\n"
    )
    assert warnings == []
    assert html.count('display="block"') == 1 and html.count('display="inline"') == 1
    assert "<mtr>" in html and html.count("<mtr>") == 2  # `\\\\` is one row break


def test_a_post_without_an_inline_katex_tag_keeps_jekyll_katex_reading():
    html, warnings = render("{% katex %}\na \\\\ b\n{% endkatex %}\n")
    assert warnings == []
    assert 'display="block"' not in html and 'display="inline"' in html


def test_a_math_error_in_a_dev_to_katex_block_is_reported_at_its_line():
    _, warnings = render(
        "{% katex inline %}x{% endkatex %}\n\n{% katex %}\n\\frac{a}{b\n{% endkatex %}\n"
    )
    assert len(warnings) == 1 and warnings[0].startswith("content/posts/p.md:8:")


def test_an_unclosed_details_tag_warns_at_its_line_naming_the_end_tag():
    html, warnings = render("Text.\n\n{% details Why %}\nBecause.\n")
    assert warnings == [
        "content/posts/p.md:7:1: `{% details Why %}` is never closed; add `{% enddetails %}`"
    ]
    assert "<p>Because.</p>" in html


def test_a_jekyll_link_tag_is_not_read_as_a_dev_to_card():
    _, warnings = render("{% link _posts/2020-01-01-missing.md %}\n")
    assert len(warnings) == 1 and "missing" in warnings[0]


def test_each_formula_notion_lost_is_reported_at_its_place():
    _, warnings = render("Text.\n\n$$\n\u204d\n$$\n\nSo $x$ and $\u204d$.\n")
    assert [w.split(": ")[0] for w in warnings] == [
        "content/posts/p.md:7:1",  # the `$$` line
        "content/posts/p.md:11:12",  # the second `$` of the line
    ]
    assert "copy it from the Notion page" in warnings[0]


def test_a_svelte_expression_is_named_so_in_its_warning_and_a_script_leaves_nothing():
    html, warnings = render(
        "<script>\n\timport A from '$lib/A.svelte';\n</script>\n\nSo {n} and <A />.\n"
    )
    assert "<script" not in html and "import" not in html
    assert warnings == [
        "content/posts/p.md:9:4: Svelte expression `{n}` is left out: postil runs no "
        "JavaScript; write its value as text, or `{'text'}` for a string",
        "content/posts/p.md:9:12: Svelte component `<A />` is not one postil has: it is "
        "left out; write it as Markdown or HTML (postil reads "
        + warnings[1].split("(postil reads ")[1],
    ]
