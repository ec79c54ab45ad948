r"""MyST Markdown (Jupyter Book, MyST-NB): its directives, roles and targets.

MyST writes Sphinx directives as fences whose info is `{name} argument` (backticks, tildes,
or, for the directives read as blocks, colons: `:::{note}`), their options as
`:key: value` lines at the top of the body or a YAML block between `---` lines there,
roles as `` {name}`text` `` and targets as a `(label)=` line. postil reads the ones a
math post is made of with its own features, and says which it does not do:

- ```` ```{math} ```` (`:label: eq-x` numbers it, as `\label` does) is display math;
- ```` ```{code-cell} ipython3 ````, `{code-block}`, `{code}` are code in their language
  (a code cell is an executable chunk: shown, not run, `postil.markdown.chunk`);
- `{index}`, `{contents}` (postil's own table of contents is shown instead), a `{raw}`
  block of another format than HTML, and sphinx-exercise's `{exercise-start}`,
  `{exercise-end}`, `{solution-start}`, `{solution-end}` (their content is the post's
  between them) are left out; `{raw} html` is raw HTML;
- `{margin}`, `{aside}` and `{sidebar} Title` are margin content (`postil.markdown.margin`);
- admonitions (`{note}`, `{warning}`, `{admonition} Title`, …), sphinx-exercise's
  `{exercise}` and `{solution}` are callouts whose body is Markdown (`:class: dropdown`
  folds one); sphinx-proof's `{prf:theorem} Title` & co. are the theorem plugin's
  numbered theorems (`:label:` the id), `{prf:proof}` a proof; `{epigraph}` is a block
  quote; `{figure} path` is a figure whose body is its caption (`:name:` its id),
  `{image} path` an image;
- any other directive is shown as code (as Markdown in a colon fence) with a warning; a
  name nothing reads says so (`postil.markdown.fencekind`);
- roles (`postil.markdown.mystrole`): `` {math}`x` `` is inline math, `` {eq}`label` ``
  the equation's number as `\eqref` writes it, `{numref}`, `{ref}` and `{prf:ref}` to a
  figure, table or theorem links; `` {doc}`text <file>` `` and `` {index}`text <entry>` ``
  their text; others are their text with a warning;
- `$$ … $$ (label)`, MyST's labelled display math, is read by `postil.markdown.math`;
- a `(label)=` line is left out (a target for `{ref}`);
- lines beginning with `%` are comments, left out (`myst_comment`), in a post that writes
  MyST.

Sources: MyST-Parser's syntax reference ("Directives", "Roles", "Targets"), myst-nb's
`code-cell` (`mystnb: figure: name:`), sphinx-exercise's gated directives, sphinx-proof's
directives and options. No CSS classes of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.attrlist import clean_attributes
from postil.markdown.diagram import diagram_cell, set_caption
from postil.markdown.fencekind import (
    CALLOUTS,
    CODE,
    DIRECTIVES,
    FOLDED,
    LEFT_OUT,
    PROOF_KINDS,
    THEOREM_ENGINES,
    UNSUPPORTED,
    fence_kind,
    is_directive,
    unknown_fence_message,
)
from postil.markdown.figure import push_figure
from postil.markdown.margin import MARGIN_DIRECTIVES, push_margin
from postil.markdown.mystrole import (
    myst_ref_resolve,
    myst_role,
    myst_role_check,
    render_myst_ref,
    render_myst_role_text,
)
from postil.markdown.state import SourceLines, get_state
from postil.markdown.tagsyntax import tokenize_lines
from postil.markdown.theorem import PROOFS, title_tokens
from postil.markdown.toc import render_kramdown_toc

DIRECTIVE = re.compile(r"\{([A-Za-z][\w:-]*)\}\s*(.*)\Z")
"""A MyST directive fence's info: `{name} argument`."""

REMOVED_CELL = re.compile(r"\bremove-(?:cell|input)\b")
"""A code cell's `:tags:` that remove it, or its code (Jupyter Book, "Remove content"):
its output, which postil cannot show, is all that would be left."""

OPTION = re.compile(r":([\w-]+):\s*(.*)\Z")
"""A directive option line at the top of its body: `:label: eq-x`."""

