"""Template tags of other generators, as written in posts moved to postil: finding and reading them.

Jekyll posts carry Liquid (`{{ site.baseurl }}`, `{% post_url x %}`), Hugo posts carry
shortcodes (`{{< figure src="x" >}}`, `{{% note %}}`). postil has no template language in
posts, so the plugins `liquid`, `shortcode` and `template` render what postil has a feature
for and report the rest; this module only finds a tag in text and splits it into its parts.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from markdown_it.rules_block import StateBlock

from postil.markdown.state import RenderState, get_state

OPENERS = {"{{<": ">}}", "{{%": "%}}", "{{": "}}", "{%": "%}"}
"""Each opening delimiter and its closer, longest first (Hugo's before Liquid's)."""

CODE_OPTIONS = {"linenos": "linenos", "mark_lines": "hl_lines", "hl_lines": "hl_lines"}
"""`{% highlight %}` options postil's code blocks have, and their name there."""

_NAME = re.compile(r"/?\s*([A-Za-z_][\w.-]*)")


@dataclass(frozen=True)
class Tag:
    """One template tag found in a post.

    Attributes:
        kind: "output" (Liquid `{{ … }}`), "tag" (Liquid `{% … %}`) or "shortcode"
            (Hugo `{{< … >}}` / `{{% … %}}`).
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
    body = src[pos + len(opener) : close]
    if close < 0 or "\n\n" in body or "{{" in body or "{%" in body:
        return None  # tags do not nest: `{{ a {{ b }}` is text, then a tag
    stop = close + len(closer)
    if opener in ("{{<", "{{%") and body.startswith("/*") and body.endswith("*/"):
        shown = f"{opener}{body[2:-2]}{closer}"
        return Tag("literal", src[pos:stop], shown, "", False, pos, stop)
    inner = body.strip()
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


def locate(state: RenderState, line0: int, text: str, offset: int) -> tuple[int, int]:
    """Return (0-based body line, 1-based column) of `offset` in a block's `text`.

    `text` is a block's content starting at body line `line0` (an inline token's content:
    markdown-it strips list and quote indentation, so each line is found again in the source).
    """
    before = text[:offset]
    delta = before.count("\n")
    col = offset - (before.rfind("\n") + 1)
    line = text.split("\n")[delta]
    source = state.source_lines[line0 + delta] if line0 + delta < len(state.source_lines) else ""
    return line0 + delta, max(source.find(line), 0) + col + 1


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


def find_closer(state: StateBlock, start: int, end: int, closes: str) -> int | None:
    """Return the first line after `start` (before `end`) holding only a tag named `closes`."""
    for line in range(start + 1, end):
        if state.sCount[line] < state.blkIndent:
            return None  # the container (list item, quote) ended
        tag = line_tag(state, line)
        if tag is not None and tag.closing and tag.name.lstrip("/") == closes:
            return line
    return None


def code_block(
    state: StateBlock, start: int, close: int, tag: Tag, options: dict[str, str]
) -> None:
    """Push a `fence` token for the lines between `start` and `close` (a highlight tag's).

    Args:
        options: the tag's options by name; "" is the language, a flag's value is "".
    """
    info, ignored = code_info(options)
    token = state.push("fence", "code", 0)
    token.info = info
    token.markup = tag.raw  # not a fence of backticks: `nesting.unclosed_fence` skips it
    token.content = state.getLines(start + 1, close, state.sCount[start], True)
    token.map = [start, close + 1]
    if ignored:
        get_state(state.env).warn(
            start,
            1,
            f"`{tag.raw}`: option {', '.join(ignored)} is not supported and is ignored; "
            "code blocks take linenos and hl_lines",
        )


def code_info(options: dict[str, str]) -> tuple[str, list[str]]:
    """Return the fence info string for a highlight tag's options, and the options left out.

    `linenos`, `linenos=table` or `linenos=inline` is `linenos`; `hl_lines` (Hugo, Pygments)
    and `mark_lines` (Jekyll) are `hl_lines`, with commas or spaces between line ranges.
    """
    parts, ignored = [options.get("", "")], []
    for key, value in options.items():
        name = CODE_OPTIONS.get(key)
        if name == "linenos" and value.lower() != "false":
            parts.append("linenos")
        elif name == "hl_lines":
            parts.append(f'hl_lines="{" ".join(value.replace(",", " ").split())}"')
        elif name is None and key:
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
