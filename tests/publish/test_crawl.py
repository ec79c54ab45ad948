"""Crawl the built repository site over real HTTP: zero broken links, assets or anchors.

The site is built for a project site (`https://example.github.io/blog/`) and for a user site
(`https://example.github.io/`), served under the same path on 127.0.0.1 by a server that
answers 404 outside it (as GitHub Pages does), and crawled from the home page, 404.html (as
if served at a deep missing URL), the feeds, the sitemap and robots.txt. Links to the site's
public URL are mapped to the local server, so absolute URLs in feeds and meta are checked too.
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from support.images import PNG
from support.web import serve_dir

REPO = Path(__file__).resolve().parents[2]
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LINK_ATTRS = {
    "a": "href",
    "link": "href",
    "script": "src",
    "img": "src",
    "source": "src",
    "video": "src",
}


class PageLinks(HTMLParser):
    """Collect the URLs a page refers to and the ids it defines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        attr = LINK_ATTRS.get(tag)
        if attr and values.get(attr):
            self.urls.append(values[attr] or "")
        if tag in ("img", "source") and values.get("srcset"):
            self.urls += [part.split()[0] for part in (values["srcset"] or "").split(",")]
        if values.get("poster"):
            self.urls.append(values["poster"] or "")
        self.urls += re.findall(r"url\(['\"]?([^'\")]+)", values.get("style") or "")
        if tag == "meta" and values.get("property") == "og:image":
            self.urls.append(values.get("content") or "")
        if tag == "meta" and values.get("property") == "og:url":
            self.urls.append(values.get("content") or "")


def parse_html(text: str) -> PageLinks:
    parser = PageLinks()
    parser.feed(text)
    parser.close()
    return parser


@dataclass
class Crawl:
    """The result of crawling: every internal URL fetched, broken links and anchors."""

    local: str
    public: str
    status: dict[str, int] = field(default_factory=dict)
    bodies: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)  # (from page, to URL)

    def to_local(self, url: str) -> str | None:
        """Map a URL to the local server, or None if it is outside the site's host."""
        if url.startswith(self.public):
            return self.local + url[len(self.public) :]
        public, local = urlsplit(self.public), urlsplit(self.local)
        parts = urlsplit(url)
        if parts.netloc in (public.netloc, local.netloc) and parts.scheme in ("http", "https"):
            return (
                f"{local.scheme}://{local.netloc}{parts.path}"
                + (f"?{parts.query}" if parts.query else "")
                + (f"#{parts.fragment}" if parts.fragment else "")
            )
        return None

    def fetch(self, url: str) -> None:
        if url in self.status:
            return
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                self.status[url] = response.status
                self.types[url] = kind = response.headers.get_content_type()
                data = response.read()
                binary = kind.startswith(("font/", "image/")) and kind != "image/svg+xml"
                self.bodies[url] = "" if binary else data.decode("utf-8")  # fonts are bytes
        except urllib.error.HTTPError as e:
            self.status[url] = e.code

    def follow(self, page: str, refs: list[str], base: str | None = None) -> Iterator[str]:
        """Record links from `page` (resolved against `base`) and yield new internal pages."""
        for ref in refs:
            # A fragment-only link stays in the document, wherever the document is served.
            target = self.to_local(urljoin(page if ref.startswith("#") else base or page, ref))
            if target is None:
                continue
            self.links.append((page, target))
            bare = urldefrag(target).url
            if bare not in self.status:
                self.fetch(bare)
                yield bare


def outgoing(crawl: Crawl, url: str) -> tuple[list[str], str | None]:
    """Return the references in a fetched document and the URL to resolve them against."""
    body, kind = crawl.bodies.get(url, ""), crawl.types.get(url, "")
    if kind == "text/html" and url.endswith("/404.html"):
        return parse_html(body).urls, crawl.local + "no/such/deep/page/"  # served anywhere
    if kind == "text/html":
        return parse_html(body).urls, None
    if url.endswith("feed.xml"):
        root = ET.fromstring(body)
        refs = [link.get("href", "") for link in root.iter(f"{ATOM}link")]
        for content in root.iter(f"{ATOM}content"):
            refs += parse_html(content.text or "").urls
        return refs, None
    if url.endswith("rss.xml"):
        root = ET.fromstring(body)
        refs = [el.text or "" for el in root.iter("link")]
        refs += [u for d in root.iter("description") for u in parse_html(d.text or "").urls]
        return refs, None
    if url.endswith("sitemap.xml"):
        return [loc.text or "" for loc in ET.fromstring(body).iter(f"{SITEMAP}loc")], None
    if url.endswith("robots.txt"):
        return [
            line.split(":", 1)[1].strip()
            for line in body.splitlines()
            if line.startswith("Sitemap:")
        ], None
    return [], None


def crawl_site(local: str, public: str) -> Crawl:
    crawl = Crawl(local, public)
    queue = [
        local + rel for rel in ("", "404.html", "feed.xml", "rss.xml", "sitemap.xml", "robots.txt")
    ]
    for url in queue:
        crawl.fetch(url)
    while queue:
        url = queue.pop()
        if crawl.status.get(url) != 200:
            continue
        refs, base = outgoing(crawl, url)
        queue.extend(crawl.follow(url, refs, base))
    return crawl


