r"""Document-level math for the Markdown plugin: macro scope, numbering, references, positions.

The Markdown-token half of `postil.markdown.math` (the rules and renderers are there);
`postil.math` converts single formulas and never imports `postil.markdown`.

A post's formulas share one scope: `\newcommand`/`\def`/`\DeclareMathOperator` in one
formula apply to it and every later formula of the same post (document order), on top of
the site's `math.macros` and the front matter's `macros:` (`RenderState.macros`).
Equations are numbered in document order before anything is rendered, so a reference
may come before its equation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping
from functools import cache, partial
from html import escape
from typing import Any
from urllib.parse import unquote

from markdown_it.token import Token

from postil.errors import did_you_mean
from postil.markdown.bookdown import equation_labels
from postil.markdown.ids import element_ids
from postil.markdown.mathescape import source_offset
from postil.markdown.mathhtml import find_formulas, may_hold_math
from postil.markdown.rendered import AnchorLink
from postil.markdown.state import RenderState, get_state, named_lines
from postil.math import anchor_id, latex_to_mathml
from postil.math.delimiters import Closers
from postil.math.engine import is_blank
from postil.math.environments import split_numbering
from postil.math.errors import MathError, MathSyntaxError
from postil.math.intertext import rewrite_intertext
from postil.math.macros import BUILTIN_MACROS, expand_macros, extract_definitions
from postil.math.numbering import EquationRow
from postil.math.rewrite import REF
from postil.math.text import tag_text

PIPE = "\ue003"  # stands for `|` inside `$…$` while the table rule splits cells
MATH_TYPES = ("math_inline", "math_inline_display", "math_block")
NUMBERING = re.compile(r"\\(?:label|tag|nonumber|notag|begin)(?![A-Za-z])")


def equation_rows(latex: str, macros: Mapping[str, str] | None = None) -> tuple[EquationRow, ...]:
    r"""Return the equation rows of a display formula (labels, tags, which are numbered).

    Raises:
        MathError: the formula's definitions or macros are malformed.
    """
    definitions, body = extract_definitions(latex)
    expanded = expand_macros(body, {**BUILTIN_MACROS, **(macros or {}), **definitions})
    return split_numbering(rewrite_intertext(expanded), True)[1]


def protect_pipes(src: str, env: MutableMapping[str, Any]) -> str:
    """Return `src` with every `|` inside `$…$` on one line replaced by `PIPE` (same length).

    Uses the same Pandoc rule as the inline math rule; cached per source in `env` until
    `release_pipes` (a source with no such pipe is returned itself, never copied).
    """
    cache = env.setdefault(PIPES_KEY, {})
    if src not in cache:
        cache.clear()
        changed = _PIPE_AND_DOLLAR.search(src) is not None
        cache[src] = "\n".join(_protect_line(line) for line in src.split("\n")) if changed else src
    return cache[src]


PIPES_KEY = "_math_pipes"
"""Where `protect_pipes` keeps the protected copy of the source in markdown-it's `env`."""

_PIPE_AND_DOLLAR = re.compile(r"^(?=[^\n]*\|)[^\n]*\$", re.M)
"""A line with both a `|` and a `$`: the only kind `_protect_line` can change."""


def release_pipes(env: MutableMapping[str, Any]) -> None:
    """Drop `protect_pipes`'s copy once block parsing is over: it and the source it is keyed
    by are each as large as the document (a 20 MB post kept 60 MB alive to the end)."""
    env.pop(PIPES_KEY, None)


def _protect_line(line: str) -> str:
    """Protect the pipes inside the `$…$` spans of one line (linear: see `Closers`)."""
    if "|" not in line or "$" not in line:
        return line
    closers = Closers(line)
    out, pos = [], 0
    for opener in closers.unescaped_dollars():
        after = line[opener + 1 : opener + 2]
        if opener < pos or not after or after.isspace() or after == "$":
            continue  # Pandoc's rule: an opening `$` has a non-space after it
        close = closers.dollar(opener + 1, len(line))
        if close > opener:
            out += [line[pos:opener], _protected(line[opener : close + 1])]
            pos = close + 1
    return "".join(out) + line[pos:]


