"""jekyll-scholar's tags (`postil.markdown.scholar`): warnings and the silent bibliography
line; the syntax is in `tests/fixtures/scholar.md`."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def _full(body: str) -> tuple[str, RenderState]:
    """Render `body` with every postil plugin; return the HTML and the state."""
    state = RenderState(path="post.md")
    return render_markdown(create_markdown(), body, state).html, state


def test_a_scholar_cite_without_a_bibliography_warns_and_an_unknown_option_is_named():
    html, state = _full("As {% cite vaswani2017 --weird %} shows.\n")
    assert [(str(d).split(": warning: ")[0], d.message) for d in state.diagnostics] == [
        (
            "post.md:1:4",
            "`{% cite vaswani2017 --weird %}` reads as a citation but the post names no "
            "bibliography; add `bibliography: refs.bib` to its front matter (or postil.yaml) "
            "(jekyll-scholar read `_bibliography/references.bib` unless told otherwise: "
            "`bibliography: _bibliography/references.bib` in postil.yaml names it for every "
            "post)",
        ),
        (
            "post.md:1:4",
            "`{% cite vaswani2017 --weird %}`: option --weird is not read and is ignored",
        ),
    ]
    assert "As [vaswani2017] shows." in html and "{%" not in html


def test_a_scholar_bibliography_tag_on_its_line_is_left_out_silently():
    html, state = _full("Text.\n\n{% bibliography --cited %}\n")
    assert not state.diagnostics and "bibliography" not in html


def test_scholar_cites_without_a_bibliography_are_one_warning_naming_the_file_they_read():
    # an al-folio/Chirpy post citing from `_bibliography/papers.bib` 16 times said it 16 times
    body = (
        "### R-CNN {% cite girshick2014 --file papers %}\n\n"
        "Text {% cite he2015 -f papers %} and {% cite ren2015 --file papers %}.\n\n"
        "Later {% cite lin2017 --file papers %}.\n"
    )
    _, state = _full(body)
    assert [(str(d).split(": warning: ")[0], d.message) for d in state.diagnostics] == [
        (
            "post.md:1:11",
            "`{% cite girshick2014 --file papers %}` and 3 more written so (lines 1, 3, 5) "
            "read as citations but the post names no bibliography; add `bibliography: "
            "refs.bib` to its front matter (or postil.yaml) (jekyll-scholar read "
            "`_bibliography/papers.bib` unless told otherwise: `bibliography: "
            "_bibliography/papers.bib` in postil.yaml names it for every post)",
        )
    ]


def test_two_scholar_cites_on_one_line_name_that_line_once():
    html, state = _full("See {% cite a %} and {% cite b c --file x %}.\n")
    assert "<p>See [a] and [b, c].</p>" in html
    [warning] = state.diagnostics
    assert warning.message.startswith("`{% cite a %}` and 1 more written so (line 1) read as")
    assert "`_bibliography/references.bib`" in warning.message
