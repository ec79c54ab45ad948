"""jekyll-scholar's citation tags, as al-folio and other Jekyll research blogs write them.

jekyll-scholar (its README, "Citations") cites with Liquid tags: `{% cite key %}`,
`{% cite key1 key2 %}`, `{% cite key -l 23-5 %}` (a locator; `--locator`, and `-L`/`--label`
naming it: `chapter`), `{% cite key --file other %}` (the key from another `.bib`), and
lists the references with `{% bibliography %}`. postil reads a `cite` tag as the cluster
Pandoc's `[@key1; @key2, 23-5]` is (`postil.markdown.cite`: the same tokens, style,
margin references and References list, from the post's or the site's `bibliography:`);
`--file` is read without a word (every `.bib` the post names is searched). Without a
bibliography a tag shows its keys in brackets, `[key1, key2]`, and warns. The
`bibliography` tag goes without a word (`postil.markdown.liquid`): postil lists the
references a post cites at its end, as `{% bibliography --cited %}` does. Other scholar
tags (`reference`, `quote`, `nocite`, `details`) stay Liquid's, reported as unsupported.
"""

from __future__ import annotations

import re
import shlex

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from postil.markdown.cite import CiteItem, push_cluster
from postil.markdown.inlinewarn import warn_inline

CITE_TAG = re.compile(r"\{%-?\s*cite\s+([^%]*?)\s*-?%\}")
"""`{% cite key … %}`: group 1 its arguments."""

OPTIONS_WITH_VALUE = {"-l": "locator", "--locator": "locator", "-L": "label", "--label": "label"}
OPTIONS_WITH_VALUE |= {"-f": "file", "--file": "file"}
"""The `cite` tag's options that take a value, by what they give."""


def scholar_plugin(md: MarkdownIt) -> None:
    """Read jekyll-scholar's `{% cite … %}` as a citation cluster.

    Syntax::

        As shown {% cite vaswani2017 %}, and {% cite a b -l 3 %}.

    Output: the citation plugin's (`postil.markdown.cite`). CSS classes: its own.
    """
    md.inline.ruler.before("escape", "scholar_cite", scholar_cite)


def scholar_cite(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{% cite … %}` as a `cite` token (before the template plugin's rule)."""
    if not state.src.startswith("{%", state.pos):
        return False
    found = CITE_TAG.match(state.src, state.pos, state.posMax)
    if found is None:
        return False
    items, problem = cite_items(found.group(1))
    if not items:
        return False  # `{% cite %}` with no key: the template plugin reports the tag
    if not silent:
        if problem:
            warn_inline(state, state.pos, f"`{found.group(0)}`: {problem}")
        # without a bibliography the keys in brackets, as a Distill post's: the Liquid tag
        # is no text for a reader (a Chirpy post showed `{% cite x --file papers %}` 16 times)
        shown = "[" + ", ".join(item.key for item in items) + "]"
        push_cluster(state, found.group(0), items, shown=shown)
    state.pos = found.end()
    return True


def cite_items(arguments: str) -> tuple[list[CiteItem], str]:
    """Return the cited works of a `cite` tag's arguments, and a problem to report or "".

    The n-th locator (`-l`) goes with the n-th key, named by the n-th label (`-L`) if any.
    """
    try:
        words = shlex.split(arguments)
    except ValueError:  # an unbalanced quote
        words = arguments.replace('"', " ").replace("'", " ").split()
    keys: list[str] = []
    given: dict[str, list[str]] = {"locator": [], "label": [], "file": []}
    unknown: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in OPTIONS_WITH_VALUE and i + 1 < len(words):
            given[OPTIONS_WITH_VALUE[word]].append(words[i + 1])
            i += 2
            continue
        (unknown if word.startswith("-") else keys).append(word)
        i += 1
    items = []
    for n, key in enumerate(keys):
        locator = given["locator"][n] if n < len(given["locator"]) else ""
        label = given["label"][n] if n < len(given["label"]) and locator else ""
        items.append(CiteItem(key, suffix=f"{label} {locator}".strip()))
    problem = f"option {', '.join(unknown)} is not read and is ignored" if unknown else ""
    return items, problem
