"""Links written with other generators' heading ids: the slug rules and the plugin's run."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState
from postil.slugs import (
    foreign_ids,
    github_slug,
    kramdown_slug,
    markdown_it_anchor_slug,
    mdbook_slug,
    pandoc_slug,
    pymdownx_lower_slug,
    pymdownx_slug,
    python_markdown_slug,
    vuepress_slug,
)


@pytest.mark.parametrize(
    ("rule", "text", "slug"),
    [
        (github_slug, "1.1. Edge detection", "11-edge-detection"),
        (github_slug, "A & B", "a--b"),  # github-slugger keeps both spaces
        (github_slug, "Über σ", "über-σ"),
        (github_slug, "‘root’@’localhost’", "rootlocalhost"),
        (github_slug, "snake_case-name", "snake_case-name"),
        (mdbook_slug, "1.1. Detekce hran", "11-detekce-hran"),
        (mdbook_slug, "Über", "Über"),  # `to_ascii_lowercase`: only ASCII is lowered
        (kramdown_slug, "1.1. Edge detection", "edge-detection"),
        (kramdown_slug, "Über σ", "ber-"),  # ASCII only
        (kramdown_slug, "2024", "section"),
        (pandoc_slug, "1.1. Edge detection", "edge-detection"),
        (pandoc_slug, "np.linspace()", "np.linspace"),
        (pandoc_slug, "42", "section"),
        (vuepress_slug, "1.1. Edge detection", "_1-1-edge-detection"),
        (vuepress_slug, "Crème brûlée", "creme-brulee"),
        (vuepress_slug, "8", "_8"),
        (markdown_it_anchor_slug, " (HY000) Error ", "(hy000)-error"),
        (python_markdown_slug, "Crème -- brûlée", "creme-brulee"),
        (pymdownx_slug, "Cooley–Tukey 算法", "CooleyTukey-算法"),  # case and script kept
        (pymdownx_slug, " A  & B. ", "A---B"),  # each space one `-`, the ends stripped
        (pymdownx_slug, "snake_case <code>x</code>", "snake_case-x"),
        (pymdownx_lower_slug, "Über die Fourier-Reihe", "über-die-fourier-reihe"),
    ],
)
def test_each_foreign_rule_slugs_as_its_generator(rule, text, slug):
    assert rule(text) == slug


def test_foreign_ids_number_repeats_per_rule_and_skip_a_taken_suffix():
    ids = foreign_ids(["Intro", "Intro 1", "Intro"])
    assert ids["intro"] == {0}
    assert ids["intro-1"] == {1}  # the second heading's own slug
    assert ids["intro-2"] == {2}  # so the repeat skips to -2, as github-slugger does


def render(body: str, **fields) -> tuple[str, RenderState]:
    state = RenderState(path="content/posts/p.md", **fields)
    done = render_markdown(create_markdown(), body, state)
    return done.html, state


def test_a_fragment_two_headings_have_warns_naming_both_and_is_checked_no_further():
    html, state = render("[x](#setup)\n\n## 1. Setup\n\n## Set.up\n")
    assert '<a href="#setup">x</a>' in html
    [warning] = [str(d) for d in state.diagnostics]
    assert warning == (
        "content/posts/p.md:1:5: warning: link to `#setup`: this page has no such anchor, "
        "and other generators' heading ids give it to more than one heading: `1. Setup` "
        "(id `1-setup`) and `Set.up` (id `set-up`); link to the id of the one you mean"
    )
    assert state.extra["anchor_links"] == []  # `postil.anchors` does not warn again


def test_a_moved_fragment_is_recorded_for_the_anchor_check_under_its_new_id():
    _, state = render("[x](#11-edge-detection) [y](#gone)\n\n## 1.1. Edge detection\n")
    assert [link.fragment for link in state.extra["anchor_links"]] == [
        "1-1-edge-detection",
        "gone",
    ]


def test_the_title_heading_is_the_first_heading_of_the_page():
    html, state = render(
        "[top](#_1-notes) [again](#1-notes-1)\n\n## 1. Notes\n",
        title_id="1-notes",
        title_text="1. Notes",
    )
    assert '<a href="#1-notes">top</a>' in html  # VuePress' id of the title
    assert '<a href="#1-notes-1">again</a>' in html  # postil's id: the title took `1-notes`
    assert '<h2 id="1-notes-1">' in html
    assert state.diagnostics == []


def test_a_document_parsed_in_groups_finds_a_heading_of_a_later_group():
    filler = "".join(f"Paragraph {i} with *some* text.\n\n" for i in range(2000))
    html, state = render(f"[x](#11-late)\n\n{filler}## 1.1. Late\n")
    assert '<a href="#1-1-late">x</a>' in html
    assert state.diagnostics == []


def test_a_fragment_naming_an_inline_element_id_stays_on_that_element():
    # `[term]{#k}` is the page's `k`; `## K` is `k-1` (it avoids it) and GitHub's `k`: the
    # link meant the span, and was moved to the heading while inline ids went unseen
    html, state = render("A [term]{#k} here.\n\n## K\n\nGo to [the term](#k).\n")
    assert '<span id="k">term</span>' in html and '<h2 id="k-1">' in html
    assert '<a href="#k">the term</a>' in html and state.diagnostics == []


def test_a_link_to_a_cited_works_key_lands_on_its_reference_entry():
    # jekyll-scholar gives an entry its key as id: posts link `[Vaswani et al.](#key)`
    from pathlib import Path

    from postil.bibliography.read import read_bib

    bib = Path(__file__).parents[1] / "fixtures" / "cite.bib"
    works = read_bib(bib.read_bytes(), "cite.bib").works
    body = "As [@vaswani2017], see [the paper](#vaswani2017) and [no](#bahdanau2015).\n"
    html, state = render(body, bibliography=works)
    assert '<li id="ref-vaswani2017">' in html
    assert '<a href="#ref-vaswani2017">the paper</a>' in html
    # negative: a key the post does not cite has no entry, so its link is left (and checked)
    assert '<a href="#bahdanau2015">no</a>' in html
    assert [link.fragment for link in state.extra["anchor_links"]] == [
        "ref-vaswani2017",
        "bahdanau2015",
    ]


def test_a_fragment_written_with_pymdownx_ids_points_at_the_heading():
    """Material for MkDocs sites set `toc: slugify: pymdownx.slugs.slugify`, whose ids keep
    the heading's case and drop punctuation (`Rao–Blackwell theorem` is
    `RaoBlackwell-theorem`); postil warned every such link and left it going nowhere."""
    html, state = render(
        "[a](#RaoBlackwell-theorem) [b](#Fourier-级数) [c](#rao-blackwell)\n\n"
        "## Rao–Blackwell theorem\n\n## Fourier 级数\n"
    )
    assert '<a href="#rao-blackwell-theorem">a</a>' in html
    assert '<a href="#fourier-级数">b</a>' in html
    assert [link.fragment for link in state.extra["anchor_links"]] == [
        "rao-blackwell-theorem",
        "fourier-级数",
        "rao-blackwell",  # no heading's id under any rule: the anchor check warns
    ]
