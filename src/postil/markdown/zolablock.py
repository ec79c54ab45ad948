"""Zola shortcodes on lines of their own: display math, callouts, quotes, players, figures.

`postil.markdown.zola` registers `zola_block`; the names it reads are in
`postil.markdown.zolasyntax`. A body shortcode's tags stand on lines of their own
(`{% note() %}` … `{% end %}`), or share one line with its body; a bodiless one
(`{{ youtube(id="…") }}`) stands alone on its line, or on lines of its own when its
arguments run over several (`_spanning_call`).
"""

from __future__ import annotations

from markdown_it.rules_block import StateBlock

from postil.markdown.callout import ALIASES, KINDS
from postil.markdown.embed import push_video
from postil.markdown.figure import push_figure
from postil.markdown.shortcodecallout import push_callout, push_quote
from postil.markdown.state import get_state
from postil.markdown.tagsyntax import (
    ZOLA_CALL,
    Tag,
    left_container,
    line_tag,
    scan_tag,
    tokenize_lines,
)
from postil.markdown.zolasyntax import (
    CALLOUTS,
    DIAGRAMS,
    FIGURES,
    FOLDS,
    INLINE_MATH,
    LINKED,
    MATH,
    QUOTES,
    VIDEOS,
    arg_start,
    call_args,
    tex_arg,
    truthy,
    unreadable,
    unsupported,
)

CALLOUT_NAMES = frozenset(KINDS) | frozenset(ALIASES)
"""Callout kinds a shortcode's name or flag may give (`warning()`, `alert(tip=true)`)."""


