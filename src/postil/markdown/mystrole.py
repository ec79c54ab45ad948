"""MyST's roles: `` {math}`x` ``, `` {eq}`label` ``, `` {numref}`Figure %s <fig-x>` ``,
`` {ref}`text <label>` ``, `` {prf:ref}`thm-x` ``, the citations `` {cite:p}`key` ``
(`CITE_ROLES`) and the ones shown as their text.

`myst_role` (inline) reads a role; `myst_role_check` (core, right after `inline`)
reports the ones postil does not read, and empty ones, at their places;
`myst_ref_resolve` (core, after the figure plugin numbers blocks) links references to a
figure, table or theorem of the post. Registered by `postil.markdown.myst.myst_plugin`.

Sources: MyST-Parser's syntax reference ("Roles", "Cross-references"), Sphinx's
`numref` (`%s` and `{number}` in its text), sphinx-proof's `prf:ref`.
CSS classes: xref.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.bookdown import BOOKDOWN_SUFFIXES
from postil.markdown.cite import CiteItem, push_cluster
from postil.markdown.heading import inline_text
from postil.markdown.references import label_page, locate
from postil.markdown.state import RenderState, get_state

ROLE = re.compile(r"\{([A-Za-z][\w:-]*)\}(`+)(?!`)(.+?)(?<!`)\2(?!`)", re.S)
"""A MyST role: `` {name}`text` ``, its backticks matched as a code span's are."""

EMPTY_ROLE = re.compile(r"\{([A-Za-z][\w:-]*)\}(?:``(?!`)|`\s*`)")
"""A role with nothing between its backticks: `` {eq}`` `` or `` {eq}` ` ``."""

EXAMPLES = {"eq": "eq-x", "math": "x^2", "numref": "fig-x", "ref": "fig-x", "prf:ref": "thm-x"}
"""What a role names, for the message at an empty one."""

EQUATION_ROLES = {"eq", "math:numref"}
"""Roles that refer to an equation by its label: MyST's `` {eq}`x` `` and Sphinx's math
domain's `` {math:numref}`x` `` (Sphinx's "The Mathematics Domain"; `:eq:` is its alias),
which Jupyter Book passes on to Sphinx; both show "(1)"."""

REFERENCES = {"numref", "ref", "prf:ref"}
"""Roles that refer to a figure, table or theorem by its label (`myst_ref_resolve`)."""

REFERENCE_TARGET = re.compile(r"(.*?)\s*<([^<>]+)>", re.S)
"""A reference role's `text <label>`."""

TEXT_ROLES = {"doc", "index", "term", "abbr"}
"""Roles shown as their text (`text <target>` as `text`): their targets are other pages
or Sphinx's index, which a post does not have."""


def role_text(found: re.Match[str]) -> str:
    """Return what a `ROLE` match reads as in plain text: a formula as `$x$`, an equation
    reference as its TeX, any other role as its text (`text <target>` as `text`)."""
    name, text = _role_name(found), found.group(3)
    if name == "math":
        return f"${text}$"
    if name == "eq":
        return f"$\\eqref{{{text.strip()}}}$"
    return text.split("<", 1)[0].strip() if "<" in text else text


def _role_name(found: re.Match[str]) -> str:
    """Return a `ROLE` match's name in lower case, an equation role's as `eq`."""
    name = found.group(1).lower()
    return "eq" if name in EQUATION_ROLES else name


def myst_role(state: StateInline, silent: bool) -> bool:
    """Inline rule: a MyST role (see the module)."""
    if not state.src.startswith("{", state.pos):
        return False
    found = ROLE.match(state.src, state.pos, state.posMax)
    if found is None or not found.group(3).strip():
        return _empty_role(state, silent)
    name, text = _role_name(found), found.group(3)
    if not silent:
        if name == "math":
            token = state.push("math_inline", "math", 0)
            token.content, token.markup = text, "$"
            # where its TeX starts, so a math error names its own column (`mathdoc.locate`)
            token.meta = {"offset": found.start(3)}
        elif name == "eq":
            # the equation's number as a link in prose, as `\eqref{x}` written in text is
            # (`postil.markdown.mathref`: a link inside `<math>` is a control nested in
            # another); an unknown label is a warning at the role, as in Sphinx
            token = state.push("math_ref", "a", 0)
            token.meta = {"kind": "eqref", "label": text.strip(), "offset": state.pos}
        elif name in REFERENCES:
            _push_reference(state, name, text, found.group())
        elif name in CITE_ROLES:
            _push_citation(state, name, text, found.group())
        else:
            shown = text.split("<", 1)[0].strip() if "<" in text else text
            # a role postil does not read is reported where its line is known, by
            # `myst_role_check`; a token of its own, which the inline rules never join
            kind = "text" if name in TEXT_ROLES else "myst_role_text"
            token = state.push(kind, "", 0)
            token.content, token.meta = shown, {"raw": found.group()}
    state.pos = found.end()
    return True