LANGUAGES = {"ipython3": "python", "ipython": "python", "python3": "python"}
"""Jupyter kernel names as the language they are."""

TARGET = re.compile(r"\(([^()\s]+)\)=\s*\Z")
"""A MyST target line: `(label)=`."""


FENCE_OPEN = re.compile(r"(`{3,}|~{3,}|:{3,})[ \t]*\{([A-Za-z][\w:-]*)\}[ \t]*(.*)\Z")
"""The opening fence of a directive read as blocks: its fence, name and argument; `:::`
is MyST's colon fence (the `colon_fence` extension Jupyter Book turns on). Spaces may
come between the fence and the name (```` ``` {note} ````, `::: {note}`): MyST-Parser
strips a fence's info before it reads `{name}` (`render_fence`, `render_colon_fence`)."""


def myst_plugin(md: MarkdownIt) -> None:
    """Read MyST's directives, roles and targets (see the module).

    Syntax::

        (eq-section)=
        ```{math}
        :label: eq-bayes
        p(\\theta \\mid x) \\propto p(x \\mid \\theta)\\, p(\\theta)
        ```

        By {eq}`eq-bayes`, the posterior ...

    renders the formula numbered and the role as its linked number, "(1)".
    """
    md.block.ruler.before("paragraph", "myst_target", myst_target)
    alt = ["paragraph", "reference", "blockquote", "list"]
    md.block.ruler.before("fence", "myst_comment", myst_comment, {"alt": alt})
    md.block.ruler.before("fence", "myst_block", myst_block, {"alt": ["paragraph"]})
    md.core.ruler.before("chunk", "myst_directives", myst_directives)
    md.inline.ruler.before("backticks", "myst_role", myst_role)
    md.core.ruler.after("inline", "myst_role_check", myst_role_check)
    md.core.ruler.before("inline", "myst_targets", myst_targets)
    md.add_render_rule("myst_target", render_myst_target)
    md.add_render_rule("myst_comment", lambda *args: "")
    md.add_render_rule("kramdown_toc", render_kramdown_toc)  # `{contents}`, as the toc plugin
    if "figure_number" in md.core.ruler.get_all_rules():
        md.core.ruler.after("figure_number", "myst_ref_resolve", myst_ref_resolve)
    else:
        md.core.ruler.push("myst_ref_resolve", myst_ref_resolve)
    md.add_render_rule("myst_ref", render_myst_ref)
    md.add_render_rule("myst_role_text", render_myst_role_text)


MYST_SIGNS = re.compile(
    r"^ {0,3}(?:(?:`{3,}|~{3,}|:{3,})\{[A-Za-z][\w:-]*\}|\([^()\s]+\)=\s*$)"
    r"|\{[A-Za-z][\w:-]*\}`[^`\n]",
    re.M,
)
"""What only a MyST document writes: a directive fence (```` ```{note} ````, `:::{figure}`),
a `(label)=` target line, or a role (`` {eq}`x` ``)."""


