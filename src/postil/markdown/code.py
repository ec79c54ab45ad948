"""Code blocks: Pygments highlighting, a file-name caption, highlighted lines, a copy button."""

from __future__ import annotations

import re
from collections.abc import MutableMapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.style import Style
from pygments.styles import get_style_by_name
from pygments.token import Error
from pygments.util import ClassNotFound

from postil.errors import did_you_mean
from postil.markdown import fenceinfo
from postil.markdown.codemarks import code_marks
from postil.markdown.diagram import is_diagram, render_diagram
from postil.markdown.fenceinfo import FenceInfo
from postil.markdown.state import RenderState, get_state, named_lines

LIGHT_STYLE = "default"
"""Pygments style for light pages; every token colour meets WCAG AA (4.5:1) on its background."""

DARK_STYLE = "github-dark"
"""Pygments style for dark pages; every token colour meets WCAG AA on its background."""

DARK_HIGHLIGHT = "#1c2636"
"""Background of `hl_lines` in dark mode.

github-dark's own (#6e7681) is too light for its text; this one keeps every token colour at
≥ 4.5:1 (tests/markdown/test_plugin_code.py measures it).
"""

HighlightKey = tuple[str, str, tuple[int, ...], bool, int]
"""(code, fence language, highlighted lines, line numbers, first line's number): what
highlighted HTML depends on."""


def code_plugin(md: MarkdownIt) -> None:
    """Render fenced and indented code with Pygments, a caption and a copy button.

    Syntax::

        ```python title="attention.py" hl_lines="3-5 8" linenos
        def attention(q, k, v): ...
        ```

    Output::

        <figure class="code">
        <figcaption class="code-title">attention.py</figcaption>
        <button type="button" class="copy-code" aria-label="Copy code" hidden>Copy</button>
        <div class="highlight"><pre tabindex="0"><code class="language-python">…</code></pre></div>
        </figure>

    Pygments emits classes, not inline styles (`pygments_css()` writes the stylesheet);
    `hl_lines` become `<span class="hll">`, line numbers `<span class="linenos">` (from
    `linenostart=N`); the forms other generators write for these options (Hugo's, MkDocs',
    Pandoc's, Quarto's, Docusaurus', VitePress', Hexo's, MyST's) are read as these
    (`postil.markdown.fenceinfo`).
    `static/js/article.js` unhides the copy buttons and copies the code's text without line
    numbers. An unknown language gives plain escaped text and a warning naming it; no language
    gives plain text silently; an option that cannot be read (unbalanced quote, unknown name,
    bad line range) is ignored with a warning. Highlighting is cached per process.
    CSS classes: code, code-title, copy-code, highlight, hll, linenos, and Pygments' token classes.
    """
    md.core.ruler.after("block", "code_listing", code_listing)
    md.add_render_rule("fence", render_fence)
    md.add_render_rule("code_block", render_code_block)


LISTING_ID = re.compile(r"\{[^{}]*#(lst-[\w:.-]*\w)")
"""Quarto's code listing: a fence's attribute list with a `#lst-` id, as in
`{#lst-q .sql lst-cap="Query"}`."""


def code_listing(state: StateCore) -> None:
    """Core rule: number Quarto's code listings (the figure plugin's counter, kind "listing"),
    so the block is "Listing 1: Query" and `@lst-q` refers to it (`postil.markdown.xref`)."""
    if "#lst-" not in state.src:
        return
    for token in state.tokens:
        found = LISTING_ID.match(token.info.strip()) if token.type == "fence" else None
        if found:
            token.meta["figure"] = {"id": found[1], "kind": "listing"}


NO_LANGUAGE = frozenset({"default", "plain", "plaintext", "txt", "none", "nohighlight", "nil"})
"""Names other generators give code that has no language: Quarto's and Pandoc's `default`,
highlight.js' `plaintext` (and its alias `txt`, which Shiki and Prism's plugins read too) and
`nohighlight`, Org mode's `nil` (ox-hugo writes ```` ```nil ````): shown as Pygments'
`text`, without a warning."""


def parse_info(info: str) -> FenceInfo:
    """Parse a fence's info string (`postil.markdown.fenceinfo`), `NO_LANGUAGE` as `text`."""
    return fenceinfo.parse_info(info, NO_LANGUAGE)


