"""A long line of brackets that open no link (`[a [b [c …`, a pasted JSON array) is read in
about linear time: the rules for kramdown's spaced link destinations and Pandoc's
bracketed spans scanned a label from every `[` to the line's end (session 43: a 30 KB line
of `[a ` took 3 s, markdown-it's own rules 0.2 s)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def label_scans(body: str) -> Counter[str]:
    """Return how many link labels each inline rule scanned while rendering `body`."""
    md = create_markdown()
    scan = md.helpers.parseLinkLabel
    callers: Counter[str] = Counter()

    def counted(*args: Any) -> int:
        callers[sys._getframe(1).f_code.co_name] += 1
        return scan(*args)

    md.helpers.parseLinkLabel = counted  # type: ignore[method-assign]
    render_markdown(md, body, RenderState(path="x.md"))
    return callers


@pytest.mark.parametrize("line", ["[a " * 400, "[" * 400, '[[0.5, 1], [2, "x"]] ' * 100])
def test_brackets_opening_nothing_are_not_scanned_by_the_spaced_link_and_span_rules(line):
    callers = label_scans(line + "\n")
    assert callers["spaced_link"] == 0 and callers["bracketed_span"] == 0


@pytest.mark.parametrize(
    ("body", "rule", "html"),
    [
        ("[a [b](my file.md)\n", "spaced_link", '<a href="my%20file.md">b</a>'),
        ("[a [b]{.smallcaps}\n", "bracketed_span", '<span class="smallcaps">b</span>'),
    ],
)
def test_a_spaced_link_or_a_span_after_an_open_bracket_is_still_read(body, rule, html):
    assert label_scans(body)[rule] > 0
    rendered = render_markdown(create_markdown(), body, RenderState(path="x.md")).html
    assert html in rendered
