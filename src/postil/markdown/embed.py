"""Video embeds: Hugo's `youtube`/`vimeo` and Quarto's `video` shortcodes, Jekyll's and
Hexo's `{% youtube %}`/`{% vimeo %}` tags, as HTML; and posts on X (Hugo's `tweet`/`x`,
jekyll-twitter-plugin's `{% twitter %}`) as a quoted link (`post_html`).

    {{< youtube dQw4w9WgXcQ >}}
    {{< youtube id="dQw4w9WgXcQ" title="The lecture" start="90" >}}
    {{< vimeo 55073825 >}}
    {{< video https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s title="The lecture" >}}
    {{< video clip.mp4 >}}
    {% youtube dQw4w9WgXcQ %}

Hugo's built-in shortcodes take a video's id (`youtube`, `vimeo`: "Shortcodes" in Hugo's
documentation); Quarto's `video` takes a YouTube, Vimeo or file URL (Quarto's "Videos");
Jekyll's and Hexo's `{% youtube ID %}` and `{% vimeo ID %}` (jekyll-youtube, Hexo's own tag
plugins) take an id or a URL. Each becomes one `<figure class="video">` holding a player as
wide as the text at 16:9: an `<iframe>` for YouTube (on `youtube-nocookie.com`, YouTube's
privacy-enhanced mode, which Hugo offers as `privacy.youtube.privacyEnhanced`: no cookies
until the reader plays the video) and Vimeo (`player.vimeo.com`), `loading="lazy"` and a
`title` (its accessible name: the shortcode's `title`, else "YouTube video" as Hugo's), or a
`<video controls>` for a file, whose path is resolved and checked as a raw HTML `src`
(`postil.markdown.rawhtml`). A start time (`start=90`, a URL's `t=1m30s` or `#t=90`) is
kept. CSS class: `video`.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import parse_qs, urlsplit

from markdown_it.rules_block import StateBlock

from postil.markdown.state import get_state
from postil.markdown.tagsyntax import Tag

YOUTUBE_ID = re.compile(r"[A-Za-z0-9_-]{11}")
"""A YouTube video id: eleven characters of the URL-safe Base64 alphabet."""

VIMEO_ID = re.compile(r"[0-9]{1,12}(?:\?h=[0-9a-f]{1,20})?")
"""A Vimeo video id: its number, and the `h` hash of an unlisted video's link."""

YOUTUBE_HOSTS = frozenset(
    {"youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be", "www.youtube-nocookie.com"}
)
VIMEO_HOSTS = frozenset({"vimeo.com", "www.vimeo.com", "player.vimeo.com"})

