"""Write small postil sites for tests: a `postil.yaml`, posts and pages."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from postil.config import load_config
from postil.errors import ConfigFailed, Diagnostic

CONFIG = "title: T\nauthor: A\nbase_url: https://x.org/\n"
"""The smallest valid site configuration (the three required keys)."""


def make_site(
    root: Path,
    posts: Mapping[str, str | bytes],
    config: str = CONFIG,
    pages: Mapping[str, str] | None = None,
) -> Path:
    """Write a site at `root` and return `root`.

    Args:
        root: the site directory (created with its parents).
        posts: file paths under `content/posts/` (subdirectories allowed) -> text, or bytes
            written as they are (for encoding tests).
        config: the text of `postil.yaml`.
        pages: file paths under `content/` -> text.
    """
    (root / "content/posts").mkdir(parents=True, exist_ok=True)
    (root / "postil.yaml").write_text(config, encoding="utf-8")
    files = {f"posts/{rel}": data for rel, data in posts.items()} | dict(pages or {})
    for rel, data in files.items():
        path = root / "content" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    return root


def config_problems(root: Path) -> list[Diagnostic]:
    """Return every problem `load_config` reports for the site at `root` (it must fail with
    `ConfigFailed`), in file order."""
    with pytest.raises(ConfigFailed) as failed:
        load_config(root)
    return list(failed.value.diagnostics)
