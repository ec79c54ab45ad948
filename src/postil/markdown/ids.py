"""Ids a post defines itself must be unique in its page: an error (a warning when raw HTML
repeats its own id) names both definitions."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import RenderState, get_state
from postil.slugs import RESERVED_IDS, RESERVED_PREFIXES
from postil.theme import PAGE_IDS


def ids_plugin(md: MarkdownIt) -> None:
    """Report an id written in the post that its page already has.

    Syntax: the ids an author writes, as figure ids and in raw HTML::

        ![Loss](loss.png){#main}          the page's <main id="main"> has it: an error
        <div id="fig-loss">…</div>        a figure has it: an error
        <marker id="a">…<marker id="a">   raw HTML twice: a warning

    An id given twice in one page breaks `#links` to it and the `aria-labelledby` of the
    page's landmarks (HTML requires ids to be unique). Ids postil makes (headings, notes)
    already avoid every other id; an id the author writes is reported at its line, naming
    where the other one comes from (a template of `postil.theme.PAGE_IDS`, or a line of
    the post). Figures given one id twice are reported by the figure plugin. No CSS classes.
    """
    md.core.ruler.push("unique_ids", unique_ids)


def unique_ids(state: StateCore) -> None:
    """Check the figure ids, attribute-list ids and raw HTML ids of the document against
    each other and the page.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) each group's ids are
    kept until the last group, where all are checked as for a document parsed whole.
    """
    render_state = get_state(state.env)
    carry = render_state.groups.carry
    figures: list[tuple[str, int | None, str]] = carry.setdefault("ids", [])
    attributes: list[tuple[str, int | None]] = carry.setdefault("attribute_ids", [])
    line0: int | None = None
    for token in state.tokens:
        line0 = token.map[0] if token.map else line0
        figure = token.meta.get("figure") if token.meta else None
        if isinstance(figure, dict) and figure.get("id"):
            kind = str(figure.get("kind") or "figure")  # a table, a theorem are numbered so too
            figures.append((str(figure["id"]), token.map[0] if token.map else None, kind))
        elif token.attrs:
            _check_template_id(render_state, token, line0)
        for child in token.children or ():
            if child.attrs:
                _check_template_id(render_state, child, line0)
    attributes += attribute_ids(state.tokens)
    if not render_state.groups.last:
        return
    defined = [(found, (line0, 1), f"the {kind}", False) for found, line0, kind in figures]
    after: dict[tuple[int | None, str], int] = {}  # two `{#k}` on one line: the second's
    for found, line0 in attributes:
        if found in PAGE_IDS:
            continue  # the template's: an error where it was read (`_check_template_id`)
        col = after[line0, found] = _column(
            render_state, line0, found, after.get((line0, found), 0)
        )
        defined.append((found, (line0, col), "the attribute list", True))
        _check_generated_id(render_state, found, (line0, col))
    defined += [
        (found, (line0, col), "raw HTML", True)
        for found, line0, col in render_state.extra.get("html_ids", ())
    ]
    defined.sort(key=lambda one: (one[1][0] is None, one[1][0] or 0, one[1][1]))
    seen: dict[str, tuple[str, bool]] = {}
    for found, at, noun, authored in defined:  # the later of two is reported
        _define(render_state, found, at, seen, noun, authored)


def element_ids(tokens: list[Token]) -> set[str]:
    """Return the ids the elements of `tokens` but headings carry: figures', tables' and
    widgets' (`meta["figure"]`), Obsidian's block ids (`meta["block_id"]`,
    `wikilink.block_ids`) and attribute lists' (`attribute_ids`). Heading slugs avoid them
    (`heading.py`); a `#fragment` naming one is no other generator's heading id
    (`fragments.py`)."""
    ids = {found for found, _ in attribute_ids(tokens)}
    for token in tokens:
        if not token.meta:
            continue
        figure = token.meta.get("figure")
        if isinstance(figure, dict) and figure.get("id"):
            ids.add(str(figure["id"]))
        if token.meta.get("block_id"):
            ids.add(str(token.meta["block_id"]))
    return ids


def attribute_ids(tokens: list[Token]) -> list[tuple[str, int | None]]:
    """Return `(id, 0-based body line)` of each id an attribute list gives an element that is
    neither a heading (`heading.py` gives and checks those) nor a numbered figure, in order.

    Syntax: Pandoc's and markdown-it-attrs' `::: {#x}`, `[text]{#x}`, `![a](b.png){#x}`
    on an unnumbered image, kramdown's `{: #x}`; postil copies the id into the element.
    """
    found: list[tuple[str, int | None]] = []
    line0: int | None = None
    for token in tokens:
        if token.map:
            line0 = token.map[0]
        if token.attrs and token.type != "heading_open":
            _author_id(token, line0, found)
        content = token.content
        if token.children and "{" in content and ("#" in content or "id=" in content):
            for child in token.children:  # an inline attribute list: `{#x}`, `{id="x"}`
                if child.attrs:
                    _author_id(child, line0, found)
    return found


def _author_id(token: Token, line0: int | None, found: list[tuple[str, int | None]]) -> None:
    """Append `token`'s id with `line0` to `found` unless it has none or is a figure's."""
    given = token.attrs.get("id")
    figure = token.meta.get("figure") if token.meta else None
    if isinstance(given, str) and given and not (isinstance(figure, dict) and figure.get("id")):
        found.append((given, line0))


def _column(render_state: RenderState, line0: int | None, found: str, after: int) -> int:
    """Return the 1-based column of `#found` on body line `line0` after column `after`, or
    `after` + 1 when it is not there (an id on a block's line is on the line before it)."""
    lines = render_state.source_lines
    if line0 is None or not 0 <= line0 < len(lines):
        return after + 1
    return lines[line0].find(f"#{found}", after) + 1 or after + 1


GENERATED_PREFIXES = tuple(p for p in RESERVED_PREFIXES if p not in ("fig-", "tbl-", "eq-"))
"""Prefixes of the ids postil numbers its own notes and citations with (`fn-1`, `fnref-1-2`,
`sn-1`, `mn-…`, `cite-…`): `postil.slugs.RESERVED_PREFIXES` but the author's own figure,
table and equation ids (`fig-`, `tbl-`, `eq-`)."""

GENERATED_IDS = RESERVED_IDS - frozenset(PAGE_IDS)
"""Ids of the sections and landmarks postil adds to a post (the Notes, the References):
`postil.slugs.RESERVED_IDS` but the templates' (`_check_template_id` reports those)."""


def _check_generated_id(render_state: RenderState, found: str, at: tuple[int | None, int]) -> None:
    """Warn of an attribute-list id shaped like one postil gives its own notes, citations or
    sections (`{#fn-1}`, `{#notes}`): the footnote's back-link and the note's link would
    jump to the author's element instead, today or once a note is added."""
    if found in GENERATED_IDS or found.startswith(GENERATED_PREFIXES):
        line0, col = at
        render_state.warn(
            line0,
            col,
            f"id `{found}` is of the kind postil gives its own notes, citations and sections "
            f"(`notes`, `references`, `fn-1`, `sn-1`, `cite-…`); links to them would land on "
            "this element: choose another id",
        )


def _check_template_id(render_state: RenderState, token: Token, line0: int | None) -> None:
    """Report an id from an attribute list (`::: {#main}`, `[text]{#main}`, `{: #main}`)
    that a page template has already; headings check their own (`heading.py`)."""
    found = token.attrs.get("id")
    if not isinstance(found, str) or found not in PAGE_IDS or token.type == "heading_open":
        return
    message = (
        f"id `{found}` is already used by the page template {PAGE_IDS[found]}; ids must be "
        "unique in a page: choose another id"
    )
    render_state.error(line0, 1, message)


def _define(
    render_state: RenderState,
    found: str,
    at: tuple[int | None, int],
    seen: dict[str, tuple[str, bool]],
    noun: str,
    authored: bool,
) -> None:
    """Record id `found` defined at `at` (0-based body line, 1-based column) by `noun` ("the
    figure", "the attribute list", "raw HTML"); report it if the page or the post has it
    already. `authored`: the id is the author's own markup (raw HTML, an attribute list),
    not a numbered element postil links to.

    Two of the author's own ids are a warning (browsers take the first; Pandoc warns of a
    "Duplicate identifier" and builds); one that takes a figure's id breaks postil's
    numbered links, and one the page template has breaks its landmarks: errors. Two
    figures with one id are the figure plugin's error.
    """
    line0, col = at
    template = PAGE_IDS.get(found)
    here = str(render_state.location(line0, col))
    if template:
        other, other_authored = f"the page template {template}", False
    elif found in seen:
        other, other_authored = seen[found]
    else:
        seen[found] = (f"{noun} at {here}", authored)
        return
    if not template and not authored and not other_authored:
        return  # two figures with one id: the figure plugin's error
    message = (
        f"id `{found}` of {noun} is already used by {other}; ids must be unique in a "
        "page: choose another id"
    )
    if authored and other_authored:
        # The author's HTML twice (an SVG's `<marker id="arrowhead">` pasted with each
        # drawing, as in cs231n's notes): browsers take the first, and every generator
        # builds it, so it is a warning; one that takes a figure's or the page's id breaks
        # postil's own links and landmarks, so that stays an error.
        render_state.warn(line0, col, message)
    else:
        render_state.error(line0, col, message)
