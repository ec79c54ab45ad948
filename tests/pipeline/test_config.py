"""postil.yaml: required keys, unknown keys, typed values, base URL."""

import pytest

from postil.config import load_config
from postil.errors import ConfigError


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
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\ntheme: dark\n"))
    assert "unknown key `theme`" in err.value.message
    assert err.value.location.line == 4
    assert err.value.exit_code == 2


def test_missing_base_url_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="missing key `base_url`"):
        load_config(write(tmp_path, "title: T\nauthor: A\n"))


def test_base_url_override_wins(tmp_path):
    config = load_config(
        write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\n"),
        "https://e.github.io/blog",
    )
    assert config.base_url == "https://e.github.io/blog/"


def test_relative_base_url_is_rejected(tmp_path):
    with pytest.raises(ConfigError, match="absolute http"):
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: /blog/\n"))


def test_math_macros_are_read_and_unknown_math_keys_rejected(tmp_path):
    config = load_config(
        write(
            tmp_path,
            "title: T\nauthor: A\nbase_url: https://x.org/\n"
            "math:\n  macros:\n    \\RR: \\mathbb{R}\n",
        )
    )
    assert config.math_macros == (("RR", "\\mathbb{R}"),)
    with pytest.raises(ConfigError, match="math.macro"):
        load_config(
            write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\nmath:\n  macro: {}\n")
        )


def test_math_double_dollar_in_text_defaults_to_inline_and_accepts_display(tmp_path):
    head = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    assert load_config(write(tmp_path, head)).math_double_dollar_in_text == "inline"
    config = load_config(write(tmp_path, head + "math:\n  double_dollar_in_text: display\n"))
    assert config.math_double_dollar_in_text == "display"
    assert config.math_macros == ()


def test_math_double_dollar_in_text_rejects_other_readings_at_the_value(tmp_path):
    head = "title: T\nauthor: A\nbase_url: https://x.org/\n"
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, head + "math:\n  double_dollar_in_text: block\n"))
    assert err.value.message == (
        "`math.double_dollar_in_text` is `inline` (kramdown, Jekyll) or `display` (Pandoc), "
        "not `block`"
    )
    assert (err.value.location.line, err.value.location.col) == (5, 26)


def test_paginate_must_be_a_positive_whole_number(tmp_path):
    with pytest.raises(ConfigError, match="whole number"):
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\npaginate: 0\n"))


def test_missing_config_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no postil.yaml"):
        load_config(tmp_path)


def test_every_unknown_key_is_named_with_a_suggestion(tmp_path):
    text = "title: T\nauthor: A\nbase_url: https://x.org/\npagnate: 3\ntitel: X\nzzz: 1\n"
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert err.value.location.line == 4
    assert err.value.message.startswith(
        "unknown keys `pagnate` on line 4 (did you mean `paginate`?), "
        "`titel` on line 5 (did you mean `title`?), `zzz` on line 6; known keys: "
    )


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
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text + line + "\n"))
    assert message in err.value.message
    row = text.count("\n") + 1
    assert (err.value.location.line, err.value.location.col) == (row, line.index(":") + 3)


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
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "title: T\nauthor: A\nbase_url: https://x.org/\n" + params))
    assert message in err.value.message
    assert err.value.location.line == line


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
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, head + "math:\n  code_spans: yes\n"))
    assert err.value.message.startswith("`math.code_spans` is `code` (CommonMark) or `math`")
    assert (err.value.location.line, err.value.location.col) == (5, 15)
