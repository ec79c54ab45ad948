"""Front matter: splitting, typed validation, YAML coercion rules, located errors."""

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from postil.content.frontmatter import parse, split_front_matter
from postil.errors import ContentError, Location
from postil.model import SourceFile, TextAt


def source(text: str, rel: str = "content/posts/x.md") -> SourceFile:
    return SourceFile(path=Path(rel), rel=rel, text=text, kind="post")


def test_front_matter_fields_are_typed():
    meta, body, body_line = parse(
        source("---\ntitle: Hello\ndate: 2026-01-15\ntags: [a, b]\ndraft: false\n---\nBody\n"),
        "UTC",
    )
    assert meta.title == "Hello"
    assert meta.date == datetime(2026, 1, 15, tzinfo=timezone.utc)
    assert meta.tags == ("a", "b")
    assert meta.draft is False
    assert body == "Body\n"
    assert body_line == 7


def test_yaml_implicit_typing_keeps_the_written_text_in_tags_and_title():
    meta, _, _ = parse(source("---\ntitle: 1984\ntags: [no, on, 1.10, null]\n---\n"), "UTC")
    assert meta.title == "1984"
    assert meta.tags == ("no", "on", "1.10", "null")


def test_yes_is_not_a_boolean():
    with pytest.raises(ContentError) as err:
        parse(source("---\ntitle: T\ndraft: yes\n---\n"), "UTC")
    assert err.value.location == Location("content/posts/x.md", 3, 8)
    assert "true or false" in err.value.message


def test_date_without_offset_is_in_the_site_timezone_and_offsets_are_kept():
    meta, _, _ = parse(
        source("---\ntitle: T\ndate: 2024-3-5 14:30\nupdated: 2024-03-06T10:00:00+02:00\n---\n"),
        "Europe/Berlin",
    )
    assert meta.date.utcoffset() == timedelta(hours=1)
    assert (meta.date.hour, meta.date.minute, meta.date.month, meta.date.day) == (14, 30, 3, 5)
    assert meta.updated.utcoffset() == timedelta(hours=2)


def test_impossible_date_is_reported_at_its_line():
    with pytest.raises(ContentError) as err:
        parse(source("---\ntitle: T\ndate: 2024-02-30\n---\n"), "UTC")
    assert err.value.location.line == 3
    assert "is not a date" in err.value.message


def test_yaml_syntax_error_is_reported_at_the_file_line():
    with pytest.raises(ContentError) as err:
        parse(source("---\ntitle: T\nmacros:\n  R: x\n  - y\n---\nbody\n"), "UTC")
    assert err.value.location == Location("content/posts/x.md", 5, 3)
    assert err.value.message.startswith("YAML syntax error")


@pytest.mark.parametrize(
    ("header", "where", "says"),
    [
        ('title: "Broken yaml\ntags: [a, b\n', (2, 8), "this quoted value is never closed"),
        ("title: 'Broken\ndate: 2024-01-01\n", (2, 8), "this quoted value is never closed"),
        ("title: T\ntags: [a, b\ndate: 2024-01-01\n", (3, 7), "this `[` list is never closed"),
        ("title: T\nx: {a: 1\ndate: 2024-01-01\n", (3, 4), "this `{` mapping is never closed"),
    ],
)
def test_a_quote_or_bracket_never_closed_is_reported_where_it_opens(header, where, says):
    """PyYAML gives up lines later (the end of the block, the next line's `:`); the error
    is put at the opening quote or bracket, with the fix (a user's trial)."""
    with pytest.raises(ContentError) as err:
        parse(source(f"---\n{header}---\nbody\n"), "UTC")
    assert (err.value.location.line, err.value.location.col) == where
    assert err.value.message.startswith(f"YAML syntax error: {says}")


def test_tab_indentation_error_says_to_use_spaces():
    with pytest.raises(ContentError) as err:
        parse(source("---\ntitle: T\nmacros:\n\tR: x\n---\n"), "UTC")
    assert err.value.location.line == 4
    assert "tabs" in err.value.message


UNTITLED = (
    "warning: no `title` and no `# heading` opening the page; it is titled `{}` after its "
    "file name; add `title: …` at the top (or a `# heading` as its first line)"
)


def test_missing_title_is_the_file_name_as_jekyll_titles_it_with_a_warning():
    # Jekyll's titleize_slug: the date goes, each `-` word is capitalised (the rest lower)
    warnings: list = []
    rel = "content/posts/2015-08-18-linear-classify-CNN.md"
    meta, body, _ = parse(source("---\nlayout: page\n---\nText\n", rel), "UTC", warnings)
    assert (meta.title, body) == ("Linear Classify Cnn", "Text\n")
    assert f"{rel}:1:1: " + UNTITLED.format("Linear Classify Cnn") in map(str, warnings)


