"""Metadata blocks of Pandoc, Hakyll and Nikola at the top of a post.

`postil.content.frontmatter.read_header` tries them where a file opens with their mark;
each returns a `headers.Header` of the same `Field`s YAML gives, or None when the lines
are the body's after all:

- `% Title`, `% Author`, `% Date` lines: Pandoc's title block (`read_title_block`);
- YAML between lines of more than three dashes: Hakyll's (`read_dashed_block`);
- `.. key: value` lines in an HTML comment or bare: Nikola's (`read_nikola_comment`);
- a JSON object opening the file: Hugo's JSON front matter (`read_json_object`);
- YAML closed by `---` whose opening `---` was left out (`read_unopened_block`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Container

import yaml

from postil.content.headers import SEQ, STR, Header, meta_field, scalar
from postil.model import SourceFile
from postil.yamlnodes import Field, YamlFieldError, compose_mapping

DASH_FENCE = re.compile(r"-{4,}[ \t]*")
"""The opening line of Hakyll's metadata block when it is longer than `---`."""

DASH_CLOSE = re.compile(r"(?:-{3,}|\.{3})[ \t]*")
"""A line closing Hakyll's metadata block: three or more dashes, or Pandoc's `...`."""


def read_dashed_block(source: SourceFile, known: Container[str] = ()) -> Header | None:
    """Read YAML between lines of four or more dashes (Hakyll's metadata block, whose
    fences may be any line of three or more dashes), or None.

    A post may also open with a thematic break (`-----`) and text; so the block counts only
    when it closes, what it holds reads as a YAML mapping, and one key is `title` or every
    key is in `known` (as `read_meta_lines` decides); otherwise the file has no front
    matter and the lines are its body.
    """
    lines = source.text.split("\n")
    if not DASH_FENCE.fullmatch(lines[0]):
        return None
    end = next((i for i in range(1, len(lines)) if DASH_CLOSE.fullmatch(lines[i])), None)
    if end is None:
        return None
    try:
        fields = compose_mapping("\n".join(lines[1:end]))
    except (yaml.YAMLError, YamlFieldError):
        return None
    keys = [f.key for f in fields or ()]
    if "title" not in keys and not (keys and all(key in known for key in keys)):
        return None
    return Header(fields, "\n".join(lines[end + 1 :]), end + 2, 2, "yaml")


JSON_OPENING = re.compile(r'\{\s*(?:"|$)')
"""The start of a JSON object with a key (`{"title": …`), or `{` alone on the first line."""


def read_json_object(source: SourceFile, known: Container[str] = ()) -> Header | None:
    """Read Hugo's JSON front matter, a JSON object that opens the file (`{"title": "X",
    "tags": ["a"]}`, on one line or several: Hugo's "Front matter" formats), or None.

    JSON is YAML's flow syntax, so the object is read by the YAML reader and its fields
    keep their places. It counts only when it parses as a JSON object whose keys hold
    `title` or are all in `known`, and its closing `}` ends its line; otherwise the text is
    the body's (a post opening with a Liquid tag or a shortcode never gets here whole).
    """
    text = source.text
    if JSON_OPENING.match(text) is None:
        return None
    try:
        value, end = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return None
    line_end = text.find("\n", end)
    rest = text[end:] if line_end < 0 else text[end:line_end]
    if not isinstance(value, dict) or rest.strip():
        return None
    if "title" not in value and not (value and all(key in known for key in value)):
        return None
    try:
        fields = compose_mapping(text[:end])
    except (yaml.YAMLError, YamlFieldError):  # JSON that YAML 1.1 reads otherwise
        return None
    body = "" if line_end < 0 else text[line_end + 1 :]
    return Header(fields, body, text.count("\n", 0, end) + 2, 1, "json")


UNOPENED_FIRST = re.compile(r"([A-Za-z_][\w-]*):(?:[ \t]|$)")
"""The first line of front matter whose opening `---` was left out: `layout: post`."""


def read_unopened_block(source: SourceFile, known: Container[str] = ()) -> Header | None:
    """Read YAML front matter closed by `---` but not opened by one, or None.

    Found in real Jekyll posts (an edit that dropped the first line): Jekyll and Hugo read
    front matter only after an opening `---`, and postil read `title: …` to `---` as a
    setext heading and titled the post by its file name. The block counts only when its first
    line is `key: value` with a key in `known`, a line `---` closes it, what it holds reads
    as a YAML mapping and one key is `title`; the header says it was `opened=False`, and
    `frontmatter.parse` warns to add the line.
    """
    lines = source.text.split("\n")
    first = UNOPENED_FIRST.match(lines[0])
    if first is None or first[1].lower() not in known:
        return None
    end = next((i for i, line in enumerate(lines) if line.rstrip() == "---"), None)
    if end is None:
        return None
    repeated: list[Field] = []
    try:
        fields = compose_mapping("\n".join(lines[:end]), repeated)
    except (yaml.YAMLError, YamlFieldError):
        return None
    if "title" not in [f.key for f in fields or ()]:
        return None
    body = "\n".join(lines[end + 1 :])
    return Header(fields, body, end + 2, 1, "yaml", tuple(repeated), opened=False)


