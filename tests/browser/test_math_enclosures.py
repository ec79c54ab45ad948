r"""What Chromium draws for matrices, row gaps, boxes, strikes, wide accents and braces.

Each formula is converted by `latex_to_mathml`, put on a page with `static/css/math.css`,
served over 127.0.0.1 and measured in Debian's Chromium: element boxes, computed styles,
and, where Chromium paints a stretched glyph or a CSS background beyond what the box model
reports, the ink of a screenshot (decoded in the page's own canvas, so no image library is
needed).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import ink, write_formula_page

FORMULAS = {
    "pmatrix": (r"\begin{pmatrix} a & b \\ c & d \\ e & f \end{pmatrix}", False),
    "boxed": (r"\boxed{x + y}", False),
    "cancel": (r"\cancel{x}", False),
    "rows": (r"\begin{matrix} a \\ b \end{matrix}", True),
    "rows-gap": (r"\begin{matrix} a \\[12pt] b \end{matrix}", True),
    "widehat": (r"\widehat{xyz}", False),
    "utilde": (r"\utilde{ABCDEF}", False),
    "underbrace": (r"\underbrace{a + b + c + d}_{n}", True),
    "bbox": (r"\bbox[yellow,5px,border:2px solid red]{x}", False),
    "xarrow": (r"A \xrightarrow[\text{below}]{\text{a longer label}} B", True),
    "xtofrom": (r"A \xtofrom{\text{a longer label}} B", True),
    "overarrow": (r"\overrightarrow{ABCDEF}", False),
    # Wider than the ~250px Chromium stretches a horizontal brace to (20em at 24px).
    "long-underbrace": (r"\underbrace{a + b + c + d + e + f + g + h + i + j + k + l}_{n}", True),
    "long-overbrace": (r"\overbrace{a + b + c + d + e + f + g + h + i + j + k + l}^{n}", True),
    "long-underbracket": (
        r"\underbracket{a + b + c + d + e + f + g + h + i + j + k + l}_{n}",
        True,
    ),
    "long-overparen": (r"\overparen{a + b + c + d + e + f + g + h + i + j + k + l}", True),
    "short-underbrace": (r"\underbrace{x}_{n}", True),
    "two-overbraces": (r"\overbrace{a+b+c+d+e}^{5} = \overbrace{f+g+h+i+j}^{5}", True),
    "over-harpoon-right": (r"\overrightharpoon{ABCDEFGHIJKLMNOPQRST}", False),
    "over-harpoon-left": (r"\overleftharpoon{ABCDEFGHIJKLMNOPQRST}", False),
    "over-double-arrow": (r"\Overrightarrow{ABCDEFGHIJKLMNOPQRST}", False),
    "over-wideparen": (r"\wideparen{ABCDEF}", False),
}


@pytest.fixture(scope="module")
def formulas_dir(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """Write a page with one `<p id=…>` per formula of FORMULAS, and math.css beside it."""
    directory = tmp_path_factory.mktemp("enclosures")
    write_formula_page(directory, repo_root, FORMULAS, "font-size:24px;color:#222;background:#fff")
    return directory


@pytest.fixture
def formulas(formulas_dir: Path, serve_dir, page):
    """Open the formulas page; return the Playwright page."""
    page.set_viewport_size({"width": 900, "height": 900})
    page.goto(serve_dir(formulas_dir) + "index.html")
    page.evaluate("document.fonts.ready")  # measure with the math font, never a fallback
    return page


def rect(page, selector: str) -> dict:
    """Return the bounding box of the first element matching `selector`."""
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, right: r.right, bottom: r.bottom,"
        " width: r.width, height: r.height}; }",
    )


def test_a_pmatrix_bracket_stretches_to_its_three_rows(formulas):
    table = rect(formulas, "#pmatrix mtable")
    fences = [rect(formulas, f"#pmatrix mrow > mo:nth-of-type({i})") for i in (1, 2)]
    for fence in fences:
        assert fence["height"] >= 0.9 * table["height"]
    assert fences[0]["right"] <= table["x"] + 1 and fences[1]["x"] >= table["right"] - 1


def test_boxed_draws_a_border_on_all_four_sides_around_its_content(formulas):
    style = formulas.eval_on_selector(
        "#boxed menclose",
        "e => { const s = getComputedStyle(e); return ['Top', 'Right', 'Bottom', 'Left'].map("
        " side => [s['border' + side + 'Style'], parseFloat(s['border' + side + 'Width']),"
        " s['border' + side + 'Color']]).concat([[s.color]]); }",
    )
    *sides, (colour,) = style
    for border_style, width, border_colour in sides:
        assert border_style == "solid" and width >= 1
        assert border_colour == colour  # currentColor: follows the text in dark mode
    box, content = rect(formulas, "#boxed menclose"), rect(formulas, "#boxed menclose > mrow")
    assert box["x"] < content["x"] and content["right"] < box["right"]
    assert box["y"] < content["y"] and content["bottom"] < box["bottom"]
    drawn = ink(formulas, {"x": box["x"], "y": box["y"], "width": 2, "height": box["height"]})
    assert drawn is not None and drawn["bottom"] - drawn["top"] >= 0.9 * box["height"]


def test_cancel_draws_a_line_across_its_content_box(formulas):
    box = rect(formulas, "#cancel menclose")
    letter = rect(formulas, "#cancel mi")
    drawn = ink(formulas, {k: box[k] for k in ("x", "y", "width", "height")})
    assert drawn is not None
    # the letter alone is smaller than the padded box; the strike reaches its corners
    assert drawn["top"] <= box["y"] + 2 and drawn["bottom"] >= box["bottom"] - 2
    assert drawn["top"] < letter["y"] - 2
    corner = ink(formulas, {"x": box["right"] - 3, "y": box["y"], "width": 3, "height": 3})
    assert corner is not None  # `/`: ink at the top right corner


def test_a_row_gap_adds_its_length_between_the_rows(formulas):
    def gap(name: str) -> float:
        rows = [rect(formulas, f"#{name} mtr:nth-of-type({i}) mi") for i in (1, 2)]
        return rows[1]["y"] - rows[0]["bottom"]

    assert gap("rows-gap") - gap("rows") == pytest.approx(16, abs=1.5)  # 12pt = 16 CSS px


def test_widehat_covers_its_whole_base(formulas):
    base = rect(formulas, "#widehat mover > mrow")
    over = rect(formulas, "#widehat mover")
    height = base["y"] - over["y"]
    strip = {"x": over["x"], "y": over["y"], "width": over["width"], "height": height}
    drawn = ink(formulas, strip)
    assert drawn is not None
    assert drawn["right"] - drawn["left"] >= 0.8 * base["width"]


def test_utilde_is_a_tilde_as_wide_as_its_base_below_it(formulas):
    # `\utilde` was a `˜` under the base, which Chromium draws one character wide.
    base = rect(formulas, "#utilde munder > mrow")
    under = rect(formulas, "#utilde munder")
    strip = {"x": under["x"], "y": base["bottom"], "width": under["width"], "height": 20}
    drawn = ink(formulas, strip)
    assert drawn is not None
    assert drawn["right"] - drawn["left"] >= 0.8 * base["width"]


def test_underbrace_is_as_wide_as_its_base_and_taller_than_a_rule(formulas):
    base = rect(formulas, "#underbrace munder munder > mrow")
    label = rect(formulas, "#underbrace munder > mrow:last-child")
    strip = {
        "x": base["x"] - 5,
        "y": base["bottom"],
        "width": base["width"] + 10,
        "height": label["y"] - base["bottom"],
    }
    drawn = ink(formulas, strip)
    letters = ink(formulas, {k: base[k] for k in ("x", "y", "width", "height")})
    assert drawn is not None and letters is not None
    assert drawn["right"] - drawn["left"] >= 0.95 * (letters["right"] - letters["left"])
    assert drawn["bottom"] - drawn["top"] >= 4  # a brace has a beak; a rule is 1-2 px


def _brace_strip(page, key: str, labelled: bool = True) -> tuple[dict, dict]:
    """Return the box of formula `key`'s brace strip (between its base and its label, or
    next to the base when it has none; over it when `key` says "over") and its base's box."""
    page.eval_on_selector(f"#{key}", "e => e.scrollIntoView({block: 'center'})")
    stack = "mover" if "over" in key else "munder"
    outer = f"#{key} semantics > mrow > {stack}"
    base = rect(page, f"{outer} > {stack} > mrow:first-child" if labelled else f"{outer} > mrow")
    whole = rect(page, f"#{key} math")
    if labelled:
        label = rect(page, f"{outer} > mrow:last-child")
        top, bottom = (
            (label["bottom"], base["y"]) if stack == "mover" else (base["bottom"], label["y"])
        )
    else:
        top, bottom = (
            (whole["y"], base["y"]) if stack == "mover" else (base["bottom"], whole["bottom"])
        )
    return {"x": whole["x"], "y": top, "width": whole["width"], "height": bottom - top}, base


