r"""Raw HTML blocks that hold display math or a code tag across a blank line, or Markdown.

CommonMark ends an HTML block that starts with a block tag (`<div>`, `<details>`, `<p>`) at
the first blank line, and reads what follows as Markdown. The generators the posts come from
read such a block otherwise, in three ways that matter:

- **Math**: MathJax typesets the finished page, so `$$…$$`, `\[…\]` or `\begin{align}…\end{align}`
  may hold blank lines inside a `<div>` (the hidden `<div style="display: none">$$ \newcommand…
  $$</div>` preamble of macros, with a blank line between groups of definitions). Cut at the
  blank line, the formula was never closed: its definitions became paragraphs, and every
  later use of them was "unsupported".
- **Code tags**: Jekyll runs Liquid before kramdown and Hugo its shortcodes before Goldmark,
  so `{% highlight %}…{% endhighlight %}` or `{{< highlight >}}` is code wherever it is,
  `<details><summary>Code</summary>⏎{% highlight python %}` included, blank lines in the code
  and all. Cut at the first blank line, the code's first part stayed in the HTML as text
  and the rest became paragraphs.
- **Scripts and style sheets**: a browser reads `<script>`, `<style>` and `<textarea>` to
  their end tags, and kramdown the whole element; nbconvert's Markdown writes a notebook's
  outputs as they are (pandas' `<div>⏎<style scoped>`, plotly's `<script>`), blank lines
  inside. Cut at the first, the rest of the style sheet became an indented code block in
  it, and a script's rest a paragraph (`<p>` in the JavaScript).
- **Markdown inside an element**: kramdown's `<div markdown="1">` and Python-Markdown's
  `<div markdown>` (md_in_html; MkDocs Material's grids) say the element's content is
  Markdown, written right after the tag. Cut at the blank line, the content stayed raw
  text (`**bold**` with its stars) and a code fence inside lost its opening line.

`html_block_across` runs before markdown-it's `html_block` at a line that starts such a block.
It reads the block to its blank line as CommonMark does, unless (1) a line inside starts a
code tag (`CODE_TAGS`) that is closed: the block ends before that line, whose tag rule
(`liquid_block`, `shortcode_block`, `hexo_block`) then makes the code block, and the HTML
after the code is a block of its own; (2) the text holds a display math opener beginning
a line whose closer ends a line after the blank line: the block goes on to the closer's
line, and then to the next blank line (again checked), so `postil.markdown.mathhtml` finds
the whole formula (a `$$` inside a sentence, a shell's PID, opens nothing), and likewise
to the end tag of a script, style sheet or text area left open, or of an element whose
content after the blank line is all indented HTML (`postil.markdown.htmlverbatim`); (3) a
line of tags only that opens an element with a `markdown` attribute is a block of its own
(the attribute taken out), and so is every such line until one closes the element, so the
lines between are Markdown (`_markdown_element_line`); such an element with its content
and end tag on its one line is its tags around a paragraph (`_one_line_markdown_element`).
A code tag inside an element, at any indentation and after blank lines up to the element's
end tag, is code (`html_code_tag`): kramdown reads the element to its end tag. Otherwise,
and for any block a blank line does not end (`<pre>`, comments), it leaves the line to
`html_block`.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_block.html_block import HTML_SEQUENCES

from postil.markdown.htmlverbatim import (
    ELEMENT,
    element_end,
    indented_element_closer,
    verbatim_closer,
)
from postil.markdown.mathhtml import BEGIN_ENV
from postil.markdown.state import is_mdx
from postil.markdown.tagsyntax import find_code_tag, left_container, line_tag, spanning_tag
from postil.math.delimiters import escaped

CODE_TAGS = (
    ("tag", "highlight", "endhighlight"),  # Jekyll
    ("shortcode", "highlight", "highlight"),  # Hugo
    ("tag", "codeblock", "endcodeblock"),  # Hexo
    ("tag", "mermaid", "endmermaid"),  # jekyll-mermaid
    ("shortcode", "mermaid", "mermaid"),  # Hugo themes' diagram shortcode
)
"""Code tags as `find_code_tag` reads them: (kind, opening name, closing name)."""

_DISPLAY = re.compile(r"\$\$|\\\[|" + BEGIN_ENV.pattern)
r"""A display math opener: `$$`, `\[` or a math environment."""
_TAG = re.compile(r"<!--|</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
"""An HTML tag or comment, which ends a run of text."""
MARKDOWN_ATTRIBUTE = re.compile(
    r"""\s+markdown(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`/]+))?(?=\s|/?>)""", re.I
)
"""kramdown's `markdown="1"` (`"block"`, `"span"`; `"0"` keeps the content raw) and
Python-Markdown's md_in_html `markdown`: the element's content is Markdown."""
TAGS_ONLY = re.compile(
    r"""(?:\s*(?:<!--.*?-->|</?[A-Za-z][\w:-]*(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?/?>))+\s*"""
)
"""A line of HTML tags (and comments) only."""
MARKDOWN_ELEMENTS = "_markdown_elements"
"""The `env` key of the names of the elements with a `markdown` attribute still open."""
INDENTED_CODE_TAGS = "_indented_code_tags"
"""`env` key: the lines where a code tag indented four spaces or more inside an HTML block
starts (`<div>⏎    {% highlight python %}`), which `html_code_tag` gives to the tag rules."""
CODE_TAG_RULES = ("liquid_block", "shortcode_block", "hexo_block")
"""The block rules that make a code block of a `CODE_TAGS` tag."""


def htmlblock_plugin(md: MarkdownIt) -> None:
    r"""Read HTML blocks that hold display math or a code tag across a blank line (module doc).

    Syntax::

        <div style="display: none">
        $$
        \newcommand{\R}{\mathbb{R}}

        \definecolor{accent}{RGB}{230,29,0}
        $$
        </div>

    Output: one HTML block, its formula typeset by the math plugin (here: only definitions,
    so nothing shows). CSS classes: none.
    """
    md.block.ruler.before("html_block", "html_block_across", html_block_across)
    md.block.ruler.before("code", "html_code_tag", html_code_tag)


def html_block_across(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: an HTML block ended by a blank line, read as the module doc says; False
    (markdown-it's `html_block` reads it) when neither kind of content is in it."""
    if silent or not _blank_line_ends_html(state, start):
        return False
    if _markdown_element_line(state, start):
        return True
    last = start  # the last line known to be in the block
    _note_indented_code_tags(state, start, _blank_line(state, start, end), end)
    while True:
        stop = _blank_line(state, last, end)
        code_at = next(
            (at for at in range(last + 1, stop) if _code_tag(state, at, end) or _figure(state, at)),
            None,
        )
        code_at = _markdown_start(state, last + 1, code_at or stop) if code_at is None else code_at
        if code_at is not None:
            return _push(state, start, code_at)
        closing = _math_closer(state, start, stop, end)
        if closing is None:
            closing = verbatim_closer(state, start, stop, end)
        if closing is None:
            closing = indented_element_closer(state, start, stop, end)
        if closing is None:
            return _push(state, start, stop) if last > start else False
        last = closing


def _markdown_start(state: StateBlock, first: int, stop: int) -> int | None:
    """Return the first line from `first` (before `stop`) that holds only tags and opens an
    element with a `markdown` attribute, or None: kramdown reads the element's content as
    Markdown inside an outer element too (`<div class="grid">⏎<div class="cell"
    markdown="1">⏎![a](a.png)`), so the HTML block ends before it (`_markdown_element_line`
    reads it)."""
    for line in range(first, stop):
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if "markdown" not in text.lower() or not TAGS_ONLY.fullmatch(text):
            continue
        attribute = MARKDOWN_ATTRIBUTE.search(text)
        if attribute is not None and (attribute.group(1) or "").strip("'\"") != "0":
            return line
    return None


def _markdown_element_line(state: StateBlock, line: int) -> bool:
    """Push `line` alone as an HTML block when it holds only tags and opens an element with
    a `markdown` attribute, or lies inside one (`MARKDOWN_ATTRIBUTE`); return whether it did.

    The attribute is taken out (no HTML element has it), and the element's name kept in
    `env` until a line of tags closes it, so the lines between are read as Markdown.
    """
    text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
    mdx = is_mdx(state.env)
    if ("markdown" in text.lower() or mdx) and _one_line_markdown_element(state, line, text):
        return True
    open_elements: list[str] = state.env.setdefault(MARKDOWN_ELEMENTS, [])
    if (not open_elements and "markdown" not in text.lower()) or not TAGS_ONLY.fullmatch(text):
        return False
    opening = ELEMENT.match(text)
    attribute = MARKDOWN_ATTRIBUTE.search(text)
    if attribute is not None and opening is not None:
        if (attribute.group(1) or "").strip("'\"") == "0":
            return False  # kramdown's `markdown="0"`: raw, as CommonMark reads any block
        text = text[: attribute.start()] + text[attribute.end() :]
        open_elements.append(opening.group(1).lower())
    elif open_elements:
        closes = re.search(rf"</{re.escape(open_elements[-1])}\s*>", text, re.I)
        if closes is not None:
            open_elements.pop()
    else:
        return False
    token = state.push("html_block", "", 0)
    token.map = [line, line + 1]
    token.content = " " * max(0, state.sCount[line] - state.blkIndent) + text + "\n"
    state.line = line + 1
    return True


_ONE_LINE = re.compile(
    r"""(<([A-Za-z][A-Za-z0-9-]*)(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?>)(.*)</\2\s*>\s*""", re.S
)
"""An element with its content and end tag on one line: (start tag, name, content)."""
RAW_TEXT = frozenset({"pre", "script", "style", "textarea", "code", "svg", "math"})
"""Elements whose one-line content MDX's reading leaves as it is here (code, scripts)."""
SPAN_CONTENT = frozenset(
    "p h1 h2 h3 h4 h5 h6 td th dt summary figcaption caption legend label".split()
)
"""Elements whose Markdown content kramdown parses as text, not blocks (no paragraph)."""


def _one_line_markdown_element(state: StateBlock, line: int, text: str) -> bool:
    """Push an element with a `markdown` attribute whose content and end tag share its line
    (`<div class="note" markdown="1">**Note:** read this.</div>`): its start tag without the
    attribute, the content as a paragraph (as text alone in `SPAN_CONTENT` elements or with
    `markdown="span"`), its end tag; return whether it did. In an MDX post every lowercase
    element but `RAW_TEXT`'s is read so, its content as text (MDX reads elements as JSX)."""
    whole = _ONE_LINE.fullmatch(text)
    if whole is None or re.search(f"<{re.escape(whole.group(2))}[\\s/>]", whole.group(3), re.I):
        return False
    start_tag, content = whole.group(1), whole.group(3).strip()
    attribute = MARKDOWN_ATTRIBUTE.search(start_tag)
    value = (attribute.group(1) or "").strip("'\"").lower() if attribute else "0"
    name = whole.group(2)
    if attribute is None and is_mdx(state.env) and name.islower() and name not in RAW_TEXT:
        value = "span"  # MDX reads an element as JSX: on one line its content is text
    if value == "0" or not content:
        return False
    opening = state.push("html_block", "", 0)
    opening.map = [line, line + 1]
    paragraph = value != "span" and name.lower() not in SPAN_CONTENT
    if attribute is not None:
        start_tag = start_tag[: attribute.start()] + start_tag[attribute.end() :]
    opening.content = start_tag
    opening.content += "\n" if paragraph else ""
    if paragraph:
        state.push("paragraph_open", "p", 1).map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = content, [line, line + 1], []
    if paragraph:
        state.push("paragraph_close", "p", -1)
    state.push("html_block", "", 0).content = f"</{name}>\n"
    state.line = line + 1
    return True


def _blank_line_ends_html(state: StateBlock, line: int) -> bool:
    """Tell whether `line` starts an HTML block that a blank line ends (CommonMark's kinds 6
    and 7)."""
    if state.is_code_block(line) or not state.md.options.get("html"):
        return False
    text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
    if not text.startswith("<"):
        return False
    kind = next((seq for seq in HTML_SEQUENCES if seq[0].search(text)), None)
    return kind is not None and bool(kind[1].search(""))


def _blank_line(state: StateBlock, line: int, end: int) -> int:
    """Return the first blank line (or the first line outside the container) after `line`,
    else `end`: where CommonMark ends an HTML block begun at `line`."""
    for at in range(line + 1, end):
        if state.isEmpty(at) or left_container(state, at):
            return at
    return end


def _code_tag(state: StateBlock, line: int, end: int) -> bool:
    """Tell whether `line` starts a code tag closed before `end` (`CODE_TAGS`), at any
    indentation: Liquid and Hugo's shortcodes run before the Markdown, and the HTML block
    keeps the code they write as it is (an indented tag's line is noted for `html_code_tag`).
    """
    start = state.bMarks[line] + state.tShift[line]
    if not state.src.startswith("{", start):
        return False
    indent, deeper = state.blkIndent, state.sCount[line] - state.blkIndent >= 4
    state.blkIndent = max(indent, state.sCount[line])
    try:
        found = any(find_code_tag(state, line, end, *tag) is not None for tag in CODE_TAGS)
    finally:
        state.blkIndent = indent
    if found and deeper:
        state.env.setdefault(INDENTED_CODE_TAGS, set()).add(line)
    return found


FIGURE_SHORTCODES = frozenset({"figure", "youtube", "vimeo", "video"})
"""Hugo shortcodes that make a block of their own: a figure, a video player."""


def _figure(state: StateBlock, line: int) -> bool:
    """Tell whether `line` starts a figure or video shortcode alone on its line or lines
    (`{{< figure⏎  src="x.gif"⏎>}}`): Hugo runs it before the Markdown, so between the tags
    of `<center>⏎{{< figure … >}}⏎</center>` its figure is inside the element. The block
    ends before it and the shortcode rule makes the figure (it was left out)."""
    if not state.src.startswith("{{", state.bMarks[line] + state.tShift[line]):
        return False
    tag = line_tag(state, line)
    if tag is None:
        found = spanning_tag(state, line, state.lineMax)
        tag = found[0] if found is not None else None
    return tag is not None and tag.kind == "shortcode" and tag.name in FIGURE_SHORTCODES


_INDENTED_TAG = re.compile(r"^[ \t]{4,}\{[%{]", re.M)
"""A line that starts with a Liquid tag or a Hugo shortcode indented four spaces or more."""


def _note_indented_code_tags(state: StateBlock, start: int, stop: int, end: int) -> None:
    """Note the indented code tags after line `stop` (where CommonMark ends the block begun
    at `start`) and before the end tag of the element the block opens, when it opens one it
    does not close by then: kramdown reads such an element to its end tag, blank lines and
    all (`<details>⏎<summary>Code</summary>⏎⏎    {% highlight python %}`), where Liquid has
    put the code's HTML. An unindented tag there is read by its rule anyway."""
    src = state.src
    element = ELEMENT.match(src, state.bMarks[start] + state.tShift[start])
    if element is None or stop >= end or element_end(src, element, state.bMarks[stop]) != -1:
        return
    for found in _INDENTED_TAG.finditer(src, state.bMarks[stop], state.eMarks[end - 1]):
        if element_end(src, element, found.start()) != -1:
            return  # the element ended before this tag
        line = bisect_right(state.bMarks, found.start(), stop, end) - 1
        _code_tag(state, line, end)


def html_code_tag(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: the code tag of an HTML block indented four spaces or more
    (`INDENTED_CODE_TAGS`), read by its tag rule as if it were not indented, where the
    `code` rule would otherwise make an indented code block of its lines."""
    if start not in state.env.get(INDENTED_CODE_TAGS, ()):
        return False
    indent = state.blkIndent
    state.blkIndent = state.sCount[start]
    try:
        rules = state.md.block.ruler.__rules__
        return any(
            rule.name in CODE_TAG_RULES and rule.enabled and rule.fn(state, start, end, silent)
            for rule in rules
        )
    finally:
        state.blkIndent = indent


def _math_closer(state: StateBlock, start: int, stop: int, end: int) -> int | None:
    """Return the line that closes a display formula opened in lines `start`…`stop` but not
    closed there, when it lies before `end`, inside the container, and before the end tag of
    the block's first element (`<div>…$$…</div>`: a `$$` after its `</div>` is another
    formula's, and a `<div>` never ended takes nothing); else None."""
    begin, limit = state.bMarks[start], state.eMarks[stop - 1]
    element = ELEMENT.match(state.src, begin + state.tShift[start])
    text = state.src[begin:limit]
    pos = 0
    while (opener := _DISPLAY.search(text, pos)) is not None:
        if escaped(text, opener.start()):
            pos = opener.start() + 1
            continue
        closer = _closer_of(opener)
        close = text.find(closer, opener.end())
        if close >= 0:
            pos = close + len(closer)
            continue
        if element is None or stop >= end or not _own_line_start(state.src, begin + opener.start()):
            return None  # `PID is $$.⏎⏎… echo $$`: a `$$` inside a sentence opens no display
        found = state.src.find(closer, limit, state.eMarks[end - 1])
        after = state.src[found + len(closer) : state.src.find("\n", found)]
        if found >= 0 and not END_TAGS.fullmatch(after):
            return None  # the closer ends its line (before end tags: `$$</p>`), as display math's
        ends_at = element_end(state.src, element, state.eMarks[end - 1])
        if found < 0 or ends_at < found or _TAG.search(state.src, limit, found):
            return None  # a formula lies in one run of text: MathJax never reads across a tag
        line = next(at for at in range(stop, end) if state.eMarks[at] >= found)
        if any(left_container(state, at) for at in range(stop, line + 1)):
            return None
        return line
    return None


START_TAGS = re.compile(r"(?:[ \t]*<[A-Za-z][\w:-]*(?:\s[^<>]*)?>)*[ \t]*")
r"""Start tags and spaces only: what may come before display math's opener on its line
(`<p>$$\begin{align*}`, as MathJax posts for kramdown write it)."""
END_TAGS = re.compile(r"(?:[ \t]*</[A-Za-z][\w:-]*[ \t]*>)*[ \t]*")
r"""End tags and spaces only: what may follow its closer (`\end{align*}$$</p>`)."""


def _own_line_start(src: str, pos: int) -> bool:
    """Tell whether only spaces, or start tags, come before `pos` on its line."""
    return START_TAGS.fullmatch(src, src.rfind("\n", 0, pos) + 1, pos) is not None


def _closer_of(opener: re.Match[str]) -> str:
    """Return what closes a display opener: `$$`, `\\]` or the environment's `\\end`."""
    if opener.group(0) == "$$":
        return "$$"
    if opener.group(0) == "\\[":
        return "\\]"
    return "\\end{" + opener.group(1) + "}"


def _push(state: StateBlock, start: int, stop: int) -> bool:
    """Push lines `start`…`stop` as one `html_block` token (as markdown-it's rule does)."""
    token = state.push("html_block", "", 0)
    token.map = [start, stop]
    token.content = state.getLines(start, stop, state.blkIndent, True)
    state.line = stop
    return True