class _CodeFormatter(HtmlFormatter):  # type: ignore[type-arg]
    """Pygments' HTML formatter with a focusable `<pre>` (axe: scrollable regions) and a
    `language-*` class on `<code>` (the HTML spec's convention for code languages)."""

    def wrap(self, source: Any) -> Any:
        """Wrap the highlighted lines in `<pre tabindex="0"><code>` (Pygments' documented hook)."""
        language = escapeHtml(self.options.get("language", ""))
        yield 0, f'<pre tabindex="0"><code class="language-{language}">'
        yield from source
        yield 0, "</code></pre>"


def highlight_code(
    code: str,
    lexer: Lexer,
    hl_lines: tuple[int, ...],
    linenos: bool,
    language: str = "",
    linenostart: int = 1,
    cache: MutableMapping[HighlightKey, str] | None = None,
) -> str:
    """Return `<div class="highlight"><pre …><code …>` HTML for `code`, kept in `cache`.

    Args:
        cache: highlighted HTML by `HighlightKey` (`RenderState.highlight_cache`), or None.
        language: the fence's language as written (`py`), the cache key's part for the
            lexer (`cached_highlight` finds it without looking the lexer up); "" means the
            lexer's first alias.
    """
    alias = lexer.aliases[0] if lexer.aliases else lexer.name
    key = (code, language or alias, hl_lines, linenos, linenostart)
    cached = cache.get(key) if cache is not None else None
    if cached is None:
        cached = highlight(code, lexer, _formatter(alias, hl_lines, linenos, linenostart))
        if cache is not None:
            cache[key] = cached
    return cached


@lru_cache(maxsize=256)
def _formatter(
    language: str, hl_lines: tuple[int, ...], linenos: bool, linenostart: int = 1
) -> _CodeFormatter:
    """Return one formatter per option set (a formatter keeps no state between `format` calls,
    and making one computes its style tables: ≈ 0.16 ms)."""
    return _CodeFormatter(
        cssclass="highlight",
        hl_lines=list(hl_lines),
        linenos="inline" if linenos else False,
        linenostart=linenostart,
        language=language,
    )


def _plain_code(code: str) -> str:
    """Return escaped, unhighlighted code in the same wrapper as highlighted code."""
    return (
        f'<div class="highlight"><pre tabindex="0"><code class="language-text">'
        f"{escapeHtml(code)}</code></pre></div>\n"
    )


MARKDOWN_DIALECTS = frozenset({"rmd", "rmarkdown", "qmd", "quarto", "myst", "mdx", "gfm"})
"""Fence languages naming a Markdown dialect Pygments has no lexer of (R Markdown and
Quarto sources shown in their tutorials, MyST, MDX, GitHub's): highlighted as Markdown."""


FOREIGN_NAMES = {
    "jsonc": "json",
    "ipython": "python",
    "ipython3": "python",
    "shellsession": "console",
    "sh-session": "console",
    "cmd": "batch",
    "vb": "vbnet",
    "rscript": "r",
}
"""Names other highlighters give a language that Pygments lexes under another name: Shiki's
and GitHub Linguist's `jsonc` (JSON with comments, which Pygments' JSON lexer reads),
`shellsession`/`sh-session`, `cmd`, `vb`, `rscript`; IPython's own Pygments lexers,
`ipython3` (the lexer Jupyter notebooks name, MyST-NB's code cells) and `ipython`, present
where Sphinx and Jupyter Book run but not in Pygments."""


@lru_cache(maxsize=256)
def lexer_for(language: str) -> Lexer | None:
    """Return the Pygments lexer for a language name or alias, or None if there is none;
    Prism's `diff-<language>` (Eleventy's, Docusaurus') is read as a diff, a Markdown
    dialect (`MARKDOWN_DIALECTS`: ```` ```rmd ````) as Markdown.

    Cached: the lookup costs ≈ 0.1 ms, and a lexer keeps no state between `get_tokens` calls.
    """
    try:
        return get_lexer_by_name(
            FOREIGN_NAMES.get(language.lower(), language), stripnl=False, ensurenl=True
        )
    except ClassNotFound:
        if language.lower().startswith("diff-"):  # Prism's `diff-js`: a diff of JavaScript
            return lexer_for("diff")
        if language.lower() in MARKDOWN_DIALECTS:
            return lexer_for("markdown")
        return None


@lru_cache(maxsize=1)
def _language_names() -> tuple[str, ...]:
    """Return every Pygments lexer's short names (`python`, `py`, `bash`, …)."""
    return tuple(alias for _, aliases, _, _ in get_all_lexers() for alias in aliases)


def _nearest_language(language: str) -> str:
    """Return " (did you mean `python`?)" for a mistyped language (`pyhton`), or ""."""
    return did_you_mean(language.lower(), _language_names())


