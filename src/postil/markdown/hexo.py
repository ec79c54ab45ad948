r"""Hexo's tag plugins and its themes' (NexT, Butterfly) in posts moved from Hexo.

Hexo writes its tags as Liquid's (`{% name args %}`); postil's Liquid plugin reports the ones
it does not know. Read here, from Hexo's documentation ("Tag Plugins") and the themes':

- `{% note [kind] … %}…{% endnote %}` (NexT, Butterfly) → a callout of that kind (`info`,
  `warning`, `danger`, `success`, `primary`, `default`; icon and style words are skipped);
- `{% fold [kind] Title %}`, `{% hideToggle Title %}` (NexT, Volantis, Butterfly) → a folded
  callout under that title;
- `{% tabs name %}` around `<!-- tab [Title] -->`…`<!-- endtab -->` (NexT, Butterfly) →
  postil's content tabs;
- `{% blockquote [author[, source]] [link] [link title] %}`, `{% pullquote %}`,
  `{% centerquote %}`/`{% cq %}` → a block quote, attributed;
- `{% codeblock [title] [lang:python] [mark:1,3-5] [first_line:5] [line_number:false] %}`
  (and `{% code %}`) → a code block with that caption, language and marked lines, its
  lines numbered (Hexo's default) from `first_line`;
- inside a line: `{% link text url %}` → a link; `{% post_link slug ['title'] [false] %}`
  (`false`: the title's HTML kept) and `{% post_path slug %}` → a link to the
  post whose file is `slug.md` (or `slug/index.md`); `{% asset_img [class] file [width]
  [height] [title [alt]] %}`, `{% asset_link file [title] %}`, `{% asset_path file %}` →
  the post's asset folder (Hexo's `post_asset_folder`: the folder named as the post's
  file, beside it, or the bundle's own folder), as raw HTML the raw HTML plugin checks.

A note, fold or quote may open and close on one line around its text (`{% cq %}A line.{% endcq %}`):
that text is its body. A paired tag whose end tag is missing stays with the Liquid plugin,
which reports it.
"""

from __future__ import annotations

import posixpath
import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock

from postil.markdown.liquid import Value
from postil.markdown.postfind import POSTS, find_source, missing_post, posts_name
from postil.markdown.shortcodecallout import push_callout, push_quote
from postil.markdown.state import RenderState
from postil.markdown.tabs import close_tabset, open_tab, open_tabset
from postil.markdown.tagsyntax import (
    Tag,
    code_block,
    find_closer,
    find_code_tag,
    line_tag,
    scan_tag,
    tokenize_lines,
)

NOTE_KINDS = {
    "default": "note",
    "primary": "note",
    "info": "note",
    "success": "tip",
    "warning": "warning",
    "danger": "caution",
}
"""NexT's and Butterfly's note classes -> postil's callout kinds."""

FOLDS = {"fold": "endfold", "hideToggle": "endhideToggle", "folding": "endfolding"}
QUOTES = {
    "blockquote": "endblockquote",
    "pullquote": "endpullquote",
    "centerquote": "endcenterquote",
    "cq": "endcq",
}
CODE = {"codeblock": "endcodeblock", "code": "endcode"}
PAIRED = {"note": "endnote", "tabs": "endtabs", **FOLDS, **QUOTES}
"""The paired tags read as blocks, by the name of the tag that closes each."""
INLINE = frozenset({"post_link", "post_path", "asset_img", "asset_link", "asset_path"})
"""Hexo's tags written inside a line (`evaluate_hexo`)."""


def is_hexo(tag: Tag) -> bool:
    """Tell whether a Liquid tag is one of Hexo's inline tags: `INLINE`, or Hexo's
    `{% link text url %}` (Jekyll's `{% link _posts/x.md %}` names a file, not a URL)."""
    return tag.name in INLINE or (tag.name == "link" and URL.search(tag.args) is not None)


URL = re.compile(r"https?://\S+")


def hexo_plugin(md: MarkdownIt) -> None:
    """Read Hexo's paired tags on lines of their own (callouts, folds, quotes, code).

    Syntax::

        {% note warning %}
        The step size must be **small**.
        {% endnote %}

    Output: a `callout-warning` aside holding the Markdown between the tags. CSS classes:
    the callout plugin's.
    """
    md.block.ruler.before(
        "liquid_block", "hexo_block", hexo_block, {"alt": ["paragraph", "reference", "blockquote"]}
    )


