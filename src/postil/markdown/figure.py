"""Numbered figures (`![Caption](img.png){#fig-x}`) and cross-references (`[](#fig-x)`)."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from itertools import count
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.htmlfilter import letter_label
from postil.markdown.chunk import QUARTO_SUFFIXES
from postil.markdown.references import label_page, locate, record, resolve
from postil.markdown.state import RenderState, get_state

KIND_LABELS = {"figure": "Figure", "table": "Table"}
"""Numbered kinds and the word before their number; each kind is numbered separately."""

_ID_BLOCK = re.compile(r"\s*\{#([^\s{}]+)\}\s*$")


def figure_plugin(md: MarkdownIt) -> None:
    """Turn a paragraph holding only `![Caption](src){#fig-id}` into a numbered `<figure>`.

    Syntax::

        ![Attention weights for one query.](weights.png){#fig-weights}

        As [](#fig-weights) shows, the head commits to one token.

    Output::

        <figure id="fig-weights" class="figure"><img src="weights.png" alt="Attention …">
        <figcaption><span class="figure-label">Figure 1</span> Attention …</figcaption></figure>

        <p>As <a href="#fig-weights">Figure 1</a> shows, …</p>

    Numbering: a core rule numbers, in document order, every block token whose
    `meta["figure"]` is `{"id": str | None, "kind": "figure" | "table"}` (these figures,
    widgets, captioned tables), per kind ("Figure N", "Table N"), writing
    `meta["figure_number"]` and `state.figures[id] = N`. A link with empty text to `#id`
    gets the label of that figure or table as its text; an empty link to any other `#id`,
    or a duplicate figure id, is an error at its line. An image without `{#id}` stays a
    plain inline image, except in a Quarto or R Markdown source, where an image with a
    caption alone in its paragraph is an unnumbered figure (`figure_block`). Quarto's
    `fig-alt="…"` is the image's alt text in place of the caption. CSS classes: figure,
    figure-label.
    """
    md.core.ruler.after("inline", "figure_block", figure_block)
    md.core.ruler.before("inline", "div_figure", div_figure)
    md.core.ruler.push("figure_number", figure_number)
    md.add_render_rule("figure_open", render_figure_open)
    md.add_render_rule("figure_close", render_figure_close)
    md.add_render_rule("div_figure_open", render_div_figure_open)
    md.add_render_rule("div_figure_close", lambda *args: "</figure>\n")
    md.add_render_rule("div_figure_caption_open", render_div_figure_caption_open)
    md.add_render_rule("div_figure_caption_close", lambda *args: "</figcaption>\n")


IMAGE_ONLY = re.compile(r"\s*!\[[^\n]*\]\([^\n]*\)\s*(?:\{[^{}\n]*\})?\s*")
"""A paragraph that is one image (with attributes): a figure div's content, not a caption."""

DIV_KINDS = {"fig-": "figure", "tbl-": "table"}
"""Id prefixes that make a fenced div a figure or table (Quarto's cross-reference divs)."""


def div_figure(state: StateCore) -> None:
    """Re-type a fenced div whose id is `fig-…` or `tbl-…` as a numbered figure or table.

    Quarto's cross-reference div::

        ::: {#fig-loss}
        ```python
        plot(loss)
        ```

        The training loss.
        :::

    holds any blocks (code, images, a widget); its last paragraph is the caption, shown
    under a figure and over a table, as Quarto places them. A figure (an image with an id,
    or a div of these) inside a figure div is its subfigure, lettered as Quarto letters
    them (`figure_number`): its caption says `(a)`, references to it `Figure 1(a)`, and it
    takes no number of its own. A div without a caption shows its label alone ("Figure
    2") where the caption goes, so the number its references name is on the page; an
    empty div is a warning too (Quarto makes it an empty figure).
    """
    tokens, stack = state.tokens, []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "div_open":
            ident = str(token.attrs.get("id", ""))
            stack.append((i, next((k for p, k in DIV_KINDS.items() if ident.startswith(p)), "")))
        elif token.type == "div_close" and stack:
            start, kind = stack.pop()
            if kind:
                i = _make_div_figure(tokens, start, i, kind, get_state(state.env))
        i += 1


def _make_div_figure(tokens: list[Token], start: int, end: int, kind: str, doc: RenderState) -> int:
    """Re-type the div `tokens[start]` … `tokens[end]` as a figure of `kind`; return the
    index of its closing token (a bare caption put in moves it)."""
    opening, closing = tokens[start], tokens[end]
    opening.type, closing.type, opening.tag, closing.tag = (
        "div_figure_open",
        "div_figure_close",
        "figure",
        "figure",
    )
    figure_id = str(opening.attrs.pop("id"))
    opening.meta = {"figure": {"id": figure_id, "kind": kind}}
    caption = tokens[end - 3 : end]
    if (
        end - 3 > start + 1  # a caption after something: a div of one paragraph has none
        and [t.type for t in caption] == ["paragraph_open", "inline", "paragraph_close"]
        and IMAGE_ONLY.fullmatch(caption[1].content) is None  # an image is content
        and caption[0].level == opening.level + 1
    ):
        caption[0].type, caption[0].tag = "div_figure_caption_open", ""
        caption[0].meta = {"figure_of": opening}  # numbered there, not counted again
        caption[2].type, caption[2].tag = "div_figure_caption_close", ""
        del tokens[end - 3 : end]
    else:
        if end == start + 1:
            doc.warn(
                opening.map[0] if opening.map else None,
                1,
                f"{KIND_LABELS[kind].lower()} div `#{figure_id}` is empty; put the "
                f"{KIND_LABELS[kind].lower()} in it, or remove the div",
            )
        caption = _bare_caption(opening)
        end += 3
    at = start + 1 if kind == "table" else end - 3  # over a table, under a figure
    tokens[at:at] = caption
    return end


def _bare_caption(opening: Token) -> list[Token]:
    """Return the tokens of a caption with no text, for a figure div without one."""
    level = opening.level + 1
    caption_open = Token("div_figure_caption_open", "", 1, level=level, block=True)
    caption_open.meta = {"figure_of": opening, "bare": True}
    inline = Token("inline", "", 0, level=level + 1, content="", map=opening.map, children=[])
    caption_close = Token("div_figure_caption_close", "", -1, level=level, block=True)
    return [caption_open, inline, caption_close]


def render_div_figure_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open a cross-reference div's `<figure>` (its other attributes kept)."""
    token = tokens[idx]
    figure = token.meta["figure"]
    classes = " ".join(filter(None, [figure["kind"], str(token.attrs.get("class", ""))]))
    rest = "".join(
        f' {escapeHtml(str(k))}="{escapeHtml(str(v))}"'
        for k, v in token.attrs.items()
        if k != "class"
    )
    return f'<figure id="{escapeHtml(figure["id"])}" class="{escapeHtml(classes)}"{rest}>\n'


def render_div_figure_caption_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open a cross-reference div's caption with its number ("Figure 2")."""
    meta = tokens[idx].meta["figure_of"].meta
    label = KIND_LABELS[meta["figure"]["kind"]]
    number = meta.get("figure_number")
    text = f"{label} {number}" if number else label
    if meta.get("subfigure"):
        text = f"({meta['subfigure']})"  # Quarto's subfigure caption; references say 1(a)
    space = "" if tokens[idx].meta.get("bare") else " "
    return f'<figcaption><span class="figure-label">{text}</span>{space}'


def figure_block(state: StateCore) -> None:
    """Re-type `paragraph(image + {#id})` as `figure_open`, caption `inline`, `figure_close`.

    An image without an id alone in its paragraph is a figure too when it is one of two or
    more such paragraphs of a figure div: Quarto's subfigures (`::: {#fig-x layout-ncol=2}`
    around `![Left](a.png)` and `![Right](b.png)`), each shown with its letter and its
    caption, "(a) Left", but no id of its own. In a Quarto or R Markdown source
    (`QUARTO_SUFFIXES`) an image with alt text alone in its paragraph is a figure with that
    caption and no number (Pandoc's `implicit_figures`); in a `.md` post it stays an image,
    as CommonMark has it. Quarto's column classes on the image place the figure.
    """
    tokens = state.tokens
    subfigures = _subfigure_paragraphs(tokens)
    implicit = get_state(state.env).path.lower().endswith(QUARTO_SUFFIXES)
    for i in range(len(tokens) - 2):
        opening, inline, closing = tokens[i : i + 3]
        if opening.type != "paragraph_open" or inline.type != "inline":
            continue
        figure_id = _figure_id(inline.children or [])
        numbered = bool(figure_id) or i in subfigures
        caption = None if numbered else emphasis_caption(inline.children or [])
        if caption is not None:
            _caption_figure(opening, inline, closing, caption)
            continue
        if not numbered and not (implicit and _captioned_image(inline.children or [])):
            continue
        image = (inline.children or [])[0]
        image.attrs.pop("id", None)
        opening.type, opening.tag = "figure_open", "figure"
        figure = {"id": figure_id, "kind": "figure", "numbered": numbered}
        opening.meta = {"figure": figure, "image": image, "classes": _column_classes(image)}
        closing.type, closing.tag = "figure_close", "figure"
        inline.children = image.children or []
        inline.content = image.content
        # the alt text's own tokens: rules after this one change the caption's in place
        image.children = [copy.copy(child) for child in inline.children]
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        made = opening.meta.get("image") if opening.type == "figure_open" else None
        if made is not None and made.meta.get("alt_from_caption"):  # `push_figure`'s
            text = (child for child in inline.children or [] if child.type != "html_inline")
            made.children = [copy.copy(child) for child in text]  # no tags in an alt text


def emphasis_caption(children: list[Token]) -> list[Token] | None:
    """Return the caption of an image whose next line is all emphasis, else None.

    `![A plot](plot.png)` then `_The loss over training_` on the line under it, in one
    paragraph: Chirpy's caption ("Writing a New Post", Images: Caption), and how many
    Jekyll and Hugo posts caption an image by hand. The caption is the emphasis' content.
    """
    if len(children) < 5 or children[0].type != "image" or children[1].type != "softbreak":
        return None
    if children[2].type != "em_open" or children[-1].type != "em_close":
        return None
    depth = 0
    for child in children[2:-1]:  # the emphasis must close last: `_a_ and _b_` is no caption
        depth += child.nesting if child.type in ("em_open", "em_close") else 0
        if depth == 0:
            return None
    return children[3:-1]


def _caption_figure(opening: Token, inline: Token, closing: Token, caption: list[Token]) -> None:
    """Re-type a paragraph of an image and its caption line as an unnumbered figure."""
    image = (inline.children or [])[0]
    opening.type, opening.tag = "figure_open", "figure"
    figure = {"id": None, "kind": "figure", "numbered": False}
    opening.meta = {"figure": figure, "image": image, "classes": _column_classes(image)}
    closing.type, closing.tag = "figure_close", "figure"
    inline.children = caption
    inline.content = inline.content.split("\n", 1)[1].strip().strip("_*")


def _captioned_image(children: list[Token]) -> bool:
    """Return whether a paragraph's inline children are one image with a caption (alt text):
    Pandoc's implicit figure (`implicit_figures`, on in Quarto and R Markdown)."""
    return len(children) == 1 and children[0].type == "image" and bool(children[0].children)


def _column_classes(image: Token) -> list[str]:
    """Take Quarto's column classes (`column-margin`, `column-page`, …) off a figure's image
    and return them: they place the whole figure (`postil.markdown.margin`)."""
    classes = str(image.attrs.get("class", "")).split()
    columns = [c for c in classes if c.startswith("column-")]
    if columns:
        kept = [c for c in classes if c not in columns]
        if kept:
            image.attrs["class"] = " ".join(kept)
        else:
            image.attrs.pop("class", None)
    return columns


def _subfigure_paragraphs(tokens: list[Token]) -> set[int]:
    """Return the indices of the paragraphs that are one image without an id, when two or
    more paragraphs of one image (with or without an id) are direct children of a figure
    div: its subfigures. A div of one image is a figure of one image, not a subfigure."""
    found: set[int] = set()
    divs: list[tuple[Token, list[int], int]] = []  # open figure div, its id-less images, all
    for i, token in enumerate(tokens):
        if token.type == "div_figure_open":
            divs.append((token, [], 0))
        elif token.type == "div_figure_close" and divs:
            opening, plain, count = divs.pop()
            if opening.meta["figure"]["kind"] == "figure" and count >= 2:
                found.update(plain)
        elif token.type == "paragraph_open" and divs and i + 1 < len(tokens):
            opening, plain, count = divs[-1]
            children = tokens[i + 1].children or []
            if token.level != opening.level + 1 or not children or children[0].type != "image":
                continue
            if len(children) == 1 and not children[0].attrs.get("id"):
                plain.append(i)
            elif not _figure_id(children):
                continue
            divs[-1] = (opening, plain, count + 1)
    return found


def _figure_id(children: list[Token]) -> str | None:
    """Return the figure id of a paragraph's inline children, if they are one image with an id.

    The id is the image's attribute (`![C](a.png){#fig-a width=50%}`, attrs plugin) or, with
    a space before it, a trailing `{#fig-a}` text.
    """
    if not children or children[0].type != "image":
        return None
    if len(children) == 1:
        given = children[0].attrs.get("id")
        return str(given) if given else None
    match = _ID_BLOCK.fullmatch(children[1].content) if len(children) == 2 else None
    return match.group(1) if match and children[1].type == "text" else None


def figure_number(state: StateCore) -> None:
    """Number every figure-like block token per kind; resolve empty `[](#id)` links.

    In a document parsed in groups (`postil.markdown.state.GroupRun`) the counters carry
    from group to group, and links resolve with the gathering run's labels of the whole
    document (a link may come before its figure).
    """
    render_state = get_state(state.env)
    run = render_state.groups
    carry = run.carry.setdefault(
        "figure", {"labels": {}, "counters": dict.fromkeys(KIND_LABELS, 0)}
    )
    labels: dict[str, str] = carry["labels"]
    counters: dict[str, int] = carry["counters"]
    parents: list[list[Any]] = []  # the figure divs open here: [kind, number, subfigures]
    for token in state.tokens:
        if token.type == "div_figure_close" and parents:
            parents.pop()
        figure = token.meta.get("figure") if token.meta else None
        if not isinstance(figure, dict) or "figure_number" in token.meta:
            continue  # a callout's title and closing tokens share its meta: numbered once
        kind = figure.get("kind", "figure")
        if figure.get("numbered") is False:  # an implicit figure: a caption, no number
            continue
        number: int | str | None = _subfigure_number(token, kind, parents)
        if number is None:
            counters[kind] = counters.get(kind, 0) + 1
            number = counters[kind]
        token.meta["figure_number"] = number
        if token.type == "div_figure_open":
            parents.append([kind, number, 0])
        figure_id = figure.get("id")
        if not figure_id:
            continue
        label = f"{KIND_LABELS.get(kind, kind.title())} {number}"
        if figure_id in labels:  # Quarto warns and links to the first; the page keeps ids unique
            _report_repeated_id(render_state, token, figure_id, labels[figure_id], label)
            figure["id"] = next(
                f"{figure_id}-{n}" for n in count(2) if f"{figure_id}-{n}" not in labels
            )
            labels[figure["id"]] = label
            continue
        labels[figure_id] = label
        render_state.figures[figure_id] = int(str(number).split("(")[0])
    render_state.extra["figure_labels"] = labels
    if run.ahead and run.last:
        run.facts["figure"] = dict(labels)
    render_state.step(1)
    known = run.facts.get("figure", labels)
    for token in state.tokens:
        if token.type == "inline" and token.children:
            _resolve_references(state, token, known)


def _report_repeated_id(
    doc: RenderState, token: Token, figure_id: str, first: str, second: str
) -> None:
    """Report a figure-like block whose id an earlier one has, naming what the two are
    ("two theorems", "a figure and a lemma": theorems share the figures' ids): a warning,
    as Quarto warns of a duplicate cross-reference id and links to the first."""
    first_kind, second_kind = (label.rsplit(" ", 1)[0].lower() for label in (first, second))
    both = (
        f"two {first_kind}s"
        if first_kind == second_kind
        else f"{_article(first_kind)} {first_kind} ({first}) and {_article(second_kind)} "
        f"{second_kind}"
    )
    noun = first_kind if first_kind == second_kind else "one"
    doc.warn(
        token.map[0] if token.map else None,
        1,
        f"{both} have the id {figure_id!r}; references go to the first: give each {noun} "
        "its own id",
    )


def _article(word: str) -> str:
    """Return "an" before a vowel, else "a"."""
    return "an" if word[:1] in "aeiou" else "a"


def _subfigure_number(token: Token, kind: str, parents: list[list[Any]]) -> str | None:
    """Return "1(a)" for a figure inside figure div 1 (Quarto's subfigures, lettered in
    order), or None for a figure of its own; a table inside a figure is its own."""
    if not parents or parents[-1][0] != kind:
        return None
    parent = parents[-1]
    parent[2] += 1
    token.meta["subfigure"] = letter_label(parent[2])
    return f"{parent[1]}({token.meta['subfigure']})"


def _resolve_references(state: StateCore, inline: Token, labels: dict[str, str]) -> None:
    """Give every empty-text link to `#id` in an inline token the label of figure `id`,
    or the heading text of MyST's `(id)=` target (mystmd and Jupyter Book fill an empty
    link so; one to an equation label got its number from `mathdoc.link_labels`)."""
    children = inline.children or []
    resolved: list[Token] = []
    targets: dict[str, str] | None = None
    for i, child in enumerate(children):
        resolved.append(child)
        href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
        empty = i + 1 < len(children) and children[i + 1].type == "link_close"
        if not (href.startswith("#") and empty):
            continue
        label = labels.get(href[1:])
        if label is None:
            targets = _myst_targets(state) if targets is None else targets
            label = targets.get(href[1:]) or None
        if label is None and (other := label_page(get_state(state.env), href[1:])):
            child.attrSet("href", other[2])  # another page's section: its heading's words
            label = other[1] or href[1:]
        if label is None:
            line0, col = _find_in_block(state.src, inline.map, f"[]({href})")
            known = ", ".join(sorted(labels)) or "none"
            get_state(state.env).warn(  # the page shows `??`, as for an unknown `\eqref`
                line0,
                col,
                f"empty link to {href}: no figure, table, equation or `(label)=` target "
                f"has the id {href[1:]!r} (figures and tables: {known}), so it shows ??; "
                "fix the id or write the link text (another page's `(label)=` target is "
                "found when that page alone has it; else link to it as "
                f"`[text](other.md{href})`, which postil checks)",
            )
            label = "??"
        resolved.append(Token("text", "", 0, content=label))
    inline.children = resolved


def _myst_targets(state: StateCore) -> dict[str, str]:
    """Return each MyST `(label)=` target's label -> its heading's text (`mystrole`)."""
    from postil.markdown.mystrole import targets

    return targets(get_state(state.env))


def _find_in_block(src: str, line_map: list[int] | None, needle: str) -> tuple[int | None, int]:
    """Return (0-based body line, 1-based column) of `needle` in a block's lines, else its start."""
    if not line_map:
        return None, 0
    lines = src.split("\n")
    for line0 in range(line_map[0], min(line_map[1], len(lines))):
        col = lines[line0].find(needle)
        if col >= 0:
            return line0, col + 1
    return line_map[0], 1


def push_figure(
    state: StateBlock,
    line: int,
    src: str,
    caption: str,
    alt: str | None = None,
    classes: Sequence[str] = (),
    attrs: dict[str, str] | None = None,
    ident: str | None = None,
) -> None:
    """Push a numbered figure, for a block rule of another plugin.

    Args:
        state: the block state; the figure goes at its end.
        line: the 0-based body line the figure is written on.
        src: the image as written (a post's file, `/x.png` from the site's root, a URL);
            resolved, put under the base path and checked as the links plugin does an
            image's (`references.resolve`, `record`): a missing file is a warning at it.
        caption: Markdown, parsed as the caption's inline content.
        alt: the image's text; when None, the caption's text as `![caption](…)` gives it
            (`figure_block` copies the parsed caption: emphasis and code as their text, a
            formula as its plain-text reading, `math.math_alt`).
        classes: more classes of the `<figure>` (after `figure`).
        attrs: more attributes of the `<img>` (`width`, `height`).
        ident: the figure's id (MyST's `:name:`), numbered and linked as `{#fig-x}` is;
            None for none.
    """
    doc = get_state(state.env)
    resolved = resolve(src, doc)
    image = Token("image", "img", 0, attrs={"src": resolved.url or src})
    if resolved.target:  # checked once every output file is known, and sized, as `![](…)` is
        record(doc, src, resolved, *locate(doc, [line, line + 1], src))
        image.meta["file"] = resolved.target
    image.attrs.update(attrs or {})
    if alt is None:
        image.meta["alt_from_caption"] = True
    image.children = [Token("text", "", 0, content=alt or "")]
    opening = state.push("figure_open", "figure", 1)
    opening.map = [line, line + 1]
    opening.meta = {
        "figure": {"id": ident, "kind": "figure"},
        "image": image,
        "classes": list(classes),
    }
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = caption, [line, line + 1], []
    state.push("figure_close", "figure", -1)


def render_figure_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Open `<figure>` with the image and the start of its numbered caption.

    Blocks made by other plugins (a Hugo `figure` shortcode) may have no id, extra classes
    (`meta["classes"]`) and an image `width` and `height`.
    """
    token = tokens[idx]
    image: Token = token.meta["image"]
    figure_id = token.meta["figure"]["id"]
    given = image.attrs.get("data-fig-alt")  # Quarto's `fig-alt`, through the allow-list
    alt = str(given) if given else self.renderInlineAsText(image.children or [], options, env)
    extra = "".join(
        f' {name}="{escapeHtml(str(value))}"'
        for name, value in image.attrs.items()
        if name not in ("src", "alt", "id", "data-fig-alt")
    )
    number = token.meta.get("figure_number")
    label = f"({token.meta['subfigure']})" if token.meta.get("subfigure") else f"Figure {number}"
    label = f'<span class="figure-label">{label}</span> ' if number is not None else ""
    id_attr = f' id="{escapeHtml(figure_id)}"' if figure_id else ""
    classes = escapeHtml(" ".join(["figure", *token.meta.get("classes", ())]))
    return (
        f'<figure{id_attr} class="{classes}">\n'
        f'<img src="{escapeHtml(str(image.attrs.get("src", "")))}" alt="{escapeHtml(alt)}"'
        f"{extra}>\n"
        f"<figcaption>{label}"
    )


def render_figure_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close the caption and the figure."""
    return "</figcaption>\n</figure>\n"
