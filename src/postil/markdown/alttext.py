"""Images without a text alternative: the one rule for Markdown images and raw `<img>`.

An image that says something needs a text alternative (WCAG 1.1.1): without it a screen
reader reads nothing, or the file's name, and a browser shows nothing in its place when it
does not load. The Nu Html Checker rejects an `<img>` without `alt` ("An img element must
have an alt attribute"); markdownlint's MD045 and eslint-markdown's `require-alt-text`
report `![](plot.png)` too. An image that is only decoration says so: `alt=""` in HTML, or
`aria-hidden="true"`, `role="presentation"`/`"none"` (axe-core's `image-alt` accepts them);
Markdown has no such mark, so its fix is the raw tag. The warnings are given where each
kind is read: `images.image_sizes` (Markdown images, at their source) and
`rawhtml.rewrite_html` (raw tags, at the tag).
"""

from __future__ import annotations

from markdown_it.token import Token

NO_ALT_HTML = (
    "`<img>` has no `alt` attribute: a screen reader reads its file name or nothing, and a "
    "browser shows nothing in its place when it does not load; describe the image, "
    '`alt="a plot of the loss"`, or write `alt=""` for an image that is only decoration'
)
"""The warning at a raw `<img>` without `alt`."""

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


def no_alt_markdown(written: str) -> str:
    """Return the warning at a Markdown image without alt text, its source as `written`."""
    return (
        f"image `{written}` has no alt text: a screen reader reads nothing for it, and a "
        "browser shows nothing in its place when it does not load; describe it in the "
        f"brackets, `![a plot of the loss]({written})`, or, for an image that is only "
        f'decoration, write `<img src="{written}" alt="">`'
    )
