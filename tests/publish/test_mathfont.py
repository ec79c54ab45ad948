"""The theme's math font: the characters a site's formulas draw, the STIX Two Math subset
made for them (glyphs, MATH table, licence), and how a build writes and caches it."""

from __future__ import annotations

import io
import multiprocessing
import re
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from markdown_it.utils import read_fixture_file
from support.sites import make_site

from postil import mathfont, parallel
from postil.build import BuildOptions, build
from postil.errors import BuildFailed
from postil.mathfont import (
    BROTLI_QUALITY,
    FONT_REL,
    LICENSE_REL,
    ROUNDHAND,
    formula_chars,
    subset_chars,
    subset_woff2,
)

MATHML = (
    '<math display="block"><semantics><mrow><mi>x</mi><mo>&lt;</mo><msqrt><mn>2</mn></msqrt>'
    "<mtext>&#x2192;</mtext></mrow>"
    '<annotation encoding="application/x-tex">x &lt; \\sqrt{2} \\to Q</annotation>'
    "</semantics></math>"
)


def test_formula_chars_are_the_text_with_the_radical_and_without_tags_or_tex():
    assert formula_chars(MATHML) == {"x", "<", "2", "→", "√"}


def test_formula_chars_of_a_formula_without_radical_has_no_radical_sign():
    assert formula_chars("<math><mi>y</mi></math>") == {"y"}


def test_formula_chars_of_many_formulas_are_their_text_without_tags_or_annotation():
    # The definition, spelled as the plainest regex: every tag and the TeX annotation out.
    markup = re.compile(r"<annotation\b.*?</annotation>|<[^>]*>", re.S)
    fixtures = Path(__file__).parents[1] / "fixtures" / "math"
    outputs = [
        re.sub(r">\n *<", "><", expected)
        for path in sorted(fixtures.glob("*.txt"))
        for _, _, _, expected in read_fixture_file(path)
        if expected.startswith("<math")
    ]
    assert len(outputs) > 200
    for mathml in outputs:
        text = mathfont.ENTITY.sub(mathfont._entity, markup.sub("", mathml))
        radical = {"\u221a"} if "<msqrt" in mathml or "<mroot" in mathml else set()
        roundhand = {ROUNDHAND} if 'class="mathscr"' in mathml else set()
        assert formula_chars(mathml) == set(text) | radical | roundhand, mathml


def test_subset_chars_add_the_italic_forms_mathml_draws_letters_in_and_sort():
    # x -> U+1D465, h -> U+210E (the hole in the block), Γ -> U+1D6E4, ∂ -> U+1D715
    assert subset_chars("x∂hΓ+") == "".join(sorted(" +hx∂Γ𝑥ℎ𝛤𝜕"))


def test_subset_chars_are_the_same_for_any_order_or_repetition():
    assert subset_chars("ba(a)") == subset_chars(")(ab")


def font_of(data: bytes) -> TTFont:
    return TTFont(io.BytesIO(data))


@pytest.fixture(scope="module")
def subset_font() -> TTFont:
    return font_of(subset_woff2(subset_chars("(x)=∑√")))


def test_subset_font_is_woff2_and_maps_every_character(subset_font):
    assert subset_font.flavor == "woff2"
    cmap = subset_font.getBestCmap()
    assert set(map(ord, "(x)=∑√𝑥 ")) <= set(cmap)
    assert ord("y") not in cmap and ord("Q") not in cmap


def test_subset_font_keeps_the_stretchy_variants_of_the_math_table(subset_font):
    variants = subset_font["MATH"].table.MathVariants
    paren = subset_font.getBestCmap()[ord("(")]
    vertical = dict(
        zip(variants.VertGlyphCoverage.glyphs, variants.VertGlyphConstruction, strict=True)
    )
    sizes = [r.VariantGlyph for r in vertical[paren].MathGlyphVariantRecord]
    assert len(sizes) >= 4 and set(sizes) <= set(subset_font.getGlyphOrder())
    assert vertical[paren].GlyphAssembly is not None  # a tall enough paren is built of parts


def test_subset_font_carries_its_copyright_and_licence(subset_font):
    names = subset_font["name"]
    assert "The STIX Fonts Project Authors" in names.getDebugName(0)
    assert "SIL Open Font License, Version 1.1" in names.getDebugName(13)
    assert names.getDebugName(1) == "STIX Two Math"


