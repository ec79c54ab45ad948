"""Liquid in Jekyll posts: site values, links to posts, block tags, and warnings for the rest."""

from __future__ import annotations

import re

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

LINKS = {
    "content/posts/here.md": "posts/here/",
    "content/posts/2017-08-20-gan.md": "posts/gan/",
    "content/posts/2018-01-01-bundle/index.md": "posts/bundle/",
    "content/about.md": "about/",
}


def render(body: str, base_url: str = "https://x.org/blog/") -> tuple[str, RenderState]:
    path = "/" + base_url.split("/", 3)[3]
    where = {"path": "content/posts/here.md", "links": LINKS}
    state = RenderState(**where, base_path=path, base_url=base_url)
    return render_markdown(create_markdown(), body, state).html, state


def messages(state: RenderState) -> list[str]:
    return [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_post_url_after_baseurl_links_to_the_post_under_the_base_path_with_its_fragment():
    html, state = render("[GAN]({{ site.baseurl }}{% post_url 2017-08-20-gan %}#loss)\n")
    assert '<a href="/blog/posts/gan/#loss">GAN</a>' in html
    assert state.diagnostics == []
    (anchor,) = state.extra["anchor_links"]  # the links plugin checks the fragment later
    assert (anchor.target, anchor.fragment) == ("content/posts/2017-08-20-gan.md", "loss")


def test_post_url_finds_a_page_bundle_and_works_without_baseurl_at_the_site_root():
    html, _ = render("[B]({% post_url 2018-01-01-bundle %})\n", base_url="https://x.org/")
    assert '<a href="/posts/bundle/">B</a>' in html


def test_post_url_in_text_is_the_path_without_the_base_path_as_in_jekyll():
    html, _ = render("At {{ site.baseurl }}{% post_url 2017-08-20-gan %}.\n")
    assert "<p>At /blog/posts/gan/.</p>" in html


def test_link_tag_names_the_post_file():
    html, _ = render("[G]({{ site.baseurl }}{% link _posts/2017-08-20-gan.md %})\n")
    assert '<a href="/blog/posts/gan/">G</a>' in html


def test_post_url_to_a_missing_post_warns_at_its_column_and_keeps_the_text_unlinked():
    html, state = render("Intro.\n\nSee [old]({{ site.baseurl }}{% post_url 2001-gone %}) now.\n")
    assert "<p>See old now.</p>" in html
    assert messages(state) == [
        "content/posts/here.md:3:29: `{% post_url 2001-gone %}`: no published post is named "
        "`2001-gone` (looked for content/posts/2001-gone.md (or another Markdown ending), "
        "content/posts/2001-gone/index.md; a draft or a post dated in the future is not "
        "published); fix the name or link to the post's file, e.g. `[text](other.md)`"
    ]


LINKS_MORE = {
    **LINKS,
    "content/posts/2019-05-01-attention.markdown": "posts/attention/",
    "content/posts/notes/2020-02-02-kernels.md": "posts/kernels/",
}


def warned(body: str) -> list[str]:
    """Return the "did you mean" of each warning (None for one without)."""
    state = RenderState(path="content/posts/here.md", links=LINKS_MORE)
    render_markdown(create_markdown(), body, state)
    return [
        m.group(1) if (m := re.search(r"did you mean `([^`]*)`", d.message)) else None
        for d in state.diagnostics
    ]


@pytest.mark.parametrize(
    ("tag", "meant"),
    [
        ("{% post_url 2017-08-20-gna %}", "2017-08-20-gan"),  # a slip in the name
        ("{% post_url 2017-08-21-gan %}", "2017-08-20-gan"),  # in the date
        ("{% post_url gan %}", "2017-08-20-gan"),  # the slug: a name, not the full path
        ("{% post_url 2018-01-01-bundl %}", "2018-01-01-bundle"),  # a folder's post
        ("{% post_url notes/2020-02-02-kernel %}", "notes/2020-02-02-kernels"),
        ("{% post_url 2020-02-02-kernels %}", "notes/2020-02-02-kernels"),  # its folder
        ("{% link _posts/2017-08-20-gan.mdd %}", "_posts/2017-08-20-gan.md"),
        ("{% link abuot.md %}", "about.md"),
        ("{% post_url 1999-01-01-unrelated %}", None),
        ("{% link _posts/about.md %}", None),  # a page is no post
    ],
)
def test_a_tag_naming_no_post_suggests_the_post_of_the_nearest_name(tag, meant):
    assert warned(f"See [x]({tag}).\n") == [meant]


def test_post_url_finds_a_post_under_any_markdown_ending():
    state = RenderState(path="content/posts/here.md", links=LINKS_MORE)
    html = render_markdown(create_markdown(), "[A]({% post_url 2019-05-01-attention %})\n", state)
    assert '<a href="/posts/attention/">A</a>' in html.html
    assert state.diagnostics == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{{ site.baseurl }}", "/blog"),
        ("{{ site.url }}", "https://x.org"),
        ("{{ site.url }}{{ site.baseurl }}/x", "https://x.org/blog/x"),
        ("{{ '/a.png' | relative_url }}", "/blog/a.png"),
        ('{{ "a.png" | relative_url }}', "/blog/a.png"),
        ('{{ "/a.png" | absolute_url }}', "https://x.org/blog/a.png"),
        ('{{ "/a.png" | prepend: site.baseurl }}', "/blog/a.png"),
        ("{{- site.baseurl -}}", "/blog"),
    ],
)
def test_site_values_and_url_filters_are_jekylls(source, expected):
    html, state = render(f"{source}\n")
    assert html == f"<p>{expected}</p>\n"
    assert state.diagnostics == []


