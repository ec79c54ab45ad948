"""MDX components as postil's own tokens (`postil.markdown.mdx` finds them).

- Docusaurus `<Tabs>`/`<TabItem value="a" label="A">`: content tabs (`postil.markdown.tabs`);
- Docusaurus `<Admonition type="tip" title="T">`, Nextra's and Fumadocs' `<Callout
  type="info">`, Starlight's `<Aside type="caution" title="T">`: a callout
  (`postil.markdown.callout`; `CALLOUT_TYPES` names their kinds);
- Nextra's and Starlight's `<Steps>`: its content (numbered headings or a list), as
  written;
- Docusaurus `<CodeBlock language="py" title="x.py">`: a code block with that caption;
- Astro `<Image src="./a.png" alt="A" />`, `<Picture … />`: an image;
- Docusaurus `<Details>`/`<Summary>`: HTML's `<details>`/`<summary>`;
- any other component: its Markdown content kept, its tags left out, one warning per name;
  a self-closing one is left out with a warning. Lowercase tags (`<div>`, `<details>`)
  are HTML and left to CommonMark.

A component's tag lines may be indented (MDX has no indented code): its content is read
from the indentation of its least indented line, as a list item's is.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from postil.markdown.jsx import JsxTag, read_tag
from postil.markdown.state import RenderState, get_state, jsx_dialect
from postil.markdown.tabs import close_tabset, open_tab, open_tabset

IMAGES = ("Image", "Picture")
"""Astro's image components (`astro:assets`)."""

HTML_ELEMENTS = {"Details": "details", "Summary": "summary"}
"""Docusaurus' components that are an HTML element of the same name (`<Details>`)."""

_FENCE = re.compile(r"\s*(`{3,}|~{3,})")

Where = tuple[int | None, int]
"""(0-based body line, 1-based column) of a warning."""


def component_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule (MDX only): a component's tag alone on its line(s), its content up to
    its closing tag, as postil's tokens for the components it has (module docstring)."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    tag = read_tag(state.src, begin)
    if tag is not None and not tag.component:
        return _html_element(state, tag, start_line, end_line, silent)
    if tag is None or not tag.component:
        return False
    line = line_of(state, tag.end - 1, start_line, end_line)
    if line is None:
        return False
    rest = state.src[tag.end : state.eMarks[line]].strip()
    if rest:
        return _one_line(state, tag, rest, (start_line, line), silent)
    if silent:
        return True
    doc = get_state(state.env)
    where: Where = (start_line, begin - (state.src.rfind("\n", 0, begin) + 1) + 1)
    state.line = line + 1
    if tag.closing:
        doc.warn(*where, f"`</{tag.name}>` closes no open tag; remove it")
    elif tag.self_closing:
        if tag.name in IMAGES:
            _image(state, tag, doc, where)
        elif tag.name:
            warn_component(doc, where, {"name": tag.name, "self_closing": True})
    else:
        close = _closing_line(state, tag.name, line + 1, end_line)
        if close is None:
            doc.warn(
                *where,
                f"`<{tag.name}>` is never closed, so everything after it is inside it; add "
                f"a line `</{tag.name}>` where it ends",
            )
        stop = end_line if close is None else close
        BLOCKS.get(tag.name, _unknown)(state, tag, (start_line, line + 1, stop), doc, where)
        state.line = min(stop + 1, end_line)
    return True


