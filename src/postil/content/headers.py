"""Front matter as other generators write it: YAML `---`, Hugo's TOML `+++`, `Key: value` lines.

Every format is read into the same `postil.yamlnodes.Field` list (YAML nodes with positions),
so the field rules of `postil.content.frontmatter` apply to all of them alike and errors point
at the file line:

- `---` … `---`: YAML (Jekyll, Hugo, Quarto, Distill, MkDocs, postil); between longer lines
  of dashes when they hold a YAML mapping (Hakyll: `postil.content.metablocks`);
- `+++` … `+++`: TOML (Hugo, Zola), read with the standard library's `tomllib` (the
  `tomli` backport on Python 3.10); values become YAML nodes of the same text; the keys of
  Zola's `[taxonomies]` table (`tags`, `categories`) are read as top-level keys;
- `% Title`, `% Author`, `% Date` lines at the top of the file: Pandoc's title block, and
  Nikola's `.. key: value` lines in an HTML comment (`postil.content.metablocks`);
- `Title: …` lines at the top of the file, up to the first blank line: the metadata of
  Pelican and of MkDocs' `meta` extension (Python-Markdown's rules: keys are case-insensitive,
  a line indented by 4 spaces continues the value). Read only when a `title` is among them;
  `tags`, `category`, `keywords` and `authors` are comma-separated lists (Pelican's rule;
  authors also split on `;`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Container
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, NamedTuple

import yaml

from postil.errors import ContentError, Location
from postil.markdown.attrlist import read_attributes
from postil.markdown.chunk import CHUNK_INFO, HIDDEN_HEADER
from postil.markdown.mathprose import DEFINITION_START
from postil.markdown.mystrole import ROLE as MYST_ROLE
from postil.markdown.mystrole import role_text
from postil.math.engine import is_blank
from postil.math.errors import MathError
from postil.math.macros import extract_definitions
from postil.model import SourceFile
from postil.slugs import pandoc_slug, slug_for
from postil.yamlnodes import Field

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

STR, BOOL, INT, FLOAT = (f"tag:yaml.org,2002:{t}" for t in ("str", "bool", "int", "float"))
SEQ, MAP = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"

META_LINE = re.compile(r"[ ]{0,3}([A-Za-z0-9_-]+):[ \t]*(.*)")
"""A metadata line (Python-Markdown's `meta` extension, which Pelican and MkDocs use)."""

META_MORE = re.compile(r"[ ]{4,}(.*)")
"""A continuation line of a metadata value."""

META_LISTS = {"tags": ",", "category": ",", "categories": ",", "keywords": ","}
META_LISTS |= {"author": ",;", "authors": ",;"}
"""Metadata keys whose value is a list, and the characters that separate its items."""

_TOML_KEY = re.compile(r"""\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*""")
_TOML_TABLE = re.compile(r"""\s*\[\[?\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)""")
_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


@dataclass(frozen=True)
class Header:
    """A source's front matter read into fields, and where its body starts.

    Attributes:
        fields: the top-level keys in written order (None: no front matter).
        body: the Markdown after the front matter.
        body_line: the 1-based file line where `body` starts.
        first_line: the file line of the front matter's first line: a field's 0-based
            `line0` is file line `first_line + line0`.
        syntax: "yaml", "toml", "json", "meta", "nikola" or "" (none).
        repeated: YAML keys written again later in the front matter, each the earlier
            (dropped) field; the later value is in `fields` (`yamlnodes.mapping_fields`).
        opened: False for YAML whose opening `---` is missing
            (`metablocks.read_unopened_block`).
    """

    fields: list[Field] | None
    body: str
    body_line: int
    first_line: int
    syntax: str
    repeated: tuple[Field, ...] = ()
    opened: bool = True


def closing_line(lines: list[str], fences: tuple[str, ...], rel: str, what: str) -> int:
    """Return the index of the first line after line 0 that is one of `fences`.

    Raises:
        ContentError: there is none.
    """
    for i in range(1, len(lines)):
        if lines[i].rstrip() in fences:
            return i
    raise ContentError(
        f"front matter has no closing `{fences[0]}`; add a line `{fences[0]}` after the last "
        f"{what} line",
        Location(rel, 1, 1),
    )


def read_toml(source: SourceFile) -> Header:
    """Read Hugo's TOML front matter between `+++` lines.

    Raises:
        ContentError: no closing `+++`, or TOML that does not parse (at its file line).
    """
    lines = source.text.split("\n")
    end = closing_line(lines, ("+++",), source.rel, "TOML")
    text = "\n".join(lines[1:end])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        at = _TOML_AT.search(str(e))
        line, col = (int(at.group(1)) + 1, int(at.group(2))) if at else (1, 1)
        message = _TOML_AT.sub("", str(e)).strip()
        raise ContentError(f"TOML syntax error: {message}", Location(source.rel, line, col)) from e
    places = _toml_places(lines[1:end])
    taxonomies = data.pop("taxonomies", None) if isinstance(data.get("taxonomies"), dict) else None
    named = [(key, value, key) for key, value in data.items()]
    named += [
        (key if key in TAXONOMY_KEYS else f"taxonomies.{key}", value, f"taxonomies.{key}")
        for key, value in (taxonomies or {}).items()
    ]
    fields = [
        Field(key, _node(value, *places.get(at, (0, 0))), *places.get(at, (0, 0)))
        for key, value, at in named
    ]
    return Header(fields, "\n".join(lines[end + 1 :]), end + 2, 2, "toml")


TAXONOMY_KEYS = ("tags", "categories", "authors")
"""Zola `[taxonomies]` read as postil's own keys (tags; categories join them; authors, a
taxonomy of the post's authors, is its byline). Any other taxonomy (`series`) is a field
named `taxonomies.<name>`, which is reported as a taxonomy postil does not have
(`frontmatter._warn_unknown`), never read as a top-level key of the same name."""


def _toml_places(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Return (0-based line, column of the value) of each top-level key, table header and
    key of a table (`taxonomies.tags`)."""
    places: dict[str, tuple[int, int]] = {}
    table_name = ""
    for line0, line in enumerate(lines):
        table = _TOML_TABLE.match(line)
        key = None if table else _TOML_KEY.match(line)
        if table:
            table_name = table.group(1).strip("\"'")
            places.setdefault(table_name, (line0, table.start(1)))
        elif key:
            name = key.group(1).strip("\"'")
            places.setdefault(f"{table_name}.{name}" if table_name else name, (line0, key.end()))
    return places


def _node(value: Any, line0: int, col0: int) -> yaml.Node:
    """Return a YAML node standing for a TOML value, marked at (line0, col0)."""
    mark = yaml.Mark("<toml>", 0, line0, col0, None, 0)
    if isinstance(value, dict):
        pairs = [(scalar(str(k), STR, mark), _node(v, line0, col0)) for k, v in value.items()]
        return yaml.MappingNode(MAP, pairs, mark, mark)
    if isinstance(value, list):
        return yaml.SequenceNode(SEQ, [_node(v, line0, col0) for v in value], mark, mark)
    if isinstance(value, bool):
        return scalar("true" if value else "false", BOOL, mark)
    if isinstance(value, datetime | date | time):
        return scalar(value.isoformat(), STR, mark)
    if isinstance(value, str):
        return scalar(value, STR, mark, '"')
    return scalar(str(value), FLOAT if isinstance(value, float) else INT, mark)


def scalar(text: str, tag: str, mark: yaml.Mark, style: str | None = None) -> yaml.ScalarNode:
    return yaml.ScalarNode(tag, text, mark, mark, style=style)


def read_meta_lines(source: SourceFile, known: Container[str] = ()) -> Header | None:
    """Read Pelican/MkDocs `Key: value` metadata at the top of a file, or None.

    The block runs to the first blank line; it counts as metadata only when every line is a
    metadata or continuation line and one key is `title`, or every key is in `known` (a
    MkDocs page titled by its heading: `author: …`), so a post starting "Note: …" is not
    misread. Keys are lower-cased.
    """
    lines = source.text.split("\n")
    entries: list[tuple[str, list[str], int, int]] = []
    end = 0
    while end < len(lines) and lines[end].strip():
        more = META_MORE.fullmatch(lines[end]) if entries else None
        match = None if more else META_LINE.fullmatch(lines[end])
        if more:
            entries[-1][1].append(more.group(1).strip())
        elif match:
            entries.append((match.group(1).lower(), [match.group(2).strip()], end, match.start(2)))
        else:
            return None
        end += 1
    keys = [key for key, *_ in entries]
    if "title" not in keys and not (keys and all(key in known for key in keys)):
        return None
    fields = [meta_field(key, parts, line0, col0) for key, parts, line0, col0 in entries]
    body_start = min(end + 1, len(lines))
    return Header(fields, "\n".join(lines[body_start:]), body_start + 1, 1, "meta")


LOGSEQ_PAGE_PROPERTY = re.compile(r"([A-Za-z][\w.-]*)::(?:[ \t]+(.*?))?[ \t]*")
"""A Logseq page property opening a file: `title:: My page`, `tags:: [[a]], b`."""

LOGSEQ_REF = re.compile(r"#?\[\[([^\[\]\n]+)\]\]|#([^\s,\[\]]+)")
"""A Logseq page reference in a property's value: `[[page]]`, `#tag`, `#[[a tag]]`."""


def read_logseq_properties(source: SourceFile) -> Header | None:
    """Read the page properties that open a Logseq page, or None.

    A Logseq page in Markdown has no front matter: its first block, written before any
    bullet, holds the page's properties, one `key:: value` a line (mldoc's
    `markdown_property.ml`; Logseq's `title::` names the page, `tags::` and `alias::`
    list page names as `[[page]]`, `#tag` or bare words separated by commas). They run to
    the first line that is not such a property. `tags`, `alias` and `aliases` are lists of
    the names (brackets and `#` dropped); the other values are text. Keys are lower-cased.
    The body starts at the first other line (a blank line or the first bullet).
    """
    lines = source.text.split("\n")
    entries: list[tuple[str, list[str], int, int]] = []
    end = 0
    while end < len(lines):
        found = LOGSEQ_PAGE_PROPERTY.fullmatch(lines[end])
        if found is None:
            break
        value = found.group(2) or ""
        key = found.group(1).lower()
        if key in ("tags", "alias", "aliases"):
            items = [m.group(1) or m.group(2) for m in LOGSEQ_REF.finditer(value)]
            rest = LOGSEQ_REF.sub(",", value)
            items += [part.strip() for part in rest.split(",") if part.strip()]
            entries.append((key, items, end, found.start(2) if value else 0))
        else:
            entries.append((key, [value], end, found.start(2) if value else 0))
        end += 1
    if not entries:
        return None
    fields = []
    for key, parts, line0, col0 in entries:
        mark = yaml.Mark("<logseq>", 0, line0, col0, None, 0)
        if key in ("tags", "alias", "aliases"):
            nodes = [scalar(item.strip(), STR, mark) for item in parts if item.strip()]
            fields.append(Field(key, yaml.SequenceNode(SEQ, nodes, mark, mark), line0, 0))
        else:
            fields.append(Field(key, scalar(parts[0], STR, mark), line0, 0))
    return Header(fields, "\n".join(lines[end:]), end + 1, 1, "logseq")


def meta_field(key: str, parts: list[str], line0: int, col0: int) -> Field:
    """Return one metadata entry as a field: text, or a list for `META_LISTS` keys."""
    mark = yaml.Mark("<meta>", 0, line0, col0, None, 0)
    value = " ".join(part for part in parts if part)
    if key in META_LISTS:
        items = re.split(f"[{META_LISTS[key]}]", value)
        nodes = [scalar(item.strip(), STR, mark) for item in items if item.strip()]
        return Field(key, yaml.SequenceNode(SEQ, nodes, mark, mark), line0, 0)
    return Field(key, scalar(value, STR, mark), line0, 0)


ATX_H1 = re.compile(r" {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
"""A level-1 ATX heading line (CommonMark); group 1 its text."""

SETEXT_H1 = re.compile(r" {0,3}=+[ \t]*")
"""The underline of a level-1 setext heading."""

MYST_TARGET = re.compile(r"\(([^()\s]+)\)=")
"""A MyST target line, `(label)=` (`postil.markdown.myst`)."""

MYST_HIDDEN_FENCE = re.compile(r"(```|~~~)\{(?:raw|index|contents|tableofcontents)\}")
"""The opening fence of a MyST directive that shows nothing on a page (`markdown.myst`)."""

HEADING_ATTRS = re.compile(r"[ \t]*\{[^{}]*\}\Z")
"""An attribute list ending a heading (`# Title {#id}`)."""


class OpeningHeading(NamedTuple):
    """The `# heading` that opens a body (`heading_title`); lines are 0-based in the body."""

    text: str
    line0: int
    line_count: int
    """Its lines: 1, or 2 for a setext heading (`Title` over `=====`)."""
    id: str
    macros: dict[str, str]
    """The TeX macros defined before it (name -> body, `extract_definitions`)."""


SECTION_HEADING = re.compile(r" {0,3}#{2,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
"""An ATX heading of level 2 to 6: what opens a bookdown book's section file."""


def _hidden_chunk(line: str) -> bool:
    """Return whether a line opens a knitr chunk with `include=FALSE`: it shows nothing
    (`postil.markdown.chunk.hidden_chunk` reads the same options of a parsed chunk)."""
    if not line.startswith("```"):
        return False
    found = CHUNK_INFO.match(line.lstrip("`").strip())
    return found is not None and HIDDEN_HEADER.search(found.group(2)) is not None


def heading_title(body: str, sections: bool = False) -> OpeningHeading | None:
    r"""Return the `# heading` that opens a body, or None.

    MkDocs titles a page without a `title` by its first level-1 heading when that heading
    is the first thing on the page (`mkdocs.structure.pages`, since MkDocs 1.5); blank
    lines and HTML comments before it are passed over, and so are what shows nothing in a
    MyST notebook (Jupyter Book titles it by the same heading): a `(label)=` target and a
    `{raw}`, `{index}` or `{contents}` directive (`postil.markdown.myst`); and TeX macro
    definitions, which show nothing either (Franklin.jl and Pandoc posts open with
    `\newcommand{\E}{\mathbb{E}}` lines, `postil.markdown.mathprose`; MathJax posts with
    a `$$\newcommand…$$` block): the page keeps their `macros`, as its math needs them. A
    MyST role in the heading is its text (`` {index}`LLN <single: LLN>` `` is "LLN"). The
    id is the one its attribute list gives (`# Title {#intro}`: "intro", as
    Python-Markdown's `attr_list` and kramdown set it), else "": the page's title keeps
    it, so links to `#intro` still land.

    With `sections` (an R Markdown source), a heading of any level opens it: bookdown
    joins a book's files into chapters, and a file opening `## Options` is a section of
    the chapter before it, which as a page of its own is titled so; a knitr chunk with
    `include=FALSE` before it (setup code, which shows nothing) is passed over too.
    """
    lines = body.split("\n")
    at = 0
    macros: dict[str, str] = {}
    while at < len(lines):
        line = lines[at].strip()
        if line.startswith("<!--"):
            while at < len(lines) and "-->" not in lines[at]:
                at += 1
        elif MYST_HIDDEN_FENCE.match(line) or sections and _hidden_chunk(line):
            at += 1  # shows nothing: passed over to its end
            while at < len(lines) and not lines[at].strip().startswith(line[:3]):
                at += 1
        elif line.startswith(("\\", "$$")):
            read = _definitions(lines, at)
            if read is None:
                break
            macros |= read[1]
            at = read[0] - 1
        elif line and not MYST_TARGET.fullmatch(line):
            break
        at += 1
    if at >= len(lines):
        return None
    atx = ATX_H1.fullmatch(lines[at]) or sections and SECTION_HEADING.fullmatch(lines[at])
    if atx:
        text, count = atx.group(1) or "", 1
    elif (
        at + 1 < len(lines)
        and SETEXT_H1.fullmatch(lines[at + 1])
        and not lines[at].startswith(("    ", "\t"))
    ):
        text, count = lines[at], 2
    else:
        return None
    attrs = HEADING_ATTRS.search(text)
    found = read_attributes(attrs.group().strip()) if attrs else None
    if found is not None and attrs is not None:
        text = text[: attrs.start()]
    text = plain_heading(MYST_ROLE.sub(role_text, text).strip() if "}`" in text else text.strip())
    if not text:
        return None
    return OpeningHeading(text, at, count, (found or {}).get("id", ""), macros)


def _definitions(lines: list[str], at: int) -> tuple[int, dict[str, str]] | None:
    """Return (the line after them, name -> body) of the TeX macro definitions starting
    at `lines[at]`, or None when they are not definitions only: lines each starting with
    a definition, or a `$$ … $$` block holding nothing else."""
    if lines[at].strip().startswith("$$"):
        end = at + 1
        if lines[at].count("$$") < 2:
            while end < len(lines) and "$$" not in lines[end]:
                end += 1
            end += 1
        text = "\n".join(lines[at:end]).strip()
        if end > len(lines) or len(text) < 4 or not text.endswith("$$"):
            return None
        text = text[2:-2]
    else:
        end = at
        while end < len(lines) and DEFINITION_START.match(lines[end].strip()):
            end += 1
        if end == at:
            return None
        text = "\n".join(lines[at:end])
    try:
        found, rest = extract_definitions(text)
    except MathError:
        return None
    return (end, found) if found and is_blank(rest) else None


INLINE_MATH = re.compile(r"(\$\$?)(?:\\.|[^\\$])+?\1")
"""A `$…$` or `$$…$$` formula in a heading: its TeX is kept as written for the title."""


def plain_heading(text: str) -> str:
    """Return the text a reader sees of a heading's Markdown, formulas kept as TeX.

    A title is plain text (MkDocs titles a page by its heading's text, tags stripped):
    `[link](https://x.org) and `code` and *emph*` -> `link and code and emph`. Each part
    between formulas is read by markdown-it's CommonMark inline parser (links, images,
    code spans, emphasis, escapes, entities; raw HTML tags dropped, an image as its alt
    text); the formulas stay for the title's math.
    """
    if not any(mark in text for mark in "[`*_\\&<"):
        return text
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    parts = []
    last = 0
    for found in [*INLINE_MATH.finditer(text), None]:
        end = found.start() if found else len(text)
        if end > last:
            tokens = md.parseInline(text[last:end])[0].children or []
            parts.append("".join(t.content for t in tokens if t.type in _TEXT_TOKENS))
        if found:
            parts.append(found.group(0))
            last = found.end()
    return " ".join("".join(parts).split())


_TEXT_TOKENS = frozenset({"text", "code_inline", "image"})  # an image: its alt text


TARGET_LINE = re.compile(r"^[ \t]*\([^()\s]+\)=[ \t]*$", re.M)
"""A MyST `(label)=` target line anywhere in a body."""

FENCE_LINE = re.compile(r" {0,3}(`{3,}|~{3,})")
"""A line opening or closing a fenced code block (its marker in group 1)."""

ATX_HEADING = re.compile(r" {0,3}#{1,6}[ \t]+(.*?)[ \t]*(?:\{([^{}]*)\})?[ \t]*")
"""An ATX heading: group 1 its text, group 2 the attribute list ending it, if any."""

HTML_ID = re.compile(r"""<[A-Za-z][^<>]*?\sid\s*=\s*["']([A-Za-z][\w:.-]*)["']""")
"""The `id` of an element written in raw HTML (`<a id="restart-radian"></a>`)."""

LABEL_ID = re.compile(r"(?:^|\s)#([A-Za-z][\w:.-]*)")
"""The `#id` of a heading's attribute list (`{#sec-intro .unnumbered}`)."""

SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*")
"""The line under a setext heading's text (`=====` level 1, `-----` level 2)."""

SETEXT_TEXT = re.compile(r" {0,3}(?![-+*>#|<]|\d+[.)])(\S.*?)[ \t]*(?:\{([^{}]*)\})?[ \t]*")
"""A setext heading's text line (group 1), group 2 the attribute list ending it: not a
list item, quote, ATX heading, table row or HTML, whose underline is a thematic break."""


def section_labels(body: str, rmarkdown: bool) -> tuple[tuple[str, str, bool], ...]:
    r"""Return (label, heading's plain text, whether written) of each label a body gives
    a section for references from other pages: a MyST `(label)=` target line (the heading
    under it, "" when none; mystmd and Jupyter Book resolve its `{ref}` and `[](#label)` across the
    project), and, in an R Markdown source (`rmarkdown`), each heading's (ATX or setext)
    id: its `{#id}`,
    else Pandoc's identifier of its text when postil's is the same, and the `id` of an
    element in raw HTML (bookdown resolves
    `[text](#id)` and `\@ref(id)` across the book's chapters). Lines inside fenced
    code blocks are passed over. Read at load time, so that rendering another post can
    find them (`postil.render.AssetMaps.labels`)."""
    if not rmarkdown and (")=" not in body or TARGET_LINE.search(body) is None):
        return ()  # most posts: no target line, found in C without a walk over the lines
    found: list[tuple[str, str, bool]] = []
    lines = body.split("\n")
    fence = ""
    for at, line in enumerate(lines):
        marker = FENCE_LINE.match(line)
        if marker is not None and (not fence or marker.group(1).startswith(fence)):
            fence = "" if fence else marker.group(1)[0] * 3
            continue
        if fence:
            continue
        target = MYST_TARGET.fullmatch(line.strip())
        if target is not None:
            following = next((x for x in lines[at + 1 :] if x.strip()), "")
            heading = re.match(r" {0,3}#{1,6}[ \t]+(.*?)[ \t]*(?:\{[^{}]*\})?[ \t]*$", following)
            found.append((target.group(1), heading.group(1) if heading else "", True))
        elif rmarkdown and (heading := _heading_at(lines, at)) is not None:
            text, attrs = plain_heading(heading.group(1)), heading.group(2) or ""
            given = LABEL_ID.search(attrs)
            if given is not None:
                found.append((given.group(1), text, True))
            elif text and pandoc_slug(text) == slug_for(text):  # Pandoc's id is postil's
                found.append((pandoc_slug(text), text, False))
        if rmarkdown and "id" in line:  # `<a id="x"></a>`: Pandoc passes it to the page
            found += [(ident, "", True) for ident in HTML_ID.findall(line)]
    return tuple(found)


def _heading_at(lines: list[str], at: int) -> re.Match[str] | None:
    """Return the match of the heading that line `at` of `lines` writes or ends (its
    text in group 1, its attribute list in group 2), or None: an ATX heading, or the
    underline of a setext heading whose text line follows a blank line (Pandoc's
    `blank_before_header`), as bookdown's chapters write `Results\n-------`."""
    line = lines[at]
    if line[:1] not in "=-":
        return ATX_HEADING.fullmatch(line) if "#" in line else None
    if at == 0 or SETEXT_UNDERLINE.fullmatch(line) is None:
        return None
    if at > 1 and lines[at - 2].strip():
        return None
    return SETEXT_TEXT.fullmatch(lines[at - 1])
