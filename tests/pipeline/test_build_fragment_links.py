"""A `#fragment` that names no id of its page is a warning at the fragment, in Markdown links
and in raw HTML's `<a href>` alike, naming the nearest id, or the page's headings when no id
is near (session 43: raw HTML's fragments were never checked, and `#unknown-id` named
nothing to link to)."""

from __future__ import annotations

from support.blog import build_site, make_site, post_text

BODY = """\
## Setting up

Some text.[^n]

## Results

See [the setup](#setting-upp) and [unknown](#unknown-id).

<a href="#settingup">raw</a> and <a href='#zzz'>other</a>

Inline <a href="#setting_up">x</a> and [cased](#Setting-Up) and <a href="#Setting-Up">y</a>.

[^n]: A note.
"""


def warnings_of(tmp_path, body: str, other: str = "## Only heading\n") -> list[str]:
    posts = {
        "a.md": post_text("A", "2026-01-01", body),
        "b.md": post_text("B", "2026-01-02", other),
    }
    root = make_site(tmp_path / "site", posts)
    return [str(w).split("\n")[0] for w in build_site(root).warnings]


def test_fragments_in_markdown_and_raw_html_are_checked_in_file_order(tmp_path):
    near = "(did you mean `#setting-up`?); link to an existing heading id or remove the fragment"
    far = "its headings' ids are `#setting-up`, `#results`: link to one of them or remove the"
    assert warnings_of(tmp_path, BODY) == [
        f"content/posts/a.md:12:17: warning: link to `#setting-upp`: this page has no such"
        f" anchor {near}",
        f"content/posts/a.md:12:45: warning: link to `#unknown-id`: this page has no such"
        f" anchor; {far} fragment",
        f"content/posts/a.md:14:10: warning: link to `#settingup`: this page has no such"
        f" anchor {near}",
        f"content/posts/a.md:14:43: warning: link to `#zzz`: this page has no such anchor;"
        f" {far} fragment",
        f"content/posts/a.md:16:17: warning: link to `#setting_up`: this page has no such"
        f" anchor {near}",
        # the raw link at its own place, not at the same text in the Markdown link before it
        f"content/posts/a.md:16:48: warning: link to `#Setting-Up`: this page has no such"
        f" anchor {near}",
        f"content/posts/a.md:16:74: warning: link to `#Setting-Up`: this page has no such"
        f" anchor {near}",
    ]


def test_a_raw_html_link_to_another_posts_missing_anchor_is_reported(tmp_path):
    body = 'Read <a href="b.md#only-headin">B</a> and <a href="b.md#only-heading">B</a>.\n'
    assert warnings_of(tmp_path, body) == [
        "content/posts/a.md:6:15: warning: link to `#only-headin`: content/posts/b.md has no"
        " such anchor (did you mean `#only-heading`?); link to an existing heading id or remove"
        " the fragment"
    ]


def test_a_page_without_headings_says_so(tmp_path):
    body = "[x](b.md#intro)\n"
    assert warnings_of(tmp_path, body, other="No headings here.\n") == [
        "content/posts/a.md:6:5: warning: link to `#intro`: content/posts/b.md has no such"
        " anchor; it has no headings: link to an id the page has or remove the fragment"
    ]


def test_fragments_that_exist_or_are_no_page_anchor_are_not_reported(tmp_path):
    body = """\
## Setting up

<span id="here"></span>Text.[^n] <a name="old-name"></a>

<a href="#setting-up">a</a> <a href="#here">b</a> <a href="#old-name">c</a>
<a href="#top">top</a> <a href="#">nothing</a> <a href="https://e.org/#zz">out</a>
<a href="#fn-1">note</a> <a href="#main">main</a> <img src="icons.svg#star" alt="star">

Inline <a href="#here">d</a> and <a href="b.md#only-heading">e</a>.

[^n]: A note.
"""
    warnings = warnings_of(tmp_path, body)
    assert [w for w in warnings if "anchor" in w] == []


def test_hugos_ref_to_an_anchor_of_this_page_is_checked_as_a_fragment_link(tmp_path):
    body = (
        '## Setting up\n\nSee [it]({{< relref "#setting-upp" >}}) and {{< ref "#setting-up" >}}.\n'
    )
    assert warnings_of(tmp_path, body) == [
        "content/posts/a.md:8:22: warning: link to `#setting-upp`: this page has no such anchor"
        " (did you mean `#setting-up`?); link to an existing heading id or remove the fragment"
    ]


def url_warnings(tmp_path, body: str) -> list[str]:
    """Warnings of a site whose post a.md links by URL to b.md (permalink `/2026/b/`),
    c.md (at `/posts/c/`) and the page about.md (at `/about/`)."""
    posts = {
        "a.md": post_text("A", "2026-01-01", body),
        "b.md": post_text("B", "2026-01-02", "## Only heading\n", permalink="/2026/b/"),
        "c.md": post_text("C", "2026-01-03", "## Gamma\n\nText.[^n]\n\n[^n]: A note.\n"),
    }
    pages = {"about.md": post_text("About", None, "## Contact\n")}
    root = make_site(tmp_path / "site", posts, pages=pages)
    return [str(w).split("\n")[0] for w in build_site(root).warnings if "anchor" in str(w)]


def test_a_link_to_another_pages_url_checks_its_fragment(tmp_path):
    # session 44: only `#x` and `b.md#x` were checked; a fragment of a link written as the
    # page's URL, the way posts moved from Hugo or Jekyll link each other, never was
    body = (
        "[b](/2026/b/#only-headin) [c1](/posts/c/#gama) [c2](/posts/c#gama)"
        " [c3](/posts/c/index.html#gama) [c4](../c/#gama) [about](/about/#contakt)\n\n"
        '<a href="/posts/c/#gama">raw</a>\n'
    )
    near_c = "(did you mean `#gamma`?); link to an existing heading id or remove the fragment"
    assert url_warnings(tmp_path, body) == [
        "content/posts/a.md:6:5: warning: link to `#only-headin`: content/posts/b.md has no"
        " such anchor (did you mean `#only-heading`?); link to an existing heading id or"
        " remove the fragment",
        f"content/posts/a.md:6:32: warning: link to `#gama`: content/posts/c.md has no such"
        f" anchor {near_c}",
        f"content/posts/a.md:6:53: warning: link to `#gama`: content/posts/c.md has no such"
        f" anchor {near_c}",
        f"content/posts/a.md:6:73: warning: link to `#gama`: content/posts/c.md has no such"
        f" anchor {near_c}",
        f"content/posts/a.md:6:104: warning: link to `#gama`: content/posts/c.md has no such"
        f" anchor {near_c}",
        "content/posts/a.md:6:124: warning: link to `#contakt`: content/about.md has no such"
        " anchor (did you mean `#contact`?); link to an existing heading id or remove the"
        " fragment",
        f"content/posts/a.md:8:10: warning: link to `#gama`: content/posts/c.md has no such"
        f" anchor {near_c}",
    ]


def test_a_url_link_to_an_existing_anchor_or_to_no_page_is_not_an_anchor_warning(tmp_path):
    body = (
        "[b](/2026/b/#only-heading) [c](/posts/c/#gamma) [n](../c/#fn-1) [a](/posts/a/#top)"
        " [about](/about/#contact) [tag](/tags/x/#y) [svg](/img/i.svg#star)"
        " [out](https://example.org/posts/c/#nope) [gone](/posts/gone/#x)\n"
    )
    assert url_warnings(tmp_path, body) == []
