"""Images without alt text: one warning rule for Markdown images and raw `<img>` tags
(`postil.markdown.alttext`), one warning of each kind a post at its first image naming the
lines of all, decorative images left alone."""

from __future__ import annotations

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def warnings_of(body: str, path: str = "content/posts/here.md") -> list[str]:
    state = RenderState(path=path, base_path="/blog/", body_line=5)
    state.source_lines = body.split("\n")
    render_markdown(create_markdown(), body, state)
    found = sorted(state.diagnostics, key=lambda d: d.location)
    return [f"{d.location.line}:{d.location.col} {d.message.split(': a screen')[0]}" for d in found]


def test_a_raw_img_without_alt_warns_at_the_tag_in_blocks_and_paragraphs():
    body = (
        '<img src="plot.png" width="300">\n\n'
        "Text <img src=\"a.png\"> and <img src='a.png'\n  width=3> and <IMG SRC=b.png>.\n\n"
        '<div>\n  <img src="a.png">\n  <img src="a.png">\n</div>\n'
    )
    assert warnings_of(body) == [  # two on line 7; the same tag again on line 12: its own
        "5:1 6 `<img>` tags (lines 5, 7, 8, 11, 12) have no `alt` attribute"
    ]


def test_the_raw_img_warning_says_how_to_fix_it():
    state = RenderState(path="content/posts/here.md")
    render_markdown(create_markdown(), '<img src="x.png">\n', state)
    assert [d.message for d in state.diagnostics] == [
        "`<img>` has no `alt` attribute: a screen reader reads its file name or nothing, and a "
        "browser shows nothing in its place when it does not load; describe the image, "
        '`alt="a plot of the loss"`, or write `alt=""` for an image that is only decoration'
    ]


@pytest.mark.parametrize(
    "body",
    [
        '<img src="x.png" alt="A plot">\n',
        '<img src="divider.png" alt="">\n',  # decorative, as HTML says it
        "<img src=divider.png alt>\n",  # an empty alt written bare
        '<img src="x.png" aria-hidden="true">\n',
        '<img src="x.png" role="presentation"> <img src="y.png" role=none>\n',
        '`<img src="x.png">`\n\n    <img src="y.png">\n',  # code, not HTML
        '<svg><image href="x.png"/></svg>\n',
        '<imgs src="x"></imgs> <image src="x">\n',  # no img element
        "![A plot](x.png) ![`f(x)` against $x$](y.png)\n",
    ],
)
def test_images_with_alt_text_or_marked_decorative_do_not_warn(body):
    assert [w for w in warnings_of(body) if "alt" in w] == []


def test_a_markdown_image_without_alt_text_warns_at_its_source():
    body = (
        "Intro ![](plot.png) and ![ ](b.png).\n\n"
        "[![](https://img.shields.io/badge.svg)](https://x.org)\n\n"
        "![][ref]\n\n[ref]: c.png\n"
    )
    assert warnings_of(body) == [  # a reference image (line 9): at the image
        "5:11 image `plot.png` and 3 more (lines 5, 7, 9) have no alt text"
    ]
    assert warnings_of("![](a.png)\n") == ["5:5 image `a.png` has no alt text"]  # at `a.png`


def test_the_markdown_image_warning_says_how_to_fix_it_in_markdown_or_as_decoration():
    state = RenderState(path="content/posts/here.md")
    render_markdown(create_markdown(), "![](plot.png)\n", state)
    assert [d.message for d in state.diagnostics] == [
        "image `plot.png` has no alt text: a screen reader reads nothing for such an image, and a "
        "browser shows nothing in its place when it does not load; describe it in the "
        "brackets, `![a plot of the loss](plot.png)`, or, for an image that is only "
        'decoration, write `<img src="plot.png" alt="">`'
    ]


def test_a_quarto_figure_with_fig_alt_and_a_made_figure_do_not_warn():
    body = '![](x.png){fig-alt="A plot"}\n\n{{< figure src="y.png" caption="A caption" >}}\n'
    assert [w for w in warnings_of(body) if "alt text" in w] == []


def test_an_inlined_data_uri_is_clipped_in_the_warning():
    """An R Markdown post's GIF inlined as base64 is thousands of characters long."""
    uri = "data:image/gif;base64," + "R0lGODlh" * 500
    (warning,) = warnings_of(f"![]({uri})\n")
    assert warning == f"5:5 image `{uri[:60]}…` has no alt text"
    assert warnings_of("![](https://example.org/a/b/c/plot.png)\n") == [
        "5:5 image `https://example.org/a/b/c/plot.png` has no alt text"  # short: whole
    ]
