"""End to end: kinds found by trying real posts, where two stages meet.

Each post is a minimal reproduction written for this test, never a copy of a real post.
"""

from __future__ import annotations

import pytest
from support.blog import build_into, build_site, make_site, page
from support.images import PNG

from postil.errors import BuildFailed


def test_a_link_to_the_id_of_the_heading_that_titles_a_page_lands_on_the_title(tmp_path):
    text = "---\ndate: 2024-01-01\n---\n# Notes on $x$ {#top}\n\nText. [Back up](#top).\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(w) for w in build_site(root).warnings] == []
    out = build_into(root)
    [title] = page(out, "posts/p/index.html").xpath('//h1[@class="post-title"]')
    assert title.get("id") == "top"
    assert title.xpath(".//math")


def test_a_link_to_an_id_no_title_has_still_warns_but_top_is_the_pages_top(tmp_path):
    """HTML scrolls `#top` to the top of the page when no element has that id (WHATWG
    HTML, "find a potential indicated element"): that link works, another does not."""
    text = "---\ndate: 2024-01-01\n---\n# Notes\n\nText. [Back up](#top), [in](#intro).\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    [warning] = [str(w) for w in build_site(root).warnings]
    assert "link to `#intro`: this page has no such anchor" in warning
    [title] = page(build_into(root), "posts/p/index.html").xpath('//h1[@class="post-title"]')
    assert title.get("id") == "sec-notes"  # its slug; `notes` is the Notes section's


QUARTO_FIGURES = """---
title: T
date: 2024-01-01
---

See [](#fig-both) and [](#fig-empty).

::: {#fig-both layout-ncol=2}
![Left $x$.](a.png){width=40%}

![Right.](b.png)

Both.
:::

::: {#fig-empty}
:::
"""