def test_relative_url_in_an_image_destination_is_put_under_the_base_path_once():
    html, _ = render("![Overview]({{ '/assets/o.png' | relative_url }})\n")
    assert '<img src="/blog/assets/o.png" alt="Overview" />' in html


def test_liquid_in_raw_html_is_evaluated_and_html_comments_are_left_alone():
    html, _ = render('<img src="{{ site.baseurl }}/a.png">\n<!-- {{ site.baseurl }} -->\n')
    assert html == '<img src="/blog/a.png">\n<!-- {{ site.baseurl }} -->\n'


@pytest.mark.parametrize(
    ("body", "html"),
    [
        (
            '<img src="{{ site.url }}{{ site.baseurl }}/a.png" alt="a">\n',
            '<img src="https://x.org/blog/a.png" alt="a">\n',
        ),
        (
            'An <img src="{{site.url}}{{site.baseurl}}/a.png" alt="a"> and '
            '<a href="{{ site.baseurl }}/x">x</a>.\n',
            '<p>An <img src="https://x.org/blog/a.png" alt="a"> and <a href="/blog/x">x</a>.</p>\n',
        ),
    ],
)
def test_site_url_then_baseurl_in_raw_html_keeps_the_base_path(body, html):
    """Jekyll's `{{ site.url }}{{ site.baseurl }}/a.png`: in raw HTML `site.baseurl` was ""
    (the raw HTML plugin bases root paths), so after the origin it lost the `/blog`."""
    assert render(body)[0] == html


def test_inline_html_with_liquid_is_evaluated():
    html, _ = render('An <a href="{{ site.baseurl }}/x">x</a>.\n')
    assert html == '<p>An <a href="/blog/x">x</a>.</p>\n'


def test_unknown_tags_and_variables_are_left_out_with_a_warning_naming_them():
    html, state = render("A {{ page.title }} b.\n\n{% include author-card.html id=x %}\n\nEnd.\n")
    assert html == "<p>A  b.</p>\n<p>End.</p>\n"
    assert messages(state) == [
        "content/posts/here.md:1:3: Liquid `{{ page.title }}`: variable `page.title` is not "
        "supported and the output is left out; write the value itself (to show the braces "
        "as text, write `\\{{`)",
        "content/posts/here.md:3:1: Liquid tag `{% include author-card.html id=x %}` is not "
        "supported and is left out (postil has no template language in posts); write its "
        "result as Markdown",
    ]


