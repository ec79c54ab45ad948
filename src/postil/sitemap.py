"""`sitemap.xml` (sitemaps.org protocol 0.9) and `robots.txt` pointing at it.

Built with `xml.etree.ElementTree`; lastmod values come from post dates, never the build
time, so builds stay byte-identical.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from datetime import datetime
from urllib.parse import urlsplit

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def sitemap_xml(entries: Iterable[tuple[str, datetime | None]]) -> bytes:
    """Return a sitemap listing each (absolute URL, last modification or None), in order.

    `lastmod` is written in W3C Datetime (ISO 8601 with offset) when known. The protocol
    allows 50,000 URLs per file (https://www.sitemaps.org/protocol.html); a blog stays far
    below that, so no index file is made.
    """
    urlset = ET.Element(f"{{{SITEMAP_NS}}}urlset")
    for loc, lastmod in entries:
        url = ET.SubElement(urlset, f"{{{SITEMAP_NS}}}url")
        ET.SubElement(url, f"{{{SITEMAP_NS}}}loc").text = loc
        if lastmod is not None:
            ET.SubElement(url, f"{{{SITEMAP_NS}}}lastmod").text = lastmod.isoformat()
    ET.indent(urlset, space="  ")
    body = ET.tostring(urlset, encoding="unicode", default_namespace=SITEMAP_NS)
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n").encode("utf-8")


def robots_txt(base_url: str) -> bytes:
    """Return a robots.txt that allows every crawler and names the sitemap's absolute URL.

    Written only where crawlers look for it (`writes_robots`).
    """
    return f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n".encode()


def writes_robots(base_url: str) -> bool:
    """Return whether the site gets a robots.txt: only when it is published at its host's
    root (a user site, a custom domain), where crawlers read it (RFC 9309, section 2.3).

    On a project site (`https://user.github.io/repo/`) a `/repo/robots.txt` would never be
    read, and the host's own robots.txt is not the site's to write; the build says so
    (`robots_note`).
    """
    return urlsplit(base_url).path in ("", "/")


def robots_note(base_url: str) -> str:
    """Return the build's note on a skipped robots.txt, or "" when it is written."""
    if writes_robots(base_url):
        return ""
    path = urlsplit(base_url).path
    return (
        f"note: no robots.txt: this site lives under {path}, and crawlers read robots.txt "
        f"only at the host's root (RFC 9309); submit {base_url}sitemap.xml to search "
        "engines instead"
    )
