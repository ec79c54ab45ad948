"""GitBook's blocks in posts moved from GitBook: hints, tabs, embeds and code captions.

GitBook writes its blocks as Liquid-like tags on lines of their own (GitBook's "Markdown"
reference: hints, tabs, embedded URLs, code blocks):

- `{% hint style="info|success|warning|danger" %}` … `{% endhint %}` → a callout of that
  kind (`postil.markdown.callout`: success is a tip, danger a caution);
- `{% tabs %}` around `{% tab title="…" %}` … `{% endtab %}` → content tabs
  (`postil.markdown.shortcodetabs`);
- `{% embed url="…" %}` (with an optional caption and `{% endembed %}`) → a video player
  for a YouTube or Vimeo URL (`postil.markdown.embed`), a quoted link for a post on X,
  else a link (GitBook's card); dev.to's `{% embed URL %}` (Forem's `UnifiedEmbed`, the
  URL without `url=`) is read the same;
- `{% code title="x.py" lineNumbers="true" %}` around a fence → the fence's caption and
  line numbers (`postil.markdown.fenceinfo`); `overflow`, `fullWidth` and `expandable` only
  lay the block out and are read without a word.

Other tags stay Liquid's (`postil.markdown.liquid`), reported as they are today.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.markdown.embed import push_url_embed
from postil.markdown.shortcodecallout import push_callout
from postil.markdown.shortcodetabs import push_tab, push_tabset
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import Tag, find_closer, line_tag, shortcode_params, tokenize_lines

PAIRED = {"hint": "endhint", "tabs": "endtabs", "tab": "endtab", "code": "endcode"}
"""GitBook's paired blocks and their end tags."""

CODE_LAYOUT = frozenset({"overflow", "fullwidth", "expandable"})
"""`{% code %}` options that only lay the block out in GitBook's reader."""


def gitbook_plugin(md: MarkdownIt) -> None:
    """Read GitBook's hint, tabs, embed and code blocks written on lines of their own.

    Syntax::

        {% hint style="warning" %}
        The gradient is $\\nabla f$ here.
        {% endhint %}

        {% tabs %}
        {% tab title="Python" %}
        ```python
        print(1)
        ```
        {% endtab %}
        {% endtabs %}

        {% code title="grad.py" lineNumbers="true" %}
        ```python
        grad = f.grad()
        ```
        {% endcode %}

    Hints become the callout plugin's tokens, tabs the tabs plugin's, an embed a video
    player (`html_block`) or a paragraph with a link. CSS classes: those of callouts
    (`callout`), tabs (`tabset`, `tab`) and video players (`video`).
    """
    md.block.ruler.before(
        "fence",
        "gitbook_block",
        gitbook_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )


def gitbook_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a GitBook block's opening tag alone on line `start`, up to its end tag."""
    tag = line_tag(state, start)
    if tag is None or tag.kind != "tag" or tag.name not in (*PAIRED, "embed"):
        return False
    if tag.name == "embed":
        if not silent:
            _embed(state, start, end, tag)
        return True
    close = find_closer(state, start, end, PAIRED[tag.name])
    if silent:
        return True
    state.line = start + 1
    if close is None:
        closer = "{% " + PAIRED[tag.name] + " %}"
        get_state(state.env).warn(start, 1, f"`{tag.raw}` is never closed; add `{closer}`")
        return True
    _, named = shortcode_params(tag.args)
    if tag.name == "hint":
        meta: dict[str, str | None] = {"kind": named.get("style") or "info", "title": ""}
        push_callout(state, (start, close), {**meta, "collapse": None}, tag.raw)
    elif tag.name == "tabs":
        push_tabset(state, start, close, tag)
    elif tag.name == "tab":
        push_tab(state, (start, close), tag, None)
    else:
        _code(state, (start, close), tag, named)
    state.line = close + 1
    return True


def _code(state: StateBlock, lines: tuple[int, int], tag: Tag, named: dict[str, str]) -> None:
    """Push the blocks inside `{% code %}`, its title and line numbers on their fences."""
    start, close = lines
    first = len(state.tokens)
    tokenize_lines(state, start + 1, close)
    options = []
    if named.get("title"):
        options.append('title="' + named["title"].replace('"', "'") + '"')
    if named.get("lineNumbers", "").lower() == "true":
        options.append("linenos")
    known = ("title", "linenumbers", *CODE_LAYOUT)
    ignored = sorted(key for key in named if key.lower() not in known)
    fences = [token for token in state.tokens[first:] if token.type == "fence"]
    for fence in fences:
        language = fence.info.strip() or "text"  # the title is no language
        fence.info = " ".join([language, *options])
    doc = get_state(state.env)
    if not fences:
        doc.warn(start, 1, f"`{tag.raw}` holds no fenced code block; its options are ignored")
    elif ignored:
        doc.warn(
            start,
            1,
            f"`{tag.raw}`: option {', '.join(ignored)} is not supported and is ignored; "
            "GitBook's code blocks take title and lineNumbers here",
        )


def _embed(state: StateBlock, start: int, end: int, tag: Tag) -> None:
    """Push a player for an embedded YouTube or Vimeo URL, else a link to the URL; the lines
    up to `{% endembed %}` are its caption, a paragraph under it."""
    positional, named = shortcode_params(tag.args)
    url = named.get("url", positional[0] if positional else "").strip()
    close = find_closer(state, start, end, "endembed")
    state.line = (close if close is not None else start) + 1
    if not url:
        get_state(state.env).warn(start, 1, f'`{tag.raw}` has no `url`; write `url="…"`')
        return
    caption = "".join(state.getLines(start + 1, close, state.blkIndent, False)) if close else ""
    push_url_embed(state, start, tag, url, caption)
