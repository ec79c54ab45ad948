"""The site's feeds: Atom 1.0 (`feed.xml`, RFC 4287) and RSS 2.0 (`rss.xml`), full content.

XML is built with the standard library's `xml.etree.ElementTree`, which escapes text and
attributes itself (never string concatenation). No build time goes into a feed: the feed's
`updated` is the newest post's, so two builds of the same posts are byte-identical.
Entry titles are plain text (Atom's `type="text"`; RSS titles are text), math as readable
text (`RenderedPost.title_text`); an entry's `summary` with math is HTML with MathML, as
the content is (`type="html"`), one without math text. Each entry holds the post's whole
body made for feed readers by `postil.htmlfilter.feed_html`: absolute URLs, math as MathML,
notes as endnotes, widgets in their static state.
"""

from __future__ import annotations

import hashlib
import io
import re
import secrets
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from email.utils import format_datetime

from postil import __version__
from postil.citation import display_name
from postil.htmlfilter import feed_html_parts
from postil.model import Pieces, RenderedPost, Site

ATOM_NS = "http://www.w3.org/2005/Atom"
DC_NS = "http://purl.org/dc/elements/1.1/"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
"""The `updated` time of a feed with no dated posts (a fixed time keeps builds identical)."""

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_XML_INVALID_UTF8 = re.compile(b"[\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]")
"""`_XML_INVALID` in UTF-8 (U+FFFE and U+FFFF are EF BF BE and EF BF BF)."""

ENTRY_CACHE_BYTES = 32 << 20
"""Bytes of filtered bodies `entry_parts` keeps for the other feed; a body of more HTML is
written into each feed a segment at a time, filtered again rather than held."""


class _EntryCache:
    """Filtered bodies by (digest of the body, URL), least recently used dropped first, at
    most `ENTRY_CACHE_BYTES` in all."""

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[bytes, str], bytes] = OrderedDict()
        self.size = 0

    def get(self, key: tuple[bytes, str]) -> bytes | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: tuple[bytes, str], value: bytes) -> None:
        if len(value) > ENTRY_CACHE_BYTES or key in self.entries:
            return
        self.entries[key] = value
        self.size += len(value)
        while self.size > ENTRY_CACHE_BYTES:
            self.size -= len(self.entries.popitem(last=False)[1])


_ENTRIES = _EntryCache()


def xml_text(text: str) -> str:
    """Return `text` without the characters XML 1.0 forbids (C0 controls except tab/LF/CR)."""
    return _XML_INVALID.sub("", text)


def post_updated(rendered: RenderedPost) -> datetime:
    """Return when a post last changed: `updated:`, else `date:`, else the epoch."""
    meta = rendered.post.meta
    return meta.updated or meta.date or EPOCH


def feed_posts(site: Site) -> tuple[RenderedPost, ...]:
    """Return the posts a feed holds: the newest `feed_limit` dated posts (all when it is 0).

    A post without a date has no place in a dated feed (a reader would file it under 1970);
    the build warns about it. Drafts and future posts (`Site.previews`) are never in a feed:
    a reader would keep them after they changed or were dropped.
    """
    limit = site.config.feed_limit
    dated = tuple(
        r for r in site.posts if r.post.meta.date is not None and r.post.url not in site.previews
    )
    return dated[:limit] if limit else dated


def entry_html(rendered: RenderedPost, url: str) -> bytes:
    """Return a post's body for feed readers (`feed_html`) as XML text content: UTF-8,
    without the characters XML forbids, `&`, `<` and `>` escaped as ElementTree escapes text.

    The pieces of `entry_parts`, joined.
    """
    return b"".join(entry_parts(rendered, url))