def test_an_unknown_filter_is_named():
    _, state = render("{{ 'x' | truncatewords: 3 }}\n")
    (warning,) = state.diagnostics
    assert "filter `truncatewords` is not supported" in warning.message


def test_highlight_options_postil_lacks_are_reported_and_the_code_is_still_shown():
    html, state = render("{% highlight ruby cssclass=x %}\nputs 1\n{% endhighlight %}\n")
    assert 'class="language-ruby"' in html
    assert messages(state) == [
        "content/posts/here.md:1:1: `{% highlight ruby cssclass=x %}`: option cssclass is not "
        "supported and is ignored; code blocks take linenos, linenostart, hl_lines and a title"
    ]


def test_a_highlight_block_is_not_reported_as_an_unclosed_fence():
    _, state = render("{% highlight python %}\nx = 1\n{% endhighlight %}\n\nText.\n")
    assert state.diagnostics == []


def test_tags_inside_a_raw_block_are_neither_evaluated_nor_reported():
    body = "{% raw %}\nSee {{ page.x }} and [l]({{ site.baseurl }}/x).\n{% endraw %}\n"
    html, state = render(body)
    assert "{{ page.x }}" in html and 'href="%7B%7B%20site.baseurl%20%7D%7D/x"' in html
    assert state.diagnostics == []


def test_a_highlight_tag_inside_a_list_item_ends_with_the_item():
    html, _ = render("- item\n\n  {% highlight python %}\n  x = 1\n  {% endhighlight %}\n")
    assert '<li>\n<p>item</p>\n<figure class="code">' in html
    assert "x</span> <span" in html


def test_an_img_tag_is_an_image_under_the_base_path_and_a_missing_source_is_reported():
    html, state = render("Plot: {% img /figures/b.png 600 [Histogram] %}\n\n{% img left %}\n")
    assert '<img src="/blog/figures/b.png" alt="[Histogram]" width="600"' in html
    assert messages(state) == [
        "content/posts/here.md:3:1: `{% img left %}` has no image source, so it is left out; "
        'write one: a URL, or a path with a `/` (`{% img /images/plot.png 400 "Title" "Alt" %}`)'
    ]


def test_a_video_tag_naming_no_video_says_what_to_write_in_liquid():
    html, state = render("{% youtube %}\n\n{% vimeo not-a-number %}\n")
    assert html == ""
    assert messages(state) == [
        "content/posts/here.md:1:1: `{% youtube %}` names no video: write the video's "
        "11-character id or its URL, `{% youtube dQw4w9WgXcQ %}`; it is left out",
        "content/posts/here.md:3:1: `{% vimeo not-a-number %}` names no video: write the "
        "video's number or its URL, `{% vimeo 55073825 %}`; it is left out",
    ]


def test_theme_includes_postil_reads_warn_when_they_name_nothing_or_sit_inside_text():
    body = (
        '{% include figure.liquid class="x" %}\n\nSee {% include figure.liquid path="a.png" %}.'
        '\n\n{% include video.liquid class="x" %}\n\n<div>\n{% include figure.html %}\n</div>\n'
    )
    html, state = render(body)
    assert "<figure" not in html and "{%" not in html
    assert messages(state) == [
        'content/posts/here.md:1:1: `{% include figure.liquid class="x" %}` names no image, '
        'so it is left out; give its path: `{% include figure.liquid path="assets/img/plot.png" '
        'caption="…" %}`',
        'content/posts/here.md:5:1: `{% include video.liquid class="x" %}` names no video: '
        "write a YouTube or Vimeo URL or a video file's path as its `path`, "
        '`{% include video.liquid path="https://youtu.be/dQw4w9WgXcQ" %}`; it is left out',
        'content/posts/here.md:3:5: `{% include figure.liquid path="a.png" %}` shows its image '
        "only on a line of its own; move it there",
        "content/posts/here.md:8:1: `{% include figure.html %}` names no image or video; give "
        "its `path`",
    ]


def test_includes_loading_mathjax_or_katex_are_left_out_without_a_warning():
    html, state = render("{% include mathjax.html %}\n\nA{% include katex.html %} b.\n")
    assert (html, messages(state)) == ("<p>A b.</p>\n", [])


