"""Rewrite rendered post HTML for other places than the post page: feeds, summaries, meta text.

A post's body is rendered once, for its page. Feeds need the same HTML with absolute URLs,
without the margin copies of notes (the Notes list keeps them), and without scripts; the
index needs the first paragraph; meta descriptions need plain text. These are done with the
standard library's `html.parser` (a real tokenizer, not regular expressions): start tags
that need no change are copied byte for byte, so MathML and SVG come through untouched.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser
from urllib.parse import urljoin

VOID_ELEMENTS = frozenset("area base br col embed hr img input link meta source track wbr".split())
"""Elements without an end tag (HTML Living Standard, "void elements")."""

FEED_DROPPED_CLASSES = frozenset({"sidenote", "sidenote-toggle", "heading-anchor", "copy-code"})
"""Classes of elements left out of feeds: the margin copy of each numbered note (the Notes
list has the same text), the buttons that toggle notes and copy code, and the `¶` anchors
(empty links). Margin notes (`marginnote`) have no other copy: `FEED_ENDNOTE_CLASSES`."""

FEED_ENDNOTE_CLASSES = frozenset({"marginnote"})
"""Classes of elements that feeds move to the end of the post as lettered notes: a margin
note (tufte-jekyll's `marginnote`, `{-}` notes) sits beside its sentence on the page, but a
feed reader has no stylesheet and would run it into the sentence. In its place a letter
(`<sup>a</sup>`); at the end a "Margin notes" list lettered the same way, as the numbered
notes are an endnote list there (Tufte CSS and Distill leave such notes inline in their
feeds, where they read as part of the text)."""

FEED_DROPPED_TAGS = frozenset({"script", "button", "input", "template"})
"""Elements left out of feeds: feed readers run no scripts, so widgets show their
server-rendered initial state and controls that do nothing there are removed."""


_OPAQUE = re.compile(r'(<math\b.*?</math>|<div class="highlight">.*?</div>)', re.DOTALL)
"""Whole elements a filter seldom changes, kept by `re.split`: a `<math>` element (they do
not nest) and Pygments' `<div class="highlight">` (it holds no other `div`)."""

SEGMENT_BYTES = 1 << 18
"""Bytes of a body filtered at a time by `feed_html_parts` (cut after a line feed): a 20 MB
post's body (55 MB of HTML, much of it math letters beyond U+FFFF, which CPython stores at
4 bytes a character) is never one `str`."""


@dataclass(frozen=True)
class Rules:
    """What a filter pass does to the HTML.

    Attributes:
        drop_tags: elements removed with everything inside them.
        drop_classes: elements with any of these classes removed with their content.
        unwrap_tags: elements whose tags are removed but whose content is kept.
        drop_attrs: attributes removed from every element.
        rewrite_url: maps each `href`/`src` value to a new one, or None to keep them.
        rename_tags: elements written as another element, attributes kept (less `open`).
        endnote_classes: elements with any of these classes replaced by a letter, their
            content listed after everything else (`FEED_ENDNOTE_CLASSES`).
    """

    drop_tags: frozenset[str] = frozenset()
    drop_classes: frozenset[str] = frozenset()
    unwrap_tags: frozenset[str] = frozenset()
    drop_attrs: frozenset[str] = frozenset()
    rewrite_url: Callable[[str], str] | None = None
    rename_tags: tuple[tuple[str, str], ...] = ()
    endnote_classes: frozenset[str] = frozenset()


FEED_RENAMED_TAGS = (("details", "div"), ("summary", "p"))
"""Collapsible callouts open in feeds: a feed reader may drop `<details>` or keep it closed
with no way to open it, so its content would be lost; as a `<div>` with a `<p>` title (bold
already: `postil.markdown.callout`) it reads as the callout it is."""


def feed_html(html: str, page_url: str) -> str:
    """Return a post body made for feed readers.

    Args:
        html: the post body as rendered for its page.
        page_url: the post's absolute URL; every `href` and `src` is resolved against it
            (RFC 3986), so root-absolute (`/blog/img/a.png`), relative and fragment-only
            links all become absolute.

    Notes become endnotes (margin copies dropped, the Notes list kept; margin notes a
    lettered list after it, `FEED_ENDNOTE_CLASSES`), widgets keep their
    static state (scripts and controls dropped), math stays MathML, collapsible callouts
    are shown open (`FEED_RENAMED_TAGS`).
    """
    rules = _feed_rules(page_url)
    return _Filter(rules).run(html)


def _feed_rules(page_url: str) -> Rules:
    """Return the rules of a feed's body (`feed_html`)."""
    return Rules(
        drop_tags=FEED_DROPPED_TAGS,
        drop_classes=FEED_DROPPED_CLASSES,
        rewrite_url=lambda url: urljoin(page_url, url),
        rename_tags=FEED_RENAMED_TAGS,
        endnote_classes=FEED_ENDNOTE_CLASSES,
    )


def feed_html_parts(html: bytes, page_url: str) -> Iterator[bytes]:
    """Yield `feed_html` of a UTF-8 body as UTF-8 pieces, filtering it a segment at a time.

    The pieces joined are byte for byte `feed_html(html.decode(), page_url).encode()`; at most
    one segment (`SEGMENT_BYTES`, cut after a line feed, so never inside a character) is a
    `str` at a time.
    """
    rules = _feed_rules(page_url)
    for piece in _Filter(rules).run_segments(_segments(html)):
        yield piece.encode("utf-8")


def _segments(data: bytes, start: int = 0) -> Iterator[str]:
    """Yield `data[start:]` decoded in pieces of about `SEGMENT_BYTES`, each ending after a
    line feed (or at the end): UTF-8 never has a line feed byte inside a character."""
    while start < len(data):
        end = data.find(b"\n", start + SEGMENT_BYTES) + 1 or len(data)
        yield data[start:end].decode("utf-8")
        start = end


MORE_MARKER = "<!--more-->"
"""The excerpt marker of Jekyll, Hugo and Pelican: the summary is the text before it."""


def summary_html(html: str | bytes) -> str:
    """Return the inner HTML of the body's first top-level paragraph, for lists of posts.

    With an excerpt marker `<!--more-->` in the body (Jekyll's, Hugo's and Pelican's manual
    summary), the summary is the inner HTML of every top-level paragraph before it instead,
    joined by a space. Note markers, margin notes and images are removed, links are
    unwrapped (their text stays) and `id` attributes dropped, so the summary can sit on an
    index page next to others without broken fragments, relative image paths or duplicate
    ids. A paragraph left empty (an image alone) is skipped. Returns "" when no top-level
    paragraph has content. `html` may be UTF-8 bytes: then only what the summary needs is
    decoded (up to the marker, or a segment at a time until the first paragraph).
    """
    rules = Rules(
        drop_tags=FEED_DROPPED_TAGS | {"sup", "img", "picture"},
        drop_classes=FEED_DROPPED_CLASSES | {"marginnote"},
        unwrap_tags=frozenset({"a"}),
        drop_attrs=frozenset({"id"}),
    )
    segments: Iterable[str]
    if isinstance(html, bytes):
        at = html.find(MORE_MARKER.encode("ascii"))
        until_more = at >= 0
        cut = at + len(MORE_MARKER) if until_more else 0
        head = [html[:cut].decode("utf-8")] if until_more else []
        segments = itertools.chain(head, _segments(html, cut))
    else:
        until_more = MORE_MARKER in html
        segments = (html,)
    found = _Filter(rules, first_paragraph=True, until_more=until_more).first(segments)
    return found.strip()


def plain_text(html: str) -> str:
    """Return the text of an HTML fragment, whitespace collapsed, math as its TeX source.

    Math is read from its `application/x-tex` annotation (the rendered glyphs and the source
    would otherwise both appear). Use it on `summary_html`'s result to leave notes out.
    """
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    return " ".join("".join(collector.parts).split())


@dataclass
class _Skip:
    depth: int = 0
    active: bool = False


class _Filter(HTMLParser):
    """Copy HTML through, applying `Rules`; optionally keep only the first top-level `<p>`."""

    def __init__(self, rules: Rules, first_paragraph: bool = False, until_more: bool = False):
        super().__init__(convert_charrefs=False)
        self.rules = rules
        self.first_paragraph = first_paragraph
        self.until_more = until_more
        self.out: list[str] = []
        self.skip = _Skip()
        self.open: list[str] = []
        self.capturing = not first_paragraph
        self.done = False
        self.notes: list[str] = []  # the finished endnotes' HTML
        self.note: list[str] | None = None  # the endnote being read, if any
        self.note_depth = 0

    def run(self, html: str) -> str:
        """Return the filtered HTML; with `first_paragraph`, stop reading once it is found.

        A whole `<math>` element or highlighted code block (`_OPAQUE`) that no rule can
        touch is copied without being parsed (it would come through byte for byte anyway):
        most of a technical post's tags are MathML and Pygments' spans, and `html.parser`
        took 6.4 ms for a benchmark post's body, 1.1 ms without them.
        """
        if not self.first_paragraph:
            return self._run_whole(html)
        return self.first((html,))

    def first(self, segments: Iterable[str]) -> str:
        """Return the first paragraph's filtered HTML (`first_paragraph`), reading the HTML's
        consecutive segments only until it is found."""
        for segment in segments:
            start = 0
            while start < len(segment):
                # Up to the next `</p>`, where a summary may be complete: parsing 2 KB
                # chunks instead read ≈ 5 times what a benchmark post's first paragraph
                # takes. (Any cut is safe: the parser keeps a tag split between two feeds.)
                end = segment.find("</p>", start)
                end = len(segment) if end < 0 else end + len("</p>")
                self.feed(segment[start:end])
                if self.done:
                    return "".join(self.out)
                start = end
        self.close()
        return "".join(self.out)

    def _run_whole(self, html: str) -> str:
        return "".join(self.run_segments((html,)))

    def run_segments(self, segments: Iterable[str]) -> Iterator[str]:
        """Filter HTML given in consecutive segments; yield the output as it is made.

        A segment may end anywhere (the parser keeps an unfinished tag for the next one); an
        `_OPAQUE` element cut by a segment's end is parsed instead of copied, with the same
        result.
        """
        blockers = self._blockers()
        for segment in segments:
            for index, piece in enumerate(_OPAQUE.split(segment)):
                untouched = index % 2 == 1 and not any(b in piece for b in blockers)
                if untouched and not self.rawdata:  # everything before it has been handled
                    if not self.skip.active:
                        self._emit(piece)
                else:
                    self.feed(piece)
            yield from self._take()
        self.close()
        yield from self._take()
        if self.notes:
            yield _endnote_list(self.notes)

    def _take(self) -> Iterator[str]:
        if self.out:
            yield "".join(self.out)
            self.out = []

    def _blockers(self) -> tuple[str, ...]:
        """Return the strings whose presence in an `_OPAQUE` element means a rule may apply
        to something inside it (a false alarm only costs parsing it)."""
        rules = self.rules
        found = [f"<{tag}" for tag in rules.drop_tags | rules.unwrap_tags]
        found += [*rules.drop_classes, *(f" {attr}=" for attr in rules.drop_attrs)]
        found += [f"<{tag}" for tag, _ in rules.rename_tags]
        found += list(rules.endnote_classes)
        if rules.rewrite_url is not None:
            found += [" href=", " src="]
        return tuple(found)

    def _emit(self, text: str) -> None:
        if self.capturing and not self.skip.active and not self.done:
            (self.out if self.note is None else self.note).append(text)

    def _start_note(self) -> None:
        """Begin an endnote: its letter here, its content read into `note`."""
        self._emit(f'<sup class="marginnote-ref">{letter_label(len(self.notes) + 1)}</sup>')
        self.note, self.note_depth = [], 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self.get_starttag_text() or "", closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self.get_starttag_text() or "", closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], raw: str, closed: bool) -> None:
        has_end = not closed and tag not in VOID_ELEMENTS
        if self.skip.active:
            self.skip.depth += has_end
            return
        if self._dropped(tag, attrs):
            self.skip = _Skip(depth=1, active=True) if has_end else self.skip
            return
        if self.note is not None:
            self.note_depth += has_end
        elif has_end and self._endnote(attrs):
            self._start_note()
            return
        if self.first_paragraph and tag == "p" and not self.open and not self.done:
            self.capturing = True
            self.open.append(tag)
            return
        if has_end:
            self.open.append(tag)
        if tag not in self.rules.unwrap_tags:
            self._emit(self._tag_text(tag, attrs, raw, closed))

    def handle_endtag(self, tag: str) -> None:
        if self.skip.active:
            self.skip.depth -= 1
            self.skip.active = self.skip.depth > 0
            return
        if self.note is not None and tag not in VOID_ELEMENTS:
            self.note_depth -= 1
            if self.note_depth == 0:
                self.notes.append("".join(self.note))
                self.note = None
                return
        if self.open and self.open[-1] == tag:
            self.open.pop()
        if self.first_paragraph and tag == "p" and not self.open and self.capturing:
            # A paragraph with nothing left (an image alone) is skipped for the next one.
            self.done = self.done or (bool("".join(self.out).strip()) and not self.until_more)
            self.capturing = False
            if self.until_more and self.out and not self.out[-1].isspace():
                self.out.append(" ")
            return
        if tag not in self.rules.unwrap_tags and tag not in VOID_ELEMENTS:
            self._emit(f"</{dict(self.rules.rename_tags).get(tag, tag)}>")

    def _endnote(self, attrs: list[tuple[str, str | None]]) -> bool:
        classes = set((dict(attrs).get("class") or "").split())
        return bool(classes & self.rules.endnote_classes)

    def _dropped(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in self.rules.drop_tags:
            return True
        classes = set((dict(attrs).get("class") or "").split())
        return bool(classes & self.rules.drop_classes)

    def _tag_text(
        self, tag: str, attrs: list[tuple[str, str | None]], raw: str, closed: bool
    ) -> str:
        """Return the start tag: the original text unless an attribute must change."""
        kept = [(k, v) for k, v in attrs if k not in self.rules.drop_attrs]
        rewrite = self.rules.rewrite_url
        if rewrite is not None:
            kept = [(k, rewrite(v) if k in ("href", "src") and v else v) for k, v in kept]
        renamed = dict(self.rules.rename_tags).get(tag)
        if renamed:
            tag, kept = renamed, [(k, v) for k, v in kept if k != "open"]
        elif kept == attrs:
            return raw
        parts = [tag] + [k if v is None else f'{k}="{escape(v, quote=True)}"' for k, v in kept]
        return "<" + " ".join(parts) + (" />" if closed else ">")

    def handle_data(self, data: str) -> None:
        self._emit(data)

    def handle_entityref(self, name: str) -> None:
        self._emit(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self._emit(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        """Comments are left out: they are notes to the author, not content; the excerpt
        marker ends a summary that runs until it."""
        if self.until_more and data.strip() == "more":
            self.done = True


def letter_label(count: int) -> str:
    """Return the `count`-th (from 1) letter label: a, b, …, z, aa, ab, … (Quarto's
    `alpha a` subfigure labels; a feed's margin notes). Returns "" for 0."""
    text = ""
    while count:
        count, rest = divmod(count - 1, 26)
        text = chr(ord("a") + rest) + text
    return text


def _endnote_list(notes: list[str]) -> str:
    """Return the lettered list of a feed's margin notes (`FEED_ENDNOTE_CLASSES`)."""
    items = "".join(f"<li>{note}</li>\n" for note in notes)
    return (
        '<section class="marginnotes">\n<h2>Margin notes</h2>\n'
        f'<ol type="a">\n{items}</ol>\n</section>\n'
    )


@dataclass
class _TextState:
    math: int = 0
    annotation: int = 0


class _TextCollector(HTMLParser):
    """Collect text; inside `<math>`, only the TeX annotation's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.state = _TextState()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math":
            self.state.math += 1
        elif tag == "annotation" and dict(attrs).get("encoding") == "application/x-tex":
            self.state.annotation += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "math":
            self.state.math -= 1
        elif tag == "annotation" and self.state.annotation:
            self.state.annotation -= 1

    def handle_data(self, data: str) -> None:
        if not self.state.math or self.state.annotation:
            self.parts.append(data)