def _brace_and_base(page, key: str, labelled: bool = True) -> tuple[dict, dict, dict]:
    """Return the ink of formula `key`'s brace (`_brace_strip`), the ink of its base, and
    the base's box."""
    strip, base = _brace_strip(page, key, labelled)
    letters = ink(page, {k: base[k] for k in ("x", "y", "width", "height")})
    drawn = ink(page, strip)
    assert drawn is not None and letters is not None
    return drawn, letters, base


@pytest.mark.parametrize(
    "key", ["long-underbrace", "long-overbrace", "long-underbracket", "long-overparen"]
)
def test_a_brace_over_or_under_a_long_term_spans_all_of_it(formulas, key):
    # Chromium drew a stretched ⏟ (STIX Two Math's or DejaVu's) no wider than about 250px:
    # under a 20em term the brace covered its middle third.
    drawn, letters, base = _brace_and_base(formulas, key, labelled=key != "long-overparen")
    assert base["width"] > 400  # the case is one Chromium could not stretch to
    width = letters["right"] - letters["left"]
    assert drawn["left"] <= letters["left"] + 0.03 * width
    assert drawn["right"] >= letters["right"] - 0.03 * width
    assert drawn["bottom"] - drawn["top"] >= 4  # a shape, not a rule


def test_a_brace_under_one_letter_is_whole_and_centred_under_it(formulas):
    # At least its two ends and its tip (0.9em), as TeX's brace is never narrower than its
    # four pieces; the letter centred over it.
    drawn, letters, _ = _brace_and_base(formulas, "short-underbrace")
    assert drawn["right"] - drawn["left"] >= 0.85 * 0.9 * 24
    centre = (letters["left"] + letters["right"]) / 2
    assert abs((drawn["left"] + drawn["right"]) / 2 - centre) <= 2


