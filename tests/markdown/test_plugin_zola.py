"""Zola shortcodes and GitBook blocks through the full parser: what they render and report."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.markdown.zolasyntax import zola_args


def render(body: str) -> tuple[str, RenderState]:
    state = RenderState(path="content/posts/here.md")
    return render_markdown(create_markdown(), body, state).html, state


def messages(state: RenderState) -> list[str]:
    return [f"{d.location}: {d.message}" for d in state.diagnostics]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", {}),
        ('body="\\KaTeX", block=true', {"body": "\\KaTeX", "block": "true"}),
        ("a='x, y', b=`z`, n=-1.5, m=3", {"a": "x, y", "b": "z", "n": "-1.5", "m": "3"}),
        ("tags=[\"a\", 'b', 3]", {"tags": "a, b, 3"}),
        ("a = 1 ,b=false", {"a": "1", "b": "false"}),
        ("a=1,", {"a": "1"}),
        ("a=", None),
        ("a=1 b=2", None),
        ("a=x", None),  # a bare word is no value
        ('a="unclosed', None),
    ],
)
def test_zola_arguments_are_read_as_zola_reads_them(text, expected):
    assert zola_args(text) == expected


def test_the_zola_katex_probe_renders_math_without_a_warning():
    body = (
        'Inline {{ katex(body="\\KaTeX") }} and a block:\n\n'
        "{% katex(block=true) %}\n\\int_0^1 x\\,dx = \\tfrac12\n{% end %}\n"
    )
    html, state = render(body)
    assert state.diagnostics == []
    assert '<math display="inline">' in html and '<math display="block">' in html
    assert "{{" not in html and "{%" not in html


def test_a_theme_shortcode_is_reported_at_its_column_with_the_fix():
    html, state = render('Talk:\n\nBefore {{ chat(speaker="jim") }} after.\n')
    assert html == "<p>Talk:</p>\n<p>Before  after.</p>\n"
    assert messages(state) == [
        'content/posts/here.md:3:8: Zola shortcode `{{ chat(speaker="jim") }}` is the '
        "theme's (templates/shortcodes/chat.html), which postil does not have, and is left "
        "out; write its result as Markdown or HTML"
    ]


def test_a_theme_body_shortcode_keeps_its_body_and_is_reported_at_its_line():
    html, state = render('Hi.\n\n{% chat(speaker="jim") %}\nHello **there**.\n{% end %}\n')
    assert html == "<p>Hi.</p>\n<p>Hello <strong>there</strong>.</p>\n"
    assert messages(state)[0].startswith(
        'content/posts/here.md:3:1: Zola shortcode `{% chat(speaker="jim") %}` is the theme\'s'
    )
    assert "(its body stays, as Markdown)" in messages(state)[0]


def test_unclosed_stray_and_unreadable_shortcodes_say_how_to_fix_them():
    body = "{% end %}\n\n{% note() %}\nOpen.\n\n{{ note(title=) }}\n"
    html, state = render(body)
    assert "Open." in html and "{%" not in html and "{{" not in html
    assert messages(state) == [
        "content/posts/here.md:1:1: `{% end %}` closes no Zola shortcode opened before it; "
        "remove it",
        "content/posts/here.md:3:1: `{% note() %}` is never closed; add `{% end %}` where "
        "its body ends",
        "content/posts/here.md:6:1: Zola shortcode `{{ note(title=) }}`: its arguments cannot "
        "be read, so it is left out; write them as Zola does, `name=value` pairs between "
        'commas (`title="A", open=true`)',
    ]


def test_a_shortcode_read_only_on_its_own_line_says_to_move_it_there():
    _, state = render('See {{ youtube(id="dQw4w9WgXcQ") }} and {% note() %}x{% end %}.\n')
    assert messages(state) == [
        'content/posts/here.md:1:5: Zola shortcode `{{ youtube(id="dQw4w9WgXcQ") }}` is read '
        "only on a line of its own; put it on a line of its own; it is left out",
        "content/posts/here.md:1:41: Zola shortcode `{% note() %}` is read only on a line of "
        "its own; put it and `{% end %}` on lines of their own; it is left out (its body "
        "stays)",
    ]


def test_a_bad_video_id_and_a_linked_embed_are_reported():
    body = '{{ youtube(id="nope") }}\n\n{{ streamable(id="92ok4") }}\n'
    html, state = render(body)
    assert (
        html == '<p><a href="https://streamable.com/92ok4">https://streamable.com/92ok4</a></p>\n'
    )
    assert messages(state) == [
        'content/posts/here.md:1:1: `{{ youtube(id="nope") }}` names no video: write the '
        'video\'s id as `id`, `{{ youtube(id="dQw4w9WgXcQ") }}`; it is left out',
        'content/posts/here.md:3:1: `{{ streamable(id="92ok4") }}` is shown as a link: postil '
        "embeds YouTube and Vimeo only",
    ]


def test_a_math_error_in_a_zola_formula_points_at_its_brace_in_the_post():
    body = 'Text {{ katex(body="\\frac{1") }} here.\n\n'
    body += "{% katex(block=true) %}\na \\frac{1\n{% end %}\n"
    _, state = render(body)
    assert messages(state) == [
        "content/posts/here.md:1:26: cannot parse the formula: { is never closed",
        "content/posts/here.md:4:8: cannot parse the formula: { is never closed",
    ]


def test_liquid_and_hugo_tags_are_not_read_as_zola():
    html, state = render("{{ page.title }} {% if (a) %}x{% endif %} {{< youtube x >}}\n")
    assert "Zola" not in " ".join(messages(state))
    assert messages(state)[0].endswith(
        "Liquid `{{ page.title }}`: variable `page.title` is not supported and the output is "
        "left out; write the value itself (to show the braces as text, write `\\{{`)"
    )


def test_gitbook_blocks_unclosed_and_with_unknown_code_options_are_reported():
    body = (
        '{% code title="a.py" wrap="yes" %}\n```python\nx = 1\n```\n{% endcode %}\n\n'
        '{% hint style="info" %}\nOpen.\n'
    )
    html, state = render(body)
    assert '<figcaption class="code-title">a.py</figcaption>' in html
    assert messages(state) == [
        'content/posts/here.md:1:1: `{% code title="a.py" wrap="yes" %}`: option wrap is not '
        "supported and is ignored; GitBook's code blocks take title and lineNumbers here",
        'content/posts/here.md:7:1: `{% hint style="info" %}` is never closed; add `{% endhint %}`',
    ]


def test_plain_style_names_are_a_note_without_a_warning_and_unknown_ones_still_warn():
    html, state = render(
        '{{ note(type="default", body="A.") }}\n\n{{ note(type="purple", body="B.") }}\n'
    )
    assert html.count('class="callout callout-note"') == 2
    assert [m.split(",")[0] for m in messages(state)] == [
        "content/posts/here.md:3:1: unknown callout kind `purple`"
    ]


def test_a_call_over_lines_is_read_without_a_warning_at_its_first_line():
    html, state = render('Intro.\n\n{{ note(header="N",\n\n  body="First.\n\nThen.") }}\n')
    assert messages(state) == []
    assert "<p>First.</p>\n<p>Then.</p>" in html
