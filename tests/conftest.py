"""Repository-wide fixtures: where the repo and shared/ are, a local HTTP server, the build.

Helpers live in `tests/support/` (importable as `support.*` because pytest puts `tests/` on
sys.path for this conftest); the fixtures here hand them to tests. Test modules never import
each other: what two of them share belongs in `support/`.
Test folders (`pipeline/`, `math/`, …) have no `__init__.py` (a package `math` would shadow the
standard library's), so test module names must be unique across `tests/`; pytest stops at a clash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from support import build, package, web
from support.sites import make_site

from postil.build import BuildOptions
from postil.build import build as build_now


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """Return the absolute path of the repository checkout (the directory holding tests/)."""
    return web.REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir(repo_root: Path) -> Path:
    """Return `../shared` beside the checkout (seed posts, math corpus); skip if absent."""
    path = repo_root.parent / "shared"
    if not path.is_dir():
        pytest.skip(f"shared/ not found at {path}; it is laid beside the checkout")
    return path


@pytest.fixture(scope="session")
def postil_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the wheel of this checkout, built once per test process with `python -m build`
    (`support.package.build_wheel`)."""
    return package.build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture
def serve_dir() -> Iterator[Callable[..., str]]:
    """Yield `serve(directory, base_path="/") -> base URL`, serving over 127.0.0.1 HTTP.

    Every server started through it is shut down, threads joined, when the test ends; see
    `support.web.serve_dir` for the URL rules (404 outside `base_path` and for `..`).
    """
    with ExitStack() as servers:

        def serve(directory: Path, base_path: str = "/") -> str:
            return servers.enter_context(web.serve_dir(directory, base_path))

        yield serve


@pytest.fixture(scope="module")
def serve_dir_module() -> Iterator[Callable[..., str]]:
    """`serve_dir` for a module's tests: the servers stay up until the module's last test
    (for a site built once in a module-scoped fixture)."""
    with ExitStack() as servers:

        def serve(directory: Path, base_path: str = "/") -> str:
            return servers.enter_context(web.serve_dir(Path(directory), base_path))

        yield serve


@pytest.fixture(scope="module")
def served_site(tmp_path_factory, serve_dir_module) -> Callable[..., str]:
    """Return `site(name, posts, **options) -> base URL`: a site of `posts` (file name ->
    text, as `support.sites.make_site` takes them) built once in this process with
    `BuildOptions(**options)` and served until the module's last test."""

    def site(name: str, posts: dict[str, str], **options: object) -> str:
        root = make_site(tmp_path_factory.mktemp(name) / "site", posts)
        build_now(BuildOptions(root=root, **options))  # type: ignore[arg-type]
        return serve_dir_module(root / "_site")

    return site


@pytest.fixture
def build_site() -> Callable[..., build.BuildResult]:
    """Return `build(src_dir, out_dir, *args) -> BuildResult(returncode, stdout, stderr)`.

    It runs `python -m postil build --out out_dir *args` in `src_dir`; see
    `support.build.build_site`.
    """
    return build.build_site


@pytest.fixture(autouse=True)
def pages_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Splice every post's body into its page as pieces (`postil.pages.SPLICE_WHOLE_BYTES`
    0), so the path a huge post's page takes is the one every test's pages take (builds in
    a child process keep the default: pages up to 1 MiB joined)."""
    import postil.pages

    monkeypatch.setattr(postil.pages, "SPLICE_WHOLE_BYTES", 0)
