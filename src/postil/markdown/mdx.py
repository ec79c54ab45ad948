"""MDX posts (`.mdx`: Docusaurus, Astro, Next.js, Gatsby): what MDX adds to Markdown.

MDX is Markdown with JavaScript: ES module lines, `{expressions}` and JSX components.
postil runs no JavaScript, so in a `.mdx` source (a `.md` keeps CommonMark's reading):

- top-level `import …` statements (one line or several) are left out: the components
  they bring are read where they are used; `export …` statements are left out with one
  warning a post (a value they export cannot be shown);
- `{/* comments */}`, MDX's only comment, are left out; `{/* truncate */}` is
  Docusaurus' summary break, as `<!-- truncate -->` is (`postil.markdown.rawhtml`);
- a `{'string'}` expression in text is its string; any other `{expression}` is left out
  with a warning (Docusaurus' `## Title {#id}` heading ids stay the attrs plugin's);
- JSX components in raw HTML: Docusaurus' `<Tabs>`/`<TabItem label=…>` are postil's tabs,
  `<Admonition type=… title=…>` a callout, `<Details>`/`<Summary>` HTML's; Astro's
  `<Image src=… alt=…>` an `<img>`; any other component's tags are left out (its content
  stays) with one warning per component a post.

Source: MDX's "What is MDX?" and "Troubleshooting MDX"; Docusaurus' "MDX and React",
"Tabs", "Admonitions" and blog "truncate" marker.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.callout import kind_of
from postil.markdown.rawhtml import MORE_MARKER
from postil.markdown.references import locate
from postil.markdown.state import RenderState, get_state

SUFFIX = ".mdx"
"""The sources this plugin reads as MDX."""

ESM = re.compile(r"(?:import|export)(?=[\s{*'\"])")
"""The start of an ES module statement at the start of a line."""

COMMENT = re.compile(r"\{/\*(.*?)\*/\}", re.S)
"""An MDX comment, `{/* … */}`."""

STRING = re.compile(r"""\{\s*(?:'([^'\\]*)'|"([^"\\]*)"|`([^`\\$]*)`)\s*\}""")
"""A JSX expression that is one string literal: `{'<'}`."""

TAG = re.compile(r"<(/?)([A-Z][\w.]*)((?:\s+(?:[^>{}]|\{[^{}]*\})*?)?)\s*(/?)>")
"""A JSX component's opening, closing or self-closing tag (capitalised name)."""

ATTRIBUTE = re.compile(
    r"""([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|\{["'`]?([^{}"'`]*)["'`]?\}))?"""
)
"""One JSX attribute: `label="A"`, `value='a'`, `title={"T"}`, or a bare `default`."""


def mdx_plugin(md: MarkdownIt) -> None:
    """Read MDX's module lines, comments, expressions and components in `.mdx` sources.

    Syntax::

        import Tabs from '@theme/Tabs';

        {/* truncate */}

        <Tabs>
        <TabItem value="py" label="Python">

        `print(1)`

        </TabItem>
        </Tabs>

    → the summary break, then `<div class="tabset"><div class="tab"><p class="tab-title">
    Python</p>…</div></div>`. CSS classes: the tabs' and callouts' (tabset, tab,
    tab-title, callout, callout-<kind>, callout-title).
    """
    md.block.ruler.before("html_block", "mdx_block", mdx_block, {"alt": ["paragraph"]})
    md.inline.ruler.before("text", "mdx_expression", mdx_expression)
    md.inline.ruler.before("html_inline", "mdx_tag", mdx_tag)
    md.core.ruler.after("inline", "mdx_components", mdx_components)


def _is_mdx(env: object) -> bool:
    """Whether the document being parsed is an MDX source."""
    return isinstance(env, dict) and get_state(env).path.endswith(SUFFIX)


def mdx_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a top-level `import`/`export` statement or a `{/* comment */}` block."""
    if state.sCount[start] != 0 or state.level != 0 or not _is_mdx(state.env):
        return False
    begin = state.bMarks[start]
    line = state.src[begin : state.eMarks[start]]
    if TAG.fullmatch(line.strip()):  # `<Chart data={[1, 2]} />`: no HTML tag for CommonMark
        if not silent:
            token = state.push("html_block", "", 0)
            token.content, token.map = line.strip() + "\n", [start, start + 1]
        state.line = start + 1
        return True
    if line.startswith("{/*"):
        last = _comment_end(state, start, end)
        if last is None:
            return False
        if not silent:
            _push_comment(state, start, last)
        state.line = last + 1
        return True
    if not ESM.match(line):
        return False
    last = _statement_end(state, start, end)
    if not silent and line.startswith("export"):
        doc = get_state(state.env)
        if not doc.extra.get("mdx_export_warned"):
            doc.extra["mdx_export_warned"] = True
            doc.warn(
                start,
                1,
                f"MDX `{line.strip()[:40]}` is left out: postil runs no JavaScript, so what a "
                "post exports cannot be shown; write the value into the text or the front matter",
            )
    state.line = last + 1
    return True


def _statement_end(state: StateBlock, start: int, end: int) -> int:
    """Return the last line of the statement starting at `start`: where its brackets
    close (a statement may span lines), at the latest before a blank line."""
    depth = 0
    for line in range(start, end):
        if line > start and state.isEmpty(line):
            return line - 1
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        depth += sum(text.count(c) for c in "{[(") - sum(text.count(c) for c in "}])")
        if depth <= 0:
            return line
    return end - 1


def _comment_end(state: StateBlock, start: int, end: int) -> int | None:
    """Return the line where the comment opened at `start` closes with `*/}`, or None."""
    for line in range(start, end):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        if "*/}" in text:
            rest = text[text.index("*/}") + 3 :].strip()
            return line if not rest else None
    return None


def _push_comment(state: StateBlock, start: int, last: int) -> None:
    """Push Docusaurus' `{/* truncate */}` as the summary break; other comments go."""
    text = state.src[state.bMarks[start] : state.eMarks[last]]
    found = COMMENT.fullmatch(text.strip())
    if found and found.group(1).strip().lower() == "truncate":
        token = state.push("html_block", "", 0)
        token.content, token.map = MORE_MARKER + "\n", [start, last + 1]