def test_a_tag_cut_by_a_blank_line_is_text_with_a_warning_at_its_start():
    body = 'A.\n\n{% include figure.html path="a.png" alt="x"\n\ntitle="y" %}\n\nSee {{< fig\n'
    html, state = render(body)
    assert "<p>{% include figure.html path=" in html
    assert [m.split(" in its")[0] for m in messages(state)] == [
        "content/posts/here.md:3:1: `{% include` is not closed by `%}`",
        "content/posts/here.md:7:5: `{{< fig` is not closed by `>}}`",
    ]
    # `{{ name` without its `}}` is prose about another template language: no warning
    assert messages(render("Vue writes {{ name and more.\n")[1]) == []


def render_vue(body: str, **front_matter: str) -> tuple[str, RenderState]:
    state = RenderState(path="content/posts/here.md", front_matter=front_matter)
    return render_markdown(create_markdown(), body, state).html, state


def test_vitepress_frontmatter_values_are_put_in_escaped_in_text_headings_and_html():
    html, state = render_vue(
        "## About {{ $frontmatter.title }}\n\n{{ $frontmatter.description }}\n\n"
        '<span title="{{ $frontmatter.description }}">x</span>\n',
        title="SVD",
        description="A <b> & c",
    )
    assert '<h2 id="about-svd">About SVD' in html
    assert "<p>A &lt;b&gt; &amp; c</p>" in html
    assert '<span title="A &lt;b&gt; &amp; c">x</span>' in html
    assert state.diagnostics == []


def test_vitepress_opening_title_heading_is_the_page_title_and_leaves_the_body():
    html, state = render_vue("# {{ $frontmatter.title }}\n\nBody.\n", title="SVD")
    assert html == "<p>Body.</p>\n"
    assert state.diagnostics == []


def test_a_heading_left_empty_by_vue_expressions_is_left_out_with_a_vue_warning():
    html, state = render_vue("Text.\n\n## {{ $route.path }}\n\n# {{ $frontmatter.title }}\n")
    assert html == "<p>Text.</p>\n"  # no `<h2 id="section">` with an empty link
    assert sorted(messages(state)) == [  # in file order
        "content/posts/here.md:3:1: heading `## {{ $route.path }}` is empty once its "
        "template tags are left out, so it is left out; write its text",
        "content/posts/here.md:3:4: Vue expression `{{ $route.path }}` (VitePress, VuePress): "
        "variable `$route.path` is not supported, so the output is left out; postil puts in "
        "only `$frontmatter.<key>` of a text value the front matter has: write the value "
        "itself (to show the braces as text, write `\\{{`)",
        "content/posts/here.md:5:1: heading `# {{ $frontmatter.title }}` is empty once its "
        "template tags are left out, so it is left out; write its text",
        "content/posts/here.md:5:3: Vue expression `{{ $frontmatter.title }}` (VitePress, "
        "VuePress): the front matter has no text value `title`, so the output is left out; "
        "postil puts in only `$frontmatter.<key>` of a text value the front matter has: "
        "write the value itself (to show the braces as text, write `\\{{`)",
    ]


def test_liquid_variables_keep_the_liquid_warning():
    _, state = render_vue("{{ page.title }}\n")
    [message] = messages(state)
    assert "Liquid `{{ page.title }}`: variable `page.title` is not supported" in message


def test_logseq_macros_are_named_as_logseq_macros_and_a_cloze_shows_its_text():
    """Logseq's `{{name args}}` macros (its "Macros" docs) were warned as Liquid variables
    that postil does not support. A cloze is text the reader sees (hidden only while
    reviewing flashcards); `{{embed}}` and `{{query}}` show the graph's other content."""
    html, state = render(
        "- A {{cloze One-side invertible}} map\n"
        "- {{embed ((6017cf83-cea5-4a5c-b118-55af96d8aa7e)) }}\n"
        "- {{query (and [[LooseEnd]] (page [[x]]))}}\n"
        "- {{cloze the map $f$}}\n"
    )
    assert "<li>A One-side invertible map</li>" in html and "<li></li>" in html
    found = [m.split(": ", 1)[1] for m in messages(state)]
    assert len(found) == 3 and not any("Liquid" in m for m in found)
    assert found[0].startswith(
        "Logseq macro `{{embed ((6017cf83-cea5-4a5c-b118-55af96d8aa7e)) }}`: `{{embed}}` "
        "shows another block or page of the graph inside this one, which postil does not do"
    )
    assert "`{{query}}` lists the blocks of the graph a query finds" in found[1]
    assert "the cloze's text is shown as written, its Markdown and math not read" in found[2]