def entry_parts(rendered: RenderedPost, url: str) -> Iterator[bytes]:
    """Yield `entry_html`'s bytes: whole for a body the entry cache can keep, else a
    segment at a time, so a feed writes a huge body without ever holding it filtered whole
    beside the feed it goes into.

    Filtering is the costly part of a feed (≈ 7 ms for the reference post); up to
    `ENTRY_CACHE_BYTES` of results are kept, so the Atom and RSS feeds, and the dev
    server's rebuilds, do not filter a post twice; a body of more HTML than that is
    filtered again for the other feed. The body is filtered in segments
    (`feed_html_parts`) and never decoded whole, so a huge post costs its bytes, not four
    times its characters.
    """
    html = rendered.content.html_bytes
    key = (hashlib.blake2b(html, digest_size=16).digest(), url)
    found = _ENTRIES.get(key)
    if found is not None:
        yield found
        return
    parts = (_escape_text(part) for part in feed_html_parts(html, url))
    if len(html) > ENTRY_CACHE_BYTES:  # too large to keep: the other feed filters it again
        yield from parts
        return
    kept = io.BytesIO()
    for part in parts:
        kept.write(part)
    escaped = kept.getvalue()  # the buffer itself: no copy
    _ENTRIES.put(key, escaped)
    yield escaped


def _escape_text(data: bytes) -> bytes:
    """Return UTF-8 text as XML character data, as `xml_text` then ElementTree make it."""
    data = _XML_INVALID_UTF8.sub(b"", data)
    return data.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")


def feed_updated(site: Site) -> datetime:
    """Return the newest `post_updated` of the feed's posts (the epoch for an empty feed)."""
    return max((post_updated(r) for r in feed_posts(site)), default=EPOCH)


def atom_feed(site: Site) -> Pieces:
    """Return the Atom 1.0 feed of the newest posts (`feed_posts`) as UTF-8 XML, in pieces
    made as they are written (`_Bodies.splice`).

    The feed's id and alternate link are the site's base URL, its self link is
    `<base_url>feed.xml`; each entry's id is the post's absolute URL (stable as long as the
    URL is). Content is `type="html"` with an `xml:base` of the post's URL.
    """
    config = site.config
    # Unprefixed names plus an explicit xmlns: ElementTree's default_namespace option
    # rejects the (correctly) unqualified attributes Atom uses.
    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: config.language})
    _sub(feed, "id", config.base_url)
    _sub(feed, "title", config.title)
    if config.description:
        _sub(feed, "subtitle", config.description)
    _sub(feed, "updated", feed_updated(site).isoformat())
    _link(feed, "self", "application/atom+xml", config.base_url + "feed.xml")
    _link(feed, "alternate", "text/html", config.base_url)
    _sub(_sub(feed, "author"), "name", config.author)
    _sub(feed, "generator", "postil").set("version", __version__)
    bodies = _Bodies()
    for rendered in feed_posts(site):
        feed.append(_atom_entry(site, rendered, bodies))
    return Pieces(bodies.splice(_serialize(feed)))


def _atom_entry(site: Site, rendered: RenderedPost, bodies: _Bodies) -> ET.Element:
    meta, url = rendered.post.meta, site.config.base_url + rendered.post.url
    entry = ET.Element("entry")
    if rendered.language(site.config.language) != site.config.language:  # RFC 4287, 2
        entry.set(XML_LANG, meta.lang)
    _sub(entry, "id", url)
    _sub(entry, "title", rendered.title_text).set("type", "text")
    _link(entry, "alternate", "text/html", url)
    if meta.date:
        _sub(entry, "published", meta.date.isoformat())
    _sub(entry, "updated", post_updated(rendered).isoformat())
    for name in meta.authors or (site.config.author,):
        _sub(_sub(entry, "author"), "name", display_name(name))
    for tag in meta.tags:
        ET.SubElement(entry, "category", {"term": xml_text(tag)})
    summary = rendered.content.front_summary
    if summary and any(kind == "math" for kind, _ in summary.parts):  # MathML, as the content
        _sub(entry, "summary", summary.html).set("type", "html")
    elif meta.summary:
        _sub(entry, "summary", rendered.summary_text).set("type", "text")
    content = ET.SubElement(entry, "content")
    content.text = bodies.add(entry_parts(rendered, url))
    content.attrib.update({"type": "html", "{http://www.w3.org/XML/1998/namespace}base": url})
    return entry


