"""A root path written with the project site's base path (`/blog/posts/b/`), which postil
writes before every root path itself, is told to leave it out, naming the path to write
(session 44: the warning said only that nothing was published at `/blog/posts/b/`)."""

from __future__ import annotations

from support.blog import build_site, make_site, post_text


def warnings_of(tmp_path, body: str) -> list[str]:
    posts = {"a.md": post_text("A", "2026-01-01", body), "b.md": post_text("B", "2026-01-02")}
    root = make_site(tmp_path / "site", posts)
    (root / "static/img").mkdir(parents=True)
    (root / "static/img/x.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    return [str(w).split("\n")[0] for w in build_site(root).warnings]


def test_a_root_path_written_with_the_base_path_names_the_path_to_write(tmp_path):
    body = '[b](/blog/posts/b/) ![x](/blog/img/x.svg)\n\n<a href="/blog/posts/b/#top">b</a>\n'
    told = "which postil writes before every root path itself; write"
    assert warnings_of(tmp_path, body) == [
        "content/posts/a.md:6:5: warning: `/blog/posts/b/` is not in the built site: it starts"
        f" with the base path `/blog/`, {told} `/posts/b/`",
        "content/posts/a.md:6:26: warning: `/blog/img/x.svg` is not in the built site: it"
        f" starts with the base path `/blog/`, {told} `/img/x.svg`",
        "content/posts/a.md:8:10: warning: `/blog/posts/b/#top` is not in the built site: it"
        f" starts with the base path `/blog/`, {told} `/posts/b/#top`",
    ]


def test_a_path_under_the_base_path_that_names_nothing_is_the_usual_warning(tmp_path):
    [warning] = warnings_of(tmp_path, "[n](/blog/nothing/) [ok](/posts/b/) [ok](/img/x.svg)\n")
    assert warning.startswith(
        "content/posts/a.md:6:5: warning: `/blog/nothing/` is not in the built site: nothing"
        " is published at `/blog/nothing/`"
    )
