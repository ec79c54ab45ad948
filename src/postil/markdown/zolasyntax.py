"""Zola shortcodes: the names themes give them, their arguments, and the warnings about them.

`postil.markdown.zola` (math in text, evaluation inside lines) and
`postil.markdown.zolablock` (shortcodes on lines of their own) read Zola's calls
(`tagsyntax.scan_tag`'s "zola" tags) with these.
"""

from __future__ import annotations

import re

from postil.markdown.tagsyntax import ZOLA_CALL, Tag

MATH = frozenset({"katex", "math", "mathjax", "latex", "tex", "m"})
"""Math shortcodes of Zola themes (even's and after-dark's `katex`, others' `math`, `m`)."""

INLINE_MATH = frozenset({"m"})
"""Math shortcodes whose body is inline math (`{% m() %}\\mathcal{L}{% end %}`)."""

TEX_ARGS = ("body", "tex", "latex", "formula", "expr")
"""The arguments that give a bodiless math shortcode its TeX."""

CALLOUTS = frozenset(
    {"note", "notice", "alert", "admonition", "callout", "hint", "info", "tip", "warning"}
    | {"warn", "important", "caution", "danger", "error", "success"}
)
"""Callout shortcodes of Zola themes: tabi's and Abridge's `admonition(type=, title=)`,
Duckquill's `alert(note=true)`, `note(header=)` themes, and shortcodes named after a kind."""

FOLDS = frozenset({"details", "spoiler", "collapse", "toggle", "expand"})
"""Shortcodes that fold their body under a title (`details(summary="…", open=true)`)."""

QUOTES = frozenset({"quote", "blockquote"})
"""Quote shortcodes (Zola's documentation's own example: `quote(author="Vincent")`)."""

VIDEOS = frozenset({"youtube", "vimeo"})
"""Zola's built-in video players (`id=`), players here too (`postil.markdown.embed`)."""

LINKED = {"streamable": "https://streamable.com/{id}", "gist": "{url}"}
"""Zola's built-in embeds postil has no player for: a link to the video or gist."""

FIGURES = frozenset({"figure", "fig", "image", "img", "picture", "resize_image"})
"""Image shortcodes of Zola themes (`figure(src=, caption=, alt=)`, `image(path=)`)."""

DIAGRAMS = frozenset({"mermaid"})
"""Diagram shortcodes whose body becomes a fence of their name (tabi's `mermaid()`)."""

_VALUE = re.compile(r"\"[^\"]*\"|'[^']*'|`[^`]*`|true\b|false\b|[+-]?\d+(?:\.\d+)?")
_SEPARATOR = re.compile(r"\s*(?:,|\Z)")
_KEY = re.compile(r"\s*([0-9A-Za-z_]+)\s*=\s*")
END = re.compile(r"\{%\s*end\s*%\}")
"""Zola's end of a body shortcode."""


def call_args(tag: Tag) -> dict[str, str] | None:
    """Return a Zola call's arguments by name (strings unquoted, an array's items joined by
    ", "), or None when they cannot be read as Zola reads them (Zola's "Shortcodes")."""
    found = ZOLA_CALL.fullmatch(tag.inner)
    return zola_args(found.group("args")) if found else ({} if tag.closing else None)


def zola_args(text: str) -> dict[str, str] | None:
    """Return `k="v", n=1, ok=true, xs=["a", "b"]` as {"k": "v", "n": "1", …}, else None.

    Zola's grammar ("Shortcodes"): named arguments between commas; a value is a string in
    `"`, `'` or `` ` `` (its text as written: no escapes), a number, `true`/`false`, or an
    array of those. A comma after the last argument is accepted. Never raises.
    """
    args: dict[str, str] = {}
    at, text = 0, text.strip()
    while at < len(text):
        key = _KEY.match(text, at)
        if key is None:
            return None
        value, at = _value(text, key.end())
        if value is None:
            return None
        args[key.group(1)] = value
        separator = _SEPARATOR.match(text, at)
        if separator is None:
            return None
        at = separator.end()
    return args


def _value(text: str, at: int) -> tuple[str | None, int]:
    """Read one value (or an array of them) at `at`; return it as text and where it ends."""
    if text.startswith("[", at):
        items: list[str] = []
        at += 1
        while True:
            at = len(text) - len(text[at:].lstrip())
            if text.startswith("]", at):
                return ", ".join(items), at + 1
            item = _VALUE.match(text, at)
            if item is None:
                return None, at
            items.append(_unquoted(item.group(0)))
            at = len(text) - len(text[item.end() :].lstrip())
            at += 1 if text.startswith(",", at) else 0
    found = _VALUE.match(text, at)
    return (_unquoted(found.group(0)), found.end()) if found else (None, at)


def _unquoted(value: str) -> str:
    return value[1:-1] if value[:1] in "\"'`" else value


def tex_arg(args: dict[str, str]) -> str | None:
    """Return the name of the argument giving a bodiless math shortcode its TeX, if any."""
    return next((name for name in TEX_ARGS if name in args), None)


def arg_start(src: str, tag: Tag, name: str) -> int:
    """Return where the value of argument `name` of `tag` (found in `src`) starts, just
    inside its quote (the tag's end when it is not there)."""
    found = re.compile(rf"[(,\s]{name}\s*=\s*[\"'`]").search(src, tag.start, tag.end)
    return found.end() if found else tag.end


def truthy(args: dict[str, str], *names: str) -> bool | None:
    """Return the first of `names` given as `true` or `false` in `args`, else None."""
    for name in names:
        if name in args:
            return args[name] == "true"
    return None


def unreadable(tag: Tag) -> str:
    """Return the warning for a Zola call whose arguments Zola would not read either."""
    return (
        f"Zola shortcode `{tag.raw}`: its arguments cannot be read, so it is left out; write "
        'them as Zola does, `name=value` pairs between commas (`title="A", open=true`)'
    )


def unsupported(tag: Tag) -> str:
    """Return the warning for a Zola shortcode of the site's theme that postil does not have."""
    body = " (its body stays, as Markdown)" if tag.raw.startswith("{%") else ""
    return (
        f"Zola shortcode `{tag.raw}` is the theme's (templates/shortcodes/{tag.name}.html), "
        f"which postil does not have, and is left out{body}; write its result as Markdown "
        "or HTML"
    )