def test_front_matter_without_closing_fence_is_an_error():
    with pytest.raises(ContentError, match="no closing `---`"):
        split_front_matter(source("---\ntitle: T\nbody text\n"))


def test_non_mapping_front_matter_is_an_error():
    with pytest.raises(ContentError, match="must be a mapping"):
        parse(source("---\n- a\n- b\n---\n"), "UTC")


def test_a_repeated_key_takes_its_later_value_with_a_warning_at_the_earlier_line():
    """Jekyll (Psych), Hugo (yaml.v2's non-strict `Unmarshal`) and PyYAML keep a repeated
    key's last value; LoveIt's posts repeat `license:` (empty at the top, HTML at the end)."""
    warnings: list = []
    text = '---\ntitle: A\nlicense: ""\ndate: 2024-01-01\ntitle: B\nlicense: "<a>CC</a>"\n---\n'
    meta, _, _ = parse(source(text), "UTC", warnings)
    assert meta.title == "B"
    repeats = [(w.location.line, w.message) for w in warnings if "is set again" in w.message]
    assert [line for line, _ in repeats] == [2, 3]
    assert "`title` is set again further down; the later value is used" in repeats[0][1]


def test_a_key_written_once_has_no_repeat_warning():
    warnings: list = []
    parse(source("---\ntitle: A\ndate: 2024-01-01\n---\n"), "UTC", warnings)
    assert not [w for w in warnings if "set again" in w.message]


def test_control_characters_from_yaml_escapes_are_removed_from_titles():
    meta, _, _ = parse(source('---\ntitle: "Bell\\a and\\x1b tab\\tend"\n---\n'), "UTC")
    assert meta.title == "Bell and tab end"


def test_unknown_key_is_a_warning_naming_the_key_and_the_known_keys():
    warnings: list = []
    meta, _, _ = parse(source("---\ntitle: T\nweight: 3\ndate: 2024-01-01\n---\n"), "UTC", warnings)
    assert meta.title == "T"
    [warning] = warnings
    assert str(warning).startswith(
        "content/posts/x.md:3:1: warning: unknown front matter key `weight` is ignored;"
        " known keys: aliases, author, authors, bibliography, canonical_url, citation,"
        " citation_style, date,"
        " doi, draft, image,"
    )


def test_misspelt_title_warns_twice_naming_the_key_and_the_title_it_falls_back_to():
    warnings: list = []
    meta, _, _ = parse(source("---\ntittle: T\ndate: 2024-01-01\n---\n"), "UTC", warnings)
    assert meta.title == "X"
    assert [str(w).split(": warning: ")[1][:30] for w in warnings] == [
        "no `title` and no `# heading` ",
        "unknown front matter key `titt",
    ]


def test_file_without_front_matter_is_all_body_and_titled_by_heading_or_name():
    assert split_front_matter(source("# Just text\n")) == ("", "# Just text\n", 1)
    # MkDocs' rule without a heading (OI-wiki's pages, titled by `nav:`): the file name
    warnings: list = []
    meta, body, _ = parse(source("Just text\n", "content/posts/linear_basis.md"), "UTC", warnings)
    assert (meta.title, body) == ("Linear basis", "Just text\n")
    assert "content/posts/linear_basis.md:1:1: " + UNTITLED.format("Linear basis") == str(
        warnings[0]
    )
    # MkDocs' rule: the `# heading` opening a page without a title is its title
    meta, body, body_line = parse(source("# Just text\n"), "UTC", [])
    assert (meta.title, body, body_line) == ("Just text", "", 2)


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# Heading with [link](https://x.org) and `code` and *emph* {#custom}",
         "Heading with link and code and emph"),
        ("# The $x_1 * y_2$ and **bold** $$a$$", "The $x_1 * y_2$ and bold $$a$$"),
        ("# <b>Raw</b> &amp; ![a plot](p.png)", "Raw & a plot"),
        ("# Plain  words", "Plain words"),
    ],
)  # fmt: skip
def test_a_title_from_the_opening_heading_is_its_plain_text_with_its_formulas(heading, title):
    meta, _, _ = parse(source(heading + "\n\nBody.\n"), "UTC", [])
    assert meta.title == title


