"""tufte-jekyll's Liquid tags: sidenotes, margin notes and figures, new thoughts, epigraphs.

The tufte-jekyll theme (and the themes made from it) writes Tufte's page furniture as
Liquid tags that its Ruby plugins expand before kramdown runs; postil has each of them
already, so the tags become postil's own notes, figures and quotes:

- `{% sidenote 'id' 'text' %}` → a numbered sidenote, as `[^id]` (`postil.markdown.sidenote`);
- `{% marginnote 'id' 'text' %}` → a margin note, as `[^id]` with `{-}`;
- `{% marginfigure 'id' 'src' 'caption' %}` → a margin note holding the image and caption;
- `{% newthought 'words' %}` → the words in small capitals, opening a section;
- on a line of their own: `{% epigraph 'quote' 'author' 'source' %}` → a quote with its
  attribution; `{% maincolumn 'src' 'caption' %}` and `{% fullwidth 'src' 'caption' %}` →
  a numbered figure (`fullwidth` spans the margin too).

Tufte CSS's own markup, which posts of Eleventy, Hugo and Jekyll sites styled with
tufte-css write as raw HTML in their Markdown, is read the same (`tufte_html`):
`<label for="sn-1" class="margin-toggle sidenote-number"></label><input type="checkbox"
id="sn-1" class="margin-toggle"/><span class="sidenote">text</span>` is a numbered sidenote
and `… <span class="marginnote">text</span>` a margin note (tufte-css's README,
"Sidenotes: Footnotes and Marginal Notes"); the label and checkbox, which only open the
note on a narrow screen, may be missing. Passed through, the note had no number and no
copy in the Notes, and postil's style sheet, whose `.sidenote` shows only beside its own
toggle or in the margin, hid it on a phone.

The text of a tag is Markdown (kramdown reads the tags' output so); image paths are from
the site's root, as the theme puts `site.baseurl` before them. The `id` of a note only
pairs the theme's checkbox with its label, and is not kept. Arguments are words, or quoted
with `'` or `"` (a `\\"` inside is a quote). A tag with too few or too many arguments (a
quote left open inside one) is left to the `template` plugin, which leaves it out with a
warning saying so (`arguments_problem`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.figure import push_figure
from postil.markdown.sidenote import MARGIN_MARKER, push_inline_note
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import line_tag, scan_tag

INLINE_TAGS = {
    "sidenote": (2, 2),
    "marginnote": (2, 2),
    "marginfigure": (3, 3),
    "newthought": (1, 1),
}
"""Tags read inside text, with the least and most arguments each takes."""

BLOCK_TAGS = {"epigraph": (1, 3), "maincolumn": (2, 2), "fullwidth": (2, 2)}
"""Tags read on a line of their own, with the least and most arguments each takes."""

USAGE = {
    "sidenote": "{% sidenote 'id' 'text' %}",
    "marginnote": "{% marginnote 'id' 'text' %}",
    "marginfigure": "{% marginfigure 'id' 'path' 'caption' %}",
    "newthought": "{% newthought 'words' %}",
    "epigraph": "{% epigraph 'quote' 'author' 'source' %}",
    "maincolumn": "{% maincolumn 'path' 'caption' %}",
    "fullwidth": "{% fullwidth 'path' 'caption' %}",
}

_ARGUMENT = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)""")


def tufte_plugin(md: MarkdownIt) -> None:
    """Read tufte-jekyll's Liquid tags as postil's notes, figures and quotes.

    Syntax::

        {% newthought 'In his later books' %}, Tufte starts each section with a
        sidenote{% sidenote 'sn-1' 'In *Beautiful Evidence*.' %} and small caps.

        {% epigraph 'Nature cannot be fooled.' 'Richard P. Feynman' 'Appendix F' %}

        {% maincolumn 'assets/img/exports.png' 'From *Visual Display*.' %}

    Output: the note as the sidenote plugin renders `[^n]` (a `{-}` note for
    `marginnote` and `marginfigure`), `<span class="newthought">In his later
    books</span>`, `<blockquote class="epigraph"><p>…</p><footer>Richard P. Feynman,
    <cite>Appendix F</cite></footer></blockquote>`, and a figure as the figure plugin
    renders one (class `fullwidth` for `fullwidth`). CSS classes: newthought, epigraph,
    fullwidth.
    """
    md.inline.ruler.before("template_tag", "tufte_tag", tufte_tag)
    md.inline.ruler.before("html_inline", "tufte_html", tufte_html)
    md.block.ruler.before(
        "liquid_block", "tufte_block", tufte_block, {"alt": ["paragraph", "reference"]}
    )
    md.core.ruler.after("inline", "tufte_notes", tufte_notes)
    md.add_render_rule("newthought_open", lambda *args: '<span class="newthought">')
    md.add_render_rule("newthought_close", lambda *args: "</span>")
    md.add_render_rule("epigraph_footer_open", lambda *args: "<footer>")
    md.add_render_rule("epigraph_footer_close", lambda *args: "</footer>\n")
    md.add_render_rule("epigraph_cite_open", render_epigraph_cite_open)
    md.add_render_rule("epigraph_cite_close", lambda *args: "</cite>")


