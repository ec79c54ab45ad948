"""Franklin.jl's Markdown: its page variables, raw HTML blocks, figures and `\\toc`.

Franklin (franklinjl.org, "Markdown syntax") extends Markdown with lines and commands of its
own. A Franklin page is recognised by its page variables (`@def` lines, or a `+++` block of
Julia: `RenderState.front_matter_syntax` is "julia", `postil.content.franklin`); in such a
page:

- an `@def name = value` line shows nothing (the front matter reader has read it);
- `~~~` … `~~~` around HTML is raw HTML (Franklin's "raw HTML" block; elsewhere a `~~~`
  line opens a code fence, as CommonMark reads it);
- `\\fig{path}` alone on its line is the image at `path` (Franklin's `\\fig`);
- `@@name` … `@@` on lines of their own is a `<div class="name">` of Markdown;
- `\\toc` is the table of contents (for every page: `postil.markdown.toc`);
- `\\begin{theorem}{Title}{label}` … `\\end{theorem}` (and `lemma`, `definition`, `proof`…:
  `theorem.CLASSES`, `theorem.PROOFS`), environments a Franklin site defines in its
  `config.md` with `\\newenvironment` and writes on lines of their own, are postil's
  theorems (`postil.markdown.theorem`: "Theorem 1 (Title).", `label` its id), and
  `\\begin{dropdown}{Summary}` a folded callout with that title.

Franklin's own commands (`\\newcommand` for prose, `\\biblabel`, other environments a site
defines) are the site's, and not read.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from postil.content.franklin import DEF_LINE
from postil.markdown.shortcodecallout import push_callout
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import tokenize_lines
from postil.markdown.theorem import CLASSES, PROOFS

FIG = re.compile(r"\\fig\{([^{}\s]+)\}")
"""Franklin's `\\fig{path}` alone on its line: the image (or plot) at `path`."""

RAW_FENCE = "~~~"

DIV_OPEN = re.compile(r"@@([A-Za-z][\w-]*(?:,[A-Za-z][\w-]*)*)\s*")
"""Franklin's div block opening alone on its line: `@@note`, `@@row,wide` (classes)."""
DIV_CLOSE = "@@"

ENVIRONMENT = re.compile(r"\\begin\{([A-Za-z]+)\}((?:\{[^{}]*\})*)\s*")
"""A Franklin environment opening on its own line: its name, then its `{…}` arguments."""
FOLDS = frozenset({"dropdown", "details", "collapse", "spoiler"})
"""Environment names Franklin sites give a folded block."""


def franklin_plugin(md: MarkdownIt) -> None:
    """Register Franklin's block rule (module docstring): `@def` lines, raw HTML, `\\fig` and
    environments, in Franklin pages. One rule,
    before the math plugin's (a theorem's `\\begin` is no formula) and the fences (`~~~`),
    looks at a line's first character and hands it on, so a line of another page costs one
    call."""
    md.block.ruler.before(
        "math_block", "franklin", franklin_block, {"alt": ["paragraph", "reference", "blockquote"]}
    )


def franklin_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, a line by its first character (the others' checks of
    indentation and page made here once): `@` (`franklin_div`,
    `franklin_def`), `~`
    (`franklin_raw`), `\\` (`franklin_environment`, then `franklin_fig`, which does not
    end a paragraph)."""
    pos = state.bMarks[start] + state.tShift[start]
    first = state.src[pos : pos + 1]
    if first not in ("@", "~", "\\") or state.sCount[start] - state.blkIndent >= 4:
        return False
    if not _franklin(state):
        return False
    if first == "@":
        if state.src.startswith("@@", pos):
            return franklin_div(state, start, end, silent)
        return franklin_def(state, start, end, silent)
    if first == "~":
        return franklin_raw(state, start, end, silent)
    if first == "\\":
        if franklin_environment(state, start, end, silent):
            return True
        return not silent and franklin_fig(state, start, end, silent)
    return False


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _franklin(state: StateBlock) -> bool:
    return get_state(state.env).front_matter_syntax == "julia"


def franklin_def(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, an `@def name = value` line shows nothing (the front
    matter reader read it) and ends a paragraph; in another page it is the author's text."""
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("@def", pos) or not DEF_LINE.fullmatch(_line(state, start)):
        return False
    if not silent:
        state.line = start + 1
    return True