def _protected(formula: str) -> str:
    r"""Return a `$…$` span of a line with its pipes hidden from the table rule's cell split.

    A formula holding an odd number of `\|` cannot be writing norms with them (a norm's
    bars come in pairs): it escapes a pipe as GFM asks inside a table cell, "including
    inside other inline spans" (`$P(A\|B)$`, which GitHub needs and renders P(A|B);
    orsharir/github-mathjax#25, atom-community/markdown-preview-plus#185), so those are
    left to the table rule, which drops the backslash as it does in a code span. An even
    number stays TeX's `\|` (`$\|\mathbf{v}\|$`, a norm as Jupyter shows it:
    mathjax/MathJax#2108).
    """
    if formula.count("\\|") % 2:
        return ESCAPED_PIPE_OR_PIPE.sub(
            lambda m: m.group(0) if len(m.group(0)) == 2 else PIPE, formula
        )
    return formula.replace("|", PIPE)


ESCAPED_PIPE_OR_PIPE = re.compile(r"\\.|\|", re.S)
"""A backslash escape (`\\|` among them) or a bare `|`, read left to right."""


def locate(state: RenderState, token: Any, offset: int) -> tuple[int, int]:
    """Return (0-based body line, 1-based column) of `offset` inside a math token's LaTeX.

    Offsets into TeX whose Markdown escapes were removed are mapped back to the TeX as
    written (`meta["removed"]`, `postil.markdown.mathescape`).
    Block tokens know their first line and column (`meta["col0"]`); inline tokens know
    where their LaTeX starts inside the parent inline token's content (`meta["offset"]`),
    whose lines are found in the source lines to recover the indentation markdown-it
    stripped (list items, block quotes, table cells).
    """
    meta = token.meta or {}
    base_line, content, first_col = meta.get("where", (0, token.content, 0))
    absolute = meta.get("offset", 0) + source_offset(offset, meta.get("removed", ()))
    before = content[:absolute]
    line_delta = before.count("\n")
    col = absolute - (before.rfind("\n") + 1)
    line0 = base_line + line_delta
    if line_delta == 0 and first_col:
        return line0, first_col + col + 1
    lines = content.split("\n")
    source = state.source_lines[line0] if 0 <= line0 < len(state.source_lines) else ""
    found = source.find(lines[line_delta].replace(PIPE, "|")) if line_delta < len(lines) else -1
    return line0, max(found, 0) + col + 1


def _formulas(tokens: list[Any]) -> list[tuple[Any, bool]]:
    """Return every math token in document order with its display flag, setting `where`;
    the formulas of raw HTML blocks too (kept in the block's `meta["formulas"]`)."""
    found = []
    for token in tokens:
        if token.type == "math_block":
            first = (token.meta or {}).get("col0", 0)
            source = (token.meta or {}).get("source", token.content)
            token.meta = {**(token.meta or {}), "where": (token.map[0], source, first)}
            found.append((token, True))
        elif token.type == "html_block" and may_hold_math(token.content):
            formulas = find_formulas(token)  # `postil.markdown.mathhtml`
            token.meta = {**(token.meta or {}), "formulas": formulas}
            found += [(f.token, f.display) for f in formulas if f.token is not None]
        elif token.type == "inline" and token.children:
            where = ((token.map or [0])[0], token.content, 0)
            for child in token.children:
                if child.type in MATH_TYPES or child.type == "math_ref":
                    child.meta = {**(child.meta or {}), "where": where}
                    found.append((child, child.type != "math_inline"))
    return found