def tag_arguments(args: str) -> list[str]:
    """Return the arguments of a tufte-jekyll tag: quoted texts and bare words, as the theme
    splits them at spaces outside quotes (`1 'a b' "c \\"d\\""` → 1, a b, c "d"; a
    backslash before anything but the quote stays)."""
    words = []
    for single, double, bare in _ARGUMENT.findall(args):
        # only the quote itself is escaped: `\alpha` in a note's math stays
        words.append(single.replace("\\'", "'") or double.replace('\\"', '"') or bare)
    return words


def fitting_arguments(name: str, args: str) -> list[str] | None:
    """Return the arguments `args` of the tufte-jekyll tag `name` (`tag_arguments`) when
    their number is one the tag takes, else None (`arguments_problem` says why)."""
    least, most = INLINE_TAGS.get(name) or BLOCK_TAGS[name]
    words = tag_arguments(args)
    return words if least <= len(words) <= most else None


def arguments_problem(name: str, args: str) -> str | None:
    """Return why the arguments `args` of the tufte-jekyll tag `name` cannot be read, as a
    phrase for a warning (None: they can).

    The theme's plugins split them with Ruby's `shellsplit`, which refuses a quote left
    open: `'It's here'` reads as `'It'` and more words, so too many arguments mean the same.
    """
    if fitting_arguments(name, args) is not None:
        return None
    least, most = {**INLINE_TAGS, **BLOCK_TAGS}[name]
    count = len(tag_arguments(args))
    have = f"{count} argument{'s' if count != 1 else ''}"
    return (
        f"has {have} where `{USAGE[name]}` takes {least}"
        + (f" to {most}" if most != least else "")
        + ": quote each argument, and write a quote inside one as \\' or \\\" "
        "(or quote it with the other kind)"
    )


