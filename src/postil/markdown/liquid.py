"""Liquid in Jekyll posts: the tags postil can honour, and a warning for the rest.

Jekyll runs Liquid over a post before kramdown sees it; postil has no template language in
posts, so a post moved from Jekyll keeps its tags. This module gives them meaning:

- Octopress' and Pelican liquid_tags' `{% img [class] /src [width [height]] [title] %}`
  is an image, inside text or on a line of its own (`liquid_img`);
- block tags on their own lines (`liquid_plugin`): `{% highlight %}` becomes a code
  block, `{% raw %}` shows what it wraps as written, `{% comment %}` hides it,
  `{% youtube ID %}`/`{% vimeo ID %}` (jekyll-youtube, Hexo) are video players
  (`postil.markdown.embed`), and themes' figure and video includes are read
  (`postil.markdown.liquidinclude`), also written over several lines
  (`tagsyntax.spanning_tag`: Chirpy's `{% include embed/video.html⏎  src='…' %}`),
  jekyll-katex's `{% katexmm %}` goes (its `$…$` is postil's math) and its
  `{% katex %}` is math (`postil.markdown.math`);
- tags and outputs inside text, link destinations and raw HTML (`evaluate_liquid`, used by
  the `template` plugin): `{{ site.baseurl }}`, `{{ site.url }}`, `{{ "/x" | relative_url }}`,
  `{% post_url 2020-01-01-slug %}` and `{% link _posts/x.md %}` resolve; any other tag or
  variable is left out with a warning naming it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from postil.markdown.attrlist import clean_attributes
from postil.markdown.embed import post_url_parts, push_post, push_video
from postil.markdown.liquidinclude import (
    CAPTURED,
    include_html,
    math_loader,
    push_include,
    readable,
)
from postil.markdown.postfind import POSTS, find_source, missing_post, posts_name
from postil.markdown.state import KATEX_MIXED, RenderState, get_state
from postil.markdown.tagsyntax import (
    CODE_TAG_KINDS,
    Tag,
    code_block,
    find_closer,
    find_code_tag,
    line_tag,
    scan_tag,
    shortcode_params,
    spanning_tag,
    unclosed_code,
    wrap_block,
)
from postil.markdown.tufte import USAGE as TUFTE_USAGE
from postil.markdown.tufte import arguments_problem

BLOCK_TAGS = ("raw", "comment")
VIDEOS = frozenset({"youtube", "vimeo"})
"""Tags of Jekyll's plugins and Hexo's that embed a video player (`postil.markdown.embed`)."""
"""Paired tags read as blocks when each of their tags stands on a line of its own (a
`highlight`'s code may also begin and end on its tags' lines: `find_code_tag`)."""

VUE_FRONT_MATTER = "$frontmatter."
"""VitePress' (and VuePress') front matter in a Vue expression: `{{ $frontmatter.title }}`
is the page's `title:` (VitePress "Using Vue in Markdown", Runtime API `$frontmatter`)."""

_STRING = re.compile(r"""\s*("[^"]*"|'[^']*')\s*""")


@dataclass(frozen=True)
class Value:
    """What a template tag evaluates to.

    Attributes:
        text: the text it outputs; None when it outputs nothing postil can give.
        problem: a warning to report at the tag ("" when there is none).
        source: for a link to another post, that post's source (`content/posts/x.md`).
        markup: `text` is HTML to write as it is (Quarto's `kbd`), not text to escape.
    """

    text: str | None
    problem: str = ""
    source: str = ""
    markup: bool = False


def liquid_plugin(md: MarkdownIt) -> None:
    """Read Liquid's block tags `highlight`, `raw` and `comment` written on lines of their own.

    Syntax::

        {% highlight python linenos %}
        def f(x): return x
        {% endhighlight %}

        {% raw %}
        Shown as written: {{ not evaluated }}
        {% endraw %}

        {% highlight python %}def f(x):
            return x{% endhighlight %}

    The code becomes a code block (as a ```` ``` ```` fence with `linenos` and `hl_lines`;
    Jekyll's `mark_lines` is `hl_lines`); it may begin on the opening tag's line and end
    on the closing tag's, as in Jekyll (`tagsyntax.find_code_tag`); jekyll-mermaid's
    `{% mermaid %}` … `{% endmermaid %}` is a Mermaid diagram, read the same way
    (`postil.markdown.diagram`); `raw` wraps Markdown
    that is rendered with its template tags shown as written; `comment` hides its lines.
    A tag whose end tag is missing is read inline (and reported) by the `template` plugin.
    No CSS classes.
    """
    md.block.ruler.before(
        "fence", "liquid_block", liquid_block, {"alt": ["paragraph", "reference", "blockquote"]}
    )
    md.inline.ruler.before("escape", "liquid_img", liquid_img)
    md.add_render_rule("liquid_raw_open", lambda *args: "")
    md.add_render_rule("liquid_raw_close", lambda *args: "")


