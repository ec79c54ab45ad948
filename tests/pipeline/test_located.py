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


def test_an_excerpt_of_a_long_line_is_cut_around_its_column_with_the_caret_under_it():
    line = "x" * 500 + "<T>" + "y" * 500  # a minified line: thousands of warnings printed it
    found = Diagnostic(Severity.WARNING, Location("a.md", 3, 501), "m", line).report()
    _, excerpt, caret = found.split("\n")
    assert excerpt.startswith("    …") and excerpt.endswith("…") and len(excerpt) <= 4 + 162
    assert excerpt[caret.index("^") : caret.index("^") + 3] == "<T>"
    short = Diagnostic(Severity.WARNING, Location("a.md", 3, 2), "m", "ab").report()
    assert short == "a.md:3:2: warning: m\n    ab\n     ^"