def myst_comment(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: lines beginning with `%` in a MyST post are its comments, left out.

    MyST-Parser's syntax reference ("Comments") and mystmd read a `%` at the start of a
    line as a comment that ends the paragraph before it; Jupyter Book authors comment out
    drafts and whole directives so (`%:::{prf:theorem}`). Only a post that writes MyST
    (`MYST_SIGNS`) is read so: elsewhere such a line is text, as CommonMark has it, and a
    `%` inside code or display math stays theirs (their rules read those lines first).
    """
    if state.is_code_block(start) or state.src[state.bMarks[start] + state.tShift[start]] != "%":
        return False
    if not _writes_myst(state):
        return False
    line = start + 1
    while line < end and state.sCount[line] >= state.blkIndent and not state.is_code_block(line):
        if state.src[state.bMarks[line] + state.tShift[line]] != "%" or state.isEmpty(line):
            break
        line += 1
    if not silent:
        state.push("myst_comment", "", 0).map = [start, line]
    state.line = line
    return True


def _writes_myst(state: StateBlock) -> bool:
    """Return whether the post being rendered writes MyST (`MYST_SIGNS`), found once."""
    doc = get_state(state.env)
    found = doc.extra.get("writes_myst")
    if found is None:
        lines = doc.source_lines
        text = lines.text if isinstance(lines, SourceLines) else "\n".join(lines)
        text = text or state.src  # (a fragment rendered on its own)
        found = doc.extra["writes_myst"] = MYST_SIGNS.search(text) is not None
    return bool(found)


def myst_target(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a `(label)=` line, MyST's target for `{ref}` and `[](#label)`, is a
    `myst_target` token: the id of the heading after it (`myst_targets`), else an anchor."""
    if state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    found = TARGET.match(line) if line.startswith("(") else None
    if found is None:
        return False
    if not silent:
        token = state.push("myst_target", "", 0)
        token.meta, token.map = {"label": found.group(1)}, [start, start + 1]
        state.line = start + 1
    return True


SECTIONS = "myst_sections"
"""`extra` key: label of each `(label)=` target -> the inline token of the heading it
names, or None (an anchor before another block)."""


def myst_targets(state: StateCore) -> None:
    """Core rule (before the heading ids are made): a `(label)=` target right before a
    heading is that heading's id, and its text what `` {ref}`label` `` shows (MyST's and
    Sphinx's section labels); any other target stays an empty anchor."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "myst_target":
            continue
        label, targets = token.meta["label"], get_state(state.env).extra.setdefault(SECTIONS, {})
        targets[label] = None
        heading = tokens[index + 1] if index + 2 < len(tokens) else None
        if heading is not None and heading.type == "heading_open" and "id" not in heading.attrs:
            heading.attrs["id"] = label
            token.meta["heading"] = True
            targets[label] = tokens[index + 2]


def render_myst_target(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render a target that names no heading as an empty anchor of its label."""
    meta = tokens[idx].meta
    return "" if meta.get("heading") else f'<div id="{escapeHtml(meta["label"])}"></div>\n'


def myst_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a directive whose body is Markdown or a figure (see the module)."""
    if state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    found = FENCE_OPEN.match(line.rstrip()) if line[:1] in "`~:" else None
    if found is None and line[:1] in "`~" and (knitr := KNITR_THEOREM.match(line.rstrip())):
        return _knitr_theorem(state, (start, end), silent, knitr)
    name = found.group(2).lower() if found else ""
    blocks = name in CALLOUTS or name in MARGIN_DIRECTIVES or name.startswith("prf:")
    blocks = blocks or name == "epigraph" or name in THEOREM_ENGINES
    other = found is not None and found.group(1)[0] == ":" and not blocks  # `:::{dropdown}`
    if found is None or not (blocks or other or name in ("figure", "image", "list-table")):
        return False
    if silent:
        return True
    close, after = _fence_end(state, (start, end), found.group(1), f"directive `{{{name}}}`")
    body = start + 1
    options: dict[str, str] = {}
    lines = [
        state.src[state.bMarks[n] + state.tShift[n] : state.eMarks[n]] for n in range(body, close)
    ]
    block = yaml_options(lines)
    if block is not None:
        options, skipped = block
        body += skipped
    while block is None and body < close:
        option = OPTION.match(
            state.src[state.bMarks[body] + state.tShift[body] : state.eMarks[body]]
        )
        if option is None:
            break
        options[option.group(1).lower()] = option.group(2).strip()
        body += 1
    argument = found.group(3).strip()
    if name == "list-table":
        _push_list_table(state, (start, body, close), argument, options)
    elif name == "contents":  # docutils' local table of contents, there (`toc`)
        state.push("kramdown_toc", "nav", 0).map = [start, after]
        get_state(state.env).extra["toc_placed"] = True
    elif other and name not in ("figure", "image"):
        _report_colon_fence(state, start, found.group(2))
        _tokenize(state, body, close)
    elif blocks:
        _push_blocks(state, (start, body, close), name, argument, options)
    else:
        _push_image(state, (start, body, close), name, argument, options)
    state.line = after
    return True


KNITR_THEOREM = re.compile(
    r"(`{3,}|~{3,})[ \t]*\{(" + "|".join(THEOREM_ENGINES) + r")(?=[\s,])([^{}]*)\}[ \t]*\Z",
    re.I,
)
"""bookdown's theorem fence with knitr's chunk options: ```` ```{theorem, pyth,
name="Pythagoras"} ````, ```` ```{lemma key} ````, ```` ```{proof, name="Sketch"} ````:
its fence, engine and options (the first one unnamed, or `label=`, is its label)."""

CHUNK_OPTION = re.compile(
    r"\s*(?:([A-Za-z][\w.]*)\s*=\s*)?(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[^,]*?)\s*(?:,|\Z)"
)
"""One knitr chunk option: group 1 its name (none for the label), group 2 its value."""


def _knitr_theorem(
    state: StateBlock, lines: tuple[int, int], silent: bool, found: re.Match[str]
) -> bool:
    """Push a bookdown theorem fence (`KNITR_THEOREM`) as the theorem plugin's tokens: its
    label the element's id (`\\@ref(thm:label)` and `[](#label)` name it), its `name`
    the title, its body Markdown; never closed, it runs to its container's end, warned."""
    if silent:
        return True
    start, end = lines
    close, after = _fence_end(state, lines, found.group(1), f"`{{{found.group(2)}}}`")
    options: dict[str, str] = {}
    for number, option in enumerate(CHUNK_OPTION.finditer(found.group(3).lstrip(" \t,"))):
        value = option.group(2).strip()
        value = value[1:-1] if value[:1] in "\"'" and value[-1:] == value[:1] else value
        key = (option.group(1) or ("label" if number == 0 else "")).lower()
        if key and value:
            options.setdefault(key, value)
    kind_word = THEOREM_ENGINES[found.group(2).lower()]
    _push_theorem(state, (start, start + 1, close), kind_word, options.get("name", ""), options)
    state.line = after
    return True


def _push_list_table(
    state: StateBlock, lines: tuple[int, int, int], title: str, options: dict[str, str]
) -> None:
    """Push a `{list-table}` (docutils' list table, MyST's and Jupyter Book's) as the GFM
    table tokens: each item of its list a row, each item of a row's list a cell (its
    Markdown; one paragraph as the cell's text), `:header-rows: n` rows a header; its
    title and `:name:` a caption paragraph `Table: title {#name}` after it, which the table
    plugin numbers (`{numref}` finds it). A body that is no list of lists is its Markdown,
    with a warning."""
    start, body, close = lines
    first = len(state.tokens)
    _tokenize(state, body, close)
    rows = _list_rows(state.tokens[first:])
    if rows is None:
        get_state(state.env).warn(
            start,
            state.sCount[start] + 1,
            "`{list-table}` holds no list of lists (a `*` item a row, its own `*` items the "
            "cells), so its body is shown as Markdown",
        )
        return
    del state.tokens[first:]
    try:
        header_rows = int(options.get("header-rows", "0"))
    except ValueError:
        header_rows = 0
    state.push("table_open", "table", 1).map = [start, close + 1]
    for index, row in enumerate(rows):
        head = index < header_rows
        if index == 0 and head:
            state.push("thead_open", "thead", 1)
        if index == header_rows:
            state.push("tbody_open", "tbody", 1)
        state.push("tr_open", "tr", 1)
        for cell in row:
            state.push("th_open" if head else "td_open", "th" if head else "td", 1)
            state.tokens.extend(cell)
            state.push("th_close" if head else "td_close", "th" if head else "td", -1)
        state.push("tr_close", "tr", -1)
        if index == header_rows - 1:
            state.push("thead_close", "thead", -1)
    if len(rows) > header_rows:
        state.push("tbody_close", "tbody", -1)
    state.push("table_close", "table", -1)
    if title:
        name = options.get("name", "")
        state.push("paragraph_open", "p", 1).map = [start, start + 1]
        caption = state.push("inline", "", 0)
        caption.content = f"Table: {title}" + (f" {{#{name}}}" if name else "")
        caption.map, caption.children = [start, start + 1], []
        state.push("paragraph_close", "p", -1)


def _list_rows(tokens: list[Token]) -> list[list[list[Token]]] | None:
    """Return the rows of a list of lists as each cell's tokens (one paragraph: its inline
    token alone), or None when `tokens` are not one bullet list of bullet lists."""
    if not tokens or tokens[0].type != "bullet_list_open" or tokens[-1].type != "bullet_list_close":
        return None
    rows: list[list[list[Token]]] = []
    depth, cell, row = 0, list[Token](), list[list[Token]]()
    for token in tokens[1:-1]:
        if token.type in ("bullet_list_open", "list_item_open"):
            depth += 1
        if depth == 3 and token.type == "list_item_open":
            cell = []
        elif depth >= 3:
            cell.append(token)
        if token.type in ("bullet_list_close", "list_item_close"):
            depth -= 1
            if depth == 2 and token.type == "list_item_close":
                row.append(_cell_content(cell[:-1]))
            elif depth == 0:
                rows.append(row)
                row = []
        if depth == 1 and token.type not in ("list_item_open", "bullet_list_close"):
            if token.type != "list_item_close":
                return None  # a row's own text, not a list of cells
    return rows if rows and all(rows) else None


def _cell_content(tokens: list[Token]) -> list[Token]:
    """Return a cell's tokens: one paragraph's inline token alone, else the blocks."""
    kinds = [token.type for token in tokens]
    if kinds == ["paragraph_open", "inline", "paragraph_close"]:
        return [tokens[1]]
    return tokens


def _container_end(state: StateBlock, start: int, end: int) -> int:
    """Return the first line after `start` less indented than its container (or `end`)."""
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent and not state.isEmpty(line):
            return line
    return end


def _fence_end(
    state: StateBlock, lines: tuple[int, int], fence: str, named: str
) -> tuple[int, int]:
    """Return (the line closing the block opened at `lines[0]` with `fence`, the line after
    the block); a block never closed runs to its container's end, as an unclosed code fence
    does, with a warning naming it (`named`: "directive `{note}`")."""
    start, end = lines
    close = _closing_fence(state, start, end, fence)
    if close is not None:
        return close, close + 1
    close = _container_end(state, start, end)
    get_state(state.env).warn(
        start,
        state.sCount[start] + 1,
        f"{named} is never closed, so everything after it is inside it; add a line {fence} "
        "where it ends",
    )
    return close, close


def _closing_fence(state: StateBlock, start: int, end: int, fence: str) -> int | None:
    """Return the line of the fence closing one opened with `fence` (as long or longer)."""
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent:
            return None
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]].rstrip()
        if len(text) >= len(fence) and text == fence[0] * len(text):
            return line
    return None


