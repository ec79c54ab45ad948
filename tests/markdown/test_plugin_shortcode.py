"""Hugo shortcodes: figures, code, wrappers and references, and a warning for the rest."""

from __future__ import annotations

import re

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.embed import video_html
from postil.markdown.references import references
from postil.markdown.state import RenderState

LINKS = {
    "content/posts/here.md": "posts/here/",
    "content/posts/other.md": "posts/other/",
    "content/posts/bundle/index.md": "posts/bundle/",
    "content/about.md": "about/",
}


def render(body: str) -> tuple[str, RenderState]:
    state = RenderState(
        path="content/posts/here.md",
        links=LINKS,
        base_path="/blog/",
        base_url="https://x.org/blog/",
    )
    return render_markdown(create_markdown(), body, state).html, state


def messages(state: RenderState) -> list[str]:
    return [f"{d.location}: {d.message}" for d in state.diagnostics]


def test_ref_in_a_link_destination_resolves_through_the_links_plugin_with_its_fragment():
    body = 'See [it]({{< ref "other.md#part" >}}) and [b]({{< relref "bundle" >}}).\n'
    html, state = render(body)
    assert '<a href="/blog/posts/other/#part">it</a>' in html
    assert '<a href="/blog/posts/bundle/">b</a>' in html
    assert state.diagnostics == []
    assert [a.fragment for a in state.extra["anchor_links"]] == ["part"]


def test_ref_from_content_root_and_in_text():
    html, _ = render('{{< ref "/about.md" >}} and {{< relref "/about.md" >}}\n')
    assert html == "<p>https://x.org/blog/about/ and /blog/about/</p>\n"


def test_ref_to_a_missing_file_warns_and_unlinks():
    html, state = render('Go [there]({{< ref "nope.md" >}}).\n')
    assert html == "<p>Go there.</p>\n"
    assert messages(state) == [
        'content/posts/here.md:1:12: `{{< ref "nope.md" >}}`: no published post is named '
        "`nope.md` (looked for content/posts/nope.md and content/nope.md; a draft or a post "
        "dated in the future is not published); fix the path (relative to this file or to "
        "content/)"
    ]


@pytest.mark.parametrize(
    ("tag", "meant"),
    [
        ('{{< ref "othr" >}}', "other"),  # beside this file: its name
        ('{{< relref "othr.md" >}}', "other"),
        ('{{< ref "/posts/bundel" >}}', "/posts/bundle"),  # from content/: its path
        ('{{< ref "abut" >}}', "/about"),  # a page elsewhere: its path from content/
        ('{{< ref "2020-01-01-other" >}}', "other"),  # a name, not the full path
        ('{{< ref "unrelated-thing" >}}', None),
    ],
)
def test_a_ref_to_no_page_suggests_the_page_of_the_nearest_name(tag, meant):
    _, state = render(f"Go [there]({tag}).\n")
    (diagnostic,) = state.diagnostics
    found = re.search(r"did you mean `([^`]*)`", diagnostic.message)
    assert (found.group(1) if found else None) == meant


def test_a_ref_by_a_bare_name_finds_the_one_page_of_that_name_anywhere():
    html, state = render('[a]({{< ref "about" >}}) and {{< relref "bundle" >}}\n')
    assert html == '<p><a href="/blog/about/">a</a> and /blog/posts/bundle/</p>\n'
    assert state.diagnostics == []


def test_a_ref_to_an_anchor_alone_is_that_anchor_of_this_page_and_is_checked_as_one():
    body = (
        '## Setup\n\n[a]({{< ref "#setup" >}}) and [b]({{< relref path="#set-up" >}}), '
        'text {{< ref "#setup" >}}\n\n<p><a href="{{< relref "#setup" >}}">c</a></p>\n'
    )
    html, state = render(body)
    assert '<a href="#setup">a</a> and <a href="#set-up">b</a>, text #setup</p>' in html
    assert '<p><a href="#setup">c</a></p>' in html
    assert state.diagnostics == []
    anchors = [(a.target, a.fragment) for a in state.extra["anchor_links"]]
    assert anchors == [("", "setup"), ("", "set-up")]
    assert [(a.target, a.fragment) for a in state.extra["html_anchor_links"]] == [("", "setup")]


def test_a_ref_naming_nothing_says_so():
    _, state = render('Go {{< ref "" >}} and {{< relref "#" >}}.\n')
    assert messages(state) == [
        'content/posts/here.md:1:4: `{{< ref "" >}}` names no page; give the path of a post or '
        "page",
        'content/posts/here.md:1:23: `{{< relref "#" >}}` names no page; give the path of a '
        "post or page",
    ]