def test_a_post_without_a_date_is_a_warning_and_a_page_is_not():
    warnings: list = []
    parse(source("---\ntitle: T\n---\n"), "UTC", warnings)
    assert [str(w) for w in warnings] == [
        "content/posts/x.md:1:1: warning: post has no `date:`; it sorts last and has no"
        " citation or feed date; add `date: YYYY-MM-DD`"
    ]
    page = SourceFile(
        path=Path("content/about.md"),
        rel="content/about.md",
        text="---\ntitle: A\n---\n",
        kind="page",
    )
    warnings.clear()
    parse(page, "UTC", warnings)
    assert warnings == []


def test_title_and_subtitle_positions_point_at_their_first_character():
    meta, _, _ = parse(
        source("---\ndate: 2026-01-15\ntitle: The $x$\nlede: 'A  $y$'\n---\n"), "UTC"
    )
    assert meta.title == "The $x$"
    assert meta.title_at == TextAt(line=3, col=8, verbatim=True)
    # spaces collapsed: the value is no longer the file's text one for one
    assert meta.subtitle_at == TextAt(line=4, col=8, verbatim=False)


def test_a_quoted_title_is_verbatim_after_its_quote():
    meta, _, _ = parse(source('---\ntitle: "The $x$"\n---\n'), "UTC")
    assert meta.title_at == TextAt(line=2, col=9, verbatim=True)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("24 Feb 2017", datetime(2017, 2, 24)),  # Pelican (dateutil), R Markdown
        ("3 September 2019", datetime(2019, 9, 3)),
        ("February 24, 2017", datetime(2017, 2, 24)),
        ("Sept. 5th, 2020", datetime(2020, 9, 5)),
        ("Fri, 24 Feb 2017 10:30", datetime(2017, 2, 24, 10, 30)),
        ("24 feb 2017 10:30:15 +02:00", datetime(2017, 2, 24, 10, 30, 15)),
    ],
)
def test_a_date_with_its_month_written_as_a_word_is_a_date(written, expected):
    meta, _, _ = parse(source(f"---\ntitle: T\ndate: {written}\n---\n"), "UTC")
    assert meta.date.replace(tzinfo=None) == expected


@pytest.mark.parametrize(
    "written",
    ["24 Foo 2017", "Feb 2017", "Someday, 24 Feb 2017", "31-13-2020"],
)
def test_a_date_with_no_month_stays_an_error(written):
    with pytest.raises(ContentError) as err:
        parse(source(f"---\ntitle: T\ndate: {written}\n---\n"), "UTC")
    assert err.value.location.line == 3
    assert "is not a date" in err.value.message
    assert "24 Feb 2017" in err.value.message


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("29-12-2020", datetime(2020, 12, 29)),  # Jekyll's Time.parse: day first
        ("4/18/2022", datetime(2022, 4, 18)),  # R Markdown's US order
        ("18.04.2022 10:30", datetime(2022, 4, 18, 10, 30)),
        ("05/05/2021", datetime(2021, 5, 5)),  # both readings are one date
    ],
)
def test_a_numeric_date_whose_month_can_only_be_one_number_is_a_date(written, expected):
    meta, _, _ = parse(source(f"---\ntitle: T\ndate: {written}\n---\n"), "UTC")
    assert meta.date.replace(tzinfo=None) == expected


@pytest.mark.parametrize(
    "written, expected, order",
    [
        ("01-09-2017", datetime(2017, 9, 1), "day first, as Jekyll reads it"),  # Ruby's Time.parse
        ("07.08.2022", datetime(2022, 8, 7), "day first, as Jekyll reads it"),
        ("12/03/2017", datetime(2017, 12, 3), "month first, the US order"),  # R Markdown's
    ],
)
def test_a_numeric_date_whose_month_is_a_guess_is_read_with_a_warning_naming_both(
    written, expected, order
):
    # the build goes on (a Jekyll blog of such dates stopped); the warning says how to choose
    found: list = []
    meta, _, _ = parse(source(f"---\ntitle: T\ndate: {written}\n---\n"), "UTC", found)
    assert meta.date.replace(tzinfo=None) == expected
    [warning] = found
    assert (warning.location.line, warning.location.col) == (3, 7)
    day, other = expected.strftime("%Y-%m-%d"), expected.strftime("%Y-%d-%m")
    first, second = written[:2].lstrip("0"), written[3:5].lstrip("0")
    assert warning.message == (
        f"`date: {written}` could be day {first} or day {second}: it is read {order}, {day}; "
        f"write that, or {other} for the other reading"
    )