def _push_blocks(
    state: StateBlock, lines: tuple[int, int, int], name: str, title: str, options: dict
) -> None:
    """Push a callout (or, for `{epigraph}`, a block quote) around the body's blocks."""
    start, body, close = lines
    if name in MARGIN_DIRECTIVES:
        push_margin(state, lines, title, options.get("class", ""))
        return
    if name.split(":", 1)[-1] in PROOF_KINDS and name.startswith("prf:"):
        kind = name.split(":", 1)[1]
        _push_theorem(state, lines, (PROOF_KINDS[kind], kind.capitalize()), title, options)
        return
    if name in THEOREM_ENGINES and name not in CALLOUTS:  # bookdown's bare ```{lemma}```
        _push_theorem(state, lines, THEOREM_ENGINES[name], title, options)
        return
    if name == "epigraph":
        kind, opening = "blockquote", state.push("blockquote_open", "blockquote", 1)
    else:
        opening = state.push("shortcode_callout_open", "aside", 1)
        kind = "shortcode_callout"
        if name in ("exercise", "solution") or name.startswith("prf:"):
            title = name.split(":")[-1].capitalize()  # the argument is a label or the title
            title = found_title if (found_title := options.get("title")) else title
        folded = name in FOLDED or "dropdown" in options.get("class", "").split()
        opening.meta = {
            "kind": CALLOUTS.get(name, "note"),
            "title": title,
            "collapse": "true" if folded else None,
        }
    opening.map = [start, close + 1]
    tokenize_lines(state, body, close)
    state.push(f"{kind}_close", opening.tag, -1).map = [close, close + 1]


