"""The TeX logos in math, as Chromium draws them: upright letters with LaTeX's A raised
and TeX's E lowered, the logo's word kept for plain text in a nested `<semantics>` whose
annotation is not drawn (`textmode.rewrite_logos`)."""

from __future__ import annotations

import pytest

POST = r"""---
title: Logos
date: 2026-01-15
---

Set in $\LaTeX$ with $\TeX$ and $\text{LaTeX}$.
"""


@pytest.fixture(scope="module")
def logos_url(served_site) -> str:
    return served_site("logos", {"logos.md": POST}) + "posts/logos/"


def test_the_logos_are_drawn_letters_raised_and_lowered_and_their_words_hidden(page, logos_url):
    page.goto(logos_url)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll(".post-body math")].map(m => {
          const box = e => e.getBoundingClientRect();
          const letters = [...m.querySelectorAll("semantics semantics mtext")];
          const word = m.querySelector("annotation[encoding='text/plain']");
          return {
            width: box(m).width, fontSize: parseFloat(getComputedStyle(m).fontSize),
            letters: letters.map(l => [l.textContent, box(l).top, box(l).height]),
            word: word ? box(word).width : null,
            style: letters.map(l => getComputedStyle(l).fontStyle),
          };
        })"""
    )
    latex, tex, text = boxes
    assert [letter[0] for letter in latex["letters"]] == list("LATEX")
    assert [letter[0] for letter in tex["letters"]] == list("TEX")
    assert latex["word"] == tex["word"] == 0  # the plain-text annotation is not drawn
    assert set(latex["style"]) == {"normal"}  # upright, not math italic
    top = {name: at for name, at, _ in latex["letters"]}
    small_a = latex["letters"][1][2] < latex["letters"][0][2]  # A is set smaller than L
    assert small_a and top["E"] > top["T"]  # the E is lowered below the T's line
    assert latex["width"] < text["width"]  # kerned tighter than the word "LaTeX"
