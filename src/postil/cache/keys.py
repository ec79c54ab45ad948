"""The keys of the build cache: what each cached value is a function of.

A cached value is used only when its key equals the key computed now, so each key must
cover everything its value depends on:

- `environment_stamp`: postil and the libraries that shape the output (a new stamp empties
  the whole cache);
- `markdown_key`: a post's rendered Markdown (links to other posts and, for posts with
  widgets, the widget templates are checked apart, by `postil.render.Rendered.valid_for`);
- `PageKeys.key`: a page's bytes.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import compress
from operator import and_, eq, is_, is_not
from pathlib import Path
from typing import TYPE_CHECKING, Any

from postil import __version__
from postil.theme import template_dirs

if TYPE_CHECKING:
    from postil.model import Post, RenderedPost, Site, SiteConfig
    from postil.pages import PageJob, PageSpec

SCHEMA = 3
"""Bumped whenever the layout of rows or the meaning of a kind changes."""

LIBRARIES = {
    "markdown_it": "markdown_it_py",
    "mdit_py_plugins": "mdit_py_plugins",
    "pygments": "pygments",
    "latex2mathml": "latex2mathml",
    "jinja2": "jinja2",
    "yaml": "pyyaml",
    "fontTools": "fonttools",  # subsets the math font
    "ziamath": "ziamath",  # ships the math font
    "PIL": "pillow",  # measures images (width and height)
    "tomli": "tomli",  # reads TOML front matter on Python 3.10 (3.11+: the standard library)
    "bibtexparser": "bibtexparser",  # reads .bib files
    "pylatexenc": "pylatexenc",  # reads their LaTeX
    "emoji": "emoji",  # emoji shortcodes
    "coloraide": "coloraide",  # math colours made readable in both colour schemes
}
"""Libraries whose version shapes the output (module → distribution, as its `.dist-info`
folder is named, lower case); a new version of any of them empties the cache."""


def fingerprint(*parts: str | bytes) -> str:
    """Return the SHA-256 hex digest of `parts`, each ended by NUL (("ab", "c") != ("a", "bc"))."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=1)
def environment_stamp() -> str:
    """Return the stamp of everything outside the site that shapes postil's output.

    It covers the cache schema, postil's version, the Python version (pickles), and the
    installed files of postil and of each library in `LIBRARIES`: for a distribution
    installed from a wheel, its `RECORD` (the SHA-256 of every file it installed, PEP 376 and
    PEP 627), which is the same in every fresh install of the same files, such as each CI
    run's; otherwise (postil in an editable checkout, a library without a RECORD) the size
    and modification time of its files, so editing postil in a checkout empties the cache.
    """
    from importlib.util import find_spec

    parts = [f"schema {SCHEMA}", f"postil {__version__}", sys.version]
    for name, dist in {"postil": "postil", **LIBRARIES}.items():
        spec = find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        parts.append(f"{name} {_installed_files(origin, dist)}" if origin else f"{name} absent")
    return fingerprint(*parts)


def _installed_files(origin: Path, dist: str) -> str:
    """Return the stamp of the files of the package whose `__init__.py` is `origin`: the
    digest of the lines of its distribution's RECORD that hash the package's files, else
    the sizes and modification times of its files."""
    package = origin.parent
    own = [
        line
        for line in _record(package.parent, dist).splitlines()
        if line.startswith(f"{package.name}/")  # not its scripts: they name the venv's path
    ]
    if any(line.startswith(f"{package.name}/__init__.py,sha256=") for line in own):
        return "record " + fingerprint(*own)
    # postil's every file (edited in a checkout); a library's `__init__.py`, replaced with
    # a new time on every upgrade, and reading it imports nothing.
    files = sorted(package.rglob("*.py")) if dist == "postil" else [origin]
    stats = [(p.relative_to(package.parent).as_posix(), p.stat()) for p in files]
    return fingerprint(*(f"{rel} {st.st_size} {st.st_mtime_ns}" for rel, st in stats))


def _record(site_dir: Path, dist: str) -> str:
    """Return the RECORD of the distribution `dist` installed in `site_dir`, or ""."""
    try:
        names = os.listdir(site_dir)
    except OSError:
        return ""
    for folder in names:
        if folder.endswith(".dist-info") and folder.lower().startswith(dist + "-"):
            try:
                return (site_dir / folder / "RECORD").read_text("utf-8")
            except (OSError, UnicodeDecodeError):
                return ""
    return ""