IMG = re.compile(
    r"(?P<classes>(?:[^\s/]+\s+)*?)(?P<src>(?:https?://|/)\S+|\S+/\S+)"
    r"(?:\s+(?P<width>\d+(?:px|%)?)(?=\s|$))?(?:\s+(?P<height>\d+(?:px|%)?)(?=\s|$))?"
    r"(?:\s+(?P<title>.+))?",
    re.S,
)
"""The arguments of `{% img %}` (Octopress' `image_tag.rb`, kept by Pelican's liquid_tags):
classes (words without `/`), the source (a URL, or a path with a `/`), width, height, and
the rest: `"title" "alt"` or one text that is both. A width or height may end in `px` or
`%` (`{% img /a.png 100% %}`): Octopress reads only digits there and would title such an
image "100%", which no author means; a percentage is set as CSS, as `{width=100%}` is
(`attrlist.clean_attributes`)."""

_TITLE_ALT = re.compile(r"""["']([^"']*)["']\s+["']([^"']*)["']\s*""")


def liquid_img(state: StateInline, silent: bool) -> bool:
    """Inline rule: `{% img %}` as an image (its source goes through the links plugin)."""
    if not state.src.startswith("{%", state.pos):
        return False
    tag = scan_tag(state.src, state.pos, state.posMax)
    found = IMG.fullmatch(tag.args.strip()) if tag and tag.name == "img" else None
    if tag is None or found is None:
        return False
    if not silent:
        title = (found.group("title") or "").strip()
        pair = _TITLE_ALT.fullmatch(title)
        title, alt = pair.groups() if pair else (title.strip("\"'"), title.strip("\"'"))
        image = state.push("image", "img", 0)
        image.attrs = {"src": found.group("src"), "alt": ""}
        sizes = {name: found.group(name) for name in ("width", "height") if found.group(name)}
        image.attrs.update(clean_attributes(sizes).kept)
        if title:
            image.attrs["title"] = title
        if found.group("classes").strip():
            image.attrs["class"] = " ".join(found.group("classes").split())
        image.children = [Token("text", "", 0, content=alt)]
        image.content = alt
    state.pos = tag.end
    return True


LINE_GROUP = re.compile(r"\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*")
"""Eleventy's line numbers of a `highlight` tag: `1,3-5` (its syntax highlight plugin)."""


def highlight_options(args: str) -> dict[str, str]:
    """Return a `{% highlight %}` tag's options: "" the language, flags, `key=value` pairs.

    Jekyll writes `python linenos hl_lines="2 3"`; Eleventy's plugin `js 1,3-5` (lines to
    highlight) and `js 1,3 5-8` (lines added, then removed: both are highlighted here, as
    postil marks lines one way), in Nunjucks quoted whole: `"js 1,3-5"`; `0` marks none.
    """
    args = args.strip()
    if len(args) >= 2 and args[0] in "\"'" and args[-1] == args[0]:
        args = args[1:-1].strip()
    language, _, rest = args.partition(" ")
    positional, named = shortcode_params(rest)
    groups = [word for word in positional if LINE_GROUP.fullmatch(word)]
    flags = [word for word in positional if word not in groups]
    options = {"": language, **dict.fromkeys(flags, ""), **named}
    marked = [group for group in groups[:2] if group != "0"]
    if marked and "hl_lines" not in options:
        options["hl_lines"] = ",".join(marked)
    return options


SILENT_TAGS = frozenset({"katexmm", "endkatexmm", "bibliography"})
"""Tags on lines of their own that are left out without a word: jekyll-katex's `katexmm`
lines (they only mark `$…$` math, which postil reads anyway) and jekyll-scholar's
`bibliography` (postil lists the references a post cites at its end:
`postil.markdown.scholar`)."""


