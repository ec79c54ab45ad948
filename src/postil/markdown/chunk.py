"""Executable code chunks of Quarto and R Markdown, shown as code (postil runs no code).

Quarto and knitr run fences like ```` ```{r} ```` or ```` ```{python} ```` and show their
output; the chunk's options are in the header (`{r, echo=FALSE, out.width="50%"}`) or in
`#|` lines at the top of the code. A post moved to postil keeps the code: it is shown as a
code block in its language, without the options, and the post gets one warning saying so.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, fence
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from postil.markdown.code import lexer_for
from postil.markdown.diagram import diagram_cell, is_diagram
from postil.markdown.references import locate
from postil.markdown.state import get_state
from postil.widgets import known_widgets

CHUNK_INFO = re.compile(r"\{\s*([A-Za-z][\w+-]*)(?=[\s,}])(.*)\}\s*\Z", re.S)
"""A chunk's fence info string: `{engine …}`; group 1 the engine, group 2 the options."""

PANDOC_INFO = re.compile(r"\{\s*\.([A-Za-z][\w+-]*)[^{}]*\}\s*\Z")
"""A Pandoc attribute fence (`{.python .numberLines}`): not run; `postil.markdown.fenceinfo`
reads its language (the first class) and options."""

ENGINES = {
    "r": "r",
    "python": "python",
    "julia": "julia",
    "ojs": "javascript",
    "js": "javascript",
    "bash": "bash",
    "sh": "bash",
    "sql": "sql",
    "rcpp": "cpp",
    "stan": "stan",
    "octave": "octave",
    "dot": "dot",
    "tikz": "latex",
    "asy": "text",
    "c": "c",
    "cc": "cpp",
    "cpp": "cpp",
    "fortran": "fortran",
    "go": "go",
    "haskell": "haskell",
    "node": "javascript",
    "perl": "perl",
    "ruby": "ruby",
    "scala": "scala",
    "zsh": "zsh",
    "css": "css",
    "sass": "sass",
    "scss": "scss",
    "sas": "sas",
    "stata": "stata",
    "glue": "text",
    "glue_sql": "sql",
    "psql": "postgresql",
    "mysql": "mysql",
    "rscript": "r",
    "exec": "text",
    "cat": "text",
    "asis": "text",
    "verbatim": "text",
    "embed": "text",
    "ditaa": "text",
    # Quarto extensions whose cells run in the reader's browser: quarto-webr, quarto-pyodide,
    # quarto-live (no server runs them; shown as code all the same)
    "webr-r": "r",
    "webr": "r",
    "pyodide-python": "python",
    "pyodide": "python",
}
"""Quarto and knitr engines (lower case) and the Pygments language their code is shown in.

knitr's engine list (`names(knitr::knit_engines$get())`) with Quarto's own and its
extensions' browser-run cells (`{webr-r}`, `{pyodide-python}`): a `{tikz}`
chunk is a picture drawn from TeX that postil cannot draw, so it is shown as its TeX.
"""

RAW_INFO = re.compile(r"\{\s*=\s*([A-Za-z][\w-]*)\s*\}\s*\Z")
"""A Pandoc raw block's fence info (`{=html}`): its content is output of that format as it is."""

HTML_FORMATS = frozenset({"html", "html4", "html5"})
"""Raw formats that are HTML: kept as raw HTML; any other (`{=latex}`) is left out, as Pandoc
leaves it out of HTML."""

LABEL_OPTION = re.compile(r"[ \t]*(?:#|//|--)\|\s*label:\s*[\"']?([\w:.-]+)")
"""A chunk's label option line (`#| label: fig-scatter`)."""

OPTION_LINE = re.compile(r"[ \t]*(#|//|--)\|.*(\n|\Z)")
"""An option line at the top of a chunk: `#| echo: false` (`//|` or `--|` in some languages)."""


def chunk_plugin(md: MarkdownIt) -> None:
    """Show executable chunks as code blocks in their language, options stripped.

    Syntax::

        ```{r, fig.width=6, out.width="50%"}
        #| label: fig-scatter
        #| echo: false
        plot(x, y)
        ```

    becomes the code block ```` ```r ```` holding `plot(x, y)`, rendered by the code plugin.
    An engine is a knitr/Quarto one (`ENGINES`) that is not a postil widget's name; a
    Pandoc attribute fence (`{.python}`) is plain code in that language. The post gets one
    warning, at its first chunk, counting them (chunks are shown, not run); a widget fence
    (`{name}` naming a widget) is left to the widget plugin. No CSS classes.
    """
    md.core.ruler.before("widget", "chunk", chunk)
    md.core.ruler.after("inline", "chunk_inline", chunk_inline)
    alt = ["paragraph", "reference", "blockquote", "list"]
    md.block.ruler.before("fence", "chunk_fence", chunk_fence, {"alt": alt})


