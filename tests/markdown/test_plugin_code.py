"""Code plugin: info-string parsing, warnings, caching and the Pygments stylesheet."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from postil.markdown import code, create_markdown, render_markdown
from postil.markdown.code import FenceInfo, code_plugin, parse_info, pygments_css
from postil.markdown.state import RenderState


def render(source: str, cache: dict | None = None) -> tuple[str, RenderState]:
    md = MarkdownIt("commonmark")
    code_plugin(md)
    state = RenderState(path="post.md", body_line=3)
    if cache is not None:
        state.highlight_cache = cache
    return md.render(source, {"postil": state}), state


def test_info_string_with_title_lines_and_numbers_is_parsed():
    info = parse_info('python title="attention.py" hl_lines="3-5 8" linenos')
    assert info == FenceInfo("python", "attention.py", (3, 4, 5, 8), True)


@pytest.mark.parametrize(
    ("info", "problem"),
    [
        ('python title="attention.py', 'unbalanced quote in title="attention.py; close the quote'),
        ("python title='x", "unbalanced quote in title='x; close the quote"),
        (
            "python color=red",
            "unknown code option 'color'; known: hl_lines, linenos, linenostart, title",
        ),
        (
            'python hl_lines="5-2"',
            "hl_lines='5-2' is not a line list; write e.g. hl_lines=\"3-5 8\"",
        ),
    ],
)
def test_odd_info_strings_are_reported_not_raised(info, problem):
    assert parse_info(info).problems == (problem,)


def test_unknown_language_warns_with_its_name_and_line():
    html, state = render('Intro\n\n```pythn title="a.py"\nx < 1\n```\n')
    assert [str(d) for d in state.diagnostics] == [
        "post.md:5:1: warning: unknown code language 'pythn' (did you mean `python`?), shown as "
        "plain text; use a Pygments short name such as python, bash or text "
        "(https://pygments.org/languages/)"
    ]
    assert "x &lt; 1" in html and 'class="language-text"' in html


def test_empty_language_is_plain_text_without_a_warning():
    html, state = render("```\n<b>\n```\n")
    assert state.diagnostics == []
    assert "&lt;b&gt;" in html


@pytest.mark.parametrize("name", ["txt", "plaintext", "nohighlight", "default"])
def test_other_generators_names_for_no_language_are_plain_text_without_a_warning(name):
    html, state = render(f"```{name}\n<b>\n```\n")
    assert state.diagnostics == []
    assert 'class="language-text"' in html and "&lt;b&gt;" in html


@pytest.mark.parametrize(
    ("name", "code", "lexed"),
    [
        ("jsonc", '{ // editor settings\n  "tabSize": 2 }', "json"),
        ("ipython3", "import numpy as np", "python"),
        ("shellsession", "$ ls\npost.md", "console"),
    ],
)
def test_other_highlighters_names_for_a_pygments_language_are_highlighted(name, code, lexed):
    # Shiki's and GitHub's `jsonc`, IPython's lexer names (jupyter/nbconvert#2315 shows
    # `jsonc` left as an unknown language)
    html, state = render(f"```{name}\n{code}\n```\n")
    assert state.diagnostics == []
    assert f'class="language-{lexed}"' in html and '<span class="' in html


def test_a_name_near_a_no_language_name_still_warns():
    _, state = render("```txtx\nx\n```\n")
    assert [d.message for d in state.diagnostics] == [
        "unknown code language 'txtx' (did you mean `text`?), shown as plain text; use a "
        "Pygments short name such as python, bash or text (https://pygments.org/languages/)"
    ]


def test_unbalanced_quote_warns_at_the_fence_line():
    _, state = render('```python title="oops\nx\n```\n')
    assert [str(d) for d in state.diagnostics] == [
        'post.md:3:1: warning: unbalanced quote in title="oops; close the quote'
    ]


def test_highlighting_uses_classes_not_inline_styles():
    html, _ = render("```python\nimport math\n```\n")
    assert '<span class="kn">import</span>' in html
    assert "style=" not in html


def test_highlighting_is_cached_by_code_lexer_and_options():
    cache: dict = {}
    render("```python\nx = 1\n```\n\n```python\nx = 1\n```\n", cache)
    assert list(cache) == [("x = 1\n", "python", (), False, 1)]
    render('```python hl_lines="1"\nx = 1\n```\n', cache)
    assert len(cache) == 2


def _luminance(hex_colour: str) -> float:
    """Relative luminance of #rgb / #rrggbb (WCAG 2.1 definition)."""
    value = hex_colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scope", ["", ':root[data-theme="dark"] '])
