"""Callouts (admonitions) as Quarto/Pandoc, GitHub, MkDocs and Hugo themes write them, as one
HTML structure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.admon.index import admonition

from postil.markdown.attrlist import clean_attributes, read_attributes
from postil.markdown.fenceddiv import fenced_div_plugin
from postil.markdown.state import RenderState, SourceLines, get_state
from postil.markdown.vuetabs import VUE_TABS_WORD, vue_tabs

KINDS = ("note", "tip", "important", "warning", "caution")
"""The callout kinds of Quarto and GitHub; each has its colour and default title."""

ALIASES = {
    **dict.fromkeys(("info", "abstract", "summary", "tldr", "todo", "seealso"), "note"),
    "details": "note",  # VitePress' and VuePress' folded container: `<details>` (FOLDED)
    "spoiler": "note",  # HackMD's, HedgeDoc's and CodiMD's `:::spoiler Title` (FOLDED)
    **dict.fromkeys(("example", "question", "help", "faq", "quote", "cite"), "note"),
    **dict.fromkeys(("hint", "success", "check", "done"), "tip"),
    **dict.fromkeys(("attention",), "important"),
    **dict.fromkeys(("warn",), "warning"),
    **dict.fromkeys(("danger", "error", "bug", "failure", "fail", "missing"), "caution"),
}
"""Other names for the kinds (MkDocs Material's and reStructuredText's admonitions)."""

KNOWN_KINDS = frozenset(KINDS) | ALIASES.keys()

FOLDED = frozenset({"details", "spoiler"})
"""Container words whose callout starts folded: VitePress' and VuePress' `::: details Title`
(`<details class="details custom-block"><summary>Title</summary>`, VitePress "Markdown
Extensions", Custom Containers; "Details" when no title), as MyST's `dropdown`
(`postil.markdown.fencekind.FOLDED`); HackMD's and HedgeDoc's `:::spoiler Title`
(`<details><summary>Title</summary>`: HedgeDoc's `SpoilerMarkdownExtension`, the
markdown-it-container README's own example), which lost its title as a plain div."""

_ALERT = re.compile(r"\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*(.*)")
"""GitHub's alert marker line `[!NOTE]`, with a title after it and Obsidian's fold sign."""

_CALLOUT_CLASS = re.compile(r"callout-([a-z]+)\Z")
_WORD = re.compile(r"([A-Za-z][\w-]*)(?:\s+(.*)|\[(.*)\]\s*(\{[^{}]*\})?\s*|(\{[^{}]*\})\s*)?\Z")
"""A div's word and its title: `warning Numerics` (VitePress, Docusaurus 2), or
`note[Why]` (Docusaurus 3's title in brackets, https://docusaurus.io/docs/markdown-features/admonitions),
either with remark-directive's attributes after it (`note[Why]{icon="heart"}`,
`tip{title="T"}`: Starlight's asides, https://starlight.astro.build/components/asides/,
and Rspress' containers read `title`; an `icon` is the theme's, not kept)."""


def callout_plugin(md: MarkdownIt) -> None:
    """Render callouts written in the three common syntaxes as one accessible structure.

    Syntax::

        ::: {.callout-tip title="Why $\\sqrt{d}$?" collapse="true"}
        The dot product grows with $d$.
        :::

        > [!WARNING] Numerics
        > Subtract the maximum first.

        !!! note "Custom title"
            An indented body is Markdown: $x^2$, code, notes[^1].

        ??? caution
            Collapsed until opened (`???+`: open).

    Output, `<details>` (`open` or not) and `<summary>` when collapsible::

        <aside class="callout callout-tip" role="note">
        <p class="callout-title"><strong>Why …?</strong></p>
        <p>The dot product …</p>
        </aside>

    Kinds: note, tip, important, warning, caution, and the names in `ALIASES` (`danger` is a
    caution titled "Danger"). An unknown kind is shown as a note titled with its name, and
    is a warning at its line. Without a title, the kind's name is the title; Quarto's
    first heading inside the callout is its title when there is no `title=`; MkDocs'
    `!!! note ""` has none. `::: note` works as `::: {.callout-note}`; another fenced div
    (`::: {.column-margin}`) is a `<div>` with its allowed attributes (the attrs plugin's
    allow-list). GitHub alerts: `> [!KIND]`, a title after it on the marker line, Obsidian's
    `[!KIND]-` (collapsed) and `[!KIND]+` (open). mdit-py-plugins parses fenced divs
    (`container`) and MkDocs blocks (`admon`: the indented body is Markdown, not code); a
    core rule turns their tokens, alert block quotes and the callout shortcodes of Hugo
    themes (`postil.markdown.shortcodecallout.CALLOUTS`) into `callout_*` tokens.
    CSS classes: callout, callout-<kind>, callout-title.
    """
    fenced_div_plugin(md, validate=_is_div)
    admon_plugin(md)
    # as mdit-py-plugins registers it (`Ruler.at` drops the options it is not given): an
    # admonition ends a paragraph, a list item's text or a quote's, as in Python-Markdown,
    # whose `AdmonitionProcessor.run` parses the lines before a `!!!` line as their own block
    md.block.ruler.at(
        "admonition", admonition_body, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.core.ruler.after("block", "callout_tokens", callout_tokens)
    md.core.ruler.after("callout_tokens", "vue_tabs", vue_tabs)
    md.add_render_rule("callout_open", render_callout_open)
    md.add_render_rule("callout_close", render_callout_close)
    md.add_render_rule("callout_title_open", render_callout_title_open)
    md.add_render_rule("callout_title_close", render_callout_title_close)


CROSSREF_PREFIXES = {
    "nte": "note",
    "tip": "tip",
    "wrn": "warning",
    "imp": "important",
    "cau": "caution",
}
"""Quarto's id prefixes of numbered callouts ("Cross-References", Callouts: `{#tip-x
.callout-tip}` is "Tip 1", `@tip-x` refers to it), and the kind each counts as: the figure
plugin numbers each kind on its own (`meta["figure"]`), the title reads "Tip 1: …"."""

ADMONITION_LINE = re.compile(r'(?:!!!|\?\?\?\+?) ?([\w\-]+)(?: +[\w\-]+)*(?: +".*?")? *$')
"""A line opening an admonition as Python-Markdown's `AdmonitionProcessor.RE` reads it (and
pymdownx.details' `???`/`???+`): a kind after the marker, then an optional quoted title."""


def admonition_body(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Run mdit-py-plugins' admonition rule with Python-Markdown's extent of the body.

    mdit-py-plugins ends an admonition at two blank lines in a row; Python-Markdown (and so
    MkDocs) goes on while the next text is indented, so a code block with two blank lines
    in an admonition's body stays whole. The blank lines inside the body are shown to the
    rule as indented while it runs.
    """
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if silent and state.src[begin : begin + 3] in ("!!!", "???"):
        # ending a paragraph: only Python-Markdown's own marker line (`!!!!! wow` is text)
        # of a kind a callout has (`!!! Thanks for reading` after prose stays prose)
        marker_line = state.src[begin : state.eMarks[start_line]]
        found = ADMONITION_LINE.match(marker_line)
        return (
            found is not None
            and found[1].lower() in KNOWN_KINDS
            and admonition(state, start_line, end_line, silent)
        )
    if silent or state.src[begin : begin + 3] not in ("!!!", "???"):
        return admonition(state, start_line, end_line, silent)  # (most lines: no marker)
    indent = state.sCount[start_line] + 4
    line = tail = start_line + 1
    while line < end_line and (state.isEmpty(line) or state.sCount[line] >= indent):
        tail = line + 1 if not state.isEmpty(line) else tail
        line += 1
    blanks = {at: state.sCount[at] for at in range(start_line + 1, tail) if state.isEmpty(at)}
    for at in blanks:
        state.sCount[at] = max(state.sCount[at], indent)
    try:
        return admonition(state, start_line, end_line, silent)
    finally:
        for at, count in blanks.items():
            state.sCount[at] = count


def kind_of(name: str) -> tuple[str, bool]:
    """Return (kind, known) for a callout name: `("caution", True)` for "danger"."""
    lowered = name.lower()
    if lowered in KINDS:
        return lowered, True
    return ALIASES.get(lowered, "note"), lowered in ALIASES


def _is_div(params: str) -> bool:
    """Accept `::: {attributes}`, `::: word title` and `:::word[title]` (Pandoc's,
    VitePress' and Docusaurus' divs)."""
    text = params.strip()
    if text.startswith("{"):
        return read_attributes(text) is not None
    return bool(_WORD.match(text) or VUE_TABS_WORD.match(text))


def callout_tokens(state: StateCore) -> None:
    """Turn fenced divs, MkDocs admonitions, alert block quotes and Chirpy's prompts into
    callout tokens."""
    doc = get_state(state.env)
    source, tokens = state.tokens, []
    openers: dict[tuple[str, int], Token] = {}
    for i, token in enumerate(source):
        if token.type == "callout_drop":
            continue
        kind = token.type  # as parsed: `_alert` re-types a quote
        if kind in ("container_div_open", "admonition_open", "shortcode_callout_open") or (
            kind == "blockquote_open" and (_alert(source, i, doc) or _prompt(source, i, doc))
        ):
            key = (kind.rsplit("_", 1)[0], token.level)
            if token.type == "container_div_open":
                _fenced_div(token, source, i, doc)
                _check_closed(token, doc)
            elif token.type == "admonition_open":
                _admonition(token, doc)
                _python_markdown_title(token, source, i)
            elif token.type == "shortcode_callout_open":  # `postil.markdown.shortcode`
                meta = token.meta
                _retype(token, meta["kind"], meta["title"], meta["collapse"], doc)
                token.meta["has_title_tokens"] = bool(meta.get("untitled"))  # `adfence`
            openers[key] = token
        elif token.type in (
            "container_div_close",
            "admonition_close",
            "blockquote_close",
            "shortcode_callout_close",
        ):
            opener = openers.pop((token.type.rsplit("_", 1)[0], token.level), None)
            if opener is not None:
                token.type = "callout_close" if opener.type == "callout_open" else "div_close"
                token.meta = opener.meta
                token.info = opener.info
        elif token.type in ("admonition_title_open", "admonition_title_close"):
            token.type = token.type.replace("admonition", "callout")
            opener = openers.get(("admonition", token.level - 1))
            token.meta = opener.meta if opener is not None else {}
        tokens.append(token)
        if token.type == "callout_open" and not token.meta.get("has_title_tokens"):
            tokens += _title_tokens(token)
    _unfold_empty(tokens)
    state.tokens = tokens


def _unfold_empty(tokens: list[Token]) -> None:
    """Make a foldable callout with nothing under its title an ordinary one: a fold that
    opens on nothing (`> [!bug]- Title` alone; Obsidian shows no fold for it,
    jackyzha0/quartz#1538)."""
    for i, token in enumerate(tokens):
        if token.type != "callout_title_close" or not token.meta.get("collapsible"):
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if after is not None and after.type == "callout_close" and after.meta is token.meta:
            token.meta["collapsible"] = False


def _title_tokens(opening: Token) -> list[Token]:
    """Return the title of a callout as `callout_title_open`, `inline`, `callout_title_close`."""
    meta = opening.meta
    title = meta["title"] or ("" if "figure" in meta else meta["default_title"])
    tokens = [
        Token("callout_title_open", "p", 1),
        Token("inline", "", 0),
        Token("callout_title_close", "p", -1),
    ]
    for token in tokens:
        token.level, token.meta, token.map, token.block = opening.level + 1, meta, opening.map, True
    tokens[1].content, tokens[1].children = title, []
    tokens[1].level += 1
    return tokens


def _fenced_div(opening: Token, tokens: list[Token], i: int, doc: RenderState) -> None:
    """Re-type a fenced div's opening token: a `callout_open`, or a `div_open`."""
    params = opening.info.strip()
    attrs = (read_attributes(params) or {}) if params.startswith("{") else {}
    names = [m.group(1) for c in attrs.get("class", "").split() if (m := _CALLOUT_CLASS.match(c))]
    word = None if params.startswith("{") else _WORD.match(params)
    title, given = _word_title(word) if word else ("", {})
    if word and word.group(1).lower() in (*KINDS, *ALIASES):
        folded = "true" if word.group(1).lower() in FOLDED else None
        _retype(opening, word.group(1), title or given.get("title", ""), folded, doc)
        if given.get("id"):  # remark-directive gives the element `#id` (`:::note{#x}`)
            opening.attrs = {"id": given["id"]}
    elif names:
        _retype(opening, names[0], attrs.get("title", ""), attrs.get("collapse"), doc)
        opening.attrs = {"id": attrs["id"]} if attrs.get("id") else {}
        if not attrs.get("title"):
            _heading_title(tokens, i)
        _numbered(opening, str(attrs.get("id", "")), doc)
    else:
        opening.type = "div_open"
        if word:  # `::: Theorem {#id}`: the word a class beside the list's classes
            classes = " ".join(filter(None, (word.group(1), given.get("class"))))
            attrs = {**given, "class": classes}
        opening.attrs = dict(clean_attributes(attrs).kept)


def _numbered(opening: Token, ident: str, doc: RenderState) -> None:
    """Number a Quarto callout whose id has a callout prefix (`CROSSREF_PREFIXES`); warn at
    one the post refers to by the kind's whole name (`#note-x`, quarto-dev/quarto-cli#10769:
    Quarto numbers none, and `@note-x` stays text)."""
    prefix, _, label = ident.partition("-")
    if prefix in CROSSREF_PREFIXES and label:
        opening.meta["figure"] = {"id": ident, "kind": CROSSREF_PREFIXES[prefix]}
        return
    short = {kind: prefix for prefix, kind in CROSSREF_PREFIXES.items()}.get(prefix)
    lines = doc.source_lines
    text = lines.text if isinstance(lines, SourceLines) else "\n".join(lines)
    if short and label and f"@{ident}" in text:
        doc.warn(
            opening.map[0] if opening.map else None,
            1,
            f"callout id `#{ident}` is not numbered, so `@{ident}` shows as text: Quarto "
            f"numbers a {prefix} callout whose id starts with `{short}-`; write `#{short}-{label}`",
        )


def _word_title(word: re.Match[str]) -> tuple[str, dict[str, str]]:
    """Return the title and the attributes written after a div's word (`_WORD`).

    An attribute list after a space is the div's, not its title: `::: Warning {#w1}`,
    `::: Theorem {#id}` (Pandoc reads neither, jgm/pandoc#5611; their authors mean the
    word's class with that id, as `::: {.Theorem #id}` writes it)."""
    title = word.group(2) or word.group(3) or ""
    listed = word.group(4) or word.group(5)
    if listed is None and title.startswith("{") and read_attributes(title.strip()) is not None:
        title, listed = "", title.strip()
    return title, read_attributes(listed or "") or {}


_DIV_END = re.compile(r"^[\s>]*:{3,}\s*$")


def _check_closed(opening: Token, doc: RenderState) -> None:
    """Warn at a fenced div whose closing `:::` never comes (it ran to the end of the post).

    mdit-py-plugins' container closes such a div at the end of the document (or of the
    block it is in) and its map then ends on a line that is not a `:::` fence.
    """
    if not opening.map or not doc.source_lines:
        return
    end = opening.map[1]
    if end < len(doc.source_lines) and _DIV_END.match(doc.source_lines[end]):
        return
    doc.warn(
        opening.map[0],
        1,
        f"fenced div `{opening.markup}` is never closed, so everything after it is inside "
        f"it; add a line `{opening.markup}` where it ends",
    )


def _retype(opening: Token, name: str, title: str, collapse: str | None, doc: RenderState) -> None:
    """Make `opening` a `callout_open` of the kind `name` with its title and folding."""
    kind, known = kind_of(name)
    warned = doc.extra.setdefault("callout_kinds_warned", set())
    if not known and name.lower() not in warned:  # one warning a kind: a garden's `theorem`s
        warned.add(name.lower())
        doc.warn(
            opening.map[0] if opening.map else None,
            1,
            f"unknown callout kind `{name}`, shown as a note (here and in every other "
            f"`{name}` callout of this post); use one of {', '.join(KINDS)}",
        )
    opening.type, opening.tag, opening.attrs = "callout_open", "aside", {}
    opening.meta = {
        "kind": kind,
        "title": title,
        "default_title": name.replace("-", " ").capitalize(),
        "collapsible": collapse is not None,  # Quarto: collapse="false" folds, starts open
        "open": collapse in ("false", "+"),
    }


def _heading_title(tokens: list[Token], i: int) -> None:
    """Use a heading right inside a Quarto callout as its title (Quarto's rule)."""
    if i + 3 < len(tokens) and tokens[i + 1].type == "heading_open":
        tokens[i].meta["title"] = tokens[i + 2].content
        for j in (i + 1, i + 2, i + 3):
            tokens[j].type = "callout_drop"


def _admonition(token: Token, doc: RenderState) -> None:
    """Re-type mdit-py-plugins' admonition opening as a callout (its title tokens follow)."""
    collapse = None
    if token.markup.startswith("?"):
        collapse = "+" if token.markup.endswith("+") else "true"
    _retype(token, token.meta.get("tag") or "note", "", collapse, doc)
    token.meta["has_title_tokens"] = True


def _python_markdown_title(token: Token, tokens: list[Token], i: int) -> None:
    """Title an admonition as Python-Markdown does when its title is not quoted: the words
    after the kind are classes (`!!! note inline end`, MkDocs Material's placement), and
    the title is the kind capitalised ("Note"; `AdmonitionProcessor.get_class_and_title`).
    mdit-py-plugins took the words for the title ("inline end")."""
    params = token.info.strip()
    if '"' in params or " " not in params or i + 2 >= len(tokens):
        return
    inline = tokens[i + 2]
    if tokens[i + 1].type == "admonition_title_open" and inline.type == "inline":
        inline.content = params.split(" ", 1)[0].capitalize()


def _alert(tokens: list[Token], i: int, doc: RenderState) -> bool:
    """Turn `> [!KIND] title` into a callout: re-type the quote, cut the marker line."""
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open":
        return False
    inline = tokens[i + 2]
    first, _, rest = inline.content.partition("\n")
    match = _ALERT.fullmatch(first.strip())
    if not match:
        return False
    fold = {"": None, "-": "true", "+": "+"}[match.group(2)]
    _retype(tokens[i], match.group(1), match.group(3).strip(), fold, doc)
    inline.content = rest
    if not rest.strip():
        for j in (i + 1, i + 2, i + 3):
            tokens[j].type = "callout_drop"
    return True


def _prompt(tokens: list[Token], i: int, doc: RenderState) -> bool:
    """Turn Chirpy's prompt, a quote followed by `{: .prompt-tip }` (`info`, `warning`,
    `danger`: Chirpy's "Writing a New Post", Prompts), into a callout of that kind.

    The attribute line is still an `attrs_block` token here (`attrs.attrs_attach` runs
    later); its `prompt-*` class is taken off, the rest of it goes to the callout.
    """
    depth, j = 0, i
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            break
    after = tokens[j + 1] if j + 1 < len(tokens) else None
    if after is None or after.type != "attrs_block" or not after.meta.get("kramdown"):
        return False
    quote_lines, line = tokens[i].map, after.map
    if quote_lines is None or line is None or quote_lines[1] != line[0]:
        return False  # after a blank line the attribute line is the next block's
    classes = after.meta["attrs"].get("class", "").split()
    kinds = [name.removeprefix("prompt-") for name in classes if name.startswith("prompt-")]
    if not kinds:
        return False
    rest = " ".join(name for name in classes if not name.startswith("prompt-"))
    after.meta["attrs"] = {k: v for k, v in after.meta["attrs"].items() if k != "class"}
    if rest:
        after.meta["attrs"]["class"] = rest
    _retype(tokens[i], kinds[0], "", None, doc)
    return True


def render_callout_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open `<aside role="note">`, or `<details>` for a collapsible callout."""
    token = tokens[idx]
    meta = token.meta
    classes = f'class="callout callout-{meta["kind"]}"'
    given = token.attrs.get("id")
    id_attr = f' id="{escapeHtml(str(given))}"' if given else ""
    if meta["collapsible"]:
        return f"<details {classes}{id_attr}{' open' if meta['open'] else ''}>\n"
    return f'<aside {classes}{id_attr} role="note">\n'


def render_callout_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close the callout."""
    return "</details>\n" if tokens[idx].meta.get("collapsible") else "</aside>\n"


def render_callout_title_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open the title: `<summary>` of a collapsible callout, else a paragraph; in bold, so it
    reads as a title where the theme's CSS is absent (feed readers)."""
    meta = tokens[idx].meta or {}
    tag = "summary" if meta.get("collapsible") else "p"
    number = meta.get("figure_number")  # Quarto's numbered callout: "Tip 1: Title"
    label = f"{meta['figure']['kind'].title()} {number}" if number else ""
    after = ": " if label and meta.get("title") else ""
    return f'<{tag} class="callout-title"><strong>{label}{after}'


def render_callout_title_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close the title."""
    collapsible = (tokens[idx].meta or {}).get("collapsible")
    return f"</strong></{'summary' if collapsible else 'p'}>\n"
