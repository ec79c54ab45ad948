"""The theme's math font: STIX Two Math, subset to the characters a site's formulas use.

The font is the OpenType MATH font STIX Two Math 2.11 (© The STIX Fonts Project Authors,
SIL Open Font License 1.1, no Reserved Font Name), taken from the `ziamath` package on PyPI,
which ships it as `ziamath/fonts/STIXTwoMath-Regular.ttf`; so `pip install postil` brings it
and nothing is downloaded at build time. A build writes

- `fonts/stix-two-math.woff2`: the glyphs of the characters in the site's MathML, plus
  what Chromium draws for them — the italic forms `<mi>x</mi>` is shown in (MathML Core's
  `text-transform: math-auto`), the script-size (`ssty`) and flattened-accent (`flac`)
  alternates and every size variant and assembly piece of the MATH table (stretchy
  brackets, radicals, big operators) — compressed as WOFF2;
- `fonts/STIXTwoMath-OFL.txt`: the font's copyright line and the licence, which the OFL
  asks to travel with the font (the subset also keeps them in its `name` table).

`math.css` declares it as the "postil math" family. The subset is a pure function of the
character set and the font (fontTools writes no timestamp), so two builds of one site
write the same bytes; the build cache keeps it by the character set's fingerprint.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

FONT_REL = "fonts/stix-two-math.woff2"
"""Where the subset font is written in the output (math.css points at it)."""
LICENSE_REL = "fonts/STIXTwoMath-OFL.txt"
"""Where the font's licence is written beside it."""
SOURCE_NAME = "fonts/STIXTwoMath-Regular.ttf"
"""The font file inside the `ziamath` package."""

BROTLI_QUALITY = 10
"""The Brotli quality of the WOFF2 (0-11). fontTools' WOFF2 writer always compresses at 11,
the slowest: for a blog's subset (166 characters, 86 kB of tables) quality 10 gives
41,748 bytes against 41,524 (+0.5 %) in 0.25 s of CPU against 0.36 s, and the font is on
a cold build's path (made after the last post renders, while the pages do); 9 gives
43,544 (+4.9 %). Measured in session 40 (`docs/performance.md`)."""

