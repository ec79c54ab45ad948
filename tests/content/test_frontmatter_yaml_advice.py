"""A value YAML reads as syntax is an error at the value that says why and gives the value
quoted (session 44: PyYAML's "expected <block end>, but found '<scalar>'" named neither the
cause nor the fix, `title: !important note` was silently the title "note", and a line
without its key's colon was reported on the line after it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from postil.config import ConfigFailed, load_config
from postil.content.frontmatter import parse
from postil.errors import ContentError
from postil.model import SourceFile


def error_of(header: str) -> ContentError:
    text = f"---\n{header}\ndate: 2026-01-03\n---\n\nBody.\n"
    with pytest.raises(ContentError) as err:
        parse(
            SourceFile(path=Path("x.md"), rel="content/posts/x.md", text=text, kind="post"), "UTC"
        )
    return err.value


QUOTE = "if it is text, put it in single quotes"


@pytest.mark.parametrize(
    ("header", "col", "says"),
    [
        (
            "title: [Draft] My post",
            8,
            f"a `[` starts a YAML list, which ends before the rest of the line; {QUOTE}:"
            " `title: '[Draft] My post'`",
        ),
        (
            "title: {WIP} notes",
            8,
            f"a `{{` starts a YAML mapping, which ends before the rest of the line; {QUOTE}:"
            " `title: '{WIP} notes'`",
        ),
        (
            'title: "Quoted" then text',
            8,
            f'a `"` starts quoted text, which ends before the rest of the line; {QUOTE}:'
            " `title: '\"Quoted\" then text'`",
        ),
        (
            "title: 'It's mine'",
            8,
            "a `'` inside text in single quotes ends it; write each `'` inside it twice:"
            " `title: 'It''s mine'`",
        ),
        (
            "title: [The filter, $\\mathbf{x}_k$ by step",
            8,
            f"a `[` starts a YAML list, and this text is not one; {QUOTE}:"
            " `title: '[The filter, $\\mathbf{x}_k$ by step'`",
        ),
        (
            "title: @handle's notes",
            8,
            f"`@` is reserved in YAML and cannot start a value; {QUOTE}:"
            " `title: '@handle''s notes'`",
        ),
        (
            "title: `code` first",
            8,
            f"`` ` `` is reserved in YAML and cannot start a value; {QUOTE}:"
            " `title: '`code` first'`",
        ),
        (
            "title: *Bold* claims",
            8,
            "a `*` starting a value is a YAML alias (a reference to an `&anchor`); "
            f"{QUOTE}: `title: '*Bold* claims'`",
        ),
        ("title: *Bold", 8, "a `*` starting a value is a YAML alias"),
        ("title: &amp; more", 8, "a `&` starting a value is a YAML anchor"),
        ("title: %TEMP% folders", 8, "`%` cannot start a YAML value"),
        ("title: |x", 8, "a `|` starting a value opens a block of text on the lines below"),
        ("title: - x", 8, "a `- ` starting a value is a list item"),
        (
            "authors:\n  - name: @ada",
            11,
            f"`@` is reserved in YAML and cannot start a value; {QUOTE}: `name: '@ada'`",
        ),
    ],
)
def test_a_value_yaml_reads_as_syntax_is_told_at_the_value_with_the_quoted_fix(header, col, says):
    err = error_of(header)
    assert err.message.startswith(f"YAML syntax error: {says}")
    assert QUOTE in err.message or "write each `'` inside it twice" in err.message
    assert (err.location.line, err.location.col) == (header.count("\n") + 2, col)


def test_a_long_value_is_not_written_out_in_the_fix():
    err = error_of("title: [Draft] " + "word " * 20)
    assert err.message.endswith(
        "; if it is text, put the whole value in single quotes (a `'` inside written twice)"
    )


def test_a_local_yaml_tag_is_an_error_not_a_lost_word():
    err = error_of("title: !important note")
    assert err.message == (
        "`title`: a `!` starting a value is a YAML tag, which postil does not read (it would"
        " read `note`); if it is text, put it in single quotes: `title: '!important note'`"
    )
    assert (err.location.line, err.location.col) == (2, 8)
    inner = error_of("tags: [a, !b c]")
    assert inner.message.startswith("`tags`: a `!` starting a value is a YAML tag")
    assert (inner.location.line, inner.location.col) == (2, 11)


def test_a_line_without_its_keys_colon_is_reported_at_that_line():
    err = error_of("title: T\nsubtitle A subtitle")
    assert (err.location.line, err.location.col) == (3, 1)
    assert err.message == (
        "YAML syntax error: this line is no `key: value` and does not go on with the value"
        " above; add `: ` after its key, or indent it under the key whose value it continues"
    )


@pytest.mark.parametrize(
    "header",
    [
        "title: '[Draft] My post'",
        "title: 'It''s mine'",
        'title: "@handle\'s notes"',
        "title: !!str 1984",
        "title: Draft [1] of *many*",
        "title: C# & F# @ work",
        "tags: [a, b]",
    ],
)
def test_values_yaml_reads_as_text_stay_text(header):
    text = f"---\n{header}\ndate: 2026-01-03\n---\n\nBody.\n"
    meta, _, _ = parse(
        SourceFile(path=Path("x.md"), rel="content/posts/x.md", text=text, kind="post"), "UTC"
    )
    assert meta.title or meta.tags


def test_postil_yaml_gets_the_same_advice(tmp_path):
    (tmp_path / "postil.yaml").write_text(
        "title: @ada's notes\nauthor: A\nbase_url: https://a.github.io/\n", encoding="utf-8"
    )
    with pytest.raises(ConfigFailed) as err:
        load_config(tmp_path)
    [found] = [str(d) for d in err.value.diagnostics]
    assert found.startswith("postil.yaml:1:8: YAML syntax error: `@` is reserved in YAML")
    assert "`title: '@ada''s notes'`" in found
