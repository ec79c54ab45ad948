"""Template tags of other generators, as written in posts moved to postil: finding and reading them.

Jekyll posts carry Liquid (`{{ site.baseurl }}`, `{% post_url x %}`), Hugo posts carry
shortcodes (`{{< figure src="x" >}}`, `{{% note %}}`). postil has no template language in
posts, so the plugins `liquid`, `shortcode` and `template` render what postil has a feature
for and report the rest; this module only finds a tag in text and splits it into its parts.
"""

from __future__ import annotations

import re
import shlex
from bisect import bisect_left
from dataclasses import dataclass

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from postil.markdown.fenceinfo import OPTIONS, QUIET
from postil.markdown.state import RenderState, get_state

OPENERS = {"{{<": ">}}", "{{%": "%}}", "{{": "}}", "{%": "%}"}
"""Each opening delimiter and its closer, longest first (Hugo's before Liquid's)."""

_NAME = re.compile(r"/?\s*([A-Za-z_][\w.-]*)")

ZOLA_CALL = re.compile(r"(?P<name>[0-9A-Za-z_]+)\s*\(\s*(?P<args>(?:[0-9A-Za-z_]+\s*=.*)?)\)", re.S)
"""A Zola shortcode call between `{{ }}` or `{% %}`: `katex(body="x", block=true)` (Zola's
"Shortcodes": the parentheses are mandatory, the arguments named; names and argument names
are `[0-9A-Za-z_]`). `f("x")` is no call (Zola leaves it as text), nor `{% if (a) %}`."""


@dataclass(frozen=True)
class Tag:
    """One template tag found in a post.

    Attributes:
        kind: "output" (Liquid `{{ … }}`), "tag" (Liquid `{% … %}`), "shortcode"
            (Hugo `{{< … >}}` / `{{% … %}}`), "zola" (Zola's `{{ name(…) }}`,
            `{% name(…) %}` and `{% end %}`) or "literal" (an escaped shortcode, shown).
        raw: the tag as written, delimiters included.
        inner: the text between the delimiters, stripped (Liquid's `-` trim marks removed).
        name: the tag's or shortcode's name (`post_url`, `figure`); for an output, the
            first word of the expression (`site.baseurl`).
        closing: whether this closes a paired tag (`{{< /rawhtml >}}`, `{% endraw %}`).
        start: offset of the tag in the text it was found in.
        end: offset just after it.
    """

    kind: str
    raw: str
    inner: str
    name: str
    closing: bool
    start: int
    end: int

    @property
    def args(self) -> str:
        """Return what follows the name (`2020-01-01-slug` of `{% post_url 2020-01-01-slug %}`)."""
        rest = self.inner[1:].lstrip() if self.closing and self.kind == "shortcode" else self.inner
        return rest[len(self.name) :].strip() if rest.startswith(self.name) else rest


def scan_tag(src: str, pos: int, end: int | None = None) -> Tag | None:
    """Return the template tag starting at `src[pos]`, or None if there is none there.

    A tag must close before `end` and before a blank line, and hold a name or expression:
    `{{}}`, `{% %}` and a lone `{%` are text. Hugo's escaped form `{{</* x */>}}` is a
    tag of kind "literal" whose `inner` is the shortcode to show (`{{< x >}}`).
    """
    end = len(src) if end is None else end
    opener = next((o for o in OPENERS if src.startswith(o, pos)), None)
    if opener is None:
        return None
    closer = OPENERS[opener]
    close = src.find(closer, pos + len(opener), end)
    if opener == "{{" and close >= 0:
        close = _output_close(src, pos + len(opener), end)
    body = src[pos + len(opener) : close]
    if close < 0 or "\n\n" in body or _nested(body, opener):
        return None  # tags do not nest: `{{ a {{ b }}` is text, then a tag
    stop = close + len(closer)
    escaped = body.startswith("/*") and body.endswith("*/") and len(body) >= 4
    if escaped and (opener in ("{{<", "{{%") or _zola_call(body[2:-2].strip(), opener)):
        shown = f"{opener}{body[2:-2]}{closer}"
        return Tag("literal", src[pos:stop], shown, "", False, pos, stop)
    inner = body.strip()
    call = _zola_call(inner, opener)
    if call is not None:
        closing = call == "end"
        return Tag("zola", src[pos:stop], inner, call, closing, pos, stop)
    if opener in ("{{", "{%"):
        inner = inner.removeprefix("-").removesuffix("-").strip()
    kind = {"{{": "output", "{%": "tag"}.get(opener, "shortcode")
    name = _NAME.match(inner)
    if not inner or name is None and kind != "output":
        return None
    closing = inner.startswith("/") if kind == "shortcode" else False
    if kind == "tag":
        closing = bool(name and name.group(1).startswith("end"))
    word = name.group(1) if name else inner.split()[0]
    return Tag(kind, src[pos:stop], inner, word, closing, pos, stop)


