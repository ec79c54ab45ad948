"""Images without a text alternative: the one rule for Markdown images and raw `<img>`.

An image that says something needs a text alternative (WCAG 1.1.1): without it a screen
reader reads nothing, or the file's name, and a browser shows nothing in its place when it
does not load. The Nu Html Checker rejects an `<img>` without `alt` ("An img element must
have an alt attribute"); markdownlint's MD045 and eslint-markdown's `require-alt-text`
report `![](plot.png)` too. An image that is only decoration says so: `alt=""` in HTML, or
`aria-hidden="true"`, `role="presentation"`/`"none"` (axe-core's `image-alt` accepts them);
Markdown has no such mark, so its fix is the raw tag. The warnings are given where each
kind is read: `images.image_sizes` (Markdown images, at their source) and
`rawhtml.rewrite_html` (raw tags, at the tag), one of each kind a post at its first image,
naming the lines of the others (`RenderState.warn_each`: a post of 40 screenshots said one
thing 40 times).
"""

from __future__ import annotations

from markdown_it.token import Token

from postil.markdown.state import named_lines


def no_alt_html(lines: list[int]) -> str:
    """Return the warning at the raw `<img>` tags without `alt` on file `lines` of a post."""
    many = len(lines) > 1
    which = f"{len(lines)} `<img>` tags ({named_lines(lines)}) have" if many else "`<img>` has"
    return (
        f"{which} no `alt` attribute: a screen reader reads its file name or "
        "nothing, and a browser shows nothing in its place when it does not load; describe "
        'the image, `alt="a plot of the loss"`, or write `alt=""` for an image that is only '
        "decoration"
    )


DECORATIVE = frozenset({("aria-hidden", "true"), ("role", "presentation"), ("role", "none")})
"""Attributes that mark an `<img>` as decoration without `alt`."""


def without_alt(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Tell whether a raw start tag named `tag` is an `<img>` with no `alt` attribute and no
    mark of decoration (`DECORATIVE`); `alt=""` is an author's decorative image."""
    if tag.lower() != "img" or any(name == "alt" for name, _ in attrs):
        return False
    return not {(name, (value or "").strip().lower()) for name, value in attrs} & DECORATIVE


def alt_text(image: Token) -> bool:
    """Tell whether a Markdown `image` token has alt text: words in its brackets, or
    Quarto's `fig-alt` (`data-fig-alt`, which the figure plugin writes as its alt)."""
    if image.attrs.get("data-fig-alt"):
        return True
    return any(child.content.strip() for child in image.children or ())


SHOWN_SOURCE = 60
"""The most characters of an image's source a warning shows: a `data:` URI (an R Markdown
post's GIF inlined in base64) runs to thousands."""


def no_alt_markdown(written: str, lines: list[int]) -> str:
    """Return the warning at the Markdown images without alt text on file `lines` of a
    post, the first's source as `written` (clipped to `SHOWN_SOURCE` characters)."""
    if len(written) > SHOWN_SOURCE:
        written = written[:SHOWN_SOURCE] + "…"
    more = len(lines) - 1
    first = f"image `{written}` has"
    which = f"image `{written}` and {more} more ({named_lines(lines)}) have" if more else first
    return (
        f"{which} no alt text: a screen reader reads nothing for such an image, and a "
        "browser shows nothing in its place when it does not load; describe it in the "
        f"brackets, `![a plot of the loss]({written})`, or, for an image that is only "
        f'decoration, write `<img src="{written}" alt="">`'
    )
