"""The shared test infrastructure does what it claims: the local server and tool lookups."""

from __future__ import annotations

import http.client
import threading
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlsplit
from urllib.request import urlopen

import pytest
from support import web
from support.build import build_site


def _site(tmp_path: Path) -> Path:
    """Lay out tmp_path/site/{index.html, notes/a.txt, empty/} beside tmp_path/secret.txt."""
    site = tmp_path / "site"
    (site / "notes").mkdir(parents=True)
    (site / "empty").mkdir()
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (site / "notes" / "a.txt").write_text("note a", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("do not serve", encoding="utf-8")
    return site


def _get(url: str) -> tuple[int, str]:
    """Fetch `url`, following redirects; return (status, body), the body empty on an error."""
    try:
        with urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except HTTPError as e:
        return e.code, ""


def _raw_get(base_url: str, raw_path: str) -> int:
    """Send `GET raw_path` exactly as written (no client normalisation); return the status."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", raw_path)
        return connection.getresponse().status
    finally:
        connection.close()


def test_serve_dir_serves_files_under_the_base_path(tmp_path: Path) -> None:
    with web.serve_dir(_site(tmp_path), "/blog/") as base_url:
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/blog/")
        assert _get(base_url) == (200, "<p>home</p>")
        assert _get(base_url + "notes/a.txt") == (200, "note a")


def test_serve_dir_answers_404_outside_the_base_path(tmp_path: Path) -> None:
    with web.serve_dir(_site(tmp_path), "blog") as base_url:
        root = base_url.removesuffix("blog/")
        assert _get(root + "index.html")[0] == 404
        assert _get(root + "blogindex.html")[0] == 404
        assert _get(base_url + "missing.html")[0] == 404


def test_serve_dir_refuses_dot_dot_traversal(tmp_path: Path) -> None:
    with web.serve_dir(_site(tmp_path), "/blog/") as base_url:
        assert _raw_get(base_url, "/blog/../secret.txt") == 404
        assert _raw_get(base_url, "/blog/%2e%2e/secret.txt") == 404
        assert _raw_get(base_url, "/blog/notes/..%2f..%2fsecret.txt") == 404
        assert _raw_get(base_url, "/blog/notes/a.txt") == 200


def test_serve_dir_redirects_the_bare_prefix_and_hides_directory_listings(
    tmp_path: Path,
) -> None:
    with web.serve_dir(_site(tmp_path), "/blog/") as base_url:
        assert _get(base_url.removesuffix("/")) == (200, "<p>home</p>")
        assert _get(base_url + "empty/")[0] == 404
        assert _get(base_url + "notes")[0] == 404


def test_serve_dir_at_the_root_serves_everything_in_the_directory(tmp_path: Path) -> None:
    with web.serve_dir(_site(tmp_path)) as base_url:
        assert base_url.endswith(":" + str(urlsplit(base_url).port) + "/")
        assert _get(base_url + "notes/a.txt") == (200, "note a")
        assert _raw_get(base_url, "/../secret.txt") == 404


def test_serve_dir_stops_its_threads_and_port_on_exit(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    with web.serve_dir(_site(tmp_path), "/blog/") as base_url:
        assert _get(base_url)[0] == 200
        assert set(threading.enumerate()) - before
    assert set(threading.enumerate()) == before
    with pytest.raises(OSError):
        _get(base_url)


def test_serve_dir_rejects_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        with web.serve_dir(tmp_path / "nowhere"):
            pass


def test_serve_dir_fixture_serves_several_sites_at_once(serve_dir, tmp_path: Path) -> None:
    first = serve_dir(_site(tmp_path))
    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text("<p>other</p>", encoding="utf-8")
    second = serve_dir(other, "/docs/")
    assert first != second
    assert _get(first) == (200, "<p>home</p>")
    assert _get(second) == (200, "<p>other</p>")


def test_missing_tool_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no such tool"):
        web.unavailable("no such tool")


def test_missing_tool_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no such tool.*CI is set"):
        web.unavailable("no such tool")


def test_run_vnu_refuses_an_empty_file_list() -> None:
    with pytest.raises(ValueError, match="at least one file"):
        web.run_vnu([])


def test_build_site_refuses_a_missing_source_directory(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        build_site(tmp_path / "nowhere", tmp_path / "out")


def test_repo_root_holds_this_checkout(repo_root: Path) -> None:
    assert (repo_root / "pyproject.toml").is_file()
    assert Path(__file__).resolve().is_relative_to(repo_root)
