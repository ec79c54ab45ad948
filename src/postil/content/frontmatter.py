"""Split a source file into front matter and body, and validate the front matter.

Front matter is a YAML block between a first line `---` and the next line `---` (Jekyll's and
Hugo's convention), Hugo's TOML between `+++` lines or JSON object, or Pelican's and MkDocs'
`Key: value` lines
(`postil.content.headers`). Keys other generators write are read as they mean there
(`FIELDS`, converters in `postil.content.fieldtypes`), keys with nothing for postil to do are
accepted quietly (`QUIET_KEYS`), and any other key is a warning. Values are converted by the
explicit rules of `postil.yamlnodes`; dates
follow ISO 8601 (`2026-03-05`, `2026-03-05 14:30`, `2026-03-05T14:30:00+01:00`), and a date
without an offset is in the site's timezone.
"""

from __future__ import annotations

import calendar
import json
import logging
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from pathlib import PurePosixPath
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from postil.content import fieldtypes as ft
from postil.content.franklin import DEF_LINE, read_julia_block, with_def_lines
from postil.content.headers import (
    Header,
    closing_line,
    heading_title,
    read_logseq_properties,
    read_meta_lines,
    read_toml,
    section_labels,
)
from postil.content.metablocks import (
    read_dashed_block,
    read_json_object,
    read_nikola_comment,
    read_title_block,
    read_unopened_block,
    starts_nikola_metadata,
)
from postil.content.posts import FILE_DATE
from postil.errors import ContentError, Diagnostic, Location, Severity, did_you_mean
from postil.macrodefs import read_macros
from postil.markdown.bookdown import BOOKDOWN_SUFFIXES
from postil.model import Author, FrontMatter, SourceFile, TextAt
from postil.slugs import slug_for
from postil.yamlnodes import (
    Field,
    YamlFieldError,
    YamlFieldGuessed,
    YamlFieldIgnored,
    as_bool,
    as_text,
    compose_mapping,
    escape_warnings,
    mapping_fields,
    yaml_error_location,
    yaml_error_message,
)

_DATE = re.compile(
    r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})"
    r"(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.\d+)?)?"
    r"\s*(Z|(?:UTC|GMT)?[+-]\d{2}:?\d{2}|UTC|GMT)?)?"
)
"""A date as written: ISO 8601, what Jekyll's `Time.parse` reads too (`12:0:00`), and
Nikola's (`2012/09/15 19:52:05`, `2024-07-30 12:00:00 UTC`, `… UTC+02:00`)."""

_EPOCH = re.compile(r"\d{10}|\d{13}")
"""A Unix time: seconds (10 digits, 2001–2286) or milliseconds (13 digits), as Dendron
writes `created` and `updated` (`Time.now().toMillis()`, dendronhq/dendron's
`packages/common-all/src/dnode.ts`). A date of 8 digits (`20210101`) is no Unix time."""
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_TIME = (
    r"(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|(?:GMT|UTC)?[+-]\d{2}:?\d{2})?"
    r"(?:\s*\([^()]*\))?)?"
)
"""A time after a date: `10:00`, `10:00:30 +02:00`, and JavaScript's `Date.toString()` form
(ECMA-262 `TimeString` and `TimeZoneString`: `10:32:55 GMT+0000 (Coordinated Universal
Time)`), which Hashnode's backups write (`datePublished: Sun Apr 02 2023 10:32:55 GMT+0000
(…)`); the zone's name in parentheses is read from the offset before it."""
_WRITTEN_DATE = re.compile(
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"  # a weekday: `Fri, 24 Feb 2017`
    r"(?:(?P<d1>\d{1,2})\s+(?P<m1>[A-Za-z]{3,9})\.?,?"  # `24 Feb 2017`, `24 February 2017`
    r"|(?P<m2>[A-Za-z]{3,9})\.?\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?)"  # `February 24, 2017`
    r"\s+(?P<y>\d{4})" + _TIME,
    re.IGNORECASE,
)
"""A date with its month written as a word, in English: what Pelican's `dateutil`, Jekyll's
`Time.parse` and Quarto read in posts converted from R Markdown (`24 Feb 2017`, `February 24,
2017`, `Fri, 24 Feb 2017 10:00`). Numeric day/month orders (`12/03/2017`) stay errors: which
is the month is a guess (`_NUMERIC_DATE` reads those where it is not)."""
_NUMERIC_DATE = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4})" + _TIME)
"""A day and a month in either order before the year (`29-12-2020`, `4/18/2022`): read as
the number over 12 says, as Jekyll's `Time.parse` reads `29-12-2020` and R Markdown writers
the US order; where either could be the month (`01-02-2020`) a warning names the reading
taken (`_ambiguous`)."""


def split_front_matter(source: SourceFile) -> tuple[str, str, int]:
    """Return (yaml_text, body, body_line) of a source; `body_line` is 1-based.

    A file whose first line is not `---` (trailing spaces allowed) has no YAML front matter:
    ("", text, 1).

    Raises:
        ContentError: the opening `---` has no closing `---`.
    """
    text = source.text
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        return "", text, 1
    end = closing_line(lines, ("---", "..."), source.rel, "front matter")
    return "\n".join(lines[1:end]), "\n".join(lines[end + 1 :]), end + 2


