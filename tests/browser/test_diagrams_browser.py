"""Mermaid diagrams (`postil.markdown.diagram`, static/js/diagrams.js) in Debian's Chromium.

A built site whose `mermaid:` names a copy of Mermaid's ES module under the site (the npm
package in tools/, pinned in tools/package.json, linked into `_site/`: this machine cannot
reach the CDN the default names): the page with diagrams draws each as an SVG holding its
labels, in the column, in the dark scheme after the reader switches to it (an author's own
raw `<div class="mermaid">` too); a diagram
Mermaid cannot read keeps its source; a page without a diagram loads no script; and with
Mermaid out of reach, the source stays on the page, set as code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.sites import CONFIG, make_site
from support.web import REPO_ROOT, TOOLS_HINT, run_axe, unavailable

from postil.build import BuildOptions, build

MERMAID_DIST = REPO_ROOT / "tools/node_modules/mermaid/dist"

POST = """\
---
title: Flows
date: 2026-01-02
---

A paragraph of text before the diagrams, long enough to fill the measure of the column.

```mermaid
flowchart LR
  Query --> Softmax --> Weights
```

{{< mermaid >}}
sequenceDiagram
  Reader->>Page: opens
{{< /mermaid >}}

```{mermaid}
%%| label: fig-broken
%%| fig-cap: Not a diagram
this is not mermaid at all -->
```

<div class="mermaid">
pie title Heads
  "Query" : 2
  "Key" : 1
</div>
"""

PLAIN = "---\ntitle: Plain\ndate: 2026-01-01\n---\n\nNo diagram here.\n"

NOTES = """\
---
title: Noted
date: 2026-01-03
---

A claim with a note.[^steps] And a remark in the margin.[^side]

[^steps]: The steps:

    ```mermaid
    flowchart LR
      Query --> Softmax
    ```

[^side]: {-} The margin's own:

    ```mermaid
    flowchart TD
      Key --> Value
    ```
"""


def _site(root: Path, mermaid: str) -> Path:
    """Build a two-post site whose `mermaid:` is `mermaid`; link Mermaid's dist into it."""
    if not (MERMAID_DIST / "mermaid.esm.min.mjs").is_file():
        unavailable(f"Mermaid is not installed under tools/; {TOOLS_HINT}")
    posts = {"flows.md": POST, "plain.md": PLAIN, "notes.md": NOTES}
    make_site(root, posts, CONFIG + f"mermaid: {mermaid}\n")
    build(BuildOptions(root=root))
    os.symlink(MERMAID_DIST, root / "_site/mermaid")
    return root / "_site"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("diagrams"), "/mermaid/mermaid.esm.min.mjs")


DRAWN_JS = """
() => Array.from(document.querySelectorAll("pre.mermaid, div.mermaid")).map((box) => {
  const svg = box.querySelector("svg");
  const column = document.querySelector(".post-body").getBoundingClientRect();
  const rect = (svg || box).getBoundingClientRect();
  return {
    drawn: box.classList.contains("is-drawn"),
    text: svg ? svg.textContent.replace(/\\s+/g, " ") : box.textContent,
    inColumn: rect.left >= column.left - 1 && rect.right <= column.right + 1,
    title: box.title,
  };
})
"""


def _drawn(page, count: int) -> list[dict]:
    page.wait_for_function(
        "n => document.querySelectorAll('.mermaid.is-drawn, .mermaid[title]').length == n",
        arg=count,
        timeout=20000,
    )
    return page.evaluate(DRAWN_JS)


@pytest.mark.expect_page_errors  # Mermaid logs the diagram it cannot read
def test_each_diagram_is_drawn_with_its_labels_and_a_broken_one_keeps_its_source(
    page, site, serve_dir
):
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(serve_dir(site) + "posts/flows/")
    flow, sequence, broken, raw = _drawn(page, 4)
    assert flow["drawn"] and sequence["drawn"]
    assert all(word in flow["text"] for word in ("Query", "Softmax", "Weights"))
    assert "Reader" in sequence["text"] and "opens" in sequence["text"]
    assert flow["inColumn"] and sequence["inColumn"]
    assert not broken["drawn"]
    assert broken["text"].startswith("this is not mermaid at all -->")
    assert broken["title"].startswith("Mermaid could not draw this diagram")
    assert raw["drawn"] and "Query" in raw["text"]  # the author's own `<div class="mermaid">`
    caption = page.locator("#fig-broken figcaption").inner_text()
    assert caption.startswith("Figure 1") and caption.endswith("Not a diagram")


