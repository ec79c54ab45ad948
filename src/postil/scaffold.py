"""`postil new "Title"`: start a post with its front matter filled in."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import yaml

from postil.config import load_config
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