def _capture(state: StateBlock, start: int, end: int, tag: Tag, silent: bool) -> bool:
    """`{% capture name %}` on a line of its own, up to the line `{% endcapture %}` ends:
    the text between is the variable `name` for the includes after it (al-folio posts
    write a figure's caption so, `caption=name`); it shows nothing, as in Liquid."""
    name = tag.args.strip()
    for line in range(start, end):
        text = state.src[state.bMarks[line] : state.eMarks[line]]
        close = ENDCAPTURE.search(text)
        if close is None:
            continue
        if not silent and re.fullmatch(r"[A-Za-z_][\w-]*", name):
            body = state.src[tag.end : state.bMarks[line] + close.start()]
            state.env.setdefault(CAPTURED, {})[name] = body.strip()
        if not silent:
            state.line = line + 1
        return True
    return False  # never closed: the template plugin reports the tag


ENDCAPTURE = re.compile(r"\{%-?\s*endcapture\s*-?%\}\s*$")
"""The end of a `capture` block, ending its line."""


def liquid_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """Block rule: a `highlight`, `raw` or `comment` tag and its end tag, each on its own
    line; `SILENT_TAGS` lines are left out."""
    code = find_code_tag(state, start, end, "tag", "highlight", "endhighlight")
    if code is not None:
        if not silent:
            code_block(state, start, code, highlight_options(code.tag.args))
            state.line = code.close + 1
        return True
    diagram = find_code_tag(state, start, end, "tag", "mermaid", "endmermaid")
    if diagram is not None:  # jekyll-mermaid's block: a diagram (`postil.markdown.diagram`)
        if not silent:
            code_block(state, start, diagram, {"": "mermaid"})
            state.line = diagram.close + 1
        return True
    tag, last = line_tag(state, start), start
    if tag is None and (spanning := spanning_tag(state, start, end)) is not None:
        tag, last = spanning
        if tag.kind != "tag" or not (readable(tag) or tag.name in VIDEOS | SILENT_TAGS):
            return False  # a block tag spanning lines is read as text
    if tag is not None and tag.kind == "tag" and tag.name == "capture":
        return _capture(state, start, end, tag, silent)
    if tag is not None and tag.kind == "tag" and tag.name in SILENT_TAGS:
        if not silent:
            if tag.name == "katexmm":  # its `$$…$$` is display math, in a line of text too
                get_state(state.env).extra[KATEX_MIXED] = True
            state.line = last + 1
        return True
    if tag is not None and readable(tag):  # a theme's figure or video include
        if not silent:
            push_include(state, start, tag)
            state.line = last + 1
        return True
    if tag is not None and tag.kind == "tag" and tag.name in VIDEOS:
        if not silent:  # Hexo's `{% youtube id [type] [cookie] %}`: the id comes first
            words = tag.args.split()
            push_video(state, start, tag, words[0].strip("\"'") if words else "", {})
            state.line = last + 1
        return True
    if tag is not None and tag.kind == "tag" and tag.name in ("twitter", "tweet"):
        if not silent:  # jekyll-twitter-plugin: `{% twitter URL [options] %}`
            url = next((word for word in tag.args.split() if "://" in word), "")  # `oembed URL`
            words = tag.args.split()
            if not url and words and words[0].isdigit():  # dev.to's `{% twitter ID %}`
                push_post(state, start, tag, "", words[0])
            else:
                push_post(state, start, tag, *post_url_parts(url))
            state.line = start + 1
        return True
    if tag is None or tag.kind != "tag" or tag.name not in BLOCK_TAGS:
        return False
    close = find_closer(state, start, end, f"end{tag.name}")
    if close is None:
        return False
    if silent:
        return True
    if tag.name == "raw":
        wrap_block(state, start, close, "liquid_raw")
    state.line = close + 1
    return True


