"""Bracketed spans: `[text]{.class key=value}` (Pandoc, Quarto, Djot).

Pandoc's `bracketed_spans` extension (on in Pandoc's Markdown, so in Quarto, R Markdown and
Hakyll) and Djot give a piece of text attributes by writing it in brackets with an
attribute list right after the `]`. Without this plugin the brackets and braces showed as
written. A few classes mean something to Pandoc's HTML writer or to Quarto, and postil
does what they do:

- `.underline` is `<u>`, `.mark` is `<mark>` (Pandoc's HTML writer);
- `.smallcaps` keeps its class, which the theme sets in small capitals (as Pandoc's
  default stylesheet does);
- `.aside` and `.column-margin` put the text in the margin as an unnumbered margin note
  (Quarto's "asides"; `postil.markdown.sidenote`), where the text column has no room for
  the margin it is shown under its line, as every margin note is.

Other attributes pass the attrs plugin's allow-list (`postil.markdown.attrlist`), each
refused one a warning. A link written `[text]{…}` whose `[text]` names a link reference
definition stays a link with those attributes (the link rule runs first), as in Pandoc;
`[^id]{…}` is a note followed by text.
Source: Pandoc's manual, "Extension: bracketed_spans" and "Divs and Spans"; Quarto's
"Article Layout", "Asides".
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from postil.markdown.attrlist import attribute_end, read_attributes
from postil.markdown.attrs import apply_attributes
from postil.markdown.sidenote import push_inline_note
from postil.markdown.state import find_ahead

ELEMENTS = {"underline": "u", "mark": "mark"}
"""Classes that make the span another element (Pandoc's HTML writer), class -> tag."""

MARGIN_CLASSES = frozenset({"aside", "column-margin"})
"""Classes that make the span a margin note (Quarto)."""


def span_plugin(md: MarkdownIt) -> None:
    """Read `[text]{attributes}` as a span of `text` (see the module).

    Syntax::

        [Mozart]{.smallcaps} was [very]{.underline} [busy]{.mark}.
        → <span class="smallcaps">Mozart</span> was <u>very</u> <mark>busy</mark>.

        A claim.[The margin has room for this.]{.aside}
        → a margin note, as `^[{-} The margin has room for this.]` is

    The attribute list must touch the `]` (`[a] {.x}` stays text) and be one whole list
    (`[a]{}` and `[a]{% tag %}` stay text). CSS classes: smallcaps (the author's own).
    """
    md.inline.ruler.after("footnote_ref", "bracketed_span", bracketed_span)


def bracketed_span(state: StateInline, silent: bool) -> bool:
    """Inline rule: `[text]{attributes}` that is not a link (see the module)."""
    start = state.pos
    if state.src[start] != "[" or find_ahead(state, "]{", start) < 0:
        return False  # no `]{` ahead: no label scan (from each `[` of `[a [b …`: quadratic)
    label_end = state.md.helpers.parseLinkLabel(state, start)
    brace = label_end + 1
    if label_end < 0 or brace >= state.posMax or state.src[brace] != "{":
        return False
    end = attribute_end(state.src, brace, state.posMax)
    attrs = read_attributes(state.src[brace:end]) if end > 0 else None
    if attrs is None:
        return False
    if not silent:
        classes = attrs.get("class", "").split()
        if MARGIN_CLASSES.intersection(classes):
            push_inline_note(state, start, start + 1, label_end, margin=True)
        else:
            _push_span(state, start + 1, label_end, attrs, classes)
    state.pos = end
    return True


def _push_span(
    state: StateInline, text_start: int, text_end: int, attrs: dict[str, str], classes: list[str]
) -> None:
    """Push the span's opening token, its text's tokens and its closing token."""
    tag = next((ELEMENTS[c] for c in classes if c in ELEMENTS), "span")
    kept = [c for c in classes if c not in ELEMENTS]
    attrs = {k: v for k, v in attrs.items() if k != "class"} | (
        {"class": " ".join(kept)} if kept else {}
    )
    opening = state.push("bracketed_span_open", tag, 1)
    apply_attributes(opening, attrs)
    old_max = state.posMax
    state.pos, state.posMax = text_start, text_end
    state.md.inline.tokenize(state)
    state.posMax = old_max
    state.push("bracketed_span_close", tag, -1)
