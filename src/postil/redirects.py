"""Redirect pages: a post's old URLs (`aliases:`) send the reader on to its URL.

Hugo writes one small HTML page at each alias (its `alias.html`), jekyll-redirect-from the
same for `redirect_from:`; static hosts such as GitHub Pages cannot send an HTTP redirect,
so the page does it: a `<meta http-equiv="refresh">` with no delay, a canonical link (so a
search engine files the page under the new URL), `noindex`, and a link for a reader whose
browser does not follow the refresh (HTML Standard, "refresh" pragma:
https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-refresh).
"""

from __future__ import annotations

from html import escape
from typing import NamedTuple

from postil.content.posts import redirecting_aliases
from postil.model import Site, TextAt


class Redirect(NamedTuple):
    """One redirect page.

    Attributes:
        rel: its output path ("2012/old-name/index.html").
        target: the site-relative URL it sends to ("posts/new-name/").
        source: the site-relative path of the post whose `aliases:` asks for it.
        at: where that alias is written in it.
    """

    rel: str
    target: str
    source: str
    at: TextAt = TextAt()


def redirects(site: Site) -> list[Redirect]:
    """Return a `Redirect` for every alias of every published post and page, in the
    site's order."""
    found = []
    for rendered in site.posts + site.pages:
        post = rendered.post
        for alias, at in redirecting_aliases(post):
            rel = alias + "index.html" if alias.endswith("/") else alias
            found.append(Redirect(rel, post.url, post.source.rel, at))
    return found


def redirect_page(base_url: str, base_path: str, language: str, target: str) -> bytes:
    """Return the HTML page that sends the reader to `target` (a site-relative URL) on the
    site at `base_url` (absolute, ending in `/`) whose path is `base_path`; `language` is
    the page's `lang`. The refresh and the link go to the root-relative path (so a local
    preview stays local), the canonical link to the absolute URL."""
    canonical = escape(base_url + target)
    url = escape(base_path + target)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(language)}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        f"<title>Moved to {url}</title>\n"
        f'<link rel="canonical" href="{canonical}">\n'
        '<meta name="robots" content="noindex">\n'
        f'<meta http-equiv="refresh" content="0; url={url}">\n'
        "</head>\n"
        f'<body><p>This page has moved to <a href="{url}">{url}</a>.</p></body>\n'
        "</html>\n"
    ).encode()
