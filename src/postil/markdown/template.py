"""Template tags of other generators inside text, links and raw HTML: evaluated or reported.

Liquid outputs and tags (Jekyll) and Hugo shortcodes written inside a paragraph, in a link
destination (`[GAN]({{ site.baseurl }}{% post_url 2017-08-20-gan %})`), or in raw HTML
(`<img src="{{ site.baseurl }}/x.png">`) are evaluated by `postil.markdown.liquid` and
`postil.markdown.shortcode`; what they cannot give is left out with a warning at the tag's
`path:line:col`. Template syntax never reaches the page: code spans, code blocks and math
(in raw HTML too: `MATH_IN_HTML`) are not read at all, `{% raw %}…{% endraw %}` is shown
as written, and `\\{{` is the escape for braces meant as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.html_re import HTML_TAG_RE
from markdown_it.common.utils import isLinkOpen
from markdown_it.helpers.parse_link_destination import _Result
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.hexo import evaluate_hexo, is_hexo
from postil.markdown.inlinewarn import warn_inline
from postil.markdown.liquid import Value, evaluate_liquid
from postil.markdown.references import UNCHECKED_URLS
from postil.markdown.shortcode import evaluate_shortcode
from postil.markdown.state import RenderState, get_state, reads_jsx
from postil.markdown.tagsyntax import OPENERS, Tag, locate, scan_tag
from postil.markdown.zola import evaluate_zola

TAG_START = ("{{", "{%")


def template_plugin(md: MarkdownIt) -> None:
    """Evaluate Liquid and Hugo tags in inline text, link destinations and raw HTML.

    Syntax::

        See [GAN]({{ site.baseurl }}{% post_url 2017-08-20-gan %}#loss) and
        [the intro]({{< ref "intro.md" >}}). Shown as is: {% raw %}{{ x }}{% endraw %}.

    With base path `/blog/` the links become `/blog/posts/2017-08-20-gan/#loss` and the
    intro's URL (through the links plugin, which checks the fragment). Markdown link
    destinations may hold tags with spaces (markdown-it's destination parser is extended on
    this instance, and such destinations are not percent-encoded until evaluated); inline
    tags become `template_tag` tokens, evaluated by a core rule before the links plugin. A
    paragraph left empty by tags that output nothing is removed. No CSS classes.
    """
    md.helpers = _Helpers(md.helpers)  # type: ignore[assignment]
    normalize = md.normalizeLink
    md.normalizeLink = lambda url: url if _has_tag(url) else normalize(url)  # type: ignore[method-assign]
    md.inline.ruler.before("escape", "template_tag", template_tag)
    md.inline.ruler.before("html_inline", "template_html", template_html)
    md.core.ruler.before("links", "template_eval", template_eval)
    md.add_render_rule("template_unlinked", lambda *args: "")


def _has_tag(text: str) -> bool:
    return any(start in text for start in TAG_START)


class _Helpers:
    """markdown-it's link helpers, with a destination parser that reads template tags whole."""

    def __init__(self, helpers: Any) -> None:
        self._helpers = helpers

    def __getattr__(self, name: str) -> Any:
        return getattr(self._helpers, name)

    def parseLinkDestination(self, src: str, pos: int, maximum: int) -> _Result:  # noqa: N802
        """Parse a destination like markdown-it, reading `{{ … }}`/`{% … %}` tags as one piece.

        A destination without a tag is parsed by markdown-it's own function (so CommonMark
        is unchanged); one with a tag is kept raw (unescaped) for `template_eval`.
        """
        result = self._helpers.parseLinkDestination(src, pos, maximum)
        if src.startswith("<", pos) or not any(src.find(t, pos, maximum) >= 0 for t in TAG_START):
            return result  # no tag ahead: no scan (nested links made it quadratic)
        level, at, found = 0, pos, False
        while at < maximum:
            tag = scan_tag(src, at, maximum) if src.startswith(TAG_START, at) else None
            if tag is not None:
                found, at = True, tag.end
                continue
            char = src[at]
            if char <= " " or char == "\x7f" or char == ")" and level == 0:
                break
            level += {"(": 1, ")": -1}.get(char, 0)
            at += 2 if char == "\\" and at + 1 < maximum else 1
        if not found or level != 0:
            return result
        result.ok, result.pos, result.str = True, at, src[pos:at]
        return result


def template_html(state: StateInline, silent: bool) -> bool:
    """Inline rule: an HTML tag whose attribute values hold template tags with quotes of
    their own (`<a href="{{< relref "x.md" >}}">`, which Hugo writes, since it reads its
    shortcodes before the Markdown) is one `html_inline` token, evaluated by
    `template_eval` as every inline HTML tag is. CommonMark's raw HTML rule ends the value
    at the inner quote, and the whole tag showed as text."""
    src, start = state.src, state.pos
    if not state.md.options.get("html") or not src.startswith("<", start):
        return False
    if start + 1 >= state.posMax or not src[start + 1].isalpha():
        return False
    at, masked, found, quote = start + 1, ["<"], False, ""
    while at < state.posMax and (quote or src[at] not in "<>"):
        tag = scan_tag(src, at, state.posMax) if quote and src.startswith(TAG_START, at) else None
        if tag is not None:  # inside a quoted value only: `<b and {{ x }}>` is text
            found, at = True, tag.end
            masked.append("x")  # a template tag gives (part of) the value's text
            continue
        char = src[at]
        if char in "\"'" and (quote == char or not quote and masked[-1] == "="):
            quote = "" if quote else char
        masked.append(char)
        at += 1
    if not found or at >= state.posMax or src[at] != ">":
        return False
    whole = "".join(masked) + ">"
    if HTML_TAG_RE.fullmatch(whole) is None:
        return False
    if not silent:
        token = state.push("html_inline", "", 0)
        token.content = src[start : at + 1]
        state.linkLevel += isLinkOpen(whole)
    state.pos = at + 1
    return True


def template_tag(state: StateInline, silent: bool) -> bool:
    """Inline rule: a template tag at `state.pos` becomes a `template_tag` token.

    `{% raw %}…{% endraw %}` becomes text as written (no Markdown inside, as a code span);
    `{% comment %}…{% endcomment %}` becomes nothing.
    """
    if not state.src.startswith(TAG_START, state.pos):
        return False
    tag = scan_tag(state.src, state.pos, state.posMax)
    if tag is None:
        if not silent and (opened := UNCLOSED_TAG.match(state.src, state.pos, state.posMax)):
            closer = OPENERS[opened.group(1)]
            if state.src.find(closer, state.pos, state.posMax) < 0:
                warn_inline(state, state.pos, _unclosed(opened.group(0), closer))
        return False
    if tag.kind == "tag" and tag.name in ("raw", "comment"):
        closer = f"{{% end{tag.name} %}}"
        close = state.src.find(closer, tag.end, state.posMax)
        if close >= 0:
            if not silent and tag.name == "raw":
                state.push("text", "", 0).content = state.src[tag.end : close]
            state.pos = close + len(closer)
            return True
    if not silent:
        token = state.push("template_tag", "", 0)
        token.content = tag.raw
        token.meta = {"tag": tag}
    state.pos = tag.end
    return True


UNCLOSED_TAG = re.compile(r"(\{%|\{\{[<%])-?\s*/?[A-Za-z_][\w.-]*")
"""The start of a Liquid tag or Hugo shortcode with a name (`{% include`, `{{< figure`);
not `{{` (prose about other template languages writes it)."""


def _unclosed(start: str, closer: str) -> str:
    """Return the warning for a tag whose closer is not in its paragraph."""
    return (
        f"`{start}` is not closed by `{closer}` in its paragraph, so it is shown as text: a "
        "tag cannot hold a blank line here (Jekyll and Hugo read the file before the "
        "Markdown); take the blank line out of the tag"
    )


def template_eval(state: StateCore) -> None:
    """Core rule: evaluate every tag in inline text, link destinations and raw HTML."""
    doc = get_state(state.env)
    raw = doc.groups.carry.get("template_raw", 0)  # a `raw` block may span parse groups
    jsx = reads_jsx(doc)  # MDX: `{{…}}` in raw HTML is JSX (`mdx.mdx_html`), never Liquid
    for token in state.tokens:
        raw += {"liquid_raw_open": 1, "liquid_raw_close": -1}.get(token.type, 0)
        if token.type == "inline" and token.children:
            # markdown-it's own normalizer: the instance's keeps destinations with tags as is
            normalize = partial(MarkdownIt.normalizeLink, state.md)
            token.children = _inline(doc, token, raw > 0, normalize)
        elif token.type == "html_block" and (_has_tag(token.content) or "raw" in token.content):
            raw = _html_block(doc, token, raw, jsx)
    doc.groups.carry["template_raw"] = raw
    state.tokens = _without_empty_headings(doc, _without_empty_paragraphs(state.tokens))


def _inline(
    doc: RenderState, block: Token, raw: bool, normalize: Callable[[str], str]
) -> list[Token]:
    """Return an inline token's children with their tags evaluated (or shown, in raw)."""
    children: list[Token] = []
    line0 = block.map[0] if block.map else 0
    unlinked = False
    for child in block.children or []:
        if child.type == "template_tag":
            tag: Tag = child.meta["tag"]
            value = Value(child.content) if raw else _evaluate(doc, tag, False)
            if value.problem:
                doc.warn(*locate(doc, line0, block.content, tag.start), value.problem)
            if value.text:
                kind = "html_inline" if value.markup else "text"
                children.append(Token(kind, "", 0, content=value.text))
            continue
        if child.type == "html_inline" and not raw and _has_tag(child.content):
            if reads_jsx(doc):  # MDX: `{{…}}` in a tag is JSX (`mdx.mdx_html`), not Liquid
                children.append(child)
                continue
            left_out: set[str] = set()
            child.content = _substitute(doc, child.content, line0, block.content, left_out)
            if left_out:
                child.meta[UNCHECKED_URLS] = left_out
        name = "href" if child.type == "link_open" else "src" if child.type == "image" else ""
        url = child.attrs.get(name) if name else None
        if isinstance(url, str) and _has_tag(url):
            resolved = raw or _link(doc, block, child, name, url)
            child.attrs[name] = normalize(str(child.attrs[name]))
            unlinked = not resolved and child.type == "link_open"
            if unlinked:  # a link to a post that is not there: its text stays, unlinked
                child.type, child.attrs = "template_unlinked", {}
        elif child.type == "link_close" and unlinked:
            child.type, unlinked = "template_unlinked", False
        children.append(child)
    while children and children[0].type == "softbreak":  # after a tag that gave nothing
        children.pop(0)
    while children and children[-1].type == "softbreak":
        children.pop()
    return children


def _evaluate(doc: RenderState, tag: Tag, in_url: bool, in_html: bool = False) -> Value:
    """Evaluate one Liquid tag, Hugo or Zola shortcode in a link destination, text or raw HTML."""
    if tag.kind == "tag" and is_hexo(tag):
        return evaluate_hexo(tag, doc, in_url, in_html)
    if tag.kind in ("output", "tag"):
        return evaluate_liquid(tag, doc, in_url, in_html)
    if tag.kind == "zola":
        return evaluate_zola(tag, doc)
    return evaluate_shortcode(tag, doc, in_url, in_html)


def _link(doc: RenderState, block: Token, child: Token, name: str, url: str) -> bool:
    """Evaluate the tags of a link destination in place; return False if one gave nothing."""
    text, ok, at = "", True, 0
    where = block.content.find(url)
    while at < len(url):
        tag = scan_tag(url, at) if url.startswith(TAG_START, at) else None
        if tag is None:
            text, at = text + url[at], at + 1
            continue
        value = _evaluate(doc, tag, True)
        if value.problem:
            offset = where + tag.start if where >= 0 else 0
            line0 = block.map[0] if block.map else 0
            doc.warn(*locate(doc, line0, block.content, offset), value.problem)
        ok = ok and value.text is not None
        text, at = text + (value.text or ""), tag.end
    child.attrs[name] = _site_relative(text, doc)
    return ok


def _site_relative(url: str, doc: RenderState) -> str:
    """Return `url` without the site's base URL or base path, so the links plugin adds it once.

    Liquid writes `{{ site.baseurl }}/x`; the links plugin puts every root-absolute path
    under the base path, so the evaluated `/blog/x` is handed to it as `/x`.
    """
    for prefix in (doc.base_url, doc.base_path):
        if prefix and prefix != "/" and url.startswith(prefix):
            return "/" + url[len(prefix) :]
    return url


RAW_TAG = re.compile(r"\{%-?\s*(end)?raw\s*-?%\}")
"""Liquid's `{% raw %}` and `{% endraw %}`, wherever in raw HTML they stand."""


def _html_block(doc: RenderState, token: Token, raw: int, jsx: bool) -> int:
    """Evaluate the tags of a raw HTML block outside Liquid's raw regions and return the
    raw depth after it: a `{% raw %}` in the block opens one and `{% endraw %}` closes it,
    in an HTML comment too (`<!-- {% raw %} -->` around a whole post, so its TeX's `{{`
    is not Liquid), as Jekyll reads Liquid before any HTML; the raw tags are left out."""
    content, line0 = token.content, token.map[0] if token.map else 0
    pieces, at, left_out = [], 0, set[str]()
    for found in [*RAW_TAG.finditer(content), None]:
        stop = found.start() if found is not None else len(content)
        piece = content[at:stop]
        live = not raw and not jsx and _has_tag(piece)
        pieces.append(_substitute(doc, piece, line0, content, left_out) if live else piece)
        if found is not None:
            raw = max(0, raw - 1) if found.group(1) else raw + 1
            at = found.end()
    token.content = "".join(pieces)
    if left_out:
        token.meta[UNCHECKED_URLS] = left_out
    return raw


MATH_IN_HTML = re.compile(r"\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)", re.S)
"""A formula in raw HTML, `$$…$$`, `\\[…\\]` or `\\(…\\)` (`postil.markdown.mathhtml`
typesets it): its TeX's `{{\\rm x}}` is braces, not a Liquid output (`_substitute`)."""

MATH_OPENERS = ("$$", "\\[", "\\(")


def _substitute(
    doc: RenderState,
    html: str,
    line0: int,
    content: str | None = None,
    left_out: set[str] | None = None,
) -> str:
    """Return raw HTML with its tags evaluated (HTML comments are left as they are). In a
    formula (`MATH_IN_HTML`) a `{{` before a TeX command is braces: MkDocs sites hide a `$$`
    block of `\\newcommand{\\x}{{\\rm x}}` in a `<div>`, and Liquid cannot read `{{\\rm x}}`
    (Jekyll stops at it). Other tags there are read, as Jekyll and Hugo read them before
    anything else (`{{x}}` is Liquid; Hugo themes hide `$$ {{< import file="x.tex" >}} $$`).

    A tag that gives nothing at the start of an attribute's value (`src="{{ site.cdn }}/a"`,
    its warning said why) leaves a URL that names nothing the author meant: that value is
    added to `left_out`, and the raw HTML plugin does not check it
    (`references.UNCHECKED_URLS`)."""
    out, at, formula_end = [], 0, 0
    while at < len(html):
        if html.startswith("<!--", at):
            close = html.find("-->", at)
            stop = len(html) if close < 0 else close + 3
            out.append(html[at:stop])
            at = stop
            continue
        if at >= formula_end and html.startswith(MATH_OPENERS, at):
            formula = MATH_IN_HTML.match(html, at)
            formula_end = formula.end() if formula is not None else formula_end
        if at < formula_end and html.startswith("{{\\", at):
            out.append("{{")
            at += 2
            continue
        tag = scan_tag(html, at) if html.startswith(TAG_START, at) else None
        if tag is None:
            out.append(html[at])
            at += 1
            continue
        value = _evaluate(doc, tag, False, in_html=not _continues_url(out, tag))
        if value.problem:
            text = content if content is not None else html
            offset = text.find(tag.raw) if content is not None else tag.start
            doc.warn(*locate(doc, line0, text, max(offset, 0)), value.problem)
        before = "".join(out[-2:])[-2:]
        if value.text is None and left_out is not None and ATTRIBUTE_OPEN.fullmatch(before):
            left_out.add(_attribute_rest(html, tag.end, before[-1]))
        out.append(value.text or "")
        at = tag.end
    return "".join(out)


ATTRIBUTE_OPEN = re.compile(r"=[\"']")
"""The end of raw HTML just before an attribute's quoted value."""


def _attribute_rest(html: str, at: int, quote: str) -> str:
    """Return what an attribute's value holds from `at` to its closing `quote`."""
    close = html.find(quote, at)
    return html[at : close if close >= 0 else len(html)]


def _continues_url(out: list[str], tag: Tag) -> bool:
    """Tell whether `tag` is Jekyll's `{{ site.baseurl }}` continuing a URL in raw HTML
    (`{{ site.url }}{{ site.baseurl }}/img/a.png`, after the origin): there it is the base
    path itself, as Jekyll gives it. Starting a value it is "" (`liquid.evaluate_liquid`:
    the raw HTML plugin puts the root path under the base path), which after the origin
    made `https://x.org/img/a.png` of a site at `https://x.org/blog/`."""
    if tag.kind != "output" or tag.inner.strip() != "site.baseurl" or not out:
        return False
    last = out[-1][-1:]
    return bool(last) and last not in "\"'= \t\n"


PAGE_TITLE = re.compile(r"\{\{-?\s*\$frontmatter\.title\s*-?\}\}")
"""VitePress' heading that shows the page's title, `# {{ $frontmatter.title }}` (VitePress'
docs, "Using Vue in Markdown"): the page shows its title itself."""


def _without_empty_headings(doc: RenderState, tokens: list[Token]) -> list[Token]:
    """Drop headings whose template tags left no text, with a warning (an empty heading
    would get an empty id and anchor link), and the opening `# {{ $frontmatter.title }}`,
    which the page's title already shows, without one."""
    kept: list[Token] = []
    for token in tokens:
        heading = token.type == "heading_close" and len(kept) >= 2
        if heading and kept[-2].type == "heading_open" and _has_tag(kept[-1].content):
            inline, opening = kept[-1], kept[-2]
            if _is_page_title(doc, opening, inline, first=len(kept) == 2):
                del kept[-2:]
                continue
            if not any(_shows(child) for child in inline.children or []):
                line0 = opening.map[0] if opening.map else None
                doc.warn(
                    line0,
                    1,
                    f"heading `{opening.markup} {inline.content.strip()}` is empty once its "
                    "template tags are left out, so it is left out; write its text",
                )
                del kept[-2:]
                continue
        kept.append(token)
    return kept


def _is_page_title(doc: RenderState, opening: Token, inline: Token, first: bool) -> bool:
    """Whether a heading is VitePress' opening `# {{ $frontmatter.title }}`."""
    return (
        first
        and doc.groups.first
        and opening.tag == "h1"
        and PAGE_TITLE.fullmatch(inline.content.strip()) is not None
    )


def _shows(child: Token) -> bool:
    """Whether an inline child shows something (text, code, math, an image)."""
    if child.type in ("softbreak", "hardbreak") or child.nesting != 0:
        return False
    return child.type != "text" or bool(child.content.strip())


def _without_empty_paragraphs(tokens: list[Token]) -> list[Token]:
    """Drop paragraphs left empty: a line of tags that output nothing is not a paragraph."""
    kept: list[Token] = []
    for token in tokens:
        if token.type == "paragraph_close" and len(kept) >= 2 and kept[-2].type == "paragraph_open":
            if all(
                child.type == "softbreak" or child.type == "text" and not child.content.strip()
                for child in kept[-1].children or []
            ):
                del kept[-2:]
                continue
        kept.append(token)
    return kept