def _warn_unknown_language(state: RenderState, language: str, line0: int | None) -> None:
    """Warn once a post of each unknown code language, at its first code block, naming the
    lines of the others (a blog's own `input1`/`output1` fences, one per sample, made
    hundreds of warnings that said one thing)."""

    def message(lines: list[int]) -> str:
        where = f" in {len(lines)} code blocks ({named_lines(lines)})" if len(lines) > 1 else ""
        return (
            f"unknown code language {language!r}{_nearest_language(language)}, shown as plain "
            f"text{where}; use a Pygments short name such as python, bash or text "
            "(https://pygments.org/languages/)"
        )

    state.warn_each(f"language {language}", line0, 1, message)


def render_fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render a fenced code block as a `<figure class="code">`, reporting unusable options."""
    token = tokens[idx]
    info = parse_info(token.info)
    line0 = token.map[0] if token.map else None
    state = get_state(env)
    for problem in info.problems:
        state.warn(line0, 1, problem)
    if not info.language and (written := class_language(token)):
        info = replace(info, language=written)
    if is_diagram(info.language):
        return render_diagram(token.content, _title(token, info), token.meta, state)
    code, marked = code_marks(token.content)  # Shiki's `[!code …]`, Docusaurus' comments
    if marked:
        info = replace(info, hl_lines=tuple(sorted({*info.hl_lines, *marked})))
    if info.language:  # only a known language was highlighted and cached
        # A hit needs no lexer: looking one up costs ≈ 30 ms the first time in a process
        # (its regular expressions are compiled), more than re-rendering a post.
        key = (code, info.language, info.hl_lines, info.linenos, info.linenostart)
        known = state.highlight_cache.get(key)
        if known:
            return _code_figure(known, _title(token, info), token.meta)
    lexer = lexer_for(info.language) if info.language else None
    if info.language and lexer is None:
        _warn_unknown_language(state, info.language, line0)
    if lexer is None:
        body = _plain_code(code)
    else:
        body = highlight_code(
            code,
            lexer,
            info.hl_lines,
            info.linenos,
            info.language,
            info.linenostart,
            state.highlight_cache,
        )
    return _code_figure(body, _title(token, info), token.meta)


def is_diagram_block(token: Token) -> bool:
    """Return whether a `fence` or `code_block` token is a diagram `render_fence` draws: its
    info string's language or its kramdown `{: .mermaid}` names one
    (`postil.markdown.diagram.is_diagram`)."""
    language = parse_info(token.info).language if token.type == "fence" else ""
    return is_diagram(language or class_language(token))


def class_language(token: Token) -> str:
    """Return the language a kramdown attribute list under a code block gives it by class,
    or "": `{: .language-ruby}` (kramdown, "Code Blocks": "Language of Code Blocks"), and
    `{: .mermaid}`/`{: class="mermaid"}`, a diagram as Mermaid's page script finds it."""
    written = (token.meta or {}).get("attrs", {}).get("class", "")
    for name in str(written).split():
        if name.startswith("language-") and len(name) > len("language-"):
            return name.removeprefix("language-")
        if is_diagram(name):
            return name.lower()
    return ""


def _title(token: Token, info: FenceInfo) -> str:
    """Return a code block's caption: from its info string, else from a kramdown attribute
    line under it (Chirpy's `{: file='_sass/main.scss' }`, "Writing a New Post": Filename;
    `title=` and `filename=` read the same)."""
    if info.title:
        return info.title
    written = (token.meta or {}).get("attrs", {})
    return str(written.get("file") or written.get("title") or written.get("filename") or "")


CODEHILITE_HEAD = re.compile(
    r"(?:(?P<colons>:{2,})|(?P<shebang>#!))(?P<path>(?:/\w+)*[/ ])?(?P<language>[\w#.+-]+)"
    r"[ \t]*(?:hl_lines=(?P<quote>[\"'])(?P<lines>[\d ]*)(?P=quote))?[ \t]*"
)
"""Python-Markdown's CodeHilite (Pelican's and MkDocs' Markdown): an indented block's first
line `:::python` names its language and goes, `#!python` also turns line numbers on, and a
shebang with a path (`#!/usr/bin/python`) stays in the code and names the language; each may
end with `hl_lines="1 3"`. From its documentation, "CodeHilite", "Colons" and "Shebang". A
name Pygments does not know leaves the block as written (`::: note` is text shown as code)."""


