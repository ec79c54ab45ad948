"""A code block's options as each generator writes them after its fence (the info string).

postil's own form is ```` ```python title="attention.py" hl_lines="3-5 8" linenos ````
(`linenostart=10` numbers from 10). The forms other generators write mean the same and
are read the same (`parse_info`):

- MkDocs (pymdownx.highlight): `py title="x.py" hl_lines="2 3" linenums="1"` (`linenums`
  numbers the lines from its value), and its attribute-list form `{ .py title="x.py" }`;
- Hugo: `go {linenos=table,hl_lines=[8,"15-17"],linenostart=199}`;
- Pandoc and Quarto: `{.python .numberLines startFrom="10"}`, Quarto's `filename="x.py"`,
  `code-line-numbers="true"` and its listings' `lst-cap="…"`;
- Docusaurus and Expressive Code (Astro, Starlight, Fuwari): `jsx title="x.js" {1,4-6}
  showLineNumbers` (`showLineNumbers=5` or `startLineNumber=5` numbers from 5); Expressive
  Code's `ins={3-4}`, `del={2}`, `mark={6}` and labelled ranges (`{"1":5}`, `del={"2":7-8}`)
  mark those lines (postil has one mark, as for Eleventy's groups); its `frame=`, `wrap`,
  `preserveIndent`, `collapse={…}` and a diff's `lang=` change only its presentation; its
  text markers (`"given text"`, `/regex/`, `ins="word"`) are one problem: postil marks
  whole lines;
- VitePress and Gatsby: `js{4}`, `ts:line-numbers {1}` (`:line-numbers=5`), `js [config.js]`
  (a title in brackets), gatsby-remark-code-titles' `js:title=x.js`, `js{numberLines: 5}`;
- Eleventy (eleventy-plugin-syntaxhighlight): `js/2-3`, `js/1,3-4`, `js/2/4` (line groups
  after a `/`: `_line_groups`);
- Hexo: `python train.py` (a bare word holding a `.` or `/` is the file name);
- Zola: `rust,linenos,hl_lines=1 3-5 9,linenostart=20,name=mod.rs` (annotations after
  commas, a value running to the next comma; `hide_lines` is a problem: postil shows every
  line), and rustdoc's and mdBook's `rust,ignore`, `rust,no_run`, `rust,editable`, which
  change only how those tools test or run the code (`_comma_annotations`);
- HackMD and CodiMD: `python=` (line numbers), `python=101` (from 101), `python=+`,
  `python!` (`_hackmd_suffix`);
- Jekyll's `mark_lines`; Sphinx's and MyST's `caption`, `emphasize-lines`, `linenos`,
  `lineno-start` (`postil.markdown.myst` passes a `{code-block}`'s options here).

Highlighted lines count from the block's first line whatever number it starts from
(Pygments' and MkDocs Material's rule). Options that change only another tool's
presentation (Quarto's `code-fold`, Hugo's `anchorlinenos`, …) are read and ignored
quietly; any other option is a problem, which the code plugin reports as a warning, except
a `key=value` inside Pandoc's attribute list, which is an HTML attribute there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

OPTIONS = {
    "title": "title",
    "filename": "title",
    "caption": "title",
    "lst-cap": "title",
    "hl_lines": "hl_lines",
    "hl-lines": "hl_lines",
    "mark_lines": "hl_lines",
    "emphasize-lines": "hl_lines",
    "linenos": "linenos",
    "linenums": "linenos",
    "numberlines": "linenos",
    "number-lines": "linenos",
    "line-numbers": "linenos",
    "showlinenumbers": "linenos",
    "code-line-numbers": "linenos",
    "linenostart": "linenostart",
    "startfrom": "linenostart",
    "start-from": "linenostart",
    "lineno-start": "linenostart",
    "startlinenumber": "linenostart",  # Expressive Code
    "ins": "hl_lines",  # Expressive Code's inserted, deleted and marked lines
    "del": "hl_lines",
    "mark": "hl_lines",
}
"""Option names as written (lower case) -> the option they set."""

QUIET = frozenset(
    "code-fold code-summary code-overflow code-copy anchorlinenos lineanchors "
    "linenostyle linenumbersintable noclasses style hl_inline tabwidth guesssyntax wrap "
    "class id name dedent force".split()
    # Expressive Code: its frame, wrapping and collapsed sections, a diff's language
    + "frame preserveindent hangingindent collapse collapsestyle lang".split()
)
"""Options of other tools' presentation, with nothing to do here: ignored without a word."""