TIME = re.compile(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?")
"""A start time as YouTube writes it: `90`, `90s`, `1m30s`, `1h2m3s`."""

ALLOW = "accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
"""What the player may use: YouTube's own embed code's list, without `autoplay`."""


def video_html(source: str, provider: str, title: str = "", start: str = "") -> str | None:
    """Return the HTML of a video player, or None when `source` names no video.

    Args:
        source: a YouTube or Vimeo id (`provider` "youtube" or "vimeo"), or any URL or path
            (`provider` "video": a YouTube or Vimeo page's URL, else a video file).
        provider: "youtube", "vimeo" or "video" (Quarto's shortcode).
        title: the player's accessible name; empty for the provider's default.
        start: the time to start at (`90`, `1m30s`); a URL's own `t=` counts when empty.

    Returns:
        A `<figure class="video">` holding an `<iframe>` or a `<video>`, each attribute
        escaped; None for an id of the wrong form or an empty source.
    """
    source = source.strip()
    if provider == "video":
        provider, source, start = _from_url(source, start)
    if provider == "youtube" and YOUTUBE_ID.fullmatch(source):
        url = f"https://www.youtube-nocookie.com/embed/{source}"
        seconds = _seconds(start)
        return _iframe(url + (f"?start={seconds}" if seconds else ""), title or "YouTube video")
    if provider == "vimeo" and VIMEO_ID.fullmatch(source):
        seconds = _seconds(start)
        url = f"https://player.vimeo.com/video/{source}" + (f"#t={seconds}s" if seconds else "")
        return _iframe(url, title or "Vimeo video")
    if provider == "file" and source:
        label = f' aria-label="{escape(title)}"' if title else ""
        seconds = _seconds(start)
        src = escape(source + (f"#t={seconds}" if seconds and "#" not in source else ""))
        player = f'<video src="{src}" controls preload="metadata"{label}></video>'
        return f'<figure class="video">{player}</figure>\n'
    return None


HOW_TO_WRITE = {
    "youtube": "the video's 11-character id or its URL, `{open} youtube dQw4w9WgXcQ {close}`",
    "vimeo": "the video's number or its URL, `{open} vimeo 55073825 {close}`",
    "video": "a YouTube or Vimeo URL or a video file's path, `{open} video clip.mp4 {close}`",
    "include": "a YouTube or Vimeo URL or a video file's path as its `path`, "
    '`{open} include video.liquid path="https://youtu.be/dQw4w9WgXcQ" {close}`',
}
"""What a video tag needs, by its name (`push_video`'s warning)."""

ZOLA_IDS = {"youtube": "dQw4w9WgXcQ", "vimeo": "124313553"}
"""An example id for the warning about Zola's `youtube`/`vimeo` shortcode."""


def push_video(
    state: StateBlock, line: int, tag: Tag, source: str, named: dict[str, str], provider: str = ""
) -> None:
    """Push the player of a video tag alone on body line `line` as an `html_block` token
    (so `postil.markdown.rawhtml` resolves and checks a file's path), or warn at the line
    that `source` names no video and say what to write.

    Args:
        tag: the shortcode or Liquid tag (`youtube`, `vimeo`, `video`, or an `include`).
        source: its id, URL or path (positional or `id=`/`src=`/`path=`).
        named: its named parameters (`title`, `start`; `caption`: text shown under it).
        provider: "youtube", "vimeo" or "video" when the tag's name does not say it.
    """
    provider = provider or tag.name
    if provider != "video" and "/" in source:  # `{% youtube https://youtu.be/… %}`
        provider = "video"
    html = video_html(source, provider, named.get("title", ""), named.get("start", ""))
    if html is not None and named.get("caption"):  # Chirpy's title, shown under the player
        caption = f"<figcaption>{escape(named['caption'])}</figcaption>"
        html = html.replace("</figure>", caption + "</figure>", 1)
    if html is None:
        delimiters = ("{{<", ">}}") if tag.kind == "shortcode" else ("{%", "%}")
        how = HOW_TO_WRITE.get(tag.name, HOW_TO_WRITE["include"])
        how = how.format(open=delimiters[0], close=delimiters[1])
        if tag.kind == "zola":  # Zola's built-in `youtube`/`vimeo` take `id=` only
            how = f'the video\'s id as `id`, `{{{{ {tag.name}(id="{ZOLA_IDS[tag.name]}") }}}}`'
        message = f"`{tag.raw}` names no video: write {how}; it is left out"
        get_state(state.env).warn(line, 1, message)
        return
    token = state.push("html_block", "", 0)
    token.content, token.map = html, [line, line + 1]


def _from_url(source: str, start: str) -> tuple[str, str, str]:
    """Return (provider, id or URL, start) for Quarto's `video` source."""
    parts = urlsplit(source)
    host = parts.netloc.lower()
    query = parse_qs(parts.query)
    start = start or (query.get("t") or query.get("start") or [""])[0]
    path = [piece for piece in parts.path.split("/") if piece]
    if host in YOUTUBE_HOSTS:
        if host == "youtu.be":
            return "youtube", path[0] if path else "", start
        if path[:1] in (["embed"], ["shorts"], ["live"], ["v"]) and len(path) > 1:
            return "youtube", path[1], start
        return "youtube", (query.get("v") or [""])[0], start
    if host in VIMEO_HOSTS:
        start = start or parts.fragment.removeprefix("t=")
        unlisted = (query.get("h") or [""])[0]  # an unlisted video's hash, needed to play it
        video = (path[-1] if path else "") + (f"?h={unlisted}" if unlisted else "")
        return "vimeo", video, start
    return "file", source, start


def _seconds(time: str) -> int:
    """Return a start time in whole seconds (0 for none or an unreadable one)."""
    found = TIME.fullmatch(time.strip()) if time else None
    if found is None:
        return 0
    hours, minutes, seconds = (int(part or 0) for part in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def _iframe(url: str, title: str) -> str:
    """Return the figure holding an embedded player at `url` named `title`."""
    return (
        f'<figure class="video"><iframe src="{escape(url)}" title="{escape(title)}"'
        f' loading="lazy" allow="{ALLOW}" referrerpolicy="strict-origin-when-cross-origin"'
        " allowfullscreen></iframe></figure>\n"
    )


POST_URL = re.compile(
    r"https?://(?:www\.|mobile\.)?(?:twitter|x)\.com/(?P<user>\w{1,15})(?:/status(?:es)?/(?P<id>\d+))?",
    re.I,
)
"""A post's (tweet's) URL on X or Twitter, or a profile's (`/user` alone)."""


def post_html(user: str, post_id: str) -> str | None:
    """Return a quoted link to a post on X (a tweet), or None when neither is given.

    Hugo's `tweet`/`x` shortcodes and jekyll-twitter-plugin's `{% twitter %}` fetch the
    post's HTML from X's oEmbed API while the site builds; postil fetches nothing, so the
    reader gets a link to the post (X's own embed code without its script is the same
    `<blockquote>` with a link). `user` alone is a profile; `post_id` alone uses X's
    `i/status` address, which redirects to the post.
    """
    user = user.lstrip("@")
    if (post_id and not post_id.isdigit()) or (user and not re.fullmatch(r"\w{1,15}", user)):
        return None
    if post_id:
        href = f"https://x.com/{user or 'i'}/status/{post_id}"
        text = f"A post by @{user} on X" if user else "A post on X"
    elif user:
        href, text = f"https://x.com/{user}", f"Posts by @{user} on X"
    else:
        return None
    return (
        f'<blockquote class="embedded-post"><p><a href="{escape(href)}">{escape(text)}</a>'
        "</p></blockquote>\n"
    )


def push_post(state: StateBlock, line: int, tag: Tag, user: str, post_id: str) -> None:
    """Push the link of a post tag alone on body line `line` as an `html_block` token, with a
    warning that the post's text is not shown (or, for a tag naming no post, only the
    warning).

    Args:
        tag: Hugo's `tweet`/`x` shortcode or jekyll-twitter-plugin's `{% twitter %}` tag.
        user, post_id: the account and the post's number, as the tag gives them.
    """
    html = post_html(user, post_id)
    doc = get_state(state.env)
    if html is None:
        doc.warn(line, 1, f"`{tag.raw}` names no post on X: give its URL or `user` and `id`")
        return
    doc.warn(
        line,
        1,
        f"`{tag.raw}` is shown as a link to the post: postil fetches nothing from X while "
        "it builds (Hugo, jekyll-twitter-plugin, dev.to and Hashnode do); quote the post's "
        "words above it to keep them on the page",
    )
    token = state.push("html_block", "", 0)
    token.content, token.map = html, [line, line + 1]


def post_url_parts(url: str) -> tuple[str, str]:
    """Return (user, post id) of an X or Twitter URL (`POST_URL`), or ("", "")."""
    found = POST_URL.match(url.strip("\"'"))
    return (found.group("user"), found.group("id") or "") if found else ("", "")


def push_url_embed(state: StateBlock, line: int, tag: Tag, url: str, caption: str = "") -> None:
    """Push what an embed of a page's `url` alone on body line `line` shows here: a player
    for a YouTube or Vimeo URL (`push_video`), a quoted link for a post on X (`push_post`),
    else a paragraph with a link to the page (the card GitBook, dev.to and Hashnode draw
    from the page's metadata, which postil does not fetch). A `caption` (GitBook's lines
    before `{% endembed %}`) is a paragraph under a player or a post, a link's text else.
    """
    host = urlsplit(url).netloc.lower()
    if host in YOUTUBE_HOSTS | VIMEO_HOSTS:
        push_video(state, line, tag, url, {}, provider="video")
        text = caption.strip()
    elif any(post_url_parts(url)):
        push_post(state, line, tag, *post_url_parts(url))
        text = caption.strip()
    else:
        label = (caption.strip() or url).replace("]", "\\]").replace("[", "\\[")
        text = f"[{label}](<{url}>)"
    if text:
        state.push("paragraph_open", "p", 1).map = [line, line + 1]
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = text, [line, line + 1], []
        state.push("paragraph_close", "p", -1)
