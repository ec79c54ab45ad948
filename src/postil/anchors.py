"""Check every `#fragment` link once all posts are rendered: the anchor must exist.

A link to a heading that was renamed, or to a section of another post that no longer has it,
still "works" in a browser (it lands at the top of the page), so nothing shows the mistake but
this check. Each fragment is looked up among the `id`s of the target page's rendered body;
ids are collected with the standard library's HTML tokenizer, only for pages that are the
target of some fragment link, once per page.
"""

from __future__ import annotations

from html.parser import HTMLParser

from postil.errors import Diagnostic, Severity
from postil.model import RenderedPost
from postil.theme import PAGE_IDS as THEME_IDS

PAGE_IDS = frozenset(THEME_IDS) | {"notes"}
"""Ids the page templates add around every post body (the default theme's) and the Notes
section's, also valid targets."""


class _IdCollector(HTMLParser):
    """Collect the value of every `id` attribute in an HTML fragment, and of every `name`
    attribute on an `<a>` (a fragment's target too, in HTML's "indicated part of the
    document" rules: https://html.spec.whatwg.org/#find-a-potential-indicated-element)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = ("id", "name") if tag == "a" else ("id",)
        self.ids.update(value for name, value in attrs if name in names and value)

    handle_startendtag = handle_starttag


def element_ids(html: str) -> frozenset[str]:
    """Return every `id` (and `<a name>`) in an HTML fragment (HTML's tokenizer, entities
    decoded)."""
    collector = _IdCollector()
    collector.feed(html)
    collector.close()
    return frozenset(collector.ids)


def check_anchors(rendered: list[RenderedPost]) -> list[Diagnostic]:
    """Return a warning for every fragment link whose anchor does not exist on its target page.

    Args:
        rendered: every rendered post and page; `content.anchor_links` lists their links.

    Returns:
        Warnings at each link's file:line:col (an error under --strict, like every warning),
        in the order the links were written.
    """
    by_source = {r.post.source.rel: r for r in rendered}
    known: dict[str, frozenset[str]] = {}
    problems = []
    for page in rendered:
        for link in page.content.anchor_links:
            target = by_source.get(link.target or page.post.source.rel)
            if target is None:
                continue  # a missing file is reported by the links plugin
            rel = target.post.source.rel
            if rel not in known:
                title_id = {target.post.meta.title_id} - {""}
                known[rel] = element_ids(target.content.html) | PAGE_IDS | title_id
            if link.fragment not in known[rel]:
                where = "this page" if not link.target else link.target
                problems.append(
                    Diagnostic(
                        Severity.WARNING,
                        link.location,
                        f"link to `#{link.fragment}`: {where} has no such anchor; "
                        "link to an existing heading id or remove the fragment",
                    )
                )
    return problems
