"""WordPress' `[caption]` shortcode, as posts exported from WordPress still write it.

WordPress wraps a captioned image in `[caption id="attachment_657" align="aligncenter"
width="300"]<img src="a.png" alt="A" /> The caption.[/caption]`; its `img_caption_shortcode`
(wp-includes/media.php) shows a figure of the image (a link around it kept) with the text
after the image as the caption, or, as WordPress before 3.4 wrote it, the `caption="…"`
attribute. An export's HTML-to-Markdown converter may have made the image Markdown
(`[![A](a.png)](a-full.png)`, after Jekyll's `{{ site.baseurl }}` when the export
went to Jekyll) and escaped the attributes' `_`. Without this rule the
shortcode's brackets and attributes show as text around the image.

A `[caption …]…[/caption]` starting a paragraph (up to a blank line) becomes an unnumbered
figure (`figure.push_figure`): the image (HTML `<img>` or Markdown, its link left out: the
figure shows the image itself), its `width` and `height`, and the caption as Markdown. One
whose content holds no image is a warning at its line, naming what to write instead, and
stays text.
"""

from __future__ import annotations

import re
from html import unescape

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.figure import push_figure
from postil.markdown.liquidinclude import SITE_ROOT
from postil.markdown.state import get_state

SHORTCODE = re.compile(r"\[caption(\s[^\]]*)?\](.*?)\[/caption\]\s*", re.DOTALL)
"""The shortcode: its attributes, its content."""

ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
"""One `name="value"` of a shortcode or an HTML tag (quoted either way, or bare)."""

HTML_IMAGE = re.compile(r"\s*(?:<a\s[^>]*>\s*)?<img\s([^>]*?)/?>\s*(?:</a>)?", re.IGNORECASE)
"""An `<img>` (in a link, as WordPress' editor writes a linked image)."""

MARKDOWN_IMAGE = re.compile(
    r"\s*(\[)?!\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
    r"(?(1)\]\([^)]*\))"
)
"""A Markdown image, or a linked one (`[![A](a.png)](a-full.png)`), as converters write."""


def _attributes(text: str) -> dict[str, str]:
    """Return the `name="value"` attributes in `text`, names in lower case, values with
    HTML's character references decoded."""
    return {
        m.group(1).lower(): unescape(next(v for v in m.groups()[1:] if v is not None))
        for m in ATTRIBUTE.finditer(text)
    }


def caption_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a `[caption]` shortcode starting a paragraph, as a figure (module doc)."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    if not state.src.startswith("[caption", begin):
        return False
    last = start_line
    while last + 1 < end_line and not state.isEmpty(last + 1):
        last += 1
    text = state.src[begin : state.eMarks[last]]
    found = SHORTCODE.fullmatch(text)
    if found is None:
        return False
    if silent:
        return True
    options = _attributes(found.group(1) or "")
    content = found.group(2)
    image = HTML_IMAGE.match(content)
    if image is None:  # Jekyll's `{{ site.baseurl }}/a.png` is the site's root
        content = SITE_ROOT.sub("", content)
    markdown = None if image else MARKDOWN_IMAGE.match(content)
    if image is None and markdown is None:
        get_state(state.env).warn(
            start_line,
            state.sCount[start_line] + 1,
            "WordPress' `[caption]` holds no image here, so it is shown as written; "
            "write the image as `![caption](file.png)` and the caption under it, or remove "
            "the `[caption]` tags",
        )
        return False
    if image is not None:
        tag = _attributes(image.group(1))
        # `alt=""` is the author's: a decorative image, not read twice with its caption
        alt: str | None = tag.get("alt")
        src, rest = tag.get("src", ""), content[image.end() :]
        sizes = {key: tag[key] for key in ("width", "height") if tag.get(key, "").isdigit()}
    else:
        assert markdown is not None
        src, alt, rest, sizes = markdown.group(3), markdown.group(2), content[markdown.end() :], {}
        alt = alt or None  # `![](a.png)`: no text of its own, the caption gives it
    caption = options.get("caption") or rest.strip()
    push_figure(state, start_line, src, caption, alt=alt, attrs=sizes)
    state.tokens[-3].meta["figure"]["numbered"] = False
    state.tokens[-3].map = [start_line, last + 1]
    state.line = last + 1
    return True


def wpcaption_plugin(md: MarkdownIt) -> None:
    """Read WordPress' `[caption]…[/caption]` as a figure with its caption."""
    md.block.ruler.before("paragraph", "wp_caption", caption_block)