KNOWN_KEYS = (
    "aliases author authors bibliography citation citation_style date doi draft image label"
    " lede macros permalink slug subtitle summary tags title toc updated"
).split()


@pytest.mark.parametrize("key", KNOWN_KEYS)
@pytest.mark.parametrize("blank", ["", " []", " ~", " null", " ''"])
def test_a_known_key_left_blank_is_read_or_a_located_error_never_a_crash(key, blank):
    # Obsidian and Quartz templates leave `aliases:` (and other keys) with no value.
    text = f"---\ntitle: T\ndate: 2026-01-15\n{key}:{blank}\n---\nBody\n"
    if key in ("title", "date"):
        text = f"---\n{key}:{blank}\n---\n# T\n"
    try:
        parse(source(text), "UTC")
    except ContentError as err:
        assert err.location is not None and err.location.line >= 2


@pytest.mark.parametrize("blank", ["", " []", " ~", " ''"])
def test_an_alias_list_left_blank_is_no_aliases(blank):
    meta, _, _ = parse(source(f"---\ntitle: T\naliases:{blank}\n---\n"), "UTC")
    assert meta.aliases == ()


def test_a_blank_item_among_aliases_is_left_out():
    meta, _, _ = parse(source("---\ntitle: T\naliases:\n  - /old/\n  - ''\n---\n"), "UTC")
    assert meta.aliases == ("/old/",)


def test_dendron_unix_times_in_milliseconds_are_dates():
    """Dendron writes `created` and `updated` as milliseconds since 1970 (its `dnode.ts`:
    `Time.now().toMillis()`): they stopped the build ("not a date")."""
    meta, _, _ = parse(
        source("---\ntitle: T\ncreated: 1665469534093\nupdated: 1689756013\n---\n"), "UTC"
    )
    assert (meta.date.year, meta.date.month, meta.date.day, meta.date.hour) == (2022, 10, 11, 6)
    assert (meta.updated.year, meta.updated.month, meta.updated.day) == (2023, 7, 19)
    berlin, _, _ = parse(source("---\ntitle: T\ndate: 1665469534093\n---\n"), "Europe/Berlin")
    assert berlin.date.hour == 8 and berlin.date == meta.date


@pytest.mark.parametrize("number", ["20210101", "202101011", "12345678901", "16654695340930"])
def test_other_runs_of_digits_are_still_no_date(number):
    """Only 10 digits (seconds) or 13 (milliseconds) are a Unix time: `20210101` (a date
    written without dashes) or a digit too many stays the located error it was."""
    with pytest.raises(ContentError) as err:
        parse(source(f"---\ntitle: T\ndate: {number}\n---\n"), "UTC")
    assert "is not a date" in err.value.message and err.value.location.line == 3


def test_logseq_page_references_in_front_matter_are_lists_of_names():
    """Logseq's front matter is one `key: text` a line (mldoc's `markdown_front_matter.ml`),
    and its pages write page references there: `tags: [[a]], #b, [[c d]]` is a YAML
    syntax error that stopped the build, `tags: [[a]]` a list inside a list."""
    warnings: list = []
    meta, body, _ = parse(
        source(
            "---\ntitle: U\ntags: [[literature-notes]], #reference, [[Siamese Network]], \n"
            "authors: [[Ada Lovelace]], [[Alan Turing]]\ncategories: [[ml]]\n---\nBody\n"
        ),
        "UTC",
        warnings,
    )
    assert meta.tags[:3] == ("literature-notes", "reference", "Siamese Network")
    assert meta.authors == ("Ada Lovelace", "Alan Turing")
    assert "ml" in meta.tags and body.strip() == "Body"
    assert [w.message for w in warnings if "date" not in w.message] == []


@pytest.mark.parametrize(
    "line",
    [
        "tags: [[1, 2], [3]]",  # YAML's own nested list: names hold no comma
        "tags: #a, #b",  # no `[[`: YAML reads a comment, as it did
        'subtitle: "[[x]], [[y]]"',  # quoted: YAML's string
        "subtitle: see [[x]]",  # text before the reference: YAML's string
    ],
)
def test_yaml_that_only_looks_like_page_references_keeps_its_yaml_reading(line):
    from postil.content.frontmatter import LOGSEQ_REF_VALUE, _ref_list

    text = f"title: T\n{line}\ndate: 2024-01-01\n"
    assert LOGSEQ_REF_VALUE.sub(_ref_list, text) == text