@pytest.mark.parametrize(
    ("body", "html"),
    [
        (  # a quoted shortcode inside a quoted value, in a paragraph: was shown as text
            'See <a href="{{< relref "other.md" >}}" title="x">it</a>.\n',
            '<p>See <a href="/blog/posts/other/" title="x">it</a>.</p>\n',
        ),
        (
            'See <a href=\'{{< relref "#part" >}}\'\n   class="k">it</a>.\n',
            "<p>See <a href='#part'\n   class=\"k\">it</a>.</p>\n",
        ),
        (  # relref in raw HTML is under the base path once, ref is the full URL
            '<p><a href="{{< relref "other.md" >}}">a</a> <a href="{{< ref "other.md" >}}">b</a>'
            "</p>\n",
            '<p><a href="/blog/posts/other/">a</a> <a href="https://x.org/blog/posts/other/">b</a>'
            "</p>\n",
        ),
        (  # a tag outside a quoted value is no attribute: the text stays text
            'a <b and {{< relref "other.md" >}}> c\n',
            "<p>a &lt;b and /blog/posts/other/&gt; c</p>\n",
        ),
    ],
)
def test_a_shortcode_inside_an_html_attribute_is_evaluated_as_hugo_reads_it(body, html):
    rendered, state = render(body)
    assert rendered == html
    assert state.diagnostics == []


def test_figures_are_numbered_with_the_other_figures_and_take_the_base_path():
    figure = '{{< figure src="/img/b.png" caption="B." >}}'
    body = f"![A.](a.png){{#fig-a}}\n\n{figure}\n\nSee [](#fig-a).\n"
    html, state = render(body)
    assert '<img src="/blog/img/b.png" alt="B.">' in html
    assert '<span class="figure-label">Figure 2</span> B.' in html
    assert state.diagnostics == []


def test_figure_parameters_postil_lacks_are_named():
    _, state = render('{{< figure src="a.png" link="https://x" attr="By me" >}}\n')
    assert messages(state) == [
        'content/posts/here.md:1:1: `{{< figure src="a.png" link="https://x" attr="By me" >}}`: '
        "parameter attr, link is not supported and is ignored; figures take alt, caption, "
        "class, height, src, title, width"
    ]


def test_a_figure_inside_a_line_asks_to_be_on_its_own_line():
    html, state = render('Text {{< figure src="a.png" >}} more.\n')
    assert html == "<p>Text  more.</p>\n"
    (warning,) = state.diagnostics
    assert "makes a figure only on a line of its own" in warning.message


def test_rawhtml_wrappers_leave_no_litter_and_their_math_is_typeset():
    body = "Given $N$ points,\n{{<rawhtml>}}\n$$\nx^2\n$$\n{{</rawhtml>}}\nthe log.\n"
    html, state = render(body)
    assert "{{" not in html and "}}" not in html and "rawhtml" not in html
    assert '<div class="math-display"' in html
    assert state.diagnostics == []


def test_unknown_shortcodes_warn_once_for_a_pair_and_keep_their_content():
    html, state = render("{{< grid ratio=x >}}\nInside.\n{{< /grid >}}\n")
    assert html == "<p>Inside.</p>\n"
    assert messages(state) == [
        "content/posts/here.md:1:1: Hugo shortcode `{{< grid ratio=x >}}` is not "
        "supported and is left out (content between its tags stays); write its result as "
        "Markdown or HTML"
    ]


def test_a_closing_shortcode_without_an_opening_one_is_reported():
    html, state = render("Text.\n\n{{< /rawhtml >}}\n")
    assert html == "<p>Text.</p>\n"
    assert messages(state) == [
        "content/posts/here.md:3:1: `{{< /rawhtml >}}` closes no shortcode opened before it; "
        "remove it"
    ]


def test_highlight_shortcode_with_hugos_option_string():
    body = '{{< highlight go "linenos=table,hl_lines=2" >}}\na\nb\n{{< /highlight >}}\n'
    html, state = render(body)
    assert 'class="language-go"' in html and '<span class="hll"><span class="linenos">2' in html
    assert state.diagnostics == []


def test_a_highlight_whose_code_shares_the_tags_lines_is_one_code_block_and_no_warning():
    body = "{{< highlight python >}}import os\nos.sep{{< /highlight >}}\n\n{{< /highlight >}}\n"
    html, state = render(body)
    assert html.count("<pre") == 1 and "import</span>" in html and "highlight &gt;" not in html
    assert messages(state) == [  # the second closing tag is a stray one, and says so
        "content/posts/here.md:4:1: `{{< /highlight >}}` closes no shortcode opened before it; "
        "remove it"
    ]


