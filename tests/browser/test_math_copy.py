"""Copying a passage with formulas puts their TeX on the clipboard (static/js/math.js).

A real copy in Chromium (a selection, Ctrl+C, the system clipboard read back through
`navigator.clipboard` with the permissions granted), on a page of a built site.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from support.sites import make_site
from support.web import serve_dir

from postil.build import BuildOptions, build

POST = r"""---
title: Copying math
date: 2026-01-15
---

Let $x^2$ and $\alpha + \beta$ be given.

Then

$$
E = mc^2 \label{eq:e}
$$

follows, as \eqref{eq:e} says.

No math here.
"""


@pytest.fixture(scope="module")
def copy_url(tmp_path_factory) -> Iterator[str]:
    root = make_site(tmp_path_factory.mktemp("copy") / "site", {"copy.md": POST})
    build(BuildOptions(root=root))
    with ExitStack() as stack:
        yield stack.enter_context(serve_dir(root / "_site")) + "posts/copy/"


@pytest.fixture
def clip_page(browser: Any, copy_url: str) -> Iterator[Any]:
    """Yield the post open in a context that may read and write the clipboard."""
    errors: list[str] = []
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(error.message))
    page.goto(copy_url)
    page.wait_for_load_state("networkidle")
    yield page
    context.close()
    assert errors == []


SELECT = """([start, startOffset, end, endOffset]) => {
  // A point is the first text node of the post whose text is or contains a given string,
  // and an offset from where that string starts in it.
  const point = (text, offset) => {
    const walker = document.createTreeWalker(document.querySelector(".post-body"),
                                             NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
      const at = node.data.indexOf(text);
      if (at >= 0) return [node, at + offset];
    }
    throw new Error("no text node holds " + text);
  };
  document.getSelection().setBaseAndExtent(...point(start, startOffset),
                                           ...point(end, endOffset));
}"""


def copy(page: Any, start: str, start_offset: int, end: str, end_offset: int) -> str:
    """Select from the point `start_offset` characters into the first text of the post
    holding `start` to the like point of `end`, press Ctrl+C, return the clipboard text."""
    page.evaluate("navigator.clipboard.writeText('')")
    page.evaluate(SELECT, [start, start_offset, end, end_offset])
    page.keyboard.press("Control+C")
    return page.evaluate("navigator.clipboard.readText()")


def test_copying_a_sentence_gives_each_inline_formula_as_dollar_tex(clip_page):
    text = copy(clip_page, "Let ", 0, " be given.", len(" be given."))
    assert text == r"Let $x^2$ and $\alpha + \beta$ be given."


def test_copying_from_inside_a_formula_copies_the_whole_formula(clip_page):
    # from the "x" of $x^2$ (a text node of its <mi>) to "be" after the second formula
    text = copy(clip_page, "x", 0, " be given.", len(" be"))
    assert text == r"$x^2$ and $\alpha + \beta$ be"


def test_copying_across_display_math_gives_it_as_double_dollar_tex_on_its_own_lines(
    clip_page,
):
    text = copy(clip_page, "Then", 0, "follows, as ", len("follows"))
    assert text == "Then\n\n$$E = mc^2 \\label{eq:e}$$\n\nfollows"  # no "(1)", no glyphs


def test_copying_text_without_math_is_left_to_the_browser(clip_page):
    assert copy(clip_page, "No math", 0, "No math here.", len("No math here.")) == ("No math here.")


def test_without_the_module_chromium_copies_glyphs_not_tex(clip_page):
    # What the module is for: the browser's own copy of the same sentence has no TeX.
    clip_page.evaluate("document.addEventListener('copy', e => e.stopImmediatePropagation(), true)")
    text = copy(clip_page, "Let ", 0, " be given.", len(" be given."))
    assert "$" not in text and "^" not in text and text.startswith("Let")