def tufte_tag(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{% sidenote %}`, `{% marginnote %}`, `{% marginfigure %}` or
    `{% newthought %}` with the arguments it needs."""
    if not state.src.startswith("{%", state.pos):
        return False
    tag = scan_tag(state.src, state.pos, state.posMax)
    if tag is None or tag.kind != "tag" or tag.name not in INLINE_TAGS:
        return False
    args = fitting_arguments(tag.name, tag.args)
    if args is None:
        return False  # left to the template plugin, which says why (`liquid.evaluate_liquid`)
    if not silent:
        if tag.name == "newthought":
            _newthought(state, args[0])
        else:
            _note(state, tag.name, args)
    state.pos = tag.end
    return True


NOTE_TOGGLE = re.compile(
    r"""<label\b[^>]*>[^<]*</label\s*>\s*"""
    r"""<input\b(?=[^>]*\btype\s*=\s*["']?checkbox)[^>]*>\s*""",
    re.I,
)
"""tufte-css's toggle before a note: a `<label>` (empty, or `&#8853;`) and its checkbox."""
NOTE_OPEN = re.compile(
    r"""<span\s+class\s*=\s*(["'])\s*(sidenote|marginnote)\s*\1\s*>""",
    re.I,
)
"""A note's `<span class="sidenote">` or `<span class="marginnote">`: group 2 the kind."""
SPAN_TAG = re.compile(r"<(/?)span\b[^>]*>", re.I)


def tufte_html(state: StateInline, silent: bool) -> bool:
    """Inline rule: tufte-css's note markup (module doc) up to the `</span>` that closes
    the note's span (spans inside it counted), as a note `^[text]` makes; its text is
    Markdown, as markdown-it reads text between raw tags. A span never closed in its
    paragraph is left to the raw HTML rule."""
    src, start = state.src, state.pos
    if not src.startswith("<", start) or src[start + 1 : start + 2].lower() not in "ls":
        return False
    toggle = NOTE_TOGGLE.match(src, start, state.posMax)
    opening = NOTE_OPEN.match(src, toggle.end() if toggle else start, state.posMax)
    if opening is None:
        return False
    depth = 0
    for tag in SPAN_TAG.finditer(src, opening.start(), state.posMax):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            if not silent:
                margin = opening.group(2).lower() == "marginnote"
                push_inline_note(state, start, opening.end(), tag.start(), margin=margin)
            state.pos = tag.end()
            return True
    return False


def _newthought(state: StateInline, text: str) -> None:
    """Push the words in a `newthought` span; they are parsed on their own (their emphasis
    closes inside), then added with the stream's per-token metadata kept in step."""
    state.push("newthought_open", "span", 1)
    words: list[Token] = []
    state.md.inline.parse(text, state.md, state.env, words)
    for token in words:
        token.level += state.level
    state.tokens += words
    state.tokens_meta += [None] * len(words)
    state.push("newthought_close", "span", -1)


def _note(state: StateInline, name: str, args: list[str]) -> None:
    """Push a reference to a new note and keep its text for `tufte_notes`.

    The note's label has a space, so no `[^label]` written in the post can name it.
    """
    data = state.env.setdefault("footnotes", {})
    notes = data.setdefault("list", {})
    note_id = len(notes)
    label = f"{name} {note_id}"
    notes[note_id] = {"label": label, "count": 1}
    data.setdefault("refs", {})[":" + label] = note_id
    token = state.push("footnote_ref", "", 0)
    token.meta = {"id": note_id, "subId": 0, "label": label, "pos": state.pos}
    if name == "marginfigure":
        text = f"![](<{_site_path(args[1])}>)\\\n{args[2]}"
    else:
        text = args[1]
    margin = f"{MARGIN_MARKER} " if name != "sidenote" else ""
    get_state(state.env).extra.setdefault("tufte_notes", {})[label] = margin + text


def tufte_notes(state: StateCore) -> None:
    """Core rule: add a definition for each note the tags made, where the sidenote plugin
    takes definitions from (at the line of the paragraph that refers to it)."""
    pending: dict[str, str] = get_state(state.env).extra.pop("tufte_notes", {})
    if not pending:
        return
    lines = _reference_lines(state.tokens, pending)
    for label, text in pending.items():
        line0 = lines.get(label, 0)
        opening = Token("footnote_reference_open", "", 1, meta={"label": label})
        opening.map = [line0, line0 + 1]
        children: list[Token] = []
        state.md.inline.parse(text, state.md, state.env, children)
        inline = Token("inline", "", 0, content=text, map=[line0, line0 + 1], children=children)
        state.tokens += [
            opening,
            Token("paragraph_open", "p", 1, map=[line0, line0 + 1]),
            inline,
            Token("paragraph_close", "p", -1),
            Token("footnote_reference_close", "", -1),
        ]


def _reference_lines(tokens: list[Token], labels: dict[str, str]) -> dict[str, int]:
    """Return the 0-based line of the block that holds each label's reference."""
    found: dict[str, int] = {}
    for token in tokens:
        for child in token.children or () if token.type == "inline" else ():
            if child.type == "footnote_ref" and child.meta.get("label") in labels:
                found[child.meta["label"]] = (token.map or [0])[0]
    return found


def tufte_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: an `epigraph`, `maincolumn` or `fullwidth` tag alone on its line."""
    tag = line_tag(state, start)
    if tag is None or tag.kind != "tag" or tag.name not in BLOCK_TAGS:
        return False
    args = fitting_arguments(tag.name, tag.args)
    if args is None:
        return False  # left to the template plugin, which says why (`liquid.evaluate_liquid`)
    if not silent:
        if tag.name == "epigraph":
            _epigraph(state, start, args)
        else:
            classes = ["fullwidth"] if tag.name == "fullwidth" else []
            push_figure(state, start, _site_path(args[0]), args[1], classes=classes)
        state.line = start + 1
    return True


def _epigraph(state: StateBlock, line: int, args: list[str]) -> None:
    """Push a quote with its author and source (either may be missing)."""
    where = [line, line + 1]
    opening = state.push("blockquote_open", "blockquote", 1)
    opening.attrs, opening.map = {"class": "epigraph"}, where
    _paragraph(state, args[0], where)
    author, source = (args[1:] + ["", ""])[:2]
    if author.strip() or source.strip():
        state.push("epigraph_footer_open", "footer", 1)
        _inline(state, author.strip(), where)
        if source.strip():
            state.push("epigraph_cite_open", "cite", 1).meta = {"after": bool(author.strip())}
            _inline(state, source.strip(), where)
            state.push("epigraph_cite_close", "cite", -1)
        state.push("epigraph_footer_close", "footer", -1)
    state.push("blockquote_close", "blockquote", -1)


def _paragraph(state: StateBlock, text: str, where: list[int]) -> None:
    state.push("paragraph_open", "p", 1).map = where
    _inline(state, text.strip(), where)
    state.push("paragraph_close", "p", -1)


def _inline(state: StateBlock, text: str, where: list[int]) -> None:
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = text, where, []


def _site_path(path: str) -> str:
    """Return a tag's image path from the site's root (`assets/a.png` → `/assets/a.png`),
    as the theme writes `{{ site.baseurl }}/` before it; a full URL stays."""
    path = path.strip()
    return path if "://" in path or path.startswith(("/", "data:")) else "/" + path


def render_epigraph_cite_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open the source's `<cite>`, after a comma when an author comes before it."""
    return ", <cite>" if tokens[idx].meta.get("after") else "<cite>"
