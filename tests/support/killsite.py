"""The site the kill tests build (a killed build, a killed worker) and a digest of an output."""

from __future__ import annotations

import hashlib
from pathlib import Path


def write_kill_site(root: Path, posts: int, marker: str = "first") -> Path:
    """Write a site of `posts` posts with notes, math and code; `marker` varies the text."""
    (root / "content/posts").mkdir(parents=True, exist_ok=True)
    (root / "postil.yaml").write_text("title: K\nauthor: A\nbase_url: https://x.org/k/\n")
    for i in range(posts):
        (root / f"content/posts/post-{i:04d}.md").write_text(
            f"---\ntitle: Post {i} {marker}\ndate: 2024-01-{i % 28 + 1:02d}\ntags: [t{i % 7}]\n"
            f"---\n\n## Section {marker}\n\nText[^n] with $x_{i}^2$ math.\n\n"
            f"[^n]: A note.\n\n```python\nprint({i})\n```\n"
        )
    return root


def tree_digest(directory: Path) -> dict[str, str]:
    """Return relative path -> SHA-256 of every file under `directory` (symlinks as targets)."""
    return {
        p.relative_to(directory).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }
