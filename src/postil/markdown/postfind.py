"""Find the post a template tag names, and say why none is found.

Jekyll's `{% post_url 2020-01-01-name %}` and `{% link _posts/x.md %}`, Hugo's
`{{< ref "x" >}}`/`{{< relref "x" >}}` and Hexo's `{% post_link name %}` name another post
by its file, without the file name's ending (any of `SOURCE_SUFFIXES`: Jekyll's
`markdown_ext`, Hugo's content formats) or as a folder holding an `index.md` (a page
bundle). `find_source` looks them up among the published sources (`RenderState.links`);
`missing_post` is the warning when none has the name: which files were looked for, and the
published post whose name (file name or slug) is nearest, written as the tag writes names.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping

from postil.content.discover import SOURCE_SUFFIXES
from postil.errors import nearest

INDEX_NAMES = ("index", "_index")
"""The file name of a folder's own post (a page bundle's `index.md`, Hugo's `_index.md`)."""


def source_names(base: str) -> list[str]:
    """Return the source files a name without ending may be, in order: `base` with each
    ending of `SOURCE_SUFFIXES`, then `base/index` with each (`base` as written when it has
    an ending already)."""
    if base.endswith(SOURCE_SUFFIXES):
        return [base]
    return [
        *(base + ending for ending in SOURCE_SUFFIXES),
        *(f"{base}/index{ending}" for ending in SOURCE_SUFFIXES),
        f"{base}/_index.md",  # Hugo's section page (left unpublished, with a warning)
    ]


def find_source(links: Mapping[str, str], bases: Iterable[str]) -> str | None:
    """Return the first published source (a key of `links`) among `source_names` of each of
    `bases` in turn, or None."""
    for base in bases:
        for rel in source_names(base):
            if rel in links:
                return rel
    return None


def posts_name(rel: str) -> str | None:
    """Return the name Jekyll's `post_url` and Hexo's `post_link` give the post of source
    `rel` (its path under `content/posts/`, without ending, a folder's own post by the
    folder), or None for a source outside `content/posts/`."""
    if not rel.startswith(POSTS):
        return None
    name = posixpath.splitext(rel[len(POSTS) :])[0]
    head, _, tail = name.rpartition("/")
    return head if head and tail in INDEX_NAMES else name


POSTS = "content/posts/"
"""Where posts live (Jekyll's `_posts/`, Hexo's `source/_posts/`)."""


def post_name(rel: str) -> str:
    """Return the name a tag gives the post of source `rel`: its file name without ending
    (`2020-01-01-attention`), or its folder's for a folder's own post (`welcome` for
    `content/posts/welcome/index.md`)."""
    stem = posixpath.splitext(posixpath.basename(rel))[0]
    return posixpath.basename(posixpath.dirname(rel)) if stem in INDEX_NAMES else stem


def missing_post(
    raw: str,
    written: str,
    looked: Iterable[str],
    links: Mapping[str, str],
    as_written: Callable[[str], str | None],
    fix: str,
) -> str:
    """Return the warning for a tag that names no published post.

    Args:
        raw: the tag as written (`{% post_url 2020-01-01-x %}`).
        written: the name the tag gives (`2020-01-01-x`, `_posts/x.md`, `/posts/x`).
        looked: the names without ending it was looked up as (`content/posts/2020-01-01-x`),
            each tried with every ending and as a folder (`source_names`).
        links: the published sources and their URLs (`RenderState.links`).
        as_written: how the tag would name a source (None: it cannot name it).
        fix: how to fix it, the message's last clause.

    Returns:
        "`{% post_url x %}`: no published post is named `x` (looked for content/posts/x.md,
        … and content/posts/x/index.md; a draft or a post dated in the future is not
        published) (did you mean `y`?); <fix>": the suggestion compares the name (its last
        part, without ending) with each post's file name and slug (the last part of its
        URL), so a date prefix or a folder does not hide the post meant.
    """
    shown = sorted({_shown(base) for base in looked}, key=list(map(_shown, looked)).index)
    hint = ""
    suggestion = _nearest_post(written, links, as_written)
    if suggestion is not None:
        hint = f" (did you mean `{suggestion}`?)"
    return (
        f"`{raw}`: no published post is named `{written}` (looked for {' and '.join(shown)};"
        f" a draft or a post dated in the future is not published){hint}; {fix}"
    )


def _shown(base: str) -> str:
    """Return the files looked for by one name: `content/posts/x.md` (or another Markdown
    ending) and the folder's `content/posts/x/index.md`."""
    if base.endswith(SOURCE_SUFFIXES):
        return base
    return f"{base}.md (or another Markdown ending), {base}/index.md"


def _nearest_post(
    written: str, links: Mapping[str, str], as_written: Callable[[str], str | None]
) -> str | None:
    """Return how the tag would name the published post whose name is `written`'s, or
    nearest to it (a file name or a slug: `nearest_named`), or None."""
    named = []
    for rel, url in sorted(links.items()):
        if rel.endswith(SOURCE_SUFFIXES) and as_written(rel) is not None:
            named.append((rel, (post_name(rel), _slug(url))))
    found = nearest_named(written, named)
    return as_written(found) if found is not None else None


def _slug(url: str) -> str:
    """Return the last part of a page's URL (`posts/attention/` → `attention`)."""
    return posixpath.splitext(posixpath.basename(url.rstrip("/")))[0]


def nearest_named(written: str, named: Iterable[tuple[str, Iterable[str]]]) -> str | None:
    """Return the source whose name is the one `written` gives, or is nearest to it.

    The last part of `written` is compared, without its ending (a slip of the ending too:
    `about.mdd`) and without a Jekyll date (`2020-01-01-name`), to each source's names
    (`named`: source rel, its names: the file name without ending, a slug), first exactly
    (in any letter case), then by `errors.nearest`: the folders the paths share would
    make every post in the same folder look near (`my file.md` → `empty-title.md`).
    """
    key = posixpath.basename(written.split("#")[0].rstrip("/"))
    stem, ending = posixpath.splitext(key)
    if ending and nearest(ending, SOURCE_SUFFIXES) is not None or ending in SOURCE_SUFFIXES:
        key = stem  # `about.md`, or a slip of its ending: `about.mdd`
    if not key:
        return None
    by_name: dict[str, str] = {}
    for rel, names in named:
        for name in names:
            if name:
                by_name.setdefault(name, rel)
                by_name.setdefault(name.casefold(), rel)
    undated = DATE_PREFIX.sub("", key)  # `2020-01-01-other` for the post `other.md`
    found = next((by_name[k] for k in (key, key.casefold(), undated) if k in by_name), None)
    if found is None:
        close = nearest(key, by_name) or nearest(undated, by_name)
        found = by_name[close] if close is not None else None
    return found


DATE_PREFIX = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}-")
"""Jekyll's date before a post's name (`2020-01-01-name`): its slug is the name."""
