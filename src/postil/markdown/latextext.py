r"""LaTeX's text commands written in a post's prose: `\textbf{…}`, `\emph{…}`, `\href{…}{…}`.

Posts carried over from LaTeX notes keep some of LaTeX's text markup outside math:
`\paragraph{Power function} The power function $\beta(\theta)$ …`, `a \emph{uniformly}
most powerful test`, `\href{https://…}{the paper}`. MathJax and KaTeX typeset only math,
so the page the author had showed the commands as written; Pandoc's Markdown reader keeps
them as raw LaTeX, which its HTML writer leaves out. postil reads the common ones as what
LaTeX sets (LaTeX2e's `source2e`, "Font commands" and "Sectioning"):

| command | output |
| --- | --- |
| `\textbf{x}` | `<strong>` |
| `\emph{x}`, `\textit{x}`, `\textsl{x}` | `<em>` |
| `\texttt{x}` | `<code>` (its text as written) |
| `\paragraph{x}`, `\subparagraph{x}` | a run-in heading: `<strong>` |
| `\href{url}{x}`, `\url{url}` | a link |

The argument is read as Markdown (math in it is typeset), up to its matching `}` in the
same paragraph. A command without a braced argument, an argument that does not close,
`\\textbf{…}` (an escaped backslash) and commands inside code spans and math stay as
written.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from postil.math.delimiters import closers_for

COMMAND = re.compile(r"\\(textbf|emph|textit|textsl|texttt|paragraph|subparagraph|href|url)\{")
"""A text command and its argument's opening brace: group 1 the name."""

WRAPS = {
    "textbf": "strong",
    "paragraph": "strong",
    "subparagraph": "strong",
    "emph": "em",
    "textit": "em",
    "textsl": "em",
}
"""The commands whose argument is Markdown wrapped in one element, by that element."""


def latextext_plugin(md: MarkdownIt) -> None:
    r"""Read LaTeX's text commands in prose as the HTML LaTeX sets.

    Syntax::

        \paragraph{Size} The \emph{size} of a test is its \textbf{largest} error rate,
        see \href{https://example.org/}{the notes}.

    Output: `<strong>`, `<em>`, `<code>` and `<a>` elements (markdown-it's own tokens).
    CSS classes: none.
    """
    md.inline.ruler.before("escape", "latex_text", latex_text)


def latex_text(state: StateInline, silent: bool) -> bool:
    r"""Inline rule: `\name{…}` (`COMMAND`) as its element, its argument's inline tokens
    inside; `\href` reads two arguments, the first a URL."""
    if state.src[state.pos] != "\\":
        return False
    found = COMMAND.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    arguments = [_argument_end(state, found.end())]
    if found[1] == "href" and arguments[0] > 0:
        second = arguments[0] + 1
        has_brace = second < state.posMax and state.src[second] == "{"
        arguments.append(_argument_end(state, second + 1) if has_brace else -1)
    if min(arguments) < 0:
        return False
    if found[1] in ("href", "url"):  # markdown-it's own check: no `javascript:` links
        url = state.md.normalizeLink(_text(state.src[found.end() : arguments[0]].strip()))
        if not state.md.validateLink(url):
            return False
    if not silent:
        _push(state, found[1], found.end(), arguments)
    state.pos = arguments[-1] + 1
    return True


def _push(state: StateInline, name: str, start: int, ends: list[int]) -> None:
    """Push the tokens of command `name` whose first argument starts at `start` and whose
    arguments end (at their `}`) at `ends`."""
    if name == "texttt":
        state.push("code_inline", "code", 0).content = _text(state.src[start : ends[0]])
        return
    if name in WRAPS:
        tag = WRAPS[name]
        state.push(f"{tag}_open", tag, 1).markup = f"\\{name}"
        _tokenize(state, start, ends[0])
        state.push(f"{tag}_close", tag, -1).markup = f"\\{name}"
        return
    url = _text(state.src[start : ends[0]].strip())
    link = state.push("link_open", "a", 1)
    link.attrs = {"href": state.md.normalizeLink(url)}  # checked by `latex_text`
    if name == "href":
        _tokenize(state, ends[0] + 2, ends[1])
    else:
        state.push("text", "", 0).content = url
    state.push("link_close", "a", -1)


ESCAPED_CHARACTER = re.compile(r"\\textbackslash(?![A-Za-z])\s*(?:\{\})?|\\([!-/:-@\[-`{-~])")
r"""LaTeX's escaped special characters, which are Markdown's escapes too (`\_`, `\%`, `\#`,
`\&`, `\{`, `\$`), and `\textbackslash`: a backslash."""


def _text(argument: str) -> str:
    r"""Return the characters a verbatim argument shows: `\texttt{snake\_case}` is
    `snake_case`, `\href{https://e.org/a\_b}` links to `a_b` (LaTeX's and Markdown's
    escapes of special characters)."""
    return ESCAPED_CHARACTER.sub(lambda m: m[1] or "\\", argument)


def _tokenize(state: StateInline, start: int, end: int) -> None:
    """Run the inline rules over `state.src[start:end]`, as the link rule reads its text."""
    old_pos, old_max = state.pos, state.posMax
    state.pos, state.posMax = start, end
    state.md.inline.tokenize(state)
    state.pos, state.posMax = old_pos, old_max


def _argument_end(state: StateInline, start: int) -> int:
    """Return the index of the `}` closing the argument whose `{` is at `start - 1`, or -1
    when it does not close before `state.posMax` (`\\{` is no brace: the paragraph's
    `Closers.group_end`, one scan for all its groups)."""
    end = closers_for(state.src, state.env).group_end(start - 1)
    return end if end < state.posMax else -1