def test_subset_is_the_same_bytes_every_time():
    chars = subset_chars("αβ∫")
    assert subset_woff2.__wrapped__(chars) == subset_woff2.__wrapped__(chars)


def test_licence_file_has_the_notices_then_the_whole_ofl():
    text = mathfont.license_text().decode()
    assert text.startswith("STIX Two Math Regular\nCopyright 2001-2020 The STIX Fonts")
    assert "SIL OPEN FONT LICENSE\n\nVersion 1.1 - 26 February 2007" in text
    assert text.rstrip().endswith("OTHER DEALINGS IN THE FONT SOFTWARE.")


POST = "---\ntitle: {title}\ndate: 2026-01-0{day}\n---\n\n{body}\n"


def write_posts(root: Path, bodies: list[str]) -> Path:
    posts = {
        f"p{i}.md": POST.format(title=f"P{i}", day=i + 1, body=body)
        for i, body in enumerate(bodies)
    }
    return make_site(root, posts)


def test_build_writes_a_font_for_the_characters_of_every_post_and_its_licence(tmp_path):
    root = write_posts(tmp_path / "site", ["Inline $\\alpha$.", "$$\\int_0^1 f$$", "No math."])
    build(BuildOptions(root=root))
    out = root / "_site"
    cmap = font_of((out / FONT_REL).read_bytes()).getBestCmap()
    assert set(map(ord, "α∫01f𝛼𝑓")) <= set(cmap)
    assert ord("β") not in cmap
    assert (out / LICENSE_REL).read_bytes() == mathfont.license_text()


def test_site_without_math_gets_no_font_and_its_pages_load_no_math_script(tmp_path):
    root = write_posts(tmp_path / "site", ["Costs $5 and $10."])
    build(BuildOptions(root=root))
    out = root / "_site"
    assert not (out / "fonts").exists()
    page = (out / "posts/p0/index.html").read_text(encoding="utf-8")
    assert "math.js" not in page and "stix-two-math.woff2" not in page