def test_every_token_colour_meets_wcag_aa_on_plain_and_highlighted_lines(scope):
    css = pygments_css()
    rules = re.findall(r"^\s*(\S.*?) \{ (.*?) \}", css, flags=re.M)
    ours = [(sel, body) for sel, body in rules if sel.startswith(scope + ".highlight")]
    if not scope:
        ours = [(sel, body) for sel, body in ours if not sel.startswith(":root")]
    # The last rule for a selector wins the cascade (postil overrides github-dark's .hll).
    background = [
        re.search(r"background: (#\w+)", b)[1] for s, b in ours if s.endswith("highlight")
    ][-1]
    highlighted = [
        re.search(r"background-color: (#\w+)", b)[1] for s, b in ours if s.endswith(".hll")
    ][-1]
    # Whitespace tokens (.w) draw no glyphs, so their colour is never read.
    visible = [(sel, body) for sel, body in ours if not sel.endswith(" .w")]
    colours = {m for _, body in visible for m in re.findall(r"(?<!-)color: (#\w+)", body)}
    assert colours
    worst = min(_contrast(c, bg) for c in colours for bg in (background, highlighted))
    assert worst >= 4.5


def test_pygments_css_has_a_media_block_and_a_manual_dark_scope():
    css = pygments_css()
    # the dark rules are the screen's: printed code keeps the light style on paper
    assert "@media screen and (prefers-color-scheme: dark) {" in css
    assert css.count("@media screen {") == 1
    assert ':root:not([data-theme="light"]) .highlight .k {' in css
    assert ':root[data-theme="dark"] .highlight .k {' in css
    assert "\npre {" not in css and "span.linenos" not in css  # no unscoped rules leak out


def test_cached_highlighting_needs_no_lexer_and_keeps_the_language_class(monkeypatch):
    cache: dict = {}
    first, _ = render("```py\nx = 1\n```\n", cache)
    assert '<code class="language-python">' in first  # the lexer's name, not the fence's

    def no_lookup(language):
        raise AssertionError(f"looked up a lexer for {language!r}")

    monkeypatch.setattr(code, "lexer_for", no_lookup)
    again, _ = render("```py\nx = 1\n```\n", cache)
    assert again == first
    with pytest.raises(AssertionError, match="looked up"):
        render("```py\nx = 2\n```\n", cache)


def test_an_unknown_language_is_one_warning_a_post_naming_each_blocks_line():
    # a blog's own sample languages (NexT's `input1`/`output1`): one warning each, not one a block
    langs = ["in1", "out1", "in1"] * 3  # block n starts on body line 4n, file line 3 + 4n
    html, state = render("".join(f"```{lang}\n{n}\n```\n\n" for n, lang in enumerate(langs)))
    assert html.count('<figure class="code">') == 9
    assert [(d.location.line, d.message.split(";")[0]) for d in state.diagnostics] == [
        (
            3,
            "unknown code language 'in1', shown as plain text in 6 code blocks "
            "(lines 3, 11, 15, 23, 27, …)",
        ),
        (
            7,
            "unknown code language 'out1' (did you mean `rout`?), shown as plain text in 3 code "
            "blocks (lines 7, 19, 31)",
        ),
    ]
    # negative: one block of a language is warned as before, without a count
    _, state = render("```in1\nx\n```\n")
    assert [d.message.split(";")[0] for d in state.diagnostics] == [
        "unknown code language 'in1', shown as plain text"
    ]


