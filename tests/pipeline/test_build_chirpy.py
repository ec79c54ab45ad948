"""A post moved from Jekyll's Chirpy theme builds whole: prompts, sized and captioned images
read from its `media_subpath:`, images for one colour scheme, a code block's file name."""

from __future__ import annotations

from functools import partial

from lxml import html as lxml_html
from PIL import Image
from support import sites

from postil.build import BuildOptions, build

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/blog/\n"
make_site = partial(sites.make_site, config=CONFIG)

CHIRPY = (
    "---\ntitle: Chirpy\ndate: 2024-01-02\nmath: true\nmedia_subpath: /assets/img/post\n---\n"
    "> A tip with $x^2$.\n{: .prompt-tip }\n\n"
    '![Desktop](desktop.png){: w="350" }\n_The desktop view_\n\n'
    "![Day](day.png){: .light }\n![Night](night.png){: .dark }\n\n"
    "```sass\n@import 'x';\n```\n{: file='_sass/main.scss' }\n\n"
    "![Missing](missing.png)\n\n![Up](../shared.png)\n"
)


def test_a_chirpy_post_renders_its_prompt_figure_scheme_images_and_file_name(tmp_path):
    root = make_site(tmp_path / "site", {"chirpy.md": CHIRPY})
    images = root / "static/assets/img/post"
    images.mkdir(parents=True)
    for name in ("desktop", "day", "night"):
        Image.new("RGB", (700, 400), "gray").save(images / f"{name}.png")
    Image.new("RGB", (70, 40), "gray").save(images.parent / "shared.png")
    result = build(BuildOptions(root=root))
    assert [str(w).split(": warning: ")[0] for w in result.warnings] == [
        "content/posts/chirpy.md:21:12"
    ]
    assert "/assets/img/post/missing.png" in str(result.warnings[0])
    page = lxml_html.fromstring((root / "_site/posts/chirpy/index.html").read_bytes())
    post = page.find_class("post-body")[0]
    assert [a.get("class") for a in post.iter("aside")] == ["callout callout-tip"]
    figure = post.find_class("figure")[0]
    img = figure.find("img")
    assert img.get("src") == "/blog/assets/img/post/desktop.png"
    assert (img.get("width"), img.get("height")) == ("350", "200")  # the file's ratio
    assert figure.find("figcaption").text_content() == "The desktop view"
    classes = {i.get("alt"): i.get("class") for i in post.iter("img")}
    assert classes["Day"] == "light only-light" and classes["Night"] == "dark only-dark"
    assert post.find_class("code-title")[0].text == "_sass/main.scss"
    assert post.xpath('//img[@alt="Up"]')[0].get("src") == "/blog/assets/img/shared.png"
