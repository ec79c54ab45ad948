"""Quarto's cross-references: `@eq-x`, `@fig-x`, `@tbl-x`, `@sec-x`, `@thm-x` (and the other
theorem kinds, `postil.markdown.theorem`); `[-@eq-x]` the number. A citation `[@key]` of an
id on the page that the bibliography lacks (pandoc-crossref's and Hakyll filters' way to
refer to a theorem, figure or heading) is a reference to that element too."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.bookdown import BOOKDOWN_SUFFIXES, missing_target, target_ids
from postil.markdown.callout import CROSSREF_PREFIXES
from postil.markdown.citemessages import (
    missing_html,
    no_bibliography,
    unknown_key,
)
from postil.markdown.references import label_page
from postil.markdown.state import RenderState, get_state
from postil.markdown.theorem import THEOREMS
from postil.math import anchor_id
from postil.slugs import pandoc_slug

FLOATS = {"fig": "Figure", "tbl": "Table", "lst": "Listing"}
"""Quarto's float prefixes and their words (`lst`: a code block `{#lst-x lst-cap="…"}`)."""
_OTHERS = (*FLOATS, *THEOREMS, *CROSSREF_PREFIXES)
_KINDS = "|".join(f"[{k[0].upper()}{k[0]}]{k[1:]}" for k in ("eq", "sec", *_OTHERS))
_CROSSREF = ("eq", "fig", "tbl", "lst", "sec")  # pandoc-crossref's kinds, `@fig:x`
_COLON_KINDS = "|".join(f"[{k[0].upper()}{k[0]}]{k[1:]}" for k in _CROSSREF)
_LABEL = rf"((?:({_KINDS})-|({_COLON_KINDS}):)[\w:.-]*\w)"
XREF = re.compile(rf"(-?)@{_LABEL}")
"""A reference: group 1 `-` (number only), group 2 the label, group 3 or 4 its kind; the
kind may be capitalised (`@Thm-x`, Quarto's reference at the start of a sentence).
pandoc-crossref writes its labels with a colon, `@eq:x`, `@fig:x` (group 4: its kinds)."""

BRACKETED = re.compile(rf"\[(-?)@(({_KINDS})-[\w:.-]*\w)\]")
"""A reference in brackets, `[@eq-x]` or `[-@eq-x]` (Pandoc's citation syntax); with a colon,
`[@eq:x]`, it is a citation of an id on the page (`postil.markdown.cite`), read as before."""

PREFIXES = {
    "eq": "Equation",
    "sec": "Section",
    **FLOATS,
    **THEOREMS,
    **{prefix: kind.title() for prefix, kind in CROSSREF_PREFIXES.items()},
}
"""Quarto's default reference prefixes (`crossref: eq-prefix` and so on): callouts' too
(`@tip-x` is "Tip 1", `postil.markdown.callout.CROSSREF_PREFIXES`)."""


def xref_plugin(md: MarkdownIt) -> None:
    """Render Quarto cross-references to equations, figures and tables as numbered links.

    Syntax::

        $$
        E = mc^2
        $$ {#eq-mass}

        ![A plot](plot.png){#fig-plot}

        As @eq-mass shows (and @fig-plot), the energy [-@eq-mass] grows.

    gives "As <a>Equation 1</a> shows (and <a>Figure 1</a>), the energy <a>1</a> grows":
    Quarto's words, and its `-@` for the number alone. Equations take their number from
    the math plugin (`{#eq-x}` after `$$`, or `\\label{eq-x}`), figures and tables from the
    figure plugin (`{#fig-x}`, `{#tbl-x}`). Sections are not numbered (Quarto numbers them
    only with `number-sections`), so `@sec-x` is the title of the heading `{#sec-x}`. A
    label nothing in the post has is an error at its place, shown as `??`. An address
    (`a@fig-b`) is no reference.
    CSS classes: xref (eqref for equations, as `\\eqref`).
    """
    rules = md.inline.ruler.get_all_rules()
    md.inline.ruler.before("cite" if "cite" in rules else "link", "xref", xref)
    if "figure_number" in md.core.ruler.get_all_rules():
        md.core.ruler.after("figure_number", "xref_check", xref_check)
    else:
        md.core.ruler.push("xref_check", xref_check)
    md.add_render_rule("xref", render_xref)


