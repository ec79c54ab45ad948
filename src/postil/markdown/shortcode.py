"""Hugo shortcodes in posts moved from Hugo: the ones postil has a feature for, and a warning.

Hugo expands `{{< name args >}}` (and `{{% name args %}}`, whose output is Markdown) before
rendering; postil reads the shortcodes it has an equivalent for:

- `figure` → a numbered postil figure (`src`, `alt`, `caption`, `title`, `class`, `width`,
  `height`; the others are reported);
- `highlight` → a code block (`linenos`, `hl_lines`); its code may begin on the opening
  tag's line and end on the closing tag's, as Hugo reads it;
- `mermaid` (LoveIt, DoIt, Hugo Book, Docsy) → a Mermaid diagram (`postil.markdown.diagram`);
- `rawhtml`, `raw`, `html`, `math` → their content, parsed as the rest of the post (the
  wrapper goes); a `math` holding bare TeX, no `$$`, is a formula (hugo-theme-fuji's: display,
  inline with `inline`; `postil.markdown.math`);
- the callouts of popular themes (`callout`, `hint`, `alert`, `notice`, `admonition`:
  `CALLOUTS`) → a postil callout of their kind and title; `spoiler`, `details`, `expand`
  (`FOLDS`) → a folded callout under their title; also opened and closed on one line
  around their text (`{{< spoiler text="…" >}} answer {{< /spoiler >}}`);
- `tabs`/`tabpane` around `tab`s (Hugo Book, Hextra, Docsy) → postil's content tabs
  (`postil.markdown.shortcodetabs`);
- `quote` (Hugo Stack's, Hugo Blox's `blockquote`) → a block quote of its content, with
  its `author`, `source` (linked to `url`) as a `― author, source` line under it;
- `katex` (Hugo Book) → math, display with `display` or `display=true`
  (`postil.markdown.math`); alone without a closing tag (Hugo Book's `{{< katex />}}`,
  Blowfish's `{{< katex >}}`, which only load KaTeX on the page) it is read without a word;
- `toc` → the post's table of contents, where kramdown's `{:toc}` puts it
  (`postil.markdown.toc`; its parameters change nothing);
- `ref`, `relref` → the URL of the post or page they name (`postil.markdown.template`);
- blogdown's `blogdown/postref` → nothing: knitted R Markdown writes it before a path
  relative to the source (`{{< blogdown/postref >}}index_files/figure-html/x.png`), and
  postil resolves such a path against the source's folder anyway;
- Quarto's `kbd` → `<kbd>` keys; its `pagebreak` (a page break in print) → nothing;
- Hugo Blox's `staticref "uploads/cv.pdf" "newtab"` … `/staticref` → a link around the text
  between its tags, to that file of the site (checked as any raw HTML link is);
- `youtube`, `vimeo` (Hugo's) and `video` (Quarto's) → a video player
  (`postil.markdown.embed`);
- `{{</* name */>}}` → the shortcode shown as text (Hugo's escape), in code blocks and
  spans too, as Hugo shows it there.

A shortcode alone on its lines may span several (`{{< figure⏎  src="x.png"⏎>}}`, as Hugo
reads the file before the Markdown: `tagsyntax.spanning_tag`); one inside a paragraph may
end on a line beginning `>}}`, which is then no block quote. A paired shortcode written
self-closed (`{{< tab header="CLI:" disabled=true />}}`, Docsy's label of a tab set) has no
content and no closing tag. Any other shortcode is left out with a warning naming it; the
content between a paired shortcode's tags stays.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from functools import partial
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore

from postil.content.discover import SOURCE_SUFFIXES
from postil.markdown.callout import kind_of
from postil.markdown.embed import push_post, push_video
from postil.markdown.figure import push_figure
from postil.markdown.liquid import Value
from postil.markdown.postfind import INDEX_NAMES, find_source, missing_post, post_name
from postil.markdown.shortcodecallout import (
    CALLOUTS,
    FOLDS,
    QUOTES,
    callout,
    callout_meta,
    callout_open,
    quote,
)
from postil.markdown.shortcodelayout import CARDS, COLUMNS, card_html, push_cards, push_columns
from postil.markdown.shortcodetabs import TABS, TABSETS, push_tab, push_tabset
from postil.markdown.state import RenderState, get_state
from postil.markdown.tagsyntax import (
    CODE_TAG_KINDS,
    Tag,
    code_block,
    find_closer,
    find_code_tag,
    line_tag,
    scan_tag,
    shortcode_params,
    spanning_tag,
    unclosed_code,
)

WRAPPERS = frozenset({"rawhtml", "raw", "html", "math"})
"""Paired shortcodes that only pass their content through (themes define them so; Hugo
Blox's `math` wraps `$$…$$` to keep Goldmark away from it)."""

ESCAPED_SHORTCODE = re.compile(r"\{\{([<%])/\*([^\n]*?)\*/([>%])\}\}")
"""Hugo's escape of a shortcode, `{{</* name */>}}` (or `{{%/* name */%}}`), shown as the
shortcode itself (`shortcode_code_escape`)."""

POSTREF = "blogdown/postref"
"""blogdown's shortcode for the page's own URL, written before its figures' relative paths."""

VIDEOS = frozenset({"youtube", "vimeo", "video"})
"""Shortcodes that embed a video player (`postil.markdown.embed`)."""

FIGURE_PARAMS = frozenset({"src", "alt", "caption", "title", "class", "width", "height"})
"""Parameters of Hugo's `figure` that postil's figures have."""


def shortcode_plugin(md: MarkdownIt) -> None:
    """Read Hugo shortcodes written on a line of their own as blocks.

    Syntax::

        {{< figure src="loss.png" alt="Loss" caption="Training *loss*." >}}

        {{< highlight python "linenos=table,hl_lines=2" >}}
        print(1)
        {{< /highlight >}}

        {{< rawhtml >}}
        $$ x^2 $$
        {{< /rawhtml >}}

    A figure is the figure plugin's `figure_open` (id-less, numbered like the others), its
    caption an `inline` token; a highlight is a `fence`; a wrapper's tags produce nothing.
    A shortcode inside a line is read by the `template` plugin. CSS classes: those of
    figures (`figure`, `figure-label`) and the figure's own `class`.
    """
    md.block.ruler.before(
        "fence",
        "shortcode_block",
        shortcode_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.add_render_rule("shortcode_marker", lambda *args: "")
    md.core.ruler.after("inline", "shortcode_code_escape", shortcode_code_escape)
    index = md.block.ruler.__find__("blockquote")
    quote_rule, alt = md.block.ruler.__rules__[index].fn, md.block.ruler.__rules__[index].alt
    md.block.ruler.at("blockquote", _not_a_shortcode_end(quote_rule), {"alt": alt})


def _not_a_shortcode_end(quote_rule: Callable[..., bool]) -> Callable[..., bool]:
    """Return markdown-it's block quote rule, refusing a line that begins with the `>}}`
    closing a shortcode opened on the paragraph's lines above it.

    Hugo reads shortcodes before the Markdown, so `[x]({{< ref "a.md"⏎>}})` (Docsy's
    user guide wraps long references so) is one link there; CommonMark would read the
    second line as a block quote that ends the paragraph, and the reader saw the tag.
    """

    def quote_or_shortcode_end(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        begin = state.bMarks[start] + state.tShift[start]
        if state.src.startswith(">}}", begin) and _shortcode_open_above(state, start):
            return False
        return quote_rule(state, start, end, silent)

    return quote_or_shortcode_end


def _shortcode_open_above(state: StateBlock, line: int) -> bool:
    """Return whether the lines above `line`, up to a blank line, hold a `{{<` that no
    `>}}` closes."""
    first = line
    while first > 0 and not state.isEmpty(first - 1):
        first -= 1
    text = state.src[state.bMarks[first] : state.bMarks[line]]
    opened = text.rfind("{{<")
    return opened >= 0 and text.find(">}}", opened) < 0


def shortcode_code_escape(state: StateCore) -> None:
    """Show Hugo's escaped shortcode `{{</* name */>}}` in code as Hugo does: `{{< name >}}`.

    Hugo reads shortcodes before Markdown, in code blocks and spans too, so posts about
    shortcodes write the escape there (Hugo's docs: "Shortcodes" › "Comments"); outside
    code the `template` plugin shows it (`scan_tag`'s "literal" tags). Any other template
    syntax in code stays as written.
    """
    for token in state.tokens:
        if token.type in ("fence", "code_block") and "/*" in token.content:
            token.content = ESCAPED_SHORTCODE.sub(_unescape_shortcode, token.content)
        elif token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "code_inline" and "/*" in child.content:
                    child.content = ESCAPED_SHORTCODE.sub(_unescape_shortcode, child.content)


def _unescape_shortcode(match: re.Match[str]) -> str:
    return "{{" + match.group(1) + match.group(2) + match.group(3) + "}}"


def shortcode_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: one shortcode alone on a line (a figure, a wrapper's tag), or a highlight
    and its code (`find_code_tag`: the code may begin and end on the tags' lines)."""
    code = find_code_tag(state, start, end, "shortcode", "highlight", "highlight")
    if code is not None:
        if not silent:
            code_block(state, start, code, _highlight_options(code.tag.args))
            state.line = code.close + 1
        return True
    diagram = find_code_tag(state, start, end, "shortcode", "mermaid", "mermaid")
    if diagram is not None:  # its `class`/`align` place the theme's box: nothing to keep
        if not silent:
            code_block(state, start, diagram, {"": "mermaid"})
            state.line = diagram.close + 1
        return True
    tag = line_tag(state, start)
    if tag is None:
        return _spanning(state, start, end, silent) or _one_line_pair(state, start, silent)
    if tag.kind != "shortcode" or tag.name in INLINE_SHORTCODES:
        return False
    loader = tag.name == "katex" and tag.inner.endswith("/")  # `{{< katex />}}`: `_one_line`
    if tag.name.lstrip("/") == "katex" and not loader:
        if tag.closing or find_closer(state, start, end, "katex"):
            return False  # math: `postil.markdown.math` reads it
    if silent:
        return True
    line = start
    paired = CALLOUTS | FOLDS | QUOTES | TABSETS | TABS | COLUMNS | CARDS
    if tag.name in paired and not tag.closing and self_closed(tag):
        _empty_pair(state, start, tag)
        state.line = start + 1
        return True
    if tag.name in paired and not tag.closing:
        close = find_closer(state, start, end, tag.name)
        if close is not None and tag.name in COLUMNS | CARDS:
            (push_columns if tag.name in COLUMNS else push_cards)(state, start, close, tag)
            line = close
        elif close is not None and tag.name in TABSETS | TABS:
            tab = push_tabset if tag.name in TABSETS else _tab
            tab(state, start, close, tag)
            line = close
        elif close is not None:
            (quote if tag.name in QUOTES else callout)(state, start, close, tag)
            line = close
    if line == start:
        _one_line(state, start, end, tag)
    state.line = line + 1
    return True


def self_closed(tag: Tag) -> bool:
    """Return whether a shortcode is written self-closed, `{{< name args />}}`: Hugo reads
    it as a paired shortcode with no content, and looks for no closing tag."""
    return tag.kind == "shortcode" and not tag.closing and tag.inner.endswith("/")


def _empty_pair(state: StateBlock, start: int, tag: Tag) -> None:
    """Push a paired shortcode written self-closed on line `start` with nothing inside:
    a tab, callout, quote or set under its title, as its theme draws it (Docsy's
    `{{< tab header="CLI:" disabled=true />}}` labels the tabs after it)."""
    if tag.name in TABS:
        push_tab(state, (start, start), tag, "")
    elif tag.name in TABSETS:
        push_tabset(state, start, start, tag)
    elif tag.name in COLUMNS | CARDS:
        (push_columns if tag.name in COLUMNS else push_cards)(state, start, start, tag)
    else:
        (quote if tag.name in QUOTES else callout)(state, start, start, tag)


def _spanning(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Read a shortcode written over several lines (`{{< figure⏎  src="x.png"⏎>}}`,
    `tagsyntax.spanning_tag`) as `_one_line` reads one on a line of its own; a callout, tab
    or math opener so written is left to the inline rules."""
    spanning = spanning_tag(state, start, end)
    if spanning is None:
        return False
    tag, last = spanning
    paired = CALLOUTS | FOLDS | QUOTES | TABSETS | TABS | COLUMNS | CARDS | INLINE_SHORTCODES
    paired |= {"katex"}
    if tag.kind != "shortcode" or tag.name.lstrip("/") in paired:
        return False
    if not silent:
        _one_line(state, start, end, tag)
        state.line = last + 1
    return True


def _one_line(state: StateBlock, start: int, end: int, tag: Tag) -> None:
    """Handle a shortcode line that is not a whole code block."""
    doc = get_state(state.env)
    opened: list[str] = doc.extra.setdefault("shortcode", [])
    if tag.name == "figure" and not tag.closing:
        figure(state, start, tag)
        return
    if tag.name in VIDEOS and not tag.closing:
        _video(state, start, tag)
        return
    if tag.name == "card" and not tag.closing and find_closer(state, start, end, "card") is None:
        html = state.push("html_block", "", 0)  # a card outside a set of cards
        html.map, html.content = [start, start + 1], card_html(tag) + "\n"
        return
    if tag.name in ("tweet", "x", "twitter") and not tag.closing:  # Hugo's `user=`, `id=`
        positional, named = shortcode_params(tag.args)
        post_id = named.get("id") or (positional[-1] if positional else "")
        push_post(state, start, tag, named.get("user", ""), post_id)
        return
    if tag.name == "toc" and not tag.closing:  # themes' `{{< toc >}}`: the post's contents here
        token = state.push("kramdown_toc", "nav", 0)
        token.map = [start, start + 1]
        doc.extra["toc_placed"] = True
        return
    marker = state.push("shortcode_marker", "", 0)
    marker.map = [start, start + 1]
    if tag.closing:
        if tag.name in opened:
            opened.remove(tag.name)
        else:
            doc.warn(start, 1, f"`{tag.raw}` closes no shortcode opened before it; remove it")
        return
    if tag.name == "katex":  # no closing tag (math reads a pair): a theme's KaTeX loader
        return
    if tag.name == "pagebreak":  # Quarto's print page break: nothing on a web page
        return
    if not self_closed(tag) and find_closer(state, start, end, tag.name) is not None:
        opened.append(tag.name)
    elif tag.name in CALLOUTS | FOLDS | TABSETS | TABS | COLUMNS | CARDS:
        close = tag.raw.replace(tag.inner, "/" + tag.name)
        doc.warn(start, 1, f"`{tag.raw}` is never closed; add `{close}` where it ends")
        return
    if tag.name in CODE_TAG_KINDS:  # `find_code_tag` found no closing tag
        doc.warn(start, 1, unclosed_code(tag, f"{{{{< /{tag.name} >}}}}"))
    elif tag.name not in WRAPPERS and tag.inner.strip() != POSTREF:
        doc.warn(start, 1, unsupported(tag, doc.path, doc.front_matter_syntax))


def _video(state: StateBlock, start: int, tag: Tag) -> None:
    """Push a video player for Hugo's `youtube`/`vimeo` or Quarto's `video` shortcode."""
    positional, named = shortcode_params(tag.args)
    source = named.get("id") or named.get("src") or (positional[0] if positional else "")
    push_video(state, start, tag, source, named)


def _one_line_pair(state: StateBlock, start: int, silent: bool) -> bool:
    """Read a callout or fold shortcode opened and closed on one line around its text
    (`{{< spoiler text="Answer" >}} 42 {{< /spoiler >}}`, as Hugo Blox's docs write it) as
    `shortcodecallout.callout` reads one on lines of their own, its text a paragraph."""
    begin = state.bMarks[start] + state.tShift[start]
    end = state.eMarks[start]
    if state.sCount[start] - state.blkIndent >= 4 or not state.src.startswith("{{", begin):
        return False
    tag = scan_tag(state.src, begin, end)
    pairs = CALLOUTS | FOLDS | TABS
    if tag is None or tag.kind != "shortcode" or tag.closing or tag.name not in pairs:
        return False
    close = _closing_at_end(state.src, tag, end)
    if close is None:
        return False
    if silent:
        return True
    if tag.name in TABS:
        push_tab(state, (start, start), tag, state.src[tag.end : close].strip())
        state.line = start + 1
        return True
    callout_open(state, start, start, tag)
    text = state.src[tag.end : close].strip()
    if text:
        state.push("paragraph_open", "p", 1).map = [start, start + 1]
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = text, [start, start + 1], []
        state.push("paragraph_close", "p", -1)
    state.push("shortcode_callout_close", "aside", -1).map = [start, start + 1]
    state.line = start + 1
    return True


def _closing_at_end(src: str, tag: Tag, end: int) -> int | None:
    """Return where the tag closing `tag` starts when it ends the line (at `end`), else None."""
    pos = src.rfind("{{", tag.end, end)
    closing = scan_tag(src, pos, end) if pos >= 0 else None
    if closing is None or not closing.closing or closing.name.lstrip("/") != tag.name:
        return None
    return pos if not src[closing.end : end].strip() else None


def _tab(state: StateBlock, start: int, close: int, tag: Tag) -> None:
    """Push a `tab` shortcode whose tags are on lines of their own (`shortcodetabs`)."""
    push_tab(state, (start, close), tag, None)


def _highlight_options(args: str) -> dict[str, str]:
    """Return a highlight shortcode's options: `go "linenos=table,hl_lines=8 15-17"`."""
    positional, named = shortcode_params(args)
    options = {"": positional[0] if positional else ""}
    texts = positional[1:] + [f"{key}={value}" for key, value in named.items()]
    for text in texts:  # a quoted "k=v,k=v" list, or k=v words
        for item in text.split(","):
            key, _, value = item.partition("=")
            options[key.strip()] = value.strip()
    return options


OX_HUGO_NUMBER = re.compile(r'\A\s*<span class="figure-number">[^<]*</span>\s*')
"""The number ox-hugo writes at the start of a figure's caption (`Figure 1: `): postil
numbers figures itself."""

TAG = re.compile(r"<[^<>]*>")
"""An HTML tag, taken out of a caption that becomes alt text."""


def figure(state: StateBlock, line: int, tag: Tag) -> None:
    """Push a numbered figure for `{{< figure src=… >}}` and report what it cannot show."""
    doc = get_state(state.env)
    _, params = shortcode_params(tag.args)
    caption = given = OX_HUGO_NUMBER.sub("", params.get("caption", ""), count=1)
    if params.get("title"):
        caption = f"**{params['title']}** {caption}".strip()
    push_figure(
        state,
        line,
        params.get("src", ""),
        caption,
        alt=params.get("alt", TAG.sub("", given)),
        classes=params.get("class", "").split(),
        attrs={name: params[name] for name in ("width", "height") if params.get(name)},
    )
    ignored = sorted(set(params) - FIGURE_PARAMS)
    if not params.get("src"):
        doc.warn(line, 1, f"`{tag.raw}` has no `src`; add the image's path")
    if ignored:
        doc.warn(
            line,
            1,
            f"`{tag.raw}`: parameter {', '.join(ignored)} is not supported and is ignored; "
            f"figures take {', '.join(sorted(FIGURE_PARAMS))}",
        )


def unsupported(tag: Tag, path: str = "", syntax: str = "") -> str:
    """Return the warning for a shortcode postil does not have (a Quarto one in a `.qmd`
    post at `path`, a Nikola one in a post whose front matter `syntax` is Nikola's: both
    write their shortcodes as Hugo does)."""
    generator = "Quarto" if path.endswith(".qmd") else "Nikola" if syntax == "nikola" else "Hugo"
    return (
        f"{generator} shortcode `{tag.raw}` is not supported and is left out (content "
        "between its tags stays); write its result as Markdown or HTML"
    )


def evaluate_shortcode(tag: Tag, doc: RenderState, in_url: bool, in_html: bool = False) -> Value:
    """Return what a shortcode inside a line (or a link destination) evaluates to.

    `ref`/`relref` give the URL of the post or page they name (in a link destination, its
    source path for the links plugin, which checks the `#fragment`); wrapper tags give
    nothing; `{{</* x */>}}` gives `{{< x >}}`; inside raw HTML (`in_html`: blogdown's
    knitted `<p>{{% alert danger %}}…{{% /alert %}}</p>`) a callout or fold gives the
    callout's own HTML; others give nothing and a warning.
    """
    if tag.kind == "literal":
        return Value(tag.inner)
    if tag.name in ("ref", "relref") and not tag.closing:
        return _reference(tag, doc, in_url, in_html)
    if in_html and tag.name in CALLOUTS | FOLDS:
        return Value(_html_callout(tag), markup=True)
    if tag.name == "staticref":
        return Value("</a>" if tag.closing else _static_link(tag), markup=True)
    if tag.closing or tag.name in WRAPPERS or tag.inner.strip() == POSTREF:
        return Value("")
    if tag.name == "kbd":
        return Value(_keys(tag), markup=True)
    if tag.name == "link":
        return Value(_theme_link(tag), markup=True)
    if tag.name in VALUE_SHORTCODES:
        return _value(tag, doc)
    if tag.name == "pagebreak":  # a print page break: nothing on a web page
        return Value("")
    if tag.name == "figure":
        return Value(None, f"`{tag.raw}` makes a figure only on a line of its own; move it there")
    if tag.name in CODE_TAG_KINDS:
        return Value(None, unclosed_code(tag, f"{{{{< /{tag.name} >}}}}"))
    return Value(None, unsupported(tag, doc.path, doc.front_matter_syntax))


INLINE_SHORTCODES = frozenset({"ref", "relref", "kbd", "link"})
"""Shortcodes that write inline text: alone on a line they are a paragraph's."""

VALUE_SHORTCODES = {
    "param": ("front matter", "params"),  # Hugo: the page's parameter, else the site's
    "meta": ("front matter",),  # Quarto: the document's metadata
    "var": ("params",),  # Quarto: `_variables.yml`
}
"""Shortcodes that show a value by name, and where each looks it up in turn."""


def _value(tag: Tag, doc: RenderState) -> Value:
    """Return the value `{{< param name >}}` (Hugo), `{{< meta name >}}` or `{{< var name >}}`
    (Quarto) shows: the post's front matter value, or the site's `params:` one; a name in
    neither is left out with a warning saying where to define it."""
    positional, _ = shortcode_params(tag.args)
    name = positional[0] if positional else ""
    places = VALUE_SHORTCODES[tag.name]
    for place in places:
        values = doc.front_matter if place == "front matter" else doc.site_params
        if name in values:
            return Value(values[name])
    where = " or ".join(
        "the post's front matter" if place == "front matter" else "`params:` in postil.yaml"
        for place in places
    )
    return Value(
        None,
        f"`{tag.raw}` shows `{name}`, which is not in {where}, so it is left out; define it there",
    )


def _html_callout(tag: Tag) -> str:
    """Return the HTML a callout or fold shortcode opens or closes inside raw HTML: what
    `postil.markdown.callout` renders for its tokens (`<aside>` or `<details>`, a title)."""
    fold = tag.name in FOLDS
    if tag.closing:
        return "</details>" if fold else "</aside>"
    meta = callout_meta(tag)
    kind = kind_of(str(meta["kind"]))[0]
    title = escapeHtml(str(meta["title"] or ""))
    if fold:
        heading = f'<summary class="callout-title"><strong>{title}</strong></summary>'
        return f'<details class="callout callout-{kind}">{heading}'
    heading = f'<p class="callout-title"><strong>{title}</strong></p>' if title else ""
    return f'<aside class="callout callout-{kind}" role="note">{heading}'


def _static_link(tag: Tag) -> str:
    """Return the `<a>` Hugo Blox's `{{< staticref "uploads/cv.pdf" "newtab" >}}` opens: a
    path from the site's root (its `static/`), or a full URL; `newtab` opens a new tab."""
    positional, _ = shortcode_params(tag.args)
    target = positional[0] if positional else ""
    href = target if urlsplit(target).scheme else "/" + target.lstrip("/")
    tab = ' target="_blank" rel="noopener"' if "newtab" in positional[1:] else ""
    return f'<a href="{escapeHtml(href)}"{tab}>'


LINK_PARAMS = ("href", "content", "title", "rel", "class")
"""The `link` shortcode's parameters in their positional order (LoveIt, DoIt, FixIt)."""


def _theme_link(tag: Tag) -> str:
    """Return the `<a>` of LoveIt's, DoIt's and FixIt's `{{< link href="…" content="…" >}}`
    (or positional: `{{< link "https://x.org" "text" "title" >}}`): the link's text is
    `content`, else the URL. Their other parameters (`card`, `newtab`, `external-icon`)
    change only its look."""
    positional, named = shortcode_params(tag.args)
    values = dict(zip(LINK_PARAMS, positional, strict=False)) | named
    href = values.get("href", "")
    attrs = "".join(
        f' {name}="{escapeHtml(values[name])}"'
        for name in ("title", "rel", "class")
        if values.get(name)
    )
    text = escapeHtml(values.get("content") or href)
    return f'<a href="{escapeHtml(href)}"{attrs}>{text}</a>'


def _keys(tag: Tag) -> str:
    """Return Quarto's `{{< kbd Shift-Ctrl-P >}}` as `<kbd>`: the keys written without a
    system's name, else each system's (`mac=`, `win=`, `linux=`) joined by a slash (Quarto
    picks the reader's system with a script)."""
    positional, named = shortcode_params(tag.args)
    keys = positional or [named[system] for system in ("mac", "win", "linux") if system in named]
    return " / ".join(f"<kbd>{escapeHtml(key)}</kbd>" for key in keys)


def _reference(tag: Tag, doc: RenderState, in_url: bool, in_html: bool = False) -> Value:
    """Resolve `{{< ref "x.md#frag" >}}` against this file's folder, then `content/`, then,
    for a name without a folder, the one published post or page of that name anywhere
    (Hugo's reading of a bare name; several are ambiguous to it, so none is taken);
    `{{< ref "#frag" >}}` is `#frag`, an anchor of this page (Hugo's `ref` and `relref`
    alike). In raw HTML (`in_html`) `relref` gives the path from the site's root, which
    the raw HTML plugin puts under the base path as it does every root path there.
    """
    positional, named = shortcode_params(tag.args)
    target = named.get("path", positional[0] if positional else "")
    path, _, fragment = target.partition("#")
    if not path.strip():  # `#anchor`: this page's, as Hugo writes it (`#` and the fragment)
        if fragment:  # (a link destination's is checked with every fragment link)
            return Value("#" + fragment)
        return Value(None, f"`{tag.raw}` names no page; give the path of a post or page")
    bases = _candidates(doc.path, path)
    rel = find_source(doc.links, bases) or _only_named(doc.links, path)
    if rel is not None:
        suffix = f"#{fragment}" if fragment else ""
        if in_url:
            return Value("/" + rel.removeprefix("content/") + suffix, source=rel)
        base = doc.base_url.rstrip("/") + "/" if tag.name == "ref" else doc.base_path
        base = "/" if in_html and tag.name == "relref" else base
        return Value(base + doc.links[rel] + suffix, source=rel)
    fix = "fix the path (relative to this file or to content/)"
    as_written = partial(_hugo_path, "" if path.startswith("/") else posixpath.dirname(doc.path))
    return Value(None, missing_post(tag.raw, path, bases, doc.links, as_written, fix))


def _candidates(source_rel: str, path: str) -> list[str]:
    """Return the source names (without ending: `postfind.source_names`) `ref` may mean by
    `path`, in Hugo's order of preference: from this file's folder, then from `content/`."""
    bases = [] if path.startswith("/") else [posixpath.dirname(source_rel)]
    return [
        posixpath.normpath(posixpath.join(base, path.lstrip("/"))) for base in [*bases, "content"]
    ]


def _only_named(links: Mapping[str, str], path: str) -> str | None:
    """Return the one published source named `path` (a name without a folder, with or
    without its ending: `postfind.post_name`), or None when none or several are."""
    if not path or "/" in path:
        return None
    name = posixpath.splitext(path)[0] if path.endswith(SOURCE_SUFFIXES) else path
    found = [rel for rel in links if rel.endswith(SOURCE_SUFFIXES) and post_name(rel) == name]
    return found[0] if len(found) == 1 else None


def _hugo_path(folder: str, rel: str) -> str:
    """Return how `ref` names the source `rel` from a file in `folder` ("" for a path
    written from `content/`): its name when it is beside it, else its path from
    `content/` (`/posts/x`), without ending."""
    if posixpath.dirname(rel) == folder or posixpath.dirname(posixpath.dirname(rel)) == folder:
        return post_name(rel)
    name = posixpath.splitext(rel.removeprefix("content"))[0]
    head, _, tail = name.rpartition("/")
    return head if tail in INDEX_NAMES else name
