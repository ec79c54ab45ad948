"""A formula that is only an equation reference (`$\\eqref{x}$`, `$(\\ref{x})$`) is a link in
prose, not a link inside `<math>`: axe-core's `nested-interactive` (the `math` role's
content is presentational) reported every one (session 43)."""

from __future__ import annotations

from support.blog import build_into, make_site, post_text
from support.web import run_axe, serve_dir

BODY = r"""
$$
a = b \label{eq:a}
$$

As $\eqref{eq:a}$ shows, LaTeX's $(\ref{eq:a})$ and \(\eqref{eq:a}\) too.

<div>In raw HTML: $\eqref{eq:a}$.</div>
"""


def test_a_formula_that_only_refers_is_a_prose_link_that_axe_finds_clean(page, tmp_path):
    root = make_site(tmp_path / "site", {"r.md": post_text("Refs", "2026-01-02", BODY)})
    out = build_into(root)
    with serve_dir(out, "/blog/") as local:
        page.goto(local + "posts/r/", wait_until="networkidle")
        links = page.evaluate(
            """() => [...document.querySelectorAll('.post-body a.eqref')]
                .map(a => [a.textContent, a.closest('math') === null])"""
        )
        assert links == [["(1)", True], ["1", True], ["(1)", True], ["(1)", True]]
        assert page.locator(".post-body math a[href]").count() == 0
        assert run_axe(page) == []
        page.locator(".post-body a.eqref").first.click()
        assert page.evaluate("location.hash") == "#eq-a"