def test_an_unclosed_highlight_says_what_it_needs_for_hugo_and_jekyll():
    for opening, closing in (
        ("{{< highlight go >}}", "{{< /highlight >}}"),
        ("{% highlight go %}", "{% endhighlight %}"),
    ):
        html, state = render(f"{opening}a := 1\nb := 2\n")
        assert html == "<p>a := 1\nb := 2</p>\n"
        assert messages(state) == [
            f"content/posts/here.md:1:1: `{opening}` makes no code block here: it must begin "
            f"a line and `{closing}` end one in the same block; its code is shown as text"
        ]


def test_a_highlight_alone_on_its_line_and_never_closed_says_what_it_needs():
    html, state = render("{{< highlight python >}}\nunclosed\n\nEnd.\n")
    assert "unclosed" in html
    assert messages(state) == [
        "content/posts/here.md:1:1: `{{< highlight python >}}` makes no code block here: it "
        "must begin a line and `{{< /highlight >}}` end one in the same block; its code is "
        "shown as text"
    ]


def test_a_fold_on_one_line_is_a_fold_with_no_warning_and_unknown_pairs_still_warn():
    html, state = render(
        'Try it.\n\n{{< spoiler text="The answer" >}} It is $42$. {{< /spoiler >}}\n\n'
        "{{< foo >}} kept {{< /foo >}}\n"
    )
    assert '<summary class="callout-title"><strong>The answer</strong></summary>' in html
    assert "<p>It is <span" in html and "{{" not in html and "kept" in html
    assert [m.split(": ", 1)[1][:30] for m in messages(state)] == ["Hugo shortcode `{{< foo >}}` i"]


def test_a_video_shortcode_naming_no_video_says_what_to_write_and_a_file_is_checked():
    html, state = render("{{< youtube not-an-id >}}\n\n{{< vimeo abc >}}\n\n{{< video >}}\n")
    assert html == ""
    assert messages(state) == [
        "content/posts/here.md:1:1: `{{< youtube not-an-id >}}` names no video: write the "
        "video's 11-character id or its URL, `{{< youtube dQw4w9WgXcQ >}}`; it is left out",
        "content/posts/here.md:3:1: `{{< vimeo abc >}}` names no video: write the video's "
        "number or its URL, `{{< vimeo 55073825 >}}`; it is left out",
        "content/posts/here.md:5:1: `{{< video >}}` names no video: write a YouTube or Vimeo "
        "URL or a video file's path, `{{< video clip.mp4 >}}`; it is left out",
    ]
    html, state = render("{{< video /media/clip.mp4 >}}\n")
    assert '<video src="/blog/media/clip.mp4" controls' in html  # under the base path
    (reference,) = references(state)
    assert (reference.target, str(reference.location)) == (
        "media/clip.mp4",
        "content/posts/here.md:1:11",
    )


YOUTUBE = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"


@pytest.mark.parametrize(
    ("source", "start", "src"),
    [
        ("https://youtu.be/dQw4w9WgXcQ?t=1h2m3s", "", YOUTUBE + "?start=3723"),
        ("https://www.youtube.com/embed/dQw4w9WgXcQ", "", YOUTUBE),
        ("https://www.youtube.com/shorts/dQw4w9WgXcQ", "10", YOUTUBE + "?start=10"),
        ("https://m.youtube.com/watch?v=dQw4w9WgXcQ&list=x", "", YOUTUBE),
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=2m", "", YOUTUBE + "?start=120"),
        ("https://vimeo.com/55073825#t=30s", "", "https://player.vimeo.com/video/55073825#t=30s"),
        ("https://player.vimeo.com/video/55073825", "", "https://player.vimeo.com/video/55073825"),
        (
            "https://player.vimeo.com/video/524933864?h=1ac4fd9fb4&title=0",
            "",
            "https://player.vimeo.com/video/524933864?h=1ac4fd9fb4",
        ),
    ],
)
def test_quartos_video_reads_youtube_and_vimeo_urls_and_their_start_times(source, start, src):
    html = video_html(source, "video", start=start)
    assert html is not None
    assert html.split('"')[3] == src


def test_video_html_refuses_what_names_no_video():
    assert video_html("https://youtu.be/", "video") is None
    assert video_html("https://www.youtube.com/watch?x=1", "video") is None
    assert video_html("dQw4w9WgXcQ", "vimeo") is None
    assert video_html("", "video") is None
    assert video_html('a"b.mp4', "video", title="<T>") == (
        '<figure class="video"><video src="a&quot;b.mp4" controls preload="metadata" '
        'aria-label="&lt;T&gt;"></video></figure>\n'
    )


