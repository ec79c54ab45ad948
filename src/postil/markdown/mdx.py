"""MDX posts (`.mdx`: Docusaurus, Astro, Next.js, Gatsby blogs) read as the Markdown they hold.

MDX is Markdown with JavaScript: ESM `import`/`export` lines, `{…}` expressions and JSX
components (https://mdxjs.com/docs/what-is-mdx/). postil runs no JavaScript, so it keeps
what is Markdown and says what it leaves out. Only in sources ending `.mdx`: in a `.md`
post the same lines are CommonMark text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.jsx import (
    comment_text,
    expression_end,
    jsx_html,
    read_tag,
    string_literal,
    template_text,
    unfinished,
)
from postil.markdown.mdxcomponents import (
    children,
    component_block,
    component_inline,
    dropped_attribute,
    line_of,
    warn_component,
)
from postil.markdown.rawhtml import MORE_MARKER
from postil.markdown.references import locate
from postil.markdown.state import RenderState, get_state, is_mdx, jsx_dialect, reads_jsx

MORE = MORE_MARKER + "\n"
"""The summary break `{/* truncate */}` is (`<!-- truncate -->`: `postil.markdown.rawhtml`)."""

ESM = re.compile(r"(?:import|export)(?=[\s{*])")
"""The start of a top-level ESM statement: MDX reads one at the start of a line (it runs
to the next blank line)."""

EXPORTED = re.compile(
    r"export\s+(?:default\s+)?(?:async\s+)?(?:const|let|var|function\*?|class)\s+([A-Za-z_$][\w$]*)"
)
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def mdx_plugin(md: MarkdownIt) -> None:
    """Read MDX's ESM, comments, expressions and components in `.mdx` sources.

    Syntax::

        import Tabs from '@theme/Tabs';
        export const meta = {year: 2024};

        Text {/* a comment */} and {'<'} (a string: shown) and {meta.year} (left out).

        {/* truncate */}

        <Admonition type="tip" title="Fast">
        Markdown *inside*.
        </Admonition>

    Imports are left out silently, exports too (an expression using one warns, naming it);
    comments are left out; `{/* truncate */}` is the summary break `<!--more-->` (as
    `<!-- truncate -->` is in any source: `postil.markdown.rawhtml`); other
    expressions warn and show nothing, a string literal shows its text. Components:
    `postil.markdown.mdxcomponents`. No CSS classes of its own.
    """
    md.core.ruler.before("block", "mdx_dialect", mdx_dialect)
    md.block.ruler.before("code", "mdx_block", mdx_block)
    md.block.ruler.before("code", "mdx_indented", mdx_indented)
    md.inline.ruler.after("backticks", "mdx_expression", mdx_expression)
    md.inline.ruler.before("autolink", "mdx_tag", mdx_tag)
    md.core.ruler.after("inline", "mdx_warnings", mdx_warnings)
    md.core.ruler.after("inline", "mdx_html", mdx_html)
    md.add_render_rule("mdx_drop", render_mdx_drop)


ESM_IMPORT = re.compile(
    r"""\s*import\s+(?:[\w$*{},\s]+?\s+from\s+)?(?:"[^"\n]+"|'[^'\n]+');?[ \t]*(?:\n|$)"""
)
"""An ESM `import` statement on one line: `import X from '@site/src/components/X';`."""
JSX_STYLE_OBJECT = re.compile(r"\s[A-Za-z][\w-]*=\{\{\s*[A-Za-z_$][\w$]*\s*:")
"""A JSX attribute whose value is an object literal (`style={{textAlign: 'center'}}`): no
Liquid output (`{{ site.url }}`) starts with a name and a colon."""


def mdx_dialect(state: StateCore) -> None:
    """Core rule: mark a `.md` post as MDX when it is a Docusaurus one: its body opens with
    an ESM `import`, or an element has a JSX object attribute (`style={{…}}`). Docusaurus
    reads every `.md` file as MDX (its `markdown.format` is `mdx` by default), so its docs
    and posts write JSX there; elsewhere such lines are CommonMark text."""
    doc = get_state(state.env)
    if reads_jsx(doc) or not doc.path.lower().endswith((".md", ".markdown")):
        return
    src = state.src
    if ESM_IMPORT.match(src) or ("={{" in src and JSX_STYLE_OBJECT.search(src)):
        doc.extra["mdx"] = True
    elif (
        "\nimport " in src and any(m in src for m in DOCUSAURUS_MODULES) and _docusaurus_import(src)
    ):
        doc.extra["mdx"] = True


DOCUSAURUS_MODULES = ("@theme/", "@site/", "@docusaurus/")
"""The module prefixes only a Docusaurus page imports (the quick test before the line scan:
a Python post's `import numpy` lines are no reason to read every line)."""
DOCUSAURUS_IMPORT = re.compile(
    r"""import\s+[\w$*{},\s]+?\s+from\s+(["'])@(?:theme|site|docusaurus)/[^"'\n]+\1;?[ \t]*"""
)
"""An import of a Docusaurus module (`@theme/DocCardList`, `@site/src/components/X`), which
only a Docusaurus page holds."""


