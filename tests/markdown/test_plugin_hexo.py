"""Hexo's inline tags: post links and paths, the post's asset folder, and their warnings."""

from __future__ import annotations

from support.markdown import render_post

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState

LINKS = {
    "content/posts/my-post.md": "posts/my-post/",
    "content/posts/other-post.md": "posts/other-post/",
    "content/posts/bundle/index.md": "posts/bundle/",
}


ASSETS = {
    "content/posts/my-post/plot.png": "posts/my-post/plot.png",
    "content/posts/my-post/data.csv": "posts/my-post/data.csv",
    "content/posts/bundle/plot.png": "posts/bundle/plot.png",
}


def render(body: str, path: str = "content/posts/my-post.md") -> tuple[str, RenderState]:
    state = RenderState(
        path=path, links=LINKS, assets=ASSETS, base_path="/blog/", base_url="https://x.org/blog/"
    )
    return render_markdown(create_markdown(), body, state).html, state


def test_post_link_and_post_path_name_the_post_by_its_file():
    html, state = render(
        'See {% post_link other-post %}, {% post_link bundle "the bundle" %} at '
        "{% post_path other-post %} and [here]({% post_path bundle %}).\n"
    )
    assert '<a href="/blog/posts/other-post/">other-post</a>' in html
    assert '<a href="/blog/posts/bundle/">the bundle</a>' in html
    assert "at /blog/posts/other-post/ and" in html
    assert '<a href="/blog/posts/bundle/">here</a>' in html
    assert state.diagnostics == []


def test_post_link_titles_in_single_quotes_and_the_escape_flag_are_hexos():
    """Hexo's "Tag Plugins" page quotes titles in single quotes and ends with `false` to keep
    a title's HTML; the quotes and the flag were shown in the link's text."""
    html, state = render(
        "A {% post_link other-post 'Link to a post' %}, "
        "{% post_link other-post 'How to use <b> tag in title' %}, "
        "{% post_link bundle '<b>bold</b> custom title' false %}, "
        "{% post_link bundle a true story %}.\n"
    )
    assert '<a href="/blog/posts/other-post/">Link to a post</a>' in html
    assert "How to use &lt;b&gt; tag in title</a>" in html
    assert '<a href="/blog/posts/bundle/"><b>bold</b> custom title</a>' in html
    assert '<a href="/blog/posts/bundle/">a true story</a>' in html
    assert state.diagnostics == []


def test_asset_img_takes_single_quoted_title_and_alt_text():
    html, _ = render(
        "{% asset_img plot.png 'A plot' 'alt text' %} {% asset_img plot.png It's ours %}\n"
    )
    assert '<img src="/blog/posts/my-post/plot.png" alt="alt text" title="A plot">' in html
    assert (
        '<img src="/blog/posts/my-post/plot.png" alt="It&#x27;s ours" title="It&#x27;s ours">'
        in html
    )


def test_post_path_in_raw_html_is_under_the_base_path_once():
    """Hexo's own example, `<a href="{% post_path slug %}">`: the raw HTML plugin puts a
    root path under the base path, and `post_path` gave it one already (`/blog/blog/…`)."""
    html, state = render(
        '<p><a href="{% post_path other-post %}">a</a></p>\n\n'
        'Inline <a href="{% post_path bundle %}">b</a>, text {% post_path bundle %}.\n'
    )
    assert '<p><a href="/blog/posts/other-post/">a</a></p>' in html
    assert 'Inline <a href="/blog/posts/bundle/">b</a>, text /blog/posts/bundle/.' in html
    assert state.diagnostics == []


def test_asset_tags_read_the_post_asset_folder_beside_a_file_or_a_bundles_own():
    body = (
        '{% asset_img wide plot.png 400 "A plot" "alt text" %} {% asset_link data.csv the data %}\n'
    )
    html, _ = render(body)
    assert (
        '<img src="/blog/posts/my-post/plot.png" alt="alt text" title="A plot" width="400" '
        'class="wide">' in html
    )
    assert '<a href="/blog/posts/my-post/data.csv">the data</a>' in html
    html, _ = render("{% asset_img plot.png %}\n", "content/posts/bundle/index.md")
    assert '<img src="/blog/posts/bundle/plot.png" alt="">' in html
    html, _ = render("{% asset_img  plot.png  A plot of it %}\n")  # unquoted: title and alt
    assert (
        '<img src="/blog/posts/my-post/plot.png" alt="A plot of it" title="A plot of it">' in html
    )


def test_a_post_link_to_no_post_warns_at_the_tag():
    _, state = render("Text {% post_link missing %} here.\n")
    assert [str(d) for d in state.diagnostics] == [
        "content/posts/my-post.md:1:6: warning: `{% post_link missing %}`: no published post "
        "is named `missing` (looked for content/posts/missing.md (or another Markdown ending),"
        " content/posts/missing/index.md; a draft or a post dated in the future is not "
        "published); fix the name or link to the post's file: `[text](other.md)`"
    ]


def test_hexos_link_tag_is_a_link_and_jekylls_link_tag_still_names_a_file():
    html, state = render(
        "See {% link Hexo docs https://hexo.io/docs/ true The docs %} and "
        "{% link _posts/other-post.md %}.\n"
    )
    assert '<a href="https://hexo.io/docs/">Hexo docs</a>' in html
    assert "and /posts/other-post/." in html  # Jekyll's link: the path without the base
    assert state.diagnostics == []


def test_a_codeblock_with_an_empty_lang_names_no_unknown_language():
    """`{% codeblock lang: X86-64 Assembly %}`: the language is empty, the words a title;
    the line numbers Hexo adds were once read as a language 'linenos'."""
    html, diagnostics = render_post(
        "{% codeblock lang: X86-64 Assembly %}\nmov\n{% endcodeblock %}\n"
    )
    assert diagnostics == []
    assert '<figcaption class="code-title">X86-64 Assembly</figcaption>' in html
    assert 'class="language-text"' in html