def read_header(source: SourceFile) -> Header:
    """Read a source's front matter in any of the syntaxes postil knows (module docstring).

    Raises:
        ContentError: an unclosed block or TOML that does not parse.
        yaml.MarkedYAMLError, YamlFieldError: YAML that does not parse or is not a mapping
            (positions relative to the line after the opening `---`).
    """
    first = source.text.split("\n", 1)[0].rstrip()
    if first == "+++":
        try:
            return with_def_lines(read_toml(source))
        except ContentError as error:  # Franklin.jl's Julia, `date = Date(2023, 4, 22)`
            if "TOML syntax error" not in error.message:
                raise
            return read_julia_block(source, error)
    if first.startswith("{"):
        json_object = read_json_object(source, FIELDS.keys() | QUIET_KEYS)
        if json_object is not None:
            return json_object
    if DEF_LINE.fullmatch(first.strip()):
        return with_def_lines(Header(None, source.text, 1, 1, ""))
    known = FIELDS.keys() | QUIET_KEYS
    if first.startswith(("%", "----")):
        block = read_title_block(source) if first[0] == "%" else read_dashed_block(source, known)
        if block is not None:
            return block
    if starts_nikola_metadata(first):
        nikola = read_nikola_comment(source, known)
        if nikola is not None:
            return nikola
    if "::" in first and first != "---":
        logseq = read_logseq_properties(source)
        if logseq is not None:
            return logseq
    if first != "---":
        meta = read_meta_lines(source, known=known) or read_unopened_block(source, known)
        if meta is not None:
            return meta
    yaml_text, body, body_line = split_front_matter(source)
    if "[[" in yaml_text:
        yaml_text = LOGSEQ_REF_VALUE.sub(_ref_list, yaml_text)
    repeated: list[Field] = []
    try:
        fields = compose_mapping(yaml_text, repeated) if yaml_text else None
    except yaml.MarkedYAMLError:  # Hashnode's `title: "Why "sum" and "count""`
        mended = QUOTED_VALUE.sub(_escaped_quotes, yaml_text) if '"' in yaml_text else yaml_text
        if mended == yaml_text:
            raise
        repeated.clear()
        try:
            fields = compose_mapping(mended, repeated)
        except yaml.MarkedYAMLError:
            fields = compose_mapping(yaml_text)  # raises YAML's own error, at its place
    if fields is None and "\n@def" in source.text:  # Franklin.jl after a first command
        return with_def_lines(Header(None, source.text, 1, 1, ""))
    return Header(fields, body, body_line, 2, "yaml" if yaml_text else "", tuple(repeated))


LOGSEQ_REF_VALUE = re.compile(
    r"^(?P<key>[^\s:#][^:\n]*:[ \t]+)"
    r"(?P<refs>(?:#?\[\[[^\[\],\n]+\]\]|#[^\s,\[\]]+)"
    r"(?:[ \t]*,?[ \t]*(?:#?\[\[[^\[\],\n]+\]\]|#[^\s,\[\]]+))*)[ \t]*,?[ \t]*$",
    re.MULTILINE,
)
"""A front matter line whose value is Logseq's page references: `tags: [[a]], #b, [[c d]]`.

Logseq's front matter is no YAML: mldoc (`lib/syntax/markdown_front_matter.ml`) reads each
line as a key and its text, and Logseq reads `[[page]]`, `#tag` and `#[[tag]]` in the text
as page references, so its pages write `authors: [[Ada]], [[Alan]]` (a YAML syntax error)
and `tags: [[a]]` (a list in a list). At least one `[[…]]` is needed (`_ref_list`), and
names hold no comma, so YAML's own nested lists (`[[1, 2], [3]]`) are not such a value."""

QUOTED_VALUE = re.compile(r'^(?P<key>[^\s:#"][^:\n]*:[ \t]+)"(?P<text>.*)"[ \t]*$', re.MULTILINE)
"""A front matter line whose value is written between double quotes, up to the line's end."""

INNER_QUOTE = re.compile(r'(?<!\\)"')


def _escaped_quotes(found: re.Match[str]) -> str:
    """Return a `QUOTED_VALUE` line with the double quotes inside its value escaped, when it
    has any: Hashnode's backups write `title: "Why "sum" and "count""` (a YAML syntax error:
    a double-quoted scalar ends at its first unescaped `"`), meaning the quotes as written.
    Used only on front matter YAML cannot read (`read_header`), so valid YAML never
    changes (`title: "a" # "b"` keeps its comment)."""
    text = found["text"]
    if INNER_QUOTE.search(text) is None:
        return found.group(0)
    return found["key"] + '"' + INNER_QUOTE.sub('\\"', text) + '"'


REF_NAME = re.compile(r"#?\[\[([^\[\]\n]+)\]\]|#([^\s,\[\]]+)")
"""One of Logseq's page references in a `LOGSEQ_REF_VALUE`: its page's name."""


def _ref_list(found: re.Match[str]) -> str:
    """Return a `LOGSEQ_REF_VALUE` line with its references as a YAML list of page names
    (`tags: ["a", "b"]`), or the line as written when it holds no `[[…]]`."""
    refs = found["refs"]
    if "[[" not in refs:
        return found.group(0)
    names = [m.group(1) or m.group(2) for m in REF_NAME.finditer(refs)]
    return found["key"] + json.dumps([name.strip() for name in names], ensure_ascii=False)


def parse(
    source: SourceFile, timezone: str, warnings: list[Diagnostic] | None = None
) -> tuple[FrontMatter, str, int]:
    """Parse a source's front matter and return (FrontMatter, body, body_line).

    Args:
        source: the file.
        timezone: IANA zone for dates written without an offset.
        warnings: receives a warning for each unknown key (a key postil does not know, such
            as Hugo's `weight`, is skipped, not fatal: importing old posts must not need an
            edit of every file first, and `--strict` still fails on it). None: log them.

    Raises:
        ContentError: syntax errors (at the file's line and column), a block that is not a
            mapping, duplicate keys, a non-text title, values of the wrong type (a missing
            title is a warning: `_untitled`).
    """
    if not source.text.strip():
        raise ContentError(
            "the file is empty; write front matter with a `title:` or delete the file",
            Location(source.rel, 1, 1),
        )
    header = Header(None, "", 1, 2, "")
    try:
        header = read_header(source)
        fields = header.fields or []
        unknown = [f for f in fields if f.key.lower() not in FIELDS and not _quiet(f.key)]
        knitr = source.rel.lower().endswith(KNITR_SUFFIXES)
        knitted = [f for f in fields if knitr and f.key.lower() in FIELDS and _knitr_value(f)]
        known = [f for f in fields if f.key.lower() in FIELDS and f not in knitted]
        ignored: list[YamlFieldIgnored] = []
        values = _convert(known, ZoneInfo(timezone), ignored)
        values |= _positions(known, values, source.text.split("\n"), header.first_line)
    except yaml.MarkedYAMLError as e:
        raise ContentError(yaml_error_message(e), yaml_error_location(e, source.rel, 2)) from e
    except YamlFieldError as e:
        where = Location(source.rel, e.line0 + header.first_line, e.col0 + 1)
        raise ContentError(e.message, where) from e
    body, body_line = header.body, header.body_line
    for skip in ignored:
        _warn(
            warnings,
            Location(source.rel, skip.line0 + header.first_line, skip.col0 + 1),
            skip.message,
        )
    for fld in knitted:
        mark = fld.node.start_mark
        where = Location(source.rel, mark.line + header.first_line, mark.column + 1)
        _warn(warnings, where, _knitr_message(fld))
    for fld in fields:
        _warn_foreign_math(fld, source.rel, header.first_line, warnings)
    skipped = {FIELDS[f.key.lower()][0] for f in knitted}
    if "title" not in values:
        told = [] if "title" in skipped else warnings  # the knitr warning said it
        titled = _untitled(source, header, told)
        values["title"], values["title_at"], values["title_id"], body, body_line, defined = titled
        if defined:  # macros defined above the heading: the page's, after the front matter's
            values["macros"] = tuple(sorted((dict(values.get("macros", ())) | defined).items()))
        values["title_heading"] = values["title_at"] != TextAt()  # a file name's: nowhere
    read = _keys_read(body)  # not ignored: the body shows them
    _warn_unknown(
        source.rel, [f for f in unknown if f.key not in read], header.first_line, warnings
    )
    for fld in header.repeated:
        _warn(
            warnings,
            Location(source.rel, fld.line0 + header.first_line, fld.col0 + 1),
            f"`{fld.key}` is set again further down; the later value is used (as Jekyll and "
            "Hugo do); delete this line or the later one",
        )
    if not header.opened:
        _warn(
            warnings,
            Location(source.rel, 1, 1),
            "front matter has no opening `---`; the lines before the `---` on line "
            f"{header.body_line - 1} are read as front matter, as Hexo reads them (Jekyll "
            "and Hugo read none without the line); add a line `---` before line 1",
        )
    for line0, col0, message in escape_warnings(header.fields or []):
        _warn(warnings, Location(source.rel, line0 + header.first_line, col0 + 1), message)
    values["vue_values"] = _vue_values(header.fields or [], body)
    values["front_matter_syntax"] = header.syntax
    values["labels"] = section_labels(body, source.rel.lower().endswith(BOOKDOWN_SUFFIXES))
    if source.kind == "post" and "date" not in values:
        values |= _file_date(source.rel, ZoneInfo(timezone))
    if source.kind == "post" and "date" not in values and "date" not in skipped:
        _warn(
            warnings,
            Location(source.rel, 1, 1),
            "post has no `date:`; it sorts last and has no citation or feed date; "
            "add `date: YYYY-MM-DD`",
        )
    return FrontMatter(**values), body, body_line


