"""File inclusions (`--8<--`, Quarto's include): the warnings the fixture file cannot show."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

LEFT_OUT = (
    "is left out: postil does not read other files into a post; paste the file's content here"
)


def render(text: str) -> tuple[str, list[str]]:
    """Render `text` as the body of `post.md`; return its HTML and diagnostics as text."""
    state = RenderState(path="post.md")
    state.source_lines = text.split("\n")
    html = render_markdown(create_markdown(), text, state).html
    return html, [str(d) for d in state.diagnostics]


def test_snippets_in_text_and_in_an_indented_code_block_warn_at_their_line_and_column():
    text = (
        'Intro\n--8<-- "docs/a.md"\n\n- item\n\n    ```cpp\n    --8<-- "code/a.cpp:core"\n    ```\n'
    )
    html, found = render(text)
    assert "--8&lt;--" not in html and "<figure" not in html
    assert found == [
        f"post.md:2:1: warning: the file inclusion of `docs/a.md` {LEFT_OUT}",
        f"post.md:7:5: warning: the file inclusion of `code/a.cpp:core` {LEFT_OUT}",
    ]


def test_a_quarto_include_in_a_chunk_leaves_the_rest_of_the_code_and_one_chunk_warning():
    html, found = render("```{python}\n#| echo: false\n{{< include code/a.py >}}\nprint(1)\n```\n")
    assert "include" not in html and "print" in html and "echo" not in html
    assert found[0] == f"post.md:3:1: warning: the file inclusion of `code/a.py` {LEFT_OUT}"
    assert len(found) == 2 and "executable code chunk" in found[1]


def test_text_mentioning_the_markers_is_not_an_inclusion():
    html, found = render(
        'Write `--8<-- "x"` to include; a {{< include >}} needs a path.\n\n--8<-- is scissors\n'
    )
    assert "--8&lt;-- &quot;x&quot;" in html and "--8&lt;-- is scissors" in html
    assert not any("inclusion" in f for f in found)


def test_a_chunk_holding_only_options_and_an_include_is_removed_and_not_counted_as_a_chunk():
    html, found = render("```{python}\n#| code-fold: true\n{{< include code/a.py >}}\n```\n")
    assert "<figure" not in html
    assert found == [f"post.md:3:1: warning: the file inclusion of `code/a.py` {LEFT_OUT}"]


def test_mdbook_inclusions_warn_at_their_line_in_text_and_in_a_code_block():
    text = (
        "{{#include ../src/intro.md}}\n\n"
        "```rust\n  {{#rustdoc_include main.rs:2:10}}\nfn x() {}\n```\n"
    )
    html, found = render(text)
    assert "#include" not in html and "rustdoc" not in html and "fn" in html
    assert found == [
        f"post.md:1:1: warning: the file inclusion of `../src/intro.md` {LEFT_OUT}",
        f"post.md:4:3: warning: the file inclusion of `main.rs:2:10` {LEFT_OUT}",
    ]


def test_an_mdbook_inclusion_inside_a_line_is_named_so_not_a_liquid_variable():
    html, found = render("See {{#include ../src/x.rs:anchor}} here.\n")
    assert "#include" not in html and "See" in html
    assert found == [f"post.md:1:5: warning: the file inclusion of `../src/x.rs:anchor` {LEFT_OUT}"]
