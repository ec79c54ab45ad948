"""A value YAML reads as syntax is an error at the value that says why and gives the value
quoted (session 44: PyYAML's "expected <block end>, but found '<scalar>'" named neither the
cause nor the fix, `title: !important note` was silently the title "note", and a line
without its key's colon was reported on the line after it)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from postil.config import ConfigFailed, load_config
from postil.content.frontmatter import parse
from postil.errors import ContentError
from postil.model import SourceFile
from postil.yamladvice import quote_advice


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


@pytest.mark.parametrize(
    ("header", "col", "says"),
    [
        ("author: {name: Q: A, url: /q/}", 16, "a `:` inside `{…}` or `[…]` on one line is "
         "YAML syntax, not text; if `Q: A` is text, put it in single quotes: `name: 'Q: A'`"),
        ("links: [{a: 1}, {b: x: y}]", 21, "a `:` inside `{…}` or `[…]` on one line is "
         "YAML syntax, not text; if `x: y` is text, put it in single quotes: `b: 'x: y'`"),
    ],
)  # fmt: skip
def test_a_colon_in_a_value_of_a_one_line_mapping_is_told_at_the_value(header, col, says):
    """PyYAML's "while parsing a flow mapping; expected ',' or '}', but got ':'" named
    neither the cause nor the fix (session 45)."""
    err = error_of(header)
    assert err.message == f"YAML syntax error: {says}"
    assert (err.location.line, err.location.col) == (2, col)


@pytest.mark.parametrize("escape", ["", "subtitle: '$\\alpha$'\n", 'subtitle: "😀"\n'])
def test_a_question_mark_in_a_one_line_list_or_mapping_is_text_with_or_without_escapes(escape):
    """`url: /notes/?x=1` inside `{…}` is text in YAML 1.2 and libyaml reads it so;
    PyYAML's own scanner, which reads a file with a backslash or an emoji, ended the value
    at the `?`: the same line was text or an error by what else the file held."""
    text = f"---\ntitle: T\n{escape}tags: [a, b?c]\ndate: 2026-01-03\n---\n\nBody.\n"
    meta, _, _ = parse(
        SourceFile(path=Path("x.md"), rel="content/posts/x.md", text=text, kind="post"), "UTC"
    )
    assert meta.tags == ("a", "b?c")


def test_postil_yamls_nav_item_with_a_query_reads_beside_a_macro(tmp_path):
    (tmp_path / "postil.yaml").write_text(
        "title: T\nauthor: A\nbase_url: https://a.github.io/\nnav:\n"
        "  - {label: Notes, url: /notes/?page=2}\nmath:\n  macros: {RR: '\\mathbb{R}'}\n",
        encoding="utf-8",
    )
    assert load_config(tmp_path).nav == (("Notes", "/notes/?page=2"),)


def test_where_pyyaml_alone_rejects_a_question_mark_it_is_told_to_quote_it():
    """Without libyaml (a PyYAML built without it) the `?` is PyYAML's error: told so."""
    with pytest.raises(yaml.MarkedYAMLError) as err:
        yaml.compose("nav:\n  - {label: N, url: /notes/?x=1}\n", Loader=yaml.SafeLoader)
    message, line0, col0 = quote_advice(err.value) or ("", 0, 0)
    assert (line0, col0) == (1, 20)
    assert message == (
        "a `?` inside `{…}` or `[…]` on one line is YAML syntax, not text; if `/notes/?x=1` "
        "is text, put it in single quotes: `url: '/notes/?x=1'`"
    )