def config_digest(config: SiteConfig) -> str:
    """Return the digest of the site configuration without the site's folder (`root`).

    Where the site is checked out (a CI runner's clone, a copy in another folder) shapes
    no output, so no key may depend on it: a cache restored into another folder must find
    its rows (README, "Publishing").
    """
    return fingerprint(repr(replace(config, root=Path())))


def render_context(config: SiteConfig) -> str:
    """Return the digest of what rendering reads besides the post itself, the links and
    the widget templates: postil's version and the whole site configuration (macros, base
    path, ...) but its folder (`config_digest`)."""
    return fingerprint(__version__, config_digest(config))


def widget_templates(root: Path) -> str:
    """Return the digest of the widget templates (`templates/widgets/*`, site and theme),
    which widgets render during Markdown rendering: each file by its path in its template
    folder and its text (`_template_files`)."""
    return fingerprint(*_template_files(root, "widgets"))


def markdown_key(post: Post, context: str) -> str:
    """Return the cache key of a post's rendered Markdown.

    It covers everything rendering reads but the links map and the widget templates: the
    post's source path, the body and where it starts in its file, its macros, its title
    and subtitle and where they are written (their math is rendered too), its
    bibliography and citation style (the works it cites are checked like links), the folder
    its relative images are read from (`media_path`), the front matter values a body naming
    VitePress' `$frontmatter` puts in (`FrontMatter.vue_values`), and the
    `render_context` (the site's configuration, postil's version). Links to other posts
    and widget templates are checked separately (`postil.render.Rendered.valid_for`): a
    cached post is valid while every link it looked up resolves the same way and, if it
    has widgets, the widget templates are the ones it was rendered with; so adding a post,
    or changing a widget's template, re-renders only the posts that it concerns.

    Args:
        post: the post.
        context: `render_context(config)`, computed once for many posts.
    """
    body = post.body_digest or fingerprint(post.body)
    meta = post.meta
    titles = repr(
        (
            meta.title,
            meta.title_at,
            meta.title_id,
            meta.title_heading,
            meta.subtitle,
            meta.subtitle_at,
            meta.summary,
            meta.summary_at,
        )
    )
    citing = repr((meta.bibliography, meta.citation_style, meta.media_path))
    named = [repr(meta.vue_values)] if meta.vue_values else []  # () unless the body names them
    return fingerprint(
        context,
        post.source.rel,
        str(post.body_line),
        repr(meta.macros),
        titles,
        citing,
        body,
        *named,
    )


def markdown_keys(
    config: SiteConfig, posts: Sequence[Post], memo: dict[str, Any] | None = None
) -> list[str]:
    """Return the `markdown_key` of every post, in order (the context is hashed once).

    Args:
        memo: a scratch dictionary (`BuildCache.memo`) keeping the last call's posts,
            context and keys: under the same context, a post that is the very same object
            at the same place keeps its key (found by identity, in C: an edit hashes the
            posts it changed); and by source path, a post that is the very same object
            elsewhere (posts added or removed).
    """
    context = render_context(config)
    if memo is None:
        return [markdown_key(post, context) for post in posts]
    last = memo.get("last")
    if last is not None and last[1] == context and len(last[0]) == len(posts):
        keys = list(last[2])
        for i in compress(range(len(posts)), map(is_not, posts, last[0])):
            keys[i] = markdown_key(posts[i], context)
    else:
        by_rel: dict[str, tuple[Post, str]] = (
            {p.source.rel: (p, k) for p, k in zip(last[0], last[2], strict=True)}
            if last is not None and last[1] == context
            else {}
        )
        keys = []
        for post in posts:
            was = by_rel.get(post.source.rel)
            keys.append(
                was[1] if was is not None and was[0] is post else markdown_key(post, context)
            )
    memo["last"] = (list(posts), context, keys)
    return list(keys)


