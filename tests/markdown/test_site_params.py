"""A site's own values (`params:` in postil.yaml) and a post's front matter, shown by name:
Jekyll's `{{ site.name }}`, Hugo's `{{< param name >}}`, Quarto's `{{< var name >}}` and
`{{< meta name >}}`."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

PARAMS = {"assets": "/assets", "social.github": "someone", "gpu": "H100", "tag": "<b>"}


def render(body: str, front_matter: dict[str, str] | None = None) -> tuple[str, list[str]]:
    state = RenderState(
        path="content/posts/p.md",
        body_line=5,
        site_params=PARAMS,
        front_matter=front_matter or {},
    )
    html = render_markdown(create_markdown(), body, state).html
    return html, [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_jekyll_site_variables_read_params_dotted_for_a_nested_mapping():
    html, warnings = render("![x]({{ site.assets }}/x.png) by {{ site.social.github }}.\n")
    assert '<img src="/assets/x.png" alt="x" />' in html and "by someone." in html
    assert warnings == []


def test_hugo_param_reads_the_front_matter_first_then_the_site():
    html, warnings = render('On {{< param gpu >}} and {{< param "assets" >}}.\n', {"gpu": "A100"})
    assert "<p>On A100 and /assets.</p>" in html and warnings == []


def test_quarto_var_reads_the_site_and_meta_the_front_matter():
    html, _ = render("{{< var gpu >}} {{< meta gpu >}}\n", {"gpu": "A100"})
    assert "<p>H100 A100</p>" in html


def test_a_value_is_text_escaped_never_markup():
    html, _ = render("Tag {{ site.tag }} and {{< var tag >}}.\n")
    assert "Tag &lt;b&gt; and &lt;b&gt;." in html


def test_a_name_defined_nowhere_is_left_out_with_a_warning_saying_where_to_define_it():
    html, warnings = render("A {{ site.nope }} B {{< param nope >}} C\n")
    assert "<p>A  B  C</p>" in html
    assert warnings == [
        "content/posts/p.md:5:3: Liquid `{{ site.nope }}`: `site.nope` is not in `params:` in "
        "postil.yaml, so the output is left out; define it there (`params:` ⏎ `  nope: …`, as "
        "in Jekyll's `_config.yml`), or write the value itself",
        "content/posts/p.md:5:21: `{{< param nope >}}` shows `nope`, which is not in the post's "
        "front matter or `params:` in postil.yaml, so it is left out; define it there",
    ]


def test_a_url_whose_start_was_left_out_is_not_checked_again():
    """`<iframe src="{{ site.nope }}/ht/x">`: the value's start was left out with a warning
    naming the cause; what is left (`/ht/x`) names nothing the author meant, so it is not
    checked as a path of the site too (a wiki drew two warnings per iframe). A tag that
    gives a value, and a URL without tags, are checked as before."""
    state = RenderState(path="content/posts/p.md", site_params=PARAMS)
    body = (
        '<iframe src="{{ site.nope }}/ht/x?d=1"></iframe>\n\n'
        '<iframe src="{{ site.assets }}/y.html"></iframe>\n\n'
        'Text <a href=\'{{ site.nope }}/ht/z\'>z</a> and <img src="/gone.png" alt="g">.\n'
    )
    render_markdown(create_markdown(), body, state)
    written = [ref.url for refs in state.extra["references"].values() for ref in refs]
    assert written == ["/assets/y.html", "/gone.png"]
    assert len(state.diagnostics) == 2  # one for each `{{ site.nope }}`