VUE_FRONT_MATTER = "$frontmatter"
"""VitePress' and VuePress' name of the page's front matter in Vue expressions."""


FRONT_MATTER_SHORTCODE = re.compile(r"\{\{[<%]\s*(?:param|meta)\b")
"""Hugo's `{{< param key >}}` and Quarto's `{{< meta key >}}`, which read the front matter."""


KEY_READ = re.compile(r"\$frontmatter\.([\w-]+)|\{\{[<%]\s*(?:param|meta)\s+[\"']?([\w.-]+)")
"""A front matter key a body shows: `{{ $frontmatter.key }}`, `{{< param key >}}`,
`{{< meta "key" >}}`."""


def _keys_read(body: str) -> set[str]:
    """Return the front matter keys the body shows (`KEY_READ`), which are not ignored."""
    if not _reads_front_matter(body):
        return set()
    return {a or b for a, b in KEY_READ.findall(body)}


def _reads_front_matter(body: str) -> bool:
    """Tell whether the body shows front matter values (`$frontmatter`, `param`, `meta`)."""
    return VUE_FRONT_MATTER in body or FRONT_MATTER_SHORTCODE.search(body) is not None


def _vue_values(fields: list[Field], body: str) -> tuple[tuple[str, str], ...]:
    """Return the scalar values of the front matter by key, as written (a date as its
    text), when the body reads them: VitePress' `{{ $frontmatter.title }}`
    (`postil.markdown.liquid`), Hugo's `{{< param key >}}`, Quarto's `{{< meta key >}}`
    (`postil.markdown.shortcode`); else ()."""
    if not _reads_front_matter(body):
        return ()
    return tuple(
        (f.key, str(f.node.value))
        for f in fields
        if isinstance(f.node, yaml.ScalarNode) and f.node.value is not None
    )


KNITR_SUFFIXES = (".rmd", ".rmarkdown", ".qmd")
"""Sources knitr knits (R Markdown; Quarto with its knitr engine), lower-cased."""

INLINE_R = re.compile(r"`r[ \t][^`\n]*`")
"""knitr's inline R code, `` `r Sys.Date()` ``: R Markdown front matter holds it too (`date:`,
`title:`), replaced by its value when the post is knitted."""


def _knitr_value(fld: Field) -> bool:
    """Whether a field's text holds knitr's inline R code (`INLINE_R`)."""
    value = fld.node.value if isinstance(fld.node, yaml.ScalarNode) else None
    return isinstance(value, str) and "`r" in value and INLINE_R.search(value) is not None


def _knitr_message(fld: Field) -> str:
    """Return the warning for a field whose value is knitr's inline R code."""
    fix = "date: YYYY-MM-DD" if FIELDS[fld.key.lower()][0] == "date" else f"{fld.key}: …"
    return (
        f"`{fld.key}: {fld.node.value}` holds R code that knitr runs when it knits the "
        f"post; postil does not run code, so `{fld.key}` is left out: write its value "
        f"(`{fix}`)"
    )


def _file_date(rel: str, tz: ZoneInfo) -> dict[str, datetime]:
    """Return {"date": …} from a Jekyll post's file name (`2015-08-18-title.md`, or the
    folder of a bundle `2015-08-18-title/index.md`), midnight in `tz`, as Jekyll dates a
    post without `date:`; {} when the name has no valid date."""
    path = PurePosixPath(rel)
    name = path.parent.name if path.stem in ("index", "_index") else path.name
    found = FILE_DATE.match(name)
    try:
        day = date(*map(int, found.groups())) if found else None
    except ValueError:  # `2015-13-45-x.md`: a name, not a date
        day = None
    return {"date": datetime.combine(day, time(), tzinfo=tz)} if day else {}


