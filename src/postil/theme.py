"""Where the theme lives, and the Jinja2 environment that renders it.

The default theme is the repository's `templates/` and `static/`; in a wheel they ship as
package data under `postil/theme/`. A site's own `templates/` and `static/` override the
default theme file by file (a Jinja2 `ChoiceLoader`, as DESIGN.md says).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.bccache

from postil.errors import ContentError, Location
from postil.symlink import broken_symlink

_PACKAGE_DIR = Path(__file__).resolve().parent

PAGE_IDS = {
    "main": "templates/base.html",
    "toc-title": "templates/post.html",
    "cite-this-post": "templates/partials/cite.html",
    "cite-bibtex": "templates/partials/cite.html",
    "bibtex-entry": "templates/partials/cite.html",
    "cite-apa": "templates/partials/cite.html",
    "apa-entry": "templates/partials/cite.html",
}
"""The ids the default theme's page templates put around a post's body, and where: a post
may not define them again (`postil.markdown.ids`), headings avoid them, and links may
target them (`postil.anchors`)."""


@lru_cache(maxsize=1)
def default_theme_dir() -> Path:
    """Return the directory holding the default theme's `templates/` and `static/`.

    An installed wheel has them in `postil/theme/`; a source checkout (editable install)
    has them at the repository root, two levels above `src/postil/`.

    Raises:
        FileNotFoundError: if neither place has a `templates/base.html` (a broken install).
    """
    for candidate in (_PACKAGE_DIR / "theme", _PACKAGE_DIR.parent.parent):
        if (candidate / "templates" / "base.html").is_file():
            return candidate
    raise FileNotFoundError(f"postil's default theme is missing (looked under {_PACKAGE_DIR})")


def template_dirs(site_root: Path | None) -> list[Path]:
    """Return the template directories, the site's first so its files override the theme's."""
    dirs = []
    if site_root is not None and (site_root / "templates").is_dir():
        dirs.append(site_root / "templates")
    default = default_theme_dir() / "templates"
    if default not in dirs:
        dirs.append(default)
    return dirs


def static_dirs(site_root: Path | None) -> list[Path]:
    """Return the static directories, the theme's first; a site file of the same path wins."""
    dirs = [default_theme_dir() / "static"]
    if site_root is not None and (site_root / "static").is_dir():
        site_static = site_root / "static"
        if site_static.resolve() != dirs[0].resolve():
            dirs.append(site_static)
    return dirs


def broken_template_links(root: Path) -> list[ContentError]:
    """Return an error for each symlink under the site's `templates/` that loops or names
    nothing (`postil.symlink.broken_symlink`), at the link: Jinja2's loader skips
    such a file, so the theme's template of that name was used without a word."""
    errors: list[ContentError] = []
    folder = root / "templates"
    broken = broken_symlink(folder, root) if folder.is_symlink() else None
    if broken is not None:
        errors.append(ContentError(broken, Location("templates")))
    stack = [folder]
    while stack:
        try:
            entries = sorted(os.scandir(stack.pop()), key=lambda entry: entry.name)
        except OSError:  # no templates/, or not a directory
            continue
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                broken = broken_symlink(path, root)
                if broken is not None:
                    errors.append(ContentError(broken, Location(path.relative_to(root).as_posix())))
            elif entry.is_dir():
                stack.append(path)
    return errors


def create_template_env(
    site_root: Path | None, bytecode_dir: Path | None = None
) -> jinja2.Environment:
    """Return a Jinja2 environment over the site's and the default theme's templates.

    Autoescaping is on for every template and undefined names raise (`StrictUndefined`),
    so a typo in a template fails the build instead of printing nothing. A loaded template
    is not checked against its file again (`auto_reload=False`: Jinja2 would `stat` it on
    every `get_template`, five times a page): a build makes a new environment whenever a
    template's text changed (`postil.build._template_env`, keyed by `templates_text`).

    Args:
        bytecode_dir: where compiled templates are kept between builds
            (`postil.cache.BuildCache.bytecode_dir`; Jinja2 checks each against its
            template's source), or None to compile every template afresh.
    """
    loader = jinja2.ChoiceLoader(
        [jinja2.FileSystemLoader(str(d)) for d in template_dirs(site_root)]
    )
    return jinja2.Environment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=_BytecodeCache(str(bytecode_dir)) if bytecode_dir else None,
    )


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja2's file bytecode cache that treats a directory it cannot use (made read-only,
    deleted during the build) as a miss: compiled templates are an optimisation only."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Load the bucket's code if the file can be read; otherwise leave it empty."""
        try:
            super().load_bytecode(bucket)
        except OSError:
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Write the bucket's code if the directory takes it; otherwise skip it."""
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass
