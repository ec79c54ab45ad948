"""Quarto and R Markdown chunks: shown as code, options stripped, one warning per post."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

CHUNKS = """Intro.

```{r, out.width="50%", fig.cap="A"}
#| echo: false
plot(x)
```

```{python}
#| label: fig-a
#| fig-cap: "B"
print(1)
```

```{r}
#| out.width: 50%
summary(x)
```
"""


def render(body: str) -> tuple[str, RenderState]:
    state = RenderState(path="content/posts/q.md", body_line=4)
    return render_markdown(create_markdown(), body, state).html, state


def test_chunks_give_one_warning_per_post_at_the_first_chunk_and_never_an_error():
    _, state = render(CHUNKS)
    assert [(str(d.location), d.severity.value) for d in state.diagnostics] == [
        ("content/posts/q.md:6:1", "warning")
    ]
    message = state.diagnostics[0].message
    assert message.startswith("3 executable code chunk(s) ({python}, {r}) are shown as code")
    assert "postil does not execute code" in message


def test_chunk_code_is_highlighted_in_its_language_without_options():
    html, _ = render(CHUNKS)
    assert html.count('<figure class="code">') == 3
    assert "#|" not in html and "out.width" not in html and "fig-cap" not in html
    assert '<code class="language-python">' in html
    assert '<span class="nf">plot</span>' in html


def test_a_widget_fence_is_still_a_widget_and_an_unknown_name_still_an_error():
    _, state = render("```{nosuchwidget}\na: 1\n```\n")
    (error,) = state.diagnostics
    assert error.severity.value == "error" and "unknown widget" in error.message


def test_a_post_without_chunks_gets_no_warning():
    _, state = render("```python\n#| kept\nx = 1\n```\n")
    assert state.diagnostics == []


def test_inline_chunks_of_a_quarto_post_warn_once_at_the_first_and_stay_code():
    body = "The mean is `r mean(x)`.\n\nAnd `{python} len(y)` items, `r` alone, `r-base`.\n"
    state = RenderState(path="content/posts/q.qmd", body_line=4)
    html = render_markdown(create_markdown(), body, state).html
    assert [(str(d.location), d.message) for d in state.diagnostics] == [
        (
            "content/posts/q.qmd:4:14",
            "2 inline code chunk(s) (`r mean(x)`) are shown as code, not run: postil does not "
            "execute code; write the value in their place",
        )
    ]
    assert "<code>r mean(x)</code>" in html


def test_an_r_code_span_in_a_markdown_post_is_code_without_a_word():
    _, state = render("Call `r mean(x)` in R.\n")
    assert state.diagnostics == []


def test_in_a_quarto_source_a_chunk_of_an_engine_knitr_lacks_is_code_not_a_widget():
    body = "```{latex}\n\\newcommand{\\ut}{u}\n```\n\n```{nosuchengine}\nx\n```\n"
    state = RenderState(path="content/posts/q.qmd", body_line=4)
    html = render_markdown(create_markdown(), body, state).html
    assert '<code class="language-tex">' in html and '<code class="language-text">' in html
    assert [d.message.split(" are shown")[0] for d in state.diagnostics] == [
        "2 executable code chunk(s) ({latex}, {nosuchengine})"
    ]
    _, markdown = render("```{nosuchengine}\nx\n```\n")  # in a Markdown post: a widget
    assert [d.message.split(";")[0] for d in markdown.diagnostics] == [
        "unknown widget `{nosuchengine}`"
    ]


HEADER_WITH_BACKTICKS = (
    '```{r out.width="50%", fig.cap="the `x` axis."}\n'
    "plot(x)\n"
    "```\n\n"
    "~~~~markdown\n```{r}\nx\n```\n~~~~\n\n"
    "Text after.\n"
)


def test_a_chunk_header_holding_backticks_opens_a_chunk_in_an_r_markdown_source():
    # knitr finds chunks by its own pattern: a backtick in `fig.cap` does not stop it
    state = RenderState(path="content/posts/post.Rmd")
    html = render_markdown(create_markdown(), HEADER_WITH_BACKTICKS, state).html
    assert html.count('<figure class="code">') == 2
    assert html.rstrip().endswith("<p>Text after.</p>")
    assert '<code class="language-splus"><span class="nf">plot</span>' in html
    assert [d.message.split(" (")[0] for d in state.diagnostics] == ["1 executable code chunk(s)"]


def test_a_fence_info_with_backticks_stays_commonmark_text_in_a_markdown_post():
    state = RenderState(path="content/posts/post.md")
    html = render_markdown(create_markdown(), HEADER_WITH_BACKTICKS, state).html
    assert "<p>```{r" in html and "Text after." not in html.split("</figure>")[-1]


def test_empty_braces_are_plain_code_in_every_source_kind():
    """```` ```{} ```` is Pandoc's empty attributes (knitr runs no chunk without an engine):
    a code block without a language, no widget error and no chunk warning."""
    for path in ("content/posts/q.Rmd", "content/posts/q.qmd", "content/posts/q.md"):
        state = RenderState(path=path, body_line=4)
        html = render_markdown(create_markdown(), "```{}\nres <- PUT(url)\n```\n", state).html
        assert "res &lt;- PUT(url)" in html
        assert "widget" not in html
        assert state.diagnostics == [], path