OFF = frozenset({"false", "no", "none", "off"})
"""Values that turn line numbers off (`linenos=false`, Quarto's `code-line-numbers="false"`)."""

KNOWN = "hl_lines, linenos, linenostart, title"
"""postil's own option names, which a warning about an unknown option lists."""

_TOKEN = re.compile(
    r"""\{(?P<group>[^{}]*)\}"""  # `{1,3}` or `{linenos=table,hl_lines=[8]}`
    r"""|\[(?P<bracket>[^\]]*)\]"""  # VitePress' `[config.js]`
    r"""|(?P<key>[A-Za-z_][\w-]*)\s*[=:](?!//)\s*"""
    r"""(?P<value>"[^"]*"|'[^']*'|\[[^\]]*\]|\{[^{}]*\}|[^\s,}]*)"""
    r"""|(?P<marker>"[^"]*"|/(?:[^/\\\s]|\\.)+/(?=\s|$))"""  # Expressive Code's text markers
    r"""|(?P<word>[^\s,]+)"""
)
_LABEL = re.compile(r"""\s*(?:"[^"]*"|'[^']*')\s*:\s*""")
"""A label before a range of Expressive Code's (`{"1. Provide the prop:":5-6}`)."""
_LANGUAGE = re.compile(r"[^\s{\[:]*")
_COMMA_LANGUAGE = re.compile(r"[\w#+.-]+,")
"""A language name and a comma: Zola's and rustdoc's annotations follow (not Eleventy's
`js/1,3-4`, whose comma is in its line groups)."""
_SUFFIX = re.compile(r":(no-)?line-numbers(?:=(\d+))?|:title=([^\s{]+)")
_RANGES = re.compile(r"[\d\s,|-]+")
_URL = re.compile(r"https?://")
_ELEVENTY_LINES = re.compile(r"([^/]+)/([\d,-]+(?:/[\d,-]*)?)")
_HACKMD = re.compile(r"([\w#+.-]+?)(?:(=(\d+|\+)?)(!)?|(!))")


@dataclass(frozen=True)
class FenceInfo:
    """A fence's info string, parsed.

    Attributes:
        language: the language ("" when absent), e.g. "python".
        title: the caption (usually a file name), or "".
        hl_lines: 1-based line numbers to highlight, counted from the block's first line,
            sorted.
        linenos: whether to show line numbers.
        linenostart: the number of the first line when they are shown.
        problems: messages about options that were ignored, for warnings.
    """

    language: str = ""
    title: str = ""
    hl_lines: tuple[int, ...] = ()
    linenos: bool = False
    linenostart: int = 1
    problems: tuple[str, ...] = field(default=())


@dataclass
class _Options:
    """What `parse_info` has read so far."""

    title: str = ""
    lines: set[int] = field(default_factory=set)
    linenos: bool = False
    start: int = 1
    problems: list[str] = field(default_factory=list)


def parse_info(info: str, no_language: frozenset[str] = frozenset()) -> FenceInfo:
    """Parse a fence's info string in any of the forms of the module doc.

    Args:
        info: the text after the opening fence.
        no_language: names that mean "no language" (shown as `text`).

    Never raises: unreadable or unknown options are listed in `FenceInfo.problems`.
    """
    text, found = info.strip(), _Options()
    if text.startswith("{"):  # Pandoc's and attr_list's `{.python key=value}`
        language, text = _attribute_language(text, found)
    elif _COMMA_LANGUAGE.match(text):
        language, text = _comma_annotations(text, found)
    else:
        language = _LANGUAGE.match(text).group(0)  # type: ignore[union-attr]
        text = _suffixes(text[len(language) :], found)
        language = _line_groups(_hackmd_suffix(language, found), found)
    _read_tokens(text, found)
    return FenceInfo(
        language="text" if language.lower() in no_language else language,
        title=found.title,
        hl_lines=tuple(sorted(found.lines)),
        linenos=found.linenos,
        linenostart=found.start,
        problems=tuple(found.problems),
    )


