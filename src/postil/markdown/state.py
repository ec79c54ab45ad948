"""Per-document state shared by postil's Markdown plugins.

markdown-it passes one `env` dict through parsing and rendering; postil keeps a single
`RenderState` in `env["postil"]` so every plugin reports problems the same way and can
read what other plugins found (figure numbers, equation labels, widgets used).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from postil.errors import Diagnostic, Location, Severity

if TYPE_CHECKING:  # importing the math layer costs ≈ 0.15 s; a warm build needs none of it
    from postil.bibliography.entries import Work
    from postil.math.cache import MathCache


class SourceLines(Sequence[str]):
    """The lines of a text (split at LF), made on demand: `text.split("\n")` without the list.

    Plugins read a line only to locate a problem, but a list of a 20 MB post's lines takes
    ≈ 40 MB (a `str` object per line); this keeps the text, which is held anyway, and one
    offset per line (8 bytes), found on first use.
    """

    def __init__(self, text: str = "") -> None:
        self.text = text
        self._starts: array[int] | None = None

    def _offsets(self) -> array[int]:
        if self._starts is None:
            starts, find, at = array("q", [0]), self.text.find, 0
            while (at := find("\n", at) + 1) > 0:
                starts.append(at)
            self._starts = starts
        return self._starts

    def __len__(self) -> int:
        return len(self._offsets())

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        starts = self._offsets()
        start = starts[index]  # IndexError as a list gives
        index = index % len(starts)
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.text)
        return self.text[start:end]


@dataclass
class RenderState:
    """Mutable state for rendering one Markdown document (lives in `env["postil"]`).

    Attributes:
        path: the source file for messages, relative to the site root (POSIX).
        body_line: the 1-based file line of the first line of the Markdown body (after the
            front matter), so that a token's `map[0]` (0-based, body-relative) becomes
            file line `body_line + map[0]`.
        source_lines: the lines of the Markdown body, for error excerpts and columns.
        macros: math macros in force for this document (site, then front matter), name
            without backslash -> replacement LaTeX.
        diagnostics: warnings and errors found, in the order found.
        figures: figure id -> number ("fig-x" -> 1), filled before rendering.
        equations: equation label -> number text ("eq:var" -> "2"), filled before rendering.
        widgets: names of the widgets used, so the page loads only their scripts.
        math_chars: the characters the formulas draw, for the math font's subset
            (`postil.mathfont.formula_chars`).
        links: site-relative URL of every other post by its source path, for rewriting
            links between posts (`other.md#sec` -> `/posts/other/#sec`).
        assets: output rel of every published content asset by its source path
            (`content/posts/p/plot.png` -> `posts/p/plot.png`: `postil.assets`), for
            references written relative to the post's file.
        sizes: (width, height) of the site's images by output rel (`postil.images`).
        base_path: the site's base path ("/" or "/repo/", always ending in "/"); root-absolute
            links in posts are put under it (`postil.markdown.links`).
        base_url: the site's base URL ("https://example.org/blog/"), for the template tags
            of other generators that give it (`postil.markdown.liquid`, `.shortcode`).
        templates: the site's Jinja2 environment (`postil.theme.create_template_env`), for
            plugins that render templates (widgets); None means the default theme's.
        highlight_cache: highlighted code by (code, language, lines, line numbers)
            (`postil.markdown.code.HighlightKey`); the build passes one shared by the posts
            a process renders, seeded from the build cache.
        math_cache: the math conversion cache to use (`postil.math.MathCache`, usually one
            per build worker, shared by its documents); None converts every formula anew.
        double_dollar_in_text: how `$$…$$` inside a line of text reads: "inline" (kramdown's
            reading, the default) or "display" (Pandoc's); the site's
            `math: double_dollar_in_text:` (`postil.markdown.math`).
        bibliography: the works the document can cite by key (`postil.bibliography`:
            its own `.bib` files, then the site's), or None when it names no bibliography
            (then `[@key]` is no citation).
        citation_style: "author-year" or "numeric" (`postil.markdown.cite`).
        extra: free room for a plugin's own per-document data, keyed by plugin name.
    """

    path: str = "<string>"
    body_line: int = 1
    source_lines: Sequence[str] = field(default_factory=SourceLines)
    macros: Mapping[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    figures: dict[str, int] = field(default_factory=dict)
    equations: dict[str, str] = field(default_factory=dict)
    widgets: set[str] = field(default_factory=set)
    math_chars: set[str] = field(default_factory=set)
    links: Mapping[str, str] = field(default_factory=dict)
    assets: Mapping[str, str] = field(default_factory=dict)
    sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    base_path: str = "/"
    base_url: str = ""
    templates: Any = None
    highlight_cache: MutableMapping[tuple[Any, ...], str] = field(default_factory=dict)
    math_cache: MathCache | None = None
    double_dollar_in_text: str = "inline"
    bibliography: Mapping[str, Work] | None = None
    citation_style: str = "author-year"
    extra: dict[str, Any] = field(default_factory=dict)
    _reported: set[Diagnostic] = field(default_factory=set, repr=False)

    def location(self, body_line0: int | None, col: int = 0) -> Location:
        """Return the file location of a 0-based body line (a token's `map[0]`) and 1-based col."""
        if body_line0 is None:
            return Location(self.path)
        return Location(self.path, self.body_line + body_line0, col)

    def report(self, severity: Severity, body_line0: int | None, col: int, message: str) -> None:
        """Record a diagnostic at a 0-based body line and 1-based column."""
        excerpt = ""
        if body_line0 is not None and 0 <= body_line0 < len(self.source_lines):
            excerpt = self.source_lines[body_line0]
        found = Diagnostic(severity, self.location(body_line0, col), message, excerpt)
        if found in self._reported:
            return  # the same tokens rendered twice (a note's margin copy and its Notes entry)
        self._reported.add(found)
        self.diagnostics.append(found)

    def warn(self, body_line0: int | None, col: int, message: str) -> None:
        """Record a warning (fails the build only under --strict)."""
        self.report(Severity.WARNING, body_line0, col, message)

    def error(self, body_line0: int | None, col: int, message: str) -> None:
        """Record an error (fails the build)."""
        self.report(Severity.ERROR, body_line0, col, message)


def get_state(env: MutableMapping[str, Any]) -> RenderState:
    """Return the document's `RenderState`, creating a default one for bare `md.render()` calls."""
    state = env.get("postil")
    if state is None:
        state = env["postil"] = RenderState()
    return state
