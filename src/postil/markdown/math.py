r"""Math in Markdown: `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, ```` ```math ````, bare environments.

    Inline $x^2$ and \(x^2\); it costs $5 and $10 (no math: Pandoc's rule for `$`).
    A sentence, then display math right under it:
    $$
    \operatorname{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2 \label{eq:var}
    $$
    As \eqref{eq:var} shows, …

Rules: `math_inline` (inline, before `escape`), `math_block` (block, may interrupt a
paragraph), `math_fence` (core: re-types ```` ```math ```` fences), `math_table_pipes`
(the `table` block rule wrapped so `|` inside `$…$` does not split a cell), and
`math_resolve` (core, after inline: macros in document order, equation numbers,
reference checks; see `postil.markdown.mathdoc.math_resolve`). Token types: `math_inline`,
`math_inline_display`, `math_block`, `math_ref`.

CSS classes: `math-display` (wrapper of display math: a focusable, labelled group, since a
wide formula scrolls), `math-error` (a formula that could
not be converted; holds its TeX source in `<code>`), `eqref` (a reference in prose).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.table import table as table_rule
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.mathdoc import PIPE, math_resolve, protect_pipes, render_formula
from postil.markdown.state import get_state
from postil.math import anchor_id
from postil.math.delimiters import closers_for
from postil.mathfont import formula_chars

BLOCK_ENVS = "equation equation* align align* gather gather* multline multline*".split()
BEGIN_ENV = re.compile(r"\\begin\{(" + "|".join(re.escape(e) for e in BLOCK_ENVS) + r")\}")
REF = re.compile(r"\\(eqref|ref)\{([^{}\s]+)\}")
CLOSERS = {"$$": "$$", "\\[": "\\]"}
TRAILING_PUNCT = re.compile(r"[.,;:!?)\]}’”'\"…]+")
# A wide formula scrolls sideways (math.css), so its wrapper must take keyboard focus
# (axe's scrollable-region-focusable) and then needs a role and a name: `group`, not the
# `region` landmark, so a post with many equations does not fill the landmark list.
DISPLAY_ATTRS = 'class="math-display" tabindex="0" role="group" aria-label="Equation"'


def math_plugin(md: MarkdownIt) -> None:
    """Register postil's math syntax on `md` (see the module docstring)."""
    md.inline.ruler.before("escape", "math_inline", math_inline)
    md.block.ruler.before(
        "fence", "math_block", math_block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.block.ruler.at("table", math_table_pipes, {"alt": ["paragraph", "reference"]})
    md.core.ruler.after("block", "math_fence", math_fence)
    md.core.ruler.after("inline", "math_resolve", math_resolve)
    md.core.ruler.after("math_resolve", "math_nobreak", math_nobreak)
    md.add_render_rule("math_nobreak_open", lambda *args: '<span class="math-nobreak">')
    md.add_render_rule("math_nobreak_close", lambda *args: "</span>")
    for kind in ("math_inline", "math_inline_display", "math_block"):
        md.add_render_rule(kind, render_math)
    md.add_render_rule("math_ref", render_math_ref)


def math_inline(state: StateInline, silent: bool) -> bool:
    r"""Parse `$…$`, `$$…$$`, `\(…\)`, `\[…\]` and `\eqref{…}`/`\ref{…}` at `state.pos`."""
    src, pos, end = state.src, state.pos, state.posMax
    if src[pos] not in "$\\":
        return False
    closers = closers_for(src, state.env)  # one scan per paragraph: linear, not O(n²)
    if src.startswith("$$", pos):
        close = closers.find("$$", pos + 2, end)
        if close < 0 or close == pos + 2:
            return False
        return _emit(state, silent, "math_inline_display", pos + 2, close, close + 2)
    if src[pos] == "$":
        if pos + 1 >= end or src[pos + 1].isspace():
            return False
        close = closers.dollar(pos + 1, end)
        if close < 0:
            return False
        return _emit(state, silent, "math_inline", pos + 1, close, close + 1)
    if src.startswith("\\(", pos) or src.startswith("\\[", pos):
        closer = "\\)" if src[pos + 1] == "(" else "\\]"
        close = closers.find(closer, pos + 2, end)
        if close < 0:
            return False
        kind = "math_inline" if closer == "\\)" else "math_inline_display"
        return _emit(state, silent, kind, pos + 2, close, close + 2)
    ref = REF.match(src, pos) if src[pos] == "\\" else None
    if ref is None:
        return False
    if not silent:
        token = state.push("math_ref", "a", 0)
        token.meta = {"kind": ref.group(1), "label": ref.group(2), "offset": pos}
    state.pos = ref.end()
    return True


def _emit(state: StateInline, silent: bool, kind: str, start: int, stop: int, end: int) -> bool:
    """Push a math token for `state.src[start:stop]` (unless silent); move to `end`."""
    if not silent:
        token = state.push(kind, "math", 0)
        token.content = state.src[start:stop].replace(PIPE, "|")
        delims = (state.src[state.pos : start], state.src[stop:end])
        token.meta = {"offset": start, "delims": delims}
    state.pos = end
    return True


def _block_opener(line: str) -> tuple[str, str] | None:
    """Return (opening delimiter, closing delimiter) if `line` opens display math."""
    for opener, closer in CLOSERS.items():
        if line.startswith(opener):
            return opener, closer
    env = BEGIN_ENV.match(line)
    if env:
        return "", "\\end{" + env.group(1) + "}"
    return None


def math_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    r"""Parse display math starting a line: `$$…$$`, `\[…\]`, `\begin{align}…\end{align}`.

    The closing delimiter must end its line (text after it would make this inline math
    inside a paragraph). A `$$` that is never closed is left as text with a warning.
    """
    if state.is_code_block(start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    first = state.src[begin : state.eMarks[start_line]]
    delims = _block_opener(first)
    if delims is None:
        return False
    opener, closer = delims
    found = _find_closer(state, start_line, end_line, begin + len(opener), closer)
    if found is None:
        if opener == "$$" and not silent:
            get_state(state.env).warn(
                start_line,
                state.sCount[start_line] + 1,
                "`$$` opens display math that is never closed",
            )
        return False
    last_line, close_pos = found
    if silent:
        return True
    stop = close_pos + (len(closer) if not opener else 0)
    token = state.push("math_block", "math", 0)
    token.content = state.src[begin + len(opener) : stop]
    token.map = [start_line, last_line + 1]
    token.meta = {"col0": begin + len(opener) - state.bMarks[start_line], "delims": delims}
    state.line = last_line + 1
    return True


def _find_closer(
    state: StateBlock, start_line: int, end_line: int, pos: int, closer: str
) -> tuple[int, int] | None:
    """Find `closer` ending a line from `pos` on; return (line, its offset) or None.

    Display math never spans a blank line (Pandoc's rule) or leaves its container.
    """
    for line in range(start_line, end_line):
        line_start = max(pos, state.bMarks[line] + state.tShift[line])
        text = state.src[line_start : state.eMarks[line]].rstrip()
        if line > start_line and (not text or state.sCount[line] < state.blkIndent):
            return None
        if text.endswith(closer) and (line > start_line or len(text) >= len(closer)):
            return line, line_start + len(text) - len(closer)
    return None


def math_table_pipes(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Run markdown-it's GFM `table` rule with `|` inside `$…$` hidden from its cell split.

    The pipes are swapped for a private-use character of the same length (so every offset
    stays valid) while the table rule runs, and restored by the inline math rule.
    """
    original = state.src
    state.src = protect_pipes(original, state.env)
    try:
        return table_rule(state, start_line, end_line, silent)
    finally:
        state.src = original


def math_fence(state: Any) -> None:
    """Re-type ```` ```math ```` fences as `math_block` tokens (the code plugin owns `fence`)."""
    for token in state.tokens:
        if token.type == "fence" and token.info.strip() == "math":
            token.type = "math_block"
            delims = (token.markup + token.info, token.markup)
            token.meta = {**(token.meta or {}), "col0": 0, "fence": True, "delims": delims}
            if token.map:
                token.map = [token.map[0] + 1, token.map[1]]


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


def render_math(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """Render a math token as MathML (or a `math-error` span), wrapped for display math."""
    token = tokens[idx]
    display = token.type != "math_inline"
    state = get_state(env)
    html = render_formula(token, display, state)
    if not html:  # an empty formula (warned about) or one holding only definitions
        return ""
    if html.startswith("<math"):  # not a `math-error` span
        state.math_chars |= formula_chars(html)
    if token.type == "math_block":
        return f"<div {DISPLAY_ATTRS}>{html}</div>\n"
    if display:
        return f"<span {DISPLAY_ATTRS}>{html}</span>"
    return html


def render_math_ref(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    r"""Render `\eqref{x}` / `\ref{x}` in prose as a link to the numbered equation."""
    meta = tokens[idx].meta
    number = get_state(env).equations.get(meta["label"], "??")
    text = f"({number})" if meta["kind"] == "eqref" else number
    href = escape("#" + anchor_id(meta["label"]))
    return f'<a class="eqref" href="{href}">{escape(text)}</a>'