def math_resolve(state: Any) -> None:
    """Core rule: scope macros, number equations, check references (before rendering).

    In a document parsed in groups (`postil.markdown.state.GroupRun`) the macros in force
    and the equation count carry from group to group, and the labels of the whole document
    (an `\\eqref` may come before its `\\label`) are the gathering run's, set before the
    first group renders.
    """
    doc = get_state(state.env)
    run = doc.groups
    carry = run.carry.get("math")
    if carry is None:
        carry = run.carry["math"] = {"macros": dict(doc.macros), "count": 0, "labels": {}}
        if "math" in run.facts:
            doc.equations.update(run.facts["math"])
            doc.extra["inline_labels"] = set(run.facts["inline_labels"])
    formulas = _formulas(state.tokens)
    for token, display in formulas:
        if token.type == "math_ref":
            continue
        token.content = equation_labels(token.content)  # bookdown's `(\#eq:x)`
        carry["macros"] = _scope_macros(doc, token, carry["macros"])
        token.meta["macros"] = carry["macros"]
        if display or is_end_mark(token.content):  # a mark is drawn as display math
            carry["count"] = _number(doc, token, carry, carry["count"])
        elif ("\\label" in token.content or "\\tag" in token.content) and emptiness(
            token.content
        ) != "numbering":
            _inline_labels(doc, token)
    if run.ahead:  # the whole document's element ids, for a `\ref` to a theorem (its ids,
        carry.setdefault("elements", set()).update(element_ids(state.tokens))  # not tokens)
    if run.ahead and run.last:
        run.facts["math"] = dict(doc.equations)
        run.facts["inline_labels"] = set(doc.extra.get("inline_labels", ()))
        run.facts["elements"] = carry.pop("elements")
    if doc.equations:
        link_labels(state.tokens, doc)
    doc.step(1)
    known = run.facts.get("elements")
    tokens = state.tokens
    elements = cache(lambda: known if known is not None else element_ids(tokens))
    for token, _ in formulas:
        _check_refs(doc, token, elements)


def link_labels(tokens: list[Any], doc: RenderState) -> None:
    """Point this page's links to an equation label at the equation, as `\\eqref` does.

    ox-hugo turns `\\ref{eq:lif}` into the link `[eq:lif](#eq:lif)`; the equation's id is
    `anchor_id("eq:lif")` (`eq-lif`), so the link gets that `href`, and link text that is
    the label itself becomes the equation's number, `(1)`; so does no text at all, MyST's
    `[](#eq-lif)` (mystmd and Jupyter Book fill an empty link to a label with what it
    names; `(1)` is what MyST's `{eq}` role and `\\eqref` show). The `#fragment` the links
    plugin recorded for `postil.anchors` is changed to match.
    """
    moved: dict[str, str] = {}
    for block in tokens:
        children: list[Any] = (block.children if block.type == "inline" else None) or []
        for i, token in enumerate(children):
            href = token.attrs.get("href") if token.type == "link_open" else None
            label = unquote(href[1:]) if isinstance(href, str) and href[:1] == "#" else ""
            if label not in doc.equations:
                continue
            moved[label] = anchor_id(label)
            token.attrSet("href", "#" + moved[label])
            text = children[i + 1] if i + 1 < len(children) else None
            if text is not None and text.type == "link_close":  # `[](#eq-x)`
                children.insert(i + 1, Token("text", "", 0, content=f"({doc.equations[label]})"))
                token.attrJoin("class", "eqref")
            elif text is not None and text.type == "text" and text.content.strip() == label:
                if i + 2 < len(children) and children[i + 2].type == "link_close":
                    text.content = f"({doc.equations[label]})"
                    token.attrJoin("class", "eqref")
    links = doc.extra.get("anchor_links")
    if moved and links:
        doc.extra["anchor_links"] = [
            AnchorLink(link.target, moved[link.fragment], link.location)
            if not link.target and link.fragment in moved
            else link
            for link in links
        ]


def _scope_macros(doc: RenderState, token: Any, macros: dict[str, str]) -> dict[str, str]:
    """Return the macros in force after this formula's own definitions."""
    try:
        definitions, _ = extract_definitions(token.content)
    except MathError:
        return macros  # reported when the formula is rendered
    return {**macros, **definitions} if definitions else macros


