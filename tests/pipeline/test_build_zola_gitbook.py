"""A post moved from Zola (TOML front matter, shortcodes) and one from GitBook build whole."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from support import sites
from support.images import PNG

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)

ZOLA = (
    '+++\ntitle = "Zola katex"\ndate = 2024-01-06\n+++\n'
    'Inline {{ katex(body="\\KaTeX") }} and a block:\n\n'
    "{% katex(block=true) %}\n\\int_0^1 x\\,dx = \\tfrac12\n{% end %}\n\n"
    '{% admonition(type="warning", title="Careful") %}\nThe sign of $x$ matters.\n{% end %}\n\n'
    '{{ figure(src="plot.png", caption="The plot.") }}\n\n'
    'Shown as written: `{{/* katex(body="x") */}}`.\n\n'
    '{% chat(speaker="jim") %}\nKept.\n{% end %}\n'
)

GITBOOK = (
    "---\ntitle: GitBook\ndate: 2024-01-07\n---\n"
    '{% hint style="info" %}\nThe gradient is $$\\nabla f$$ here.\n{% endhint %}\n\n'
    '{% tabs %}\n{% tab title="Python" %}\n```python\nprint(1)\n```\n{% endtab %}\n'
    '{% tab title="Rust" %}\n```rust\nfn main() {}\n```\n{% endtab %}\n{% endtabs %}\n\n'
    '{% code title="grad.py" lineNumbers="true" %}\n```python\ng = 1\n```\n{% endcode %}\n\n'
    '{% embed url="https://youtu.be/dQw4w9WgXcQ" %}\n'
)


def body(root, slug):
    page = lxml_html.fromstring((root / f"_site/posts/{slug}/index.html").read_bytes())
    return page.find_class("post-body")[0]


def test_a_zola_post_renders_its_math_callout_and_figure_and_reports_the_theme_shortcode(
    tmp_path,
):
    root = make_site(tmp_path / "site", {"zola/index.md": ZOLA})
    (root / "content/posts/zola/plot.png").write_bytes(PNG)
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/zola/index.md:19:1"
    ]
    assert 'Zola shortcode `{% chat(speaker="jim") %}` is the theme\'s' in str(result.warnings[0])
    post = body(root, "zola")
    assert len(post.xpath(".//math[@display='inline']")) == 2  # \KaTeX and $x$
    assert len(post.xpath(".//math[@display='block']")) == 1
    assert post.xpath(".//aside[contains(@class, 'callout-warning')]//strong/text()") == ["Careful"]
    assert post.xpath(".//figure[@class='figure']/img/@src") == ["/blog/posts/zola/plot.png"]
    assert post.xpath(".//code/text()") == ['{{ katex(body="x") }}']
    assert "Kept." in post.text_content()
    text = post.text_content()
    assert "{%" not in text and text.count("katex(") == 1  # only the escaped one


def test_a_gitbook_post_renders_hint_tabs_code_caption_and_player_without_warnings(tmp_path):
    root = make_site(tmp_path / "site", {"gitbook.md": GITBOOK})
    result = build(BuildOptions(root=root))
    assert [str(w) for w in result.warnings] == []
    post = body(root, "gitbook")
    assert post.xpath(".//aside[contains(@class, 'callout-note')]//math/@display") == ["inline"]
    assert post.xpath(".//div[@class='tabset']/div[@class='tab']/p/text()") == ["Python", "Rust"]
    assert post.xpath(".//figcaption[@class='code-title']/text()") == ["grad.py"]
    assert post.xpath(".//span[@class='linenos']/text()") == ["1"]
    assert post.xpath(".//figure[@class='video']/iframe/@src") == [
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"
    ]
    assert "{%" not in post.text_content()