CITE_ROLES = {
    **dict.fromkeys(("cite", "cite:p", "cite:ps", "cite:alp", "cite:alps"), "parenthetical"),
    **dict.fromkeys(("cite:t", "cite:ts", "cite:ct", "cite:cts", "cite:author"), "narrative"),
    **dict.fromkeys(("cite:year", "cite:yearpar"), "year"),
}
"""sphinxcontrib-bibtex's and mystmd's citation roles (`` {cite:p}`a,b` ``), by the form
of Pandoc's citation they are: `[@a; @b]`, `@a`, `[-@a]`."""


def _push_citation(state: StateInline, name: str, keys: str, raw: str) -> None:
    """Push the citation cluster a cite role makes (`postil.markdown.cite`), or its text
    with a warning when the post has no bibliography (as `[@key]`)."""
    form = CITE_ROLES[name]
    items = [
        CiteItem(key.strip(), year_only=form == "year") for key in keys.split(",") if key.strip()
    ]
    push_cluster(state, raw, items, narrative=form == "narrative")


def _empty_role(state: StateInline, silent: bool) -> bool:
    """Read a role with nothing between its backticks (`` {eq}`` `` or `` {eq}` ` ``) as
    nothing, and report it at its place (`myst_role_check`): MyST rejects it too."""
    found = EMPTY_ROLE.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    if not silent:
        token = state.push("myst_role_text", "", 0)
        token.meta = {"raw": found.group(), "empty": True}
    state.pos = found.end()
    return True


def _push_reference(state: StateInline, name: str, text: str, raw: str) -> None:
    """Push a `myst_ref` token for `` {numref}`Figure %s <label>` `` and its kin, its text
    (None when the role names the label alone) read by `myst_ref_resolve`."""
    shown, label = None, text.strip()
    target = REFERENCE_TARGET.fullmatch(label)
    if target is not None:
        shown, label = target.group(1).strip(), target.group(2).strip()
    token = state.push("myst_ref", "a", 0)
    token.meta = {"role": name, "label": label, "text": shown, "raw": raw}


def myst_ref_resolve(state: StateCore) -> None:
    """Core rule (after `figure_number`): give each `{numref}`, `{ref}` and `{prf:ref}` to a
    figure, table or theorem of the post its words and link; report the ones that name
    nothing of the post, but `{ref}` (its target is often a section or another page).

    `{numref}` reads "Figure 2" (Sphinx's own default says "Fig. 2"; postil's captions say
    "Figure"), its text a template where `%s` and `{number}` are the number (MyST's and
    Sphinx's `numref`); `{ref}` to a figure reads its label, or its text.
    """
    doc = get_state(state.env)
    labels = doc.groups.facts.get("figure", doc.extra.get("figure_labels", {}))
    found_targets = targets(doc)
    for block in state.tokens:
        for token in block.children or () if block.type == "inline" else ():
            if token.type != "myst_ref":
                continue
            meta = token.meta
            label = labels.get(meta["label"])
            if label is not None:
                meta["href"] = f"#{meta['label']}"
                meta["shown"] = _reference_words(meta, label)
                continue
            if meta["label"] in found_targets and meta["role"] == "ref":  # a `(label)=` target
                meta["href"] = f"#{meta['label']}"
                meta["shown"] = meta["text"] or found_targets[meta["label"]] or meta["label"]
                continue
            if meta["role"] == "ref" and _other_page(meta, doc):
                continue
            meta["shown"] = meta["text"] or meta["label"]
            if meta["label"] in doc.extra.get("chunk_labels", ()):
                doc.warn(
                    *locate(doc, block.map, meta["raw"]),
                    f"MyST role `{{{meta['role']}}}` names the figure of code cell "
                    f"`{meta['label']}`, which postil does not run, so it shows as text; paste "
                    f"the figure after the cell as a {{figure}} with `:name: {meta['label']}`",
                )
            elif meta["role"] == "ref":
                doc.warn(
                    *locate(doc, block.map, meta["raw"]),
                    f"MyST role `{{ref}}`: no `(label)=` target, figure, table or theorem of "
                    f"this post, nor one target of another page, has the label "
                    f"`{meta['label']}`, so it shows as text; fix the label, or link to the page",
                )
            else:
                doc.warn(
                    *locate(doc, block.map, meta["raw"]),
                    f"MyST role `{{{meta['role']}}}`: no figure, table or theorem of this post "
                    f"has the label `{meta['label']}`, so it shows as text; fix the label "
                    "(`:name:` of a figure, `:label:` of a theorem)",
                )