def _untitled(
    source: SourceFile, header: Header, warnings: list[Diagnostic] | None
) -> tuple[str, TextAt, str, str, int, dict[str, str]]:
    """Title a source whose front matter has none as MkDocs and Jekyll do.

    Returns (title, where it is written, title id, body, body line, TeX macros). The
    `# heading` opening the body is the title, and the body starts after it (the page shows
    the title above the body; blank lines, HTML comments and TeX macro definitions before
    the heading go with it: `heading_title`); the heading's `{#id}` is the title's id (""
    without one), the definitions' macros are the page's, after its front matter's. An R
    Markdown source may open with a heading of any level (bookdown's section files:
    `heading_title`'s `sections`). A source with no heading is titled by its file name,
    with a warning: Jekyll's rule
    after `---` or `+++` front matter (`Utils.titleize_slug`: the date prefix dropped,
    each `-` word capitalised: `2015-08-18-linear-classify.md` → `Linear Classify`),
    MkDocs' rule after its `key: value` metadata or no front matter (`Page._set_title`,
    for pages its `nav:` titles: `-` and `_` read as spaces, an all-lower-case name
    capitalised). `index.md` takes its folder's name. Both generators build such a page,
    so postil does too.
    """
    found = heading_title(header.body, sections=source.rel.lower().endswith(BOOKDOWN_SUFFIXES))
    if found is not None:
        lines = header.body.split("\n")
        col0 = lines[found.line0].find(found.text)
        where = TextAt(header.body_line + found.line0, col0 + 1, col0 >= 0)
        after = found.line0 + found.line_count
        body = "\n".join(lines[after:])
        title = ft.one_line(found.text)
        title_id = found.id or slug_for(title)
        return title, where, title_id, body, header.body_line + after, found.macros
    jekyll = header.syntax in ("yaml", "toml", "json")
    title = _file_title(PurePosixPath(source.rel), jekyll=jekyll)
    _warn(
        warnings,
        Location(source.rel, 1, 1),
        f"no `title` and no `# heading` opening the page; it is titled `{title}` after its "
        "file name; add `title: …` at the top (or a `# heading` as its first line)",
    )
    return title, TextAt(), "", header.body, header.body_line, {}


def _file_title(path: PurePosixPath, jekyll: bool) -> str:
    """Return the title a file's name gives: Jekyll's `titleize_slug` of the name without
    its date, each word capitalised as Ruby does (`jekyll`), else MkDocs' `Page._set_title`
    (see `_untitled`)."""
    stem = path.parent.name if path.stem in ("index", "_index") else path.stem
    if jekyll:
        dated = FILE_DATE.match(stem)
        slug = stem[dated.end() :] if dated else stem
        return " ".join(word.capitalize() for word in slug.split("-") if word) or stem
    name = stem.replace("-", " ").replace("_", " ").strip() or stem
    return name.capitalize() if name.lower() == name else name


NON_TEX_MATH = {"typst": "Typst", "asciimath": "AsciiMath"}
"""`math:` values naming a notation other than TeX (a site's hook typesets the page's
`$…$` so: Material for MkDocs sites with a Typst hook write `math: typst`), by name."""


def _warn_foreign_math(
    fld: Field, rel: str, first_line: int, warnings: list[Diagnostic] | None
) -> None:
    """Warn at a `math:` key whose value names a notation postil does not typeset
    (`NON_TEX_MATH`): the page's formulas are read as TeX, so `$RR$` shows `RR` in italics.
    Any other `math:` value (`true`, `katex`, `mathjax`) is a theme's switch, quiet."""
    node = fld.node
    if fld.key.lower() != "math" or not isinstance(node, yaml.ScalarNode):
        return
    notation = NON_TEX_MATH.get(str(node.value).strip().lower())
    if notation is None:
        return
    _warn(
        warnings,
        Location(rel, fld.line0 + first_line, fld.col0 + 1),
        f"`math: {node.value}`: this page's formulas are written in {notation}, which postil "
        "does not typeset; they are read as TeX (LaTeX) math and will not look as meant; "
        "write them in TeX",
    )


QUIET_PREFIXES = ("_edit_", "_wp_", "_oembed_", "_thumbnail_", "dsq_", "geo_")
"""Prefixes of keys that a WordPress export (jekyll-import) writes and that change nothing
postil does: WordPress' own meta (`_edit_last`, `_wp_old_slug`), Disqus' thread ids
(`dsq_thread_id`), geotagging (`geo_public`). Not every `_` key: al-folio's `_styles` is
CSS for the page, which postil does not add, so it warns."""


def _quiet(key: str) -> bool:
    """Return whether `key` is accepted without a word (`QUIET_KEYS`, `QUIET_PREFIXES`), or
    is a line the author commented out the HTML way: YAML reads `<!-- modified: 2014-03-29 -->`
    as the key `<!-- modified`, which no template of Jekyll's or Hugo's reads either."""
    name = key.lower()
    return name in QUIET_KEYS or name.startswith(QUIET_PREFIXES) or name.startswith("<!--")


def _warn_unknown(
    rel: str, unknown: list[Field], first_line: int, warnings: list[Diagnostic] | None
) -> None:
    known = ", ".join(sorted(PRIMARY_KEYS))
    for fld in unknown:
        hint = did_you_mean(fld.key, PRIMARY_KEYS)
        message = f"unknown front matter key `{fld.key}` is ignored{hint}; known keys: {known}"
        if fld.key.startswith("taxonomies."):  # Zola's (`headers.TAXONOMY_KEYS`)
            message = (
                f"Zola taxonomy `{fld.key.split('.', 1)[1]}` is ignored: postil's one taxonomy "
                "is `tags` (`categories` join them); list these terms under `tags` to show "
                "them, or remove the key"
            )
        _warn(warnings, Location(rel, fld.line0 + first_line, fld.col0 + 1), message)


def _warn(warnings: list[Diagnostic] | None, location: Location, message: str) -> None:
    found = Diagnostic(Severity.WARNING, location, message)
    if warnings is None:
        logging.getLogger("postil").warning("%s", found)
    else:
        warnings.append(found)