def _number(doc: RenderState, token: Any, carry: dict[str, Any], count: int) -> int:
    """Number one display formula's rows; record labels in `doc.equations` (with the macros
    and the labels so far in `carry`)."""
    try:
        rows = equation_rows(token.content, carry["macros"])
    except MathError:
        return count
    numbers: list[str | None] = []
    for row in rows:
        text = None
        if row.tag is not None:
            text = tag_text(row.tag)
        elif row.numbered:
            count += 1
            text = str(count)
        numbers.append(text if row.tag is None else None)
        if row.label and text is not None:
            _record_label(doc, token, row.label, text, carry)
    token.meta["numbers"] = numbers
    return count


def _record_label(doc: RenderState, token: Any, label: str, text: str, carry: dict) -> None:
    """Store `label` -> number text, reporting a duplicate at the formula's line, naming
    the line of the first.

    `carry["labels"]` holds the labels so far (`doc.equations` may hold every label of the
    document already: a document parsed in groups, `math_resolve`), `carry["label_lines"]`
    the file line of each.
    """
    seen: dict[str, str] = carry["labels"]
    lines: dict[str, int] = carry.setdefault("label_lines", {})
    line0, col = locate(doc, token, max(token.content.find(label), 0))
    if label in seen:
        first = f" (line {lines[label]} has it)" if label in lines else ""
        doc.warn(  # LaTeX's "multiply defined" warning; references go to the first
            line0,
            col,
            f"duplicate equation label {label!r}{first}; a label must be unique in a post: "
            "rename one",
        )
        return
    if line0 is not None:
        lines[label] = doc.location(line0).line
    ids: dict[str, str] = doc.extra.setdefault("equation_ids", {})
    other = ids.setdefault(anchor_id(label), label)
    if other != label:
        doc.warn(
            line0,
            col,
            f"equation labels {other!r} and {label!r} give the same anchor "
            f"#{anchor_id(label)}; rename one",
        )
        return
    seen[label] = doc.equations[label] = text


INLINE_LABEL = re.compile(r"\\label\s*\{([^{}\n]*)\}")
INLINE_TAG = re.compile(r"\\tag\*?\s*\{(?:[^{}\n]|\{[^{}\n]*\})*\}")


def _inline_labels(doc: RenderState, token: Any) -> None:
    r"""Report each `\label` of an inline formula, which TeX does not number: the label
    gets no number, and an `\eqref` to it shows `(??)` without a second report. A `\tag`
    there is dropped (amsmath: "\tag not allowed here"; KaTeX/KaTeX#899): reported too."""
    for found in INLINE_TAG.finditer(token.content):
        line0, col = locate(doc, token, found.start())
        doc.warn(
            line0,
            col,
            f"{found.group(0)} is in inline math, which shows no equation number, so it is "
            "left out: put the formula on lines of its own (`$$` alone on the lines before "
            "and after it) to show it",
        )
    for found in INLINE_LABEL.finditer(token.content):
        label = found.group(1).strip()
        line0, col = locate(doc, token, found.start())
        doc.extra.setdefault("inline_labels", set()).add(label)
        doc.warn(
            line0,
            col,
            f"\\label{{{label}}} is in inline math, which has no equation number, so "
            f"\\eqref{{{label}}} shows (??): put the formula on lines of its own (`$$` alone "
            "on the lines before and after it) to number it",
        )


