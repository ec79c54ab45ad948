"""Diagnostics read the same from every command: relative paths, the source line, a caret."""

from __future__ import annotations

from postil.errors import Diagnostic, Location, Severity, TemplateError, as_diagnostic, located


def test_a_diagnostic_gets_its_source_line_and_a_relative_path(tmp_path):
    post = tmp_path / "content" / "posts" / "a.md"
    post.parent.mkdir(parents=True)
    post.write_bytes("\ufeff---\r\ntitle: A\r\ndate: not a date\r\n---\r\n".encode())
    found = Diagnostic(Severity.ERROR, Location(str(post), 3, 7), "not a date")
    shown = located(found, tmp_path)
    assert shown.location == Location("content/posts/a.md", 3, 7)
    assert shown.report() == (
        "content/posts/a.md:3:7: not a date\n    date: not a date\n          ^"
    )


def test_a_diagnostic_outside_the_site_or_without_a_line_is_kept(tmp_path):
    theme = Diagnostic(Severity.ERROR, Location("/usr/share/theme/post.html", 2), "bad")
    assert located(theme, tmp_path) == theme
    error = as_diagnostic(TemplateError("cannot load template x.html"))
    assert located(error, tmp_path) == error and str(error) == "<site>: cannot load template x.html"