def _docusaurus_import(src: str) -> bool:
    """Tell whether a line of `src` outside code fences, after a blank line, is an import of
    a Docusaurus module (a Docusaurus page imports further down, after its introduction)."""
    fence, blank = "", True
    for line in src.split("\n"):
        marker = FENCE_MARK.match(line)
        if marker is not None and (not fence or marker.group(1).startswith(fence)):
            fence = "" if fence else marker.group(1)
        elif not fence and blank and DOCUSAURUS_IMPORT.fullmatch(line):
            return True
        blank = not line.strip()
    return False


FENCE_MARK = re.compile(r" {0,3}(`{3,}|~{3,})")
"""A code fence's opening or closing marker at a line's start."""


def mdx_indented(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule (MDX only): lines indented four spaces or more are Markdown, indented as
    their least indented line is: MDX has no indented code (mdxjs.com, "Differences from
    markdown"), and its posts indent the content of their elements freely."""
    if state.sCount[start_line] - state.blkIndent < 4 or not is_mdx(state.env):
        return False
    stop, indents = start_line, []
    while stop < end_line and (state.isEmpty(stop) or state.sCount[stop] - state.blkIndent >= 4):
        indents += [] if state.isEmpty(stop) else [state.sCount[stop]]
        literal = _code_literal_at(state, stop, end_line)  # its lines may start anywhere
        stop = literal[-1] + 1 if literal is not None else stop + 1
    while stop - 1 > start_line and state.isEmpty(stop - 1):
        stop -= 1
    if not silent:
        children(state, start_line, stop, min(indents))
        state.line = stop
    return True


def mdx_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: an ESM statement, a line of comments, or a component's tag line(s)."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    char = state.src[begin : begin + 1]
    if char not in ("<", "{", "i", "e") or not is_mdx(state.env):
        return False  # the first character first: most lines of most posts stop there
    if char == "<":
        return code_literal(state, start_line, end_line, silent) or component_block(
            state, start_line, end_line, silent
        )
    if char == "{":
        return _comment_block(state, start_line, end_line, silent)
    top = state.level == 0 and state.blkIndent == 0 and state.sCount[start_line] == 0
    svelte = get_state(state.env).extra.get("svelte")  # mdsvex imports in `<script>` only
    if top and not svelte and ESM.match(state.src, begin):
        return _esm_block(state, start_line, end_line, silent)
    return False


CODE_CLOSE = re.compile(r"\s*(</code\s*>)?\s*</pre\s*>")
"""The end tags after a `<pre>`'s string: `</code></pre>` or `</pre>`."""


def code_literal(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule part: `<pre><code className="language-sh">{`…`}</code></pre>` alone on
    its lines, MDX's way to write code inside components (a template literal keeps its
    lines), is a code block of the string's text in that language."""
    found = _code_literal_at(state, start_line, end_line)
    if found is None:
        return False
    text, language, line = found
    if not silent:
        token = state.push("fence", "code", 0)
        token.content, token.info = text.rstrip("\n") + "\n", language
        token.markup = "<pre>"  # not a fence of backticks: `nesting.unclosed_fence` skips it
        token.map = [start_line, line + 1]
        state.line = line + 1
    return True


def _code_literal_at(state: StateBlock, start: int, end_line: int) -> tuple[str, str, int] | None:
    """Return (text, language, last line) of a `<pre>` code literal that opens line `start`
    and ends a line before `end_line` (`code_literal`), or None."""
    begin, src = state.bMarks[start] + state.tShift[start], state.src
    pre = read_tag(src, begin) if src.startswith("<pre", begin) else None
    if pre is None or pre.name != "pre" or pre.closing or pre.self_closing:
        return None
    code = read_tag(src, pre.end) if src.startswith("<code", pre.end) else None
    at = code.end if code is not None else pre.end
    end = expression_end(src, at) if src.startswith("{", at) else None
    text = template_text(src[at + 1 : end - 1]) if end is not None else None
    closing = CODE_CLOSE.match(src, end) if end is not None else None
    if text is None or closing is None or bool(closing.group(1)) != (code is not None):
        return None
    line = line_of(state, closing.end() - 1, start, end_line)
    if line is None or src[closing.end() : state.eMarks[line]].strip():
        return None
    classes = (code.attrs.get("className") or code.attrs.get("class", "")) if code else ""
    language = next((c[9:] for c in classes.split() if c.startswith("language-")), "")
    return text, language, line


def _esm_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Leave out an ESM statement (to the next blank line); note the names it exports."""
    if silent:
        return True
    line = start_line
    while line < end_line:
        while line < end_line and not state.isEmpty(line):
            line += 1
        text = state.src[state.bMarks[start_line] : state.eMarks[line - 1]]
        if not unfinished(text):
            break
        line += 1  # a blank line inside a function body or an object
    exports = get_state(state.env).extra.setdefault("mdx_exports", {})
    for found in EXPORTED.finditer(text):
        exports.setdefault(found.group(1), start_line + text.count("\n", 0, found.start()))
    state.line = line
    return True


def _comment_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Leave out lines that hold only `{/* comments */}`; `{/* truncate */}` is `<!--more-->`."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    end = expression_end(state.src, begin)
    if end is None:
        return False
    text = comment_text(state.src[begin + 1 : end - 1])
    line = line_of(state, end - 1, start_line, end_line)
    if text is None or line is None or state.src[end : state.eMarks[line]].strip():
        return False
    if silent:
        return True
    if text.lower() == "truncate":
        token = state.push("html_block", "", 0)
        token.content, token.map = MORE, [start_line, line + 1]
    state.line = line + 1
    return True


def mdx_expression(state: StateInline, silent: bool) -> bool:
    """Inline rule: a `{…}` expression: nothing for a comment, the text of a string literal,
    else nothing and a warning. `{#id}` and `{.class}` are left to attribute lists."""
    if state.src[state.pos] != "{" or not is_mdx(state.env):
        return False
    if state.src[state.pos + 1 : state.pos + 2] in ("#", ".", "{", "%", ""):
        return False
    if state.tokens and state.tokens[-1].type == "image" and not state.pending:
        return False  # an image's attribute list (an `<Image>`'s size: `mdxcomponents`)
    end = expression_end(state.src, state.pos)
    if end is None:
        return False
    source = state.src[state.pos + 1 : end - 1]
    if not silent:
        literal = string_literal(source)
        if literal is not None:
            state.push("text", "", 0).content = literal
        elif comment_text(source) is None:
            drop = state.push("mdx_drop", "", 0)
            drop.content, drop.meta = state.src[state.pos : end], {"expression": source}
    state.pos = end
    return True


def mdx_tag(state: StateInline, silent: bool) -> bool:
    """Inline rule: a component's tag inside a paragraph (`<Highlight>`): left out, its
    content kept (`postil.markdown.mdxcomponents.component_inline`)."""
    if state.src[state.pos] != "<" or not is_mdx(state.env):
        return False
    tag = read_tag(state.src, state.pos)
    if tag is None:
        return False
    if not tag.component:  # an HTML element: only one with an expression is MDX's own
        if tag.closing or not any(value.startswith("{") for value in tag.attrs.values()):
            return False
        if not silent:  # `mdx_html` writes it as HTML
            state.push("html_inline", "", 0).content = state.src[tag.start : tag.end]
        state.pos = tag.end
        return True
    if not silent:
        component_inline(state, tag)
    state.pos = tag.end
    return True


def mdx_warnings(state: StateCore) -> None:
    """Core rule: warn at each expression left out (once per exported name it uses) and
    once per post for each component postil does not have."""
    doc = get_state(state.env)
    if not is_mdx(state.env):
        return
    for block in state.tokens:
        for token in block.children or ():
            if token.type != "mdx_drop":
                continue
            if "expression" in token.meta:
                _warn_expression(doc, block, token)
            elif token.meta.get("name"):
                warn_component(doc, locate(doc, block.map, token.content), token.meta)


def mdx_html(state: StateCore) -> None:
    """Core rule (MDX only): write the start tags of HTML elements in raw HTML that hold a
    JavaScript expression as HTML (`jsx.jsx_html`: `style={{textAlign: 'center'}}` is
    `style="text-align: center"`, an attribute of another expression is left out with a
    warning), before the template plugin could read `{{…}}` as Liquid and the raw HTML
    plugin checks the tags' URLs."""
    if not is_mdx(state.env):
        return
    doc = get_state(state.env)
    for block in state.tokens:
        held = [block] if block.type == "html_block" else []
        held += [t for t in block.children or () if t.type == "html_inline"]
        for token in held:
            if "={" not in token.content:
                continue
            token.content, dropped = jsx_html(token.content)
            for tag, attribute in dropped:
                where = locate(doc, block.map, attribute)
                doc.warn(*where, dropped_attribute(tag, attribute))


def _warn_expression(doc: RenderState, block: Token, token: Token) -> None:
    """Warn that an expression is left out, naming the export it uses (once per export)."""
    exports = doc.extra.get("mdx_exports", {})
    names = [name for name in _IDENTIFIER.findall(token.meta["expression"]) if name in exports]
    warned = doc.extra.setdefault("mdx_warned", set())
    if names and names[0] in warned:
        return
    where = locate(doc, block.map, token.content)
    if names:
        warned.add(names[0])
        doc.warn(
            *where,
            f"`{token.content}` uses `{names[0]}`, exported at line "
            f"{doc.location(exports[names[0]]).line}: postil runs no JavaScript, so it is "
            "left out; write its value in the text (or in front matter)",
        )
        return
    doc.warn(
        *where,
        f"{jsx_dialect(doc)} expression `{token.content}` is left out: postil runs no "
        "JavaScript; write "
        "its value as text, or `{'text'}` for a string",
    )


def render_mdx_drop(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render nothing: what MDX would compute with JavaScript is left out."""
    return ""