def test_page_with_math_preloads_the_font_and_loads_the_copy_module(tmp_path):
    root = write_posts(tmp_path / "site", ["Inline $x$.", "No math."])
    build(BuildOptions(root=root))
    with_math = (root / "_site/posts/p0/index.html").read_text(encoding="utf-8")
    without = (root / "_site/posts/p1/index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/js/math.js"></script>' in with_math
    assert (
        '<link rel="preload" href="/fonts/stix-two-math.woff2" as="font" type="font/woff2"'
        " crossorigin>"
    ) in with_math
    assert "math.js" not in without and "stix-two-math" not in without


def test_two_builds_of_one_site_write_the_same_font_and_a_warm_one_reuses_it(tmp_path, monkeypatch):
    bodies = ["$a^2 + b^2 = c^2$", "$$\\sum_{i=1}^n i$$"]
    first = write_posts(tmp_path / "one", bodies)
    second = write_posts(tmp_path / "two", bodies)
    build(BuildOptions(root=first))
    build(BuildOptions(root=second, cache=False))
    font = (first / "_site" / FONT_REL).read_bytes()
    assert (second / "_site" / FONT_REL).read_bytes() == font
    calls = tmp_path / "subsets"  # a file: the font may be made in a forked process

    def subset(chars: str) -> bytes:
        with calls.open("a", encoding="utf-8") as f:
            f.write(chars + "\n")
        return b""

    def made() -> list[str]:
        return calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []

    monkeypatch.setattr(mathfont, "subset_woff2", subset)
    (first / "content/posts/p0.md").write_text(
        POST.format(title="P", day=1, body="$b^2 + a^2 = c^2$")
    )
    build(BuildOptions(root=first))  # the same characters: the cached font, not a new one
    assert made() == [] and (first / "_site" / FONT_REL).read_bytes() == font
    (first / "content/posts/p0.md").write_text(POST.format(title="P", day=1, body="$\\Omega$"))
    build(BuildOptions(root=first))  # a new character: a new subset
    assert len(made()) == 1 and "Ω" in made()[0]


class StandbySpy:
    """Record the math font's `parallel.Standby`s: started, handed a job, or closed unused."""

    def __init__(self, monkeypatch):
        self.events: list[str] = []
        spy = self
        real = parallel.Standby

        class Recorded(real):  # type: ignore[misc, valid-type]
            def __init__(self, prepare):
                spy.events.append("started")
                super().__init__(prepare)

            def run(self, function, *args):
                spy.events.append("used")
                return super().run(function, *args)

            def close(self):  # forked or not (a process with threads runs it in-process)
                spy.events.append("closed")
                super().close()

        monkeypatch.setattr(parallel, "Standby", Recorded)


def test_cold_build_prepares_the_font_process_while_posts_render(tmp_path, monkeypatch):
    spy = StandbySpy(monkeypatch)
    root = write_posts(tmp_path / "site", ["Inline $\\alpha$.", "$$\\int_0^1 f$$"])
    build(BuildOptions(root=root))
    assert spy.events == ["started", "used"]
    out = root / "_site"
    font = font_of((out / FONT_REL).read_bytes())
    assert set(map(ord, "α∫01f𝛼𝑓")) <= set(font.getBestCmap())
    assert (out / LICENSE_REL).read_bytes() == mathfont.license_text()
    assert multiprocessing.active_children() == []
    spy.events.clear()
    build(BuildOptions(root=root))  # warm: the font is in the cache, no process is started
    assert spy.events == []


@pytest.mark.parametrize(
    ("body", "events"),
    [
        ("No math at all.", []),  # nothing TeX-like: not started
        ("Costs $5 and $10.", ["started", "closed"]),  # looked like TeX, drew no formula
    ],
)
def test_font_process_is_stopped_when_the_site_needs_no_font(tmp_path, monkeypatch, body, events):
    spy = StandbySpy(monkeypatch)
    root = write_posts(tmp_path / "site", [body])
    build(BuildOptions(root=root))
    assert spy.events == events
    assert not (root / "_site" / "fonts").exists()
    assert multiprocessing.active_children() == []


def test_font_process_is_stopped_when_the_build_fails(tmp_path, monkeypatch):
    spy = StandbySpy(monkeypatch)
    root = write_posts(tmp_path / "site", ["$x$ and [a link](missing.md)."])
    with pytest.raises(BuildFailed):
        build(BuildOptions(root=root, strict=True))
    assert spy.events == ["started", "closed"]
    assert multiprocessing.active_children() == []


def cli_build(root: Path, *flags: str) -> int:
    from postil.cli import main

    return main(["-C", str(root), "build", *flags])


@pytest.mark.parametrize(
    ("bodies", "events"),
    [
        (["Inline $\\alpha$.", "$$\\int_0^1 f$$"], ["started", "used"]),  # taken by the build
        (["No math at all."], ["started", "closed"]),  # nothing TeX-like: stopped at once
        (["Costs $5 and $10."], ["started", "closed"]),  # looked like TeX, drew no formula
    ],
)
def test_cold_cli_build_starts_the_font_process_once_and_the_build_takes_or_stops_it(
    tmp_path, monkeypatch, bodies, events
):
    spy = StandbySpy(monkeypatch)
    root = write_posts(tmp_path / "site", bodies)
    assert cli_build(root) == 0
    assert spy.events == events  # one process: the build did not start a second
    assert multiprocessing.active_children() == []
    assert (root / "_site" / FONT_REL).exists() == (events[-1] == "used")


def test_cli_build_with_a_cache_leaves_the_font_process_to_the_build(tmp_path, monkeypatch):
    root = write_posts(tmp_path / "site", ["Inline $\\alpha$."])
    assert cli_build(root) == 0
    font = (root / "_site" / FONT_REL).read_bytes()
    spy = StandbySpy(monkeypatch)
    assert cli_build(root) == 0  # warm: the font is in the cache, no process at all
    assert spy.events == []
    assert cli_build(root, "--no-cache") == 0  # cold again, whatever the cache holds
    assert spy.events == ["started", "used"]
    assert (root / "_site" / FONT_REL).read_bytes() == font


@pytest.mark.parametrize("failure", ["strict", "config"])
def test_cli_font_process_is_stopped_when_the_build_fails(tmp_path, monkeypatch, failure):
    spy = StandbySpy(monkeypatch)
    root = write_posts(tmp_path / "site", ["$x$ and [a link](missing.md)."])
    if failure == "config":  # fails before any post is read
        (root / "postil.yaml").write_text("title: [unclosed\n")
    assert cli_build(root, *(["--strict"] if failure == "strict" else [])) in (1, 2)
    assert spy.events == ["started", "closed"]
    assert multiprocessing.active_children() == []
    assert not (root / "_site").exists()


def test_cli_starts_the_font_process_before_importing_the_build(tmp_path):
    """`postil build` forks the font's process while it still has to import postil, so
    fontTools is imported beside that import rather than beside the rendering workers."""
    import subprocess
    import sys

    root = write_posts(tmp_path / "site", ["Inline $\\alpha$."])
    script = (
        "import sys\n"
        "from postil import parallel\n"
        "class Spy(parallel.Standby):\n"
        "    def __init__(self, prepare):\n"
        "        print('build imported:', 'postil.build' in sys.modules, flush=True)\n"
        "        super().__init__(prepare)\n"
        "parallel.Standby = Spy\n"
        "from postil.cli import main\n"
        f"sys.exit(main(['-C', {str(root)!r}, 'build']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "build imported: False"
    assert (root / "_site" / FONT_REL).exists()


def variants(font: Any, feature: str) -> dict[str, str]:
    """Return the single substitutions (glyph -> glyph) of `feature` in `font`'s GSUB."""
    gsub = font["GSUB"].table
    lookups = {
        index
        for record in gsub.FeatureList.FeatureRecord
        if record.FeatureTag == feature
        for index in record.Feature.LookupListIndex
    }
    mapping: dict[str, str] = {}
    for index in lookups:
        for table in gsub.LookupList.Lookup[index].SubTable:
            mapping.update(getattr(getattr(table, "ExtSubTable", table), "mapping", {}))
    return mapping


def test_subset_font_keeps_the_prime_variants_math_css_asks_for_in_superscripts():
    # math.css sets `ss04` on superscripts: STIX Two Math's primes drawn to be raised as
    # TeX's \prime is (its default U+2032 is raised already: tiny and high in a script)
    font = font_of(subset_woff2(subset_chars("f′″")))
    mapping = variants(font, "ss04")
    cmap = font.getBestCmap()
    assert cmap[ord("′")] in mapping and cmap[ord("″")] in mapping
    assert mapping[cmap[ord("′")]] in font.getGlyphOrder()


@pytest.mark.parametrize(
    ("feature", "chars"),
    [("ss14", "∖"), ("ss06", "∣∤∥∦"), ("ss12", "⌢⌣"), ("cv03", "∅")],
)
def test_subset_font_keeps_the_glyph_variants_math_css_asks_for(feature, chars):
    # math.css's `mo.setminus` (ss14: TeX's tall \setminus), `mo.short` (ss06: amssymb's
    # \shortmid, \shortparallel), `mo.small` (ss12: \smallfrown), `mi.emptyset` (cv03: TeX's
    # oval): symbols.GLYPH_VARIANTS
    font = font_of(subset_woff2(subset_chars("x" + chars)))
    mapping = variants(font, feature)
    cmap = font.getBestCmap()
    for char in chars:
        assert mapping.get(cmap[ord(char)]) in font.getGlyphOrder()


def test_the_woff2_is_compressed_at_postils_brotli_quality(monkeypatch):
    """fontTools compresses WOFF2 at brotli's slowest quality and takes no other; postil's
    subset asks for `BROTLI_QUALITY` through fontTools' own call (this fails should fontTools
    stop calling its module's `brotli.compress`, which would make the font slower again, not
    wrong), and puts fontTools' module back afterwards."""
    from fontTools.ttLib import woff2

    module = woff2.brotli
    qualities = []
    real = module.compress

    def compress(data, *args, **options):
        qualities.append(options.get("quality"))
        return real(data, *args, **options)

    monkeypatch.setattr(module, "compress", compress)
    data = subset_woff2.__wrapped__(subset_chars("(x)=∑√"))
    assert qualities == [BROTLI_QUALITY] and BROTLI_QUALITY < 11
    assert woff2.brotli is module
    assert set(map(ord, "(x)=∑√")) <= set(font_of(data).getBestCmap())


def test_subset_keeps_the_roundhand_letters_only_for_formulas_that_draw_mathscr():
    # math.css's `.mathscr` asks for ss01; its alternates of every script letter drawn
    # would cost a site of `\mathcal` letters about 3 KB, so they come with `\mathscr` only
    from postil.math import latex_to_mathml

    scr = formula_chars(latex_to_mathml(r"\mathscr{L} + \mathcal{D}"))
    cal = formula_chars(latex_to_mathml(r"\mathcal{L} + \mathcal{D}"))
    assert ROUNDHAND in scr and ROUNDHAND not in cal
    for chars, kept in ((scr, True), (cal, False)):
        font = font_of(subset_woff2(subset_chars(chars)))
        mapping = variants(font, "ss01")
        assert (font.getBestCmap()[ord("ℒ")] in mapping) is kept