KNITR_HEADER = re.compile(r"(`{3,})[ \t]*\{[A-Za-z][\w+-]*(?=[\s,}]).*\}[ \t]*\Z")
"""knitr's chunk header (its `all_patterns$md$chunk.begin`): a backtick fence, then the
engine and options in braces, which may hold backticks (`fig.cap="the `x` axis"`)."""

BACKTICK_STANDIN = "\ue000"
"""What a header's backticks are while markdown-it's fence rule reads it (one character
for one, so every offset stays valid)."""


def chunk_fence(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: in an R Markdown or Quarto source, a chunk header holding backticks
    (```` ```{r, fig.cap="include_graphics with `out.width`"} ````) opens a fence.

    CommonMark's backtick fence takes no backtick in its info string, so markdown-it read
    the line as text and the chunk's closing ```` ``` ```` as an opening fence that then
    swallowed the rest of the post; knitr finds chunks by its own pattern (`KNITR_HEADER`)
    before Pandoc reads anything. markdown-it's fence rule runs with the header's
    backticks swapped for a stand-in, and the token's info gets them back.
    """
    if state.is_code_block(start):
        return False
    begin = state.bMarks[start] + state.tShift[start]
    line = state.src[begin : state.eMarks[start]]
    header = KNITR_HEADER.match(line) if line.startswith("```") else None
    if header is None or "`" not in line[header.end(1) :]:
        return False
    if not get_state(state.env).path.lower().endswith(QUARTO_SUFFIXES):
        return False
    info_at = begin + header.end(1)
    original = state.src
    info = original[info_at : state.eMarks[start]].replace("`", BACKTICK_STANDIN)
    state.src = original[:info_at] + info + original[state.eMarks[start] :]
    try:
        found = fence(state, start, end, silent)
    finally:
        state.src = original
    if found and not silent:
        state.tokens[-1].info = state.tokens[-1].info.replace(BACKTICK_STANDIN, "`")
    return found


def chunk(state: StateCore) -> None:
    """Core rule: re-type chunk fences as plain code fences; warn once per post.

    Pandoc's raw blocks (`{=html}`) become raw HTML, or go when of another format; knitr's
    `{comment}` chunks go (that engine comments its lines out). The labels of the chunks
    (`#| label: tbl-x`) are kept in `extra["chunk_labels"]`: a cross-reference to what a
    chunk would make says so (`postil.markdown.xref`).
    """
    if any(token.type == "fence" and "{" in token.info for token in state.tokens):
        state.tokens[:] = [token for token in state.tokens if not _raw_or_comment(token)]
    widgets = _Widgets()
    quarto = get_state(state.env).path.lower().endswith(QUARTO_SUFFIXES)
    chunks = [
        token for token in state.tokens if token.type == "fence" and _retype(token, widgets, quarto)
    ]
    if not chunks:
        return
    hidden = {id(token) for token in chunks if hidden_chunk(token)}
    if hidden:  # the author hid them; postil runs nothing, so nothing of them shows
        state.tokens[:] = [token for token in state.tokens if id(token) not in hidden]
        chunks = [token for token in chunks if id(token) not in hidden]
    if not chunks:
        return
    labels = get_state(state.env).extra.setdefault("chunk_labels", set())
    labels.update(label for token in chunks for label in token.meta["chunk"]["labels"])
    engines = sorted({token.meta["chunk"]["engine"] for token in chunks})
    first = next(t.info for t in chunks if t.meta["chunk"]["engine"] == engines[0])
    get_state(state.env).warn(
        chunks[0].map[0] if chunks[0].map else None,
        1,
        f"{len(chunks)} executable code chunk(s) ({', '.join(f'{{{e}}}' for e in engines)})"
        " are shown as code, not run, and their options are ignored: postil does not "
        "execute code; paste the output (an image, a table) after the chunk, and write "
        f"```{first} to show code without this warning",
    )


INLINE_CHUNK = re.compile(r"(?:r|\{(?:r|python|julia|ojs)\})[ \t]+\S")
"""An inline chunk's code span in a Quarto or R Markdown source: knitr's `` `r x` `` and
Quarto's `` `{python} x` ``, replaced by the value of `x` when the document is knitted."""

QUARTO_SUFFIXES = (".qmd", ".rmd", ".rmarkdown")
"""Sources whose code spans knitr or Quarto may run (in a `.md` post they are code)."""


def chunk_inline(state: StateCore) -> None:
    """Core rule: warn once per Quarto or R Markdown post at its first inline chunk
    (`INLINE_CHUNK`): shown as the code it is, where the page would show its value."""
    doc = get_state(state.env)
    if not doc.path.lower().endswith(QUARTO_SUFFIXES):
        return
    found = [
        (block, child.content)
        for block in state.tokens
        if block.type == "inline" and block.children
        for child in block.children
        if child.type == "code_inline" and INLINE_CHUNK.match(child.content)
    ]
    if found:
        block, code = found[0]
        doc.warn(
            *locate(doc, block.map, code),
            f"{len(found)} inline code chunk(s) (`{code}`) are shown as code, not run: "
            "postil does not execute code; write the value in their place",
        )


class _Widgets:
    """The names of the widgets, listed on the first question (`known_widgets` reads every
    installed distribution's entry points: ≈ 1 ms, and most posts have no chunk)."""

    def __init__(self) -> None:
        self._names: set[str] | None = None

    def __contains__(self, name: str) -> bool:
        if self._names is None:
            self._names = set(known_widgets())
        return name in self._names


def _raw_or_comment(token: Token) -> bool:
    """Turn a `{=html}` fence into an `html_block`; return whether the token goes: a raw
    block of another format, or a `{comment}` chunk."""
    if token.type != "fence":
        return False
    info = token.info.strip()
    raw = RAW_INFO.match(info)
    if raw is not None:
        if raw.group(1).lower() not in HTML_FORMATS:
            return True
        token.type, token.tag, token.info, token.markup = "html_block", "", "", ""
        return False
    found = CHUNK_INFO.match(info)
    return found is not None and found.group(1).lower() == "comment"


def _retype(token: Token, widgets: _Widgets, quarto: bool) -> bool:
    """Give a chunk or Pandoc fence its plain language; return whether it is a chunk.

    In a Quarto or R Markdown source (`quarto`) any `{name}` that is no widget is a chunk,
    of an engine `ENGINES` lacks too (`{latex}`: knitr warns and goes on), shown in the
    language Pygments knows by that name, else as text.
    """
    info = token.info.strip()
    if PANDOC_INFO.match(info):  # shown, not run: the code plugin reads its attributes
        return False
    match = CHUNK_INFO.match(info)
    engine = match.group(1).lower() if match else ""
    if match is not None and is_diagram(engine):  # Quarto draws it, runs nothing
        diagram_cell(token)
        return False
    if match is None or engine in widgets or engine not in ENGINES and not quarto:
        return False
    token.info = ENGINES.get(engine) or (engine if lexer_for(engine) else "text")
    options = match.group(2).strip(" ,")
    labels = LABEL_OPTION.findall(token.content)
    header = HEADER_LABEL.match(options)
    labels += [header.group(1)] if header else []
    code = _without_options(token.content)
    hidden = bool(HIDDEN_OPTION.search(token.content[: len(token.content) - len(code)]))
    token.content = code
    token.meta["chunk"] = {"engine": engine, "options": options, "labels": labels}
    token.meta["chunk"]["hidden"] = hidden
    return True


HIDDEN_HEADER = re.compile(r"(?:^|[\s,])include\s*=\s*(?:F|FALSE)\b")
"""knitr's `include=FALSE` (or `F`) among a chunk header's options."""

HIDDEN_OPTION = re.compile(r"[ \t]*(?:#|//|--)\|\s*include:\s*false\s*$", re.M)
"""Quarto's `#| include: false` option line."""


def hidden_chunk(token: Token) -> bool:
    """Return whether a chunk (`_retype` has read it) shows nothing where its document is
    knitted: knitr's `include=FALSE` or Quarto's `#| include: false` ("include: Include
    the chunk output in the document. If false, nothing will be included, but the chunk
    is still executed", knitr's and Quarto's options). Its code is setup the author hid
    (`knitr::opts_chunk$set(…)`, `library(…)`): postil, which runs nothing, leaves it out."""
    chunk = token.meta["chunk"]
    return bool(HIDDEN_HEADER.search(chunk["options"]) or chunk.get("hidden"))


HEADER_LABEL = re.compile(r"(?:label\s*=\s*)?[\"']?([A-Za-z][\w:.-]*)[\"']?\s*(?:,|\Z)")
"""A label in a chunk's header: knitr's first unnamed option (`{r fig-x, echo=FALSE}`) or
`label="fig-x"`."""


def _without_options(code: str) -> str:
    """Return chunk code without its leading option lines (`#| echo: false`)."""
    at = 0
    while True:
        match = OPTION_LINE.match(code, at)
        if match is None:
            return code[at:]
        at = match.end()
