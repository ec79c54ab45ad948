r"""mdsvex posts (SvelteKit blogs): Markdown with Svelte's script, components and blocks.

mdsvex compiles a `.svx` (or `.md`) post into a Svelte component: a `<script>` block
imports components and declares values, `{expression}` shows a value, `{#if …}…{/if}` and
`{#each …}…{/each}` are Svelte's logic blocks, `{@html "…"}` writes HTML, and components
are written as tags (`<Callout type="info">…</Callout>`; mdsvex's docs, "Syntax"; Svelte's
docs, "Template syntax"). postil runs no JavaScript; a post is read as Svelte's when its
source ends `.svx` or its body has a `<script>` block that imports a Svelte component or a
SvelteKit module (`import X from '$lib/X.svelte'`, `$app/…`): `svelte_dialect`. Then

- the `<script>` block is left out without a word (the component's code, not its text);
- expressions and components are read as in MDX (`postil.markdown.mdx`: a string literal
  is its text, other expressions are left out with a warning; `<Callout>`, `<Aside>`,
  `<Details>`… are postil's callouts, unknown components keep their content);
- `{@html "…"}` with a string literal is that HTML; Svelte's logic blocks and other `{@…}`
  tags are left out, their content kept, with one warning a post.

A `<script>` with `type=` or `src=` (a browser script the author put in the page) never
marks a post, and a `.md` post without such a script is Markdown as before.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from postil.markdown.inlinewarn import warn_inline
from postil.markdown.jsx import expression_end, string_literal
from postil.markdown.state import get_state

SVELTE = "svelte"
"""The `RenderState.extra` key that tells a document is Markdown with Svelte."""

SVX_SUFFIX = ".svx"
"""mdsvex's own file suffix."""

SCRIPT_OPEN = re.compile(r"<script(?:\s+(?:lang|context|module)\b[^>]*)?>[ \t]*$", re.M)
"""A Svelte component's `<script>` on a line of its own: `lang="ts"`, `context="module"` or
Svelte 5's `module` attribute at most (a `type=` or `src=` is a browser script's)."""

SVELTE_IMPORT = re.compile(r"""^\s*import\b[^;\n]*['"](?:\$lib/|\$app/|[^'"]*\.svelte['"])""", re.M)
"""An import of a Svelte component or a SvelteKit module, as only a Svelte script has."""

SCRIPT_CLOSE = "</script>"
STYLE_OPEN = re.compile(r"<style(?:\s+lang\s*=\s*[\"']?\w+[\"']?)?\s*>[ \t]*$", re.M)
"""A Svelte component's `<style>` block opening alone on its line."""
STYLE_CLOSE = "</style>"
STYLE_LEFT_OUT = (
    "the post's `<style>` block is left out: Svelte applies it to the post's component only, "
    "and in the page it would restyle the whole theme; put the rules in the site's "
    "static/css/ with a selector of the post's own elements"
)

LOGIC = re.compile(r"\{(?:[#:/](?:if|else|each|await|then|catch|key|snippet)\b|@)")
"""A Svelte logic block's tag (`{#if x}`, `{:else}`, `{/each}`) or a `{@…}` tag."""


def svelte_plugin(md: MarkdownIt) -> None:
    """Read mdsvex posts (see the module docstring); MDX's rules do the rest, so this plugin
    goes after `postil.markdown.mdx`'s. No CSS classes of its own."""
    md.core.ruler.before("block", "svelte_dialect", svelte_dialect)
    md.block.ruler.before("html_block", "svelte_script", svelte_script)
    md.inline.ruler.before("mdx_expression", "svelte_tag", svelte_tag)


def svelte_dialect(state: StateCore) -> None:
    """Mark the document as Markdown with Svelte: an `.svx` source, or a body whose
    `<script>` block imports a Svelte component or a SvelteKit module."""
    doc = get_state(state.env)
    if doc.path.lower().endswith(SVX_SUFFIX):
        doc.extra[SVELTE] = True
        return
    src = state.src
    if "<script" not in src:
        return
    for found in SCRIPT_OPEN.finditer(src):
        close = src.find(SCRIPT_CLOSE, found.end())
        if close >= 0 and SVELTE_IMPORT.search(src, found.end(), close):
            doc.extra[SVELTE] = True
            return


def is_svelte(state: StateBlock | StateInline) -> bool:
    """Tell whether the document being parsed is Markdown with Svelte (`svelte_dialect`)."""
    return bool(get_state(state.env).extra.get(SVELTE))


def svelte_script(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: leave out a Svelte `<script>` block, from its line to `</script>`, and a
    component's `<style>` block to `</style>`, with a warning: Svelte scopes it to the
    component, and in the page it styled the whole theme (a `<style> h2 {…}` turned the
    theme's own headings red)."""
    begin = state.bMarks[start] + state.tShift[start]
    style = state.src.startswith("<style", begin)
    if not (style or state.src.startswith("<script", begin)) or not is_svelte(state):
        return False
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    opening, closing = (STYLE_OPEN, STYLE_CLOSE) if style else (SCRIPT_OPEN, SCRIPT_CLOSE)
    if opening.match(state.src, begin, state.eMarks[start]) is None:
        return False
    for line in range(start, end):
        if closing in state.src[state.bMarks[line] : state.eMarks[line]]:
            if not silent:
                state.line = line + 1
                if style:
                    get_state(state.env).warn(start, 1, STYLE_LEFT_OUT)
            return True
    return False


def svelte_tag(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{@html "…"}` with a string is its HTML; a logic block's tag or another
    `{@…}` tag is left out (one warning a post, at the first)."""
    pos = state.pos
    if state.src[pos] != "{" or not LOGIC.match(state.src, pos) or not is_svelte(state):
        return False
    end = expression_end(state.src, pos)
    if end is None:
        return False
    if not silent:
        inner = state.src[pos + 1 : end - 1]
        literal = string_literal(inner[5:].strip()) if inner.startswith("@html") else None
        if literal is not None:
            state.push("html_inline", "", 0).content = literal
        else:
            _warn_logic(state, state.src[pos:end])
    state.pos = end
    return True


def _warn_logic(state: StateInline, tag: str) -> None:
    """Warn, once a post, that Svelte's logic is not run."""
    doc = get_state(state.env)
    if doc.extra.get("svelte_logic_warned"):
        return
    doc.extra["svelte_logic_warned"] = True
    warn_inline(
        state,
        state.pos,
        f"Svelte's `{tag}` is left out: postil runs no JavaScript, so every branch and "
        "loop body is shown once, as written (here and in the rest of this post); write "
        "the text the reader should see",
    )
