r"""dev.to's (Forem's) Liquid tags in posts kept for dev.to: its math, folds and embeds.

Forem renders a post's Markdown with Redcarpet first and runs its Liquid tags over the HTML
after (`MarkdownProcessor::Parser#finalize` in forem/forem), so a tag's body has already
been through Markdown. Read here, from Forem's tags (`app/liquid_tags/*.rb`) and DEV's
editor guide:

- `{% katex %}TeX{% endkatex %}` is display math and `{% katex inline %}…` inline
  (`KatexTag`: `display_mode: !inline?`), while jekyll-katex reads a bare `{% katex %}` as
  inline. A post that writes `{% katex inline %}` anywhere is read as dev.to's
  (`forem_dialect`), and `postil.markdown.math` then reads its katex tags so; their TeX is
  the *text* of what Redcarpet made of it (`KatexTag` takes `Nokogiri::HTML(super).text`),
  so Redcarpet's backslash escapes are removed (`FOREM_ESCAPES`): authors wrote `\\\\` for
  a row break and `\\{` for a brace;
- `{% details Summary %}` … `{% enddetails %}` (also `collapsible`, `spoiler`:
  `DetailsTag`) → a folded callout under that summary. Braze's and Home Assistant's
  documentation use the same tag for the same `<details>`;
- embeds on a line of their own: `{% github URL %}`, `{% codepen URL %}`,
  `{% jsfiddle URL %}`, `{% codesandbox ID %}`, `{% stackblitz ID %}`, `{% replit
  @user/name %}`, `{% glitch ID %}`, `{% link URL %}`/`{% post user/slug %}` (a card for
  another DEV post) → a paragraph holding a link to what the card or player shows (postil
  fetches nothing while it builds). `{% embed URL %}` is GitBook's embed read with a
  positional URL (`postil.markdown.gitbook`); `{% youtube %}`, `{% vimeo %}`,
  `{% twitter ID %}` and `{% tweet ID %}` are the Liquid plugin's (`postil.markdown.liquid`).

Jekyll's `{% link _posts/x.md %}` (a file with its extension) stays Jekyll's.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore

from postil.markdown.embed import push_url_embed
from postil.markdown.shortcodecallout import push_callout
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import Tag, find_closer, line_tag

FOREM = "forem"
"""The `RenderState.extra` key that tells a document written for dev.to (`forem_dialect`)."""

FOREM_INLINE = re.compile(r"\{%-?\s*katex\s+inline\s*-?%\}")
"""dev.to's inline math tag: no other katex tag (jekyll-katex's, Hexo's) has the word."""

FOREM_ESCAPES = frozenset("\\`*_{}[]()#+-.!:|&<>^~=")
r"""The characters Redcarpet's backslash escape takes (`char_escape`'s `escape_chars` in
vmg/redcarpet's `ext/redcarpet/markdown.c`): `\,` and `\;` keep their backslash."""

FOLDS = {"details": "enddetails", "collapsible": "endcollapsible", "spoiler": "endspoiler"}
"""Forem's `DetailsTag` names and their end tags."""

EMBED_URLS = {
    "github": "https://github.com/{}",
    "codepen": "https://codepen.io/{}",
    "jsfiddle": "https://jsfiddle.net/{}",
    "codesandbox": "https://codesandbox.io/s/{}",
    "stackblitz": "https://stackblitz.com/edit/{}",
    "replit": "https://replit.com/{}",
    "glitch": "https://glitch.com/~{}",
    "link": "https://dev.to/{}",
    "post": "https://dev.to/{}",
}
"""Forem's card and player tags → the page a bare argument names (its tag's own URL form:
`GithubTag` takes `user/repo`, `CodesandboxTag` and `StackblitzTag` an id, `ReplitTag`
`@user/name`, `GlitchTag` a project name, `LinkTag` `user/slug`)."""

JEKYLL_LINK = re.compile(r"\S+\.\w{1,8}|[_/{].*")
"""Jekyll's `{% link _posts/x.md %}` argument: a file with its extension (or a variable)."""


def forem_plugin(md: MarkdownIt) -> None:
    """Read dev.to's math dialect, folds and embeds.

    Syntax::

        {% katex inline %}x^2{% endkatex %} and, as display math,
        {% katex %}
        a \\\\ b
        {% endkatex %}

        {% details Why? %}
        Because.
        {% enddetails %}

        {% github https://github.com/forem/forem %}

    Folds are the callout plugin's (`callout`, `<details>`), embeds a paragraph with a link;
    math is the math plugin's. No CSS classes of its own.
    """
    md.core.ruler.before("block", "forem_dialect", forem_dialect)
    md.block.ruler.before(
        "fence", "forem_block", forem_block, {"alt": ["paragraph", "reference", "blockquote"]}
    )


def forem_dialect(state: StateCore) -> None:
    """Mark the document as dev.to's when one of its katex tags says `inline` (`FOREM`)."""
    src = state.src
    found = "katex" in src and FOREM_INLINE.search(src) is not None
    get_state(state.env).extra[FOREM] = found


def is_forem(env: MutableMapping[str, Any]) -> bool:
    """Tell whether the document is written for dev.to (`forem_dialect` has marked it)."""
    state = env.get("postil")
    return bool(state is not None and state.extra.get(FOREM))


def forem_katex_display(arguments: str) -> bool:
    """Tell whether a katex tag of a dev.to post is display math: unless it says `inline`."""
    return "inline" not in arguments.split()


def forem_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a fold's opening tag alone on line `start` up to its end tag, or an embed
    tag alone on its line."""
    begin = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{%", begin):
        return False  # most lines: no tag to read
    tag = line_tag(state, start)
    if tag is None or tag.kind != "tag":
        return False
    if tag.name in FOLDS:
        close = find_closer(state, start, end, FOLDS[tag.name])
        if silent:
            return True
        if close is None:  # its text stays, unfolded
            closer = "{% " + FOLDS[tag.name] + " %}"
            get_state(state.env).warn(start, 1, f"`{tag.raw}` is never closed; add `{closer}`")
            state.line = start + 1
            return True
        summary = tag.args.strip() or "Details"
        meta: dict[str, str | None] = {"kind": "note", "title": summary, "collapse": "true"}
        push_callout(state, (start, close), meta, tag.raw)
        state.line = close + 1
        return True
    url = embed_url(tag)
    if url is None:
        return False
    if not silent:
        push_url_embed(state, start, tag, url)
        state.line = start + 1
    return True


def embed_url(tag: Tag) -> str | None:
    """Return the page a Forem card or player tag shows (`EMBED_URLS`), or None when the tag
    is no such embed (Jekyll's `{% link _posts/x.md %}`, a tag without an argument)."""
    words = tag.args.split()
    if tag.name not in EMBED_URLS or not words:
        return None
    first = words[0].strip("\"'")
    if re.match(r"https?://", first):
        return first
    if tag.name in ("link", "post") and JEKYLL_LINK.fullmatch(first):
        return None
    return EMBED_URLS[tag.name].format(first.lstrip("/"))