def franklin_raw(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, `~~~` lines around HTML are a raw HTML block.

    The HTML follows the opening `~~~` (on its line or the next) and ends at the next `~~~`
    (at the end of a line): Franklin keeps `~~~` for raw HTML, whatever it holds (its code
    fences are backticks); with an info string (`~~~julia`) or without a closing `~~~` it
    is CommonMark's fence.
    """
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith(RAW_FENCE, pos):
        return False
    opening = _line(state, start).strip()
    if opening != RAW_FENCE and not opening.startswith(RAW_FENCE + "<"):
        return False  # `~~~julia`: a fence
    if opening != RAW_FENCE and opening.endswith(RAW_FENCE) and len(opening) > 6:
        close, html = start, opening[3:-3]  # `~~~<a …>…</a>~~~` on one line
    else:
        close = next(
            (n for n in range(start + 1, end) if _line(state, n).rstrip().endswith(RAW_FENCE)),
            -1,
        )
        if close < 0:
            return False
        html = state.getLines(start, close + 1, state.blkIndent, True).strip()[3:-3]
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.map = [start, close + 1]
    token.content = html.strip("\n") + "\n"
    state.line = close + 1
    return True


def franklin_fig(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, `\\fig{path}` alone on its line is an image."""
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("\\fig{", pos):
        return False
    found = FIG.fullmatch(_line(state, start).rstrip())
    if found is None:
        return False
    if silent:
        return True
    state.push("paragraph_open", "p", 1).map = [start, start + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = f"![]({found.group(1)})", [start, start + 1], []
    state.push("paragraph_close", "p", -1)
    state.line = start + 1
    return True


def franklin_environment(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, a theorem-like or folding environment (module
    docstring) from its `\\begin` line to its `\\end` line; its content is Markdown."""
    pos = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("\\begin{", pos):
        return False
    found = ENVIRONMENT.fullmatch(_line(state, start))
    if found is None:
        return False
    name = found.group(1)
    if name.lower() not in CLASSES and name.lower() not in PROOFS and name.lower() not in FOLDS:
        return False  # math (`align`) or the site's own: the math plugin's
    closing = f"\\end{{{name}}}"
    close = next((n for n in range(start + 1, end) if _line(state, n).strip() == closing), None)
    if close is None:
        return False
    if silent:
        return True
    args = re.findall(r"\{([^{}]*)\}", found.group(2))
    title = args[0].strip() if args else ""
    if name.lower() in FOLDS:
        meta: dict[str, str | None] = {
            "kind": "note",
            "title": title or "Details",
            "collapse": "true",
        }
        push_callout(state, (start, close), meta, _line(state, start))
    else:
        opening = state.push("div_open", "div", 1)
        opening.map = [start, close + 1]
        opening.attrs = {"class": name.lower(), **({"title": title} if title else {})}
        label = args[1].strip() if len(args) > 1 else ""
        if label and re.fullmatch(r"[\w:.-]+", label):
            opening.attrs["id"] = label
        tokenize_lines(state, start + 1, close)
        state.push("div_close", "div", -1).map = [close, close + 1]
    state.line = close + 1
    return True


def franklin_div(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in a Franklin page, `@@name` alone on a line up to its `@@` line is a
    `<div class="name">` of Markdown (Franklin's "div blocks"; `@@a,b` gives two classes;
    they nest). Without its closing line it is text."""
    found = DIV_OPEN.fullmatch(_line(state, start))
    if found is None:
        return False
    depth, close = 1, None
    for line in range(start + 1, end):
        text = _line(state, line).strip()
        if text == DIV_CLOSE:
            depth -= 1
            if depth == 0:
                close = line
                break
        elif DIV_OPEN.fullmatch(text):
            depth += 1
    if close is None:
        return False
    if silent:
        return True
    opening = state.push("div_open", "div", 1)
    opening.map = [start, close + 1]
    opening.attrs = {"class": " ".join(found.group(1).split(","))}
    tokenize_lines(state, start + 1, close)
    state.push("div_close", "div", -1).map = [close, close + 1]
    state.line = close + 1
    return True
