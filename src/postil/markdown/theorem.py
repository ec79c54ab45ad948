"""Quarto's theorems and proofs: `::: {#thm-x}` numbered, `::: {.proof}` titled.

Quarto ("Theorems and Proofs") makes a fenced div whose id starts with a theorem prefix
(`THEOREMS`) a numbered theorem of that kind, titled by its `name="…"` attribute or a
heading right inside it; a div with the class `proof`, `remark` or `solution` is an
unnumbered proof. Pandoc-based blogs without Quarto mark theorems by class, for a filter
of their own to label (pandoc-theorem, pandoc-amsthm, a Hakyll site's `theoremFilter`):
`::: {.theorem title="Cauchy"}`, `::: {.Lemma #key}` (`CLASSES`, any case). Such a div is
a theorem of its kind too, titled by `title="…"` (or `name`, or its first heading; the
title is Markdown, so its math is typeset), numbered with Quarto's theorems of the kind
when it has an id (so `[@key]` and `[](#key)` read "Lemma 2", as those filters' own
references do), and unnumbered ("Theorem (Cauchy).") when nothing can refer to it.
`@thm-x` (or `@Thm-x`) refers to a theorem as "Theorem 1"
(`postil.markdown.xref`). An empty label (`#thm-`) warns. sphinx-proof's directives are
pushed as these tokens by `postil.markdown.myst` (`title_tokens`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.state import RenderState, get_state

THEOREMS = {
    "thm": "Theorem",
    "lem": "Lemma",
    "cor": "Corollary",
    "prp": "Proposition",
    "cnj": "Conjecture",
    "def": "Definition",
    "exm": "Example",
    "exr": "Exercise",
    "sol": "Solution",
    "rem": "Remark",
    "alg": "Algorithm",
}
"""Quarto's theorem id prefixes and their words; each kind is numbered on its own."""

PROOFS = {"proof": "Proof", "remark": "Remark", "solution": "Solution"}
"""Quarto's proof classes and their words (not numbered)."""

CLASSES = {
    **{word.lower(): prefix for prefix, word in THEOREMS.items() if prefix not in ("sol", "rem")},
    **dict.fromkeys(
        (
            "assumption",
            "axiom",
            "claim",
            "fact",
            "hypothesis",
            "notation",
            "observation",
            "problem",
            "property",
            "question",
        )
    ),
}
"""Theorem classes of pandoc-theorem and amsthm-style filters (`::: {.theorem}`, `.Lemma`,
`.problem`), in lower case, and the Quarto prefix of the same kind (None: the kind is the
class itself, its word the class capitalised)."""


def theorem_plugin(md: MarkdownIt) -> None:
    """Render Quarto's theorem and proof divs.

    Syntax::

        ::: {#thm-pythagoras}
        ## Pythagoras
        In a right triangle $a^2 + b^2 = c^2$.
        :::

        ::: {.proof}
        By similar triangles.
        :::

    Output::

        <div id="thm-pythagoras" class="theorem theorem-thm">
        <p class="theorem-title"><strong>Theorem 1 (Pythagoras).</strong></p>
        <p>In a right triangle …</p>
        </div>
        <div class="proof">
        <p class="theorem-title"><em>Proof.</em></p>
        <p>By similar triangles.</p>
        </div>

    The figure plugin's counter numbers each kind (`meta["figure"]`, kind its word in
    lower case), so `[](#thm-x)` and `@thm-x` read "Theorem 1". CSS classes: theorem,
    theorem-<prefix>, proof, theorem-title.
    """
    md.core.ruler.before("inline", "div_theorem", div_theorem)
    md.add_render_rule("theorem_open", render_theorem_open)
    md.add_render_rule("theorem_close", lambda *args: "</div>\n")
    md.add_render_rule("theorem_title_open", render_theorem_title_open)
    md.add_render_rule("theorem_title_close", render_theorem_title_close)


def div_theorem(state: StateCore) -> None:
    """Core rule: re-type theorem and proof divs, their first heading their title."""
    tokens, stack = state.tokens, []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "div_open":
            stack.append(token)
            if _kind(token):
                _open(tokens, i, get_state(state.env))
        elif token.type == "div_close" and stack:
            if stack.pop().type == "theorem_open":
                token.type, token.tag = "theorem_close", "div"
        i += 1


def _kind(token: Token) -> str:
    """Return a div's theorem prefix (`thm`), proof class (`proof`) or theorem class
    (`claim`, `CLASSES`), else ""."""
    prefix = str(token.attrs.get("id", "")).split("-", 1)[0]
    if prefix in THEOREMS and "-" in str(token.attrs.get("id", "")):
        return prefix
    classes = str(token.attrs.get("class", "")).split()
    if proof := next((name for name in classes if name in PROOFS), ""):
        return proof
    named = next((name.lower() for name in classes if name.lower() in CLASSES), "")
    return CLASSES[named] or named if named else ""


