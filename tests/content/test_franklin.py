"""Franklin.jl's page variables: `@def` lines and `+++` blocks of Julia
(`postil.content.franklin`), read through `frontmatter.parse` as a post's front matter."""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from postil.content.franklin import julia_value
from postil.content.frontmatter import parse
from postil.errors import ContentError
from postil.model import SourceFile


def read(text: str) -> tuple:
    warnings: list = []
    source = SourceFile(path=Path("x.md"), rel="content/posts/x.md", text=text, kind="post")
    meta, body, body_line = parse(source, "UTC", warnings)
    return meta, body, body_line, [str(w) for w in warnings]


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ('"A title"', "A title"),
        (r'"say \"hi\""', 'say "hi"'),
        ("true", True),
        ("false", False),
        ("3", 3),
        ("2.5", 2.5),
        ("nothing", None),
        ("Date(2023, 4, 22)", date(2023, 4, 22)),
        ('Date("2021-07-01")', date(2021, 7, 1)),
        ('["julia", "bayes"]', ["julia", "bayes"]),
        ('("a", 1)', ["a", 1]),
        ("[]", []),
        # another expression is kept as written: the field's rule reports it
        ('get(ENV, "X", "")', 'get(ENV, "X", "")'),
        ("Date(2023, 13, 1)", "Date(2023, 13, 1)"),
        ('[f(x), "a"]', '[f(x), "a"]'),
    ],
)
def test_julia_literals_are_read_as_values(written, value):
    assert julia_value(written) == value


def test_a_julia_block_is_the_front_matter_where_toml_cannot_read_it():
    meta, body, body_line, warnings = read(
        '+++\ntitle = "Epidemics"\nhascode = true\ndate = Date(2023, 4, 22)\n'
        'rss = "SIR models in Julia."\n+++\n@def tags = ["syntax", "code"]\n\n# Epidemics\n'
    )
    assert meta.title == "Epidemics"
    assert meta.date == datetime(2023, 4, 22, tzinfo=timezone.utc)
    assert meta.tags == ("syntax", "code")
    assert meta.summary == "SIR models in Julia."
    assert meta.front_matter_syntax == "julia"
    assert body == "# Epidemics\n" and body_line == 9
    assert warnings == []  # hascode and the like are Franklin's own switches: quiet


def test_def_lines_are_the_front_matter_and_leave_the_body():
    meta, body, body_line, warnings = read(
        '@def title = "Geometry of a set"\n@def published ="July 30, 2021"\n'
        '@def tags =["optimization"]\n\nText.\n'
    )
    assert meta.title == "Geometry of a set"
    assert meta.date == datetime(2021, 7, 30, tzinfo=timezone.utc)
    assert meta.tags == ("optimization",)
    assert (body, body_line, warnings) == ("Text.\n", 5, [])


def test_def_lines_after_a_first_command_are_read_and_stay_in_the_body():
    """Franklin reads `@def` anywhere; the body stays the end of the file (the Markdown
    shows the lines as nothing: tests/fixtures/franklin.md)."""
    text = '\\enabletheorems\n\n@def title = "T"\n@def rss_pubdate = Date(2021, 11, 24)\n\nA.\n'
    meta, body, body_line, _ = read(text)
    assert (meta.title, meta.date.date()) == ("T", date(2021, 11, 24))
    assert body == text and body_line == 1


def test_def_lines_in_fenced_code_are_code():
    meta, *_ = read('@def title = "T"\n\n```julia\n@def title = "in code"\n```\n')
    assert meta.title == "T"


def test_an_unknown_page_variable_is_warned_at_its_line():
    *_, warnings = read('@def title = "T"\n@def date = Date(2021, 1, 2)\n@def weight = 3\n')
    assert len(warnings) == 1 and warnings[0].startswith("content/posts/x.md:3:")
    assert "weight" in warnings[0]


