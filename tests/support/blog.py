"""Small generated blogs built in-process at a fixed time: the publishing and build tests' sites.

`make_site` writes a site whose base URL is a project site (`BASE`); `build_into` and
`build_site` build it with `postil.build.build` at `NOW`, so dates never depend on the clock.
(`support.sites.make_site` is the smallest valid site instead, for the content tests.)
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml
from lxml import html as lxml_html

from postil.build import BuildOptions, build

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=timezone.utc)
BASE = "https://example.github.io/blog/"


def post_text(title: str, date: str | None, body: str = "Some text.\n", **fields: Any) -> str:
    """Return a post file: YAML front matter (written by PyYAML) and `body`."""
    meta: dict[str, Any] = {"title": title, **fields}
    if date is not None:
        meta["date"] = date
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n\n" + body


def make_site(root: Path, posts: dict[str, str], config: str = "", pages=None) -> Path:
    """Write a site: postil.yaml (base URL `BASE`, plus `config` lines), posts and pages."""
    (root / "content/posts").mkdir(parents=True)
    (root / "postil.yaml").write_text(
        f"title: Test site\nauthor: Ada Lovelace\nbase_url: {BASE}\n{config}", encoding="utf-8"
    )
    for name, text in posts.items():
        (root / "content/posts" / name).write_text(text, encoding="utf-8")
    for name, text in (pages or {}).items():
        (root / "content" / name).write_text(text, encoding="utf-8")
    return root


def build_into(root: Path, now: datetime = NOW, **options: Any) -> Path:
    """Build the site at `root` in-process at time `now`; return the output directory."""
    out = root / "_site"
    build(BuildOptions(root=root, out_dir=out, **options), now=now)
    return out


def build_site(root, **options):
    """Build the site at `root` in-process at `NOW` with `BuildOptions(**options)`."""
    return build(BuildOptions(root=root, **options), now=NOW)


def page(out: Path, rel: str) -> Any:
    """Parse the built file `out/rel` with lxml's HTML parser; return its root element."""
    return lxml_html.fromstring((out / rel).read_bytes())