def hexo_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a Hexo paired tag alone on its line and its end tag on a later one."""
    begin = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("{%", begin):
        return False
    for name, end_name in CODE.items():
        code = find_code_tag(state, start, end, "tag", name, end_name)
        if code is not None and not (name == "code" and "=" in code.tag.args):  # GitBook's
            if not silent:
                code_block(state, start, code, _code_options(code.tag.args))
                state.line = code.close + 1
            return True
    tag = line_tag(state, start)
    if tag is None:
        return _one_line_pair(state, start, silent)
    if tag.kind != "tag" or tag.closing:
        return False
    closes = PAIRED.get(tag.name)
    close = find_closer(state, start, end, closes) if closes is not None else None
    if close is None:
        return False
    if tag.name == "tabs" and not any(
        TAB.fullmatch(_line(state, at)) for at in range(start, close)
    ):
        return False  # GitBook's `{% tabs %}` holds `{% tab %}` tags: `postil.markdown.gitbook`
    if silent:
        return True
    if tag.name == "tabs":
        _tabs(state, start, close)
    else:
        _push_paired(state, tag, (start, close))
    state.line = close + 1
    return True


def _one_line_pair(state: StateBlock, start: int, silent: bool) -> bool:
    """Read notes, folds or quotes opened and closed on one line around their text
    (`{% cq %}A line of verse.{% endcq %}`, `{% note info %}Read this.{% endnote %}`, two
    of them side by side), as Hexo reads a tag's body up to its end tag: each text is its
    body's Markdown. The line must hold nothing but such pairs."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start] + state.tShift[start]
    pairs = _pairs_on_line(state.src, begin, state.eMarks[start])
    if not pairs:
        return False
    if not silent:
        for tag, body in pairs:
            _push_paired(state, tag, (start, start), body)
        state.line = start + 1
    return True


def _pairs_on_line(src: str, begin: int, end: int) -> list[tuple[Tag, str]]:
    """Return (opening tag, body) of each paired tag of `src[begin:end]`, which must hold
    only such pairs and spaces between them, or []."""
    pairs: list[tuple[Tag, str]] = []
    at = begin
    while at < end:
        tag = scan_tag(src, at, end)
        if tag is None or tag.kind != "tag" or tag.closing or tag.name == "tabs":
            return []
        closes, pos = PAIRED.get(tag.name), src.find("{%", tag.end, end)
        closing = scan_tag(src, pos, end) if closes is not None and pos >= 0 else None
        while closing is not None and not (closing.closing and closing.name == closes):
            pos = src.find("{%", closing.end, end)  # a tag inside the body: the next one
            closing = scan_tag(src, pos, end) if pos >= 0 else None
        if closing is None:
            return []
        pairs.append((tag, src[tag.end : pos].strip()))
        at = closing.end
        while at < end and src[at] in " \t":
            at += 1
    return pairs


def _push_paired(
    state: StateBlock, tag: Tag, lines: tuple[int, int], body: str | None = None
) -> None:
    """Push a note, fold or quote around the Markdown between `lines` (its tags' lines), or
    around `body` when both tags share one line."""
    words = tag.args.split()
    meta: dict[str, str | None]
    if tag.name == "note":
        kind = next((NOTE_KINDS[w] for w in words if w in NOTE_KINDS), "note")
        meta = {"kind": kind, "title": "", "collapse": None}
        push_callout(state, lines, meta, tag.raw, body)
    elif tag.name in FOLDS:
        title = " ".join(w for w in words if w not in NOTE_KINDS).lstrip("@").strip("\"'")
        meta = {"kind": "note", "title": title or "Details", "collapse": "true"}
        push_callout(state, lines, meta, tag.raw, body)
    else:
        push_quote(state, lines, _attribution(tag.args), body)


TAB = re.compile(r"<!--\s*tab(?:\s+(?P<title>[^@>]*?))?(?:\s*@[\w-]+)?\s*-->\s*")
END_TAB = re.compile(r"<!--\s*endtab\s*-->\s*")


def _tabs(state: StateBlock, start: int, close: int) -> None:
    """Push NexT's and Butterfly's `{% tabs name %}`: a tab for each `<!-- tab [Title] -->`
    … `<!-- endtab -->` between the tags (an untitled tab is `Tab n`; `@icon` is left out)."""
    open_tabset(state, start, close)
    line, count = start + 1, 0
    while line < close:
        opening = TAB.fullmatch(_line(state, line))
        if opening is None:
            line += 1
            continue
        end = next(
            (at for at in range(line + 1, close) if END_TAB.fullmatch(_line(state, at))), close
        )
        count += 1
        open_tab(state, line, end, (opening["title"] or "").strip() or f"Tab {count}")
        tokenize_lines(state, line + 1, end)
        state.push("tab_close", "div", -1).markup = "tab"
        line = end + 1
    close_tabset(state, close)


def _line(state: StateBlock, line: int) -> str:
    """Return the text of `line` without its indentation."""
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


def _code_options(args: str) -> dict[str, str]:
    """Return `{% codeblock %}`'s options as a highlight tag's (`tagsyntax.code_info`)."""
    options: dict[str, str] = {"": "", "linenos": ""}  # Hexo numbers lines by default
    title: list[str] = []
    for word in args.split():
        key, colon, value = word.partition(":")
        if colon and key == "lang":
            options[""] = value
        elif colon and key == "mark":
            options["hl_lines"] = value
        elif colon and key == "first_line":
            options["linenostart"] = value
        elif colon and key == "line_number":
            if value == "false":
                del options["linenos"]
        elif colon and key in ("highlight", "wrap"):
            continue
        elif not URL.fullmatch(word):
            title.append(word)
    if title:
        options["title"] = " ".join(title)
    return options


