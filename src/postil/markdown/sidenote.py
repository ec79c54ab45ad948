"""Footnotes as sidenotes and margin notes, plus a "Notes" list at the end of the page.

Parsing is mdit-py-plugins' footnote plugin (`[^id]` references, `[^id]: text` definitions,
indented continuation paragraphs, Pandoc's inline notes `^[…]`); this module replaces its
tail rule and renderers.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.footnote.index import footnote_inline, footnote_ref

from postil.markdown.code import is_diagram_block
from postil.markdown.diagram import render_margin_diagram
from postil.markdown.footnotedef import (
    next_line_definitions,
    spaced_label,
    with_label_key,
    written,
)
from postil.markdown.state import get_state

INLINE_LABEL = "inline {}"
"""The label of the inline note with a footnote id: a space, which no `[^id]` label has."""

MARGIN_MARKER = "{-}"
"""A note whose text starts with this is an unnumbered margin note (pandoc-sidenote's rule)."""

BACKREF_GLYPH = "\u21a9\ufe0e"
"""↩ with VS15 so iOS does not draw it as an emoji (as markdown-it-footnote does)."""


@dataclass
class Note:
    """One footnote definition as the page shows it.

    Attributes:
        label: the `id` of `[^id]`.
        kind: "numbered" (sidenote + Notes list), "margin" (`{-}`: margin only) or "missing"
            (referenced, never defined).
        number: 1-based number among numbered notes, or among margin notes; 0 when missing.
        body: the definition's block tokens (paragraphs, lists, code), `{-}` removed.
        references: how many `[^id]` references point at it.
        margin: the body its margin copies show, when that is not `body` itself: in a
            document parsed in groups, the gathering run's finished copy (a margin copy
            may come before the definition's group).
    """

    label: str
    kind: str
    number: int = 0
    body: list[Token] = field(default_factory=list)
    references: int = 0
    margin: list[Token] | None = None


def sidenote_plugin(md: MarkdownIt) -> None:
    """Render footnotes as numbered sidenotes, `{-}` notes as margin notes, and a Notes list.

    Syntax (Pandoc footnotes; pandoc-sidenote's `{-}` margin notes)::

        The mask is applied as a large negative number.[^mask] It is cheap.[^aside]

        [^mask]: Not true $-\\infty$, so fully masked rows give no NaNs.
        [^aside]: {-} An unnumbered note, shown in the margin only.

    Output, inside the paragraph (phrasing content only)::

        <sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup>
        <button type="button" class="sidenote-toggle" aria-expanded="false"
                aria-controls="sn-1" aria-label="Note 1" hidden>⊕</button>
        <span class="sidenote" id="sn-1" aria-hidden="true">
          <span class="sidenote-number">1</span> <span class="sidenote-para">…</span></span>

    and at the end `<section class="footnotes" aria-labelledby="notes"><h2 id="notes">Notes`
    with `<li id="fn-N">` items ending in `<a class="footnote-backref">↩︎</a>`. Margin notes
    render as a toggle plus `<span class="marginnote" id="mn-K">` (not aria-hidden: it is the
    only copy) and are not listed under Notes. The margin copy of a numbered note is
    aria-hidden (screen readers read the Notes list) and its links get `tabindex="-1"`.
    The toggles start `hidden`; `static/js/article.js` reveals them and flips
    `aria-expanded`. CSS classes: footnote-ref, footnote-missing, sidenote, sidenote-number,
    sidenote-para, sidenote-code, sidenote-toggle, marginnote, footnotes, footnote-backref.

    Problems (warnings): a reference to an undefined note (rendered as
    `<sup class="footnote-missing">id</sup>`, never as literal `[^id]`), a duplicate definition
    (the first one wins, as for CommonMark link references), and a definition that nothing
    references (left out of the page).

    Pandoc's inline notes, `text^[the note, with $x$]` (Quarto's, R Markdown's; tufte's
    R package writes its sidenotes so), are notes too, numbered with the others in the
    order of their references; `^[{-} …]` is a margin note (pandoc-sidenote's rule).
    """
    footnote_plugin(md, inline=False, move_to_end=False, always_match_refs=True)
    footnote_def = md.block.ruler.__rules__[md.block.ruler.__find__("footnote_def")].fn
    md.block.ruler.at(  # as mdit-py-plugins registers it: a definition ends a paragraph
        "footnote_def", next_line_definitions(footnote_def), {"alt": ["paragraph", "reference"]}
    )
    md.inline.ruler.at("footnote_ref", footnote_ref_located)
    md.inline.ruler.before("footnote_ref", "footnote_inline", footnote_inline_located)
    md.core.ruler.after("inline", "sidenote_tail", sidenote_tail)
    md.add_render_rule("footnote_ref", render_footnote_ref)
    md.add_render_rule("sidenote_ref_plain", render_sidenote_ref_plain)
    md.add_render_rule("footnote_block_open", render_footnote_block_open)
    md.add_render_rule("footnote_block_close", render_footnote_block_close)
    md.add_render_rule("footnote_open", render_footnote_open)
    md.add_render_rule("footnote_close", render_footnote_close)
    md.add_render_rule("footnote_anchor", render_footnote_anchor)


def footnote_ref_located(state: StateInline, silent: bool) -> bool:
    """Parse `[^id]` like mdit-py-plugins, recording the offset in the inline source in `meta`.

    A label holding spaces (`[^my note]`, Python-Markdown's) is a reference when a definition
    has that label (`footnotedef.spaced_label`); otherwise it stays text, as it was."""
    start = state.pos
    if not state.src.startswith("[^", start):
        return False
    close = state.src.find("]", start + 2, state.posMax)
    label = state.src[start + 2 : close]
    if close > 0 and " " in label:
        key = spaced_label(label)
        if key is None or ":" + key not in state.env.get("footnotes", {}).get("refs", {}):
            return False
        matched = with_label_key(state, start + 2, close, key, footnote_ref, silent)
    else:
        matched = footnote_ref(state, silent, always_match=True)
    if matched and not silent:
        state.tokens[-1].meta["pos"] = start
    return matched


def footnote_inline_located(state: StateInline, silent: bool) -> bool:
    """Parse Pandoc's inline note `^[…]` like mdit-py-plugins, recording where it starts in
    `meta` and naming its entry with a label no `[^id]` can have (`INLINE_LABEL`)."""
    start = state.pos
    matched = footnote_inline(state, silent)
    if matched and not silent:
        note_id = state.tokens[-1].meta["id"]
        state.tokens[-1].meta["pos"] = start
        entry = state.env["footnotes"]["list"][note_id]
        entry.update(label=INLINE_LABEL.format(note_id), count=1, offset=start + 2)
    return matched


def push_inline_note(
    state: StateInline, start: int, text_start: int, text_end: int, *, margin: bool
) -> None:
    """Push a reference to a new inline note whose text is `state.src[text_start:text_end]`,
    as `^[…]` makes one (`footnote_inline_located`); `margin`: an unnumbered margin note,
    as if its text began with `{-}`.

    For other syntaxes of a note written where it belongs (Quarto's `[text]{.aside}`,
    `postil.markdown.span`); `start` is where the syntax begins, for locating problems.
    """
    entries = state.env.setdefault("footnotes", {}).setdefault("list", {})
    state.env["footnotes"].setdefault("refs", {})
    note_id = len(entries)
    tokens: list[Token] = []
    content = state.src[text_start:text_end]
    entries[note_id] = {"content": content, "tokens": tokens, "count": 1, "margin": margin}
    entries[note_id]["offset"] = text_start  # where its text starts, for locating problems
    entries[note_id]["label"] = INLINE_LABEL.format(note_id)
    state.md.inline.parse(content, state.md, state.env, tokens)
    token = state.push("footnote_ref", "", 0)
    token.meta = {"id": note_id, "pos": start}


# ## Core rule ##


def sidenote_tail(state: StateCore) -> None:
    """Collect definitions, number notes in reference order, report problems, add Notes.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) each group's
    definitions are taken out as it comes; the notes are numbered when the first group is
    rendered, from the gathering run's references and definitions (a note may be defined
    after the group that shows its margin copy), and the Notes list ends the last group.
    """
    data = state.env.get("footnotes")
    if not data or not (data.get("list") or data.get("refs")):
        return
    doc = get_state(state.env)
    run = doc.groups
    carry = run.carry.setdefault("sidenote", {"definitions": {}, "notes": None})
    definitions = carry["definitions"]
    _take_definitions(state, definitions)
    if carry["notes"] is None and (run.last or not run.ahead):
        carry["notes"] = _numbered(state, data, definitions)
    notes = carry["notes"]
    if notes is None:
        return  # gathering, before the last group: the definitions are all it needs
    doc.step(2)
    for token in state.tokens:
        if token.type == "inline" and token.children:
            _annotate_refs(state, token, notes)
    if run.last:
        if "sidenote" in run.facts:
            _own_bodies(notes, definitions, data.get("list", {}))
        doc.step(3)
        for note in notes.values():
            for token in note.body:
                if token.type == "inline" and token.children:
                    _annotate_refs(state, token, notes)
        state.tokens.extend(_notes_list(notes))


def _numbered(state: StateCore, data: dict[str, Any], definitions: dict) -> dict[int, Note]:
    """Return the document's notes by footnote id, reporting unreferenced definitions.

    With every definition at hand (a document of one group, or the gathering run's last
    group) the notes are made from them, and the gathering run keeps them: their bodies,
    which the rules after this one finish, are what margin copies show in the later run,
    where a note's first reference is often groups before its definition. That run's notes
    take the numbers and kinds of those, and their own bodies at the last group
    (`_own_bodies`), for the Notes list the rules after this one finish once.
    """
    run = get_state(state.env).groups
    found = run.facts.get("sidenote")
    if found is None:
        notes = _classify(data.get("list", {}), definitions)
        if run.ahead:
            run.facts["sidenote"] = (notes, definitions)
    else:
        ahead, definitions = found
        notes = {
            note_id: Note(note.label, note.kind, note.number, [], note.references, note.body)
            for note_id, note in ahead.items()
        }
    get_state(state.env).step(1)
    _report_unreferenced(state, definitions, notes)
    return notes


def _own_bodies(notes: dict[int, Note], definitions: dict, entries: dict) -> None:
    """Give the notes of a later run the bodies it took out itself (`_numbered`), and its
    inline notes the bodies it parsed."""
    for note_id, note in notes.items():
        if note.kind == "missing":
            continue
        if note.label == INLINE_LABEL.format(note_id):
            note.body = _inline_body(entries[note_id])
        else:
            note.body = definitions[note.label][0]
        _strip_margin_marker(note.body)


def _inline_body(entry: dict[str, Any]) -> list[Token]:
    """Return an inline note's body as a definition's: one paragraph of its inline tokens."""
    inline = Token("inline", "", 0, content=entry["content"], children=entry["tokens"])
    opening, closing = Token("paragraph_open", "p", 1), Token("paragraph_close", "p", -1)
    for token in (opening, inline, closing):
        token.block = True
    return [opening, inline, closing]


def _take_definitions(state: StateCore, definitions: dict[str, tuple[list[Token], int]]) -> None:
    """Remove `footnote_reference_*` sections from the stream into `definitions` (label ->
    (body, line0)), reporting a label defined again."""
    kept: list[Token] = []
    current: list[Token] | None = None
    for token in state.tokens:
        if token.type == "footnote_reference_open":
            current = []
            label, line0 = token.meta["label"], (token.map or [0])[0]
            if label in definitions:
                _report_duplicate(state, label, line0, definitions[label][1])
            else:
                definitions[label] = (current, line0)
        elif token.type == "footnote_reference_close":
            current = None
        elif current is not None:
            current.append(token)
        else:
            kept.append(token)
    state.tokens = kept


def _report_duplicate(state: StateCore, label: str, line0: int, first0: int) -> None:
    render_state = get_state(state.env)
    first_line = render_state.body_line + first0
    render_state.warn(
        line0,
        _column_of(state.src, line0, f"[^{written(label)}]:"),
        f"note [^{written(label)}] is defined twice (first on line {first_line}); the first "
        "definition is used: rename one of the labels or delete the duplicate",
    )


def _classify(entries: dict[int, dict[str, Any]], definitions: dict) -> dict[int, Note]:
    """Return footnote id -> Note, numbering numbered and margin notes separately."""
    notes: dict[int, Note] = {}
    counters = {"numbered": 0, "margin": 0}
    for note_id, entry in sorted(entries.items()):
        label = entry["label"]
        if "tokens" in entry:  # an inline note, `^[…]`: its body is its own text
            body = _inline_body(entry)
        elif label not in definitions:
            notes[note_id] = Note(label, "missing", references=entry["count"])
            continue
        else:
            body = definitions[label][0]
        margin = _strip_margin_marker(body) or entry.get("margin", False)
        kind = "margin" if margin else "numbered"
        counters[kind] += 1
        notes[note_id] = Note(label, kind, counters[kind], body, entry["count"])
    return notes


def _strip_margin_marker(body: list[Token]) -> bool:
    """Remove a leading `{-}` from a note's first paragraph; return whether there was one."""
    if len(body) < 2 or body[0].type != "paragraph_open" or body[1].type != "inline":
        return False
    inline = body[1]
    children = inline.children or []
    if not children or children[0].type != "text":
        return False
    text = children[0].content.lstrip()
    if not text.startswith(MARGIN_MARKER):
        return False
    children[0].content = text[len(MARGIN_MARKER) :].lstrip()
    inline.content = inline.content.lstrip()[len(MARGIN_MARKER) :].lstrip()
    return True


def _report_unreferenced(state: StateCore, definitions: dict, notes: dict[int, Note]) -> None:
    """Warn about each definition no reference reads, naming a reference written inside
    raw HTML, where Markdown is not read (alphagov/govspeak#69: `<p>text[^1]</p>`)."""
    referenced = {note.label for note in notes.values()}
    for label, (_, line0) in definitions.items():
        if label in referenced:
            continue
        html_line = _reference_in_html(state.tokens, f"[^{written(label)}]")
        if html_line is None:
            reason = "defined but never referenced, so it is left out of the page"
            fix = f"add [^{written(label)}] where it belongs or delete the definition"
        else:
            at = get_state(state.env).body_line + html_line
            reason = (
                f"referenced only inside raw HTML (line {at}), where Markdown is not read, "
                "so it is left out of the page"
            )
            fix = 'write that text in Markdown, or add markdown="1" to its HTML element'
        get_state(state.env).warn(
            line0,
            _column_of(state.src, line0, f"[^{written(label)}]:"),
            f"note [^{written(label)}] is {reason}; {fix}",
        )


def _reference_in_html(tokens: list[Token], reference: str) -> int | None:
    """Return the 0-based body line of the first raw HTML block holding `reference`."""
    for token in tokens:
        if token.type == "html_block" and reference in token.content and token.map:
            index = token.content.index(reference)
            return token.map[0] + token.content.count("\n", 0, index)
    return None


def _annotate_refs(state: StateCore, inline: Token, notes: dict[int, Note]) -> None:
    """Attach each `footnote_ref` child's Note; warn about references to undefined notes
    and about notes inside a link's text."""
    children = inline.children or []
    types = [child.type for child in children]
    if "footnote_ref" not in types:
        return  # most inline tokens: one pass over their children's types
    if "link_open" in types:
        _notes_after_links(children)
    for index, child in enumerate(children):
        if child.type != "footnote_ref" or "note" in child.meta:
            continue
        note = notes[child.meta["id"]]
        child.meta["note"] = note
        if index + 1 < len(children) and children[index + 1].content.startswith("]("):
            _warn_note_in_link(state, inline, child, note)
        if note.label == INLINE_LABEL.format(child.meta["id"]) and note.body:
            # an inline note's text is on its reference's line: its math errors point there
            line0, _ = _locate(state.src, inline, child.meta.get("pos", 0))
            for token in note.body:
                token.map = [line0, line0 + 1]
        if note.kind == "missing":
            line0, col = _locate(state.src, inline, child.meta.get("pos", 0))
            label = written(note.label)
            get_state(state.env).warn(
                line0,
                col,
                f"note [^{label}] is referenced but never defined; add a line "
                f'"[^{label}]: text" below the paragraph, or write \\[^{label}] '
                "for literal text",
            )


def _notes_after_links(children: list[Token]) -> None:
    """Move each note reference that stands inside a link (Pandoc's `[the terms^[a note]](url)`,
    which markdown-it's link rule reads as a link holding the note) to right after the link:
    a link inside a link is not HTML (a browser splits them, leaving the link's text after
    the note unlinked), and neither is the note's toggle button inside a link."""
    depth, index = 0, 0
    held: list[Token] = []
    while index < len(children):
        child = children[index]
        if child.type == "link_open":
            depth += 1
        elif child.type == "link_close" and depth:
            depth -= 1
            if not depth and held:
                children[index + 1 : index + 1] = held
                index += len(held)
                held = []
        elif child.type == "footnote_ref" and depth:
            held.append(children.pop(index))
            continue
        index += 1


def _warn_note_in_link(state: StateCore, inline: Token, ref: Token, note: Note) -> None:
    """Warn that the note `ref` stands inside a link's text (`[the terms[^t]](url)`), which
    CommonMark's rule that links hold no links leaves as text, as markdown-it-footnote and
    GitHub do (commonmark/commonmark-java#400); Pandoc and kramdown nest the note's link in
    the link, which HTML does not allow."""
    inline_note = note.label == INLINE_LABEL.format(ref.meta["id"])
    shown = "^[…]" if inline_note else f"[^{written(note.label)}]"
    line0, col = _locate(state.src, inline, ref.meta.get("pos", 0))
    get_state(state.env).warn(
        line0,
        col,
        f"note `{shown}` is inside a link's text, so the link shows as text (a link "
        f"holds no other link); put the note after the link: `[text](url){shown}`",
    )


def _locate(src: str, inline: Token, pos: int) -> tuple[int, int]:
    """Return (0-based body line, 1-based column) of offset `pos` in an inline token's content."""
    before = inline.content[:pos]
    line0 = (inline.map or [0])[0] + before.count("\n")
    line_start = before.rfind("\n") + 1
    content_line = inline.content[line_start:].split("\n", 1)[0]
    lines = src.split("\n")
    source_line = lines[line0] if 0 <= line0 < len(lines) else ""
    indent = max(source_line.find(content_line), 0) if content_line else 0
    return line0, indent + pos - line_start + 1


def _column_of(src: str, line0: int, needle: str) -> int:
    """Return the 1-based column of `needle` on body line `line0`, or 1 if it is not there."""
    lines = src.split("\n")
    line = lines[line0] if 0 <= line0 < len(lines) else ""
    return max(line.find(needle), 0) + 1


def _notes_list(notes: dict[int, Note]) -> list[Token]:
    """Return the tokens of the Notes section: numbered notes only, with back-links."""
    numbered = [note for note in notes.values() if note.kind == "numbered"]
    if not numbered:
        return []
    tokens = [Token("footnote_block_open", "section", 1)]
    for note in numbered:
        tokens.append(Token("footnote_open", "li", 1, meta={"number": note.number}))
        body = list(note.body)
        tail = [body.pop()] if body and body[-1].type == "paragraph_close" else []
        anchors = [
            Token("footnote_anchor", "a", 0, meta={"number": note.number, "sub": sub})
            for sub in range(max(note.references, 1))
        ]
        tokens.extend([*body, *anchors, *tail])
        tokens.append(Token("footnote_close", "li", -1))
    tokens.append(Token("footnote_block_close", "section", -1))
    return tokens


# ## Renderers ##


def _suffix(sub: int) -> str:
    """Return the id suffix of the `sub`-th (0-based) reference to one note: "", "-2", "-3"."""
    return f"-{sub + 1}" if sub > 0 else ""


def _toggle(target: str, name: str) -> str:
    """Return the narrow-screen toggle button for the note with id `target`."""
    return (
        f'<button type="button" class="sidenote-toggle" aria-expanded="false" '
        f'aria-controls="{target}" aria-label="{escapeHtml(name)}" hidden>\u2295</button>'
    )


def render_footnote_ref(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render a reference: marker, toggle and margin copy (or a marked missing note).

    Only a note's first reference carries its text into the margin; a later one is a marker
    linking to the note (the Notes entry, or the margin note), so the text shows once.
    """
    note: Note = tokens[idx].meta["note"]
    sub = tokens[idx].meta.get("subId", 0)
    if note.kind == "missing":
        return f'<sup class="footnote-missing">{escapeHtml(written(note.label))}</sup>'
    if sub > 0:
        return _repeat_marker(note, sub)
    if note.kind == "margin":
        target = f"mn-{note.number}{_suffix(sub)}"
        body = _render_margin_body(self, note, options, env, hidden=False)
        return (
            f'{_toggle(target, "Margin note")}<span class="marginnote" id="{target}">{body}</span>'
        )
    n, target = note.number, f"sn-{note.number}{_suffix(sub)}"
    body = _render_margin_body(self, note, options, env, hidden=True)
    return (
        f'<sup class="footnote-ref"><a href="#fn-{n}" id="fnref-{n}{_suffix(sub)}">{n}</a></sup>'
        f'{_toggle(target, f"Note {n}")}<span class="sidenote" id="{target}" aria-hidden="true">'
        f'<span class="sidenote-number">{n}</span> {body}</span>'
    )


def _repeat_marker(note: Note, sub: int) -> str:
    """Render a later reference to a note: a marker linking to the text shown once."""
    if note.kind == "margin":
        return (
            f'<sup class="footnote-ref"><a href="#mn-{note.number}" '
            f'aria-label="Margin note">\u2295</a></sup>'
        )
    n = note.number
    return f'<sup class="footnote-ref"><a href="#fn-{n}" id="fnref-{n}{_suffix(sub)}">{n}</a></sup>'


def _render_margin_body(self: Any, note: Note, options: Any, env: Any, *, hidden: bool) -> str:
    """Render a note's body as phrasing content: paragraphs become spans, code becomes code,
    display math a `math-display` span, a diagram a `span.mermaid` the page draws."""
    parts = []
    for token in note.body if note.margin is None else note.margin:
        if token.type == "inline":
            children = [_margin_child(child) for child in token.children or []]
            inner = self.renderInline(children, options, env)
            if hidden:  # the Notes list holds the ids an author wrote (`[x]{#id}`, `<a id>`)
                inner = unfocusable(ANY_ID_ATTRIBUTE.sub("", inner))
            parts.append(f'<span class="sidenote-para">{inner}</span>')
        elif token.type in ("fence", "code_block") and is_diagram_block(token):
            parts.append(render_margin_diagram(token.content, get_state(env)))
        elif token.type in ("fence", "code_block"):
            code = escapeHtml(token.content.rstrip("\n"))
            parts.append(f'<code class="sidenote-code">{code}</code>')
        elif token.type == "math_block":
            formula = _margin_formula(self, token, options, env)
            if hidden:  # the Notes list has the ids of its numbered rows
                formula = unfocusable(ID_ATTRIBUTE.sub("", formula))
            parts.append(f'<span class="sidenote-para">{formula}</span>')
    return "".join(parts)


def _margin_formula(self: Any, token: Token, options: Any, env: Any) -> str:
    """Render a note's display formula (`$$…$$` on its own lines) as phrasing content: a
    `math-display` span, as `\\[…\\]` inside a paragraph renders. The margin copy left
    such a formula out, so a note of one equation showed an empty sidenote and a margin
    note (the only copy) lost it."""
    display = copy.copy(token)
    display.type = "math_inline_display"
    return str(self.renderInline([display], options, env))


FOCUSABLE = re.compile(r"<(?:a|button|input|select|textarea|summary|iframe)\b[^>]*?(?=\s*/?>)")
"""A start tag of what a keyboard may reach (a link, a form control, a frame), up to its `>`."""

_ATTR_TABINDEX = re.compile(r"\stabindex\s*=", re.I)
ID_ATTRIBUTE = re.compile(r' id="[^"]*"')
"""An `id` attribute as the renderers write it (double quotes; a `"` in a value is `&quot;`)."""
ANY_ID_ATTRIBUTE = re.compile(r"""\sid\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)""", re.I)
"""An `id` attribute as the renderers and raw HTML write it (HTML's three value syntaxes):
a numbered note's margin copy leaves them out, so each id of the page is the Notes
list's, once (a duplicate id is invalid HTML, and a link to it lands on the first)."""
SCROLL_FOCUS = ' tabindex="0"'
"""What a wide formula's `math-display` box or a table's wrapper takes the keyboard's focus
with (to scroll it)."""
_ATTR_HREF = re.compile(r"\shref\s*=", re.I)


def unfocusable(html: str) -> str:
    """Return `html` with `tabindex="-1"` on each link (`<a href>`), form control and frame
    that has no `tabindex`, and `tabindex="-1"` on a box that scrolls by keyboard (a display
    formula's `math-display` span): a margin copy is hidden from screen readers, and axe's
    `aria-hidden-focus` asks that nothing in it take the keyboard's focus, whichever plugin
    wrote it (Markdown's links, cross-references, citations, equation references, raw
    HTML)."""

    def one(tag: re.Match[str]) -> str:
        text = tag[0]
        if _ATTR_TABINDEX.search(text) or (text[:2] == "<a" and not _ATTR_HREF.search(text)):
            return text
        return f'{text} tabindex="-1"'

    if "<" not in html:
        return html
    return FOCUSABLE.sub(one, html).replace(SCROLL_FOCUS, ' tabindex="-1"')


def _margin_child(token: Token) -> Token:
    """Return a copy of an inline token fit for the margin copy (no ids, escapes as their
    text)."""
    if token.type == "footnote_ref":
        plain = copy.copy(token)
        plain.type = "sidenote_ref_plain"
        return plain
    if token.type == "text_special":  # an escape (`\$`): core's `text_join` never saw a
        text = copy.copy(token)  # margin note's body, which is in no `inline` of the page
        text.type = "text"
        return text
    return token


def render_sidenote_ref_plain(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render a reference inside a margin copy as a bare number (ids stay unique)."""
    note: Note = tokens[idx].meta["note"]
    if note.kind == "numbered":
        return f'<sup class="footnote-ref">{note.number}</sup>'
    if note.kind == "missing":
        return f'<sup class="footnote-missing">{escapeHtml(written(note.label))}</sup>'
    return ""


def render_footnote_block_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open the Notes section (its heading id "notes" is reserved by the heading plugin)."""
    return '<section class="footnotes" aria-labelledby="notes">\n<h2 id="notes">Notes</h2>\n<ol>\n'


def render_footnote_block_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close the Notes section."""
    return "</ol>\n</section>\n"


def render_footnote_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open one note of the Notes list, with the id the markers link to."""
    return f'<li id="fn-{tokens[idx].meta["number"]}">\n'


def render_footnote_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close one note of the Notes list."""
    return "</li>\n"


def render_footnote_anchor(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render the ↩︎ back-link to one reference of a note."""
    n, sub = tokens[idx].meta["number"], tokens[idx].meta["sub"]
    which = f" ({sub + 1})" if sub else ""
    return (
        f' <a href="#fnref-{n}{_suffix(sub)}" class="footnote-backref" '
        f'aria-label="Back to reference {n}{which}">{BACKREF_GLYPH}</a>'
    )
