"""postil.yaml: required keys, unknown keys, typed values, base URL."""

import pytest
from support.sites import config_problems

from postil.config import _FIELDS as FIELD_NAMES
from postil.config import load_config
from postil.errors import ConfigError, ConfigFailed


def write(tmp_path, text):
    (tmp_path / "postil.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_config_reads_fields_and_normalises_base_url(tmp_path):
    config = load_config(
        write(tmp_path, "title: T\nauthor: A\nbase_url: https://u.github.io/repo\n")
    )
    assert config.base_url == "https://u.github.io/repo/"
    assert config.base_path == "/repo/"
    assert config.paginate == 10


def test_unknown_key_is_an_error_naming_it_with_its_line(tmp_path):
    with pytest.raises(ConfigFailed) as err:
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\ntheme: dark\n"))
    [problem] = err.value.diagnostics
    assert "unknown key `theme`" in problem.message
    assert str(problem.location) == "postil.yaml:4:1"
    assert err.value.exit_code == 2


def test_missing_base_url_is_an_error(tmp_path):
    [problem] = config_problems(write(tmp_path, "title: T\nauthor: A\n"))
    assert problem.message == "missing key `base_url`; add a line `base_url: https://example.org/`"


def test_base_url_override_wins(tmp_path):
    config = load_config(
        write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\n"),
        "https://e.github.io/blog",
    )
    assert config.base_url == "https://e.github.io/blog/"


def test_relative_base_url_is_rejected(tmp_path):
    [problem] = config_problems(write(tmp_path, "title: T\nauthor: A\nbase_url: /blog/\n"))
    assert "absolute http" in problem.message


def test_math_macros_are_read_and_unknown_math_keys_rejected(tmp_path):
    config = load_config(
        write(
            tmp_path,
            "title: T\nauthor: A\nbase_url: https://x.org/\n"
            "math:\n  macros:\n    \\RR: \\mathbb{R}\n",
        )
    )
    assert config.math_macros == (("RR", "\\mathbb{R}"),)
    text = "title: T\nauthor: A\nbase_url: https://x.org/\nmath:\n  macro: {}\n"
    [problem] = config_problems(write(tmp_path, text))
    assert "math.macro" in problem.message


def test_math_double_dollar_in_text_defaults_to_inline_and_accepts_display(tmp_path):
    head = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    assert load_config(write(tmp_path, head)).math_double_dollar_in_text == "inline"
    config = load_config(write(tmp_path, head + "math:\n  double_dollar_in_text: display\n"))
    assert config.math_double_dollar_in_text == "display"
    assert config.math_macros == ()


def test_math_double_dollar_in_text_rejects_other_readings_at_the_value(tmp_path):
    head = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    [problem] = config_problems(write(tmp_path, head + "math:\n  double_dollar_in_text: block\n"))
    assert problem.message == (
        "`math.double_dollar_in_text` is `inline` (kramdown, Jekyll) or `display` (Pandoc), "
        "not `block`"
    )
    assert (problem.location.line, problem.location.col) == (5, 26)


def test_paginate_must_be_a_positive_whole_number(tmp_path):
    text = "title: T\nauthor: A\nbase_url: https://x.org/\npaginate: 0\n"
    [problem] = config_problems(write(tmp_path, text))
    assert "whole number" in problem.message


def test_missing_config_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no postil.yaml"):
        load_config(tmp_path)


def test_every_unknown_key_is_named_with_a_suggestion(tmp_path):
    text = "title: T\nauthor: A\nbase_url: https://x.org/\npagnate: 3\ntitel: X\nzzz: 1\n"
    problems = config_problems(write(tmp_path, text))
    assert [str(p).split("; known keys: ")[0] for p in problems] == [
        "postil.yaml:4:1: unknown key `pagnate` (did you mean `paginate`?)",
        "postil.yaml:5:1: unknown key `titel` (did you mean `title`?)",
        "postil.yaml:6:1: unknown key `zzz`",
    ]
    assert problems[2].message.endswith("; known keys: " + ", ".join(sorted(FIELD_NAMES)))


@pytest.mark.parametrize(
    "line, message",
    [
        ("base_url: ojus1.github.io", "must be an absolute http(s) URL"),
        ("timezone: Mars/Olympus", "unknown timezone `Mars/Olympus`"),
    ],
)
def test_invalid_values_are_reported_at_their_line_and_column(tmp_path, line, message):
    text = "title: T\nauthor: A\n" + (
        "" if line.startswith("base_url") else "base_url: https://x.org/\n"
    )
    [problem] = config_problems(write(tmp_path, text + line + "\n"))
    assert message in problem.message
    row = text.count("\n") + 1
    assert (problem.location.line, problem.location.col) == (row, line.index(":") + 3)


def test_a_bad_base_url_override_names_the_flag(tmp_path):
    with pytest.raises(ConfigError, match="^--base-url: base_url `blog` must be"):
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\n"), "blog")


def test_params_are_text_by_name_and_a_nested_mapping_by_dotted_name(tmp_path):
    config = load_config(
        write(
            tmp_path,
            "title: T\nauthor: A\nbase_url: https://x.org/\nparams:\n  assets: /assets\n"
            "  version: 1.20\n  social:\n    github: someone\n",
        )
    )
    # as written: `1.20` stays `1.20` (a Jekyll post shows the text, not a float)
    assert config.params == (
        ("assets", "/assets"),
        ("version", "1.20"),
        ("social.github", "someone"),
    )


@pytest.mark.parametrize(
    ("params", "line", "message"),
    [
        ("params: /assets\n", 4, "`params` must be a mapping"),
        ("params:\n  tags: [a, b]\n", 5, "`params.tags` must be text or a mapping, not a list"),
        ("params:\n  social:\n    - github\n", 6, "`params.social` must be text or a mapping"),
    ],
)
def test_params_that_are_no_text_are_errors_at_their_line(tmp_path, params, line, message):
    text = "title: T\nauthor: A\nbase_url: https://x.org/\n" + params
    [problem] = config_problems(write(tmp_path, text))
    assert message in problem.message
    assert problem.location.line == line


def test_a_config_that_is_not_utf8_is_an_error_at_its_line_and_column_as_posts_get(tmp_path):
    (tmp_path / "postil.yaml").write_bytes("title: T\nauthor: Ren\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path)
    assert str(err.value) == (
        "postil.yaml:2:12: the file is not valid UTF-8 at byte 20 (0xe9); save it as UTF-8"
    )
    assert err.value.exit_code == 2


def test_math_code_spans_defaults_to_code_accepts_math_and_rejects_others(tmp_path):
    head = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    assert load_config(write(tmp_path, head)).math_code_spans == "code"
    config = load_config(write(tmp_path, head + "math:\n  code_spans: math\n"))
    assert config.math_code_spans == "math"
    [problem] = config_problems(write(tmp_path, head + "math:\n  code_spans: yes\n"))
    assert problem.message.startswith("`math.code_spans` is `code` (CommonMark) or `math`")
    assert str(problem.location) == "postil.yaml:5:15"


EVERY_MISTAKE = """\
title: T
autor: A
base_url: /blog/
paginate: zero
math:
  macros:
    a: '\\x{'
    b: ['\\y #2', 1]
  dollars: x
params:
  tags: [a, b]
bibliography: [refs.bib, gone.bib]
title: U
nav:
  - {label: Home}
  - {label: About, url: /about/}
  - {label: [x], url: /x/}
"""


def test_every_problem_of_the_file_is_reported_in_one_run_at_its_line_and_column(tmp_path):
    (write(tmp_path, EVERY_MISTAKE) / "refs.bib").write_text("", "utf-8")
    problems = config_problems(tmp_path)
    assert [str(p.location) for p in problems] == [
        "postil.yaml:1:1",  # `author` is missing
        "postil.yaml:2:1",
        "postil.yaml:3:11",
        "postil.yaml:4:11",
        "postil.yaml:7:8",
        "postil.yaml:8:18",  # at the count
        "postil.yaml:9:3",
        "postil.yaml:11:9",
        "postil.yaml:12:26",
        "postil.yaml:13:1",
        "postil.yaml:15:5",
        "postil.yaml:17:13",
    ]
    assert [p.message.split(";")[0] for p in problems] == [
        "missing key `author`",
        "unknown key `autor` (did you mean `author`?)",
        "base_url `/blog/` must be an absolute http(s) URL such as https://user.github.io/repo/",
        "`paginate` must be a whole number ≥ 1 of at most 15 digits, not `zero`",
        "macro `a`: a `{` is never closed in `\\x{`",
        "macro `b` takes 1 argument but its body uses #2",
        "unknown key `math.dollars`",
        "`params.tags` must be text or a mapping, not a list: a post shows a value as text",
        "bibliography `gone.bib` is not a file of the site",
        "duplicate key `title`: it is already set on line 1",
        "each `nav` item needs exactly `label` and `url`",
        "`label` must be text, not a list or mapping",
    ]
    assert all(p.severity.value == "error" for p in problems)
    assert problems[1].source_line == "autor: A"  # for the excerpt under the message


def test_a_config_with_problems_fails_the_build_listing_them_all_and_writing_nothing(
    tmp_path, capsys
):
    from postil.cli import main

    root = write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\ntheme: x\nsearch: 1\n")
    (root / "content").mkdir()
    assert main(["-C", str(root), "build"]) == 2
    err = capsys.readouterr().err
    assert "postil.yaml:4:1: unknown key `theme`" in err
    assert "postil.yaml:5:9: `search` must be true or false, not `1`\n    search: 1\n" in err
    assert err.rstrip().endswith("error: build failed with 2 errors; nothing was written")
    assert not (root / "_site").exists()


@pytest.mark.parametrize(
    "value, url",
    [
        (None, "https://cdn.jsdelivr.net/npm/mermaid@12/dist/mermaid.esm.min.mjs"),
        ("true", "https://cdn.jsdelivr.net/npm/mermaid@12/dist/mermaid.esm.min.mjs"),
        ("false", ""),
        ("https://unpkg.com/mermaid@11/dist/mermaid.esm.min.mjs", None),
        ("/js/mermaid.esm.min.mjs", None),
    ],
)
def test_mermaid_is_the_diagram_scripts_url_by_default_a_cdns_or_off(tmp_path, value, url):
    text = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    text += f"mermaid: {value}\n" if value is not None else ""
    assert load_config(write(tmp_path, text)).mermaid_url == (value if url is None else url)


@pytest.mark.parametrize("value", ["mermaid.mjs", "//cdn.example/m.mjs", "ftp://x.org/m.mjs", "1"])
def test_a_mermaid_url_that_pages_cannot_import_is_an_error_at_its_value(tmp_path, value):
    text = f"title: T\nauthor: A\nbase_url: https://x.org/\nmermaid: {value}\n"
    [problem] = config_problems(write(tmp_path, text))
    assert (problem.location.line, problem.location.col) == (4, 10)
    assert problem.message.startswith(f"mermaid `{value}` must be true, false, an http(s) URL")
