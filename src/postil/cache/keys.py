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
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from postil import __version__
from postil.theme import template_dirs

if TYPE_CHECKING:
    from postil.model import Post, Site, SiteConfig
    from postil.pages import PageJob

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
    bibliography and citation style (the works it cites are checked like links), and the
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
    titles = repr((meta.title, meta.title_at, meta.subtitle, meta.subtitle_at))
    citing = repr((meta.bibliography, meta.citation_style))
    return fingerprint(
        context, post.source.rel, str(post.body_line), repr(meta.macros), titles, citing, body
    )


def markdown_keys(config: SiteConfig, posts: Sequence[Post]) -> list[str]:
    """Return the `markdown_key` of every post, in order (the context is hashed once)."""
    context = render_context(config)
    return [markdown_key(post, context) for post in posts]


def templates_text(root: Path) -> str:
    """Return one digest of every template file's path and text (site and theme)."""
    return fingerprint(*_template_files(root, ""))


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
    """

    def __init__(self, site: Site, keys: Mapping[str, str]) -> None:
        self.posts: dict[str, str] = {}
        shape = []
        for r in (*site.posts, *site.pages):
            post = r.post
            content = keys.get(post.source.rel) or fingerprint(repr(r.content))
            meta = repr(post.meta)  # once: a `FrontMatter`'s repr is most of the cost here
            self.posts[post.url] = fingerprint(
                post.source.rel, post.output_rel, meta, content, str(r.reading_minutes)
            )
            shape.append(f"{post.url} {meta}")
        templates = templates_text(site.config.root)
        # Which posts are previews changes with the clock alone (a future post's date passes).
        previews = " ".join(sorted(site.previews))
        config = config_digest(site.config)
        self.site = fingerprint(__version__, config, templates, previews, *shape)
        self.every_post = fingerprint(*self.posts.values())

    def key(self, job: PageJob) -> str:
        """Return the key of one `PageJob`."""
        deps = (
            self.every_post
            if job.deps is None
            else " ".join(sorted(self.posts.get(url, url) for url in job.deps))
        )
        return fingerprint(self.site, job.rel, job.template, deps)