def templates_text(root: Path, memo: dict[str, Any] | None = None) -> str:
    """Return one digest of every template file's path and text (site and theme), each
    named as `_template_files` names it.

    Args:
        memo: a scratch dictionary (`BuildCache.memo`) keeping each file's text with its
            stat signature, and the last digest: a file whose signature is unchanged, and
            that was last changed `RACY_NS` before it was read (git's "racily clean"
            rule), is not read again, and the same files give the same digest unhashed.
    """
    from postil.cache.manifest import RACY_NS

    memo = memo if memo is not None else {}
    known: dict[str, tuple[tuple[int, int, int, int], str]] = memo.get("files", {})
    files: dict[str, tuple[tuple[int, int, int, int], str]] = {}
    names: list[str] = []
    now = time.time_ns()
    site_templates = root / "templates"
    for directory in template_dirs(root):
        whose = "site" if directory == site_templates else "theme"
        base = directory.as_posix()
        for path, st in _files_under(base):
            signature = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            last = known.get(path)
            if last is None or last[0] != signature:
                racy = max(st.st_mtime_ns, st.st_ctime_ns) >= now - RACY_NS
                text = Path(path).read_text("utf-8", "replace")
                last = ((-1, 0, 0, 0) if racy else signature, text)
            files[path] = last
            names.append(f"{whose}:{path[len(base) + 1 :]}")
    if memo.get("files") == files and memo.get("names") == names:
        digest: str = memo["digest"]
        return digest
    texts = [text for _, text in files.values()]
    digest = fingerprint(*(part for pair in zip(names, texts, strict=True) for part in pair))
    memo.update(files=files, names=names, digest=digest)
    return digest


def _files_under(directory: str) -> list[tuple[str, os.stat_result]]:
    """Return (path, stat) of every file under `directory`, in the order of
    `sorted(Path(directory).glob("**/*"))`: files reached through symlinks count, links to
    directories are not entered."""
    found: list[tuple[list[str], str, os.stat_result]] = []
    stack = [directory]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                try:
                    st = entry.stat()
                except OSError:  # a broken symlink
                    continue
                if stat.S_ISREG(st.st_mode):
                    found.append((entry.path.split("/"), entry.path, st))
    found.sort(key=lambda item: item[0])
    return [(path, st) for _, path, st in found]


def _template_files(root: Path, under: str) -> list[str]:
    """Return the name and text of every file under `under` in the template folders, in
    order: each named by whose folder it is in (the site's, the theme's) and its path there,
    never by its absolute path (the site's folder and the installed theme's, in a virtualenv,
    differ from one checkout or install to the next)."""
    parts = []
    site_templates = root / "templates"
    for directory in template_dirs(root):
        whose = "site" if directory == site_templates else "theme"
        for path in sorted((directory / under).glob("**/*")):
            if path.is_file():
                name = f"{whose}:{path.relative_to(directory).as_posix()}"
                parts += [name, path.read_text("utf-8", "replace")]
    return parts


