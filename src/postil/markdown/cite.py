"""Citations from a bibliography: Pandoc's `[@key]` syntax, a References list, and each
citation's reference in the margin beside the line that cites it.

The works come from the `.bib` files the post and the site name (`RenderState.bibliography`,
`postil.bibliography`); how citations read is `postil.bibliography.style`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.bibliography import style
from postil.bibliography.entries import Work
from postil.errors import Diagnostic, Location, Severity
from postil.markdown.citeaffix import affix_html
from postil.markdown.citemessages import no_bibliography, unknown_key
from postil.markdown.rendered import CitedWork
from postil.markdown.state import RenderState, get_state
from postil.markdown.tagsyntax import locate
from postil.markdown.xref import XREF

KEY = r"\w(?:\w|[:.#$%&+?<>~/-](?=\w))*"
"""A citation key: Pandoc's rule (a letter, digit or `_`, then those and internal
punctuation `:.#$%&-+?<>~/`); `@{…}` takes any key."""

_ANY_KEY = rf"(?P<key>{KEY}|\{{[^{{}}]+\}})"
_ITEM = re.compile(rf"(?P<prefix>(?:.*?\s)?)(?P<minus>-?)@{_ANY_KEY}(?P<suffix>.*)", re.S)
_NARRATIVE = re.compile(rf"@{_ANY_KEY}(?: ?\[(?!\^)(?P<locator>[^\[\]]*)\](?![(\[]))?")
_NOT_BEFORE_NARRATIVE = frozenset("_@.-/\\`")

BACKREF_GLYPH = "\u21a9\ufe0e"
SCHOLAR_FILE = re.compile(r"(?:--file|-f)\s+[\"']?([\w./-]+)")
"""jekyll-scholar's `--file name` (or `-f`) in a `{% cite %}` tag: the `.bib` it reads."""


def scholar_default(written: str) -> str:
    """Return where a post citing with jekyll-scholar's tag `written` had its works, said
    when it names no bibliography: `_bibliography/references.bib` (jekyll-scholar's
    `source` and `bibliography` defaults, its README "Configuration"), or the file its
    `--file` names there."""
    named = SCHOLAR_FILE.search(written)
    name = named.group(1) if named else "references"
    name += "" if name.endswith(".bib") else ".bib"
    return (
        f" (jekyll-scholar read `_bibliography/{name}` unless told otherwise: "
        f"`bibliography: _bibliography/{name}` in postil.yaml names it for every post)"
    )


@dataclass(frozen=True)
class CiteItem:
    """One work cited in a cluster: `[see @key, p. 3]` has prefix "see", suffix "p. 3".

    Attributes:
        key: the citation key.
        prefix: text before it, or "".
        suffix: the locator or other text after it, without the leading comma, or "".
        year_only: `-@key`: the author is named in the sentence already.
    """

    key: str
    prefix: str = ""
    suffix: str = ""
    year_only: bool = False