def broken_anchors(crawl: Crawl) -> list[tuple[str, str]]:
    ids: dict[str, set[str]] = {}
    broken = []
    for page, target in crawl.links:
        bare, fragment = urldefrag(target)
        if not fragment or crawl.types.get(bare) != "text/html":
            continue
        if bare not in ids:
            ids[bare] = parse_html(crawl.bodies[bare]).ids
        if fragment not in ids[bare]:
            broken.append((page, target))
    return broken


@pytest.fixture(
    scope="module",
    params=["https://example.github.io/blog/", "https://example.github.io/"],
    ids=["project-site", "user-site"],
)
def crawled(request, tmp_path_factory) -> Iterator[Crawl]:
    public = request.param
    out = tmp_path_factory.mktemp("crawl") / "_site"
    command = [
        sys.executable,
        "-m",
        "postil",
        "-C",
        str(REPO),
        "build",
        "--out",
        str(out),
        "--base-url",
        public,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with serve_dir(out, urlsplit(public).path) as local:
        yield crawl_site(local, public)


@pytest.mark.slow
def test_every_internal_link_and_asset_returns_200(crawled):
    broken = sorted(
        {
            (page, target)
            for page, target in crawled.links
            if crawled.status[urldefrag(target).url] != 200
        }
    )
    assert broken == []


def test_every_fragment_names_an_id_in_the_target_page(crawled):
    assert broken_anchors(crawled) == []


def test_the_crawl_reaches_every_kind_of_page_and_asset(crawled):
    fetched = {url[len(crawled.local) :] for url, code in crawled.status.items() if code == 200}
    for rel in [
        "",
        "posts/attention-from-the-softmax-up/",
        "about/",
        "archive/",
        "tags/",
        "tags/attention/",
        "css/base.css",
        "css/pygments.css",
        "js/cite.js",
        "js/widgets/temperature.js",
        "favicon.svg",
        "feed.xml",
        "sitemap.xml",
    ]:
        assert rel in fetched, rel
    assert len(crawled.links) > 100


def test_links_outside_the_base_path_would_be_caught(crawled):
    assert crawled.to_local("https://elsewhere.example.org/x") is None  # external: not crawled
    outside = crawled.to_local("https://example.github.io/posts/attention-from-the-softmax-up/")
    assert outside is not None
    crawled.fetch(outside)
    # Without the base path this URL is outside a project site (404); a user site has it.
    project = bool(urlsplit(crawled.public).path.strip("/"))
    assert crawled.status[outside] == (404 if project else 200)


def test_the_404_page_links_work_from_a_deep_missing_url(crawled):
    from_404 = [t for p, t in crawled.links if p.endswith("/404.html")]
    assert len(from_404) >= 5
    assert all(crawled.status[urldefrag(t).url] == 200 for t in from_404)


ASSET_POSTS = {
    "content/posts/bundle/index.md": (
        "---\ntitle: Bundle\ndate: 2026-01-02\n---\n\n![Plot](plot.png)\n\n"
        "![Figure](img/fig.svg){#fig-a width=60%}\n\n"
        '<img src="plot.png" srcset="plot.png 1x, img/fig.svg 2x" alt="raw">\n\n'
        '<video src="clip.mp4" poster="/img/red.png" controls></video>\n\n'
        "<div style=\"background: url('/img/red.png')\">x</div>\n\n"
        "[the flat post](../flat.md) and [its data](/data/table.csv)\n"
    ),
    "content/posts/flat.md": (
        "---\ntitle: Flat\ndate: 2026-01-01\n---\n\n![Red](../img/red.png) "
        '[bundle](/posts/bundle/) [csv](/data/table.csv)\n\n<a href="bundle/index.md">b</a>\n'
    ),
}
ASSET_FILES = {
    "content/posts/bundle/plot.png": PNG,
    "content/posts/bundle/img/fig.svg": (
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2"/>'
    ),
    "content/posts/bundle/clip.mp4": b"mp4",
    "content/img/red.png": PNG,
    "static/data/table.csv": b"a,b\n",
}


@pytest.fixture(
    scope="module",
    params=["https://example.github.io/assets/", "https://example.github.io/"],
    ids=["project-site", "user-site"],
)
def asset_crawl(request, tmp_path_factory) -> Iterator[Crawl]:
    """A site with page bundles, files under content/ and static/, and raw HTML."""
    public = request.param
    root = tmp_path_factory.mktemp("assets")
    (root / "postil.yaml").write_text(f"title: T\nauthor: A\nbase_url: {public}\n")
    for rel, text in ASSET_POSTS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    for rel, data in ASSET_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    command = [sys.executable, "-m", "postil", "-C", str(root), "build", "--strict"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with serve_dir(root / "_site", urlsplit(public).path) as local:
        yield crawl_site(local, public)


def test_a_site_with_bundles_and_raw_html_has_no_broken_reference(asset_crawl):
    broken = sorted(
        {
            (page, target)
            for page, target in asset_crawl.links
            if asset_crawl.status[urldefrag(target).url] != 200
        }
    )
    assert broken == []
    fetched = {u[len(asset_crawl.local) :] for u, c in asset_crawl.status.items() if c == 200}
    for rel in ASSET_FILES:
        published = rel.removeprefix("static/").removeprefix("content/")
        assert published in fetched, published