def test_a_string_glued_to_the_next_key_is_toml_s_error_not_a_julia_title():
    """`title = "hello"date = …` (gohugoio/hugo#419: an archetype lost a line break) is
    neither TOML nor Julia; read as Julia text it was the title and the date was lost."""
    with pytest.raises(ContentError) as raised:
        read('+++\ndraft = false\ntitle = "hello"date = 2015-08-17T22:12:40-05:00\n+++\n')
    assert "TOML syntax error" in raised.value.message
    assert (raised.value.location.line, raised.value.location.col) == (3, 16)
    meta, *_ = read('+++\ntitle = "a" * "b"\n+++\n')  # Julia's string concatenation
    assert meta.title is not None


def test_a_block_neither_toml_nor_julia_is_reported_as_toml():
    with pytest.raises(ContentError) as raised:
        read('+++\ntitle = "T"\nthis is not = = julia\n+++\n')
    assert "TOML syntax error" in raised.value.message
    assert raised.value.location.line == 3


def test_a_bad_date_in_julia_is_reported_at_its_value():
    with pytest.raises(ContentError) as raised:
        read('+++\ntitle = "T"\ndate = Date(2021, 13, 1)\n+++\n')
    assert raised.value.location.line == 3 and raised.value.location.col == 8


def test_a_julia_block_may_hold_triple_quoted_strings_and_values_over_several_lines():
    meta, *_, warnings = read(
        '+++\ntitle = "Julia 1.12 Highlights"\nrss = """Highlights of the release."""\n'
        "rss_pubdate = Date(2025, 10, 8)\n"
        'tags = [\n    "release",\n    "julia",\n]\n+++\nText.\n'
    )
    assert meta.summary == "Highlights of the release."
    assert meta.tags == ("release", "julia")
    assert meta.date.date() == date(2025, 10, 8) and warnings == []


def test_julia_comments_and_expressions_in_a_julia_block_are_julia():
    meta, *_, warnings = read(
        '+++\ntitle = "T" # working title\ndate = Date(2023, 4, 22) # published\n'
        "mintoclevel = 2 # only h2\nconst weight = 1 + 2\n+++\n"
        '@def tags = ["a", "b"] # topics\n\nText.\n'
    )
    assert (meta.title, meta.date.date(), meta.tags) == ("T", date(2023, 4, 22), ("a", "b"))
    assert len(warnings) == 1 and "weight" in warnings[0]  # kept as text, warned as unknown


@pytest.mark.parametrize(
    ("block", "where", "says"),
    [
        ('title = "Draft', (2, 9), '`title`: this `"` is never closed'),
        ('title = "T"\ntags = ["x"', (3, 8), "`tags`: this `[` is never closed"),
        ('title = "T"\ntags = ["x",\n  "y"', (3, 8), "`tags`: this `[` is never closed"),
        ('title = "T"\nrss = """A summary', (3, 7), '`rss`: this `"""` is never closed'),
        ('title = "T"\ndate = Date(2023, 4', (3, 12), "`date`: this `(` is never closed"),
    ],
)
def test_a_quote_or_bracket_never_closed_in_a_plus_block_is_an_error_at_it(block, where, says):
    """Neither TOML nor Julia: read as text, `title = "Draft` was the title `"Draft` and
    `tags = ["x"` the tag `x`, with no word (session 44)."""
    with pytest.raises(ContentError) as err:
        read(f"+++\n{block}\n+++\n\nBody.\n")
    assert (err.value.location.line, err.value.location.col) == where
    assert err.value.message.startswith(says)
    opener = says.split("`")[3]
    closer = {"[": "]", "(": ")"}.get(opener, opener)
    assert err.value.message == f"{says} before the closing `+++`; close it with `{closer}`"


@pytest.mark.parametrize(
    ("block", "title"),
    [
        ('title = "a \\" (b"\ndate = Date(2023, 4, 22)', 'a " (b'),
        ('title = "T [1"\ndate = Date(2023, 4, 22)', "T [1"),
        ('title = """Long\n(title"""\ndate = Date(2023, 4, 22)', "Long (title"),
        ('title = "T"\ntags = ["a",\n  "b"]\ndate = Date(2023, 4, 22)', "T"),
    ],
)
def test_closed_quotes_and_brackets_in_a_julia_block_are_read(block, title):
    meta, _, _, _ = read(f"+++\n{block}\n+++\n\nBody.\n")
    assert meta.title == title
