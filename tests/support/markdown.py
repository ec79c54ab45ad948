"""Rendering a post's Markdown body as the build does, for the plugins' unit tests."""

from __future__ import annotations

from postil.markdown import create_markdown, render_markdown
from postil.markdown.state import RenderState


def render_post(text: str) -> tuple[str, list[str]]:
    """Render `text` as the body of `post.md`; return its HTML and the first line of each
    diagnostic (`path:line:col: message`)."""
    state = RenderState(path="post.md")
    state.source_lines = text.split("\n")
    html = render_markdown(create_markdown(), text, state).html
    return html, [str(d).split("\n")[0] for d in state.diagnostics]