def test_quarto_subfigures_without_ids_show_their_captions_and_an_empty_figure_warns(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": QUARTO_FIGURES})
    for name in ("a.png", "b.png"):
        (root / "content/posts" / name).write_bytes(PNG)
    warnings = [str(w) for w in build_site(root).warnings]
    assert warnings == [
        "content/posts/p.md:16:1: warning: figure div `#fig-empty` is empty; put the figure "
        "in it, or remove the div"
    ]
    doc = page(build_into(root), "posts/p/index.html")
    [outer] = doc.xpath('//figure[@id="fig-both"]')
    captions = [" ".join(c.text_content().split()) for c in outer.xpath(".//figcaption")]
    assert captions[0].startswith("(a) Left") and captions[1:] == ["(b) Right.", "Figure 1 Both."]
    [left] = outer.xpath("./figure[1]/img")
    assert (left.get("alt"), left.get("style")) == ("Left x.", "width:40%")
    [empty] = doc.xpath('//figure[@id="fig-empty"]/figcaption')
    assert empty.text_content() == "Figure 2"


def test_a_formula_in_a_figures_caption_is_plain_text_in_its_images_alt(tmp_path):
    text = "---\ntitle: T\ndate: 2024-01-01\n---\n\n![The $L^2$ norm, *squared*.](a.png){#fig-a}\n"
    root = make_site(tmp_path / "site", {"p.md": text})
    doc = page(build_into(root), "posts/p/index.html")
    [image] = doc.xpath('//figure[@id="fig-a"]/img')
    assert image.get("alt") == "The L² norm, squared."
    [caption] = doc.xpath('//figure[@id="fig-a"]/figcaption')
    assert caption.xpath(".//math") and caption.xpath(".//em")


def test_a_malformed_cline_or_intertext_warns_at_its_place_in_the_post(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n$$\n\\begin{array}{cc} a & b \\\\ \\cline{2} c & d"
        " \\end{array}\n$$\n\nText $a \\\\ \\intertext{so} b$.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/p.md:7:28: warning: \\cline needs a range of columns, first to last, in "
        "braces: write \\cline{2-3} (or \\cline{2-2} for one column)",
        "content/posts/p.md:10:12: warning: \\intertext works only between the rows of an "
        "alignment (align, gather, aligned…): put the text outside the formula, or the rows in "
        "an alignment",
    ]


MYST = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
date: 2024-01-01
---

(intro)=
```{raw} jupyter
<div>notebook header</div>
```

# {index}`Kalman <single: Kalman>` filtering

```{math}
:label: eq-update
x_{t+1} = A x_t
```

By {eq}`eq-update`, see {cite}`Ljungqvist2012`.

```{toctree}
other
```
"""


def test_a_myst_notebook_is_titled_by_its_heading_its_math_numbered_and_its_gaps_warned(tmp_path):
    root = make_site(tmp_path / "site", {"kalman.md": MYST})
    assert [str(w).split(": warning: ")[1] for w in build_site(root).warnings] == [
        "`{cite}`Ljungqvist2012`` reads as a citation but the post names no bibliography; "
        "add `bibliography: refs.bib` to its front matter (or postil.yaml)",
        "MyST directive `{toctree}` is not supported: its body is shown as code; write it as "
        "Markdown (a `:::` callout, an image, text)",
    ]
    doc = page(build_into(root), "posts/kalman/index.html")
    assert doc.xpath('string(//h1[@class="post-title"])').strip() == "Kalman filtering"
    [link] = doc.xpath('//div[@class="post-body"]//a[@href="#eq-update"]')
    assert link.text_content() == "(1)"
    assert "notebook header" not in doc.xpath("string(//main)")


QUARTO_THEOREMS = """---
title: T
date: 2024-01-01
---

::: {#thm-roots}
## Existence
Roots exist.
:::

::: {.proof}
## Proof of [@thm-roots]
Cyclic groups.
:::
"""


def test_quarto_theorems_are_numbered_and_a_bracketed_reference_is_no_citation(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": QUARTO_THEOREMS})
    assert [str(w) for w in build_site(root).warnings] == []
    doc = page(build_into(root), "posts/p/index.html")
    titles = [" ".join(t.text_content().split()) for t in doc.xpath('//p[@class="theorem-title"]')]
    assert titles == ["Theorem 1 (Existence).", "Proof (Proof of Theorem 1)."]
    assert not doc.xpath('//h2[@id="existence"]')  # the title, not a section


MYST_UNCLOSED = """---
title: T
date: 2024-01-01
---

Text.

```{note}
A note never closed.

$$ a = b $$ (d1)

See {eq}`d1`.
"""


def test_an_unclosed_myst_directive_runs_to_the_end_and_a_short_label_referred_to_numbers(
    tmp_path,
):
    """An admonition whose closing fence is missing holds the rest of its container (as
    CommonMark runs an unclosed code fence) with one warning, not an "unknown widget"
    error; `$$ … $$ (d1)` is a label because the post refers to it with {eq}."""
    root = make_site(tmp_path / "site", {"notes.md": MYST_UNCLOSED})
    result = build_site(root)
    assert [str(w).split("\n")[0] for w in result.warnings] == [
        "content/posts/notes.md:8:1: warning: directive `{note}` is never closed, so everything"
        " after it is inside it; add a line ``` where it ends",
    ]
    doc = page(build_into(root), "posts/notes/index.html")
    [aside] = doc.xpath('//div[@class="post-body"]//aside[contains(@class, "callout-note")]')
    assert "A note never closed." in aside.text_content()
    [link] = aside.xpath('.//a[@href="#d1"]')
    assert link.text_content() == "(1)"
    assert aside.xpath('.//*[@id="d1"]//*[@class="eqno"]')


MYST_FIGURES = """---
title: T
date: 2024-01-01
---

As {numref}`fig-late` and {numref}`Plot %s <fig-plot>` show:

```{figure} plot.png
:name: fig-plot

The $L^2$ norm.
```

```{figure} late.png
:name: fig-late
```

```{figure}
No image here.
```
"""


def test_a_myst_figures_name_is_its_id_and_numref_links_to_it(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": MYST_FIGURES})
    for name in ("plot.png", "late.png"):
        (root / "content/posts" / name).write_bytes(PNG)
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/p.md:18:1: warning: MyST directive `{figure}` names no image, so none "
        "is shown; write its path after the name: ```{figure} images/plot.png"
    ]
    doc = page(build_into(root), "posts/p/index.html")
    links = doc.xpath('//div[@class="post-body"]//a[@class="xref"]')
    assert [(a.get("href"), a.text_content()) for a in links] == [
        ("#fig-late", "Figure 2"),
        ("#fig-plot", "Plot 1"),
    ]
    [image] = doc.xpath('//figure[@id="fig-plot"]/img')
    assert image.get("alt") == "The L² norm."
    assert doc.xpath('//figure[@id="fig-late"]//span[@class="figure-label"]')[0].text == "Figure 2"


MYST_ERRORS = """---
title: T
date: 2024-01-01
---

```{figure} plot.png
:name: fig-plot

A caption line,
then $\\frac{a}$ here.
```

Text with {math}`\\frac{b}` and {eq}`` here.
"""


def test_math_errors_in_a_myst_caption_or_role_and_an_empty_role_name_their_own_place(
    tmp_path,
):
    root = make_site(tmp_path / "site", {"p.md": MYST_ERRORS})
    (root / "content/posts/plot.png").write_bytes(PNG)
    with pytest.raises(BuildFailed) as failed:  # the math errors are warnings: --strict
        build_site(root, strict=True)
    assert [str(error).split(" ", 1)[0] for error in failed.value.diagnostics] == [
        "content/posts/p.md:10:7:",
        "content/posts/p.md:13:18:",
        "content/posts/p.md:13:32:",
    ]
    assert "MyST role `{eq}` is empty; write what it names between the backticks, as in " in (
        str(failed.value.diagnostics[2])
    )
    assert not (root / "_site").exists()


SPHINX_PROOF = """---
title: T
date: 2024-01-01
---

```{prf:theorem} Pythagoras
:label: thm-py

In a right triangle $a^2 + b^2 = c^2$.
```

::: {#lem-a name="Little"}
A Quarto lemma.
:::

```{prf:proof}
By {prf:ref}`thm-py`; @Lem-a too.
```
"""


def test_sphinx_proof_and_quarto_theorems_are_numbered_titled_and_linked(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": SPHINX_PROOF})
    assert [str(w) for w in build_site(root).warnings] == []
    doc = page(build_into(root), "posts/p/index.html")
    titles = doc.xpath('//div[@class="post-body"]//p[@class="theorem-title"]')
    assert [t.text_content() for t in titles] == [
        "Theorem 1 (Pythagoras).",
        "Lemma 1 (Little).",
        "Proof.",
    ]
    assert doc.xpath('//div[@id="thm-py"]') and doc.xpath('//div[@id="lem-a"]')
    links = doc.xpath('//div[@class="proof"]//a[@class="xref"]')
    assert [(a.get("href"), a.text_content()) for a in links] == [
        ("#thm-py", "Theorem 1"),
        ("#lem-a", "Lemma 1"),
    ]


def test_a_repeated_theorem_id_and_an_empty_label_say_what_they_are(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n::: {#thm-a}\nOne.\n:::\n\n"
        "::: {#thm-a}\nTwo.\n:::\n\n::: {#thm-}\nThree.\n:::\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(d) for d in build_site(root).warnings][0] == (
        "content/posts/p.md:10:1: warning: two theorems have the id 'thm-a'; references go to "
        "the first: give each theorem its own id"
    )
    (root / "content/posts/p.md").write_text(text.replace("{#thm-a}\nTwo", "{#lem-a}\nTwo"))
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/p.md:14:6: warning: theorem div `#thm-` has no label after `thm-`, "
        "so nothing can refer to it; write one, as in `#thm-pythagoras`",
    ]


def test_a_byline_reads_names_by_bibtex_rules_as_the_citation_does(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\nauthor:\n  - King, Jr., Martin Luther\n"
        "  - name: van der Berg, Jan\n    affiliation: Leiden\n---\n\nText.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    doc = page(build_into(root), "posts/p/index.html")
    [authors] = doc.xpath('//p[@class="byline"]/span[@class="authors"]')
    assert authors.text_content() == "Martin Luther King, Jr., Jan van der Berg"
    bibtex = doc.xpath('string(//*[contains(@class, "bibtex")])')
    assert "King, Jr., Martin Luther" in bibtex


def test_a_labelled_formula_on_a_quotes_lazy_line_stays_in_the_quote_and_is_numbered(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n> The identity\n$$ a = b $$ (eq:ab)\n\n"
        "By {eq}`eq:ab`.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    assert [str(w) for w in build_site(root).warnings] == []
    doc = page(build_into(root), "posts/p/index.html")
    [quote] = doc.xpath('//div[@class="post-body"]/blockquote')
    assert quote.xpath('.//*[@id="eq-ab"]//*[@class="eqno"]')
    [link] = doc.xpath('//div[@class="post-body"]/p//a[@href="#eq-ab"]')
    assert link.text_content() == "(1)"


UNKNOWN_FENCES = """---
title: T
date: 2024-01-01
---

```{mystery} an argument
code body
```

:::{mystery}
A *Markdown* body.
:::

:::{card}
In a card.
:::
"""


def test_each_fence_naming_nothing_postil_reads_gets_one_warning_naming_it(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": UNKNOWN_FENCES})
    assert [str(w) for w in build_site(root).warnings] == [
        "content/posts/p.md:6:1: warning: `{mystery}` is not a MyST directive, code chunk or "
        "widget postil reads, so its body is shown as code; write it as Markdown (a `:::` "
        "callout, an image, text), or as ```python to show code",
        "content/posts/p.md:10:1: warning: `{mystery}` is not a MyST directive, code chunk or "
        "widget postil reads, so its body is shown as Markdown; remove its fence lines, or "
        "make it a callout (`:::{note}`)",
        "content/posts/p.md:14:1: warning: MyST directive `{card}` is not supported: its "
        "body is shown as Markdown",
    ]
    doc = page(build_into(root), "posts/p/index.html")
    body = doc.xpath('//div[@class="post-body"]')[0]
    assert body.xpath(".//code")[0].text_content() == "code body\n"
    assert [p.text_content() for p in body.xpath("./p")] == [
        "A Markdown body.",
        "In a card.",
    ]


def test_myst_yaml_options_are_read_and_a_numref_to_a_code_cells_figure_says_so(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n```{code-cell} ipython3\n---\nmystnb:\n"
        "  figure:\n    name: fig-run\n---\nplot()\n```\n\nAs {numref}`fig-run` shows.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    warnings = [str(w) for w in build_site(root).warnings]
    assert warnings[1:] == [
        "content/posts/p.md:15:4: warning: MyST role `{numref}` names the figure of code cell "
        "`fig-run`, which postil does not run, so it shows as text; paste the figure after the "
        "cell as a {figure} with `:name: fig-run`"
    ]
    doc = page(build_into(root), "posts/p/index.html")
    assert doc.xpath('string(//div[@class="post-body"]//code)') == "plot()\n"


def test_every_myst_role_postil_does_not_read_is_reported_at_its_own_place(tmp_path):
    """A role repeated in several blocks, one in a theorem's title among them, is reported
    at each place (they were matched to blocks in order, and one out of order silenced
    every later one)."""
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n```{prf:theorem} After {guilabel}`km`\n"
        "Text.\n```\n\nAs {guilabel}`km` shows.\n\nAgain {guilabel}`km`.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    message = "warning: MyST role `{guilabel}` is not supported: `km` is shown as text"
    assert [str(w) for w in build_site(root).warnings] == [
        f"content/posts/p.md:6:24: {message}",
        f"content/posts/p.md:10:4: {message}",
        f"content/posts/p.md:12:7: {message}",
    ]
    doc = page(build_into(root), "posts/p/index.html")
    assert doc.xpath('string(//p[@class="theorem-title"])') == "Theorem 1 (After km)."


def test_a_myst_eq_role_or_eqref_to_no_equation_is_a_warning_as_in_sphinx_and_latex(tmp_path):
    text = "---\ntitle: T\ndate: 2024-01-01\n---\n\nBy {eq}`eq-gone`, as Sphinx warns.\n"
    result = build_site(make_site(tmp_path / "a", {"p.md": text}))
    assert [str(w).split(" in \\")[0] for w in result.warnings] == [
        "content/posts/p.md:6:4: warning: unknown equation label 'eq-gone'"
    ]
    latex = "---\ntitle: T\ndate: 2024-01-01\n---\n\nBy $\\eqref{eq-gone}$.\n"
    result = build_site(make_site(tmp_path / "b", {"p.md": latex}))
    assert [str(w).split(" in \\")[0] for w in result.warnings] == [
        "content/posts/p.md:6:5: warning: unknown equation label 'eq-gone'"
    ]


def test_a_myst_list_table_is_a_numbered_table_its_numref_table_1(tmp_path):
    text = (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\n```{list-table} Axioms\n:header-rows: 1\n"
        ":name: tbl-ax\n\n* - Name\n  - Rule\n* - Identity\n  - $a + 0 = a$\n```\n\n"
        "See {numref}`tbl-ax`.\n"
    )
    root = make_site(tmp_path / "site", {"p.md": text})
    assert list(build_site(root).warnings) == []
    doc = page(build_into(root), "posts/p/index.html")
    [table] = doc.xpath('//figure[@id="tbl-ax"]')
    assert table.xpath("string(.//figcaption)").split() == ["Table", "1", "Axioms"]
    assert [th.text_content() for th in table.xpath(".//th")] == ["Name", "Rule"]
    assert doc.xpath('string(//a[@href="#tbl-ax"])') == "Table 1"


def test_a_myst_ref_to_no_label_of_the_post_is_a_warning_as_in_sphinx(tmp_path):
    text = "---\ntitle: T\ndate: 2024-01-01\n---\n\nSee {ref}`elsewhere`.\n"
    warnings = [str(w) for w in build_site(make_site(tmp_path / "s", {"p.md": text})).warnings]
    assert [w.split(":", 4)[3] for w in warnings] == [" warning"]
    assert "has the label `elsewhere`, so it shows as text" in warnings[0]


LAZY_MATH = """---
title: T
date: 2024-01-01
---

1. The identity
   $$ a = b \\label{eq:ab} $$
which holds.
2. Next, by \\eqref{eq:ab}.

> For example:
>
> $$
f(n) = n^2 +
\\begin{cases} 1 & n \\text{ even} \\end{cases}
$$

After the quote.
"""


def test_lazy_lines_after_or_inside_display_math_stay_in_their_item_or_quote(tmp_path):
    root = make_site(tmp_path / "site", {"p.md": LAZY_MATH})
    assert [str(w) for w in build_site(root).warnings] == []
    doc = page(build_into(root), "posts/p/index.html")
    first, second = doc.xpath('//div[@class="post-body"]/ol/li')
    assert first.xpath('.//*[@id="eq-ab"]') and "which holds." in first.text_content()
    assert second.xpath('.//a[@href="#eq-ab"]')[0].text_content() == "(1)"
    [quote] = doc.xpath('//div[@class="post-body"]/blockquote')
    [formula] = quote.xpath('.//*[contains(@class, "math-display")]//math')
    assert "cases" in formula.xpath("string(.//annotation)")
    assert "$$" not in quote.xpath("string(.)").split("f(n)")[0]
    assert doc.xpath('//div[@class="post-body"]/p')[-1].text_content() == "After the quote."