def evaluate_liquid(tag: Tag, doc: RenderState, in_url: bool, in_html: bool = False) -> Value:
    """Return what a Liquid output or tag evaluates to in a post.

    Values are Jekyll's: `site.url` is the site's origin (`https://example.org`),
    `site.baseurl` its base path without the last slash (`/blog`, or ""), `post_url` the
    post's path without the base path (`/posts/x/`). In a link destination (`in_url`),
    `post_url` and `link` give the post's source (`/posts/x.md`), which the links plugin
    resolves and whose `#fragment` it checks. In raw HTML (`in_html`) `site.baseurl` is ""
    and `relative_url` gives the site-root path (`/x.png`): the raw HTML plugin puts every
    root-absolute URL under the base path, once, and checks that it is published.
    """
    if tag.kind == "output":
        return _output(tag, doc, in_html)
    if tag.name in ("post_url", "link"):
        return _post_link(tag, doc, in_url)
    if tag.name in ("raw", "endraw", "comment", "endcomment"):
        return Value("")  # an inline raw/comment is undone by the template plugin
    if tag.name in CODE_TAG_KINDS:
        return Value(None, unclosed_code(tag, f"{{% end{tag.name} %}}"))
    if tag.name in TUFTE_USAGE:  # not read by `tufte`: its arguments do not fit
        problem = arguments_problem(tag.name, tag.args) or "cannot be read here"
        return Value(None, f"tufte-jekyll's `{tag.raw}` {problem}; it is left out")
    if readable(tag):
        html = include_html(tag) if in_html or math_loader(tag) else None
        if html is not None:
            return Value(html)
        if in_html:
            return Value(None, f"`{tag.raw}` names no image or video; give its `path`")
        return Value(None, f"`{tag.raw}` shows its image only on a line of its own; move it there")
    if tag.name == "img":  # not read by `liquid_img`: no source among its arguments
        return Value(
            None,
            f"`{tag.raw}` has no image source, so it is left out; write one: a URL, or a "
            'path with a `/` (`{% img /images/plot.png 400 "Title" "Alt" %}`)',
        )
    if tag.name in HACKMD_EMBEDS:
        whose, does = HACKMD_EMBEDS[tag.name]
        return Value(
            None,
            f"{whose} `{tag.raw}` {does}, which postil does not do, so it is left out; "
            "write the content itself (a link, the text)",
        )
    return Value(
        None,
        f"Liquid tag `{tag.raw}` is not supported and is left out (postil has no "
        "template language in posts); write its result as Markdown",
    )


HACKMD_EMBEDS = {
    "hackmd": ("HackMD's", "embeds another HackMD note (`theme-dark`: HackMD's dark theme)"),
    "gist": ("jekyll-gist's and HackMD's", "embeds a GitHub gist"),
    "slideshare": ("HackMD's", "embeds SlideShare slides"),
    "speakerdeck": ("HackMD's", "embeds Speaker Deck slides"),
    "pdf": ("HackMD's and Hexo NexT's", "embeds a PDF viewer"),
    "figma": ("HackMD's", "embeds a Figma file"),
}
"""HackMD's and CodiMD's embeds written as `{%name id %}` (HackMD's "Features": Embed;
NexT's `{% pdf url [height] %}` is its PDF viewer too;
`{%youtube id %}` and `{%vimeo id %}` are players here, `postil.markdown.embed`): what
each shows, for its warning."""


def _output(tag: Tag, doc: RenderState, in_html: bool) -> Value:
    """Evaluate `{{ value | filter: arg | … }}` with postil's site values; a Logseq macro
    (`{{cloze …}}`, `{{embed …}}`: `LOGSEQ_MACRO`) is Logseq's."""
    macro = LOGSEQ_MACRO.fullmatch(tag.inner.strip())
    if macro:
        return _logseq_macro(tag, macro.group(1), macro.group(2).strip())
    first, *filters = _split_filters(tag.inner)
    value = _primary(first, doc, in_html)
    if value is None:
        name = first.strip()
        if name.startswith(VUE_FRONT_MATTER):
            key = name[len(VUE_FRONT_MATTER) :]
            return Value(None, _unknown(tag, f"the front matter has no text value `{key}`"))
        if name.startswith("site.") and " " not in name:  # a `_config.yml` key of the site's
            return Value(
                None,
                f"Liquid `{tag.raw}`: `{name}` is not in `params:` in postil.yaml, so the "
                f"output is left out; define it there (`params:` ⏎ `  {name[5:]}: …`, as in "
                "Jekyll's `_config.yml`), or write the value itself",
            )
        return Value(None, _unknown(tag, f"variable `{name}`"))
    for item in filters:
        name, _, arg = item.partition(":")
        name = name.strip()
        arguments = [_primary(one, doc, in_html) for one in _split(arg, ",")] if arg.strip() else []
        if name in ("relative_url", "absolute_url"):
            if not urlsplit(value).scheme:  # a full URL is kept, as Jekyll keeps it
                absolute = name == "absolute_url"
                base = "" if in_html and not absolute else _base(doc)
                value = (_origin(doc) if absolute else "") + base + "/" + value.lstrip("/")
        elif name in STRING_FILTERS and None not in arguments:
            count, apply = STRING_FILTERS[name]
            if len(arguments) != count:
                return Value(
                    None, _unknown(tag, f"filter `{name}` with {len(arguments)} arguments")
                )
            value = apply(value, *[a for a in arguments if a is not None])
        else:
            return Value(None, _unknown(tag, f"filter `{name}`"))
    return Value(value)