def mdx_expression(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{/* comment */}` (left out), `{'string'}` (its string) or another
    `{expression}` (left out, with a warning), in an MDX source."""
    pos = state.pos
    if state.src[pos] != "{" or not _is_mdx(state.env):
        return False
    if state.src.startswith(("{#", "{.", "{:", "{%", "{{"), pos):  # attribute lists, tags
        return False
    end = _closing_brace(state.src, pos, state.posMax)
    if end < 0:
        return False
    if not silent:
        written = state.src[pos:end]
        literal = STRING.fullmatch(written)
        if literal:
            token = state.push("text", "", 0)
            token.content = next(g for g in literal.groups() if g is not None)
        elif not COMMENT.fullmatch(written):
            token = state.push("mdx_expression", "", 0)
            token.content = written
    state.pos = end
    return True


def mdx_tag(state: StateInline, silent: bool) -> bool:
    """Inline rule: a JSX component's tag in text, read as raw HTML (`mdx_components`
    rewrites it) even where its attributes are no HTML (`data={[1, 2]}`)."""
    if state.src[state.pos] != "<" or not _is_mdx(state.env):
        return False
    found = TAG.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    if not silent:
        state.push("html_inline", "", 0).content = found.group(0)
    state.pos = found.end()
    return True


def _closing_brace(src: str, pos: int, limit: int) -> int:
    """Return the index after the `}` matching the `{` at `pos` (on one line, but for a
    comment), or -1; braces inside JavaScript strings do not count."""
    depth, quote = 0, ""
    for i in range(pos, limit):
        char = src[i]
        if char == "\n" and not src.startswith("{/*", pos):
            return -1
        if quote:
            quote = "" if char == quote and src[i - 1] != "\\" else quote
        elif char in "'\"`":
            quote = char
        else:
            depth += (char == "{") - (char == "}")
            if depth == 0:
                return i + 1
    return -1


def mdx_components(state: StateCore) -> None:
    """Core rule: rewrite JSX components in raw HTML (see the module) and report the
    expressions and components that are left out, once each."""
    if not _is_mdx(state.env):
        return
    doc = get_state(state.env)
    warned: set[str] = doc.extra.setdefault("mdx_warned", set())
    for block in state.tokens:
        if block.type == "html_block":
            block.content = _components(block.content, doc, block, warned)
        for child in block.children or () if block.type == "inline" else ():
            if child.type == "html_inline":
                child.content = _components(child.content, doc, block, warned)
            elif child.type == "mdx_expression":
                child.type = "text"
                doc.warn(
                    *locate(doc, block.map, child.content),
                    f"MDX expression `{child.content}` is left out: postil runs no "
                    "JavaScript; write its value as text (a `{` shown as text is `\\{`)",
                )
                child.content = ""


def _components(html: str, doc: RenderState, block: Token, warned: set[str]) -> str:
    """Return raw HTML with each JSX component tag replaced (see the module)."""

    def replace(match: re.Match[str]) -> str:
        closing, name, attributes, empty = match.groups()
        attrs = _attributes(attributes)
        found = _component(name, closing == "/", bool(empty), attrs)
        if found is None:
            if name not in warned:
                warned.add(name)
                doc.warn(
                    *locate(doc, block.map, match.group(0)),
                    f"MDX component `<{name}>` is not one postil has: its tags are left out "
                    "and what it holds is shown; write it as Markdown or HTML",
                )
            return ""
        return found

    return TAG.sub(replace, html)


def _attributes(text: str) -> dict[str, str]:
    """Return a JSX tag's attributes (a bare one is "")."""
    found: dict[str, str] = {}
    for match in ATTRIBUTE.finditer(text):
        name, *values = match.groups()
        found[name] = next((v for v in values if v is not None), "")
    return found


def _component(name: str, closing: bool, empty: bool, attrs: dict[str, str]) -> str | None:
    """Return the HTML of one component tag, or None for a component postil lacks."""
    if name == "Tabs":
        return "</div>" if closing else '<div class="tabset">'
    if name == "TabItem":
        if closing:
            return "</div>"
        title = escapeHtml(attrs.get("label") or attrs.get("value") or "Tab")
        return f'<div class="tab"><p class="tab-title">{title}</p>'
    if name == "Admonition":
        if closing:
            return "</aside>"
        kind, _ = kind_of(attrs.get("type") or "note")
        title = escapeHtml(attrs.get("title") or kind.capitalize())
        return (
            f'<aside class="callout callout-{kind}" role="note">'
            f'<p class="callout-title"><strong>{title}</strong></p>'
        )
    if name in ("Details", "Summary"):
        return f"<{'/' if closing else ''}{name.lower()}>"
    if name in ("Image", "Img"):
        if closing:
            return ""
        kept = {k: v for k, v in attrs.items() if k in ("src", "alt", "width", "height")}
        kept.setdefault("alt", "")
        return "<img " + " ".join(f'{k}="{escapeHtml(v)}"' for k, v in kept.items()) + ">"
    return None
