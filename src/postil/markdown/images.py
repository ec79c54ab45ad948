"""Images with their intrinsic size, loaded lazily below the first one."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.alttext import alt_text, no_alt_markdown
from postil.markdown.state import RenderState, get_state

_PIXELS = re.compile(r"[0-9]+")


def images_plugin(md: MarkdownIt) -> None:
    """Give every Markdown image its size and a loading hint.

    Syntax (CommonMark images; sizes with the attributes plugin)::

        ![Loss](loss.png)                  → <img … width="800" height="600" decoding="async">
        ![Loss](loss.png){width=400}       → width="400" height="300" (the file's ratio)
        ![Loss](loss.png){width=60%}       → style="width:60%" width="800" height="600"

    - `width` and `height` come from the image file (`RenderState.sizes`, measured by
      `postil.images` for every static file and content asset), so the browser reserves
      the image's box before it loads and the page does not shift. A width or height given
      in pixels is kept and the other one follows from the file's aspect ratio; one given
      in other units is CSS (attributes plugin) and the file's size stays as the ratio.
      An image whose file cannot be measured, or is not the site's, gets no size.
    - Every image that will load (one of the site's images, measured, or one on another
      host) gets `decoding="async"`, and every such image but the post's first
      `loading="lazy"`; an image whose file is missing (a warning of the reference check)
      gets neither. The first is often on the first screen and the largest thing
      there, and lazy-loading it would delay the Largest Contentful Paint (web.dev,
      "The performance effects of too much lazy loading").
    - `state.extra["images"]` receives each image's output rel (or its URL when it is on
      another host), in order, for the page's social image.

    - An image for one colour scheme (Chirpy's `{: .dark }`/`{: .light }`, GitHub's
      `#gh-dark-mode-only`, MkDocs Material's `#only-dark`) gets the class `only-dark` or
      `only-light`: shown only in that scheme.

    CSS classes: only-dark, only-light (article.css).
    """
    md.core.ruler.after("rawhtml", "image_sizes", image_sizes)


def image_sizes(state: StateCore) -> None:
    """Set size and loading attributes on every `image` token, in document order (a
    figure's made by `figure.push_figure` included), and list the Markdown images' files
    (`RenderedMarkdown.images`, the candidates for the post's card image; a made figure's
    is not among them, as before it was sized)."""
    render_state = get_state(state.env)
    found: list[str] = render_state.extra.setdefault("images", [])
    loaded = render_state.groups.carry.get("images_loaded", 0)  # from earlier parse groups
    for block in state.tokens:
        # a figure a shortcode or tag made (`figure.push_figure`) holds its image in meta
        made = block.meta.get("image") if block.type == "figure_open" and block.meta else None
        images = [made] if isinstance(made, Token) else []
        images += [token for token in block.children or () if token.type == "image"]
        for token in images:
            if token is not made and not alt_text(token):
                written, line0, col = token.meta.get("place", (token.attrs.get("src"), None, 0))
                message = partial(no_alt_markdown, str(written))
                render_state.warn_each("markdown image alt", line0, col, message)
            _color_scheme(token)
            _size(render_state, token)
            ref = _image_ref(token)
            if ref in render_state.sizes or urlsplit(ref).scheme:
                if loaded:
                    token.attrs["loading"] = "lazy"
                token.attrs["decoding"] = "async"
                loaded += 1
            if token is not made:
                found.append(ref)
    render_state.groups.carry["images_loaded"] = loaded


SCHEME_CLASSES = {"dark": "only-dark", "light": "only-light"}
"""Chirpy's classes of an image for one colour scheme ("Writing a New Post": Dark/Light mode)."""

SCHEME_FRAGMENTS = {
    "gh-dark-mode-only": "only-dark",
    "gh-light-mode-only": "only-light",
    "only-dark": "only-dark",
    "only-light": "only-light",
}
"""The URL fragments that mark an image for one colour scheme: GitHub's (its "Specifying the
theme an image is shown to") and MkDocs Material's ("Images": Light and dark mode)."""


def _color_scheme(token: Token) -> None:
    """Give an image meant for one colour scheme the class `only-dark` or `only-light`,
    which article.css hides in the other scheme (the reader's or the one the theme's
    toggle chose)."""
    classes = str(token.attrs.get("class", "")).split()
    fragment = str(token.attrs.get("src", "")).rpartition("#")[2]
    scheme = SCHEME_FRAGMENTS.get(fragment) or next(
        (SCHEME_CLASSES[name] for name in classes if name in SCHEME_CLASSES), None
    )
    if scheme is not None and scheme not in classes:
        token.attrs["class"] = " ".join([*classes, scheme])


def _size(render_state: RenderState, token: Token) -> None:
    """Set `width` and `height` from the image file, keeping a size given in pixels."""
    rel = token.meta.get("file") if token.meta else None
    size = render_state.sizes.get(rel) if isinstance(rel, str) else None
    if size is None:
        return
    natural_w, natural_h = size
    width, height = _pixels(token.attrs.get("width")), _pixels(token.attrs.get("height"))
    if width and height:
        return
    if width:
        height = round(width * natural_h / natural_w)
    elif height:
        width = round(height * natural_w / natural_h)
    else:
        width, height = natural_w, natural_h
    token.attrs["width"], token.attrs["height"] = str(width), str(height)


def _pixels(value: object) -> int | None:
    """Return an attribute value in whole pixels (`400`), or None."""
    return int(value) if isinstance(value, str) and _PIXELS.fullmatch(value) else None


def _image_ref(token: Token) -> str:
    """Return an image's output rel, or its source when that is on another host."""
    rel = token.meta.get("file") if token.meta else None
    if isinstance(rel, str):
        return rel
    src = str(token.attrs.get("src", ""))
    return src if urlsplit(src).scheme in ("http", "https") else ""
