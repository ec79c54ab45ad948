"""bookdown's theorem fences (`postil.markdown.myst`, `fencekind.THEOREM_ENGINES`): what the
fixtures in `tests/fixtures/myst.md` cannot show, the warning of one never closed."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def test_an_unclosed_theorem_fence_runs_to_the_end_with_a_warning_at_its_line():
    state = RenderState(path="post.Rmd")
    html = render_markdown(
        create_markdown(), "Intro.\n\n```{theorem, pyth}\nFor a.\n\nText.\n", state
    ).html
    assert html.endswith("<p>Text.</p>\n</div>\n")
    assert '<div id="pyth" class="theorem theorem-thm">' in html
    assert [(str(d).split(": warning: ")[0], d.message) for d in state.diagnostics] == [
        (
            "post.Rmd:3:1",
            "`{theorem}` is never closed, so everything after it is inside it; add a line ``` "
            "where it ends",
        )
    ]