@dataclass
class _Citations:
    """What the document cites: each work's label, its citations' ids, the style."""

    numeric: bool
    labels: dict[str, style.Label] = field(default_factory=dict)
    works: dict[str, Work] = field(default_factory=dict)
    backlinks: dict[str, list[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


def cite_plugin(md: MarkdownIt) -> None:
    """Render Pandoc citations with a References list and margin references.

    Syntax (Pandoc's Markdown, "Citation syntax")::

        Attention is all you need [@vaswani2017]. See [see @a, p. 3; @b, ch. 2];
        @vaswani2017 [p. 5] showed it; Vaswani et al. say so [-@vaswani2017].

    Output (author–year): `<span class="citation" id="cite-1">(<a href="#ref-vaswani2017">
    Vaswani et al., 2017</a>)</span>`, then the sidenote plugin's toggle button and a
    `<span class="sidenote citenote" id="cn-1" aria-hidden="true">` with the full reference
    (the margin copy; `article.css` floats it beside the line like a note), and at the end
    `<section class="references"><h2 id="references">References</h2><ol
    class="references-list">` with `<li id="ref-KEY">` entries, each ending in back-links
    `<a class="citation-backref">↩︎</a>` to where it is cited. CSS classes: citation,
    citation-missing, citenote, citenote-entry, references, references-list, reference-label,
    reference-link, citation-backref (and sidenote, sidenote-toggle).

    Not citations: an `@` after a letter or digit (e-mail addresses), in code spans, math,
    autolinks, link destinations or after `\\`; `[@x](url)` and `[@x]` with a link
    reference definition `[@x]: url` are links. Without a bibliography a narrative `@name`
    is text and a bracketed `[@key]` is text with a warning. An unknown key is a warning at
    its line and column and shows as `@key`.
    """
    md.inline.ruler.before("link", "cite", cite_bracketed)
    md.inline.ruler.push("cite_narrative", cite_narrative)
    if "sidenote_tail" in md.core.ruler.get_all_rules():
        md.core.ruler.before("sidenote_tail", "cite_resolve", cite_resolve)
    else:
        md.core.ruler.after("inline", "cite_resolve", cite_resolve)
    md.add_render_rule("cite", render_cite)
    md.add_render_rule("cite_references", render_cite_references)


# ## Inline rules ##


def parse_items(inner: str) -> list[CiteItem] | None:
    """Return the items of a bracketed cluster's text, or None if it is not a citation
    (a part without `@key` after a space or at its start)."""
    items = []
    for part in inner.split(";"):
        found = _ITEM.fullmatch(part.strip())
        if found is None:
            return None
        key = found["key"].strip("{}")
        suffix = _suffix(found["suffix"])
        items.append(CiteItem(key, found["prefix"].strip(), suffix, bool(found["minus"])))
    return items


def _suffix(text: str) -> str:
    """Return a citation's suffix as shown: without its leading comma, and a locator in
    braces without them (Pandoc's manual, "Citation syntax": `[@smith{ii, A, D-Z}, with a
    suffix]` and `[@smith, {pp. iv, vi-xi} more]` force a locator, `[@smith{}, 99 years
    later]` keeps "99" from being one; citeproc shows what is inside)."""
    suffix = text.strip()
    braced = suffix.startswith("{")
    if not braced and suffix.startswith(","):
        suffix = suffix[1:].strip()
    close = suffix.find("}") if suffix.startswith("{") else -1
    if close > 0:
        suffix = (suffix[1:close] + suffix[close + 1 :]).strip()
        suffix = suffix[1:].strip() if suffix.startswith(",") else suffix
    return suffix


def cite_bracketed(state: StateInline, silent: bool) -> bool:
    """Parse `[@key]`, `[see @a, p. 3; @b]`, `[-@key]` (before markdown-it's link rule)."""
    src, start = state.src, state.pos
    if src[start] != "[" or state.linkLevel > 0:
        return False
    end = src.find("]", start)
    inner = src[start + 1 : end]
    if end < 0 or "[" in inner or "@" not in inner or _followed_by_link(src, end + 1):
        return False
    if normalizeReference(inner) in state.env.get("references", {}):
        return False  # `[@x]: url` defines a link
    items = parse_items(inner)
    if items is None:
        return False
    if _may_name_target(state, items):
        if not silent:  # `postil.markdown.xref` links it, or reports it as a citation
            get_state(state.env).extra["id_citations"] = True
            token = state.push("xref", "", 0)
            token.content = src[start : end + 1]
            label, bare = items[0].key, items[0].year_only
            token.meta = {"label": label, "kind": "target", "bare": bare, "pos": start}
        state.pos = end + 1
        return True
    if all(XREF.fullmatch("@" + item.key) for item in items):
        return False  # `[@thm-a; @lem-b]`, `[see @thm-a]`: Quarto's references, `xref.py`'s
    if get_state(state.env).bibliography is None:
        if not silent:
            warn_no_bibliography(state, start, f"[{inner}]")
        return False
    if not silent:
        token = state.push("cite", "", 0)
        token.content = src[start : end + 1]
        token.meta = {"items": items, "narrative": False, "pos": start}
    state.pos = end + 1
    return True


def _followed_by_link(src: str, end: int) -> bool:
    """Tell whether `[…]` ending before `end` is a link's text: `(url)` or `[label]` after
    it; a note reference after it, `[@key][^1]`, is a note (quarto-dev/quarto-cli#6177)."""
    after = src[end : end + 2]
    return after[:1] == "(" or (after[:1] == "[" and after != "[^")


def _may_name_target(state: StateInline, items: list[CiteItem]) -> bool:
    """Tell whether `[@key]` may name an element of the page rather than a work: one key,
    with no prefix or suffix, that the bibliography lacks (or there is none), in a parser
    with the cross-reference plugin, which decides once the page's ids are known.

    pandoc-crossref (`[@fig:x]`), Quarto (`@thm-x`) and Hakyll sites' own filters (a
    `Cite` whose key is a theorem's id becomes a link to it) all read a citation of an id
    on the page as a reference to it.
    """
    if len(items) != 1 or items[0].prefix or items[0].suffix:
        return False
    works = get_state(state.env).bibliography
    if works is not None and items[0].key in works:
        return False
    return "xref_check" in state.md.core.ruler.get_all_rules()


def cite_narrative(state: StateInline, silent: bool) -> bool:
    """Parse a narrative citation `@key` or `@key [p. 3]` (only with a bibliography)."""
    src, start = state.src, state.pos
    if src[start] != "@" or state.linkLevel > 0 or get_state(state.env).bibliography is None:
        return False
    before = src[start - 1] if start > 0 else " "
    if before.isalnum() or before in _NOT_BEFORE_NARRATIVE:
        return False
    found = _NARRATIVE.match(src, start)
    if found is None:
        return False
    items = _narrative_items(found["key"].strip("{}"), found["locator"] or "")
    if items is None:  # a bracket of text holding an `@`: the citation is `@key` alone
        items, end = [CiteItem(found["key"].strip("{}"))], found.end("key")
    else:
        end = found.end()
    if not silent:
        token = state.push("cite", "", 0)
        token.content = src[start:end]
        token.meta = {"items": items, "narrative": True, "pos": start}
    state.pos = end
    return True


def _narrative_items(key: str, bracket: str) -> list[CiteItem] | None:
    """Return the items of `@key [bracket]`: the locator of `@key [p. 33]`, and the works
    after it in `@key [p. 33; @other, ch. 2]` (Pandoc's author-in-text citation with more
    works: its test `citeproc-author-in-text-suffix` reads `@a [p. 33; @b]` as one
    citation, `a` in the text and `b` after its year); None when a part after the first
    is no `@key` (the bracket is text)."""
    first, _, rest = bracket.partition(";")
    if "@" in first:
        return None
    items = [CiteItem(key, suffix=_suffix(first))]
    if rest:
        more = parse_items(rest)
        if more is None:
            return None
        items.extend(more)
    return items


def push_cluster(
    state: StateInline,
    written: str,
    items: list[CiteItem],
    *,
    narrative: bool = False,
    shown: str | None = None,
) -> None:
    """Push the citation cluster another syntax writes at `state.pos` (jekyll-scholar's
    `{% cite %}`, Distill's `<d-cite>`, MyST's `{cite:p}`) as the `cite` token `[@a; @b]`
    makes; when the post has no bibliography, its text instead (`shown`, else `written`)
    with the warning `[@key]` gets there.

    Args:
        written: the citation as written (the token's content, the warning's quote).
        items: the works cited; narrative: `@key`'s form (the names in the sentence).
    """
    if get_state(state.env).bibliography is None:
        warn_no_bibliography(state, state.pos, f"`{written}`")
        state.push("text", "", 0).content = written if shown is None else shown
        return
    token = state.push("cite", "", 0)
    token.content = written
    token.meta = {"items": items, "narrative": narrative, "pos": state.pos}


def warn_no_bibliography(state: StateInline, pos: int, shown: str) -> None:
    """Note a citation at `state.src[pos]` (written `shown`: `[@a; @b]`, `{% cite a %}`)
    that has no bibliography to come from; `cite_resolve` warns at its line and column."""
    render = get_state(state.env)
    seen = render.extra.setdefault("cite_unbound", set())
    if (state.src, pos) in seen:
        return
    seen.add((state.src, pos))
    render.extra.setdefault("cite_pending", []).append((state.src, pos, shown))


# ## Core rule ##


def _clusters(
    tokens: Sequence[Token], notes: Mapping[int, Any], refs: Mapping[str, int]
) -> Iterator[tuple[Token, Token, int | None, int]]:
    """Yield (inline token, cite token, the footnote id of the note it is in or None, where
    the text the cite token's `pos` counts in starts in the inline token's) in document
    order: in a note's definition (`[^a]: …`, its id in `refs` by `:label`, as the footnote
    plugin keeps them) or a note written inline (`^[…]`, Distill's `<d-footnote>`), whose
    tokens `notes` (the footnote plugin's list, by id) holds."""
    note: int | None = None
    for token in tokens:
        if token.type == "footnote_reference_open":
            note = refs.get(":" + str(token.meta.get("label")), -1)
        elif token.type == "footnote_reference_close":
            note = None
        elif token.type == "inline":
            yield from _inline_clusters(token, token.children or [], notes, note, 0)


def _inline_clusters(
    inline: Token,
    children: Sequence[Token],
    notes: Mapping[int, Any],
    in_note: int | None,
    base: int,
) -> Iterator[tuple[Token, Token, int | None, int]]:
    """Yield the clusters among `children` of `inline`, those of inline notes included
    (their text starts at the note entry's `offset` in the text `base` starts)."""
    for child in children:
        if child.type == "cite":
            yield inline, child, in_note, base
        elif child.type == "footnote_ref":
            note_id = child.meta.get("id", -1)
            note = notes.get(note_id)
            if note is not None and note.get("tokens"):  # an inline note's own tokens
                at = base + note.get("offset", 0)
                yield from _inline_clusters(inline, note["tokens"], notes, note_id, at)


def cite_resolve(state: StateCore) -> None:
    """Look the cited keys up, label and number the works, add the References list.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) the clusters are
    numbered group by group; the labels (author-year's 2020a, 2020b) and the order of the
    References are the gathering run's, from every work the document cites, and the list
    ends the last group.
    """
    render = get_state(state.env)
    _report_unbound(state, render)
    works = render.bibliography
    if works is None:
        return
    run = render.groups
    carry = run.carry.get("cite")
    if carry is None:
        carry = run.carry["cite"] = {"data": _Citations(render.citation_style == "numeric")}
        carry["count"] = 0
        if "cite" in run.facts:  # labelled by the gathering run: shown from the first group on
            _install(render, carry["data"], run.facts["cite"])
    data: _Citations = carry["data"]
    render.step(1)
    footnotes = state.env.get("footnotes", {})
    found = _clusters(state.tokens, footnotes.get("list", {}), footnotes.get("refs", {}))
    for inline, token, in_note, base in found:
        if in_note is None:
            carry["count"] += 1
            token.meta["id"] = f"cite-{carry['count']}"
        for item in token.meta["items"]:
            work = works.get(item.key)
            if work is None:
                _warn_unknown(render, inline, token, item.key, base)
                continue
            data.works.setdefault(item.key, work)
            # a note's text is shown twice (margin, Notes list): no id of its own, so the
            # back-link goes to the note (`_backrefs`)
            back = token.meta["id"] if in_note is None else f"{NOTE_BACKLINK}{in_note}"
            if back not in data.backlinks.setdefault(item.key, []):
                data.backlinks[item.key].append(back)
    if not run.last:
        return
    if "cite" not in run.facts:
        _label(render, data)
        if run.ahead:
            run.facts["cite"] = (data.works, data.labels, data.order, render.extra.get("citations"))
    if data.works:
        state.tokens.append(Token("cite_references", "", 0))


def _label(render: RenderState, data: _Citations) -> None:
    """Label and order the cited works (`data.works`, complete); record them in `render`."""
    render.extra["cite"] = data
    if not data.works:
        return
    cited = list(data.works.values())
    titles = [_title_text(work, render) for work in cited]
    data.labels = style.labels(cited, titles, data.numeric)
    data.order = [w.key for w in style.reference_order(cited, titles, data.numeric)]
    by_key = dict(zip([w.key for w in cited], titles, strict=True))
    plain = style.Plain(lambda tex: _formula_text(tex, render))
    render.extra["citations"] = [
        CitedWork(
            data.works[k], by_key[k], style.reference(data.works[k], plain, data.labels[k].year)
        )
        for k in data.order
    ]


def _install(render: RenderState, data: _Citations, found: tuple) -> None:
    """Give `data` the gathering run's works, labels and order (`cite_resolve`)."""
    works, data.labels, data.order, citations = found
    data.works.update(works)  # in the order cited: this run's own finds keep it
    render.extra["cite"] = data
    if citations is not None:
        render.extra["citations"] = citations


def _report_unbound(state: StateCore, render: RenderState) -> None:
    """Warn about the `[@key]`s of a document without a bibliography (found while parsing):
    one warning a post for each way of citing (`[@key]`, jekyll-scholar's tag, a role or
    element), at the first, naming the lines of the others (`RenderState.warn_each`: an
    al-folio post citing 40 works said the same thing 40 times)."""
    pending = render.extra.pop("cite_pending", [])
    if not pending:
        return
    inlines = [t for t in state.tokens if t.type == "inline"]
    for src, pos, shown in pending:
        inline = next((t for t in inlines if t.content == src), None)
        if inline is None:  # an inline note's text (`^[…]`, `<d-footnote>`): in its paragraph
            inline = next((t for t in inlines if src in t.content), None)
            pos += inline.content.index(src) if inline else 0
        line0, col = (0, 1)
        if inline is not None:
            line0, col = locate(render, (inline.map or [0])[0], inline.content, pos)
        way = "[" if src.startswith("[", pos) else src[pos : pos + 2]
        render.warn_each(f"cite unbound {way}", line0, col, _unbound_message(src, pos, shown))


def _unbound_message(src: str, pos: int, shown: str) -> Callable[[list[int]], str]:
    """Return the `warn_each` message of the first citation of its kind (written `shown` at
    `src[pos]`) in a post with no bibliography, given the lines of all of them."""

    def message(lines: list[int]) -> str:
        return (
            no_bibliography(shown, lines)
            + (", or write \\[ for literal text" if src.startswith("[", pos) else "")
            + (scholar_default(shown) if src.startswith("{%", pos) else "")
        )

    return message


def _warn_unknown(render: RenderState, inline: Token, token: Token, key: str, base: int) -> None:
    """Warn of a key the bibliography lacks, at the key in `inline`'s text (the cluster's
    `pos` counts from `base` there: an inline note's text)."""
    written = token.content.find("@" + key)  # `[@key]`; `{% cite key %}`, `<d-cite key=…>`
    offset = base + token.meta["pos"] + max(written if written >= 0 else token.content.find(key), 0)
    line0, col = locate(render, (inline.map or [0])[0], inline.content, offset)
    render.warn(line0, col, unknown_key(key, render.bibliography or ()))


# ## Formulas in titles ##


def _formula_html(tex: str, render: RenderState, work: Work | None = None) -> str:
    """Return a title's formula as MathML (a `math-error` span, warned at the entry, if it
    fails)."""
    from postil.markdown.mathdoc import error_span
    from postil.math import MathError, latex_to_mathml
    from postil.mathfont import formula_chars

    try:
        mathml = latex_to_mathml(tex, macros=render.macros, cache=render.math_cache)
    except MathError as exc:
        reported = render.extra.setdefault("cite_math_errors", set())
        if work is not None and (work.key, tex) not in reported:
            reported.add((work.key, tex))
            where = Location(work.source, work.line)
            message = f"entry `{work.key}`: {exc.message}"
            render.add(Diagnostic(Severity.WARNING, where, message))
        return error_span(tex, exc)
    render.math_chars |= formula_chars(mathml)
    return mathml


def _formulas(render: RenderState, work: Work | None) -> style.Formula:
    """Return the formula writer of one work's entry (its errors are warned at the entry)."""
    return lambda tex: _formula_html(tex, render, work)


def _formula_text(tex: str, render: RenderState) -> str:
    from postil.math.text import to_plain_text

    return to_plain_text(tex, macros=render.macros)


def _title_text(work: Work, render: RenderState) -> str:
    """Return a title as readable plain text (sorting, metadata)."""
    text = "".join(_formula_text(c, render) if kind == "math" else c for kind, c in work.title)
    return " ".join(text.split())


# ## Renderers ##


def _data(env: Any) -> _Citations:
    return get_state(env).extra.get("cite") or _Citations(False)


def _ref_link(key: str, text: str) -> str:
    return f'<a href="#ref-{escape(key)}">{text}</a>'


def _item_html(
    item: CiteItem, data: _Citations, narrative: bool, affixes: tuple[str, str] | None = None
) -> str:
    """Return one item of a cluster (without the cluster's brackets); `affixes`: its prefix
    and suffix as HTML (`citeaffix`), else they are escaped text."""
    label = data.labels.get(item.key)
    if label is None:
        return f'<span class="citation-missing">@{escape(item.key)}</span>'  # `missing_html`
    before, after = affixes or (escape(item.prefix), escape(item.suffix))
    suffix = f", {after}" if item.suffix else ""
    prefix = f"{before} " if item.prefix else ""
    if data.numeric:
        link = _ref_link(item.key, str(label.number))
        if narrative:
            return f"{escape(_names(label, data, item.key, True))} [{link}{suffix}]"
        return f"{prefix}{link}{suffix}"
    if narrative:
        year = _ref_link(item.key, escape(label.year))
        return f"{escape(_names(label, data, item.key, True))} ({year}{suffix})"
    if item.year_only:
        return f"{prefix}{_ref_link(item.key, escape(label.year))}{suffix}"
    names = escape(_names(label, data, item.key, False))
    return f"{prefix}{_ref_link(item.key, f'{names}, {escape(label.year)}')}{suffix}"


def _narrative_with_more(items: list[str], first: CiteItem, data: _Citations) -> str:
    """Return `@a [p. 33; @b]`: the first work's names in the text, its year (or number)
    and locator then the other works in its brackets, "Vaswani et al. (2017, p. 33;
    Müller & François, 2019)", as Pandoc's citeproc shows it."""
    html, rest = items[0], "; ".join(items[1:])
    close = "]" if data.numeric else ")"
    if first.key not in data.labels or not html.endswith(close):
        return f"{html}; {rest}"
    return f"{html[: -len(close)]}; {rest}{close}"


def _names(label: style.Label, data: _Citations, key: str, narrative: bool) -> str:
    """Return the cited names, or the title for a work without authors (APA)."""
    names = label.narrative_names if narrative else label.names
    if names:
        return names
    work = data.works[key]
    return "".join(f"${c}$" if kind == "math" else c for kind, c in work.title) or key


def render_cite(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render a citation cluster, then its toggle and margin copy (outside notes)."""
    token = tokens[idx]
    data, narrative = _data(env), token.meta["narrative"]
    cited = token.meta["items"]
    formula = _formulas(get_state(env), None)
    shown = [(affix_html(i.prefix, formula), affix_html(i.suffix, formula)) for i in cited]
    items = [_item_html(cited[0], data, narrative, shown[0])]
    items += [_item_html(i, data, False, a) for i, a in zip(cited[1:], shown[1:], strict=True)]
    if narrative and len(items) > 1:
        text = _narrative_with_more(items, token.meta["items"][0], data)
    elif narrative:
        text = items[0]
    elif data.numeric:
        joiner = "; " if any(i.suffix or i.prefix for i in token.meta["items"]) else ", "
        text = f"[{joiner.join(items)}]"
    else:
        text = f"({'; '.join(items)})"
    cid = token.meta.get("id")
    if cid is None:
        return f'<span class="citation">{text}</span>'
    html = f'<span class="citation" id="{cid}">{text}</span>'
    return html + _margin(token, cid, data, env)


def _margin(token: Token, cid: str, data: _Citations, env: Any) -> str:
    """Return the toggle and margin copy of a cluster's references ("" if none is known)."""
    keys = list(dict.fromkeys(i.key for i in token.meta["items"] if i.key in data.labels))
    if not keys:
        return ""
    render = get_state(env)
    entries = []
    for key in keys:
        work = data.works[key]
        out = style.Markup(_formulas(render, work), 'tabindex="-1"')
        number = f"[{data.labels[key].number}] " if data.numeric else ""
        entry = style.reference(work, out, data.labels[key].year)
        entries.append(f'<span class="citenote-entry">{number}{entry}</span>')
    target = "cn-" + cid.removeprefix("cite-")
    name = "Reference" if len(keys) == 1 else "References"
    return (
        f'<button type="button" class="sidenote-toggle" aria-expanded="false" '
        f'aria-controls="{target}" aria-label="{name}" hidden>\u2295</button>'
        f'<span class="sidenote citenote" id="{target}" aria-hidden="true">'
        f"{''.join(entries)}</span>"
    )


def render_cite_references(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render the References list: every cited work, with DOI/URL links and back-links."""
    data = _data(env)
    render = get_state(env)
    kind = "numeric" if data.numeric else "author-year"
    out = [
        '<section class="references" aria-labelledby="references">\n'
        '<h2 id="references">References</h2>\n'
        f'<ol class="references-list {kind}">\n'
    ]
    for key in data.order:
        work = data.works[key]
        markup = style.Markup(_formulas(render, work))
        label = data.labels[key]
        number = f'<span class="reference-label">[{label.number}]</span> ' if data.numeric else ""
        back = _backrefs(render, data.backlinks.get(key, []))
        entry = style.reference(work, markup, label.year)
        out.append(f'<li id="ref-{escape(key)}">{number}{entry}{back}</li>\n')
    out.append("</ol>\n</section>\n")
    return "".join(out)


NOTE_BACKLINK = "note:"
"""How `_Citations.backlinks` names a citation in a note: `note:` and the note's footnote id."""


def _backrefs(render: RenderState, backlinks: list[str]) -> str:
    """Return the ↩︎ links of a reference: to each citation in the text (`cite-N`) and to
    each note citing it, the Notes entry of a numbered note, a margin note itself (the
    sidenote plugin's notes, numbered by the time the list is rendered)."""
    carry = render.groups.carry.get("sidenote") or {}
    notes = carry.get("notes") or {}
    out = []
    for back in backlinks:
        if not back.startswith(NOTE_BACKLINK):
            label = f"citation {back.removeprefix('cite-')}"
        else:
            note = notes.get(int(back.removeprefix(NOTE_BACKLINK)))
            if note is None or note.kind == "missing":
                continue
            numbered = note.kind == "numbered"
            back = f"fn-{note.number}" if numbered else f"mn-{note.number}"
            label = f"note {note.number}" if numbered else "margin note"
        out.append(
            f' <a href="#{back}" class="citation-backref" '
            f'aria-label="Back to {label}">{BACKREF_GLYPH}</a>'
        )
    return "".join(out)
