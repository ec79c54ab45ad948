"""Quarto cross-references: what the fixture file cannot show (errors, the full parser)."""

from __future__ import annotations

from support.markdown import render_post as render

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def test_an_unknown_label_is_a_warning_at_the_reference_and_shows_as_quarto_shows_it():
    html, found = render("Intro.\n\nSee the result, @eq-nope.\n")
    assert '<strong class="xref-missing">?@eq-nope</strong>' in html and "href" not in html
    assert found == [
        "post.md:3:17: warning: cross-reference `@eq-nope`: no equation of this post has the "
        "label `eq-nope`; fix the label or add `{#eq-nope}` to the equation"
    ]


def test_a_reference_to_an_image_in_a_line_of_text_says_why_it_is_no_figure():
    # quarto-dev/quarto-cli#5571: the label is there, on an image Quarto does not number
    text = "![Forms](forms.png){#fig-forms width=9cm}\nForms, as @fig-forms shows.\n"
    _, found = render(text)
    assert found == [
        "post.md:2:11: warning: cross-reference `@fig-forms`: the image with `{#fig-forms}` "
        "on line 1 is not alone in its paragraph (text beside it or a link around it), so it "
        "is no figure; give the image a paragraph of its own"
    ]
    # negative: alone in its paragraph it is Figure 1; a label on no image keeps the message
    _, found = render("![Forms](forms.png){#fig-forms}\n\nAs @fig-forms and @fig-form.\n")
    assert found == [
        "post.md:3:19: warning: cross-reference `@fig-form`: no figure of this post has the label "
        "`fig-form`; fix the label or add `{#fig-form}` to the figure"
    ]


def test_references_number_equations_and_figures_in_the_full_parser_without_citations():
    text = (
        "By @eq-a, @eq-b and @fig-x.\n\n$$\na\n$$ {#eq-a}\n\n$$\nb \\tag{*}\n$$ {#eq-b}\n\n"
        "![X](x.png){#fig-x}\n\nAlso \\eqref{eq-a}.\n"
    )
    html, found = render(text)
    assert found == []
    assert 'href="#eq-a">Equation 1</a>' in html and 'href="#eq-b">Equation *</a>' in html
    assert 'href="#fig-x">Figure 1</a>' in html and 'href="#eq-a">(1)</a>' in html


def test_a_reference_to_what_a_code_chunk_makes_warns_and_shows_quartos_question_mark():
    text = (
        "As @tbl-fit shows, and @fig-plot.\n\n"
        "```{r}\n#| label: tbl-fit\nsummary(m)\n```\n\n"
        "```{r fig-plot, echo=FALSE}\nplot(m)\n```\n"
    )
    html, messages = render(text)
    assert '<strong class="xref-missing">?@tbl-fit</strong>' in html
    assert '<strong class="xref-missing">?@fig-plot</strong>' in html
    assert messages[1] == (
        "post.md:1:4: warning: cross-reference `@tbl-fit` names the output of a code chunk, "
        "which postil does not run, so it shows as `?@tbl-fit`; paste the table after the "
        "chunk with `{#tbl-fit}`"
    )
    assert "executable code chunk(s)" in messages[0] and len(messages) == 3


def test_a_bracketed_citation_of_an_id_on_the_page_links_to_it_in_the_full_parser():
    text = "::: {.lemma #key}\nA lemma.\n:::\n\n## Setup {#setup}\n\nBy [@key], see [@setup].\n"
    html, found = render(text)
    assert found == []
    assert '<a class="xref" href="#key">Lemma 1</a>' in html
    assert '<a class="xref" href="#setup">Setup</a>' in html


def test_a_bracketed_citation_of_no_id_still_warns_as_a_citation_at_its_place():
    html, found = render("Intro.\n\nAs shown [@nowhere].\n")
    assert "[@nowhere]" in html and "<a" not in html
    assert found == [
        "post.md:3:10: warning: [@nowhere] reads as a citation but the post names no "
        "bibliography; add `bibliography: refs.bib` to its front matter (or postil.yaml), "
        "or give an element of the post the id `nowhere` to refer to it"
    ]


def test_bracketed_citations_without_a_bibliography_are_one_warning_naming_their_lines():
    # a Quarto post whose .bib was not copied: one warning, not one a citation
    html, found = render("As shown [@a].\n\nAnd [@b] and [@c].\n")
    assert "[@a]" in html and "[@c]" in html
    assert found == [
        "post.md:1:10: warning: [@a] and 2 more written so (lines 1, 3) read as citations but "
        "the post names no bibliography; add `bibliography: refs.bib` to its front matter (or "
        "postil.yaml), or give elements of the post those ids to refer to them"
    ]


def test_with_a_bibliography_a_key_it_has_is_cited_and_one_it_lacks_warns_unless_an_id():
    from pathlib import Path

    from postil.bibliography.read import read_bib

    bib = Path(__file__).parents[1] / "fixtures" / "cite.bib"
    works = read_bib(bib.read_bytes(), "cite.bib").works
    key = next(iter(works))
    text = f"::: {{.claim #c}}\nC.\n:::\n\nBy [@c], [@{key}] and [@zzz].\n"
    state = RenderState(path="post.md", bibliography=works)
    state.source_lines = text.split("\n")
    html = render_markdown(create_markdown(), text, state).html
    assert '<a class="xref" href="#c">Claim 1</a>' in html
    assert f'href="#ref-{key}"' in html
    assert '(<span class="citation-missing">@zzz</span>)' in html
    (diag,) = state.diagnostics
    assert str(diag).startswith("post.md:5:30: warning: citation key `zzz` is not in the")


def test_bracketed_quarto_references_are_no_citation_and_warn_nothing():
    html, problems = render(
        "::: {#thm-main}\nT.\n:::\n\n::: {#lem-a}\nL.\n:::\n\n"
        "See [@thm-main; @lem-a], [see @thm-main, p. 3] and [@smith; @thm-main].\n"
    )
    assert html.count('class="xref"') == 4
    assert len(problems) == 1 and "[@smith; @thm-main] reads as a citation" in problems[0]