class PageKeys:
    """The cache keys of a site's pages: what each page's bytes are a function of.

    A page's key covers the templates' text, the site configuration, the page's path and
    template, the site's shape (every post's URL and front matter, in order: lists and
    neighbours; which are previews), and the fingerprint of every post the page shows
    (`PageJob.deps`; all posts when None), which covers its rendered Markdown and reading
    time.

    Args:
        site: the collected site.
        keys: the `markdown_key` of each post by source path (else its HTML is hashed).
        memo: what the last `PageKeys` made (`BuildCache.memo`), or None. A post that is
            the very `RenderedPost` of the last call, with the same key, keeps its
            fingerprint; and while the site's fingerprint is the same, a page whose
            template and dependencies are the same and none of whose posts changed keeps
            its key. So the dev server's rebuild hashes what an edit changed, not the site.
    """

    def __init__(
        self, site: Site, keys: Mapping[str, str], memo: dict[str, Any] | None = None
    ) -> None:
        memo = memo if memo is not None else {}
        shown = (*site.posts, *site.pages)
        contents = [keys.get(r.post.source.rel) for r in shown]
        last: tuple[tuple[RenderedPost, ...], list[str | None], list[tuple[str, str]]] = memo.get(
            "order", ((), [], [])
        )
        if len(last[0]) == len(shown):  # the same places: look at the posts that changed
            entries = list(last[2])
            kept = map(and_, map(is_, shown, last[0]), map(eq, contents, last[1]))
            redo = [i for i, same in enumerate(kept) if not same]
            was = {i: last[0][i].post.url for i in redo}
            changed: set[str] = set()
        else:  # posts added or removed: match them by URL
            before = {r.post.url: (r, c, e) for r, c, e in zip(*last, strict=True)}
            entries = [before.get(r.post.url, (None, None, ("", "")))[2] for r in shown]
            redo = [
                i
                for i, (r, content) in enumerate(zip(shown, contents, strict=True))
                if before.get(r.post.url, (None,))[0] is not r or before[r.post.url][1] != content
            ]
            was = {i: shown[i].post.url for i in redo}
            changed = set(before) - {r.post.url for r in shown}
        for i in redo:
            r = shown[i]
            post = r.post
            content = contents[i] or fingerprint(repr(r.content))
            meta = repr(post.meta)
            fp = fingerprint(
                post.source.rel, post.output_rel, meta, content, str(r.reading_minutes)
            )
            if entries[i][0] != fp or was[i] != post.url:
                changed |= {was[i], post.url}
            entries[i] = (fp, f"{post.url} {meta}")
        urls = [r.post.url for r in shown]
        self.posts: dict[str, str] = dict(zip(urls, [e[0] for e in entries], strict=True))
        shape = [entry[1] for entry in entries]
        templates = templates_text(site.config.root, memo.setdefault("templates", {}))
        # Which posts are previews changes with the clock alone (a future post's date passes).
        previews = " ".join(sorted(site.previews))
        around = (__version__, config_digest(site.config), templates, previews)
        if memo.get("around") == around and memo.get("shape") == shape:
            self.site = memo["site"]
        else:
            self.site = fingerprint(*around, *shape)
        alike = memo.get("site") == self.site and len(last[0]) == len(shown)
        self.every_post = (
            memo["every"] if alike and not changed else fingerprint(*self.posts.values())
        )
        self._changed = frozenset(changed) if alike else None
        self._last: dict[str, tuple[str, frozenset[str] | None, str]] = memo.get("keys", {})
        self._keys: dict[str, tuple[str, frozenset[str] | None, str]] = {}
        self._memo = memo
        self.looked_at: list[int] | None = None
        """The indices of the specs whose key the last `keys` call made again (the pages
        that show a changed post), or None: it made every key (or was not called)."""
        memo.update(
            order=(shown, contents, entries), shape=shape, around=around, site=self.site,
            every=self.every_post, keys=self._keys,
        )  # fmt: skip

    @property
    def changed(self) -> frozenset[str] | None:
        """Return the URLs of the posts whose fingerprint changed since the last
        `PageKeys` over the same site shape, or None when the shape changed (or there was
        none): then every page may show something new."""
        return self._changed

    def keys(self, specs: Sequence[PageSpec]) -> list[str]:
        """Return the key of each of `specs` (`key`), in order.

        Asked for the very `specs` of the last call (the layout is the same), right after
        that call's keys were made, only the pages that show a post that changed since
        (`PageJob.deps` meeting the changed URLs, or None) are looked at; every other
        keeps its key (`key` would give it the same: same template, same deps, none of its
        posts changed), found by index rather than page by page.
        """
        last = self._memo.get("keys of")
        changed = self._changed
        if last is None or last[0] is not specs or last[1] is not self._last or changed is None:
            found = [self.key(spec) for spec in specs]
            index = _dependents(specs)
            self.looked_at = None
        else:
            found, index = list(last[2]), last[3]
            self._keys.update(self._last)
            redo = set(index[None]) if changed else set()
            for url in changed:
                redo.update(index.get(url, ()))
            self.looked_at = sorted(redo)
            for i in self.looked_at:
                found[i] = self.key(specs[i])
        self._memo["keys of"] = (specs, self._keys, found, index)
        return found

    def key(self, job: PageJob | PageSpec) -> str:
        """Return the key of one `PageJob` (or its `PageSpec`)."""
        last, changed = self._last.get(job.rel), self._changed
        if last is not None and changed is not None and last[:2] == (job.template, job.deps):
            if not changed if job.deps is None else job.deps.isdisjoint(changed):
                self._keys[job.rel] = last
                return last[2]
        deps = (
            self.every_post
            if job.deps is None
            else " ".join(sorted(self.posts.get(url, url) for url in job.deps))
        )
        key = fingerprint(self.site, job.rel, job.template, deps)
        self._keys[job.rel] = (job.template, job.deps, key)
        return key


def _dependents(specs: Sequence[PageSpec]) -> dict[str | None, list[int]]:
    """Return the indices of `specs` by each URL a page shows (None: the pages that show
    every post)."""
    index: dict[str | None, list[int]] = {None: []}
    for i, spec in enumerate(specs):
        for url in spec.deps if spec.deps is not None else (None,):
            index.setdefault(url, []).append(i)
    return index