def _push_theorem(
    state: StateBlock,
    lines: tuple[int, int, int],
    kind_word: tuple[str, str],
    title: str,
    options: dict,
) -> None:
    """Push a sphinx-proof directive or a bookdown theorem fence as the theorem plugin's
    tokens: numbered per kind ("Theorem 1 (Title)"; `:nonumber:` leaves the number out),
    `:label:` its id; a proof titled "Proof." (`postil.markdown.theorem`).

    Args:
        kind_word: the theorem plugin's kind (`thm`, `proof`) and its word ("Theorem").
    """
    start, body, close = lines
    opening = state.push("theorem_open", "div", 1)
    opening.map = [start, close + 1]
    kind, word = kind_word
    opening.meta = {"kind": kind, "word": word}
    if kind not in PROOFS and "nonumber" not in options:
        opening.meta["figure"] = {"id": options.get("label") or None, "kind": word.lower()}
    elif options.get("label"):
        opening.attrs["id"] = options["label"]
    if options.get("class"):
        opening.attrs["class"] = options["class"]
    state.tokens.extend(title_tokens(opening, title))
    _tokenize(state, body, close)
    state.push("theorem_close", "div", -1).map = [close, close + 1]


def _push_image(
    state: StateBlock, lines: tuple[int, int, int], name: str, src: str, options: dict
) -> None:
    """Push a `{figure}` (its body the caption) or an `{image}` (a paragraph of it)."""
    start, body, close = lines
    caption = "\n".join(
        state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        for line in range(body, close)
    ).strip()
    sizes = clean_attributes(
        {key: options[key] for key in ("width", "height") if key in options}
    ).kept
    if not src:
        _report_no_path(state, start, name)
        if name == "figure":  # its caption is kept, as text
            _tokenize(state, body, close)
        return
    if name == "figure":
        name_option = options.get("name") or None
        push_figure(state, start, src, caption, options.get("alt"), attrs=sizes, ident=name_option)
        first = next((line for line in range(body, close) if not state.isEmpty(line)), body)
        state.tokens[-2].map = [first, max(close, first + 1)]  # the caption's own lines
        return
    opening = state.push("paragraph_open", "p", 1)
    opening.map = [start, close + 1]
    inline = state.push("inline", "", 0)
    alt = options.get("alt", "").replace("]", "\\]")
    inline.content, inline.map, inline.children = f"![{alt}](<{src}>)", [start, start + 1], []
    state.push("paragraph_close", "p", -1)