def _convert(
    fields: list[Field], tz: ZoneInfo, ignored: list[YamlFieldIgnored] | None = None
) -> dict[str, Any]:
    """Convert the known fields into `FrontMatter` keyword arguments; a value a converter
    leaves out (`YamlFieldIgnored`) is as if not written, and goes to `ignored` (warnings).

    A key whose value is empty (`_empty`) is as if not written: archetypes leave
    `doi: ""`, `date:` and `authors: []` for the writer to fill in. Two keys for one value
    (`author`/`authors`, `summary`/`description`) are an error when both are postil's own
    names or aliases of the same rank and their values differ; otherwise the better-ranked one
    wins (`summary` over `description` over `excerpt`, `permalink` over `url`). `categories`
    join `tags`; `aliases` and `redirect_from` join.
    """
    values: dict[str, Any] = {}
    ranks: dict[str, int] = {}
    for fld in fields:
        if _empty(fld):  # `doi: ""`, `authors: []`, `date:`: as if not written (archetypes)
            continue
        name, convert, rank = FIELDS[fld.key.lower()]
        if name == "aliases" and name in values:  # `aliases:` and `redirect_from:` join
            values[name] += convert(fld, tz)
            continue
        if name in values and ranks[name] == rank:
            value = _converted(convert, fld, tz, ignored)
            if value is _LEFT_OUT or value == values[name]:  # `author: X`, `authors: [X]`
                continue
            raise YamlFieldError(f"`{fld.key}` repeats another key; keep one", fld.line0, fld.col0)
        if name in values and ranks[name] < rank:
            continue
        value = _converted(convert, fld, tz, ignored)
        if value is _LEFT_OUT:
            continue
        if name == "image" and not value:
            continue  # Hugo Blox's `image: {caption: …}` names none: another key may
        values[name], ranks[name] = value, rank
    published = values.pop("published", None)  # Jekyll's `false`, or Hakyll's date
    if isinstance(published, datetime):
        values.setdefault("date", published)
    elif published is not None:
        values.setdefault("draft", not published)
    if "publish_date" in values:  # Hugo: a post without `date` is dated by `publishDate`
        values.setdefault("date", values["publish_date"])
    categories = values.pop("categories", ())
    if categories:
        values["tags"] = tuple(dict.fromkeys((*values.get("tags", ()), *categories)))
    people: tuple[Author, ...] = values.pop("authors", ())
    if people:
        values["authors"] = tuple(dict.fromkeys(author.name for author in people))
        if any(author.url or author.affiliations for author in people):
            values["author_details"] = people
    return values


_LEFT_OUT = object()
"""What `_converted` returns for a value its converter leaves out."""


def _converted(
    convert: Converter, fld: Field, tz: ZoneInfo, ignored: list[YamlFieldIgnored] | None
) -> Any:
    """Return `convert(fld, tz)`, or `_LEFT_OUT` when it leaves the value out
    (`YamlFieldIgnored`, kept in `ignored`; raised when `ignored` is None)."""
    try:
        return convert(fld, tz)
    except YamlFieldIgnored as skip:
        if ignored is None:
            raise
        ignored.append(skip)
        return skip.value if isinstance(skip, YamlFieldGuessed) else _LEFT_OUT


def _empty(fld: Field) -> bool:
    """Whether a field's value is nothing: null, `""`, `[]` or `{}`."""
    node = fld.node
    if isinstance(node, yaml.ScalarNode):
        return node.value == "" or node.tag == "tag:yaml.org,2002:null"
    return isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and not node.value


POSITIONED = {
    "title": "title_at",
    "subtitle": "subtitle_at",
    "summary": "summary_at",
    "image": "image_at",
    "permalink": "permalink_at",
    "slug": "slug_at",
}
"""Text fields whose position is kept, for messages about math, a missing file or a URL
taken twice in them."""


def _positions(
    fields: list[Field], values: dict[str, Any], file_lines: list[str], first_line: int
) -> dict[str, Any]:
    """Return `FrontMatter`'s `…_at` positions (`POSITIONED`, `bibliography_at`,
    `aliases_at`) for the fields among `fields`."""
    found: dict[str, Any] = {}
    for fld in fields:
        name = FIELDS[fld.key.lower()][0]
        if name == "aliases" or name == "bibliography" and "bibliography_at" not in found:
            items = fld.node.value if isinstance(fld.node, yaml.SequenceNode) else [fld.node]
            spots = [text_at(n, n.value.strip(), file_lines, first_line) for n in items]
            found[f"{name}_at"] = found.get(f"{name}_at", ()) + tuple(spots)  # aliases join
        if name == "image" and _converted(ft.image, fld, ZoneInfo("UTC"), []) in ("", _LEFT_OUT):
            continue  # Hugo Blox's options for `featured.jpg`, another theme's mapping
        if name in POSITIONED and name in values and POSITIONED[name] not in found:
            found[POSITIONED[name]] = text_at(fld.node, values[name], file_lines, first_line)
    return found


def text_at(node: yaml.Node, value: str, file_lines: list[str], first_line: int = 2) -> TextAt:
    """Return where a scalar's text starts in the file.

    `first_line` is the file line of the front matter's first line (2 after `---`/`+++`, 1
    for `Key: value` metadata). The value is verbatim when the line holds it character for
    character from its first character on (after the opening quote of a quoted scalar).
    """
    mark = node.start_mark
    col0 = mark.column + (1 if getattr(node, "style", None) in ("'", '"') else 0)
    at = first_line - 1 + mark.line
    line = file_lines[at] if at < len(file_lines) else ""
    return TextAt(at + 1, col0 + 1, line[col0 : col0 + len(value)] == value)


def _clean_text(fld: Field, tz: ZoneInfo) -> str:
    """Return one-line text: control characters (from YAML escapes) removed, spaces collapsed."""
    return ft.one_line(as_text(fld))


def _title(fld: Field, tz: ZoneInfo) -> str:
    text = _clean_text(fld, tz)
    if not text:
        raise YamlFieldError("`title` is empty; write a title", fld.line0, fld.col0)
    return text


QUARTO_DATES = {
    "today": "the day the page is rendered, which changes with every build",
    "now": "the moment the page is rendered, which changes with every build",
    "last-modified": "the file's modification time, which every checkout resets",
}
"""Quarto's date keywords (its "Date Formatting" guide): none names a fixed date."""


def _date(fld: Field, tz: ZoneInfo) -> datetime:
    """Parse an ISO 8601 date or date-time as written (YAML's own timestamp typing is bypassed),
    or a Unix time in seconds or milliseconds (`_EPOCH`: Dendron's notes), shown in `tz`.

    Raises:
        YamlFieldIgnored: Quarto's `today`, `now` or `last-modified` (`QUARTO_DATES`): a
            warning, the key left out (a file named `2023-10-22-x.qmd` is then dated so).
        YamlFieldError: any other text that is no date.
    """
    text = as_text(fld).strip()
    if text.lower() in QUARTO_DATES:
        named = " (a post named YYYY-MM-DD-… is dated by its name)" if fld.key == "date" else ""
        raise YamlFieldIgnored(
            f"`{fld.key}: {text}` means, in Quarto, {QUARTO_DATES[text.lower()]}, so it is "
            f"not read{named}; write the date itself",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        )
    epoch = _EPOCH.fullmatch(text)
    if epoch:  # Dendron's `created: 1665469534093` (ms), a Unix time in seconds
        seconds = int(text) / (1000 if len(text) == 13 else 1)
        return datetime.fromtimestamp(seconds, timezone.utc).astimezone(tz)
    m = _DATE.fullmatch(text)
    guessed: _AmbiguousDate | None = None
    y = None
    try:
        if m:
            y, mo, d, hh, mm, ss, off = m.groups()
        else:
            try:
                y, mo, d, hh, mm, ss, off = _written_date(text)
            except _AmbiguousDate as e:
                guessed = e
                y, mo, d, hh, mm, ss, off = e.reading
        moment = datetime.combine(
            date(int(y), int(mo), int(d)), time(int(hh or 0), int(mm or 0), int(ss or 0))
        )
    except ValueError as e:
        why = _impossible(y, mo, d, hh, mm, ss) if y is not None else ""
        raise YamlFieldError(
            f"`{fld.key}: {text}` is not a date; "
            + (
                f"{why}: fix the date"
                if why
                else "write YYYY-MM-DD or YYYY-MM-DD HH:MM[+HH:MM] "
                "(or the month as a word: 24 Feb 2017)"
            ),
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        ) from e
    moment = moment.replace(tzinfo=tz if off is None else _offset(fld, off))
    if guessed is not None:
        line0, col0 = fld.node.start_mark.line, fld.node.start_mark.column
        raise YamlFieldGuessed(f"`{fld.key}: {text}` {guessed}", line0, col0, moment)
    return moment