STRING_FILTERS: dict[str, tuple[int, Callable[..., str]]] = {
    "prepend": (1, lambda value, text: text + value),
    "append": (1, lambda value, text: value + text),
    "replace": (2, lambda value, old, new: value.replace(old, new)),
    "replace_first": (2, lambda value, old, new: value.replace(old, new, 1)),
    "remove": (1, lambda value, old: value.replace(old, "")),
    "remove_first": (1, lambda value, old: value.replace(old, "", 1)),
    "upcase": (0, str.upper),
    "downcase": (0, str.lower),
    "capitalize": (0, lambda value: value[:1].upper() + value[1:].lower()),
    "strip": (0, str.strip),
    "lstrip": (0, str.lstrip),
    "rstrip": (0, str.rstrip),
}
"""Liquid's string filters (Shopify's Liquid reference, as Jekyll runs them): name ->
(how many arguments, the function of the value and the arguments)."""


LOGSEQ_MACRO = re.compile(
    r"(embed|query|cloze|renderer|video|youtube|youtube-timestamp|vimeo|bilibili|tweet"
    r"|twitter|pdf|function|namespace|zotero-imported-file|zotero-linked-file|cards)"
    r"[ \t]+(\S.*)",
    re.DOTALL,
)
"""A Logseq macro: a built-in macro's name, a space and its arguments (`{{embed ((id))}}`,
`{{query (and [[x]])}}`, `{{cloze text}}`; Logseq's "Macros" docs and mldoc's
`Macro` inline). Liquid has no output whose name is followed by a space and words."""

LOGSEQ_LIVE = {
    "embed": "shows another block or page of the graph inside this one",
    "query": "lists the blocks of the graph a query finds, when the page is opened",
    "renderer": "runs a Logseq plugin",
    "function": "computes a value from a query's results",
    "namespace": "lists the pages of a namespace",
    "cards": "opens the flashcards of a query",
}
"""Logseq's macros that show the graph's other content: what each does (for its warning)."""


CLOZE_MARKUP = re.compile(r"[$*_`\[\\<]")
"""Markdown or math in a cloze's text, which the template's text output does not read."""


def _logseq_macro(tag: Tag, name: str, argument: str) -> Value:
    """Return what a Logseq macro gives here: `{{cloze text}}` its text (Logseq shows it
    to the reader, hidden only while reviewing flashcards); any other macro nothing, with
    a warning saying what Logseq shows there."""
    if name == "cloze":
        if not CLOZE_MARKUP.search(argument):
            return Value(argument)
        return Value(
            argument,
            f"Logseq macro `{tag.raw}`: the cloze's text is shown as written, its Markdown "
            "and math not read (a template's output is text); write the text without "
            "`{{cloze …}}` to have them read",
        )
    does = LOGSEQ_LIVE.get(name, "embeds the media or document it names")
    return Value(
        None,
        f"Logseq macro `{tag.raw}`: `{{{{{name}}}}}` {does}, which postil does not do, so it "
        "is left out; write the content itself (a link, an image, the text)",
    )


MDBOOK_INCLUSION = re.compile(r"\{\{#(?:include|rustdoc_include|playground)[ \t]+([^\s}]+)")
"""mdBook's inclusion in a line of text (`include.MDBOOK_INCLUDE` is one on a line of its own)."""