@pytest.mark.parametrize("tag", ["{{ embed }}", "{{ query }}", "{{cloze}}"])
def test_liquid_outputs_named_like_logseq_macros_stay_liquid(tag):
    """A macro's name alone, with no argument after a space, is Liquid's variable."""
    _, state = render(f"Text {tag} here.\n")
    (message,) = messages(state)
    assert message.split(": ", 1)[1].startswith(f"Liquid `{tag}`")


def test_hackmd_embeds_are_named_as_hackmd_s():
    """HackMD's `{%hackmd theme-dark %}` (another note: its dark theme) and `{%gist …%}`
    were warned as Liquid tags that postil has no template language for."""
    _, state = render("{%hackmd theme-dark %}\n\nText {%gist user/abc123 %} here.\n")
    found = [m.split(": ", 1)[1] for m in messages(state)]
    assert found == [
        "HackMD's `{%hackmd theme-dark %}` embeds another HackMD note (`theme-dark`: "
        "HackMD's dark theme), which postil does not do, so it is left out; write the "
        "content itself (a link, the text)",
        "jekyll-gist's and HackMD's `{%gist user/abc123 %}` embeds a GitHub gist, which "
        "postil does not do, so it is left out; write the content itself (a link, the text)",
    ]


def test_a_pdf_viewer_tag_is_left_out_with_a_warning_naming_whose_it_is():
    html, state = render("Intro.\n\n{% pdf /files/slides.pdf 600px %}\n")
    assert "pdf" not in html
    assert messages(state) == [
        "content/posts/here.md:3:1: HackMD's and Hexo NexT's `{% pdf /files/slides.pdf 600px %}` "
        "embeds a PDF viewer, which postil does not do, so it is left out; write the content "
        "itself (a link, the text)"
    ]


@pytest.mark.parametrize(("opening", "closing"), [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)")])
def test_double_braces_of_tex_in_a_formula_inside_raw_html_are_no_template_tag(opening, closing):
    # MkDocs sites hide their macros in a `<div style="display:none">` of display math
    body = (
        f'<div style="display:none">\n{opening}\n\\newcommand{{\\nxt}}{{{{\\rm nxt}}}}\n'
        f"{closing}\n</div>\n\nWe call $\\nxt$ here.\n"
    )
    html, state = render(body)
    assert state.diagnostics == []
    assert "<mrow><mi>nxt</mi></mrow>" in html  # the macro, defined in the hidden block


def test_template_tags_in_raw_html_outside_a_formula_are_still_evaluated():
    html, state = render("<p>{{ site.baseurl }} costs $$5 and {{ page.nope }}</p>\n")
    assert "<p>/blog costs $$5 and </p>" in html
    assert len(state.diagnostics) == 1


def test_a_shortcode_or_liquid_tag_in_a_formula_inside_raw_html_is_still_read():
    # Hugo and Jekyll read them before anything else: a theme's preamble shortcode, hidden
    body = (
        '<div style="display:none">\n$$ {{< import file="preamble.tex" >}} $$\n</div>\n\n'
        "<p>$$ x {% unknowntag %} $$</p>\n"
    )
    html, state = render(body)
    assert "{{&lt;" not in html and "{{<" not in html and "{%" not in html
    found = [m.split(": ", 1)[1] for m in messages(state)]
    assert found[0].startswith('Hugo shortcode `{{< import file="preamble.tex" >}}` is not')
    assert found[1].startswith("Liquid tag `{% unknowntag %}`")