def _impossible(*parts: str | None) -> str:
    """Return why a date written in a form postil reads names no moment (`2026-02-30`: "there
    is no day 30 in February 2026"), from its year, month, day, hour, minute and second as
    written; "" when each is in range."""
    y, mo, d, hh, mm, ss = (int(part or 0) for part in parts)
    if not 1 <= mo <= 12:
        return f"there is no month {mo} (months are 1 to 12)"
    if d < 1 or d > calendar.monthrange(y, mo)[1]:
        return f"there is no day {d} in {calendar.month_name[mo]} {y}"
    for value, unit, top in ((hh, "hour", 23), (mm, "minute", 59), (ss, "second", 59)):
        if value > top:
            return f"there is no {unit} {value} ({unit}s are 0 to {top})"
    return ""


class _AmbiguousDate(ValueError):
    """A numeric date whose day and month could be either number: `reading` is the one taken
    (`_DATE`'s groups), the message names it and how to write either."""

    def __init__(self, message: str, reading: tuple[Any, ...]) -> None:
        super().__init__(message)
        self.reading = reading


def _ambiguous(
    first: str, separator: str, second: str, year: str, clock: list[Any]
) -> _AmbiguousDate:
    """Return the reading of a numeric date whose day and month could be either number:
    with `/` month first, as Americans and R Markdown's writers write it; with `-` or `.`
    day first, as Jekyll reads it (Ruby's `Time.parse`) and Europe writes it."""
    a, b = int(first), int(second)
    day, month = (b, a) if separator == "/" else (a, b)
    order = "month first, the US order" if separator == "/" else "day first, as Jekyll reads it"
    return _AmbiguousDate(
        f"could be day {a} or day {b}: it is read {order}, {year}-{month:02d}-{day:02d}; write "
        f"that, or {year}-{day:02d}-{month:02d} for the other reading",
        (year, month, day, *clock),
    )


def _written_date(text: str) -> tuple[Any, ...]:
    """Return `_DATE`'s groups (year, month, day, hour, minute, second, offset) for a date
    whose month is a word (`_WRITTEN_DATE`).

    Raises:
        ValueError: `text` is no such date, or names no month; for a numeric date whose
            day and month could be either, an `_AmbiguousDate` whose message is the advice.
    """
    numeric = _NUMERIC_DATE.fullmatch(text)
    if numeric:
        first, separator, second, year, *clock = numeric.groups()
        if int(first) > 12 >= int(second) or first == second:
            return (year, second, first, *clock)
        if int(second) > 12 >= int(first):
            return (year, first, second, *clock)
        if int(first) > 12:
            raise ValueError(text)  # neither can be a month
        raise _ambiguous(first, separator, second, year, clock)
    m = _WRITTEN_DATE.fullmatch(text)
    if not m:
        raise ValueError(text)
    month = _MONTHS.get((m["m1"] or m["m2"]).lower())
    if month is None:
        raise ValueError(text)
    hh, mm, ss, off = m.groups()[-4:]
    return m["y"], month, m["d1"] or m["d2"], hh, mm, ss, off