def _check_refs(doc: RenderState, token: Any, elements: Callable[[], set[str]]) -> None:
    r"""Report every `\eqref`/`\ref` to a label no equation of the post defines (one in
    inline math is reported at its `\label`: `_inline_labels`); a `\ref` to the id of a
    numbered figure, table or theorem (`elements`: Franklin's `\ref{thm:x}`) is no error
    (`math.render_math_ref` links it)."""
    if token.type == "math_ref":
        refs = [(token.meta["label"], 0)]
    else:
        refs = [(m.group(2).strip(), m.start()) for m in REF.finditer(token.content)]
    for label, offset in refs:
        if label in doc.equations or label in doc.extra.get("inline_labels", ()):
            continue
        if not label:  # `\eqref{ }`: not a label postil lacks, but none written
            line0, col = locate(doc, token, offset)
            doc.warn(
                line0,
                col,
                "\\eqref/\\ref names no label: write the label of a numbered equation in "
                "its braces, e.g. `\\eqref{eq:energy}` for `\\label{eq:energy}`",
            )
        elif label not in elements():  # read only for a label no equation has
            line0, col = locate(doc, token, offset)
            # LaTeX warns of an undefined reference and prints ??, MathJax (???), Sphinx
            # and mystmd warn: the reference shows (??), `--strict` fails the build
            doc.warn(
                line0,
                col,
                f"unknown equation label {label!r} in \\eqref/\\ref"
                f"{did_you_mean(label, doc.equations, '{!r}')}: no equation of this post "
                f"has \\label{{{label}}} (or `$$ … $$ ({label})`, `{{#{label}}}`); fix the "
                "label, or label the equation",
            )


def emptiness(latex: str) -> str:
    r"""Tell what an empty-looking formula holds: "" (math), "blank", "definitions", "numbering".

    "blank": only spaces and comments (`$$ $$`, `\(\)`, an empty ```` ```math ```` fence);
    "definitions": only `\newcommand`/`\def`/`\require`/… (a post's macro preamble);
    "numbering": only `\label`/`\tag`/`\nonumber`, so the equation has no formula;
    "mark": only one `\tag*{…}` (and perhaps a `\label`), a mark at the right margin, most
    often the end of a proof (`$$\tag*{$\blacksquare$}$$`, as KaTeX and MathJax draw it).
    """
    if is_blank(latex):
        return "blank"
    try:
        definitions, body = extract_definitions(latex)
        if is_blank(body):  # `\require{…}` (MathJax's) counts as a definition
            return "definitions" if definitions or "\\require" in latex else "blank"
        if not NUMBERING.search(body):
            return ""
        rest, rows = split_numbering(body, True)
    except MathError:
        return ""  # reported when the formula is converted
    if not is_blank(rest):
        return ""
    if len(rows) == 1 and rows[0].tag is not None and rows[0].star_tag:
        return "mark"
    return "numbering" if any(row.numbered or row.tag is not None for row in rows) else "blank"


def is_end_mark(latex: str) -> bool:
    r"""Tell if a formula is only a mark at the right margin, `	ag*{$lacksquare$}`
    (`emptiness`'s "mark"): drawn as display math wherever it is written, since inline
    math has no margin (KaTeX refuses a `	ag` there, MathJax drops it)."""
    return "\\tag*" in latex and emptiness(latex) == "mark"


def _delimiter_spot(doc: RenderState, token: Any) -> tuple[int, int]:
    """Return (0-based body line, 1-based column) of a math token's opening delimiter."""
    meta = token.meta or {}
    if meta.get("fence"):  # the map starts at the fence's first content line
        line0 = token.map[0] - 1
        source = doc.source_lines[line0] if 0 <= line0 < len(doc.source_lines) else ""
        return line0, max(source.find(token.markup), 0) + 1
    line0, col = locate(doc, token, 0)
    return line0, max(col - len(meta.get("delims", ("",))[0]), 1)


# A `%` comment hiding a command on its line: `$$% <![CDATA[ \begin{align} … %]]>$$`, a
# page whose line breaks were lost (mathjax/MathJax#2274).
COMMENTED_COMMAND = re.compile(r"(?<!\\)%[^\n]*\\[A-Za-z]")


def _empty_message(token: Any, kind: str) -> str:
    """Return the warning for an empty formula of `kind` (see `emptiness`)."""
    opener, closer = (token.meta or {}).get("delims", ("", ""))
    if (token.meta or {}).get("fence"):
        name = "```math fence"
    else:
        opener = opener or closer.replace("\\end", "\\begin", 1)  # a bare environment
        name = f"`{opener}…{closer}`"
    if kind == "blank":
        what = "display math" if token.type != "math_inline" else "inline math"
        if COMMENTED_COMMAND.search(token.content):  # mathjax/MathJax#2274
            return (
                f"{what} {name} is all a TeX comment (`%` hides the rest of its line): "
                "break the line after the comment or delete the `%`"
            )
        return f"empty {what} {name}: write a formula in it or delete it"
    if token.type == "math_inline":
        return f"{name} holds only \\label/\\tag, which inline math ignores: delete it"
    return f"{name} has an equation number but no formula: write one or delete the equation"


