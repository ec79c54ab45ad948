"""Jekyll themes' figure and video includes: `{% include figure.liquid path=… %}` and kin.

Jekyll themes give posts their images and videos through includes, which postil (having no
template language in posts) cannot run. The common ones are read for what they show:

    {% include figure.liquid path="assets/img/9.jpg" class="img-fluid rounded" caption="A" %}
    {% include figure image_path="/assets/images/x.png" alt="X" caption="The *X*." %}
    {% include image.html url="/images/a.png" description="A caption" %}
    {% include video.liquid path="https://www.youtube.com/embed/jNQXAC9IVRw" %}
    {% include video id="XsxDH4HcOWA" provider="youtube" %}

- `figure` and `image` includes (al-folio's `figure.liquid`/`figure.html`, Minimal Mistakes'
  `figure`, the `image.html` of many blogs) show one image: its source from `path`,
  `image_path`, `url`, `file`, `src` or `img`; its caption from `caption` or `description`;
  `alt`, `class`, `width`, `height`, `title` (the image's, as al-folio's). A source without
  `/` first or a scheme is the site's root (`assets/img/9.jpg`: the themes write
  `{{ include.path | relative_url }}`), and `{{ site.baseurl }}`/`{{ site.url }}` in it mean
  that root too. On a line of its own it is a numbered figure like `![](…)`'s
  (`postil.markdown.figure.push_figure`); inside raw HTML (al-folio's `<div class="row">` of
  images) a `<figure>` of the image and its caption, checked as raw HTML's `src` is.
- `video` includes (al-folio's `path`, Minimal Mistakes' `id` with `provider`, Chirpy's
  `embed/video.html` with `src`, whose `title` Chirpy shows under the player) are the
  players of `postil.markdown.embed`.
- includes that load MathJax or KaTeX (`{% include mathjax.html %}`, `katex.html`) are left
  out without a word: postil's math is typeset at build time.

Any other include stays a warning naming it (`postil.markdown.liquid`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape
from types import MappingProxyType

from markdown_it.rules_block import StateBlock

from postil.markdown.embed import push_video, video_html
from postil.markdown.figure import push_figure
from postil.markdown.mathloader import LOADER_URL
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import Tag, shortcode_params

FIGURES = frozenset({"figure", "image", "img"})
"""Include names (without extension) that show one image."""

VIDEOS = frozenset({"video"})
"""Include names that embed a video."""

SOURCES = ("path", "image_path", "url", "file", "src", "img")
CAPTIONS = ("caption", "description")
NO_IMAGE = (
    "`{raw}` names no image, so it is left out; give its path: "
    '`{{% include figure.liquid path="assets/img/plot.png" caption="…" %}}`'
)
"""The warning for a figure include without a source."""
SITE_ROOT = re.compile(r"\{\{-?\s*site\.(?:url|baseurl)\s*-?\}\}")
"""Liquid outputs of the site's origin or base path, which mean the site's root here."""


def include_name(tag: Tag) -> str:
    """Return the name of an `include` tag's file without extension (`figure.liquid` →
    `figure`), or "" for any other tag."""
    if tag.kind != "tag" or tag.name != "include":
        return ""
    file = tag.args.split(maxsplit=1)[0] if tag.args.split() else ""
    return file.rsplit("/", 1)[-1].split(".", 1)[0]


def readable(tag: Tag) -> bool:
    """Return True when the tag is an include this module reads (a figure, a video, or the
    page's MathJax or KaTeX)."""
    name = include_name(tag)
    return name in FIGURES | VIDEOS or (bool(name) and LOADER_URL.search(name) is not None)


def math_loader(tag: Tag) -> bool:
    """Return True for an include that loads MathJax or KaTeX (`{% include mathjax.html %}`):
    postil's math is typeset already, so it is left out without a word
    (`postil.markdown.mathloader`)."""
    return LOADER_URL.search(include_name(tag)) is not None


def push_include(state: StateBlock, line: int, tag: Tag) -> None:
    """Push the figure or player of an include written on body line `line`, alone."""
    if math_loader(tag):
        return
    params = _params(tag, state.env.get(CAPTURED, {}))
    if include_name(tag) in VIDEOS:
        source, provider = _video_source(params)
        if tag.args.startswith("embed/") and params.get("title"):  # Chirpy's `embed/video.html`
            params["caption"] = params["title"]  # shows its title under the player
        push_video(state, line, tag, source, params, provider)
        return
    source, caption, alt, classes, attrs = _figure(params)
    if not source:
        get_state(state.env).warn(line, 1, NO_IMAGE.format(raw=tag.raw))
        return
    push_figure(state, line, source, caption, alt=alt or None, classes=classes, attrs=attrs)


def include_html(tag: Tag) -> str | None:
    """Return the HTML of an include inside raw HTML: a `<figure>` of its image and caption
    or a player ("" for MathJax or KaTeX); None when it names no image or video."""
    if math_loader(tag):
        return ""
    params = _params(tag)
    if include_name(tag) in VIDEOS:
        source, provider = _video_source(params)
        return video_html(source, provider, params.get("title", ""), params.get("start", ""))
    source, caption, alt, classes, attrs = _figure(params)
    if not source:
        return None
    extra = "".join(f' {name}="{escape(value)}"' for name, value in attrs.items())
    kept = f' class="{escape(" ".join(classes))}"' if classes else ""
    image = f'<img src="{escape(source)}" alt="{escape(alt or caption)}"{kept}{extra}>'
    text = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="figure">{image}{text}</figure>'


CAPTURED = "_liquid_captured"
"""`env` key: Liquid variables a `{% capture name %}` set, by name (`liquid.liquid_block`)."""
BARE_VALUE = re.compile(r"(?:^|\s)([A-Za-z_][\w-]*)=([A-Za-z_][\w.-]*)(?=\s|$)")
"""An include parameter whose value is a variable's name (`caption=caption`), not a text."""


def _params(tag: Tag, variables: Mapping[str, str] = MappingProxyType({})) -> dict[str, str]:
    """Return an include's named parameters, the site's root outputs taken out; a value
    written as a variable's name (`caption=caption`) is that variable's text when a
    `{% capture %}` set it (Liquid's rule), else as written."""
    _, _, rest = tag.args.strip().partition(" ")
    _, named = shortcode_params(rest)
    for key, name in BARE_VALUE.findall(rest) if variables else ():
        named[key] = variables.get(name, named[key])
    return {key: SITE_ROOT.sub("", value) for key, value in named.items()}


def _figure(params: dict[str, str]) -> tuple[str, str, str, list[str], dict[str, str]]:
    """Return (source, caption, alt, classes, image attributes) of a figure include."""
    source = next((params[key] for key in SOURCES if params.get(key)), "")
    if source and not source.startswith("/") and "://" not in source:
        source = "/" + source  # the themes write `{{ include.path | relative_url }}`
    caption = next((params[key] for key in CAPTIONS if params.get(key)), "")
    attrs = {name: params[name] for name in ("width", "height", "title") if params.get(name)}
    return source, caption, params.get("alt", ""), params.get("class", "").split(), attrs


def _video_source(params: dict[str, str]) -> tuple[str, str]:
    """Return (source, provider) of a video include: al-folio's `path` or Minimal Mistakes'
    `id` with its `provider`."""
    provider = params.get("provider", "").lower()
    if params.get("id") and provider in ("youtube", "vimeo"):
        return params["id"], provider
    source = params.get("path") or params.get("src") or params.get("url") or ""
    if source and not source.startswith("/") and "://" not in source:
        source = "/" + source
    return source, "video"