def _offset(fld: Field, off: str) -> tzinfo:
    """Return the fixed zone of `Z`, `+HH:MM` or `+HHMM` (`UTC` and `GMT` alone or before an
    offset, as Nikola writes them); hours above 23 or minutes above 59 are an error at the
    value."""
    off = off.removeprefix("UTC").removeprefix("GMT") or "Z"
    if off == "Z":
        return timezone.utc
    digits = off[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 23 or minutes > 59:
        raise YamlFieldError(
            f"`{fld.key}`: offset `{off}` is out of range; write -23:59 to +23:59",
            fld.node.start_mark.line,
            fld.node.start_mark.column,
        )
    sign = -1 if off[0] == "-" else 1
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _macros(fld: Field, tz: ZoneInfo) -> tuple[tuple[str, str], ...]:
    return read_macros(fld)


def _published(fld: Field, tz: ZoneInfo) -> bool | datetime:
    """`published:` as Jekyll writes it (`true`/`false`: whether the post is published) or
    as Hakyll reads it (its `dateField` and `getItemUTC` try `published` before `date`), the
    key WordPress and Blogger imports for Hakyll write: `published: 2008-04-17T19:37:24Z`.

    Returns:
        The boolean, or the date (the post's date, unless it also has `date:`).

    Raises:
        YamlFieldError: neither true/false nor a date, naming both readings.
    """
    text = as_text(fld).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    try:
        return _date(fld, tz)
    except YamlFieldIgnored:
        raise
    except YamlFieldError as e:
        raise YamlFieldError(
            f"`{fld.key}` must be true or false (Jekyll: whether the post is published) or "
            f"the post's date (Hakyll: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ), "
            f"not `{fld.node.value}`",
            e.line0,
            e.col0,
        ) from e


def _last_update(fld: Field, tz: ZoneInfo) -> datetime:
    """Docusaurus' `last_update: {date: 2026-01-03, author: …}`: its date (or a date)."""
    if isinstance(fld.node, yaml.MappingNode):
        parts = {sub.key: sub for sub in mapping_fields(fld.node, f"`{fld.key}`")}
        if "date" not in parts:
            raise YamlFieldIgnored(
                f"`{fld.key}` gives no `date`, so the page has no update date from it; "
                f"write `{fld.key}: {{date: YYYY-MM-DD}}`",
                fld.line0,
                fld.col0,
            )
        return _date(parts["date"], tz)
    return _date(fld, tz)


def _plain(convert: Callable[[Field], Any]) -> Callable[[Field, ZoneInfo], Any]:
    return lambda fld, tz: convert(fld)


Converter = Callable[[Field, ZoneInfo], Any]

_OWN: dict[str, tuple[str, Converter]] = {
    "title": ("title", _title),
    "date": ("date", _date),
    "updated": ("updated", _date),
    "subtitle": ("subtitle", _clean_text),
    "lede": ("subtitle", _clean_text),
    "label": ("label", _clean_text),
    "author": ("authors", ft.authors),
    "authors": ("authors", ft.authors),
    "tags": ("tags", ft.terms),
    "draft": ("draft", _plain(as_bool)),
    "summary": ("summary", _clean_text),
    "slug": ("slug", _clean_text),
    "macros": ("macros", _macros),
    "citation": ("citation", ft.citable),
    "image": ("image", ft.image),
    "toc": ("toc", ft.toc),
    "bibliography": ("bibliography", ft.paths),
    "citation_style": ("citation_style", ft.citation_style),
    "permalink": ("permalink", ft.permalink),
    "aliases": ("aliases", ft.aliases),
    "doi": ("doi", _plain(ft.doi)),
    "styles": ("styles", ft.styles),
    "lang": ("lang", ft.language),  # Pandoc's, Quarto's and Hakyll's metadata field
    "canonical_url": ("canonical", ft.canonical_url),  # dev.to, Jekyll SEO: the original
}
"""postil's own keys: key → (FrontMatter field, converter)."""

_ALIASES: dict[str, tuple[str, Converter, int]] = {
    "categories": ("categories", ft.terms, 1),  # Jekyll, Hugo, Quarto: join the tags
    "category": ("categories", ft.terms, 1),  # Pelican
    "description": ("summary", _clean_text, 1),  # Quarto, Distill, al-folio, Hugo
    "excerpt": ("summary", _clean_text, 2),  # Jekyll
    "desc": ("summary", _clean_text, 3),  # Dendron: the note's description
    "abstract": ("summary", _clean_text, 5),  # Pandoc, Quarto: listings read it after `description`
    "lastmod": ("updated", _date, 1),  # Hugo
    "last_modified_at": ("updated", _date, 1),  # Jekyll (jekyll-last-modified-at)
    "date-modified": ("updated", _date, 1),  # Quarto
    "modified": ("updated", _date, 1),  # Pelican, Quartz
    "update": ("updated", _date, 2),  # Pelican's update_date plugin (`Update: 2014-06-26`)
    "last-modified": ("updated", _date, 1),  # Quartz
    "created": ("date", _date, 1),  # Quartz, Obsidian templates
    "pubdate": ("date", _date, 1),  # Astro's blog template: `pubDate`
    "pubdatetime": ("date", _date, 1),  # AstroPaper: `pubDatetime`
    "moddatetime": ("updated", _date, 1),  # AstroPaper: `modDatetime`
    "ogimage": ("image", ft.image, 2),  # AstroPaper: `ogImage`, the social image
    "publishdate": ("publish_date", _date, 1),  # Hugo (`date` falls back to it), astro-cactus
    "updateddate": ("updated", _date, 1),  # Astro's blog template: `updatedDate`
    "heroimage": ("image", ft.image, 1),  # Astro's blog template: `heroImage`
    "hide_table_of_contents": ("toc", ft.hidden_toc, 1),  # Docusaurus
    "last_update": ("updated", _last_update, 2),  # Docusaurus: `{date: …, author: …}`
    "published": ("published", _published, 1),  # Jekyll `false`; Hakyll, Blogger: a date
    "status": ("draft", ft.status_draft, 2),  # Pelican: `Status: draft`
    "images": ("image", ft.image, 1),  # Hugo: the first one
    "thumbnail": ("image", ft.image, 2),  # al-folio
    "cover": ("image", ft.image, 3),  # Hugo themes: `cover: {image: …}`
    "header": ("image", ft.header_image, 6),  # Minimal Mistakes, Hugo Academic: `{teaser: …}`
    "share-img": ("image", ft.image, 1),  # Beautiful Jekyll: the social image itself
    "header-img": ("image", ft.image, 4),  # Clean Blog, Hux Blog (Jekyll): the header's
    "cover-img": ("image", ft.image, 4),  # Beautiful Jekyll: the header's
    "thumbnail-img": ("image", ft.image, 5),  # Beautiful Jekyll: the list's
    "url": ("permalink", ft.permalink, 1),  # Hugo, Pelican: the page's own URL
    "redirect_from": ("aliases", ft.aliases, 1),  # jekyll-redirect-from
    "path": ("permalink", ft.permalink, 2),  # Zola: the page's own path
    "media_subpath": ("media_path", _clean_text, 1),  # Chirpy: relative images' folder
    "img_path": ("media_path", _clean_text, 2),  # Chirpy before 7.0
    "previewimage": ("image", ft.image, 2),  # Nikola: the post's image in lists and cards
    "preview": ("image", ft.image, 3),  # R's distill: the listing's and social card's image
    "_styles": ("styles", ft.styles, 1),  # al-folio: the post's CSS (its `distill` layout)
    "format": ("macros", ft.header_macros, 1),  # Quarto: a MathJax config in the header
    "canonicalurl": ("canonical", ft.canonical_url, 1),  # Hugo's PaperMod: `canonicalURL`
    "rss": ("summary", _clean_text, 4),  # Franklin.jl: the page's description in its feed
    "rss_description": ("summary", _clean_text, 4),  # Franklin.jl: the same, its long name
    "rss_descr": ("summary", _clean_text, 4),  # Franklin.jl: its short name
    "rss_pubdate": ("date", _date, 2),  # Franklin.jl: the page's date in its feed
    "include-in-header": ("macros", ft.header_macros, 2),  # Quarto, at the top
    "header-includes": ("macros", ft.header_macros, 3),  # Pandoc, R Markdown
    "cover_image": ("image", ft.image, 2),  # dev.to: the post's cover (and social image)
    "main_image": ("image", ft.image, 3),  # dev.to's API name of the cover
    "featuredimage": ("image", ft.image, 2),  # Hugo's LoveIt, FixIt, DoIt: `featuredImage`
    "featuredimagepreview": ("image", ft.image, 3),  # the same themes: the lists' image
    "datepublished": ("date", _date, 1),  # Hashnode's backups: `datePublished`
    "seodescription": ("summary", _clean_text, 2),  # Hashnode: the meta description
    "enabletoc": ("toc", ft.toc, 1),  # Hashnode: `enableToc: true`
    "booktoc": ("toc", ft.toc, 1),  # hugo-book: `BookToC: false` hides the page's contents
    "saveasdraft": ("draft", _plain(as_bool), 1),  # Hashnode: kept as a draft
    "ignorepost": ("draft", _plain(as_bool), 2),  # Hashnode's GitHub source: not published
}
"""Keys of other generators with a meaning postil has: key → (field, converter, rank);
the lower rank wins when two give one field (postil's own keys have rank 0)."""

FIELDS: dict[str, tuple[str, Converter, int]] = {
    key: (name, convert, 0) for key, (name, convert) in _OWN.items()
} | _ALIASES
"""Every key postil reads (lower case: Pelican's `Title:` is `title`)."""

PRIMARY_KEYS = frozenset(_OWN)
"""The keys listed in the unknown-key warning (the aliases are documented in README)."""

QUIET_KEYS = frozenset(
    {"layout", "comments", "mathjax", "math", "katex", "usemathjax", "use_math", "share"}
    | {"sharing"}  # `use_math`: Minimal Mistakes posts' MathJax switch (a custom include's)
    | {"mathjax_autonumber"}  # Jekyll TeXt's MathJax switch for numbered environments
    | {"giscus_comments", "disqus_comments", "related_posts", "featured", "pin", "sitemap"}
    | {"type", "template", "format", "jupyter", "execute", "engine", "freeze"}
    | {"editor", "highlight-style", "code-fold", "code-tools", "title-block-banner"}
    | {"toc-title", "toc-depth", "toc-location", "toc_sticky", "toc_label", "toc_icon"}
    | {"hide", "icon", "search", "keywords", "read_time", "author_profile", "classes"}
    | {"sidebar", "showtoc", "tocopen"}
    | {"tagazine-media", "restapi_import_id", "original_post_id", "wordads_ufa"}
    | {"reference-location", "citation-location", "citations-hover", "footnotes-hover"}
    | {"fig-cap-location", "tbl-cap-location", "cap-location", "page-layout", "fig-align"}
    | {"fig-width", "fig-height", "fig-format", "fig-dpi", "callout-appearance"}
    | {"smooth-scroll", "anchor-sections", "html-math-method", "knitr", "editor_options"}
    | {"keep-md", "df-print", "code-overflow", "title-block-style", "lightbox"}
    | {"link-external-icon", "link-external-newwindow", "email-obfuscation", "resources"}
    # Quarto's PDF and slide options and the labels of its title block
    | {"fontsize", "geometry", "latex-auto-mk", "figure-location", "fig-location"}
    | {"title-slide", "published-title", "author-title", "appendix-cite-as"}
    | {"future"}  # al-folio's Distill posts: Jekyll reads `future` from _config.yml only
    | {"htmlwidgets"}  # the ICLR blog-post template's key, which none of its layouts reads
    | {"wordpress_id", "wordpress_url"}  # jekyll-import's and blogdown's WordPress imports
    | {"extra", "in_search_index"}  # Zola: the theme's own values; search opt-out
    # Zola's section front matter: how its list of the section sorts, pages and links
    | {"sort_by", "paginate_by", "paginate_path", "paginate_reversed", "page_template"}
    | {"insert_anchor_links", "transparent", "generate_feeds"}
    | {"output", "mermaid"}  # R Markdown's output format; Chirpy's Mermaid script switch
    # Docusaurus: its sidebar's and pager's labels and order, the "Edit this page" link
    | {"sidebar_label", "sidebar_position", "sidebar_class_name", "sidebar_custom_props"}
    | {"displayed_sidebar", "pagination_label", "pagination_next", "pagination_prev"}
    | {"custom_edit_url"}
    # hugo-book's menu and page switches (its `BookToC` is postil's `toc`)
    | {"bookhidden", "bookflatsection", "bookcollapsesection", "bookcomments"}
    | {"booksearchexclude", "bookhref", "bookicon"}
    | {"jupytext", "kernelspec"}  # MyST notebooks: the paired notebook's format, its kernel
    | {"cssclasses", "cssclass"}  # Obsidian and Quartz: CSS classes of their own theme
    # Nikola: its math switch, the original's link, comments, URL style, title display
    | {"has_math", "link", "nocomments", "pretty_url", "hidetitle", "enclosure", "filters"}
    # Logseq's page properties (property.cljs, `editable-built-in-properties`): other names
    # of the page for its links, publishing, the graph view, templates
    | {"alias", "public", "exclude-from-graph-view", "template", "template-including-parent"}
    | {"id"}  # Dendron's and Foam's note id: the note's own key in the vault
    # Franklin.jl's page variables (franklinjl.org, "Page variables"): its KaTeX and
    # highlight.js switches, code evaluation, its table of contents' levels, feed fields
    | {"hasmath", "hascode", "hasplotly", "showall", "reeval", "noeval", "freezecode"}
    | {"ignore_cache", "mintoclevel", "maxtoclevel", "reflinks", "indented_code", "fn_title"}
    | {"rss_title", "rss_author", "rss_category", "rss_comments", "rss_enclosure"}
    | {"robots_disallow", "sitemap_changefreq", "sitemap_priority", "sitemap_exclude"}
    # Hashnode: the post's id, its blog, where it is listed, comments, its author's account
    | {"cuid", "domain", "hidefromhashnodecommunity", "hidefromhashnodefeed"}
    | {"disablecomments", "publishas"}
    # Hugo's LoveIt, FixIt and DoIt (their post archetype): scripts the theme loads or not
    | {"twemoji", "lightgallery", "ruby", "fraction", "fontawesome", "linktomarkdown"}
    | {"rssfulltext", "mapbox", "library", "comment", "code"}
)
"""Keys that change nothing postil does (the look of another theme, its comments, its math
engine, Quarto's execution options, MkDocs' `hide`, Zola's `[extra]` table of theme values
and its section's list settings (`sort_by`, `paginate_by`, …),
R Markdown's `output:` format, Chirpy's `mermaid: true`, which only loads a script (postil
loads Mermaid on every page with a diagram: `postil.markdown.diagram`), a MyST
notebook's `jupytext:` and `kernelspec:` (how Jupyter pairs and runs it), Obsidian's
`cssclasses` (classes of its own theme)), accepted without a warning."""