def test_bbox_draws_its_background_padding_and_border(formulas):
    style = formulas.eval_on_selector(
        "#bbox mpadded.bbox",
        "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.paddingLeft,"
        " s.borderTopStyle, s.borderTopWidth, s.borderTopColor]; }",
    )
    assert style == ["rgb(255, 255, 0)", "5px", "solid", "2px", "rgb(255, 0, 0)"]
    box, letter = rect(formulas, "#bbox mpadded.bbox"), rect(formulas, "#bbox mi")
    assert letter["x"] - box["x"] >= 7 - 0.5  # border and padding on the left
    assert box["bottom"] - letter["bottom"] >= 7 - 0.5


def test_an_extensible_arrow_is_drawn_across_its_widest_label(formulas):
    # Chromium stretched no STIX Two Math arrow sideways: `→` stayed 0.95em under any label.
    label = rect(formulas, "#xarrow munderover > mpadded:last-child")
    arrow = rect(formulas, "#xarrow munderover > mpadded:first-child")
    drawn = ink(formulas, {k: arrow[k] for k in ("x", "y", "width", "height")})
    assert drawn is not None
    assert drawn["right"] - drawn["left"] >= 0.9 * label["width"]
    a, b = rect(formulas, "#xarrow mi:first-of-type"), rect(formulas, "#xarrow mi:last-of-type")
    whole = rect(formulas, "#xarrow munderover")
    assert whole["x"] - a["right"] == pytest.approx(0.2778 * 24, abs=1.5)  # a relation's 5mu
    assert b["x"] - whole["right"] == pytest.approx(0.2778 * 24, abs=1.5)