def xref(state: StateInline, silent: bool) -> bool:
    """Inline rule: `@eq-x`, `-@eq-x`, `[@eq-x]`, `[-@eq-x]` as an `xref` token."""
    src, start = state.src, state.pos
    if src[start] not in "@-[" or state.linkLevel > 0:
        return False
    found = (BRACKETED if src[start] == "[" else XREF).match(src, start)
    before = src[start - 1] if start > 0 else " "
    if found is None or before.isalnum() or before in "@_":
        return False
    if not silent:
        token = state.push("xref", "", 0)
        token.content = found[0]
        kind = (found[3] or found[4]).lower()  # `@Fig-x` names `#fig-x`: ids are lower case
        label = kind + found[2][len(kind) :]
        token.meta = {"label": label, "kind": kind, "bare": bool(found[1])}
        token.meta["pos"] = start
    state.pos = found.end()
    return True


def xref_check(state: StateCore) -> None:
    """Core rule (after numbering): give each reference its text; report unknown labels.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) a reference may come
    groups before what it names: the gathering run keeps the whole document's sections,
    equation numbers and figure labels, which the second run reads.
    """
    doc = get_state(state.env)
    run = doc.groups
    sections: dict[str, Token] = run.carry.setdefault("xref", {})
    sections.update(_sections(state.tokens))
    targets: dict[str, str] = run.carry.setdefault("xref_targets", {})
    if not run.whole or doc.extra.get("id_citations"):  # a normal post without `[@id]`: none
        _page_targets(state.tokens, targets)
    if run.ahead and run.last:
        figures = dict(doc.extra.get("figure_labels", {}))
        run.facts["xref"] = (dict(sections), dict(doc.equations), figures)
        run.facts["xref_targets"] = dict(targets)
    known = run.facts.get("xref")
    targets = run.facts.get("xref_targets", targets)
    for block in state.tokens:
        for token in block.children or () if block.type == "inline" else ():
            if token.type != "xref":
                continue
            if token.meta.get("bookdown"):  # `\@ref(thm:x)`: the first of its ids found
                written = token.meta["bookdown"]
                _pandoc_heading(state.tokens, written, sections)
                for ident in target_ids(written):
                    token.meta["label"] = ident
                    _target(token.meta, doc, sections, targets, known)
                    if token.meta["text"] is not None:
                        break
                else:
                    token.meta["label"] = written
                    if not _other_page(token.meta, doc, written):
                        line0, col = _spot(doc, block, token)
                        doc.warn(line0, col, missing_target(written))
                continue
            if token.meta["kind"] == "target":  # `[@key]`, `postil.markdown.cite`
                _target(token.meta, doc, sections, targets, known)
                if token.meta["text"] is None:
                    _report_citation(doc, block, token)
                continue
            token.meta["text"] = _text(token.meta, doc, sections, known)
            if token.meta["text"] is None:
                _report_unknown(doc, block, token)


def _other_page(meta: dict[str, Any], doc: RenderState, label: str) -> bool:
    r"""Point bookdown's `\@ref(label)` of a section of another chapter at it: the
    heading's words and a link to its page (`references.label_page`; bookdown numbers
    sections across the book, postil names them); return whether it found one."""
    found = label_page(doc, label) if ":" not in label else None
    if found is None or not found[1] or not found[0].lower().endswith(BOOKDOWN_SUFFIXES):
        return False
    meta["text"], meta["href"] = found[1], found[2]
    return True


def _sections(tokens: Sequence[Token]) -> dict[str, Token]:
    """Return the inline token of every heading with an id, by id (`## Intro {#sec-intro}`)."""
    found = {}
    for i, token in enumerate(tokens[:-1]):
        if token.type == "heading_open" and token.attrs.get("id"):
            found[str(token.attrs["id"])] = tokens[i + 1]
    return found


