"""Zola shortcodes in posts moved from Zola: the ones math blogs' themes define, and a warning.

Zola calls a shortcode as a function (Zola's documentation, "Shortcodes"): `{{ name(k=v, …) }}`
inside text or on a line of its own, and `{% name(k=v) %}` … `{% end %}` around a body. The
arguments are named; a value is a string in `"`, `'` or `` ` `` (taken as written, no escapes),
a number, `true`/`false`, or an array of those. `{{/* … */}}` and `{%/* … */%}` show the
shortcode as text, in code too (`postil.markdown.tagsyntax.scan_tag`'s "literal" tags).

Zola ships only `youtube`, `vimeo`, `streamable` and `gist`; every other shortcode is the
theme's (`templates/shortcodes/<name>.html`), so postil reads the names themes commonly give
to what it has a feature for:

- math (`MATH`: `katex`, `math`, `mathjax`, `latex`, `tex`, and `m` for inline math):
  `{{ katex(body="\\KaTeX") }}` is inline math (`block=true`: display), a body on lines of its
  own display math (`block=false`, `m`: inline);
- callouts (`CALLOUTS`: `note`, `alert`, `admonition`, `callout`, `info`, `warning`, …) and
  folds (`FOLDS`: `details`, `spoiler`, `collapse`, …) → postil's callouts
  (`postil.markdown.shortcodecallout`), their kind from `type=`/`kind=`/`style=`, a flag
  (Duckquill's `alert(tip=true)`) or the name, their title from `title=`/`header=`, their
  Markdown from the body or `body=`/`text=`;
- `quote` → a block quote with its `author`; `mermaid` → a ```` ```mermaid ```` fence, a
  diagram (`postil.markdown.diagram`);
- `youtube`, `vimeo` → a video player (`postil.markdown.embed`); `streamable`, `gist` → a link;
- figures (`FIGURES`: `figure`, `image`, `img`, …) → a numbered figure when captioned, else
  an image.

Any other shortcode is left out with a warning naming it (its body stays, as Markdown).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from postil.markdown.liquid import Value
from postil.markdown.state import RenderState
from postil.markdown.tagsyntax import Tag, scan_tag
from postil.markdown.zolablock import zola_block
from postil.markdown.zolasyntax import (
    CALLOUTS,
    DIAGRAMS,
    END,
    FIGURES,
    FOLDS,
    LINKED,
    MATH,
    QUOTES,
    VIDEOS,
    arg_start,
    call_args,
    tex_arg,
    truthy,
    unreadable,
    unsupported,
)

_ESCAPED = re.compile(r"\{([{%])/\*(.*?)\*/([}%])\}", re.S)
"""Zola's escaped shortcode in code (`zola_code_escape`)."""


def zola_plugin(md: MarkdownIt) -> None:
    """Read Zola shortcodes: math in text, blocks on lines of their own (`zolablock`).

    Syntax::

        Inline {{ katex(body="\\KaTeX") }} and a block:

        {% katex(block=true) %}
        \\int_0^1 x\\,dx = \\tfrac12
        {% end %}

        {% admonition(type="tip", title="Hint") %}
        Markdown **here**.
        {% end %}

    Math becomes the math plugin's tokens; callouts its `shortcode_callout_*` tokens; other
    shortcodes inside a line are `template_tag`s the `template` plugin reports. CSS classes:
    those of math, callouts, figures and video players.
    """
    md.block.ruler.before(
        "fence",
        "zola_block",
        zola_block,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.inline.ruler.before("escape", "zola_math", zola_math)
    md.core.ruler.after("inline", "zola_code_escape", zola_code_escape)


def zola_math(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{{ katex(body="x") }}` or `{% katex() %}x{% end %}` as math."""
    if not state.src.startswith(("{{", "{%"), state.pos):
        return False
    tag = scan_tag(state.src, state.pos, state.posMax)
    if tag is None or tag.kind != "zola" or tag.closing or tag.name not in MATH:
        return False
    args = call_args(tag) or {}
    display = truthy(args, "block", "display") is True
    if tag.raw.startswith("{{"):
        name = tex_arg(args)
        if name is None:
            return False  # the `template` plugin reports it
        begin = arg_start(state.src, tag, name)
        stop, end = begin + len(args[name]), tag.end
    else:
        closing = END.search(state.src, tag.end, state.posMax)
        if closing is None:
            return False
        begin, stop, end = tag.end, closing.start(), closing.end()
    if not silent:
        token = state.push("math_inline_display" if display else "math_inline", "math", 0)
        token.content = state.src[begin:stop]
        delims = (state.src[tag.start : begin], state.src[stop:end])
        token.meta = {"offset": begin, "delims": delims, "removed": ()}
    state.pos = end
    return True


def zola_code_escape(state: StateCore) -> None:
    """Show Zola's escaped shortcode in code as Zola does: `{{/* x() */}}` → `{{ x() }}`.

    Zola reads shortcodes in code blocks and spans too, so posts about shortcodes write the
    escape there (tabi's and Zola's own documentation do); other template syntax in code
    stays as written.
    """
    for token in state.tokens:
        if token.type in ("fence", "code_block") and "/*" in token.content:
            token.content = _ESCAPED.sub(_unescape, token.content)
        elif token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "code_inline" and "/*" in child.content:
                    child.content = _ESCAPED.sub(_unescape, child.content)


def _unescape(match: re.Match[str]) -> str:
    tag = scan_tag(match.group(0), 0)
    return tag.inner if tag is not None and tag.kind == "literal" else match.group(0)


def evaluate_zola(tag: Tag, doc: RenderState) -> Value:
    """Return what a Zola shortcode inside a line (or raw HTML, a link) evaluates to.

    `{% end %}` gives nothing (the body stays); a shortcode postil reads on a line of its
    own gives nothing and a warning saying to move it there; any other, nothing and a
    warning naming it (`unsupported`).
    """
    if tag.closing:
        return Value("")
    if call_args(tag) is None:
        return Value(None, unreadable(tag))
    body = tag.raw.startswith("{%")
    if tag.name in MATH:
        fix = "add `{% end %}` after its TeX, in the same paragraph"
        return Value(
            None,
            f"`{tag.raw}` is never closed; {fix}; it is left out"
            if body
            else f'`{tag.raw}` gives no formula: write its TeX as `body="…"`; it is left out',
        )
    if tag.name in CALLOUTS | FOLDS | QUOTES | VIDEOS | FIGURES | DIAGRAMS | set(LINKED):
        where = "it and `{% end %}` on lines of their own" if body else "it on a line of its own"
        return Value(
            None,
            f"Zola shortcode `{tag.raw}` is read only on a line of its own; put {where}; it "
            "is left out" + (" (its body stays)" if body else ""),
        )
    return Value(None, unsupported(tag))