TITLE_BLOCK_LINE = re.compile(r"%(?:[ \t]+(.*?))?[ \t]*")
"""A line of Pandoc's title block: `% text` (or a bare `%` for a part left out)."""


def read_title_block(source: SourceFile) -> Header | None:
    """Read Pandoc's title block at the top of a file (`% Title`, `% Author; Author`,
    `% Date`), or None when the file does not start with `%`.

    Pandoc's `pandoc_title_block` extension (on in Pandoc's Markdown, so in Hakyll and R
    Markdown): up to three lines, title, authors (separated by `;`) and date, any of them
    a bare `%` when left out; a line starting with a space continues the one before (a
    title, or authors one a line). The body starts after the block (a blank line after it
    is skipped).
    """
    lines = source.text.split("\n")
    parts: list[tuple[list[str], int, int]] = []  # each part's texts, its line, its column
    end = 0
    while end < len(lines) and len(parts) <= 3:
        line = lines[end]
        match = TITLE_BLOCK_LINE.fullmatch(line) if line.startswith("%") else None
        if match is not None and len(parts) < 3:
            parts.append(([match.group(1) or ""], end, match.start(1) if match.group(1) else 0))
        elif parts and line[:1] in (" ", "\t") and line.strip():
            parts[-1][0].append(line.strip())
        else:
            break
        end += 1
    if not parts:
        return None
    fields = []
    for key, (texts, line0, col0) in zip(("title", "author", "date"), parts, strict=False):
        mark = yaml.Mark("<title block>", 0, line0, col0, None, 0)
        if key == "author":
            names = [n.strip() for text in texts for n in text.split(";") if n.strip()]
            if names:
                nodes = [scalar(name, STR, mark) for name in names]
                fields.append(Field(key, yaml.SequenceNode(SEQ, nodes, mark, mark), line0, 0))
        elif " ".join(texts).strip():
            fields.append(Field(key, scalar(" ".join(texts).strip(), STR, mark), line0, 0))
    body_start = end + 1 if end < len(lines) and not lines[end].strip() else end
    return Header(fields, "\n".join(lines[body_start:]), body_start + 1, 1, "meta")


NIKOLA_LINE = re.compile(r"[ \t]*\.\. ([A-Za-z0-9_-]+):[ \t]*(.*?)[ \t]*")
"""A line of Nikola's metadata: `.. title: Known bits` (its `NikolaMetadata` extractor)."""

NIKOLA_OPEN = re.compile(r"[ \t]*<!-+[ \t]*")
"""The line opening the comment around Nikola's metadata: `<!--`, or `<!-` as some write it."""

NIKOLA_CLOSE = re.compile(r"[ \t]*-+>[ \t]*")
"""The line closing it: `-->`, or `->`."""


def starts_nikola_metadata(first: str) -> bool:
    """Whether a file's first line may open Nikola's metadata (`read_nikola_comment`)."""
    return NIKOLA_OPEN.fullmatch(first) is not None or NIKOLA_LINE.fullmatch(first) is not None


def read_nikola_comment(source: SourceFile, known: Container[str] = ()) -> Header | None:
    """Read Nikola's metadata at the top of a Markdown post, or None.

    Nikola ("Handbook", Metadata formats) writes reST-style `.. key: value` lines; in a
    Markdown post they stand inside `<!--` … `-->`. Nikola's `NikolaMetadata` extractor
    reads the `.. key: value` lines of the file's first block (up to its first blank line)
    and drops the block whatever wraps it, so `<!-` … `->` and bare lines with no comment
    are its metadata too. Only a comment made of such lines (and blank ones), or a bare
    block of them, counts, with a `title` or only keys postil knows, so an ordinary
    comment at the top stays the body's. `tags` and `category` are comma-separated lists;
    the body starts after the block (a blank line after it is skipped).
    """
    lines = source.text.split("\n")
    bare = NIKOLA_OPEN.fullmatch(lines[0]) is None
    if bare and NIKOLA_LINE.fullmatch(lines[0]) is None:
        return None
    entries: list[tuple[str, list[str], int, int]] = []
    end = 0 if bare else 1
    while end < len(lines) and not _ends_nikola_block(lines[end], bare):
        match = NIKOLA_LINE.fullmatch(lines[end])
        if match is not None:
            entries.append((match.group(1).lower(), [match.group(2)], end, match.start(2)))
        elif lines[end].strip():
            return None
        end += 1
    keys = [key for key, *_ in entries]
    if (end >= len(lines) and not bare) or (
        "title" not in keys and not (keys and all(k in known for k in keys))
    ):
        return None
    fields = [meta_field(key, parts, line0, col0) for key, parts, line0, col0 in entries]
    last = end - 1 if bare else end
    body_start = last + 2 if last + 1 < len(lines) and not lines[last + 1].strip() else last + 1
    return Header(fields, "\n".join(lines[body_start:]), body_start + 1, 1, "nikola")


def _ends_nikola_block(line: str, bare: bool) -> bool:
    """Whether `line` ends Nikola's metadata: a blank line after bare lines, else `-->`."""
    return not line.strip() if bare else NIKOLA_CLOSE.fullmatch(line) is not None
