"""`postil init`: start a site; `postil new "Title"`: start a post, its front matter filled in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

from postil import __version__
from postil.config import check_base_url, load_config
from postil.content.posts import title_slug
from postil.errors import ContentError, Location, OutputError

POSTS_DIR = Path("content") / "posts"


def front_matter(title: str, now: datetime) -> str:
    """Return the text of a new post: front matter with title, date and `draft: true`.

    The title is written by PyYAML (`safe_dump`), so a title such as `no`, `1.10` or
    `Why: a note` is quoted and reads back as the same text. The date is `now` to the
    minute with its UTC offset, which `postil.content.frontmatter` reads back exactly.
    """
    title_line = yaml.safe_dump({"title": title}, allow_unicode=True, width=10_000).strip()
    date = now.isoformat(timespec="minutes")  # 2026-03-05T14:30+01:00
    return f"---\n{title_line}\ndate: {date}\ndraft: true\n---\n\n"


def new_post(root: Path, title: str, now: datetime | None = None) -> Path:
    """Write `content/posts/<slug>.md` for `title` and return its path.

    Args:
        root: the site directory (holds postil.yaml; its `timezone` dates the post).
        title: the post's title; the slug is made from it (`postil.content.posts.title_slug`:
            math as readable text, no TeX).
        now: the post's date (timezone-aware); default: the current time in the site's zone.

    Raises:
        ConfigError: postil.yaml is missing or invalid.
        ContentError: the title gives no slug, or a post with that slug already exists
            (as `<slug>.md` or `<slug>/index.md`); nothing is overwritten.
        OutputError: the file cannot be written.
    """
    config = load_config(root)
    slug = title_slug(title)
    if not slug:
        raise ContentError(f"cannot make a file name from the title {title!r}; use letters")
    when = now or datetime.now(ZoneInfo(config.timezone))
    path = root / POSTS_DIR / f"{slug}.md"
    for existing in (path, root / POSTS_DIR / slug / "index.md"):
        if existing.exists():
            rel = existing.relative_to(root).as_posix()
            raise ContentError(
                "a post with this slug already exists; choose another title", Location(rel)
            )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as f:
            f.write(front_matter(title, when))
    except FileExistsError as e:
        raise ContentError(f"{path.name} already exists; choose another title") from e
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror}") from e
    return path


STARTER_DIR = Path(__file__).resolve().parent / "starter"
"""The files `postil init` writes, shipped inside the package (and so inside the wheel)."""

STARTER_FILES = (
    ("postil.yaml", "postil.yaml"),
    ("requirements.txt", "requirements.txt"),
    (".gitignore", "gitignore"),
    (".github/workflows/pages.yml", "pages.yml"),
    ("content/about.md", "about.md"),
    ("content/posts/welcome/index.md", "welcome.md"),
    ("content/posts/welcome/softmax.svg", "softmax.svg"),
)
"""(path in the new site, file in `STARTER_DIR`), in the order they are written."""

PLACEHOLDER_BASE_URL = "https://example.invalid/"
"""The base URL of a site started without `--base-url`: `.invalid` is the top-level domain
reserved never to resolve (RFC 2606, section 2), and the build warns while it is set."""

_FIELD = re.compile(r"\$(title|author|base_url|date|requirement|search)\b")


@dataclass(frozen=True)
class SiteSettings:
    """What `postil init` writes into a new site.

    Attributes:
        title: the site's title.
        author: the default author of posts.
        base_url: where the site will be published, or `PLACEHOLDER_BASE_URL`.
        today: the date of the first post (ISO 8601, `YYYY-MM-DD`).
    """

    title: str
    author: str
    base_url: str = PLACEHOLDER_BASE_URL
    today: str = ""


def init_site(root: Path, settings: SiteSettings, force: bool = False) -> list[Path]:
    """Write a working site into `root` (made if missing); return the files written.

    The site: `postil.yaml`, a first post showing math, notes, a margin note, code with a
    caption and a figure, an about page, `.gitignore`, `requirements.txt` pinning this
    postil release, and `.github/workflows/pages.yml` (build and publish on GitHub Pages).

    Args:
        root: the new site's directory.
        settings: the values written into `postil.yaml` and the first post.
        force: write only the files that are missing instead of refusing.

    Raises:
        ConfigError: the base URL is not an absolute http(s) URL.
        ContentError: without `force`, a starter file already exists (all are named;
            nothing is written).
        OutputError: a file cannot be written.
    """
    values = _field_values(settings)
    existing = [rel for rel, _ in STARTER_FILES if (root / rel).exists()]
    if existing and not force:
        raise ContentError(
            f"{root} already has {', '.join(existing)}; nothing was written. Use another "
            "directory, or --force to add only the missing files"
        )
    written = []
    for rel, name in STARTER_FILES:
        if rel in existing:
            continue
        text = _FIELD.sub(lambda m: values[m[1]], (STARTER_DIR / name).read_text("utf-8"))
        written.append(_write_new(root / rel, text))
    return written


def _field_values(settings: SiteSettings) -> dict[str, str]:
    """Return the text each `$field` of the starter files is replaced by (YAML-quoted
    where it lands in YAML)."""

    def scalar(value: str) -> str:
        text = yaml.safe_dump(value, allow_unicode=True, width=10_000)
        return text.removesuffix("...\n").strip()

    return {
        "title": scalar(settings.title),
        "author": scalar(settings.author),
        "base_url": scalar(check_base_url(settings.base_url)),
        "date": settings.today or datetime.now(timezone.utc).date().isoformat(),
        "requirement": f"postil[search]=={__version__}",
        **_search_values(),
    }


def _search_values() -> dict[str, str]:
    """Return `search` on when Pagefind is installed here, so the new site builds with what
    is installed, else off with how to turn it on. The Pages workflow installs
    `postil[search]` either way (`requirement`), so turning it on later builds there too."""
    from postil.search import pagefind_installed

    if pagefind_installed() is not None:
        return {"search": "true"}
    return {"search": "false  # Pagefind was not installed when this site was made"}


def _write_new(path: Path, text: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except FileExistsError as e:  # made between the check and now
        raise ContentError(f"{path} appeared while writing; nothing overwritten") from e
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror}") from e
    return path


def default_author(root: Path) -> str:
    """Return the author of a new site: git's `user.name` (as `git commit` would sign), else
    the login name."""
    import getpass
    import subprocess

    try:
        done = subprocess.run(
            ["git", "config", "user.name"],
            cwd=root if root.is_dir() else None,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "Anonymous"