def _report_colon_fence(state: StateBlock, start: int, name: str) -> None:
    """Warn at a colon fence naming a directive postil does not read: its body is shown as
    Markdown (what a colon fence holds), without the fence lines."""
    kind = fence_kind(name)
    if kind == "directive":
        message = f"MyST directive `{{{name}}}` is not supported: its body is shown as Markdown"
    elif kind:  # a chunk or widget, written with colons
        message = (
            f"`{{{name}}}` is a {kind} postil reads in a ``` fence, not a `:::` one, so its "
            f"body is shown as Markdown; write it between ``` lines"
        )
    else:
        message = unknown_fence_message(name, "Markdown")
    get_state(state.env).warn(start, state.sCount[start] + 1, message)


def _report_no_path(state: StateBlock, start: int, name: str) -> None:
    """Warn at a `{figure}` or `{image}` written without the image's path."""
    get_state(state.env).warn(
        start,
        state.sCount[start] + 1,
        f"MyST directive `{{{name}}}` names no image, so none is shown; write its path "
        f"after the name: ```{{{name}}} images/plot.png",
    )


def _tokenize(state: StateBlock, start: int, end: int) -> None:
    """Parse the lines `start` to `end` as the blocks of the current container."""
    tokenize_lines(state, start, end)


def myst_directives(state: StateCore) -> None:
    """Core rule: re-type MyST directive fences (see the module); warn once per name of
    a directive postil shows as code."""
    doc = get_state(state.env)
    kept, warned = [], set()
    for token in state.tokens:
        found = DIRECTIVE.match(token.info.strip()) if token.type == "fence" else None
        name = found.group(1).lower() if found else ""
        # `{name} argument` with a name no directive has: no chunk (knitr and Quarto write
        # options inside the braces) nor widget (no argument) either
        unknown = found is not None and bool(found.group(2).strip()) and not is_directive(name)
        if name not in DIRECTIVES and name not in UNSUPPORTED and not name.startswith("prf:"):
            found = found if unknown else None  # `{name}` alone: a widget's, or an error there
        if name == "contents" and found:  # docutils' local table of contents, there
            token.type, token.tag, token.nesting = "kramdown_toc", "nav", 0
            token.info = token.content = token.markup = ""
            doc.extra["toc_placed"] = True
            kept.append(token)
            continue
        if not found or name in LEFT_OUT:
            if not found:
                kept.append(token)
            continue
        argument = found.group(2).strip()
        options, body = _options(token.content)
        token.content = body
        if name == "math":
            label = options.get("label")
            token.info = "math"
            token.content = body.rstrip("\n") + (f" \\label{{{label}}}\n" if label else "\n")
        elif name in CODE:
            if name == "code-cell" and REMOVED_CELL.search(options.get("tags", "")):
                continue  # Jupyter Book shows nothing of it (no output: postil runs nothing)
            if name == "code-cell" and options.get("mystnb.figure.name"):  # made by running it
                doc.extra.setdefault("chunk_labels", set()).add(options["mystnb.figure.name"])
            language = LANGUAGES.get(argument.split()[0].lower(), argument) if argument else ""
            token.info = f"{{{language}}}" if name == "code-cell" and language else language
            if name != "code-cell":  # `:caption:`, `:emphasize-lines:`, … (`fenceinfo`)
                token.info += "".join(f" {k}={_quoted(v)}" for k, v in options.items())
        elif name == "mermaid":  # MyST's `:caption:`/`:name:`, or Quarto's `%%|` lines
            diagram_cell(token)
            set_caption(token, options.get("caption", ""), options.get("name", ""))
        elif name == "raw":
            if argument.lower() != "html":
                continue
            token.type, token.tag, token.info, token.markup = "html_block", "", "", ""
        else:
            token.info = "text"
            if name not in warned:
                warned.add(name)
                doc.warn(
                    token.map[0] if token.map else None,
                    1,
                    unknown_fence_message(found.group(1), "code", fence_kind(name))
                    if unknown
                    else f"MyST directive `{{{name}}}` is not supported: its body is shown as "
                    "code; write it as Markdown (a `:::` callout, an image, text)",
                )
        kept.append(token)
    state.tokens[:] = kept


