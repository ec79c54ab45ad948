"""Links to the source file of a post or page that is not in the build, told with why.

A post links to another as to its file (`[x](other.md)`, `links.md`); when no page of the
build has that file, rendering leaves the link as written and records it
(`markdown.references.record_source_link`), since only the whole build knows the reason:
the file is a draft, a post still to come, a file whose own error fails the build (said
there, not again here), or no source at all (the nearest one named, as the author would
write it). One message a reason, at the link's line and column; warnings, errors under
`--strict`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping

from postil.errors import Diagnostic, Severity
from postil.markdown.postfind import nearest_named, post_name
from postil.markdown.references import CONTENT_DIR
from postil.markdown.rendered import SourceLink
from postil.model import RenderedPost


def check_source_links(
    rendered: Iterable[RenderedPost],
    held: Mapping[str, str],
    failed: frozenset[str],
    sources: Iterable[str],
) -> list[Diagnostic]:
    """Return a warning for every recorded link to a source no page of the build has.

    Args:
        rendered: the posts and pages rendered.
        held: the sources left out of this build by their front matter, by source path:
            "draft" or "future".
        failed: the sources whose reading failed (their error is reported already).
        sources: every source path postil read, for the nearest name of a missing one.
    """
    problems = []
    known: list[str] = []  # every source, listed for the first missing one
    for post in rendered:
        for link in post.content.source_links:
            if link.source in failed:
                continue
            if link.source in held:
                message = _held(link, held[link.source])
            else:
                known = known or sorted(set(sources) | set(held))
                message = _missing(link, known)
            problems.append(Diagnostic(Severity.WARNING, link.location, message))
    return problems


def _held(link: SourceLink, why: str) -> str:
    """Say that the linked source is left out of this build by its front matter."""
    if why == "draft":
        return (
            f"link to `{link.url}`: {link.source} is a draft, left out of this build "
            "(`postil build --drafts` and `postil serve` show it); publish it (remove "
            "`draft: true`) or remove the link"
        )
    return (
        f"link to `{link.url}`: {link.source} is dated in the future, left out until then "
        "(`--future` shows it); link to it once it is out, or remove the link"
    )


def _missing(link: SourceLink, known: list[str]) -> str:
    """Say that no source has the linked path, naming the nearest as the link would."""
    rooted = link.url.startswith(("/", "@/"))
    others = [(s, (post_name(s),)) for s in known if s != link.location.path]
    close = nearest_named(link.source, others)
    hint = ""
    if close is not None:  # as the link writes it: from content/, or from this file
        here = posixpath.dirname(link.location.path)
        written = "/" + close.removeprefix(CONTENT_DIR + "/") if rooted else ""
        hint = f" (did you mean `{written or posixpath.relpath(close, here)}`?)"
    return (
        f"link to `{link.url}`: there is no post or page {link.source}{hint}; fix the path "
        f"(it is relative to {'content/' if rooted else 'this file'}) or link to the URL"
    )