def _one_line(
    state: StateBlock, tag: JsxTag, rest: str, lines: tuple[int, int], silent: bool
) -> bool:
    """A callout component with its content and closing tag on its opening tag's line
    (`<Callout type="info">Text.</Callout>`, `<Aside type="tip">…</Aside>`): the callout,
    its content one paragraph. Anything else on the line is not this rule's."""
    closer = f"</{tag.name}>"
    if BLOCKS.get(tag.name) is not _admonition or tag.closing or tag.self_closing:
        return False
    if not rest.endswith(closer) or closer in rest[: -len(closer)]:
        return False
    if silent:
        return True
    start_line, line = lines
    _callout_open(state, tag, [start_line, line + 1])
    state.push("paragraph_open", "p", 1).map = [start_line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = rest[: -len(closer)].strip(), [line, line + 1], []
    state.push("paragraph_close", "p", -1)
    state.push("shortcode_callout_close", "aside", -1).map = [line, line + 1]
    state.line = line + 1
    return True


RAW_ELEMENTS = frozenset({"pre", "script", "style", "textarea", "svg", "math"})
"""HTML elements whose content is no Markdown, in MDX as in HTML."""


def _html_element(
    state: StateBlock, tag: JsxTag, start_line: int, end_line: int, silent: bool
) -> bool:
    """An HTML element's start tag alone on its line(s), up to its end tag alone on a line:
    MDX reads an element as JSX, its content as Markdown (`<details>⏎<summary>…`), indented
    or not (`mdx.mdx_html` writes a start tag's expressions as HTML: `style={{…}}` is CSS).
    A self-closing or void element with an expression attribute alone on its line(s)
    (`<img src="a.png" style={{width: 300}} />`) is that element."""
    if tag.closing or tag.name.lower() in RAW_ELEMENTS:
        return False
    line = line_of(state, tag.end - 1, start_line, end_line)
    if line is None or state.src[tag.end : state.eMarks[line]].strip():
        return False
    close = None if tag.self_closing else _closing_line(state, tag.name, line + 1, end_line)
    expressions = any(value.startswith("{") for value in tag.attrs.values())
    if close is None and not expressions:
        return False  # a void element (`<br>`) or one never closed: CommonMark's block
    if silent:
        return True
    begin = state.bMarks[start_line] + state.tShift[start_line]
    opening = state.push("html_block", "", 0)
    opening.content, opening.map = state.src[begin : tag.end] + "\n", [start_line, line + 1]
    if close is None:
        state.line = line + 1
        return True
    children(state, line + 1, close)
    end = state.src[state.bMarks[close] + state.tShift[close] : state.eMarks[close]].strip()
    closing = state.push("html_block", "", 0)
    closing.content, closing.map = end + "\n", [close, close + 1]
    state.line = close + 1
    return True


def dropped_attribute(tag: JsxTag, attribute: str) -> str:
    """The warning for an HTML element's attribute whose expression is left out."""
    how = "an object of strings and numbers" if attribute.startswith("style=") else "a string"
    return (
        f"`{attribute}` on `<{tag.name}>` is left out: postil runs no JavaScript; write its "
        f"value as {how}"
    )


def line_of(state: StateBlock, offset: int, start_line: int, end_line: int) -> int | None:
    """Return the line (from `start_line`, before `end_line`) holding the source offset
    `offset`, or None: where a JSX tag or MDX block that spans lines ends."""
    for line in range(start_line, end_line):
        if offset <= state.eMarks[line]:
            return line
    return None


def _closing_line(state: StateBlock, name: str, first: int, end_line: int) -> int | None:
    """Return the line of the `</name>` closing the tag opened before line `first`
    (same-named tags nest; lines in code fences do not count), or None."""
    opening = re.compile(rf"<{re.escape(name)}(?=[\s>/]|$)")
    closing = re.compile(rf"</{re.escape(name)}\s*>")
    depth, fence = 0, ""
    for line in range(first, end_line):
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        marker = _FENCE.match(text)
        if marker and (not fence or marker.group(1).startswith(fence)):
            fence = "" if fence else marker.group(1)
        if fence or marker:
            continue
        if closing.fullmatch(text.rstrip()):
            if depth == 0:
                return line
            depth -= 1
        elif opening.match(text) and not text.rstrip().endswith("/>"):
            depth += 1
    return None


def children(state: StateBlock, first: int, stop: int, indent: int | None = None) -> None:
    """Tokenize lines `first` to `stop` (not included) as Markdown, indented as their
    least indented line is (an element's content; MDX's indented lines, which are no code),
    or as `indent` says (the lines of a string inside them may start anywhere)."""
    if indent is None:
        lines = range(first, stop)
        indent = min((state.sCount[line] for line in lines if not state.isEmpty(line)), default=0)
    old_indent, old_max = state.blkIndent, state.lineMax
    state.blkIndent = max(old_indent, indent)
    state.lineMax = stop
    state.md.block.tokenize(state, first, stop)
    state.blkIndent, state.lineMax = old_indent, old_max


Lines = tuple[int, int, int]
"""(line of the opening tag, first line of the content, line of the closing tag)."""


def _unknown(state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where) -> None:
    """A component postil does not have: its content, and a warning once per name."""
    if tag.name:
        warn_component(doc, where, {"name": tag.name, "self_closing": False})
    children(state, lines[1], lines[2])


def _tabs(state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where) -> None:
    """Docusaurus' `<Tabs>`: a set of tabs."""
    open_tabset(state, lines[0], lines[2])
    children(state, lines[1], lines[2])
    close_tabset(state, lines[2])


def _tab_item(state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where) -> None:
    """Docusaurus' `<TabItem value="x" label="X">`: a tab titled by its label (or value)."""
    title = tag.attrs.get("label") or tag.attrs.get("value") or "Tab"
    open_tab(state, lines[0], lines[2], title)
    children(state, lines[1], lines[2])
    state.push("tab_close", "div", -1).markup = "TabItem"


CALLOUT_TYPES = {"default": "note", "idea": "tip"}
"""Callout `type`s of MDX components that postil's callout names (`callout.ALIASES`) do
not have: Nextra's `<Callout>` without a type or `type="default"` (its 💡 note, Nextra's
"Callout" docs), Fumadocs' `type="idea"`. The other types of Nextra (`info`, `warning`,
`error`, `important`), Fumadocs (`info`, `warn`, `error`, `success`) and Starlight's
`<Aside>` (`note`, `tip`, `caution`, `danger`) are callout names already."""


def _admonition(
    state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where
) -> None:
    """A callout of the component's `type` titled by its `title` (`CALLOUT_TYPES`):
    Docusaurus' `<Admonition type="tip" title="T">`, Nextra's `<Callout type="info"
    emoji="💡">` (its emoji is the theme's icon, not kept), Fumadocs' `<Callout
    title="T" type="warn">`, Starlight's `<Aside type="caution" title="T">`."""
    _callout_open(state, tag, [lines[0], lines[2] + 1])
    children(state, lines[1], lines[2])
    state.push("shortcode_callout_close", "aside", -1).map = [lines[2], lines[2] + 1]


def _callout_open(state: StateBlock, tag: JsxTag, lines: list[int]) -> None:
    """Push the opening token of the callout component `tag` (`CALLOUT_TYPES`)."""
    opening = state.push("shortcode_callout_open", "aside", 1)
    kind = tag.attrs.get("type") or "note"
    kind = CALLOUT_TYPES.get(kind.lower(), kind)
    opening.map = lines
    opening.meta = {"kind": kind, "title": tag.attrs.get("title", ""), "collapse": None}


def _steps(state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where) -> None:
    """Nextra's and Starlight's `<Steps>`: its content as written (their themes only
    number and rule its headings or its ordered list, which read the same without)."""
    children(state, lines[1], lines[2])


def _code_block(
    state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where
) -> None:
    """Docusaurus' `<CodeBlock language="py" title="x.py">`: its text as a code block
    (a template literal `` {`…`} `` around it is left out)."""
    text = textwrap.dedent(state.getLines(lines[1], lines[2], state.blkIndent, False)).strip("\n")
    if text.startswith("{`") and text.endswith("`}"):
        text = text[2:-2].strip("\n")
    token = state.push("fence", "code", 0)
    info = tag.attrs.get("language", "")
    title = tag.attrs.get("title", "")
    token.info = f'{info} title="{title}"' if title and '"' not in title else info
    token.content, token.markup, token.map = text + "\n", "CodeBlock", [lines[0], lines[2] + 1]


def _element(state: StateBlock, tag: JsxTag, lines: Lines, doc: RenderState, where: Where) -> None:
    """Docusaurus' `<Details>`: HTML's `<details>` around its Markdown content."""
    element = HTML_ELEMENTS[tag.name]
    opening = state.push("html_block", "", 0)
    opening.content, opening.map = f"<{element}>\n", [lines[0], lines[1]]
    children(state, lines[1], lines[2])
    closing = state.push("html_block", "", 0)
    closing.content, closing.map = f"</{element}>\n", [lines[2], lines[2] + 1]


BLOCKS: dict[str, Callable[[StateBlock, JsxTag, Lines, RenderState, Where], None]] = {
    "Tabs": _tabs,
    "TabItem": _tab_item,
    "Admonition": _admonition,
    "Callout": _admonition,
    "Aside": _admonition,
    "Steps": _steps,
    "CodeBlock": _code_block,
    **dict.fromkeys(HTML_ELEMENTS, _element),
}
"""The components postil has, by name, each pushing its tokens."""


def image_markdown(tag: JsxTag) -> str | None:
    """Return Markdown for an `<Image>`/`<Picture>` (`![alt](<src>)`, its numeric `width`
    and `height` as an attribute list), or None when its
    `src` is an expression (an imported image: `src={hero}`), which postil cannot read."""
    src = tag.attrs.get("src", "")
    if not src or src.startswith("{"):
        return None
    alt = "".join("\\" + char if char in "[]\\" else char for char in tag.attrs.get("alt", ""))
    sizes = " ".join(
        f'{name}="{value}"'
        for name in ("width", "height")
        if (value := tag.attrs.get(name, "")).isdigit()
    )
    return f"![{alt}](<{src}>)" + (f"{{{sizes}}}" if sizes else "")


def _image(state: StateBlock, tag: JsxTag, doc: RenderState, where: Where) -> None:
    """An Astro image alone on its line(s): a paragraph with the image."""
    markdown = image_markdown(tag)
    if markdown is None:
        _warn_image(doc, where, tag)
        return
    lines = [where[0] or 0, state.line]
    state.push("paragraph_open", "p", 1).map = lines
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = markdown, lines, []
    state.push("paragraph_close", "p", -1)


def _warn_image(doc: RenderState, where: Where, tag: JsxTag) -> None:
    """Warn that an image whose `src` is not a path is left out."""
    doc.warn(
        *where,
        f"`<{tag.name}>` has `src={tag.attrs.get('src', '')}`, not a path: postil runs no "
        'JavaScript, so it is left out; write `src="./image.png"` (the file next to the post)',
    )


def component_inline(state: StateInline, tag: JsxTag) -> None:
    """Push what a component's tag inside a paragraph becomes: an image for `<Image>`,
    else an `mdx_drop` token (its name in `meta` for a warning; none for a closing tag
    or a fragment)."""
    markdown = image_markdown(tag) if tag.name in IMAGES and tag.self_closing else None
    if markdown is not None:
        if state.pending:
            state.pushPending()  # the text before the image goes first
        state.md.inline.parse(markdown, state.md, state.env, state.tokens)
        return
    if tag.name in HTML_ELEMENTS and not tag.self_closing:
        html = state.push("html_inline", "", 0)
        html.content = f"<{'/' if tag.closing else ''}{HTML_ELEMENTS[tag.name]}>"
        return
    drop = state.push("mdx_drop", "", 0)
    drop.content = state.src[tag.start : tag.end]
    named = tag.name and not tag.closing
    drop.meta = {"name": tag.name, "self_closing": tag.self_closing} if named else {}


def warn_component(doc: RenderState, where: Where, meta: dict[str, Any]) -> None:
    """Warn once per post and component name that postil does not have the component.

    Args:
        where: (0-based body line, 1-based column).
        meta: "name" (the component's name) and "self_closing" (it has no content).
    """
    name = meta["name"]
    warned = doc.extra.setdefault("mdx_components", set())
    if name in warned:
        return
    warned.add(name)
    shown = f"<{name} />" if meta.get("self_closing") else f"<{name}>"
    kept = (
        "it is left out" if meta.get("self_closing") else "its content is kept, the tags left out"
    )
    if name in BLOCKS:  # one postil has, written inside a line of text
        doc.warn(
            *where,
            f"{jsx_dialect(doc)} component `{shown}` inside a line of text is not read as "
            f"one: {kept}; put `<{name}>` at the start of a line of its own (its content "
            "may follow it on that line, up to its closing tag)",
        )
        return
    doc.warn(
        *where,
        f"{jsx_dialect(doc)} component `{shown}` is not one postil has: {kept}; write it "
        f"as Markdown or HTML (postil reads {', '.join([*BLOCKS, *IMAGES])})",
    )
