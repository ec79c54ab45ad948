"""The math plugin's core rules after parsing: ```` ```math ```` fences, image descriptions,
headings, punctuation kept with its formula, and a post's `$…$` read as its other formulas
tell.

`postil.markdown.math` registers them (`math_plugin`): `math_fence` after the block parse,
`math_escapes`, `math_heading`, `math_alt` and `math_nobreak` after the inline parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from markdown_it.token import Token

from postil.markdown.fancylist import PANDOC_SUFFIXES
from postil.markdown.mathdoc import MATH_TYPES, release_pipes
from postil.markdown.mathescape import balanced_braces, markdown_unescaped
from postil.markdown.state import get_state

TRAILING_PUNCT = re.compile(r"[.,;:!?)\]}’”'\"…]+")
"""Punctuation that `math_nobreak` keeps on the line of the formula before it."""

MATH_FENCES = frozenset({"math", "katex"})
"""Fence languages that hold display math: GitHub's and GitLab's ```` ```math ````, Hugo Book's
```` ```katex ```` (its code block render hook typesets the block as display math)."""


def math_fence(state: Any) -> None:
    """Re-type ```` ```math ```` and ```` ```katex ```` fences as `math_block` tokens (the
    code plugin owns `fence`); block parsing is over, so the table rule's protected source
    goes (`release_pipes`)."""
    release_pipes(state.env)
    for token in state.tokens:
        if token.type == "fence" and token.info.strip() in MATH_FENCES:
            token.type = "math_block"
            delims = (token.markup + token.info, token.markup)
            token.meta = {**(token.meta or {}), "col0": 0, "fence": True, "delims": delims}
            if token.map:
                token.map = [token.map[0] + 1, token.map[1]]


def math_alt(state: Any) -> None:
    r"""Give a formula in an image's description its plain-text form (`![the $L^2$ norm](…)`
    gets `alt="the L² norm"`): markdown-it's alt text keeps text tokens only, so the formula
    was left out. The text follows `postil.math.text.to_plain_text` (its TeX where there is
    no text form), as a heading's `aria-label` does.
    """
    doc = None
    for image in _images(state.tokens):
        children = image.children or []
        for i, child in enumerate(children):
            if child.type in MATH_TYPES:
                from postil.math.text import to_plain_text

                doc = doc or get_state(state.env)
                text = Token("text", "", 0)
                text.content = to_plain_text(child.content, macros=doc.macros, cache=doc.math_cache)
                children[i] = text


def _images(tokens: list[Token]) -> Iterator[Token]:
    """Yield every image token: inline ones, and a figure's (`meta["image"]` of a
    `figure_open`, whose caption is the image's description, `postil.markdown.figure`)."""
    for token in tokens:
        if token.type == "figure_open" and token.meta.get("image") is not None:
            yield token.meta["image"]
        elif token.type == "inline" and "![" in token.content and token.children:
            yield from (child for child in token.children if child.type == "image")


def math_heading(state: Any) -> None:
    r"""Make display math inside a heading inline (`## The $$\beta_t$$ schedule`).

    A heading is one line of text: a centred block inside it would split it in three.
    """
    for before, token in zip(state.tokens, state.tokens[1:], strict=False):
        if before.type == "heading_open" and token.type == "inline" and token.children:
            for child in token.children:
                if child.type == "math_inline_display":
                    child.type = "math_inline"


def math_nobreak(state: Any) -> None:
    """Keep inline math together with the punctuation right after it ("$x$," never breaks).

    Chromium may break a line between a `<math>` element and a following comma, leaving the
    comma at the start of the next line; a `math-nobreak` span (`white-space: nowrap`)
    around the formula and the punctuation prevents it.
    """
    for block in state.tokens:
        if block.type == "inline" and block.children:
            block.children = _glue_punctuation(block.children)


def _glue_punctuation(children: list[Token]) -> list[Token]:
    """Return `children` with each inline formula and the punctuation after it wrapped in
    `math_nobreak_open`/`_close` tokens."""
    out: list[Token] = []
    i = 0
    while i < len(children):
        token = children[i]
        after = children[i + 1] if i + 1 < len(children) else None
        glue = TRAILING_PUNCT.match(after.content) if after and after.type == "text" else None
        if token.type != "math_inline" or after is None or glue is None:
            out.append(token)
            i += 1
            continue
        punct = Token("text", "", 0)
        punct.content = glue.group(0)
        after.content = after.content[glue.end() :]
        out += [
            Token("math_nobreak_open", "span", 1),
            token,
            punct,
            Token("math_nobreak_close", "span", -1),
        ]
        out += [after] if after.content else []
        i += 2
    return out


def math_escapes(state: Any) -> None:
    r"""Read a post's `$…$` formulas with Markdown's escapes removed when one of its
    formulas showed they were (`math._reading`: kramdown's `\\\ ` rows, `\\{`, `\_` in a
    subscript's place, `\\(` delimiters).

    kramdown and Hugo's Goldmark without passthrough read a single `$` as text, so they
    removed every Markdown escape of the post's `$…$` before MathJax saw it: a Jekyll
    statistics blog writes `$p(x \| \theta)$` for the conditional bar and `$\|\|x\|\|$`
    for a norm, which as raw TeX are ‖ and ‖‖x‖‖. One formula alone often shows nothing (a
    lone `\|` is KL divergence's ‖ in a Pandoc post), so the post's other formulas decide.
    A formula whose braces pair only as written stays raw; its `\_` is a subscript where
    the formula writes subscripts so (`escaped_subscripts`), else TeX's underscore
    (`\text{my\_var}`, a lone `$\_$`). `\_` subscripts alone tell nothing for the post
    (a Pandoc post may write them), and a source in Pandoc's Markdown (`.qmd`, `.Rmd` …)
    is never read so: Pandoc keeps a formula's TeX as written. In a document parsed in
    groups a tell reaches the groups after it.
    """
    doc = get_state(state.env)
    carry = doc.groups.carry
    escaped = doc.extra.pop("math_escaped", False) or carry.get("math_escaped", False)
    raw_dollars = doc.extra.pop("math_raw_dollars", [])
    carry["math_escaped"] = escaped
    if not escaped or doc.path.lower().endswith(PANDOC_SUFFIXES):
        return
    for token, raw in raw_dollars:
        content, removed = markdown_unescaped(raw, formula_alone=False)
        if content != token.content and (balanced_braces(content) or not balanced_braces(raw)):
            token.content, token.meta["removed"] = content, removed