def zola_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a Zola shortcode alone on line `start`, a body shortcode and its
    `{% end %}` line, or a callout, fold or formula written on one line with its body."""
    tag = line_tag(state, start)
    if tag is None:
        spanning = _spanning_call(state, start, end)
        if spanning is not None:
            tag, last = spanning
            args = call_args(tag)
            if args is None or not _bodiless(state, start, silent, tag, args):
                return False
            state.line = last + 1
            return True
        return _spanning_body(state, (start, end), silent)
    if tag.kind != "zola":
        return False
    args = call_args(tag)
    if tag.closing:  # a stray `{% end %}`: never ends a paragraph (`{% m() %}` may be in it)
        if silent:
            return False
        message = f"`{tag.raw}` closes no Zola shortcode opened before it; remove it"
        get_state(state.env).warn(start, 1, message)
        state.line = start + 1
        return True
    if tag.raw.startswith("{%"):
        return _body_shortcode(state, (start, end), silent, tag, args)
    if args is None:
        if not silent:
            get_state(state.env).warn(start, 1, unreadable(tag))
            state.line = start + 1
        return True
    return _bodiless(state, start, silent, tag, args)


SPANNING_LINES = 40
"""The most lines a shortcode call spanning lines is looked for in."""


def _spanning_call(state: StateBlock, start: int, end: int) -> tuple[Tag, int] | None:
    """Return a bodiless `{{ name(…) }}` that opens line `start` and closes alone at the end
    of a later line, with that line, or None.

    Zola reads shortcodes before the Markdown (its "Shortcodes" docs), so a string argument
    may run over lines, blank ones too (`{{ note(body="First.⏎⏎Then `brew`.") }}`), and so
    may the space between arguments (its grammar's whitespace holds newlines). Taken outside
    lists and quotes, whose markers a string's later lines would keep (as `_spanning_body`).
    """
    begin = state.bMarks[start] + state.tShift[start]
    if state.sCount[start] - state.blkIndent >= 4 or state.blkIndent:
        return None
    if state.parentType == "blockquote" or not state.src.startswith("{{", begin):
        return None
    if state.src.startswith(("{{<", "{{%"), begin):
        return None
    src, quote, at = state.src, "", begin + 2
    stop = state.eMarks[min(end, start + SPANNING_LINES) - 1]
    while at < stop:
        char = src[at]
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'`":
            quote = char
        elif src.startswith("{{", at):
            return None  # another tag opens before this one closes: no call
        elif src.startswith("}}", at):
            break
        at += 1
    else:
        return None
    close = at + 2
    last = next((line for line in range(start, end) if close <= state.eMarks[line]), None)
    if last is None or last == start or src[close : state.eMarks[last]].strip():
        return None  # one line: `line_tag`'s; or text after the call
    inner = src[begin + 2 : at].strip()
    found = ZOLA_CALL.fullmatch(inner)
    if found is None:
        return None
    return Tag("zola", src[begin:close], inner, found.group("name"), False, begin, close), last


def _display(tag: Tag, args: dict[str, str], own_lines: bool) -> bool:
    """Tell whether a math shortcode is display math: `block=`/`display=` say; else `m` is
    inline and a body on lines of its own display (how math blogs' themes typeset it)."""
    given = truthy(args, "block", "display")
    return given if given is not None else own_lines and tag.name not in INLINE_MATH


def _body_shortcode(
    state: StateBlock, lines: tuple[int, int], silent: bool, tag: Tag, read: dict[str, str] | None
) -> bool:
    """Read `{% name(…) %}` alone on its line, its body, and its `{% end %}` line (a body
    shortcode whose arguments cannot be read (`read` None) keeps its body, reported)."""
    start, end = lines
    found = _find_end(state, start, end, tag)
    if found is not None and line_tag(state, found[0]) is None:  # `…text{% end %}`
        return _spanning_body(state, lines, silent)
    close = found[0] if found is not None else None
    name, args = (tag.name, read) if read is not None else ("", {})
    if name in MATH and (close is None or not _display(tag, args, True)):
        return False  # inline math in a paragraph: `zola.zola_math` reads it
    if silent:
        return True
    doc = get_state(state.env)
    state.line = start + 1
    if close is None:
        doc.warn(start, 1, f"`{tag.raw}` is never closed; add `{{% end %}}` where its body ends")
        return True
    if name in MATH:
        _math_block(state, (start, close), tag)
    elif name in CALLOUTS | FOLDS:
        push_callout(state, (start, close), callout_meta(name, args), tag.raw)
    elif name in QUOTES:
        push_quote(state, (start, close), {"source": args.get("cite", ""), **args})
    elif name in DIAGRAMS:
        fence = state.push("fence", "code", 0)
        fence.info, fence.map, fence.markup = tag.name, [start, close + 1], tag.raw
        fence.content = "".join(state.getLines(start + 1, close, state.blkIndent, False))
    else:
        doc.warn(start, 1, unsupported(tag) if read is not None else unreadable(tag))
        tokenize_lines(state, start + 1, close)
    state.line = close + 1
    return True


def _math_block(state: StateBlock, lines: tuple[int, int], tag: Tag) -> None:
    """Push the TeX between a math shortcode's lines as display math (raw: Zola hands the
    body to the theme's template before any Markdown is read)."""
    start, close = lines
    source = "\n" + "".join(state.getLines(start + 1, close, state.blkIndent, False))
    source = source.removesuffix("\n") if close > start + 1 else source
    closer = state.src[state.bMarks[close] + state.tShift[close] : state.eMarks[close]].strip()
    token = state.push("math_block", "math", 0)
    token.content, token.map = source, [start, close + 1]
    col0 = state.eMarks[start] - state.bMarks[start]
    token.meta = {"col0": col0, "delims": (tag.raw, closer), "removed": (), "source": source}


PLAIN_STYLES = dict.fromkeys(("default", "primary", "secondary", "light", "dark"), "note")
"""Themes' style names for a plain note (`note(type="default")`, Bootstrap's colour names
that NexT's notes share, `postil.markdown.hexo.NOTE_KINDS`); `success`, `danger`, `info`
are already callout aliases (`postil.markdown.callout.ALIASES`)."""


def callout_meta(name: str, args: dict[str, str]) -> dict[str, str | None]:
    """Return the callout (`shortcodecallout.callout_meta`'s dict) of a Zola callout or fold.

    The kind is `type=`, `kind=`, `style=`, `level=` or `color=`; else a kind given as a flag
    (Duckquill's `alert(tip=true)`); else the shortcode's name when it is a kind (`warning()`);
    else a note. The title is `title=` or `header=`; a fold's also `summary=`; `open=true`
    shows a fold open.
    """
    title = args.get("title") or args.get("header") or args.get("heading") or ""
    if name in FOLDS:
        title = title or args.get("summary") or args.get("question") or "Details"
        opened = truthy(args, "open") is True
        return {"kind": "note", "title": title, "collapse": "+" if opened else "true"}
    keys = ("type", "kind", "style", "level", "color")
    kind = next((args[key] for key in keys if args.get(key)), "")
    kind = PLAIN_STYLES.get(kind.lower(), kind)
    flags = [key for key, value in args.items() if value == "true" and key in CALLOUT_NAMES]
    kind = kind or (flags[0] if flags else name if name in CALLOUT_NAMES else "note")
    return {"kind": kind, "title": title, "collapse": None}


def _bodiless(state: StateBlock, start: int, silent: bool, tag: Tag, args: dict[str, str]) -> bool:
    """Read `{{ name(…) }}` alone on its line."""
    tex = tex_arg(args)
    if tag.name in MATH and (tex is None or not _display(tag, args, False)):
        return False  # inline math, or nothing to show: `zola.zola_math` or the template's
    if silent:
        return True
    doc = get_state(state.env)
    body = args.get("body", args.get("text", args.get("content")))
    if tag.name in MATH and tex is not None:
        _display_math(state, start, tag, tex, args[tex])
    elif tag.name in VIDEOS:
        push_video(state, start, tag, args.get("id", ""), args)
    elif tag.name in LINKED:
        _link(state, start, tag, args)
    elif tag.name in FIGURES:
        _figure(state, start, tag, args)
    elif tag.name in CALLOUTS | FOLDS:
        meta = callout_meta(tag.name, args)
        push_callout(state, (start, start), meta, tag.raw, body or "")
    else:
        doc.warn(start, 1, unsupported(tag))
    state.line = start + 1
    return True


def _display_math(state: StateBlock, start: int, tag: Tag, name: str, tex: str) -> None:
    """Push `{{ katex(body="…", block=true) }}`'s TeX (argument `name`) as display math."""
    first = arg_start(state.src, tag, name)
    token = state.push("math_block", "math", 0)
    token.content, token.map = tex, [start, start + 1]
    delims = (state.src[tag.start : first], state.src[first + len(tex) : tag.end])
    col0 = first - state.bMarks[start]
    token.meta = {"col0": col0, "delims": delims, "removed": (), "source": tex}


def _link(state: StateBlock, start: int, tag: Tag, args: dict[str, str]) -> None:
    """Push a link for Zola's `streamable` or `gist`, which postil has no player for."""
    doc = get_state(state.env)
    url = LINKED[tag.name].format(id=args.get("id", ""), url=args.get("url", ""))
    if not url.startswith("https://") or url.endswith("/"):
        key = "url" if tag.name == "gist" else "id"
        doc.warn(start, 1, f"`{tag.raw}` has no `{key}`; add it (it is left out)")
        return
    if args.get("file"):  # GitHub's anchor of one file of a gist
        url += "#file-" + args["file"].replace(".", "-").lower()
    _paragraph(state, start, f"<{url}>")
    doc.warn(start, 1, f"`{tag.raw}` is shown as a link: postil embeds YouTube and Vimeo only")


def _figure(state: StateBlock, start: int, tag: Tag, args: dict[str, str]) -> None:
    """Push a numbered figure for a captioned image shortcode, else the image."""
    src = next((args[key] for key in ("src", "path", "url", "image", "file") if key in args), "")
    if not src:
        get_state(state.env).warn(start, 1, f"`{tag.raw}` has no `src`; add the image's path")
        return
    caption, alt = args.get("caption", ""), args.get("alt")
    if caption:
        sizes = {key: args[key] for key in ("width", "height") if args.get(key)}
        push_figure(state, start, src, caption, alt=alt, attrs=sizes)
        return
    text = (alt or args.get("title", "")).replace("]", "\\]").replace("[", "\\[")
    _paragraph(state, start, f"![{text}](<{src}>)")


def _paragraph(state: StateBlock, line: int, markdown: str) -> None:
    """Push a paragraph of inline Markdown on body line `line`."""
    state.push("paragraph_open", "p", 1).map = [line, line + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = markdown, [line, line + 1], []
    state.push("paragraph_close", "p", -1)


def _find_end(state: StateBlock, start: int, end: int, tag: Tag) -> tuple[int, int, int] | None:
    """Return (line, start, end offset) of the `{% end %}` closing `tag` (on line `start`),
    counting the body shortcodes inside (Zola 0.20 nests them), or None before the block
    ends (a list item or quote, the document)."""
    depth, line, at = 1, start, tag.end
    while line < end:
        if line > start and left_container(state, line):
            return None
        stop = state.eMarks[line]
        at = state.src.find("{%", at, stop)
        while at >= 0:
            inner = scan_tag(state.src, at, stop)
            if inner is not None and inner.kind == "zola":
                depth += -1 if inner.closing else 1
                if depth == 0:
                    return line, inner.start, inner.end
            at = state.src.find("{%", inner.end if inner else at + 2, stop)
        line += 1
        at = state.bMarks[line] if line < end else 0
    return None


def _spanning_body(state: StateBlock, lines: tuple[int, int], silent: bool) -> bool:
    """Read a callout, fold or display formula whose body shares a line with its tags:
    `{% note() %} Read **this**. {% end %}`, `{% alert(type="tip") %}Text…⏎…{% end %}`
    (over several lines only outside lists and quotes, whose markers the text would keep)."""
    start, end = lines
    begin, first_end = state.bMarks[start] + state.tShift[start], state.eMarks[start]
    if state.sCount[start] - state.blkIndent >= 4 or not state.src.startswith("{%", begin):
        return False
    tag = scan_tag(state.src, begin, first_end)
    args = call_args(tag) if tag is not None and tag.kind == "zola" else None
    if tag is None or tag.closing or args is None:
        return False
    if tag.name not in CALLOUTS | FOLDS and not (tag.name in MATH and _display(tag, args, False)):
        return False
    found = _find_end(state, start, end, tag)
    if found is None or state.src[found[2] : state.eMarks[found[0]]].strip():
        return False
    close, at, stop = found
    if close > start and (state.blkIndent or state.parentType == "blockquote"):
        return False
    if silent:
        return True
    body = state.src[tag.end : at]
    if tag.name in MATH:
        token = state.push("math_block", "math", 0)
        token.content, token.map = body, [start, close + 1]
        col0 = tag.end - state.bMarks[start]
        delims = (tag.raw, state.src[at:stop])
        token.meta = {"col0": col0, "delims": delims, "removed": (), "source": body}
    else:
        push_callout(state, (start, close), callout_meta(tag.name, args), tag.raw, body.strip())
    state.line = close + 1
    return True
