"""Material for MkDocs' icon shortcodes (`:material-…:`): left out, with one warning a post."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render(body: str) -> tuple[str, list[str]]:
    state = RenderState(path="content/docs/p.md")
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_material_icons_are_left_out_with_one_warning_naming_them():
    """A MkDocs course site opens each section with `> :material-clock-edit-outline: date`
    (500 icons in 36 pages); postil showed the shortcode as text, without a word."""
    html, warnings = render(
        "> :material-clock-edit-outline: 2021-03-15\n\n"
        "Star :fontawesome-solid-star: and :octicons-mark-github-16: :rocket:\n\n"
        "## Plan :material-eye-arrow-right:\n\n"
        "Code `:material-github:` and 10:30:00 stay.\n"
    )
    assert "<blockquote>\n<p> 2021-03-15</p>" in html and "<p>Star  and  🚀</p>" in html
    assert ">Plan <a" in html  # the heading's id keeps the words, as emoji names do
    assert "<p>Code <code>:material-github:</code> and 10:30:00 stay.</p>" in html
    assert warnings == [
        "content/docs/p.md:1:3: Material for MkDocs' 4 icons (`:material-clock-edit-outline:`, "
        "`:fontawesome-solid-star:`, `:octicons-mark-github-16:`, …) are left out: its icons "
        "are SVG files of its theme, which postil does not have; write a character (🕓, ★) "
        "or an image instead"
    ]


def test_a_word_between_colons_that_is_no_icon_stays():
    html, warnings = render("Ratio :material: and :simple: and :materialize-x: stay.\n")
    assert ":material: and :simple: and :materialize-x:" in html and warnings == []