def test_a_key_repeated_with_its_value_is_one_key_and_with_another_the_later_value():
    """Logseq's pages repeat a property (`public: true` on two lines of one block); the
    same plain value twice means one key, quietly. Two values: the later one, warned."""
    meta, _, _ = parse(
        source("---\ntitle: T\ndraft: true\ndate: 2024-01-01\ndraft: true\n---\n"), "UTC"
    )
    assert meta.draft is True
    warnings: list = []
    meta, _, _ = parse(source("---\ntitle: T\ndraft: true\ndraft: false\n---\n"), "UTC", warnings)
    assert meta.draft is False
    assert [w.location.line for w in warnings if "`draft` is set again" in w.message] == [3]
    warnings = []
    meta, _, _ = parse(source("---\ntitle: T\ntags: [a]\ntags: [b]\n---\n"), "UTC", warnings)
    assert meta.tags == ("b",)
    assert [w.location.line for w in warnings if "`tags` is set again" in w.message] == [3]


def test_front_matter_without_its_opening_dashes_is_read_and_warned():
    """A Jekyll post whose edit dropped the first `---`: its keys up to the closing `---`
    were a setext heading and the title the file name's."""
    text = 'layout: post\ntitle: "Generalized PCA"\ndate: 2020-03-14\n<!-- image: -->\n'
    text += "---\n\nBody\n"
    warnings: list = []
    meta, body, body_line = parse(source(text), "UTC", warnings)
    assert (meta.title, meta.date.day, body, body_line) == ("Generalized PCA", 14, "\nBody\n", 6)
    (warning,) = [w for w in warnings if "no opening `---`" in w.message]
    assert warning.location == Location("content/posts/x.md", 1, 1)
    assert "before the `---` on line 5" in warning.message
    assert "add a line `---` before line 1" in warning.message
    # a key written twice: the later value, warned as with the opening line
    text = "title: First\ndate: 2024-01-02\ntitle: Second\n---\nBody\n"
    warnings = []
    meta, body, _ = parse(source(text), "UTC", warnings)
    assert (meta.title, body) == ("Second", "Body\n")
    assert [w.location.line for w in warnings if "`title` is set again" in w.message] == [1]


@pytest.mark.parametrize(
    ("text", "body_line"),
    [
        ("Note: the first line is prose.\nMore prose.\n\n---\n\nBody\n", 1),  # no known key
        ("title: T\nthis is no YAML: [\n---\n", 1),  # not a mapping
        ("layout: post\ndate: 2020-01-01\n---\nBody\n", 1),  # no title: a setext heading
        ("title: T\n\nA paragraph, then a thematic break.\n\n***\n", 3),  # Pelican's `Title:`
    ],
)
def test_lines_that_only_look_like_unopened_front_matter_stay_the_body(text, body_line):
    warnings: list = []
    _, body, line = parse(source(text), "UTC", warnings)
    assert not [w for w in warnings if "no opening `---`" in w.message]
    assert line == body_line and text.endswith(body)


@pytest.mark.parametrize(
    ("written", "why"),
    [
        ("2026-02-29", "there is no day 29 in February 2026"),
        ("2026-04-31T10:00", "there is no day 31 in April 2026"),
        ("2026-13-01", "there is no month 13 (months are 1 to 12)"),
        ("2026-01-03 25:00", "there is no hour 25 (hours are 0 to 23)"),
        ("2026-01-03 10:61", "there is no minute 61 (minutes are 0 to 59)"),
        ("31 Feb 2026", "there is no day 31 in February 2026"),
        ("2/30/2026", "there is no day 30 in February 2026"),
    ],
)
def test_a_date_in_a_known_form_that_names_no_day_says_which_part_is_wrong(written, why):
    """Session 44: `2026-02-30` was told to be written as YYYY-MM-DD, which it was."""
    with pytest.raises(ContentError) as err:
        parse(source(f"---\ntitle: T\ndate: {written}\n---\n"), "UTC")
    assert err.value.message == f"`date: {written}` is not a date; {why}: fix the date"


def test_a_leap_day_is_a_date_and_a_form_postil_does_not_read_names_the_forms():
    meta, _, _ = parse(source("---\ntitle: T\ndate: 2024-02-29\n---\n"), "UTC")
    assert meta.date is not None and (meta.date.month, meta.date.day) == (2, 29)
    with pytest.raises(ContentError) as err:
        parse(source("---\ntitle: T\ndate: yesterday\n---\n"), "UTC")
    assert err.value.message.endswith(
        "write YYYY-MM-DD or YYYY-MM-DD HH:MM[+HH:MM] (or the month as a word: 24 Feb 2017)"
    )