FEATURES = ("ssty", "flac", "dtls", "rtlm", "ss04", "ss06", "ss12", "ss14", "cv03")
r"""OpenType features a MathML renderer applies besides the default shaping ones, and the
variants math.css asks for: primes in superscripts (`ss04`), the short `\shortmid` and
`\shortparallel` (`ss06`), the small `\smallfrown` (`ss12`), the tall `\setminus` (`ss14`),
TeX's oval `\emptyset` (`cv03`)."""
ROUNDHAND = "\ue0f1"
"""Stands in the character set for "the formulas draw `\\mathscr`" (a `class="mathscr"`
token): only then does the subset keep the roundhand letters (`ss01`), which would add about
3 KB to every site whose formulas draw a `\\mathcal` letter."""

ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.S)
TEXT = re.compile(r">([^<]+)")
"""The text after each tag: serialised MathML has no `>` outside tags (`escape_text`)."""
ENTITY = re.compile(r"&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def formula_chars(mathml: str) -> set[str]:
    """Return the characters a `<math>` element draws: its text (the TeX annotation and the
    tags left out, character references read), and the radical sign U+221A that
    `<msqrt>`/`<mroot>` draw without holding it (MathML Core, "Radicals"); `ROUNDHAND` if
    it draws `\\mathscr` letters."""
    if "<annotation" in mathml:
        mathml = ANNOTATION.sub("", mathml)
    text = "".join(TEXT.findall(mathml))  # one search per text node, not one per tag
    if "&" in text:
        text = ENTITY.sub(_entity, text)
    radical = "<msqrt" in mathml or "<mroot" in mathml
    roundhand = 'class="mathscr"' in mathml
    return set(text) | ({"\u221a"} if radical else set()) | ({ROUNDHAND} if roundhand else set())


def _entity(match: re.Match[str]) -> str:
    hexa, decimal, name = match.groups()
    return chr(int(hexa, 16)) if hexa else chr(int(decimal)) if decimal else NAMED[name]


def _italic_forms() -> dict[str, str]:
    """Return letter -> its math italic letter (MathML Core's italic mapping, `math-auto`)."""
    pairs = {chr(0x41 + i): chr(0x1D434 + i) for i in range(26)}
    pairs |= {chr(0x61 + i): chr(0x1D44E + i) for i in range(26)}
    pairs["h"] = "\u210e"  # ℎ: U+1D455 is a hole in the Mathematical Alphanumeric block
    pairs |= {chr(0x391 + i): chr(0x1D6E2 + i) for i in range(25) if i != 0x11}
    pairs |= {chr(0x3B1 + i): chr(0x1D6FC + i) for i in range(25)}
    extra = zip(
        "ıȷϴ∇∂ϵϑϰϕϱϖ",
        "\U0001d6a4\U0001d6a5\U0001d6f3\U0001d6fb\U0001d715"
        "\U0001d716\U0001d717\U0001d718\U0001d719\U0001d71a\U0001d71b",
        strict=True,
    )
    return pairs | dict(extra)


ITALIC = _italic_forms()


def subset_chars(chars: Iterable[str]) -> str:
    """Return the characters the font must hold to draw `chars` in MathML, sorted.

    Adds the italic form of every Latin and Greek letter (a single-letter `<mi>` is drawn
    in it) and the space; the result is the canonical form the subset is keyed by.
    """
    found = set(chars) | {" "}
    found |= {ITALIC[c] for c in found if c in ITALIC}
    return "".join(sorted(c for c in found if c.isprintable() or c in "\u2061" + ROUNDHAND))


def font_source() -> Path:
    """Return the path of STIX Two Math inside the installed `ziamath` package.

    Found without importing `ziamath` (which would import latex2mathml and ziafont).

    Raises:
        FileNotFoundError: `ziamath` is not installed or no longer ships the font.
    """
    spec = find_spec("ziamath")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / SOURCE_NAME
        if path.is_file():
            return path
    raise FileNotFoundError(f"the math font {SOURCE_NAME} of the ziamath package is missing")


@lru_cache(maxsize=8)
def subset_woff2(chars: str) -> bytes:
    """Return STIX Two Math as WOFF2 with the glyphs that draw `chars` (see the module doc).

    Args:
        chars: the output of `subset_chars` (the cache key; other strings work too).

    Raises:
        FileNotFoundError: as `font_source`.
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    roundhand = ["ss01"] if ROUNDHAND in chars else []  # `\mathscr` (math.css)
    options.layout_features = [*options.layout_features, *FEATURES, *roundhand]
    options.name_IDs = ["*"]  # keeps the copyright (0) and the licence (13, 14)
    options.hinting = False  # browsers rasterise math unhinted; the hints are a third
    options.flavor = "woff2"
    font = TTFont(font_source(), recalcTimestamp=False, lazy=True)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars.replace(ROUNDHAND, ""))
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    with _brotli_quality(BROTLI_QUALITY):
        font.save(out)
    return out.getvalue()


@contextmanager
def _brotli_quality(quality: int) -> Iterator[None]:
    """Make fontTools' WOFF2 writer compress at `quality` while the block runs.

    fontTools takes no quality (`fontTools.ttLib.woff2` calls its module's `brotli.compress`
    with the mode alone); the module's `brotli` is stood in for by `_Brotli`, which passes
    one, and put back afterwards. Should fontTools stop reading that name, the font is
    compressed at its own quality and stays right (`tests/publish/test_mathfont.py` tells).
    """
    from fontTools.ttLib import woff2

    module = getattr(woff2, "brotli", None)
    if module is None:
        yield
        return
    woff2.brotli = _Brotli(module, quality)
    try:
        yield
    finally:
        woff2.brotli = module


class _Brotli:
    """A brotli module (`brotli` or `brotlicffi`) whose `compress` uses a given quality."""

    def __init__(self, module: Any, quality: int) -> None:
        self._module = module
        self._quality = quality

    def __getattr__(self, name: str) -> object:
        return getattr(self._module, name)

    def compress(self, data: bytes, *args: Any, **options: Any) -> bytes:
        """Compress `data` with brotli's other arguments (the `mode`) at this quality."""
        options["quality"] = self._quality
        compressed: bytes = self._module.compress(data, *args, **options)
        return compressed


def import_font_tools() -> None:
    """Import the parts of fontTools `subset_woff2` uses (≈ 0.2 s of CPU): the set-up a
    `postil.parallel.Standby` does while the posts render, before the characters are known."""
    from fontTools import subset  # noqa: F401
    from fontTools.ttLib import TTFont  # noqa: F401


def font_files(_prepared: object, chars: str) -> tuple[bytes, bytes]:
    """Return (`subset_woff2(chars)`, `license_text()`): the two files of the math font, as
    one job for the process that makes them (`postil.build.generated_assets`).

    Args:
        _prepared: what `import_font_tools` returned (nothing); a `Standby` passes it.
        chars: as `subset_woff2`.

    Raises:
        FileNotFoundError: as `font_source`.
    """
    return subset_woff2(chars), license_text()


@lru_cache(maxsize=1)
def license_text() -> bytes:
    """Return the font's licence file: its copyright and trademark notices (read from the
    font's `name` table), then the text of the SIL Open Font License 1.1.

    Raises:
        FileNotFoundError: as `font_source`.
    """
    from fontTools.ttLib import TTFont

    names = TTFont(font_source(), lazy=True)["name"]
    notices = [names.getDebugName(i) for i in (4, 0, 7)]  # full name, copyright, trademark
    head = "\n".join(n for n in notices if n) + "\nSubset for this site by postil.\n\n"
    return head.encode() + (Path(__file__).parent / "licenses" / "OFL-1.1.txt").read_bytes()