def render_formula(token: Any, display: bool, doc: RenderState) -> str:
    r"""Convert one math token; on a math error report it and return a `math-error` span.

    An empty formula is a warning at its opening delimiter and renders as nothing, as
    does a formula holding only macro definitions (silently: that is a macro preamble);
    one holding only `\label`/`\tag` is a warning and, in display math, shows its number
    so that references to it still land somewhere.
    """
    kind = emptiness(token.content)
    if kind == "mark":  # an end-of-proof mark: drawn at the right margin, on purpose
        return _convert_token(token, True, doc)
    if kind in ("blank", "numbering"):
        doc.warn(*_delimiter_spot(doc, token), _empty_message(token, kind))
    if kind in ("blank", "definitions") or (kind == "numbering" and not display):
        return ""
    return _convert_token(token, display, doc)


def _convert_token(token: Any, display: bool, doc: RenderState) -> str:
    """Convert one math token, reporting a math error at its place (see `render_formula`)."""
    meta = token.meta or {}
    try:
        return latex_to_mathml(
            token.content,
            display=display,
            macros=meta.get("macros", doc.macros),
            equations=doc.equations,
            numbers=meta.get("numbers"),
            cache=doc.math_cache,
        )
    except MathError as exc:
        line0, col = locate(doc, token, exc.offset)
        # a warning, as Pandoc, Quarto, mystmd and KaTeX's `throwOnError: false` report a
        # formula they cannot read: the page shows its TeX, `--strict` fails the build
        message = exc.message + _escape_hint(token, exc)
        prefix = f"unsupported command {exc.command}"
        if exc.command and message.startswith(prefix):  # one warning a post a command
            doc.warn_each(prefix, line0, col, partial(_each_use, prefix, message))
        else:
            doc.warn(line0, col, message)
        return error_span(token.content, exc)


def _each_use(prefix: str, message: str, lines: list[int]) -> str:
    """Return an unsupported command's warning naming its uses after the first (a site's
    own macros, defined in its MathJax configuration, were hundreds of warnings a post)."""
    if len(lines) == 1:
        return message
    return f"{prefix} (in {len(lines)} formulas, {named_lines(lines)}){message[len(prefix) :]}"


ESCAPED_BRACE_READ = re.compile(r"(?<!\\)\\[{}]")
r"""`\{` or `\}` after no other backslash in the TeX read once Markdown's escapes were
removed: written `\\{` or `\\}` (a brace shown, no group)."""


def _escape_hint(token: Any, exc: MathError) -> str:
    r"""Return what to add to a brace error in TeX whose Markdown escapes were removed
    (`$…$` read as kramdown's, `\\(…\\)`: `postil.markdown.math._unescaped`): `\\}`
    became `\}`, a brace shown, which closes no group. Empty for any other error."""
    meta = token.meta or {}
    brace = "{" in exc.message or "}" in exc.message
    if not isinstance(exc, MathSyntaxError) or not brace or not meta.get("removed"):
        return ""
    if ESCAPED_BRACE_READ.search(token.content) is None:
        return ""
    return (
        "; Markdown's escapes were removed first, as kramdown removed them before MathJax "
        "read the TeX, so `\\\\{` and `\\\\}` were read as `\\{` and `\\}`, braces shown "
        "that open or close no group: write `\\\\{`…`\\\\}` for braces shown and `{`…`}` "
        "for a group"
    )


def error_span(latex: str, exc: MathError) -> str:
    """Return what the page shows for a formula that failed: its TeX in a `math-error` span."""
    return (
        f'<span class="math-error" title="{escape(exc.message)}">'
        f"<code>{escape(latex)}</code></span>"
    )