def _unknown(tag: Tag, what: str) -> str:
    inclusion = MDBOOK_INCLUSION.match(tag.raw)
    if inclusion:  # `{{#include x.md}}` inside a line: mdBook's, as `include.py` says it
        return (
            f"the file inclusion of `{inclusion.group(1)}` is left out: postil does not read "
            "other files into a post; paste the file's content here"
        )
    if tag.inner.strip().startswith("$"):  # Vue's globals: Liquid names never start with `$`
        what = what if what.startswith("the front matter") else f"{what} is not supported"
        return (
            f"Vue expression `{tag.raw}` (VitePress, VuePress): {what}, so the output is "
            "left out; postil puts in only `$frontmatter.<key>` of a text value the front "
            "matter has: write the value itself (to show the braces as text, write `\\{{`)"
        )
    return (
        f"Liquid `{tag.raw}`: {what} is not supported and the output is left out; write "
        "the value itself (to show the braces as text, write `\\{{`)"
    )


def _split_filters(expression: str) -> list[str]:
    """Split `"a|b" | f: x` at the pipes outside quotes."""
    return _split(expression, "|")


def _split(expression: str, separator: str) -> list[str]:
    """Split `expression` at each `separator` outside quotes (`'a,b', 'c'` at commas)."""
    parts, current, quote = [], "", ""
    for char in expression:
        if char in "\"'" and (not quote or quote == char):
            quote = "" if quote else char
        if char == separator and not quote:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _primary(text: str, doc: RenderState, in_html: bool) -> str | None:
    """Return a quoted string's text or a known variable's value (`site.baseurl`,
    `site.url`, a site's own `site.name` from `params:`, `$frontmatter.key`), else None."""
    literal = _STRING.fullmatch(text)
    if literal:
        return literal.group(1)[1:-1]
    name = text.strip()
    if name.startswith(VUE_FRONT_MATTER):  # VitePress' `{{ $frontmatter.title }}`
        value = doc.front_matter.get(name[len(VUE_FRONT_MATTER) :])
        return html.escape(value) if in_html and value is not None else value
    base = "" if in_html else _base(doc)
    value = {"site.baseurl": base, "site.url": _origin(doc)}.get(name)
    if value is None and name.startswith("site.") and name[5:] in doc.site_params:
        value = doc.site_params[name[5:]]  # `params:` in postil.yaml, as `_config.yml`'s
        return html.escape(value) if in_html else value
    return value


def _base(doc: RenderState) -> str:
    """Return Jekyll's `site.baseurl`: the base path without its last slash ("" at the root)."""
    return doc.base_path.rstrip("/")


def _origin(doc: RenderState) -> str:
    """Return Jekyll's `site.url`: the scheme and host of the site's base URL."""
    parts = urlsplit(doc.base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def _post_link(tag: Tag, doc: RenderState, in_url: bool) -> Value:
    """Resolve `{% post_url [dir/]2020-01-01-slug %}` or `{% link _posts/x.md %}` (a post's
    file under any Markdown ending, or a folder's `index.md`: `postfind`)."""
    name = tag.args.strip().strip("\"'")
    if tag.name == "post_url":
        base, as_written = POSTS + name.strip("/"), posts_name
    else:
        path = name.removeprefix("/").removeprefix("_posts/")
        in_posts = name.lstrip("/").startswith("_posts/")
        base = (POSTS if in_posts else "content/") + path
        as_written = partial(_site_path, in_posts)
    rel = find_source(doc.links, [base])
    if rel is not None:
        if in_url:
            return Value("/" + rel.removeprefix("content/"), source=rel)
        return Value("/" + doc.links[rel], source=rel)
    fix = "fix the name or link to the post's file, e.g. `[text](other.md)`"
    return Value(None, missing_post(tag.raw, name, [base], doc.links, as_written, fix))


def _site_path(in_posts: bool, rel: str) -> str | None:
    """Return how Jekyll's `{% link %}` names the source `rel`: from the site's root,
    posts as `_posts/x.md` (when the tag wrote a post's path, else only pages)."""
    if rel.startswith(POSTS):
        return "_posts/" + rel[len(POSTS) :] if in_posts else None
    return None if in_posts else rel.removeprefix("content/")