@pytest.mark.expect_page_errors
def test_switching_to_the_dark_scheme_draws_the_diagrams_again_in_it(page, site, serve_dir):
    page.goto(serve_dir(site) + "posts/flows/")
    _drawn(page, 4)
    fill = "() => getComputedStyle(document.querySelector('pre.mermaid svg .node rect')).fill"
    light = page.evaluate(fill)
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_function(f"({fill})() !== {light!r}", timeout=20000)
    assert page.evaluate("document.querySelectorAll('.mermaid.is-drawn').length") == 3


@pytest.mark.expect_page_errors
def test_a_diagram_drawn_dark_prints_light_on_the_light_paper(page, site, serve_dir):
    """Paper is light whatever the screen's scheme: a diagram drawn in the dark scheme
    printed light grey lines and labels on white."""
    page.goto(serve_dir(site) + "posts/flows/")
    _drawn(page, 4)
    filters = (
        "() => [...document.querySelectorAll('.mermaid svg')]"
        ".map((svg) => getComputedStyle(svg).filter)"
    )
    page.emulate_media(media="print")
    assert set(page.evaluate(filters)) == {"none"}  # drawn light: printed as it is
    page.emulate_media(media="screen")
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_function(
        "() => document.querySelectorAll('.mermaid[data-scheme=dark]').length == 3", timeout=20000
    )
    assert set(page.evaluate(filters)) == {"none"}  # on screen, dark as drawn
    page.emulate_media(media="print")
    assert set(page.evaluate(filters)) == {"invert(1) hue-rotate(180deg)"}


def test_a_diagram_in_a_note_is_drawn_in_its_margin_copy_and_in_the_notes_list(
    page, site, serve_dir
):
    """A note's margin copy showed the diagram's source as code, never drawn; a margin note
    (`{-}`, its only copy) never showed the diagram at all."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(serve_dir(site) + "posts/notes/")
    page.wait_for_function(
        "() => document.querySelectorAll('.mermaid.is-drawn').length == 3", timeout=20000
    )
    texts = page.evaluate(
        """() => ["#sn-1", "#mn-1", "#fn-1"].map((id) => {
          const svg = document.querySelector(id + " .mermaid svg");
          const box = svg && svg.getBoundingClientRect();
          const note = document.querySelector(id).getBoundingClientRect();
          if (!svg) return null;
          const labels = [...svg.querySelectorAll(".nodeLabel")].map((n) => n.textContent);
          return [labels.join(" "), box.width > 0 && box.right <= note.right + 1];
        })"""
    )
    sidenote, margin, listed = texts
    assert sidenote[0] == "Query Softmax" and sidenote[1]
    assert margin[0] == "Key Value" and margin[1]
    assert listed[0] == "Query Softmax"


def test_a_page_without_a_diagram_loads_no_diagram_script(page, site, serve_dir):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(serve_dir(site) + "posts/plain/")
    page.wait_for_load_state("networkidle")
    assert not any("diagrams.js" in url or "mermaid" in url for url in requested)


@pytest.mark.expect_page_errors  # the module's request fails: that is the case
def test_without_mermaid_the_source_stays_as_code(page, tmp_path, serve_dir):
    out = _site(tmp_path, "/mermaid/absent.mjs")
    page.goto(serve_dir(out) + "posts/flows/")
    page.wait_for_load_state("networkidle")
    boxes = page.evaluate(DRAWN_JS)
    assert [box["drawn"] for box in boxes] == [False, False, False, False]
    assert boxes[0]["text"].startswith("flowchart LR")
    styles = page.evaluate(
        "() => ['pre.mermaid', 'div.mermaid'].map((box) => {"
        " const s = getComputedStyle(document.querySelector(box));"
        " return [s.fontFamily, s.borderTopStyle, s.whiteSpace]; })"
    )
    # an author's raw `<div class="mermaid">` too: its lines were run together as prose
    for font, border, white_space in styles:
        assert "mono" in font.lower() and border == "solid" and white_space == "pre"


@pytest.mark.expect_page_errors
def test_axe_finds_nothing_on_the_drawn_page(page, site, serve_dir):
    page.goto(serve_dir(site) + "posts/flows/")
    _drawn(page, 4)
    assert run_axe(page) == []


def test_axe_finds_nothing_on_a_page_with_diagrams_in_notes(page, site, serve_dir):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(serve_dir(site) + "posts/notes/")
    page.wait_for_function(
        "() => document.querySelectorAll('.mermaid.is-drawn').length == 3", timeout=20000
    )
    assert run_axe(page) == []