def rss_feed(site: Site) -> Pieces:
    """Return the RSS 2.0 feed of the newest posts (`feed_posts`) as UTF-8 XML, in pieces
    made as they are written (`_Bodies.splice`).

    Follows the RSS 2.0 specification (https://www.rssboard.org/rss-specification): item
    `description` holds the full HTML body, `guid` is the permalink, dates are RFC 822;
    authors go in `dc:creator` (RSS's own `author` wants an e-mail address), and an
    `atom:link rel="self"` names the feed's own URL (RSS Advisory Board's recommendation).
    """
    config = site.config
    rss = ET.Element("rss", {"version": "2.0"})
    channel = ET.SubElement(rss, "channel")
    for tag, text in (
        ("title", config.title),
        ("link", config.base_url),
        ("description", config.description or config.title),
        ("language", config.language),
        ("lastBuildDate", format_datetime(feed_updated(site))),
        ("generator", f"postil {__version__}"),
    ):
        ET.SubElement(channel, tag).text = xml_text(text)
    self_link = {"href": config.base_url + "rss.xml", "rel": "self", "type": "application/rss+xml"}
    ET.SubElement(channel, f"{{{ATOM_NS}}}link", self_link)
    bodies = _Bodies()
    for rendered in feed_posts(site):
        channel.append(_rss_item(site, rendered, bodies))
    return Pieces(bodies.splice(_serialize(rss)))


def _rss_item(site: Site, rendered: RenderedPost, bodies: _Bodies) -> ET.Element:
    meta, url = rendered.post.meta, site.config.base_url + rendered.post.url
    item = ET.Element("item")
    ET.SubElement(item, "title").text = xml_text(rendered.title_text)
    ET.SubElement(item, "link").text = url
    ET.SubElement(item, "guid", {"isPermaLink": "true"}).text = url
    if meta.date:
        ET.SubElement(item, "pubDate").text = format_datetime(meta.date)
    for name in meta.authors or (site.config.author,):
        ET.SubElement(item, f"{{{DC_NS}}}creator").text = xml_text(display_name(name))
    for tag in meta.tags:
        ET.SubElement(item, "category").text = xml_text(tag)
    ET.SubElement(item, "description").text = bodies.add(entry_parts(rendered, url))
    return item


class _Bodies:
    """Entry bodies kept out of the element tree: each is a marker there, replaced by its
    escaped bytes after serialising (`splice`), so a feed never holds a body as `str`, and
    the feed is never one `bytes`: its pieces go to the file as they are made, a huge
    body a segment at a time (a 20 MB post's feed is 70 MB)."""

    def __init__(self) -> None:
        self.marker = f"postil-body-{secrets.token_hex(16)}-"
        self.parts: list[tuple[bytes, Iterator[bytes]] | None] = []

    def add(self, escaped: bytes | Iterable[bytes]) -> str:
        """Keep one body (`entry_parts`' pieces, or `entry_html`'s bytes); return the marker
        to put in its place ("" for an empty body, which ElementTree writes as an empty
        element, as it always did)."""
        rest = iter((escaped,) if isinstance(escaped, bytes) else escaped)
        first = next((part for part in rest if part), b"")
        if not first:
            return ""
        self.parts.append((first, rest))
        return f"{self.marker}{len(self.parts) - 1}."

    def splice(self, xml: bytes) -> Iterator[bytes]:
        """Yield `xml` in pieces with every marker replaced by its body (each body is used
        once, and let go once yielded)."""
        pieces = xml.split(self.marker.encode("ascii"))
        del xml
        yield pieces[0]
        for at in range(1, len(pieces)):
            index, _, rest = pieces[at].partition(b".")
            pieces[at] = b""
            body = self.parts[int(index)]
            assert body is not None, "a body's marker appears once"
            self.parts[int(index)] = None
            first, more = body
            del body
            yield first
            del first
            yield from more
            yield rest


def _sub(parent: ET.Element, tag: str, text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = xml_text(text)
    return element


def _link(parent: ET.Element, rel: str, media_type: str, href: str) -> None:
    ET.SubElement(parent, "link", {"rel": rel, "type": media_type, "href": href})


def _serialize(root: ET.Element) -> bytes:
    """Return `root` as indented UTF-8 XML with a declaration; prefixes are fixed names."""
    for prefix, uri in (("atom", ATOM_NS), ("dc", DC_NS)):
        ET.register_namespace(prefix, uri)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + body + "\n").encode("utf-8")