def _other_page(meta: dict[str, Any], doc: RenderState) -> bool:
    """Point a `{ref}` at another page's `(label)=` target (`references.label_page`:
    mystmd and Jupyter Book resolve labels across the project): its link, and the words of
    the heading it labels unless the role gives its own; return whether one was found."""
    found = label_page(doc, meta["label"])
    if found is None or found[0].lower().endswith(BOOKDOWN_SUFFIXES):
        return False  # an R Markdown heading's id is for bookdown's references
    meta["href"], meta["shown"] = found[2], meta["text"] or found[1] or meta["label"]
    return True


def targets(doc: RenderState) -> dict[str, str]:
    """Return each `(label)=` target's label -> the text of the heading it names ("" for
    none). A heading not parsed yet (a post rendered in groups, `GroupRun`, the heading
    in a later group) is read from the table of contents the gathering run found."""
    sections = doc.extra.get("myst_sections")
    if not sections:
        return {}  # most posts: no target
    facts = doc.groups.facts.get("heading")
    contents = {entry.id: entry.text for entry in facts[1]} if facts else {}
    return {
        label: (inline_text(title, doc) if title.children else contents.get(label, ""))
        if title is not None
        else ""
        for label, title in sections.items()
    }


def _reference_words(meta: dict[str, Any], label: str) -> str:
    """Return a reference's words: its text with `%s`/`{number}` filled, else the label."""
    number = label.rsplit(" ", 1)[-1]
    text = meta["text"]
    if text is None:
        return label
    if meta["role"] == "numref":
        return text.replace("%s", number).replace("{number}", number)
    return text


def render_myst_ref(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Render a resolved reference as a link, one that names nothing as its text."""
    meta = tokens[idx].meta
    shown = escapeHtml(meta.get("shown") or meta["label"])
    if "href" not in meta:
        return shown
    return f'<a class="xref" href="{escapeHtml(meta["href"])}">{shown}</a>'


def myst_role_check(state: StateCore) -> None:
    """Core rule (right after `inline`): report each role `myst_role` shows as text for
    want of support, and each empty one, at its place; they become plain text."""
    doc = get_state(state.env)
    for block in state.tokens:
        for token in block.children or () if block.type == "inline" else ():
            if token.type != "myst_role_text":
                continue
            token.type = "text"
            raw = token.meta["raw"]
            name = raw[: raw.index("}") + 1]
            if token.meta.get("empty"):
                example = EXAMPLES.get(name[1:-1].lower(), "label")
                doc.error(
                    *locate(doc, block.map, raw),
                    f"MyST role `{name}` is empty; write what it names between the "
                    f"backticks, as in {name}`{example}`",
                )
            else:
                doc.warn(
                    *locate(doc, block.map, raw),
                    f"MyST role `{name}` is not supported: `{token.content}` is shown as text",
                )


def render_myst_role_text(
    self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any
) -> str:
    """Render a role shown as its text (`myst_role_check` makes most plain text first)."""
    return escapeHtml(tokens[idx].content)