def _attribution(args: str) -> dict[str, str]:
    """Return a Hexo quote's `author`, `source` and `url`: `Author, Source https://… [title]`."""
    link = URL.search(args)
    text = args[: link.start()] if link else args
    author, _, source = text.partition(",")
    return {"author": author.strip(), "source": source.strip(), "url": link.group() if link else ""}


def evaluate_hexo(tag: Tag, doc: RenderState, in_url: bool = False, in_html: bool = False) -> Value:
    """Return what one of Hexo's inline tags (`INLINE`) gives: HTML (`Value.markup`) for a
    link or an image, text for a path; a warning when the post or file is not there.

    Links are written from the site's root (`/posts/x/`): the raw HTML plugin puts them
    under the base path and checks them, as it does every link of raw HTML; in a link
    destination (`in_url`) `post_path` gives the post's source for the links plugin, and
    in raw HTML (`in_html`: `<a href="{% post_path x %}">`, Hexo's own example) its path
    from the site's root, which that plugin bases once."""
    words = _words(tag.args)
    if tag.name == "link":
        return _link(words)
    if not words:
        return Value(None, f"`{tag.raw}` names nothing; write the post's or file's name")
    if tag.name in ("post_link", "post_path"):
        slug = words[0]
        rel = find_source(doc.links, [POSTS + slug.strip("/")])
        if rel is not None:
            url = doc.links[rel]
            if tag.name == "post_path":
                if in_url:
                    return Value("/" + rel.removeprefix("content/"), source=rel)
                return Value(("/" if in_html else doc.base_path) + url)
            href = "/" + url
            flag = words[-1] if len(words) > 2 and words[-1] in ("true", "false") else None
            title = " ".join(words[1 : -1 if flag else None]) or slug
            label = title if flag == "false" else escapeHtml(title)  # `[title] [escape]`
            return Value(f'<a href="{escapeHtml(href)}">{label}</a>', markup=True)
        fix = "fix the name or link to the post's file: `[text](other.md)`"
        looked = [POSTS + slug.strip("/")]
        return Value(None, missing_post(tag.raw, slug, looked, doc.links, posts_name, fix))
    first_file = next((i for i, word in enumerate(words) if "." in word), 0)
    classes = words[:first_file] if tag.name == "asset_img" else []  # `[class names] file`
    rest = words[len(classes) :]
    path = _asset(doc.path, rest[0])
    if tag.name == "asset_path":
        return Value(path)
    if tag.name == "asset_link":
        title = " ".join(rest[1:]) or rest[0]
        return Value(f'<a href="{escapeHtml(path)}">{escapeHtml(title)}</a>', markup=True)
    sizes = [w for w in rest[1:3] if w.isdigit()]
    text = rest[1 + len(sizes) :]
    if QUOTED.search(tag.args):  # `"title" "alt"`, or one quoted text for both
        title = text[0] if text else ""
        alt = text[1] if len(text) > 1 else title
    else:  # `plot.png This is an image`: the words are the title and the alt text
        title = alt = " ".join(text)
    attrs = [f'src="{escapeHtml(path)}"', f'alt="{escapeHtml(alt)}"']
    if title:
        attrs.append(f'title="{escapeHtml(title)}"')
    attrs += [f'{n}="{v}"' for n, v in zip(("width", "height"), sizes, strict=False)]
    if classes:
        attrs.append(f'class="{escapeHtml(" ".join(classes))}"')
    return Value(f"<img {' '.join(attrs)}>", markup=True)


def _link(words: list[str]) -> Value:
    """Return Hexo's `{% link text url [external] [title] %}` as a link (`is_hexo` saw the URL)."""
    target = next(word for word in words if URL.fullmatch(word))
    label = " ".join(words[: words.index(target)]) or target
    return Value(f'<a href="{escapeHtml(target)}">{escapeHtml(label)}</a>', markup=True)


QUOTED = re.compile(r"(?:^|\s)[\"']")
"""A tag argument in quotes (a quote opening a word; `It's` is no quote)."""


def _words(args: str) -> list[str]:
    """Split a tag's arguments at spaces, a quoted run being one word (`"A title" "alt"`, or
    in single quotes, as Hexo's "Tag Plugins" page writes them: `'Link to a post'`)."""
    found = re.findall(r'"([^"]*)"|\'([^\']*)\'|(\S+)', args)
    return [double or single or plain for double, single, plain in found]


def _asset(source: str, name: str) -> str:
    """Return the path of asset `name` relative to the post's source: its bundle's folder
    (`posts/x/index.md`) or the folder named as its file (`posts/x.md` -> `x/`)."""
    stem = posixpath.splitext(posixpath.basename(source))[0]
    return name if stem == "index" else f"{stem}/{name}"