def _text(
    meta: dict[str, Any],
    doc: RenderState,
    sections: dict[str, Token],
    known: tuple[dict[str, Token], dict[str, str], dict[str, str]] | None = None,
) -> str | None:
    """Return a reference's words ("Equation 1", or "1" for `-@`), None for an unknown label.

    A section's words are its heading's inline tokens, kept in `meta["heading"]`. `known`:
    the whole document's (sections, equation numbers, figure labels) when it is parsed in
    groups, else what the document so far holds.
    """
    equations, figures = doc.equations, doc.extra.get("figure_labels", {})
    if known is not None:
        sections, equations, figures = known
    if meta["kind"] == "sec":
        heading = sections.get(meta["label"])
        meta["heading"] = heading
        return heading.content if heading is not None else None
    if meta["kind"] == "eq":
        number = equations.get(meta["label"])
    else:
        label = figures.get(meta["label"])
        number = label.rsplit(" ", 1)[-1] if label else None
    if number is None:
        return None
    return number if meta["bare"] else f"{PREFIXES[meta['kind']]} {number}"


def _page_targets(tokens: Sequence[Token], found: dict[str, str]) -> None:
    """Add to `found` the words of each block of the page with an id that `[@id]` may name
    and that no number names: an unnumbered theorem its word ("Theorem"), others the id."""
    for token in tokens:
        ident = token.attrs.get("id") if token.nesting == 1 and token.attrs else None
        if ident:
            word = (token.meta or {}).get("word") if token.type == "theorem_open" else None
            found.setdefault(str(ident), str(word or ident))


def _target(
    meta: dict[str, Any],
    doc: RenderState,
    sections: dict[str, Token],
    targets: dict[str, str],
    known: tuple[dict[str, Token], dict[str, str], dict[str, str]] | None,
) -> None:
    """Give `[@key]` the words and link of the element of the page with the id `key`: a
    numbered figure, table or theorem ("Theorem 2", or "2" for `[-@key]`), an equation
    ("(1)"), a heading (its words), another element (`targets`); `text` None for none."""
    equations, figures = doc.equations, doc.extra.get("figure_labels", {})
    if known is not None:
        sections, equations, figures = known
    label = meta["label"]
    meta["text"] = None
    if label in figures:
        meta["text"] = figures[label].rsplit(" ", 1)[-1] if meta["bare"] else figures[label]
    elif label in equations:
        meta["text"], meta["kind"] = f"({equations[label]})", "eq"
    elif label in sections:
        meta["heading"] = sections[label]
        meta["text"] = sections[label].content
    elif label in targets:
        meta["text"] = targets[label]


def _pandoc_heading(tokens: Sequence[Token], label: str, sections: dict[str, Token]) -> None:
    """Give the heading without an id whose Pandoc identifier is `label` that id, and add it
    to `sections`: bookdown's `\\@ref(intro)` names `# Introduction {#intro}` or a heading
    by the id Pandoc gave it ("Identifiers", `slugs.pandoc_slug`), which postil's own ids
    (made after this rule) need not equal."""
    if ":" in label or label in sections:
        return
    for i, token in enumerate(tokens[:-1]):
        if token.type == "heading_open" and not token.attrs.get("id"):
            if pandoc_slug(tokens[i + 1].content) == label:
                token.attrs["id"] = label
                sections[label] = tokens[i + 1]
                return


def _report_citation(doc: RenderState, block: Token, token: Token) -> None:
    """Report `[@key]` that names no element of the page as the citation it then is: with
    no bibliography, or a key the bibliography lacks (`postil.markdown.cite`'s warnings)."""
    line0, col = _spot(doc, block, token)
    key = token.meta["label"]
    if doc.bibliography is None:  # one warning a post, naming the lines of the others

        def message(lines: list[int]) -> str:
            ids = "elements of the post those ids to refer to them"
            one = f"an element of the post the id `{key}` to refer to it"
            return (
                f"{no_bibliography(token.content, lines)}, or give {ids if len(lines) > 1 else one}"
            )

        doc.warn_each("cite unbound [@", line0, col, message)
        return
    col += token.content.find("@")  # at the key, as `cite._warn_unknown` reports it
    doc.warn(line0, col, unknown_key(key, doc.bibliography))