def render_code_block(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render an indented code block as plain text in the same figure as fenced code, or
    highlighted in the language its first line names the CodeHilite way (`CODEHILITE_HEAD`)."""
    token = tokens[idx]
    first, _, rest = token.content.partition("\n")
    head = CODEHILITE_HEAD.fullmatch(first)
    if head is None and (written := class_language(token)):  # `{: .language-ruby}` under it
        fence = Token("fence", "code", 0, map=token.map, info=written, content=token.content)
        fence.meta = token.meta
        return render_fence(self, [fence], 0, options, env)
    if head is None or lexer_for(head["language"]) is None:  # `::: note` is no language
        return _code_figure(_plain_code(token.content), "")
    fence = Token("fence", "code", 0, map=token.map)
    options_written = [head["language"]]
    if head["shebang"]:
        options_written.append("linenos")
    if head["lines"]:
        options_written.append(f'hl_lines="{head["lines"]}"')
    fence.info = " ".join(options_written)
    fence.content = token.content if head["shebang"] and head["path"] else rest
    return render_fence(self, [fence], 0, options, env)


def _code_figure(body: str, title: str, meta: dict[str, Any] | None = None) -> str:
    """Wrap highlighted code in a figure with an optional caption and a copy button; a
    numbered listing (`code_listing`) has its id and "Listing 1" before its caption."""
    listing = (meta or {}).get("figure")
    number = (meta or {}).get("figure_number")
    label = f'<span class="figure-label">Listing {number}</span> ' if listing and number else ""
    text = label + escapeHtml(title)
    caption = f'<figcaption class="code-title">{text.rstrip()}</figcaption>\n' if text else ""
    ident = f' id="{escapeHtml(listing["id"])}"' if listing else ""
    return (
        f'<figure class="code"{ident}>\n{caption}'
        '<button type="button" class="copy-code" aria-label="Copy code" hidden>Copy</button>\n'
        f"{body}</figure>\n"
    )


def pygments_css() -> str:
    """Return the Pygments stylesheet: light rules, then dark ones for both dark-mode switches.

    Dark rules apply on screens under `@media (prefers-color-scheme: dark)` unless the page
    sets `data-theme="light"` on `<html>`, and under `:root[data-theme="dark"]` (the manual
    toggle); paper is light (the theme's print rules), so printed code keeps the light
    style. Dark rules first reset every token span, so a light colour the dark style does
    not override never leaks into dark mode.
    """
    light = _style_rules(LIGHT_STYLE, ".highlight")
    auto = _indented(_dark_rules(':root:not([data-theme="light"])'))
    manual = _indented(_dark_rules(':root[data-theme="dark"]'))
    return (
        f"{light}\n@media screen and (prefers-color-scheme: dark) {{\n{auto}\n}}\n"
        f"@media screen {{\n{manual}\n}}\n"
    )


def _indented(css: str) -> str:
    """Return CSS rules indented one level (inside an `@media` block)."""
    return "\n".join("  " + line for line in css.splitlines())


def _without_error_marks(name: str) -> type[Style]:
    """Return the Pygments style `name` with its Error token unstyled (shown as plain code).

    A lexer marks what it cannot read as Error, and the styles draw it boxed in red
    (`default`) or in red (`github-dark`): PostgreSQL's `$1` and `$$` under `sql`, JSX under
    `js`. In a post that is the lexer's limit, not the author's mistake, and a reader takes
    the box for one (pygments/pygments#897, sphinx-doc/sphinx#1494, whose answer is another
    lexer); so the text is shown as the code around it.
    """
    base = get_style_by_name(name)
    return type(base.__name__, (base,), {"styles": {**base.styles, Error: ""}})


def _style_rules(style: str, prefix: str) -> str:
    """Return a Pygments style's background and token rules under `prefix`.

    Pygments' line-number rules are left out: they are unscoped (`pre`, `span.linenos`) and
    would leak across styles; `static/css/article.css` styles `.linenos` with the page colours.
    """
    formatter = HtmlFormatter(style=_without_error_marks(style))
    background = formatter.get_background_style_defs(prefix)
    tokens = formatter.get_token_style_defs(prefix)
    return "\n".join([*background, *tokens])


def _dark_rules(scope: str) -> str:
    """Return the dark style's rules, each selector prefixed with `scope`."""
    prefix = f"{scope} .highlight"
    rules = _style_rules(DARK_STYLE, prefix)
    reset = (
        f"{prefix} span {{ color: inherit; background-color: transparent; "
        "font-style: inherit; font-weight: inherit; border: none }"
    )
    hll = f"{prefix} .hll {{ background-color: {DARK_HIGHLIGHT} }}"
    return f"{reset}\n{rules}\n{hll}"
