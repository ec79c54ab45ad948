"""A message about a name postil does not know names the nearest known one, as postil.yaml's
unknown keys always did: a front matter key, a citation key, an anchor, an equation label,
a code language, a page (`errors.did_you_mean`); a name near none gets no suggestion."""

from __future__ import annotations

import pytest
from support.blog import build_site, make_site, post_text

from postil.errors import did_you_mean

BIB = "@book{higham2002, author = {Higham, N.}, title = {Accuracy}, year = {2002}}\n"


@pytest.mark.parametrize(
    ("name", "known", "hint"),
    [
        ("tag", ["tags", "title"], " (did you mean `tags`?)"),
        ("pyhton", ["python", "perl"], " (did you mean `python`?)"),
        ("mermaid", ["email"], ""),  # ratio 0.67: too far
        ("svelte", ["sqlite3"], ""),
        ("tags", ["tags"], ""),  # never the name itself
        ("x", [], ""),
    ],
)
def test_did_you_mean_names_only_a_near_name(name, known, hint):
    assert did_you_mean(name, known) == hint


def test_did_you_mean_formats_the_suggestion_as_asked():
    assert did_you_mean("the-settings", ["the-setting"], "`#{}`") == (
        " (did you mean `#the-setting`?)"
    )


def _messages(tmp_path, body, **fields):
    root = make_site(
        tmp_path / "site",
        {"a.md": post_text("A", "2026-01-01", body, bibliography="refs.bib", **fields)},
        pages={"colophon.md": "---\ntitle: Colophon\n---\n\n## The setting\n\nText.\n"},
    )
    (root / "content/posts/refs.bib").write_text(BIB, encoding="utf-8")
    return [w.message for w in build_site(root).warnings]


def test_each_unknown_name_names_the_nearest_known_one(tmp_path):
    body = (
        "Cited [@higam2002]. See [the setting](../colophon.md#the-settings), "
        "[here](#the-endd) and [the page](/colofon/).\n\n## The end\n\n"
        "```pyhton\nx = 1\n```\n"
    )
    messages = _messages(tmp_path, body, tag="x")
    hints = {m.split("(did you mean ")[1].split("?)")[0] for m in messages}
    assert len(messages) == 6
    assert hints == {
        "`tags`",
        "`higham2002`",
        "`python`",
        "`#the-setting`",
        "`#the-end`",
        "`/colophon/`",
    }


def test_names_near_nothing_get_no_suggestion(tmp_path):
    body = (
        "Cited [@zzzzzzzz]. See [x](../colophon.md#qqqqqqq), [y](#wwwwwww), [z](/vvvvvvv/).\n\n"
        "```plantuml\nA -> B\n```\n"
    )
    messages = _messages(tmp_path, body, kkkkkk="x")
    assert len(messages) == 6
    assert not any("did you mean" in m for m in messages)


def test_an_unknown_equation_label_names_the_nearest_label(tmp_path):
    body = "$$\nx = 1 \\label{eq:quad}\n$$\n\nBy \\eqref{eq:qaud}.\n"
    root = make_site(tmp_path / "site", {"a.md": post_text("A", "2026-01-01", body)})
    [warning] = build_site(root).warnings
    assert warning.message.startswith(
        "unknown equation label 'eq:qaud' in \\eqref/\\ref (did you mean 'eq:quad'?): "
    )