def _quoted(value: str) -> str:
    """Return an option's value quoted for a fence's info string (`""` for a flag)."""
    return f"'{value}'" if '"' in value else f'"{value}"'


def _options(content: str) -> tuple[dict[str, str], str]:
    """Return a directive body's options and the rest: its `:key: value` lines at the top,
    or a YAML block between `---` lines there (`yaml_options`)."""
    lines = content.split("\n")
    block = yaml_options(lines)
    if block is not None:
        options, at = block
        return options, "\n".join(lines[at:]).lstrip("\n")
    options = {}
    at = 0
    while at < len(lines):
        found = OPTION.match(lines[at].strip())
        if found is None:
            break
        options[found.group(1).lower()] = found.group(2).strip()
        at += 1
    return options, "\n".join(lines[at:]).lstrip("\n")


def yaml_options(lines: Sequence[str]) -> tuple[dict[str, str], int] | None:
    """Read MyST's other way to write a directive's options, a YAML mapping between `---`
    lines at the top of its body ("Directives: parameters", MyST-Parser); nested keys
    flattened with dots (myst-nb's `mystnb: {figure: {name: x}}` as `mystnb.figure.name`).

    Returns:
        (options, the index of the first line after the block), or None when the body
        does not open with such a block or it is no YAML mapping (then it is the body's).
    """
    if not lines or lines[0].strip() != "---":
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        return None
    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    return _flattened(data), end + 1


def _flattened(data: dict[Any, Any], prefix: str = "") -> dict[str, str]:
    """Return a nested mapping's scalars by dotted key, in lower case, as text."""
    flat: dict[str, str] = {}
    for key, value in data.items():
        name = f"{prefix}{str(key).lower()}"
        if isinstance(value, dict):
            flat.update(_flattened(value, f"{name}."))
        else:
            flat[name] = "" if value is None else str(value)
    return flat
