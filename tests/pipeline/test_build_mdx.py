"""MDX posts (`.mdx`, Docusaurus and Astro blogs) built as posts (`postil.markdown.mdx`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from support.blog import build_into, build_site, make_site, page

from postil.markdown import create_markdown
from postil.markdown.state import RenderState

STATIC = Path(__file__).resolve().parents[2] / "static"

POST = """---
title: Softmax in MDX
date: 2024-05-01
slug: softmax-mdx
tags: [math]
---

import Tabs from '@theme/Tabs';
export const answer = 42;

The summary with $x$.

{/* truncate */}

After the break, ![plot](./plot.svg) and {answer}.

<Tabs>
<TabItem value="a" label="A">

Tab **A**.

</TabItem>
</Tabs>

<Chart data={[1, 2]} />
"""


def blog(tmp_path: Path) -> Path:
    root = make_site(tmp_path / "site", {})
    folder = root / "content/posts/2024-05-01-softmax"
    folder.mkdir(parents=True)
    (folder / "index.mdx").write_text(POST, encoding="utf-8")
    shutil.copy(STATIC / "favicon.svg", folder / "plot.svg")
    return root


def test_an_mdx_post_builds_with_its_tabs_image_and_summary_break(tmp_path):
    out = build_into(blog(tmp_path))
    doc = page(out, "posts/softmax-mdx/index.html")
    body = doc.xpath('//div[@class="post-body"]')[0]
    assert [t.text_content() for t in body.xpath('.//p[@class="tab-title"]')] == ["A"]
    assert body.xpath(".//img/@src") == ["/blog/posts/softmax-mdx/plot.svg"]
    assert "import" not in body.text_content() and "export" not in body.text_content()
    index = page(out, "index.html").text_content()
    assert "The summary with" in index and "After the break" not in index
    assert not (out / "posts/softmax-mdx/index.mdx").exists()


def test_what_mdx_cannot_show_is_one_warning_each_at_its_place(tmp_path):
    warnings = [str(w) for w in build_site(blog(tmp_path)).warnings]
    where = "content/posts/2024-05-01-softmax/index.mdx"
    assert [w.split(": warning: ")[0] for w in warnings] == [
        f"{where}:15:42",  # {answer}, naming its export
        f"{where}:25:1",  # <Chart />
    ]
    assert "`{answer}` uses `answer`, exported at line 9" in warnings[0]
    assert "MDX component `<Chart />`" in warnings[1]


def test_the_same_lines_in_a_markdown_post_keep_commonmarks_reading():
    # an import that does not open the body, of no Docusaurus module: not read as MDX
    source = "Intro.\n\nimport x from 'y';\n\nA {'<'} and {/* c */}.\n\n<Tabs>\n"
    html = create_markdown().render(source, {"postil": RenderState(path="p.md")})
    assert html == (
        "<p>Intro.</p>\n<p>import x from 'y';</p>\n<p>A {'&lt;'} and {/* c */}.</p>\n<Tabs>\n"
    )


def test_other_generators_summary_breaks_are_the_summary_break():
    for marker in (
        "<!-- more -->",
        "<!-- truncate -->",
        "<!--MORE-->",
        "<!-- PELICAN_END_SUMMARY -->",
    ):
        source = f"First.\n\n{marker}\n\nSecond.\n"
        html = create_markdown().render(source, {"postil": RenderState(path="p.md")})
        assert "<!--more-->" in html, marker