def _zola_call(inner: str, opener: str) -> str | None:
    """Return the shortcode's name if `inner` is a Zola call (`name(…)`, or `end` between
    `{% %}`), else None: Liquid has no calls, so `{{ f(x=1) }}` is never a Liquid output."""
    if opener == "{%" and inner == "end":
        return "end"
    found = ZOLA_CALL.fullmatch(inner) if opener in ("{{", "{%") else None
    return found.group("name") if found else None


def shortcode_params(args: str) -> tuple[list[str], dict[str, str]]:
    """Split a shortcode's arguments into positional values and `key="value"` pairs.

    Quotes follow Hugo's rules closely enough for real posts: `"…"` and `` `…` `` group
    words; an unbalanced quote takes the rest of the text.
    """
    lexer = shlex.shlex(args.replace("`", '"'), posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quote
        words = args.replace('"', " ").split()
    positional: list[str] = []
    named: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if eq and re.fullmatch(r"[A-Za-z_][\w-]*", key):
            named[key] = value
        else:
            positional.append(word)
    return positional, named


class BlockLines:
    """The line starts of one block's text and the indentation of its lines in the source,
    for `locate` calls on many offsets of that block (a paragraph of thousands of warnings
    is then located in linear time, not by counting and searching its text for each)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [at for at, char in enumerate(text) if char == "\n"]
        self.indents: dict[int, int] = {}


def locate(
    state: RenderState,
    line0: int,
    text: str,
    offset: int,
    lines: BlockLines | None = None,
) -> tuple[int, int]:
    """Return (0-based body line, 1-based column) of `offset` in a block's `text`.

    `text` is a block's content starting at body line `line0` (an inline token's content:
    markdown-it strips list and quote indentation, so each line is found again in the
    source). `lines`, made once for `text` by a caller locating many offsets in it, saves
    counting lines and searching the source again for each.
    """
    if lines is None:
        delta = text.count("\n", 0, offset)
        start = text.rfind("\n", 0, offset) + 1
    else:
        delta = bisect_left(lines.newlines, offset)
        start = lines.newlines[delta - 1] + 1 if delta else 0
    col = offset - start
    line_no = line0 + delta
    if lines is not None and line_no in lines.indents:
        return line_no, lines.indents[line_no] + col + 1
    end = text.find("\n", offset)
    line = text[start : end if end >= 0 else len(text)]
    source = state.source_lines[line_no] if line_no < len(state.source_lines) else ""
    indent = max(source.find(line), 0)
    if lines is not None:
        lines.indents[line_no] = indent
    return line_no, indent + col + 1


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _output_close(src: str, start: int, end: int) -> int:
    """Return where a Liquid output's `}}` is, past quoted strings: `{{ "{% x %}" }}`
    outputs the tag as text (tufte-jekyll's posts show their tags so); -1 if none."""
    at = start
    while at < end:
        close = src.find("}}", at, end)
        if close < 0:
            return -1
        # Only a quote opening before the `}}` matters: looking for one in the rest of the
        # paragraph made a paragraph of many outputs quadratic.
        quotes = [q for q in (src.find("'", at, close), src.find('"', at, close)) if q >= 0]
        if not quotes:
            return close
        quote = _QUOTED.match(src, min(quotes), end)
        at = quote.end() if quote else min(quotes) + 1  # an unpaired quote is text
    return -1


def _nested(body: str, opener: str) -> bool:
    """Return whether a tag's body holds another tag outside its quoted strings (Jekyll
    themes pass `image_path="{{ site.baseurl }}/x.png"` to an include: one tag)."""
    if opener in ("{{", "{%"):
        body = _QUOTED.sub("", body)
    return "{{" in body or "{%" in body


def line_tag(state: StateBlock, line: int) -> Tag | None:
    """Return the template tag that is alone on `line` (up to 3 spaces before it), else None."""
    start = state.bMarks[line] + state.tShift[line]
    end = state.eMarks[line]
    if state.sCount[line] - state.blkIndent >= 4 or not state.src.startswith("{", start):
        return None
    tag = scan_tag(state.src, start, end)
    if tag is None or state.src[tag.end : end].strip():
        return None
    return tag


SPANNING_LINES = 40
"""The most lines a tag spanning lines is looked for in (a long paragraph opening with `{{`
is not read to its end for each of its lines)."""


def spanning_tag(state: StateBlock, line: int, end: int) -> tuple[Tag, int] | None:
    """Return a template tag that opens `line` alone and closes at the end of a later line
    (before `end`), with that last line; None when there is none (`line_tag` reads one on
    a line of its own).

    Jekyll and Hugo read tags before the Markdown, so a tag may span lines: Chirpy's
    documented `{% include embed/video.html⏎  src='…'⏎  autoplay=true %}`, a Hugo
    `{{< figure⏎  src="…"⏎>}}`. Its lines must hold no blank line (`scan_tag`) and stay in
    the block being read: a continuation line left of a list item, or after a quote's `>`,
    ends the search.
    """
    begin = state.bMarks[line] + state.tShift[line]
    if state.sCount[line] - state.blkIndent >= 4 or not state.src.startswith("{", begin):
        return None
    run, end = line, min(end, line + SPANNING_LINES)
    while run + 1 < end and not _breaks_tag(state, run + 1):
        run += 1
    tag = scan_tag(state.src, begin, state.eMarks[run]) if run > line else None
    if tag is None or tag.end <= state.eMarks[line]:
        return None  # none, or one closing on its first line (`line_tag`'s, or text after it)
    last = next(at for at in range(line + 1, run + 1) if tag.end <= state.eMarks[at])
    return None if state.src[tag.end : state.eMarks[last]].strip() else (tag, last)


def _breaks_tag(state: StateBlock, line: int) -> bool:
    """Tell whether `line` cannot continue a tag begun above it: it is blank, outside the
    block being read, or has container markup (a quote's `>`) before its text."""
    blank = state.bMarks[line] + state.tShift[line] >= state.eMarks[line]
    between = state.src[state.eMarks[line - 1] : state.bMarks[line]]
    return blank or left_container(state, line) or between.strip() != ""


def find_closer(state: StateBlock, start: int, end: int, closes: str) -> int | None:
    """Return the line after `start` (before `end`) holding only the tag named `closes`
    that closes the one opened at `start`, or None.

    Tags of one name nest, as in Hugo and Liquid: a Hextra page's `{{% details %}}` holds
    an example's own `{{% details %}}…{{% /details %}}`, so an opening tag of the name
    alone on its line (`closes` itself for a shortcode, without its `end` for Liquid's
    `endnote`; not a self-closing `{{< x />}}`) needs one more closer. A closer indented
    as a paragraph's continuation counts (`_continuing_tag`)."""
    opens = closes[3:] if closes.startswith("end") else closes
    depth = 0
    for line in range(start + 1, end):
        if left_container(state, line, state.sCount[start]):
            return None
        tag = line_tag(state, line) or _continuing_tag(state, line)
        if tag is None:
            continue
        if tag.closing and tag.name.lstrip("/") == closes:
            if depth == 0:
                return line
            depth -= 1
        elif not tag.closing and tag.name == opens and not tag.inner.rstrip().endswith("/"):
            depth += 1
    return None


def _continuing_tag(state: StateBlock, line: int) -> Tag | None:
    """Return the tag alone on `line` when it is indented four spaces or more right after a
    line of text (`- [ ] a task⏎      {{< /admonition >}}`: Prettier indents a line after a
    list item's text as the item's): CommonMark makes such a line the paragraph's
    continuation, never code, and Hugo and Liquid read the tag before the Markdown."""
    if line == 0 or state.sCount[line] - state.blkIndent < 4:
        return None
    if state.bMarks[line - 1] + state.tShift[line - 1] >= state.eMarks[line - 1]:
        return None  # after a blank line: an indented code block
    start, end = state.bMarks[line] + state.tShift[line], state.eMarks[line]
    tag = scan_tag(state.src, start, end) if state.src.startswith("{", start) else None
    return None if tag is None or state.src[tag.end : end].strip() else tag


def left_container(state: StateBlock, line: int, opened: int | None = None) -> bool:
    """Tell whether `line` is outside the block being read (a list item or quote ended);
    a blank line is not (markdown-it's fence reads it the same way).

    Args:
        opened: the indent of the line that opened what is being read, when it may lie
            left of the block: an opening tag right after a list item's text ends the item
            as a code fence there would (`- x⏎{% highlight %}`), and its lines count from
            its own indent.
    """
    blank = state.bMarks[line] + state.tShift[line] >= state.eMarks[line]
    indent = state.blkIndent if opened is None else min(opened, state.blkIndent)
    return state.sCount[line] < indent and not blank


@dataclass(frozen=True)
class CodeTag:
    """A highlight tag and its closing tag, found by `find_code_tag`.

    Attributes:
        tag: the opening tag.
        close: the line of the closing tag (may be the opening's line).
        code: the code between them, each line ending in a newline.
    """

    tag: Tag
    close: int
    code: str


def find_code_tag(
    state: StateBlock, start: int, end: int, kind: str, name: str, closes: str
) -> CodeTag | None:
    """Return the code tag (`highlight`) at the start of line `start` and its code, or None.

    Hugo's and Jekyll's highlight take their code between the tags wherever the tags are:
    on lines of their own, or with the code's first line after the opening tag and its last
    line before the closing tag (posts converted from WordPress are written so):

        {{< highlight python >}}def f(x):
            return x{{< /highlight >}}

    As both generators do, the line breaks just inside the tags are not code. The closing
    tag must end its line; text after it, or no closing tag before the block ends (a list
    item, a quote, the document), and there is no code tag here.

    Args:
        kind: the tags' kind ("shortcode" or "tag"); name: the opening tag's name;
            closes: the closing tag's name (`highlight`, `endhighlight`).
    """
    begin = state.bMarks[start] + state.tShift[start]
    if state.sCount[start] - state.blkIndent >= 4 or not state.src.startswith("{", begin):
        return None
    tag = scan_tag(state.src, begin, state.eMarks[start])
    if tag is None or tag.kind != kind or tag.name != name or tag.closing:
        return None
    for line in range(start, end):
        if line > start and left_container(state, line, state.sCount[start]):
            return None
        closer = _closing_tag_at_end(state, line, tag.end if line == start else None)
        if closer is not None and closer.name.lstrip("/") == closes:
            return CodeTag(tag, line, _code_between(state, start, line, tag, closer))
    return None


def _closing_tag_at_end(state: StateBlock, line: int, after: int | None) -> Tag | None:
    """Return the closing tag that ends `line` (only spaces after it), else None."""
    src, first = state.src, state.bMarks[line] if after is None else after
    end = state.eMarks[line]
    while end > first and src[end - 1] in " \t":
        end -= 1
    if end == first or src[end - 1] != "}":
        return None
    for opener in ("{{", "{%"):
        at = src.rfind(opener, first, end)
        tag = scan_tag(src, at, end) if at >= 0 else None
        if tag is not None and tag.closing and tag.end == end:
            return tag
    return None


def _code_between(state: StateBlock, start: int, close: int, tag: Tag, closer: Tag) -> str:
    """Return the code between `tag` (on line `start`) and `closer` (on line `close`)."""
    indent = state.sCount[start]
    if close == start:
        lines = [state.src[tag.end : closer.start]]
    else:
        last = state.getLines(close, close + 1, indent, False)
        lines = [
            state.src[tag.end : state.eMarks[start]],
            state.getLines(start + 1, close, indent, False),
            last[: len(last) - (state.eMarks[close] - closer.start)],
        ]
        if close == start + 1:
            del lines[1]
    if not lines[0].strip():
        del lines[0]
    if lines and not lines[-1].strip():
        del lines[-1]
    return "".join(line + "\n" for line in lines)


CODE_TAG_KINDS = {"highlight": "code block", "mermaid": "diagram"}
"""The tags whose content `find_code_tag` reads (Hugo's shortcodes and Liquid tags of these
names), by what they make: their code or their diagram's source (`postil.markdown.diagram`)."""


def unclosed_code(tag: Tag, closer: str) -> str:
    """Return the warning for a highlight (or mermaid, `CODE_TAG_KINDS`) tag read inside a
    paragraph: `find_code_tag` found no closing tag ending a line before the block ended,
    or the tag does not begin its line."""
    return (
        f"`{tag.raw}` makes no {CODE_TAG_KINDS.get(tag.name, 'code block')} here: it must begin a "
        f"line and `{closer}` end one in the same block; its code is shown as text"
    )


def code_block(state: StateBlock, start: int, found: CodeTag, options: dict[str, str]) -> None:
    """Push a `fence` token for a highlight tag's code (`find_code_tag`).

    Args:
        options: the tag's options by name; "" is the language, a flag's value is "".
    """
    info, ignored = code_info(options)
    token = state.push("fence", "code", 0)
    token.info = info
    token.markup = found.tag.raw  # not a fence of backticks: `nesting.unclosed_fence` skips it
    token.content = found.code
    token.map = [start, found.close + 1]
    if ignored:
        get_state(state.env).warn(
            start,
            1,
            f"`{found.tag.raw}`: option {', '.join(ignored)} is not supported and is ignored; "
            "code blocks take linenos, linenostart, hl_lines and a title",
        )


def code_info(options: dict[str, str]) -> tuple[str, list[str]]:
    """Return the fence info string for a highlight tag's options, and the options left out.

    The options code blocks read (`postil.markdown.fenceinfo.OPTIONS`: `linenos`,
    `linenos=table`, `hl_lines` (Hugo, Pygments), `mark_lines` (Jekyll), `linenostart`, …)
    become `key="value"` options of the info string, with commas or spaces between line
    ranges; other tools' presentation options (`fenceinfo.QUIET`) go without a word. A tag
    that names no language (Hexo's `{% codeblock lang: Title %}`) is `text`, so that its
    first option is not read as the language.
    """
    parts, ignored = [options.get("", "").strip() or "text"], []
    for key, value in options.items():
        name = OPTIONS.get(key.lower())
        if name == "hl_lines":
            parts.append(f'{key}="{" ".join(value.replace(",", " ").split())}"')
        elif name is not None:
            parts.append(f'{key}="{value}"' if value else key)
        elif key and key.lower() not in QUIET:
            ignored.append(key)
    return " ".join(parts), ignored


def wrap_block(state: StateBlock, start: int, close: int, name: str) -> None:
    """Push `<name>_open`, the blocks of the lines between `start` and `close`, `<name>_close`."""
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType, state.lineMax = name, close  # type: ignore[assignment]
    opening = state.push(f"{name}_open", "", 1)
    opening.map = [start, close + 1]
    state.md.block.tokenize(state, start + 1, close)
    state.push(f"{name}_close", "", -1)
    state.parentType, state.lineMax = old_parent, old_max


def tokenize_lines(state: StateBlock, start: int, end: int) -> None:
    """Parse lines `start` up to `end` (exclusive) as Markdown blocks, into the tokens being
    pushed: the content of a container whose closing line is `end` (a callout's, a tab's, a
    directive's), which no block inside may run past."""
    old_max, state.lineMax = state.lineMax, end
    state.md.block.tokenize(state, start, end)
    state.lineMax = old_max


def push_blocks(state: StateBlock, line: int, text: str) -> None:
    """Push the blocks of the Markdown `text`, given by a tag written on body line `line`
    (a tab's body on its tags' line, Zola's `body="…"`), each mapped to that line."""
    tokens: list[Token] = []
    state.md.block.parse(text, state.md, state.env, tokens)
    for token in tokens:
        token.level += state.level
        token.map = [line, line + 1]
    state.tokens.extend(tokens)