def _attribute_language(text: str, found: _Options) -> tuple[str, str]:
    """Read a leading `{.lang .numberLines key=value}`; return the language and the rest."""
    end = text.find("}")
    body, rest = (text[1:end], text[end + 1 :]) if end > 0 else (text[1:], "")
    classes = re.findall(r"(?:^|\s)\.([\w+-]+)", body)
    body = re.sub(r"(?:^|\s)[.#][\w:+-]+", " ", body)  # classes and the id are read
    language = ""
    for name in classes:
        if name.lower() in ("numberlines", "number-lines", "linenos", "line-numbers"):
            found.linenos = True
        elif not language:
            language = name
    _read_tokens(body, found, attributes=True)
    return language, rest


RUSTDOC_WORDS = frozenset(
    "ignore no_run should_panic compile_fail test_harness allow_fail standalone_crate "
    "editable noplayground mdbook-runnable".split()
)
"""rustdoc's and mdBook's words after a comma (`rust,no_run`): how those tools test or run
the block, nothing postil shows; so are `edition2021` and the like (`_comma_annotations`)."""


def _comma_annotations(text: str, found: _Options) -> tuple[str, str]:
    """Read Zola's comma-separated annotations (`rust,linenos,hl_lines=1 3-5 9`, its
    "Syntax highlighting" docs: the info string split at commas, the first part the
    language) and rustdoc's words; return the language and nothing left to read."""
    language, *parts = (part.strip() for part in text.split(","))
    for part in filter(None, parts):
        key, equals, value = (piece.strip() for piece in part.partition("="))
        name = key.lower()
        if not equals:
            if name in RUSTDOC_WORDS or re.fullmatch(r"edition\d{4}", name):
                continue
            _bare_words([key], found)
        elif name == "name":  # Zola 0.19's file name above the block
            found.title = _unquote(value)
        elif name == "hide_lines":
            found.problems.append(
                f"Zola's hide_lines={value} is not read: postil shows every line of the "
                "block; delete the lines from the block or the option"
            )
        else:
            _option(key, value, found)
    return language, ""


def _hackmd_suffix(language: str, found: _Options) -> str:
    """Read HackMD's and CodiMD's suffixes on the language word; return the language alone.

    `python=` numbers the lines, `python=101` from 101, `python=+` on from the block before
    (numbered from 1 here: each block is highlighted on its own), `python!` wraps long
    lines (the page's code blocks scroll instead); HackMD's "Code Block" features, and
    CodiMD's `highlightRender` (`public/js/extra.js`: `lang.replace('=', '')` is the
    language, `/=$/` turns the line numbers on). A word that is only `=` or `!` is left.
    """
    match = _HACKMD.fullmatch(language)
    if match is None:
        return language
    if match.group(2) is not None:
        found.linenos = True
        start = match.group(3)
        found.start = int(start) if start and start.isdigit() else found.start
    return match.group(1)


def _line_groups(language: str, found: _Options) -> str:
    """Read eleventy-plugin-syntaxhighlight's line groups after the language (`js/2-3`,
    `js/1,3-4`; `js/2/4`: lines added, then removed); return the language alone.

    The plugin splits the language at `/` and marks each group's lines
    (`src/markdownSyntaxHighlightOptions.js`, `HighlightLinesGroup`: one group highlights,
    two mark lines added and removed); postil has one mark, so every group's lines are
    highlighted. A language with a `/` and no line numbers after it stays as written.
    """
    match = _ELEVENTY_LINES.fullmatch(language)
    if match is None:
        return language
    for group in match.group(2).split("/"):
        _add_lines(group, language, found)
    return match.group(1)


def _suffixes(text: str, found: _Options) -> str:
    """Read VitePress' and gatsby-remark-code-titles' suffixes on the language word
    (`:line-numbers=5`, `:no-line-numbers`, `:title=x.js`); return the text after them."""
    while match := _SUFFIX.match(text):
        if match.group(3) is not None:
            found.title = match.group(3)
        else:
            found.linenos = match.group(1) is None
            found.start = int(match.group(2)) if match.group(2) else found.start
        text = text[match.end() :]
    return text


def _read_tokens(text: str, found: _Options, attributes: bool = False) -> None:
    """Read options, `{…}` groups, a `[title]` and bare words (see the module).

    Args:
        attributes: True inside Pandoc's and attr_list's `{.lang key=value}`, where a key
            that is no option is an HTML attribute (Pandoc writes `data-key`), not a
            mistake: ignored without a word (cp-algorithms' `{.cpp file=gauss}`).
    """
    words: list[str] = []
    for match in _TOKEN.finditer(text):
        if match.group("group") is not None:
            group = _LABEL.sub("", match.group("group"))
            if _RANGES.fullmatch(group):
                _add_lines(group, "{" + group + "}", found)
            else:
                _read_tokens(group, found)
        elif match.group("bracket") is not None:
            found.title = match.group("bracket").strip()
        elif match.group("key") is not None:
            _option(match.group("key"), match.group("value"), found, attributes)
        elif match.group("marker") is not None:
            _text_marker(match.group("marker"), found)
        elif match.group("word") is not None:
            words.append(match.group("word"))
    _bare_words(words, found)


