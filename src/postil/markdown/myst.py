r"""MyST Markdown (Jupyter Book, MyST-NB): its directives, roles and targets.

MyST writes Sphinx directives as fences whose info is `{name} argument` (backticks, tildes,
or, for the directives read as blocks, colons: `:::{note}`), their options as
`:key: value` lines at the top of the body, roles as `` {name}`text` `` and targets as a
`(label)=` line. postil reads the ones a math post is made of with its own features, and
says which it does not do:

- ```` ```{math} ```` (`:label: eq-x` numbers it, as `\label` does) is display math;
- ```` ```{code-cell} ipython3 ````, `{code-block}`, `{code}` are code in their language
  (a code cell is an executable chunk: shown, not run, `postil.markdown.chunk`);
- `{index}`, `{contents}` (postil's own table of contents is shown instead), a `{raw}`
  block of another format than HTML, and sphinx-exercise's `{exercise-start}`,
  `{exercise-end}`, `{solution-start}`, `{solution-end}` (their content is the post's
  between them) are left out; `{raw} html` is raw HTML;
- admonitions (`{note}`, `{warning}`, `{admonition} Title`, …), sphinx-exercise's
  `{exercise}` and `{solution}`, sphinx-proof's `{prf:theorem}` & co. are callouts whose
  body is Markdown (`:class: dropdown` folds one); `{epigraph}` is a block quote;
  `{figure} path` is a figure whose body is its caption, `{image} path` an image;
- any other directive is shown as code with one warning per name;
- roles: `` {math}`x` `` is inline math, `` {eq}`label` `` the equation's number as
  `\eqref` writes it, `` {ref}`text <label>` ``, `` {doc}`text <file>` `` and
  `` {index}`text <entry>` `` their text; others are their text with a warning;
- `$$ … $$ (label)`, MyST's labelled display math, is read by `postil.markdown.math`;
- a `(label)=` line is left out (a target for `{ref}`).

Sources: MyST-Parser's syntax reference ("Directives", "Roles", "Targets"), myst-nb's
`code-cell`, sphinx-exercise's gated directives. No CSS classes.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline

from postil.markdown.attrlist import clean_attributes
from postil.markdown.figure import push_figure
from postil.markdown.references import locate
from postil.markdown.state import get_state

DIRECTIVE = re.compile(r"\{([A-Za-z][\w:-]*)\}\s*(.*)\Z")
"""A MyST directive fence's info: `{name} argument`."""

OPTION = re.compile(r":([\w-]+):\s*(.*)\Z")
"""A directive option line at the top of its body: `:label: eq-x`."""

CODE = {"code-cell", "code-block", "code", "sourcecode"}
"""Directives whose body is code in the language their argument names."""

LANGUAGES = {"ipython3": "python", "ipython": "python", "python3": "python"}
"""Jupyter kernel names as the language they are."""

LEFT_OUT = {
    "index",
    "contents",
    "tableofcontents",
    "exercise-start",
    "exercise-end",
    "solution-start",
    "solution-end",
}
"""Directives left out: an index entry, a table of contents (the page has its own), and
sphinx-exercise's gated markers around content that is the post's own."""

UNSUPPORTED = frozenset(
    "toctree glue glue:figure glue:math glue:text bibliography list-table csv-table table "
    "margin sidebar dropdown tab-set tab-item card grid grid-item grid-item-card "
    "literalinclude include only rubric topic versionadded versionchanged deprecated "
    "jupyter-execute pull-quote highlights tabbed div iframe video youtube".split()
)
"""MyST and Sphinx directives postil has no equivalent for: shown as code with a warning.
A `{name}` fence naming none of the directives here is left to the chunk and widget
plugins (`{python}` is a Quarto chunk, `{temperature}` a widget)."""

ROLE = re.compile(r"\{([A-Za-z][\w:-]*)\}(`+)(.+?)\2", re.S)
"""A MyST role: `` {name}`text` ``."""

