"""Ids a post defines itself must be unique in its page: an error (a warning when raw HTML
repeats its own id) names both definitions."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import RenderState, get_state
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
    """Check the figure ids and raw HTML ids of the document against each other and the page.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) each group's figure
    ids are kept until the last group, where all are checked as for a document parsed whole.
    """
    render_state = get_state(state.env)
    figures: list[tuple[str, int | None, str]] = render_state.groups.carry.setdefault("ids", [])
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
    if not render_state.groups.last:
        return
    seen: dict[str, str] = {}
    for found, line0, kind in figures:
        _define(render_state, found, (line0, 1), seen, figure_dup_ok=True, noun=f"the {kind}")
    for found, line0, col in render_state.extra.get("html_ids", ()):
        _define(render_state, found, (line0, col), seen, figure_dup_ok=False)


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
    seen: dict[str, str],
    figure_dup_ok: bool,
    noun: str = "the figure",
) -> None:
    """Record id `found` defined at `at` (0-based body line, 1-based column); report it if
    the page or the post has it already (`noun`: what a numbered element is, "the table")."""
    line0, col = at
    where = noun if figure_dup_ok else "raw HTML"
    here = str(render_state.location(line0, col))
    template = PAGE_IDS.get(found)
    other = f"the page template {template}" if template else seen.get(found)
    if other is None:
        seen[found] = f"{where} at {here}"
        return
    if figure_dup_ok and not template:
        return  # two figures with one id: the figure plugin's error
    message = (
        f"id `{found}` of {where} is already used by {other}; ids must be unique in a "
        "page: choose another id"
    )
    if not template and other.startswith("raw HTML"):
        # The author's HTML twice (an SVG's `<marker id="arrowhead">` pasted with each
        # drawing, as in cs231n's notes): browsers take the first, and every generator
        # builds it, so it is a warning; one that takes a figure's or the page's id breaks
        # postil's own links and landmarks, so that stays an error.
        render_state.warn(line0, col, message)
    else:
        render_state.error(line0, col, message)
