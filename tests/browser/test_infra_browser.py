"""The validators and the page fixture catch what they must, and pass what is clean."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.web import run_axe, run_vnu

VALID = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Clean page</title></head>
<body>
<main>
<h1>Clean page</h1>
<form><label for="q">Search</label> <input id="q" name="q" type="search"></form>
</main>
</body>
</html>
"""

# Unclosed <span> inside <p>, a stray </div>, a duplicate id and no <title>.
INVALID = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"></head>
<body><p id="x"><span>text</p></div><p id="x">again</p></body>
</html>
"""

UNLABELED = VALID.replace('<label for="q">Search</label> ', "")


@pytest.mark.slow
def test_run_vnu_flags_only_the_invalid_file(tmp_path: Path) -> None:
    valid, invalid, notes = tmp_path / "valid.html", tmp_path / "invalid.html", tmp_path / "n.txt"
    valid.write_text(VALID, encoding="utf-8")
    invalid.write_text(INVALID, encoding="utf-8")
    notes.write_text("not html <<<", encoding="utf-8")
    errors = run_vnu([valid, invalid, notes])
    assert errors, "vnu found nothing wrong in a page with a stray </div> and no <title>"
    assert {e["url"].rsplit("/", 1)[-1] for e in errors} == {"invalid.html"}
    messages = " ".join(e["message"] for e in errors)
    assert "title" in messages and "Duplicate ID" in messages


@pytest.mark.slow
def test_run_vnu_passes_a_valid_file(tmp_path: Path) -> None:
    valid = tmp_path / "valid.html"
    valid.write_text(VALID, encoding="utf-8")
    assert run_vnu([valid]) == []


@pytest.mark.slow
def test_run_axe_reports_an_unlabeled_input(page, serve_dir, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(UNLABELED, encoding="utf-8")
    page.goto(serve_dir(tmp_path, "/blog/"))
    violations = run_axe(page)
    assert "label" in {v["id"] for v in violations}


@pytest.mark.slow
def test_run_axe_finds_nothing_on_a_clean_page(page, serve_dir, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(VALID, encoding="utf-8")
    page.goto(serve_dir(tmp_path, "/blog/"))
    assert run_axe(page) == []


@pytest.mark.expect_page_errors
def test_page_records_uncaught_exceptions_and_console_errors(
    page, page_errors: list[str], serve_dir, tmp_path: Path
) -> None:
    script = '<script>console.error("logged"); throw new Error("boom");</script>'
    (tmp_path / "index.html").write_text(VALID.replace("</main>", script + "</main>"))
    page.goto(serve_dir(tmp_path))
    page.wait_for_timeout(100)
    assert "console: logged" in page_errors
    assert any(e.startswith("pageerror:") and "boom" in e for e in page_errors)


def test_page_loads_a_clean_page_without_errors(
    page, page_errors: list[str], serve_dir, tmp_path: Path, screenshot_dir: Path
) -> None:
    (tmp_path / "index.html").write_text(VALID, encoding="utf-8")
    page.goto(serve_dir(tmp_path, "/blog/"))
    assert page.locator("h1").inner_text() == "Clean page"
    shot = screenshot_dir / "infra-clean-page.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert page_errors == []