def _text_marker(marker: str, found: _Options) -> None:
    """Note that Expressive Code's text markers are not shown (once a block)."""
    problem = (
        f"Expressive Code's text marker {marker} is not highlighted: postil marks whole "
        "lines; mark its line with {n} instead"
    )
    if not any(p.startswith("Expressive Code's text marker") for p in found.problems):
        found.problems.append(problem)


def _bare_words(words: list[str], found: _Options) -> None:
    """Read flags (`linenos`, `showLineNumbers`); words holding a `.` or `/` are the title
    (Hexo's file name, up to a URL: its `[url] [link text]` have nothing to show); the other
    words are unknown options, named in one warning."""
    unknown: list[str] = []
    for i, word in enumerate(words):
        name = word.lower()
        if _URL.match(word):
            break
        if OPTIONS.get(name) == "linenos":
            found.linenos = True
        elif name in QUIET:
            continue
        elif ("." in word or "/" in word) and not found.title:
            end = next((j for j in range(i, len(words)) if _URL.match(words[j])), len(words))
            found.title = " ".join(words[i:end])
            break
        elif name in OPTIONS:
            found.problems.append(f"code option {word!r} needs a value; write {word}=…")
        else:
            unknown.append(word)
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        names = ", ".join(map(repr, unknown))
        found.problems.append(f"unknown code option{plural} {names}; known: {KNOWN}")


def _option(key: str, value: str, found: _Options, attributes: bool = False) -> None:
    """Apply one `key=value` option (`value` as written, quotes and all); an unknown key is
    a problem, unless it is an HTML attribute of an attribute list (`_read_tokens`)."""
    if value[:1] in ("'", '"') and (len(value) < 2 or value[-1] != value[0]):
        found.problems.append(f"unbalanced quote in {key}={value}; close the quote")
        value = value[1:]
    value = _unquote(value)
    name = OPTIONS.get(key.lower())
    if name is None:
        if key.lower() not in QUIET and not attributes:
            found.problems.append(f"unknown code option {key!r}; known: {KNOWN}")
        return
    if name == "title":
        found.title = value
    elif name == "hl_lines" and key.lower() in ("ins", "del", "mark"):
        if value.startswith("{"):
            _add_lines(_LABEL.sub("", value[1:-1]), value, found, key)
        else:
            _text_marker(f'{key}="{value}"', found)
    elif name == "hl_lines":
        _add_lines(value, value, found, key)
    elif name == "linenostart":
        _start(key, value, found)
    elif key.lower() == "code-line-numbers" and value.lower() not in OFF | {"true", ""}:
        _add_lines(value, value, found, key)  # Quarto: the lines to highlight
    else:
        found.linenos = value.lower() not in OFF
        if value.isdigit():  # `linenums="5"`, `showLineNumbers=5`, `numberLines: 5`
            found.start = int(value)


def _start(key: str, value: str, found: _Options) -> None:
    """Set the first line's number from `value`, or report it."""
    if value.isdigit():
        found.start = int(value)
    else:
        found.problems.append(f"{key}={value!r} is not a line number; write e.g. {key}=10")


def _add_lines(text: str, written: str, found: _Options, key: str = "hl_lines") -> None:
    """Add the lines of `3-5 8`, `3-5,8`, `[8,"15-17"]` or `1|3-4`; report a bad part."""
    for part in re.split(r"[\s,|]+", text.strip("[] ")):
        part = part.strip("\"'")
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part) if part else None
        if part and (match is None or int(match.group(2) or part) < int(match.group(1))):
            found.problems.append(f'{key}={written!r} is not a line list; write e.g. {key}="3-5 8"')
            return
        if match:
            found.lines.update(range(int(match.group(1)), int(match.group(2) or part) + 1))


def _unquote(value: str) -> str:
    """Return an option's value without its quotes."""
    if len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
        return value[1:-1]
    return value