def test_xtofrom_draws_both_arrows_across_its_label(formulas):
    # `\xtofrom` kept a stretchy `⇄` that Chromium drew 1em wide under a 7em label.
    label = rect(formulas, "#xtofrom semantics > mrow > mover > mpadded:last-child")
    arrow = rect(formulas, "#xtofrom semantics > mrow > mover > mpadded:first-child")
    top = {"x": arrow["x"], "y": arrow["y"], "width": arrow["width"], "height": arrow["height"] / 2}
    bottom = dict(top, y=arrow["y"] + arrow["height"] / 2)
    for half in (top, bottom):  # one shaft in each half, each as wide as the label
        drawn = ink(formulas, half)
        assert drawn is not None
        assert drawn["right"] - drawn["left"] >= 0.9 * label["width"]


def test_overrightarrow_covers_its_whole_base(formulas):
    base = rect(formulas, "#overarrow mover > mrow")
    over = rect(formulas, "#overarrow mover")
    strip = {
        "x": over["x"],
        "y": over["y"],
        "width": over["width"],
        "height": base["y"] - over["y"],
    }
    drawn = ink(formulas, strip)
    assert drawn is not None
    assert drawn["right"] - drawn["left"] >= 0.9 * base["width"]


@pytest.mark.parametrize(
    "key", ["over-harpoon-right", "over-harpoon-left", "over-double-arrow", "over-wideparen"]
)
def test_harpoons_double_arrows_and_arcs_over_a_base_span_it(formulas, key):
    # Chromium stretched the harpoons and the double arrow to about 250px at most (over a
    # longer base they covered its middle); `\wideparen`'s arc stood before its base.
    formulas.eval_on_selector(f"#{key}", "e => e.scrollIntoView({block: 'center'})")
    base = rect(formulas, f"#{key} semantics > mrow > mover > mrow")
    whole = rect(formulas, f"#{key} math")
    above = {
        "x": whole["x"],
        "y": whole["y"],
        "width": whole["width"],
        "height": base["y"] - whole["y"],
    }
    drawn = ink(formulas, above)
    letters = ink(formulas, {k: base[k] for k in ("x", "y", "width", "height")})
    assert drawn is not None and letters is not None
    assert drawn["right"] - drawn["left"] >= 0.9 * (letters["right"] - letters["left"])


def test_two_braces_in_one_formula_each_span_their_term(formulas):
    # docs/math.md listed this as unsupported: the second brace was painted too short.
    formulas.eval_on_selector("#two-overbraces", "e => e.scrollIntoView({block: 'center'})")
    bases = formulas.eval_on_selector_all(
        "#two-overbraces semantics > mrow > mover > mover > mrow:first-child",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })",
    )
    labels = formulas.eval_on_selector_all(
        "#two-overbraces semantics > mrow > mover > mrow:last-child",
        "els => els.map(e => e.getBoundingClientRect().bottom)",
    )
    assert len(bases) == 2 and len(labels) == 2
    for base, top in zip(bases, labels, strict=True):
        strip = {"x": base["x"], "y": top, "width": base["width"], "height": base["y"] - top}
        drawn = ink(formulas, strip)
        letters = ink(formulas, base)
        assert drawn is not None and letters is not None
        assert drawn["right"] - drawn["left"] >= 0.95 * (letters["right"] - letters["left"])


@pytest.mark.parametrize("key", ["long-underbrace", "long-underbracket"])
def test_a_long_braces_shaft_is_a_thin_line_between_its_ends_and_tip(formulas, key):
    # The shape is tiles (ends, tip) joined by shafts 0.04em thick (math.css's mask sizes):
    # a column a quarter of the way along holds a thin line, the ends (and a brace's tip)
    # a shape several pixels tall.
    strip, _ = _brace_strip(formulas, key)
    drawn = ink(formulas, strip)
    assert drawn is not None
    width = drawn["right"] - drawn["left"]

    def column(at: float) -> dict:
        x = max(drawn["left"] + at * width, drawn["left"] + 1)
        box = {"x": x - 1, "y": strip["y"], "width": 2, "height": strip["height"]}
        found = ink(formulas, box)
        assert found is not None
        return found

    quarter = column(0.25)
    end = column(0)  # its first two pixels: the end's upright stroke
    assert quarter["bottom"] - quarter["top"] <= 2  # unsized layers paint 9-12 px here
    assert end["bottom"] - end["top"] >= 3
    if key == "long-underbrace":
        tip = column(0.5)
        assert tip["bottom"] - tip["top"] >= 3