def test_blogdown_postref_is_nothing_before_a_relative_path_and_other_blogdown_names_warn():
    body = (
        '<img src="{{< blogdown/postref >}}index_files/figure-html/p.png" width="672" alt="" />\n\n'
        "{{< blogdown/postref >}}\n\n"
        "Then {{< blogdown/other >}} here.\n"
    )
    html, state = render(body)
    assert '<img src="index_files/figure-html/p.png" width="672" alt="" />' in html
    assert "postref" not in html
    assert messages(state) == [
        "content/posts/here.md:5:6: Hugo shortcode `{{< blogdown/other >}}` is not supported "
        "and is left out (content between its tags stays); write its result as Markdown or HTML"
    ]


def test_a_post_on_x_is_a_link_with_a_warning_and_a_malformed_one_only_a_warning():
    text = '{{< tweet user="SanDiegoZoo" id="1453110110599868418" >}}\n\n{{< x user="a b" >}}\n'
    html, state = render(text)
    found = [str(d).split("\n")[0] for d in state.diagnostics]
    assert 'href="https://x.com/SanDiegoZoo/status/1453110110599868418"' in html
    assert html.count("<blockquote") == 1
    assert found[0].startswith("content/posts/here.md:1:1: warning: `{{< tweet")
    assert "link to the post" in found[0]
    assert found[1].startswith("content/posts/here.md:3:1: warning:")
    assert "names no post on X" in found[1]


def test_an_unclosed_columns_shortcode_says_where_to_close_it():
    html, state = render("{{< columns >}}\nLeft.\n")
    assert html == "<p>Left.</p>\n"
    assert messages(state) == [
        "content/posts/here.md:1:1: `{{< columns >}}` is never closed; add `{{< /columns >}}`"
        " where it ends"
    ]


def test_columns_are_side_by_side_and_their_markers_are_not_text():
    html, state = render(
        '{{< columns >}}\n- [a]({{< relref "a" >}})\n\n<--->\n\n$x^2$\n{{< /columns >}}\n'
    )
    assert html.count('<div class="column">') == 2 and "&lt;---&gt;" not in html
    assert "<math" in html


@pytest.mark.parametrize(
    "body",
    [
        'See [it]({{< ref "other.md#part"\n>}}) here.\n',  # Docsy's user guide wraps so
        'See [it]({{< ref "other.md#part"\n  >}}) here.\n',
        'See [it]({{< ref\n"other.md#part"\n>}}) here.\n',
    ],
)
def test_a_shortcode_closed_at_the_start_of_the_next_line_is_no_block_quote(body):
    html, state = render(body)
    assert html == '<p>See <a href="/blog/posts/other/#part">it</a> here.</p>\n'
    assert messages(state) == []


def test_a_line_starting_with_the_closing_delimiters_and_no_open_shortcode_is_a_quote():
    body = 'Closed {{< ref "other.md" >}} here\n>}} quoted\n\nOpen {{< ref "other.md"\n\n>}} too\n'
    html, _ = render(body)
    assert html == (
        "<p>Closed https://x.org/blog/posts/other/ here</p>\n"
        "<blockquote>\n<p>}} quoted</p>\n</blockquote>\n"
        "<p>Open {{&lt; ref &quot;other.md&quot;</p>\n"
        "<blockquote>\n<p>}} too</p>\n</blockquote>\n"
    )


def test_a_paired_shortcode_written_self_closed_is_not_reported_unclosed():
    body = (
        '{{< tabpane >}}\n{{< tab header="Shell:" disabled=true />}}\n'
        '{{< tab header="Bash" lang="bash" >}}\nls\n{{< /tab >}}\n{{< /tabpane >}}\n\n'
        '{{< alert title="Note" />}}\n\n{{< details title="More" />}}\n'
    )
    html, state = render(body)
    assert messages(state) == []
    assert re.findall(r'<p class="tab-title">([^<]*)</p>', html) == ["Shell:", "Bash"]
    assert html.count("<aside") == 2


def test_an_unknown_shortcode_written_self_closed_pairs_with_no_later_closing_tag():
    html, state = render("{{< foo />}}\n\n{{< foo >}}\nkeep\n{{< /foo >}}\n")
    assert html == "<p>keep</p>\n"
    assert [str(d.location).split(":")[1] for d in state.diagnostics] == ["1", "3"]


def test_a_nikola_posts_unknown_shortcode_is_called_nikolas():
    """Nikola writes shortcodes as Hugo does (`{{% wikipedia article="x" %}}`, a site's own
    plugin); in a post whose front matter is Nikola's the warning named Hugo."""
    state = RenderState(path="content/notes/n.md", front_matter_syntax="nikola")
    body = 'Il {{% wikipedia article="Drude" %}} qui.\n\n{{% accordion id="a" %}}\nTesto.\n'
    render_markdown(create_markdown(), body, state)
    assert sorted(d.message[:40] for d in state.diagnostics) == [
        'Nikola shortcode `{{% accordion id="a" %',
        "Nikola shortcode `{{% wikipedia article=",
    ]