def test_an_unclosed_fence_in_a_list_item_or_quote_is_said_to_run_to_its_end_only():
    # CommonMark closes the fence with its container: the paragraph after is no code
    for body in ("- item\n\n  ```sh\n  ls\n\nAfter.\n", "> ```sh\n> ls\n\nAfter.\n"):
        state = RenderState(path="content/posts/a.md")
        html = render_markdown(create_markdown(), body, state).html
        (diag,) = state.diagnostics
        assert "after it in the list item, quote or table cell it is in shows" in diag.message
        assert "<p>After.</p>" in html
    # negative: at the top level it does run to the end of the post
    state = RenderState(path="content/posts/a.md")
    html = render_markdown(create_markdown(), "```sh\nls\n\nAfter.\n", state).html
    (diag,) = state.diagnostics
    assert "so everything after it shows as code" in diag.message and "<p>" not in html


def test_markdown_dialect_fences_are_highlighted_as_markdown_without_a_warning():
    # an R Markdown tutorial shows its sources in ```rmd fences; Pygments has no such lexer
    html, state = render("```rmd\n# Title\n\n*em*\n```\n\n```QMD\n## Two\n```\n")
    assert not state.diagnostics
    assert html.count('<code class="language-markdown">') == 2
    assert '<span class="gh"># Title</span>' in html


def test_an_unknown_language_still_warns_beside_the_dialects():
    _, state = render("```rmdx\nx\n```\n")
    assert [d.message.split(",")[0] for d in state.diagnostics] == ["unknown code language 'rmdx'"]


@pytest.mark.parametrize(
    ("info", "expected"),
    [
        ("rust,linenos", FenceInfo("rust", linenos=True)),
        ("rust,hl_lines=2,linenos", FenceInfo("rust", hl_lines=(2,), linenos=True)),
        ("rust,hl_lines=1 3-5 9", FenceInfo("rust", hl_lines=(1, 3, 4, 5, 9))),
        ("rust,linenos,linenostart=20", FenceInfo("rust", linenos=True, linenostart=20)),
        ("rust, name=mod.rs", FenceInfo("rust", title="mod.rs")),
        ("rust,ignore", FenceInfo("rust")),
        ("rust,no_run,edition2021", FenceInfo("rust")),
    ],
)
def test_zola_and_rustdoc_comma_annotations(info, expected):
    assert parse_info(info) == expected


def test_zola_hide_lines_and_unknown_words_are_problems():
    assert parse_info("rust,hide_lines=1-2").problems == (
        "Zola's hide_lines=1-2 is not read: postil shows every line of the block; delete "
        "the lines from the block or the option",
    )
    assert parse_info("rust,shiny").problems == (
        "unknown code option 'shiny'; known: hl_lines, linenos, linenostart, title",
    )


def test_zola_annotations_highlight_rust_without_a_language_warning():
    html, state = render("```rust,hl_lines=2,linenos\nfn main() {\n    x();\n}\n```\n")
    assert state.diagnostics == []
    assert '<span class="k">fn</span>' in html
    assert 'class="hll"' in html


def test_a_comma_inside_braces_or_a_title_is_not_an_annotation():
    assert parse_info("js {1,3}").hl_lines == (1, 3)
    assert parse_info('python title="a,b.py"').title == "a,b.py"


def test_eleventy_line_groups_keep_their_commas():
    assert parse_info("js/1,3-4") == FenceInfo("js", hl_lines=(1, 3, 4))


def test_a_lexers_error_tokens_show_as_plain_code_not_boxed_in_red():
    # pygments/pygments#897: the `sql` lexer marks PostgreSQL's `$1` and `$$` as Error
    md = MarkdownIt("commonmark")
    code_plugin(md)
    html = md.render("```sql\nSELECT 1 WHERE x = $1;\n```\n", {"postil": RenderState(path="p.md")})
    assert '<span class="err">$</span>' in html
    css = pygments_css()
    assert not re.search(r"\.highlight \.err \{[^}]*(border|#F00|#F85149)", css)
    dark = re.search(r':root\[data-theme="dark"\] \.highlight \.err \{ color: (#\w+) \}', css)
    plain = re.search(r':root\[data-theme="dark"\] \.highlight \{ .*color: (#\w+) \}', css)
    assert dark is not None and plain is not None
    assert dark[1] == plain[1]  # the dark page's code colour, not github-dark's red
