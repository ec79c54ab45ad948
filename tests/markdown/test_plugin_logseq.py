"""Logseq's pages (`postil.markdown.logseq`): warnings at block references, hidden
properties left out of a built page."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/posts/p.md")
    rendered = render_markdown(create_markdown(), body, state)
    return rendered.html_utf8.decode(), [d.report() for d in rendered.diagnostics]


def test_a_reference_to_a_block_of_another_page_is_a_warning_at_it():
    html, warnings = render("- intro\n\t- See ((11111111-ed4c-4f7c-9c37-2cd9b8a8ddf2)) here\n")
    assert "((11111111-ed4c-4f7c-9c37-2cd9b8a8ddf2))" in html
    (warning,) = warnings
    assert warning.startswith(
        "content/posts/p.md:2:8: warning: Logseq block reference "
        "`((11111111-ed4c-4f7c-9c37-2cd9b8a8ddf2))` names a block that is not on this page"
    )
    assert "copy the block's text in, or link to its page" in warning


def test_a_reference_to_a_block_of_the_page_is_a_quiet_link():
    html, warnings = render(
        "- The lemma $a$\n  id:: 65910b38-ed4c-4f7c-9c37-2cd9b8a8ddf2\n"
        "  collapsed:: true\n- by ((65910b38-ed4c-4f7c-9c37-2cd9b8a8ddf2))\n"
    )
    assert warnings == []
    assert '<li id="65910b38-ed4c-4f7c-9c37-2cd9b8a8ddf2">' in html
    assert 'href="#65910b38-ed4c-4f7c-9c37-2cd9b8a8ddf2" class="block-ref">The lemma <math' in html
    assert "collapsed" not in html and "id::" not in html


def test_an_admonition_never_closed_and_an_unread_org_block_are_warnings_at_them():
    html, warnings = render(
        "- #+BEGIN_TIP\n  never closed\n- next\n\n#+BEGIN_SRC python\nx = 1\n#+END_SRC\n"
    )
    assert "#+BEGIN_TIP" in html and "#+BEGIN_SRC python" in html
    assert [w.split("\n")[0] for w in warnings] == [
        "content/posts/p.md:1:3: warning: `#+BEGIN_TIP` is never closed in its block, so it "
        "is shown as text; add `#+END_TIP` on a line of its own after its content",
        "content/posts/p.md:5:1: warning: `#+BEGIN_SRC python` opens a Logseq (Org-mode) "
        "block that postil does not read, so it is shown as text; write a fenced code "
        "block, a quote or plain text instead",
    ]


def test_logseq_caret_highlight_beside_pandoc_superscripts():
    """`^^x^^` (Logseq's highlight) was `^<sup>x</sup>^`; Pandoc's `x^2^` stays a
    superscript in the same paragraph."""
    html, warnings = render("a ^^shared^^ network, 19^th^ and x^2^.\n")
    assert (
        html == ("<p>a <mark>shared</mark> network, 19<sup>th</sup> and x<sup>2</sup>.</p>\n")
        and warnings == []
    )
