"""Check every `#fragment` link once all posts are rendered: the anchor must exist.

A link to a heading that was renamed, or to a section of another post that no longer has it,
still "works" in a browser (it lands at the top of the page), so nothing shows the mistake but
this check. Each fragment is looked up among the `id`s of the target page's rendered body;
ids are collected with the standard library's HTML tokenizer, only for pages that are the
target of some fragment link, once per page.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from itertools import chain, compress
from operator import is_not
from typing import Any

from postil.errors import Diagnostic, Severity, did_you_mean
from postil.markdown.rendered import RenderedMarkdown
from postil.model import RenderedPost
from postil.slugs import foreign_ids
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


def check_anchors(
    rendered: list[RenderedPost], memo: dict[str, Any] | None = None
) -> list[Diagnostic]:
    """Return a warning for every fragment link whose anchor does not exist on its target page.

    Args:
        rendered: every rendered post and page; `content.anchor_links` lists their links.
        memo: a scratch dictionary (`BuildCache.memo`) keeping the last call's posts, their
            warnings, the ids of each target page and who links to it. While the posts
            have the same sources in the same order, only the posts that are not the very
            objects of the last call (found by identity, in C) and the posts linking to
            one of them are checked again: a post's warnings are a function of its links
            and of its targets' ids, and a target that is the same object has the same ids.

    Returns:
        Warnings at each link's file:line:col (an error under --strict, like every warning),
        in the order the links were written.
    """
    memo = memo if memo is not None else {}
    last: _Checked | None = memo.get("last")
    checked = last.after(rendered) if last is not None else None
    if checked is None:
        checked = _Checked.of(rendered)
    memo["last"] = checked
    return list(chain.from_iterable(checked.problems))


HEADINGS_NAMED = 4
"""Heading ids a warning names when no id of the page is near the fragment written."""


def _nearest(fragment: str, ids: frozenset[str], target: RenderedPost) -> str:
    """Return how to fix a link to an anchor the page lacks, naming its nearest id (not the
    theme's: `errors.did_you_mean`); when none is near, naming the ids of the page's first
    `HEADINGS_NAMED` headings (its title's first, when it is one), so a link written from
    memory (`#unknown-id`) still shows what it can point at."""
    hint = did_you_mean(fragment, ids - PAGE_IDS, "`#{}`")
    if hint:
        return f"{hint}; link to an existing heading id or remove the fragment"
    meta = target.post.meta
    headings = [meta.title_id] if meta.title_heading and meta.title_id else []
    headings += [entry.id for entry in target.content.toc if entry.id in ids]
    if not headings:
        return "; it has no headings: link to an id the page has or remove the fragment"
    if len(headings) == 1:
        return f"; its one heading's id is `#{headings[0]}`: link to it or remove the fragment"
    named = ", ".join(f"`#{name}`" for name in headings[:HEADINGS_NAMED])
    more = len(headings) - HEADINGS_NAMED
    named += f" and {more} more" if more > 0 else ""
    return f"; its headings' ids are {named}: link to one of them or remove the fragment"


def _foreign_hint(target: RenderedPost, fragment: str) -> str:
    """Return how to fix a link to another page's heading written with another
    generator's id of it (`postil.slugs.foreign_ids`: its title when that is its opening
    `# Heading`, and the headings of its table of contents), or "" when no one heading
    has it. Links within a page are moved by `postil.markdown.fragments`; a link from
    another page is told, since that page was rendered without this one's headings."""
    headings = [(entry.id, entry.text) for entry in target.content.toc]
    meta = target.post.meta
    if meta.title_heading and meta.title_id:
        headings.insert(0, (meta.title_id, target.title_text))
    found = foreign_ids([text for _, text in headings]).get(fragment, set())
    if len(found) != 1:
        return ""
    given, text = headings[found.pop()]
    return (
        f"`{fragment}` is another generator's id of its heading `{text}`, whose id is "
        f"`{given}`: link to `#{given}`"
    )


@dataclass
class _Checked:
    """What `check_anchors` found, kept for its next call (never changed once kept:
    `after` makes a new one).

    Attributes:
        posts: the posts checked, in order.
        problems: the warnings of each.
        targets: the source rels each links to.
        linkers: by target source rel, the indices of the posts with a link to it.
        ids: each target page's ids by source rel, with the content and the title's id
            they were read from.
        places: each post's index by its source rel (the same for every `after`).
    """

    posts: list[RenderedPost]
    problems: list[list[Diagnostic]]
    targets: list[frozenset[str]]
    linkers: dict[str, frozenset[int]]
    ids: dict[str, tuple[RenderedMarkdown, str, frozenset[str]]]
    places: dict[str, int]

    @classmethod
    def of(cls, rendered: list[RenderedPost]) -> _Checked:
        """Return the check of every post of `rendered`."""
        count = len(rendered)
        places = {r.post.source.rel: i for i, r in enumerate(rendered)}
        checked = cls(list(rendered), [[]] * count, [frozenset()] * count, {}, {}, places)
        for i in range(count):
            checked.check(i)
        return checked

    def after(self, rendered: list[RenderedPost]) -> _Checked | None:
        """Return the check of `rendered`, this one's posts but a few, by checking again
        the changed posts and those linking to them; None when a post moved (a source at
        another place: a new, deleted or renamed post)."""
        if len(rendered) != len(self.posts):
            return None
        changed = list(compress(range(len(rendered)), map(is_not, rendered, self.posts)))
        if any(rendered[i].post.source.rel != self.posts[i].post.source.rel for i in changed):
            return None
        if not changed:
            return self
        new = _Checked(
            list(rendered),
            list(self.problems),
            list(self.targets),
            dict(self.linkers),
            dict(self.ids),
            self.places,
        )
        redo = set(changed)
        for i in changed:
            rel = rendered[i].post.source.rel
            redo |= self.linkers.get(rel, frozenset())
            new.ids.pop(rel, None)  # read again from its new content when linked to
        for i in sorted(redo):
            new.check(i)
        return new

    def check(self, i: int) -> None:
        """Check the links of post `i` again (its warnings and targets replaced)."""
        page = self.posts[i]
        problems: list[Diagnostic] = []
        targets: set[str] = set()
        for link in page.content.anchor_links:
            place = self.places.get(link.target or page.post.source.rel)
            if place is None:
                continue  # a missing file is reported by the links plugin
            target = self.posts[place]
            rel = target.post.source.rel
            targets.add(rel)
            title_id = target.post.meta.title_id
            known = self.ids.get(rel)
            if known is None or known[0] is not target.content or known[1] != title_id:
                known = self.ids[rel] = (
                    target.content,
                    title_id,
                    element_ids(target.content.html) | PAGE_IDS | ({title_id} - {""}),
                )
            if link.fragment not in known[2] and link.fragment.lower() != "top":
                # HTML's "scroll to the fragment": `#top` is the page's top when no element
                # has that id (WHATWG HTML, "find a potential indicated element")
                where = "this page" if not link.target else link.target
                fix = _foreign_hint(target, link.fragment) if link.target else ""
                problems.append(
                    Diagnostic(
                        Severity.WARNING,
                        link.location,
                        f"link to `#{link.fragment}`: {where} has no such anchor"
                        + (f"; {fix}" if fix else _nearest(link.fragment, known[2], target)),
                    )
                )
        for rel in self.targets[i] - targets:
            self.linkers[rel] = self.linkers[rel] - {i}
        for rel in targets - self.targets[i]:
            self.linkers[rel] = self.linkers.get(rel, frozenset()) | {i}
        self.problems[i], self.targets[i] = problems, frozenset(targets)