def _word(kind: str) -> str:
    """Return the word a theorem or proof of `kind` is titled with ("Theorem", "Claim")."""
    return THEOREMS.get(kind) or PROOFS.get(kind) or kind.capitalize()


def _open(tokens: list[Token], i: int, doc: RenderState) -> None:
    """Re-type the div at `i` and give it a title: its `name` attribute, its first heading,
    or one with no text."""
    opening = tokens[i]
    kind = _kind(opening)
    quarto = str(opening.attrs.get("id", "")).startswith(f"{kind}-")
    opening.type, opening.tag = "theorem_open", "div"
    opening.meta = {"kind": kind, "word": _word(kind)}
    if quarto or (kind not in PROOFS and opening.attrs.get("id")):
        ident: str | None = str(opening.attrs.pop("id"))
        if quarto and ident == f"{kind}-":
            _report_empty_label(doc, opening, kind)
            ident = None
        opening.meta["figure"] = {"id": ident, "kind": _word(kind).lower()}
    # Quarto's `name="…"` (Pandoc made it `data-name`, `attrlist.clean_attributes`); the
    # filters' `title="…"`, which must not stay an HTML tooltip of raw TeX
    name = next(
        (v for k in ("data-name", "name", "title") if (v := opening.attrs.pop(k, None))), None
    )
    heading = tokens[i + 1] if i + 1 < len(tokens) else None
    if name is None and heading is not None and heading.type == "heading_open":
        tokens[i + 1].type, tokens[i + 3].type = "theorem_title_open", "theorem_title_close"
        tokens[i + 1].meta = tokens[i + 3].meta = {"theorem_of": opening}
        return
    tokens[i + 1 : i + 1] = title_tokens(opening, str(name or ""))


def title_tokens(opening: Token, title: str) -> list[Token]:
    """Return the tokens of a theorem's title paragraph: `title` (Markdown, "" for none),
    parsed by the inline rule, between "Theorem 1 (" and ")." (`render_theorem_title_*`).

    Args:
        opening: the `theorem_open` token whose title it is (its `meta["word"]`, `"kind"`).
        title: the title's Markdown.
    """
    level = opening.level + 1
    start = Token("theorem_title_open", "p", 1, level=level, block=True)
    start.meta = {"theorem_of": opening}
    inline = Token("inline", "", 0, level=level + 1, content=title, map=opening.map)
    inline.children = []
    close = Token("theorem_title_close", "p", -1, level=level, block=True)
    close.meta = {"theorem_of": opening}
    return [start, inline, close]


def _report_empty_label(doc: RenderState, opening: Token, kind: str) -> None:
    """Warn at a theorem div whose id is its prefix alone (`{#thm-}`)."""
    line0 = opening.map[0] if opening.map else None
    source = doc.source_lines[line0] if line0 is not None and line0 < len(doc.source_lines) else ""
    doc.warn(
        line0,
        source.find(f"#{kind}-") + 1 or 1,
        f"theorem div `#{kind}-` has no label after `{kind}-`, so nothing can refer to it; "
        f"write one, as in `#{kind}-pythagoras`",
    )


def render_theorem_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open a theorem's or proof's `<div>` (its other attributes kept)."""
    token = tokens[idx]
    kind = token.meta["kind"]
    extra = str(token.attrs.get("class", ""))
    classes = ["proof"] if kind in PROOFS else ["theorem", f"theorem-{kind}"]
    classes += [name for name in extra.split() if name not in classes]
    figure = token.meta.get("figure")
    ident_value = figure["id"] if figure else token.attrs.get("id")
    ident = f' id="{escapeHtml(str(ident_value))}"' if ident_value else ""
    rest = "".join(
        f' {escapeHtml(str(k))}="{escapeHtml(str(v))}"'
        for k, v in token.attrs.items()
        if k not in ("class", "id")
    )
    return f'<div{ident} class="{escapeHtml(" ".join(classes))}"{rest}>\n'


def render_theorem_title_open(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Open a title: "Theorem 1" (bold) or "Proof" (italic), then ` (` before its text."""
    opening = tokens[idx].meta["theorem_of"]
    word = escapeHtml(opening.meta["word"])
    if opening.meta["kind"] in PROOFS:
        word = f"<em>{word}"
    else:
        word = f"<strong>{word} {opening.meta.get('figure_number', '')}".rstrip()
    titled = bool(tokens[idx + 1].content.strip()) if idx + 1 < len(tokens) else False
    return f'<p class="theorem-title">{word}{" (" if titled else ""}'


def render_theorem_title_close(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Close a title: `).` after its text, or `.` alone."""
    opening = tokens[idx].meta["theorem_of"]
    titled = bool(tokens[idx - 1].content.strip())
    end = "</em>" if opening.meta["kind"] in PROOFS else "</strong>"
    return f"{')' if titled else ''}.{end}</p>\n"
