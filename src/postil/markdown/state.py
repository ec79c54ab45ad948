"""Per-document state shared by postil's Markdown plugins.

markdown-it passes one `env` dict through parsing and rendering; postil keeps a single
`RenderState` in `env["postil"]` so every plugin reports problems the same way and can
read what other plugins found (figure numbers, equation labels, widgets used).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
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
class GroupRun:
    """Where the core rules after `inline` are in a document parsed a group at a time.

    `postil.markdown.render_markdown` runs `inline`, the core rules after it and the
    renderer on a group of top-level blocks at a time (docs/architecture.md, "The Markdown
    stage"). A document of one group (every normal post, and bare `md.parse` calls) is one
    run with `first` and `last` set and no `facts`: each rule sees the whole document, as
    markdown-it's own chain gives it. A document of several groups is run twice: first
    ahead (`ahead`: the output is thrown away, its diagnostics dropped), where each
    document-wide rule stores what the whole document holds in `facts` at the last group;
    then for real, where the rules read those facts for what lies ahead of a group.

    Attributes:
        first: the group is the document's first.
        last: the group is the document's last (rules append their lists here).
        ahead: this is the gathering run of a document of several groups.
        facts: rule name -> what the gathering run found in the whole document; kept for the
            second run ({} for a document of one group).
        carry: rule name -> the rule's state carried from one group to the next (counters,
            ids used so far); emptied before each run.
    """

    first: bool = True
    last: bool = True
    ahead: bool = False
    facts: dict[str, Any] = field(default_factory=dict)
    carry: dict[str, Any] = field(default_factory=dict)

    @property
    def whole(self) -> bool:
        """Whether the rules see the whole document at once (a document of one group)."""
        return self.first and self.last and not self.facts


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
        diagrams: the diagram languages used ("mermaid": `postil.markdown.diagram`), so
            only a page with a diagram loads the script that draws it.
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
        code_spans: how a code span holding a formula reads: "code" (the default) or
            "math" (math-code.js's reading); the site's `math: code_spans:`
            (`postil.markdown.mathcode`).
        bibliography: the works the document can cite by key (`postil.bibliography`:
            its own `.bib` files, then the site's), or None when it names no bibliography
            (then `[@key]` is no citation).
        labels: (source path, heading text) of each section label the site's posts give
            (`postil.render.AssetMaps.labels`), by label: a MyST `{ref}` or an R Markdown
            `[text](#id)` to a section of another page is a link there
            (`postil.markdown.fragments`, `postil.markdown.mystrole`).
        citation_style: "author-year" or "numeric" (`postil.markdown.cite`).
        media_path: the folder relative image paths are read from (the post's
            `media_subpath:`, `FrontMatter.media_path`), or "": the document's own.
        title_id: the id of the page's title element (`FrontMatter.title_id`), or "":
            body headings avoid it, and links to it are links to an id of the page.
        title_text: the title when it is the body's opening `# Heading`
            (`FrontMatter.title_heading`), else "": other generators keep that heading
            in the page, so links to its id under their rules land on the title
            (`postil.markdown.fragments`).
        front_matter: the scalar values of the post's front matter by key, as written
            (`FrontMatter.vue_values`), for VitePress' `{{ $frontmatter.key }}`, Hugo's
            `{{< param key >}}` and Quarto's `{{< meta key >}}`; filled only for a body
            that reads them.
        site_params: the site's own values by name (`SiteConfig.params`), for Jekyll's
            `{{ site.name }}`, Hugo's `{{< param name >}}` and Quarto's `{{< var name >}}`.
        front_matter_syntax: how the post's front matter is written
            (`FrontMatter.front_matter_syntax`): "julia" makes it a Franklin.jl page, whose
            own Markdown `postil.markdown.franklin` reads.
        extra: free room for a plugin's own per-document data, keyed by plugin name.
        groups: where the core rules are when the document is parsed in groups (`GroupRun`).
        phase: the sort key of what is reported now: (core rule's index, step within the
            rule); `render_markdown` orders the diagnostics by it, so a document parsed
            in groups reports in the order of one parsed whole (rule by rule).
    """

    path: str = "<string>"
    body_line: int = 1
    source_lines: Sequence[str] = field(default_factory=SourceLines)
    macros: Mapping[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    figures: dict[str, int] = field(default_factory=dict)
    equations: dict[str, str] = field(default_factory=dict)
    widgets: set[str] = field(default_factory=set)
    diagrams: set[str] = field(default_factory=set)
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
    code_spans: str = "code"
    bibliography: Mapping[str, Work] | None = None
    labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    citation_style: str = "author-year"
    media_path: str = ""
    title_id: str = ""
    title_text: str = ""
    front_matter: Mapping[str, str] = field(default_factory=dict)
    site_params: Mapping[str, str] = field(default_factory=dict)
    front_matter_syntax: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    groups: GroupRun = field(default_factory=GroupRun, repr=False)
    phase: tuple[int, int] = (0, 0)
    _reported: set[Diagnostic] = field(default_factory=set, repr=False)
    _excerpts: dict[int, str] = field(default_factory=dict, repr=False)
    _phases: list[tuple[int, int]] = field(default_factory=list, repr=False)

    def location(self, body_line0: int | None, col: int = 0) -> Location:
        """Return the file location of a 0-based body line (a token's `map[0]`) and 1-based col."""
        if body_line0 is None:
            return Location(self.path)
        return Location(self.path, self.body_line + body_line0, col)

    def report(self, severity: Severity, body_line0: int | None, col: int, message: str) -> None:
        """Record a diagnostic at a 0-based body line and 1-based column."""
        excerpt = ""
        if body_line0 is not None and 0 <= body_line0 < len(self.source_lines):
            # One copy of a line for all its diagnostics: a copy each (and its hash) made a
            # line of thousands of warnings quadratic in time and memory.
            excerpt = self._excerpts.get(body_line0, "")
            if not excerpt:
                excerpt = self._excerpts[body_line0] = self.source_lines[body_line0]
        found = Diagnostic(severity, self.location(body_line0, col), message, excerpt)
        if found in self._reported:
            return  # the same tokens rendered twice (a note's margin copy and its Notes entry)
        self._reported.add(found)
        self.add(found)

    def add(self, found: Diagnostic) -> None:
        """Record a diagnostic as it is (no excerpt added, no duplicate check)."""
        self._phases.append(self.phase)
        self.diagnostics.append(found)

    def step(self, step: int) -> None:
        """Report what follows as step `step` of the current core rule (see `phase`): a rule
        that reports in several sweeps over the document marks each, so that a document
        parsed in groups reports sweep by sweep as one parsed whole does."""
        self.phase = (self.phase[0], step)

    def sort_diagnostics(self) -> None:
        """Order the diagnostics by `phase` (stable: in the order found within one)."""
        if len(self._phases) != len(self.diagnostics):
            return  # appended behind `add`'s back: keep the order found
        order = sorted(range(len(self.diagnostics)), key=self._phases.__getitem__)
        self.diagnostics[:] = [self.diagnostics[i] for i in order]
        self._phases.sort()

    def warn(self, body_line0: int | None, col: int, message: str) -> None:
        """Record a warning (fails the build only under --strict)."""
        self.report(Severity.WARNING, body_line0, col, message)

    def warn_each(
        self, kind: str, body_line0: int | None, col: int, message: Callable[[list[int]], str]
    ) -> None:
        """Warn once a post of one kind of problem (`kind`), at its first place; each later
        place adds its file line to that warning instead of a warning of its own.

        `message(lines)` makes the text from the file line of each place so far (one for
        the first; `named_lines` names them); the first place's `message` makes it each
        time, so it may name what is written there. A place seen already (the same tokens
        rendered twice: a note's margin copy) adds nothing.
        """
        seen: dict[str, tuple[int, dict[tuple[int, int], int], Callable[[list[int]], str]]]
        seen = self.extra.setdefault("warned_each", {})
        place = self.location(body_line0, col)
        spot = (place.line, place.col)
        if kind not in seen:
            self.warn(body_line0, col, message([place.line]))
            seen[kind] = (len(self.diagnostics) - 1, {spot: place.line}, message)
            return
        index, places, first = seen[kind]
        if spot in places or index >= len(self.diagnostics):
            return
        places[spot] = place.line
        lines = list(places.values())
        self.diagnostics[index] = replace(self.diagnostics[index], message=first(lines))

    def error(self, body_line0: int | None, col: int, message: str) -> None:
        """Record an error (fails the build)."""
        self.report(Severity.ERROR, body_line0, col, message)


KATEX_MIXED = "katex_mixed_mode"
"""`RenderState.extra` key a `{% katexmm %}` line sets (`postil.markdown.liquid`):
jekyll-katex's mixed mode renders `$$…$$` in display mode wherever it stands
(`postil.markdown.math._double_dollar_kind`)."""

LINES_NAMED = 5
"""Lines a `RenderState.warn_each` warning names before "…"."""


def named_lines(lines: Sequence[int]) -> str:
    """Return "lines 3, 11, 15, 23, 27, …" for `RenderState.warn_each`'s places (a line
    with two places named once: "line 3" when that is all)."""
    distinct = list(dict.fromkeys(lines))
    more = ", …" if len(distinct) > LINES_NAMED else ""
    noun = "lines " if len(distinct) > 1 else "line "
    return noun + ", ".join(map(str, distinct[:LINES_NAMED])) + more


def get_state(env: MutableMapping[str, Any]) -> RenderState:
    """Return the document's `RenderState`, creating a default one for bare `md.render()` calls."""
    state = env.get("postil")
    if state is None:
        state = env["postil"] = RenderState()
    return state


MDX_SUFFIX = ".mdx"
"""Sources read as MDX (`postil.markdown.mdx`; math's `$` as remark-math reads it too)."""


def is_mdx(env: MutableMapping[str, Any]) -> bool:
    """Whether the document being parsed is read as MDX: an MDX source (its path ends
    `.mdx`), a Docusaurus `.md` post (`postil.markdown.mdx.mdx_dialect` marks it
    `extra["mdx"]`), or Markdown with Svelte (`postil.markdown.svelte` marks it
    `extra["svelte"]`), whose expressions and components are MDX's."""
    return reads_jsx(get_state(env))


def reads_jsx(state: RenderState) -> bool:
    """Whether the document of `state` is read as MDX (`is_mdx`)."""
    extra = state.extra
    return state.path.lower().endswith(MDX_SUFFIX) or bool(extra.get("mdx") or extra.get("svelte"))


def jsx_dialect(state: RenderState) -> str:
    """Name the document's JavaScript-in-Markdown for messages: "Svelte" or "MDX"."""
    return "Svelte" if state.extra.get("svelte") else "MDX"


def find_ahead(state: Any, needle: str, start: int) -> int:
    """Return where `needle` next occurs in an inline state's source from `start` on (before
    `state.posMax`), or -1: an inline rule's quick "can it match here?".

    The last answer is kept on the state (one inline parse of one block) and reused while
    `start` has not passed it, so a rule asking at every `[` of a long line (`[a [b [c …`,
    a pasted JSON array) searches the line about once, not once a bracket (quadratic).
    """
    memo: dict[str, tuple[int, int]] | None = getattr(state, "postil_ahead", None)
    if memo is None:
        memo = state.postil_ahead = {}
    key = needle
    last = memo.get(key)
    if last is not None and last[0] <= start and (last[1] < 0 or last[1] >= start):
        found = last[1]
    else:
        found = state.src.find(needle, start)
        memo[key] = (start, found)
    return found if found < state.posMax else -1