TEXT_ROLES = {"ref", "doc", "index", "numref", "term", "abbr"}
"""Roles shown as their text (`text <target>` as `text`): their targets are other pages
or Sphinx's index, which a post does not have."""

TARGET = re.compile(r"\(([^()\s]+)\)=\s*\Z")
"""A MyST target line: `(label)=`."""


CALLOUTS = {
    "note": "note",
    "tip": "tip",
    "hint": "tip",
    "important": "important",
    "attention": "important",
    "warning": "warning",
    "caution": "caution",
    "danger": "caution",
    "error": "caution",
    "seealso": "note",
    "admonition": "note",
    "exercise": "note",
    "solution": "tip",
}
"""Admonition directives as callout kinds (`postil.markdown.callout.KINDS`); every
`prf:` directive (sphinx-proof's theorem, lemma, proof, …) is a note too."""

FENCE_OPEN = re.compile(r"(`{3,}|~{3,}|:{3,})\{([A-Za-z][\w:-]*)\}[ \t]*(.*)\Z")
"""The opening fence of a directive read as blocks: its fence, name and argument; `:::`
is MyST's colon fence (the `colon_fence` extension Jupyter Book turns on)."""


DIRECTIVES = frozenset({"math", "raw", *CODE, *LEFT_OUT})
"""The directives `myst_directives` reads (the others, as blocks, `myst_block`)."""


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
    md.block.ruler.before("fence", "myst_block", myst_block, {"alt": ["paragraph"]})
    md.core.ruler.before("chunk", "myst_directives", myst_directives)
    md.inline.ruler.before("backticks", "myst_role", myst_role)
    md.core.ruler.after("inline", "myst_role_check", myst_role_check)