def _spot(doc: RenderState, block: Token, token: Token) -> tuple[int | None, int]:
    """Return (0-based body line or None, 1-based column) of an inline token in `block`."""
    before = block.content[: token.meta["pos"]]
    line0 = (block.map[0] if block.map else 0) + before.count("\n")
    col = token.meta["pos"] - (before.rfind("\n") + 1) + 1
    if block.map and 0 <= line0 < len(doc.source_lines):
        # the reference itself, not a longer one it begins (`@fig-form` in `@fig-forms`)
        found = re.search(re.escape(token.content) + r"(?![\w-])", doc.source_lines[line0])
        col = found.start() + 1 if found else col
    return (line0 if block.map else None), col


def _report_unknown(doc: RenderState, block: Token, token: Token) -> None:
    line0, col = _spot(doc, block, token)
    kind = PREFIXES[token.meta["kind"]].lower()
    label = token.meta["label"]
    token.meta["missing"] = True  # Quarto warns for what it cannot resolve, and shows `?@x`
    if label in doc.extra.get("chunk_labels", ()):
        doc.warn(
            line0,
            col,
            f"cross-reference `{token.content}` names the output of a code chunk, which postil "
            f"does not run, so it shows as `?{token.content.lstrip('-')}`; paste the {kind} "
            f"after the chunk with `{{#{label}}}`",
        )
        return
    inline_at = _inline_image_line(doc, label)
    if inline_at is not None:  # quarto-dev/quarto-cli#5571
        doc.warn(
            line0,
            col,
            f"cross-reference `{token.content}`: the image with `{{#{label}}}` on line "
            f"{inline_at} is not alone in its paragraph (text beside it or a link around "
            f"it), so it is no {kind}; give the image a paragraph of its own",
        )
        return
    doc.warn(
        line0,
        col,
        f"cross-reference `{token.content}`: no {kind} of this post has the label "
        f"`{label}`; fix the label or add `{{#{label}}}` to the {kind}",
    )


def _inline_image_line(doc: RenderState, label: str) -> int | None:
    """Return the file line of an image given the id `label` that made no figure (one in a
    line of text: Quarto numbers only an image alone in its paragraph), or None."""
    written = re.compile(r"\]\([^)]*\)\{[^}]*#" + re.escape(label) + r"(?![\w-])")
    for number, line in enumerate(doc.source_lines):
        if "#" + label in line and written.search(line):
            return doc.body_line + number
    return None


def render_xref(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render a reference as a link to its equation, figure or table."""
    meta = tokens[idx].meta
    text = meta.get("text") or "??"
    label = meta["label"]
    if meta.get("bookdown") and meta.get("text") is None:  # `\@ref(x)` of nothing: LaTeX's
        return '<strong class="xref-missing">??</strong>'
    if meta.get("href"):  # a section of another page (`_other_page`)
        return f'<a class="xref" href="{escape(meta["href"])}">{escape(text)}</a>'
    if meta["kind"] == "target" and meta.get("text") is None:  # a citation after all
        if get_state(env).bibliography is None:
            return escape(tokens[idx].content)
        return missing_html(label, get_state(env).citation_style == "numeric")
    if meta.get("missing"):  # no such label, or a code chunk's postil does not run: `?@tbl-x`
        return f'<strong class="xref-missing">?@{escape(label)}</strong>'
    heading = meta.get("heading")
    if heading is not None:
        words = self.renderInline(heading.children or [], options, env)
        return f'<a class="xref" href="#{escape(label)}">{words}</a>'
    if meta["kind"] == "eq":
        return f'<a class="eqref xref" href="#{escape(anchor_id(label))}">{escape(text)}</a>'
    return f'<a class="xref" href="#{escape(label)}">{escape(text)}</a>'
