"""Mermaid diagrams: ```` ```mermaid ```` fences drawn in the reader's browser.

Every generator postil's writers come from draws Mermaid's text diagrams (flowcharts,
sequence diagrams, …) with Mermaid's own script in the browser: Hugo's code block render
hook, MkDocs Material's SuperFences, Quarto's `{mermaid}` cells, MyST's `{mermaid}`
directive, Chirpy's `mermaid: true`, Docusaurus, GitHub itself. postil does the same: the
diagram's source goes into the page as `<pre class="mermaid">` inside a `<figure
class="diagram">`, and a page with a diagram loads `static/js/diagrams.js`, which imports
Mermaid's ES module from the site's `mermaid:` URL (`SiteConfig.mermaid_url`) and draws it.
Without JavaScript, offline, or with `mermaid: false`, the reader sees the source, set as
code. Mermaid is not run at build time: that takes a headless browser (mermaid-cli).

Every way of writing one becomes a `fence` token whose language is `mermaid`: the fence
itself (and `~~~mermaid`), Quarto's ```` ```{mermaid} ```` cell with its `%%| label:` and
`%%| fig-cap:` options (`diagram_cell`), MyST's ```` ```{mermaid} ```` directive
(`postil.markdown.myst`), Hugo's `{{< mermaid >}}` shortcode (`postil.markdown.shortcode`),
jekyll-mermaid's `{% mermaid %}` tag (`postil.markdown.liquid`), Zola's `mermaid()`
(`postil.markdown.zola`), and a plain fence with kramdown's `{: .mermaid}` under it
(`postil.markdown.code.class_language`); an author's raw `<div class="mermaid">` is drawn
as it is (`postil.markdown.rawhtml` notes it). A caption comes from the fence's `title=`
(`postil.markdown.fenceinfo`), a `fig-cap`, or a MyST `:caption:`; a `fig-` label makes it a
numbered figure that `@fig-x` refers to (`postil.markdown.figure`).
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from postil.markdown.state import RenderState

DIAGRAM_LANGUAGES = frozenset({"mermaid"})
"""Fence languages drawn as diagrams (lower case)."""

CELL_OPTION = re.compile(r"[ \t]*%%\|[ \t]*([\w.-]+)[ \t]*:[ \t]*(.*?)[ \t]*(?:\n|\Z)")
"""A Quarto diagram cell's option line, written as a Mermaid comment: `%%| fig-cap: "Flow"`
(Quarto, "Diagrams": "Cell options")."""


def is_diagram(language: str) -> bool:
    """Return whether a fence's language names a diagram postil draws (`mermaid`, any case)."""
    return language.lower() in DIAGRAM_LANGUAGES


def diagram_cell(token: Token) -> None:
    """Make a Quarto ```` ```{mermaid} ```` cell a diagram fence, in place: its `%%|` option
    lines go; `label` (a `fig-` label numbers it as a figure) and `fig-cap` (its caption) are
    kept in the token's meta, the others (`fig-width`, `echo`) change nothing here.

    Args:
        token: the cell's `fence` token, its info `{mermaid}` or `{mermaid options}`.
    """
    options: dict[str, str] = {}
    at = 0
    while (found := CELL_OPTION.match(token.content, at)) is not None and found.end() > at:
        options[found.group(1).lower()] = _unquoted(found.group(2))
        at = found.end()
    token.content = token.content[at:]
    token.info = "mermaid"
    set_caption(token, options.get("fig-cap", ""), options.get("label", ""))


def set_caption(token: Token, caption: str, label: str = "") -> None:
    """Give a diagram fence a caption and, for a `fig-` label (Quarto's and MyST's
    cross-reference id), a figure number (`postil.markdown.figure.figure_number` numbers
    tokens whose meta has a "figure")."""
    if caption:
        token.meta["diagram_caption"] = caption
    if label.startswith("fig-"):
        token.meta["figure"] = {"id": label, "kind": "figure"}


def _unquoted(value: str) -> str:
    """Return an option's value without the quotes YAML allows around it."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def render_diagram(code: str, title: str, meta: dict[str, Any] | None, state: RenderState) -> str:
    """Return a diagram's HTML and note that the page needs the diagram script.

    Args:
        code: the diagram's source as written (Mermaid reads the element's text).
        title: the fence's `title=`, if any: the caption when no other is given.
        meta: the fence token's meta (`diagram_caption`, and `figure`/`figure_number` when
            numbered).
        state: the document's state; `state.diagrams` gets "mermaid".

    Returns:
        `<figure class="diagram">` holding `<pre class="mermaid">` and a caption ("Figure 2"
        before it when numbered).
    """
    state.diagrams.add("mermaid")
    meta = meta or {}
    figure = meta.get("figure") or {}
    number = meta.get("figure_number")
    caption = escapeHtml(str(meta.get("diagram_caption") or title))
    label = f'<span class="figure-label">Figure {number}</span>' if figure and number else ""
    text = f"{label} {caption}".strip()
    ident = f' id="{escapeHtml(str(figure["id"]))}"' if figure.get("id") else ""
    return (
        f'<figure class="diagram"{ident}>\n'
        f'<pre class="mermaid" tabindex="0">{escapeHtml(code.rstrip())}</pre>\n'
        + (f"<figcaption>{text}</figcaption>\n" if text else "")
        + "</figure>\n"
    )


def render_margin_diagram(code: str, state: RenderState) -> str:
    """Return a diagram's margin copy, in a sidenote or margin note
    (`postil.markdown.sidenote`), and note that the page needs the diagram script.

    A note's margin copy is phrasing content (it sits in the paragraph of its reference), so
    the diagram is a `<span class="mermaid">` holding its source, which `diagrams.js` draws
    as it draws `<pre class="mermaid">`; until then it reads as code. (The margin copy showed
    the source as code, never drawn: a margin note, its only copy, never showed the diagram.)

    Args:
        code: the diagram's source as written.
        state: the document's state; `state.diagrams` gets "mermaid".
    """
    state.diagrams.add("mermaid")
    return f'<span class="mermaid margin-diagram">{escapeHtml(code.rstrip())}</span>'