def myst_target(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: leave out a `(label)=` line (MyST's target for `{ref}`)."""
    if state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    if not line.startswith("(") or TARGET.match(line) is None:
        return False
    if not silent:
        state.line = start + 1
    return True


def myst_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a directive whose body is Markdown or a figure (see the module)."""
    if state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start] : state.eMarks[start]]
    found = FENCE_OPEN.match(line.rstrip()) if line[:1] in "`~:" else None
    name = found.group(2).lower() if found else ""
    blocks = name in CALLOUTS or name.startswith("prf:") or name == "epigraph"
    if found is None or not (blocks or name in ("figure", "image")):
        return False
    close = _closing_fence(state, start, end, found.group(1))
    if silent:
        return True
    if close is not None:
        after = close + 1
    else:  # it runs to the end of its container, as an unclosed code fence does
        close = after = _container_end(state, start, end)
        get_state(state.env).warn(
            start,
            state.sCount[start] + 1,
            f"directive `{{{name}}}` is never closed, so everything after it is inside it; "
            f"add a line {found.group(1)} where it ends",
        )
    body = start + 1
    options: dict[str, str] = {}
    while body < close:
        option = OPTION.match(
            state.src[state.bMarks[body] + state.tShift[body] : state.eMarks[body]]
        )
        if option is None:
            break
        options[option.group(1).lower()] = option.group(2).strip()
        body += 1
    argument = found.group(3).strip()
    if blocks:
        _push_blocks(state, (start, body, close), name, argument, options)
    else:
        _push_image(state, (start, body, close), name, argument, options)
    state.line = after
    return True


def _container_end(state: StateBlock, start: int, end: int) -> int:
    """Return the first line after `start` less indented than its container (or `end`)."""
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent and not state.isEmpty(line):
            return line
    return end


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
    if name == "epigraph":
        kind, opening = "blockquote", state.push("blockquote_open", "blockquote", 1)
    else:
        opening = state.push("shortcode_callout_open", "aside", 1)
        kind = "shortcode_callout"
        if name in ("exercise", "solution") or name.startswith("prf:"):
            title = name.split(":")[-1].capitalize()  # the argument is a label or the title
            title = found_title if (found_title := options.get("title")) else title
        folded = "dropdown" in options.get("class", "").split()
        opening.meta = {
            "kind": CALLOUTS.get(name, "note"),
            "title": title,
            "collapse": "true" if folded else None,
        }
    opening.map = [start, close + 1]
    old_max, state.lineMax = state.lineMax, close
    state.md.block.tokenize(state, body, close)
    state.lineMax = old_max
    state.push(f"{kind}_close", opening.tag, -1).map = [close, close + 1]


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
    if name == "figure":
        push_figure(state, start, src, caption, alt=options.get("alt"), attrs=sizes)
        return
    opening = state.push("paragraph_open", "p", 1)
    opening.map = [start, close + 1]
    inline = state.push("inline", "", 0)
    alt = options.get("alt", "").replace("]", "\\]")
    inline.content, inline.map, inline.children = f"![{alt}](<{src}>)", [start, start + 1], []
    state.push("paragraph_close", "p", -1)


def myst_directives(state: StateCore) -> None:
    """Core rule: re-type MyST directive fences (see the module); warn once per name of
    a directive postil shows as code."""
    doc = get_state(state.env)
    kept, warned = [], set()
    for token in state.tokens:
        found = DIRECTIVE.match(token.info.strip()) if token.type == "fence" else None
        name = found.group(1).lower() if found else ""
        if name not in DIRECTIVES and name not in UNSUPPORTED and not name.startswith("prf:"):
            found = None
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
            language = LANGUAGES.get(argument.split()[0].lower(), argument) if argument else ""
            token.info = f"{{{language}}}" if name == "code-cell" and language else language
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
                    f"MyST directive `{{{name}}}` is not supported: its body is shown as "
                    "code; write it as Markdown (a `:::` callout, an image, text)",
                )
        kept.append(token)
    state.tokens[:] = kept


def _options(content: str) -> tuple[dict[str, str], str]:
    """Return a directive body's `:key: value` option lines (at its top) and the rest."""
    lines = content.split("\n")
    options = {}
    at = 0
    while at < len(lines):
        found = OPTION.match(lines[at].strip())
        if found is None:
            break
        options[found.group(1).lower()] = found.group(2).strip()
        at += 1
    return options, "\n".join(lines[at:]).lstrip("\n")


def role_text(found: re.Match[str]) -> str:
    """Return what a `ROLE` match reads as in plain text: a formula as `$x$`, an equation
    reference as its TeX, any other role as its text (`text <target>` as `text`)."""
    name, text = found.group(1).lower(), found.group(3)
    if name == "math":
        return f"${text}$"
    if name == "eq":
        return f"$\\eqref{{{text.strip()}}}$"
    return text.split("<", 1)[0].strip() if "<" in text else text


def myst_role(state: StateInline, silent: bool) -> bool:
    """Inline rule: a MyST role (see the module)."""
    if not state.src.startswith("{", state.pos):
        return False
    found = ROLE.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    name, text = found.group(1).lower(), found.group(3)
    if not silent:
        if name in ("math", "eq"):
            token = state.push("math_inline", "math", 0)
            token.content = text if name == "math" else f"\\eqref{{{text.strip()}}}"
            token.markup = "$"
        else:
            shown = text.split("<", 1)[0].strip() if "<" in text else text
            state.push("text", "", 0).content = shown
            if name not in TEXT_ROLES:  # reported where its line is known: `myst_role_check`
                state.env.setdefault("_myst_roles", []).append((found.group(), shown))
    state.pos = found.end()
    return True


def myst_role_check(state: StateCore) -> None:
    """Core rule: warn at each role `myst_role` showed as text for want of support (text
    tokens are joined after the inline rules, so the roles are listed in `env`)."""
    pending = state.env.pop("_myst_roles", [])
    doc = get_state(state.env)
    for block in state.tokens:
        while pending and block.type == "inline" and pending[0][0] in block.content:
            raw, shown = pending.pop(0)
            doc.warn(
                *locate(doc, block.map, raw),
                f"MyST role `{raw[: raw.index('}') + 1]}` is not supported: `{shown}` is shown "
                "as text",
            )
