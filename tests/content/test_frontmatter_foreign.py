"""Front matter as Jekyll, Hugo, Quarto, Distill, Pelican and MkDocs write it."""

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from postil.content.frontmatter import parse
from postil.errors import ContentError, Location
from postil.model import Author, TextAt


def source(text: str, rel: str = "content/posts/x.md"):
    from postil.model import SourceFile

    return SourceFile(path=Path(rel), rel=rel, text=text, kind="post")


def read(text: str, rel: str = "content/posts/x.md"):
    warnings: list = []
    meta, body, body_line = parse(source(text, rel), "UTC", warnings)
    return meta, body, body_line, [str(w) for w in warnings]


def test_jekyll_space_separated_tags_are_separate_tags_and_categories_join_them():
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2021-07-11\ntags: generative-model math-heavy\n"
        "categories: ml generative-model\n---\n"
    )
    assert meta.tags == ("generative-model", "math-heavy", "ml")
    assert warnings == []


def test_comma_separated_tags_split_at_commas():
    meta, *_ = read("---\ntitle: T\ndate: 2021-07-11\ntags: deep learning, math\n---\n")
    assert meta.tags == ("deep learning", "math")


def test_jekyll_keys_with_nothing_to_do_are_quiet_and_excerpt_is_the_summary():
    meta, *_, warnings = read(
        "---\nlayout: post\ncomments: true\ntitle: T\nexcerpt: One line.\n"
        "date: 2016-05-31 11:00:00\nmathjax: true\n---\n"
    )
    assert meta.summary == "One line."
    assert warnings == []


def test_what_a_wordpress_export_writes_is_quiet():
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2011-08-01\npermalink: /2011/08/01/t/\ngeo_public:\n  - 0\n"
        "dsq_thread_id: 123\n_edit_last: 1\ntagazine-media: {a: 1}\n---\n"
    )
    assert meta.permalink == "2011/08/01/t/" and warnings == []


def test_summary_beats_description_beats_excerpt():
    meta, *_ = read(
        "---\ntitle: T\ndate: 2020-01-01\nexcerpt: E\ndescription: D\nsummary: S\n---\n"
    )
    assert meta.summary == "S"
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\nexcerpt: E\ndescription: D\n---\n")
    assert meta.summary == "D"


def test_own_key_written_twice_under_two_names_is_still_an_error():
    with pytest.raises(ContentError, match="repeats another key"):
        read("---\ntitle: T\nauthor: A\nauthors: [B]\n---\n")


def test_bibliography_and_citation_style_are_known_keys_with_their_positions():
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2020-01-01\nbibliography:\n  - refs.bib\n  - ../more.bib\n"
        "citation_style: Numeric\n---\n"
    )
    assert warnings == []
    assert meta.bibliography == ("refs.bib", "../more.bib")
    assert [(at.line, at.col) for at in meta.bibliography_at] == [(5, 5), (6, 5)]
    assert meta.citation_style == "numeric"


def test_unknown_keys_still_warn():
    *_, warnings = read("---\ntitle: T\ndate: 2020-01-01\ncsl: apa.csl\n---\n")
    assert warnings == [
        "content/posts/x.md:4:1: warning: unknown front matter key `csl` is ignored; "
        "known keys: aliases, author, authors, bibliography, canonical_url, citation, "
        "citation_style, date, "
        "doi, draft, image, label, lang, lede, macros, permalink, slug, styles, subtitle, "
        "summary, tags, title, toc, updated"
    ]


def test_distill_authors_with_urls_and_affiliations():
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2018-12-22\nauthors:\n"
        '  - name: Ada Lovelace\n    url: "https://example.org/ada"\n'
        "    affiliations:\n      name: Analytical Society\n"
        "  - name: Charles Babbage\n---\n"
    )
    assert meta.authors == ("Ada Lovelace", "Charles Babbage")
    assert meta.author_details == (
        Author("Ada Lovelace", "https://example.org/ada", ("Analytical Society",)),
        Author("Charles Babbage"),
    )
    assert warnings == []


def test_quarto_author_mapping_with_a_list_of_affiliations():
    meta, *_ = read(
        "---\ntitle: T\ndate: 2023-01-05\nauthor:\n  - name: Grace Hopper\n"
        "    affiliations:\n      - name: Navy\n      - Yale\n---\n"
    )
    assert meta.author_details == (Author("Grace Hopper", "", ("Navy", "Yale")),)


def test_author_mapping_without_a_name_is_an_error_at_the_mapping():
    with pytest.raises(ContentError) as err:
        read("---\ntitle: T\nauthors:\n  - url: https://x.org\n---\n")
    assert err.value.location == Location("content/posts/x.md", 4, 5)
    assert "has no `name`" in err.value.message


def test_plain_author_names_have_no_details():
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\nauthor: Ada\n---\n")
    assert (meta.authors, meta.author_details) == (("Ada",), ())


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("image: /img/card.png", "/img/card.png"),
        ("images: [a.png, b.png]", "a.png"),
        ("image:\n  path: /assets/x.jpg\n  alt: X", "/assets/x.jpg"),
        ("thumbnail: assets/t.jpg", "assets/t.jpg"),
        ("preview: images/card.png", "images/card.png"),  # R's distill
        ("preview: false", ""),  # a theme's switch names no file
        ("thumbnail: true", ""),
        ("cover:\n  image: c.png", "c.png"),
        ('header-img: "img/code.png"', "img/code.png"),  # Clean Blog, Hux Blog
        ("cover-img: /c.jpg\nthumbnail-img: /t.jpg", "/c.jpg"),  # Beautiful Jekyll
        ("thumbnail-img: /t.jpg\nshare-img: /s.jpg\ncover-img: /c.jpg", "/s.jpg"),
        # Minimal Mistakes' header: the social image first, then the teaser, the header's
        ("header:\n  overlay_image: /o.png\n  caption: 'Photo: [x](https://x.org)'", "/o.png"),
        ("header:\n  image: /h.png\n  teaser: /t.png\n  og_image: /og.png", "/og.png"),
        ("header:\n  overlay_color: '#333'\nimage: /i.png", "/i.png"),  # `image:` ranks first
    ],
)
def test_social_image_from_each_generator(lines, expected):
    meta, *_ = read(f"---\ntitle: T\ndate: 2020-01-01\n{lines}\n---\n")
    assert meta.image == expected


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("toc: true", True),
        ("toc: false", False),
        ("toc:\n  sidebar: left", True),
        ("", None),
        ("toc: fa", True),  # a real post's typo: Jekyll's and Hugo's templates show a toc
        ("toc: no", False),  # YAML 1.1's false, as Jekyll reads it
        ("toc: Off", False),
    ],
)
def test_toc_flag(lines, expected):
    meta, *_ = read(f"---\ntitle: T\ndate: 2020-01-01\n{lines}\n---\n")
    assert meta.toc is expected


def test_jekyll_published_false_is_a_draft():
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\npublished: false\n---\n")
    assert meta.draft is True


def test_jekyll_published_true_is_no_draft_and_draft_wins_over_it():
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\npublished: true\n---\n")
    assert meta.draft is False
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\npublished: true\ndraft: true\n---\n")
    assert meta.draft is True


def test_hakyll_published_date_is_the_post_date_and_no_draft():
    meta, *_, warnings = read("---\ntitle: T\npublished: 2008-04-17T19:37:24Z\n---\n")
    assert meta.date == datetime(2008, 4, 17, 19, 37, 24, tzinfo=timezone.utc)
    assert meta.draft is False
    assert warnings == []


def test_date_wins_over_a_published_date():
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-02\npublished: 2008-04-17\n---\n")
    assert meta.date is not None and meta.date.date().isoformat() == "2020-01-02"


def test_published_neither_boolean_nor_date_is_an_error_naming_both_readings():
    with pytest.raises(ContentError) as caught:
        read("---\ntitle: T\ndate: 2020-01-01\npublished: soon\n---\n")
    message = str(caught.value)
    assert "x.md:4:12" in message
    assert "must be true or false (Jekyll" in message and "date (Hakyll" in message


def test_astropaper_dates_and_social_image_are_read_without_warnings():
    meta, *_, warnings = read(
        "---\ntitle: T\npubDatetime: 2024-11-28T12:00:00Z\nmodDatetime: 2024-12-01T08:00:00Z\n"
        "ogImage: /og.png\nfeatured: false\n---\n"
    )
    assert meta.date == datetime(2024, 11, 28, 12, 0, tzinfo=timezone.utc)
    assert meta.updated == datetime(2024, 12, 1, 8, 0, tzinfo=timezone.utc)
    assert meta.image == "/og.png"
    assert warnings == []


def test_astropaper_empty_mod_datetime_is_as_if_not_written():
    meta, *_, warnings = read("---\ntitle: T\npubDatetime: 2024-11-28\nmodDatetime:\n---\n")
    assert meta.updated is None and warnings == []


def test_hugo_toml_front_matter_is_read():
    meta, body, body_line, warnings = read(
        "+++\ntitle = 'PCA: a model'\ndate = 2025-10-20T12:20:23-05:00\ndraft = false\n"
        'categories = ["AI"]\ntags = ["pca", "gaussians"]\n[params]\nmath = true\n+++\n\nBody\n'
    )
    assert meta.title == "PCA: a model"
    assert meta.title_at == TextAt(line=2, col=10, verbatim=True)
    assert meta.date == datetime(2025, 10, 20, 12, 20, 23, tzinfo=timezone(timedelta(hours=-5)))
    assert meta.draft is False
    assert meta.tags == ("pca", "gaussians", "AI")
    assert (body, body_line) == ("\nBody\n", 10)
    assert warnings == [
        "content/posts/x.md:7:2: warning: unknown front matter key `params` is ignored; "
        "known keys: aliases, author, authors, bibliography, canonical_url, citation, "
        "citation_style, date, "
        "doi, draft, image, label, lang, lede, macros, permalink, slug, styles, subtitle, "
        "summary, tags, title, toc, updated"
    ]


def test_zola_taxonomies_are_tags_and_extra_is_quiet_and_path_is_the_permalink():
    meta, _, _, warnings = read(
        '+++\ntitle = "CBPV"\ndate = 2023-07-22\npath = "notes/cbpv"\n[taxonomies]\n'
        'categories = ["blog"]\ntags = ["logic", "cbpv"]\nseries = ["x"]\n[extra]\n'
        "math = true\n+++\nBody\n"
    )
    assert meta.tags == ("logic", "cbpv", "blog")
    assert meta.permalink == "notes/cbpv/"
    # a taxonomy postil has no equivalent for is named at its own line
    assert [w.split(": warning: ")[0] for w in warnings] == ["content/posts/x.md:8:10"]
    assert warnings[0].split(": warning: ")[1] == (
        "Zola taxonomy `series` is ignored: postil's one taxonomy is `tags` (`categories` join "
        "them); list these terms under `tags` to show them, or remove the key"
    )


def test_a_zola_taxonomy_named_like_a_front_matter_key_is_not_read_as_that_key():
    meta, _, _, warnings = read(
        '+++\ntitle = "T"\ndate = 2023-07-22\n[taxonomies]\nauthors = ["Ann"]\ntitle = ["x"]\n+++\n'
    )
    assert (meta.title, meta.authors) == ("T", ("Ann",))  # an authors taxonomy: the byline
    assert [w.split("`")[1] for w in warnings] == ["title"]
    assert "Zola taxonomy `title` is ignored" in warnings[0]


def test_a_taxonomies_key_that_is_not_a_table_is_an_unknown_key():
    _, _, _, warnings = read('+++\ntitle = "T"\ndate = 2023-07-22\ntaxonomies = "a"\n+++\n')
    assert "unknown front matter key `taxonomies`" in warnings[0]


def test_toml_date_without_offset_is_in_the_site_timezone():
    meta, *_ = read('+++\ntitle = "T"\ndate = 2024-03-05\n+++\n')
    assert meta.date == datetime(2024, 3, 5, tzinfo=timezone.utc)


def test_toml_syntax_error_is_at_its_file_line():
    with pytest.raises(ContentError) as err:
        read('+++\ntitle = "T"\ndate = = 2024\n+++\n')
    assert err.value.location.line == 3
    assert err.value.message.startswith("TOML syntax error")


def test_toml_without_closing_fence_is_an_error():
    with pytest.raises(ContentError, match="no closing `\\+\\+\\+`"):
        read('+++\ntitle = "T"\n')


def test_toml_value_of_the_wrong_type_is_an_error_at_its_line():
    with pytest.raises(ContentError) as err:
        read('+++\ntitle = "T"\ndraft = "yes"\n+++\n')
    assert err.value.location == Location("content/posts/x.md", 3, 9)


def test_pelican_metadata_lines_are_front_matter():
    meta, body, body_line, warnings = read(
        "Title: Kernels, $k(x, y)$\nDate: 2010-12-03 10:20\nModified: 2010-12-05 19:30\n"
        "Category: Python\nTags: pelican, publishing\nAuthors: Alexis Metaireau; Conan Doyle\n"
        "Summary: Short version.\nStatus: draft\n\nThis is the content.\n"
    )
    assert meta.title == "Kernels, $k(x, y)$"
    assert meta.title_at == TextAt(line=1, col=8, verbatim=True)
    assert meta.updated == datetime(2010, 12, 5, 19, 30, tzinfo=timezone.utc)
    assert meta.tags == ("pelican", "publishing", "Python")
    assert meta.authors == ("Alexis Metaireau", "Conan Doyle")
    assert (meta.summary, meta.draft) == ("Short version.", True)
    assert (body, body_line) == ("This is the content.\n", 10)
    assert warnings == []


def test_mkdocs_metadata_continuation_lines_and_errors_at_the_file_line():
    meta, *_ = read("title: A long\n    title\ndate: 2020-01-01\n\nText\n")
    assert meta.title == "A long title"
    with pytest.raises(ContentError) as err:
        read("Title: T\nDate: soon\n\nText\n")
    assert err.value.location.line == 2


def test_text_starting_with_a_colon_phrase_is_not_metadata():
    meta, body, _, warnings = read("Note: this post has no front matter.\n\nText\n")
    assert (meta.title, body) == ("X", "Note: this post has no front matter.\n\nText\n")
    assert "titled `X` after its file name" in warnings[0]


def test_mkdocs_page_without_title_is_titled_by_its_opening_heading_which_leaves_the_body():
    meta, body, body_line, warnings = read(
        "---\ntags:\n  - Algebra\ndate: 2020-01-02\n---\n\n<!-- note -->\n"
        "# Continued $x$ fractions {#top}\n\nText\n"
    )
    assert meta.title == "Continued $x$ fractions"
    assert meta.title_at == TextAt(line=8, col=3, verbatim=True)
    assert meta.title_id == "top"
    assert meta.tags == ("Algebra",)
    assert (body, body_line) == ("\nText\n", 9)
    assert warnings == []


@pytest.mark.parametrize(
    ("heading", "title", "title_id"),
    [
        ("# Intro {#intro .lead}", "Intro", "intro"),
        ("# Intro {: #intro}", "Intro", "intro"),  # kramdown's form
        ("# Intro {.lead}", "Intro", "intro"),  # no id given: its slug
        ("# The set {1, 2}", "The set {1, 2}", "the-set-1-2"),  # braces, no attribute list
        ("# Sums {% raw %}", "Sums {% raw %}", "sums-raw"),
    ],
)
def test_the_opening_headings_id_is_the_titles_and_only_an_attribute_list_is_left_out(
    heading, title, title_id
):
    meta, *_ = read(f"---\ndate: 2020-01-02\n---\n{heading}\n\nText\n")
    assert (meta.title, meta.title_id) == (title, title_id)


def test_setext_heading_opening_a_page_without_title_is_its_title():
    meta, body, body_line, _ = read("Kernels\n=======\n\nText\n")
    assert (meta.title, body, body_line) == ("Kernels", "\nText\n", 3)


@pytest.mark.parametrize(
    "before",
    [
        "\\newcommand{\\E}{\\mathbb{E}}\n\n",  # Franklin.jl, Pandoc: a line of its own
        "\\newcommand{\\E}{\\mathbb{E}}\n\\DeclareMathOperator{\\Var}{Var}\n",  # no blank
        "$$\\newcommand{\\E}{\\mathbb{E}}$$\n\n",  # MathJax: a display block of definitions
        "$$\n\\newcommand{\\E}{\\mathbb{E}}\n\\def\\Var{\\operatorname{Var}}\n$$\n\n",
    ],
)
def test_macro_definitions_before_the_opening_heading_show_nothing_and_stay_the_pages(before):
    meta, body, body_line, warnings = read(
        f"+++\ndate = Date(2020, 1, 2)\n+++\n{before}# St Petersburg\n\nText $\\E X$\n"
    )
    assert meta.title == "St Petersburg"
    assert dict(meta.macros)["E"] == "\\mathbb{E}"
    assert body == "\nText $\\E X$\n"
    assert warnings == []


@pytest.mark.parametrize(
    "before",
    [
        "\\newcommand{\\E}{\\mathbb{E}} is how we write it.\n\n",  # prose after it shows
        "\\newcommand{\\E}\n\n",  # malformed: shown, as mathprose leaves it
        "$$\\newcommand{\\E}{\\mathbb{E}} \\E X$$\n\n",  # a formula is shown
        "$$\n\\newcommand{\\E}{\\mathbb{E}}\n",  # never closed
        "\\section{Intro}\n\n",  # a command that defines nothing
    ],
)
def test_what_shows_before_a_heading_keeps_it_from_being_the_title(before):
    meta, body, _, _ = read(f"---\ndate: 2020-01-02\n---\n{before}# St Petersburg\n")
    assert meta.title == "X"
    assert body.startswith(before)


def test_mkdocs_metadata_without_title_is_read_when_its_keys_are_known_and_title_is_the_name():
    meta, body, body_line, warnings = read(
        "author: Ann, Bob\n\nText $x$\n", rel="content/posts/mobius_inversion.md"
    )
    assert meta.title == "Mobius inversion"
    assert meta.authors == ("Ann", "Bob")
    assert (body, body_line) == ("Text $x$\n", 3)
    assert warnings == [
        "content/posts/mobius_inversion.md:1:1: warning: no `title` and no `# heading` "
        "opening the page; it is titled `Mobius inversion` after its file name; add "
        "`title: …` at the top (or a `# heading` as its first line)",
        "content/posts/mobius_inversion.md:1:1: warning: post has no `date:`; it sorts last "
        "and has no citation or feed date; add `date: YYYY-MM-DD`",
    ]


def test_heading_after_text_or_a_level_two_heading_is_no_title():
    for text in ("---\nslug: x\n---\nIntro\n\n# Later\n", "---\nslug: x\n---\n## Part\n"):
        meta, body, _, warnings = read(text, rel="content/posts/2020-01-02-some-notes.md")
        assert (meta.title, body) == ("Some Notes", text.split("---\n")[2])
        assert "titled `Some Notes` after its file name" in warnings[0]


@pytest.mark.parametrize(
    ("written", "path"),
    [
        ("/2012/12/04/a-primer/", "2012/12/04/a-primer/"),  # Hugo's `url:`
        ("/2012/12/04/a-primer", "2012/12/04/a-primer/"),  # a folder either way
        ("my-page/", "my-page/"),  # Pelican writes it without the first slash
        ("/old/post.html", "old/post.html"),  # a Jekyll page's file
    ],
)
def test_permalink_and_hugos_url_are_a_path_on_the_site(written, path):
    for key in ("permalink", "url"):
        meta, *_, warnings = read(f"---\ntitle: T\ndate: 2020-01-01\n{key}: {written}\n---\n")
        at = TextAt(4, len(key) + 3, written == path)  # verbatim: the value as written
        assert (meta.permalink, meta.permalink_at) == (path, at)
        assert warnings == []


def test_aliases_and_redirect_from_are_paths_with_their_places():
    meta, *_ = read("---\ntitle: T\naliases: [/a/, /b.html]\n---\n")
    assert meta.aliases == ("/a/", "/b.html")
    assert meta.aliases_at == (TextAt(3, 11, True), TextAt(3, 16, True))
    meta, *_ = read("---\ntitle: T\nredirect_from:\n  - /2019/x\n  - old.html\n---\n")
    assert meta.aliases == ("/2019/x/", "old.html")  # the second from the post's folder
    assert meta.aliases_at == (TextAt(4, 5, True), TextAt(5, 5, True))


def test_an_alias_percent_encoded_or_with_sub_delimiters_is_the_path_a_server_decodes():
    # jekyll-redirect-from's old URLs of files named in Chinese, and of one with a comma
    meta, *_ = read(
        "---\ntitle: T\nredirect_from:\n  - /_posts/2018-12-03-%E6%A6%82%E7%8E%87/\n"
        "  - /_posts/contest-2020,-online/\n  - /notes/(draft)+v2/\n---\n"
    )
    assert meta.aliases == (
        "/_posts/2018-12-03-概率/",
        "/_posts/contest-2020,-online/",
        "/notes/(draft)+v2/",
    )


@pytest.mark.parametrize(
    "written", ["/a%FFb/", "/a b/", "/a%20b/", "/a?b/", "/a%3Fb/", "/a/../b/", "/%2E%2E/x/"]
)
def test_an_alias_that_is_no_path_a_server_finds_stays_an_error(written):
    with pytest.raises(ContentError) as caught:
        read(f"---\ntitle: T\naliases: [{written}]\n---\n")
    assert "is not a plain path" in caught.value.message


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("https://x.org/a/", "is a full URL"),
        ("/:year/:title/", "is a placeholder such as :title"),
        ("/a/../b/", "is not a plain path"),
        ("/a//b/", "is not a plain path"),
        ("/", "is not a plain path"),
        ("/café/", "is not a plain path"),
        ("/a b/", "is not a plain path"),
    ],
)
def test_a_permalink_that_is_no_plain_path_is_an_error_at_its_value(written, problem):
    with pytest.raises(ContentError) as caught:
        read(f"---\ntitle: T\npermalink: {written}\n---\n")
    assert caught.value.location == Location("content/posts/x.md", 3, 12)
    assert f"`permalink: {written}` {problem}" in caught.value.message


def test_a_jekyll_post_without_date_is_dated_by_its_file_name():
    meta, *_, warnings = read("---\ntitle: T\n---\n", "content/posts/2015-08-18-title.md")
    assert meta.date == datetime(2015, 8, 18, tzinfo=meta.date.tzinfo)
    assert str(meta.date.tzinfo) == "UTC" and warnings == []
    meta, *_ = read("---\ntitle: T\n---\n", "content/posts/2015-08-18-x/index.md")  # a bundle
    assert meta.date.date().isoformat() == "2015-08-18"
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-02\n---\n", "content/posts/2015-08-18-t.md")
    assert meta.date.date().isoformat() == "2020-01-02"  # front matter wins, as in Jekyll


@pytest.mark.parametrize("name", ["2015-13-45-t.md", "2015-08-t.md", "notes-2015-08-18.md"])
def test_a_file_name_without_a_valid_leading_date_gives_none(name):
    meta, *_, warnings = read("---\ntitle: T\n---\n", f"content/posts/{name}")
    assert meta.date is None and "post has no `date:`" in warnings[0]


def test_a_time_jekyll_reads_with_one_digit_minutes_is_a_date():
    meta, *_ = read("---\ntitle: T\ndate: 2015-08-18 12:0:00\n---\n")
    assert (meta.date.hour, meta.date.minute) == (12, 0)


def test_quartos_page_options_for_its_own_theme_are_quiet_but_number_sections_warns():
    *_, warnings = read(
        "---\ntitle: T\ndate: 2024-01-01\nreference-location: margin\n"
        "citation-location: margin\nfig-cap-location: margin\nnumber-sections: true\n---\n",
        "content/posts/x.qmd",
    )
    assert len(warnings) == 1 and "`number-sections`" in warnings[0]


@pytest.mark.parametrize(
    "written", ["10.59350/abc", "doi:10.59350/abc", "https://doi.org/10.59350/abc"]
)
def test_a_doi_is_kept_without_its_resolver(written):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2024-01-01\ndoi: {written}\n---\n")
    assert meta.doi == "10.59350/abc" and warnings == []


def test_text_that_is_no_doi_is_an_error_at_its_value():
    with pytest.raises(ContentError) as caught:
        read("---\ntitle: T\ndoi: see the paper\n---\n")
    assert caught.value.location == Location("content/posts/x.md", 3, 6)
    assert "`doi: see the paper` is not a DOI" in caught.value.message


def test_aliases_and_redirect_from_join_with_their_places():
    meta, *_ = read("---\ntitle: T\naliases: [/a/]\nredirect_from:\n  - /b/\n---\n")
    assert meta.aliases == ("/a/", "/b/")
    assert meta.aliases_at == (TextAt(3, 11, True), TextAt(5, 5, True))


def test_r_markdown_output_and_chirpy_mermaid_switch_are_quiet_and_the_date_is_read():
    meta, *_, warnings = read(
        "---\ntitle: T\nDate: 22 Jul 2024\noutput:\n  html_document:\n    df_print: paged\n"
        "math: true\nmermaid: true\n---\n"
    )
    assert meta.date == datetime(2024, 7, 22, tzinfo=timezone.utc)
    assert warnings == []


def test_a_key_near_the_quiet_ones_still_warns():
    *_, warnings = read("---\ntitle: T\ndate: 2020-01-01\noutputs: [html]\n---\n")
    assert len(warnings) == 1 and "unknown front matter key `outputs`" in warnings[0]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("image:\n  caption: 'A photo'\n  focal_point: Smart", ""),
        ("image:\n  caption: C\ncover:\n  image: https://x.org/c.jpg", "https://x.org/c.jpg"),
        ("cover:\n  image: c.png\nimage:\n  preview_only: true", "c.png"),
    ],
)
def test_hugo_blox_image_options_name_no_image_and_are_no_error(lines, expected):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2020-01-01\n{lines}\n---\n")
    assert meta.image == expected
    assert warnings == []


def test_an_image_mapping_of_another_theme_is_left_out_with_a_warning_at_the_mapping():
    # A display option of a theme postil does not know never stops the build.
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2020-01-01\nimage:\n  caption: C\n  width: 300\n---\n"
    )
    assert meta.image == ""
    assert len(warnings) == 1 and warnings[0].startswith("content/posts/x.md:5:3: warning:")
    assert "`image` names no image postil reads" in warnings[0] and "under `path:`" in warnings[0]


def test_an_unreadable_image_mapping_leaves_the_next_image_key_to_name_the_image():
    text = "---\ntitle: T\ndate: 2020-01-01\nimage:\n  width: 3\nthumbnail: t.png\n---\n"
    meta, *_, warnings = read(text)
    assert meta.image == "t.png" and len(warnings) == 1


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # So Simple, HPSTR: a bare file name is in the site's /images/ folder
        ("image:\n  feature: abstract-3.jpg\n  credit: dargadgetz", "/images/abstract-3.jpg"),
        ("image:\n  teaser: t.png\n  feature: f.png", "/images/f.png"),
        ("image:\n  thumb: https://x.org/t.png", "https://x.org/t.png"),
        ("image:\n  feature: /assets/f.png", "/assets/f.png"),
        ("image:\n  og_image: og.png\n  feature: f.png", "og.png"),  # the social one first
    ],
)
def test_michael_roses_theme_images_name_the_post_image(lines, expected):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2020-01-01\n{lines}\n---\n")
    assert meta.image == expected
    assert warnings == []


def test_hugos_publishdate_dates_a_post_without_date_and_publishes_it():
    meta, *_, warnings = read("---\ntitle: T\npublishDate: 2017-12-23 07:00\n---\n")
    assert meta.date.isoformat() == "2017-12-23T07:00:00+00:00" and warnings == []
    assert meta.published_at == meta.date
    both = read("---\ntitle: T\ndate: 2020-01-01\npublishDate: 2021-02-03\n---\n")[0]
    assert both.date.isoformat().startswith("2020-01-01")  # the date the post shows
    assert both.published_at.isoformat().startswith("2021-02-03")  # when it goes out


def test_front_matter_lines_commented_out_with_html_comments_are_quiet():
    text = (
        "---\ntitle: T\ndate: 2020-01-01\n<!-- modified: 2014-03-29 -->\n"
        "<!-- image:\n  feature: abstract-3.jpg\n  creditlink: http://x.org/ -->\n"
        "future: true\nhtmlwidgets: true\n---\n"
    )
    meta, *_, warnings = read(text)
    assert warnings == [] and meta.image == ""


@pytest.mark.parametrize("written", ["2023-11-10", "'2023-11-10'"])
def test_quartz_created_and_modified_keys_are_the_date_and_the_update(written):
    # Quartz's FrontMatter plugin reads `created`/`date` and `modified`/`last-modified`.
    meta, *_, warnings = read(
        f"---\ntitle: T\ncreated: {written}\nlast-modified: 2024-01-02\ncssclasses: [wide]\n---\n"
    )
    assert meta.date == datetime(2023, 11, 10, tzinfo=timezone.utc)
    assert meta.updated == datetime(2024, 1, 2, tzinfo=timezone.utc)
    assert warnings == []


def test_date_wins_over_quartz_created():
    meta, *_ = read("---\ntitle: T\ndate: 2020-01-01\ncreated: 2023-11-10\n---\n")
    assert meta.date == datetime(2020, 1, 1, tzinfo=timezone.utc)


def test_a_quartz_created_that_is_no_date_is_an_error_at_its_line():
    with pytest.raises(ContentError) as err:
        read("---\ntitle: T\ncreated: someday\n---\n")
    assert err.value.location.line == 3


def test_pandoc_title_block_is_title_authors_and_date():
    meta, body, body_line, warnings = read(
        "% The Title\n  Goes On\n% Ada Lovelace; Alan Turing\n% March 4, 2021\n\nBody $x$.\n"
    )
    assert meta.title == "The Title Goes On"
    assert meta.authors == ("Ada Lovelace", "Alan Turing")
    assert meta.date == datetime(2021, 3, 4, tzinfo=timezone.utc)
    assert (body, body_line, warnings) == ("Body $x$.\n", 6, [])


def test_pandoc_title_block_parts_may_be_left_out_and_errors_are_at_their_line():
    meta, body, _, _ = read("% Only a Title\n%\n% 2021-03-04\nBody.\n")
    assert (meta.title, meta.authors, body) == ("Only a Title", (), "Body.\n")
    with pytest.raises(ContentError) as caught:
        read("% T\n% A\n% not a date at all\n\nBody.\n")
    assert caught.value.location == Location("content/posts/x.md", 3, 3)


def test_hakyll_metadata_between_long_dash_lines_is_front_matter():
    meta, body, body_line, warnings = read(
        "------------------------\ntitle: Hakyll Post\ndate: 2014-04-05\ntags: a, b\n"
        "------------------------\n\nBody.\n"
    )
    assert (meta.title, meta.tags, body, body_line, warnings) == (
        "Hakyll Post",
        ("a", "b"),
        "\nBody.\n",
        6,
        [],
    )


@pytest.mark.parametrize(
    "text",
    [
        "-----\n\nA post that opens with a rule.\n\n-----\n",
        "-----\nNote: a line like a key\n-----\n\nText.\n",  # no key postil knows
        "-----\nno closing line\n",
    ],
)
def test_a_post_opening_with_a_thematic_break_has_no_front_matter(text):
    meta, body, body_line, _ = read(text)
    assert (body, body_line) == (text, 1)


def test_docusaurus_and_astro_keys_are_read_as_their_meaning():
    meta, *_, warnings = read(
        "---\ntitle: T\npubDate: 2024-05-01\nupdatedDate: 2024-06-02\nheroImage: ./hero.png\n"
        "hide_table_of_contents: true\ndescription: What it says\n---\n",
        "content/posts/x.mdx",
    )
    assert meta.date.date().isoformat() == "2024-05-01"
    assert meta.updated.date().isoformat() == "2024-06-02"
    assert meta.image == "./hero.png"
    assert meta.toc is False
    assert meta.summary == "What it says"
    assert warnings == []


def test_docusaurus_hide_table_of_contents_false_keeps_the_table_of_contents():
    meta, *_ = read("---\ntitle: T\ndate: 2024-05-01\nhide_table_of_contents: false\n---\n")
    assert meta.toc is True


NIKOLA = (
    "<!--\n.. title: Known bits\n.. slug: toy-knownbits\n.. date: 2024-07-30 12:00:00 UTC+02:00\n"
    ".. tags: math, compilers\n.. category: blog\n.. author: Ada Lovelace\n"
    ".. description: A short summary.\n.. has_math: true\n.. previewimage: /images/k.png\n"
    "-->\n\nText with $x^2$.\n"
)


def test_nikola_metadata_in_a_comment_is_front_matter():
    meta, body, body_line, warnings = read(NIKOLA)
    assert (meta.title, meta.slug, meta.authors) == (
        "Known bits",
        "toy-knownbits",
        ("Ada Lovelace",),
    )
    assert meta.date == datetime(2024, 7, 30, 12, tzinfo=timezone(timedelta(hours=2)))
    assert (meta.tags, meta.summary, meta.image) == (
        ("math", "compilers", "blog"),
        "A short summary.",
        "/images/k.png",
    )
    assert (body, body_line, warnings) == ("Text with $x^2$.\n", 13, [])
    assert meta.front_matter_syntax == "nikola"  # its shortcodes' warnings name Nikola


@pytest.mark.parametrize(
    ("text", "body", "body_line"),
    [
        (
            "<!-\n.. title: Short dashes\n.. date: 2024-07-30\n.. tags: a, b\n->\n\nText.\n",
            "Text.\n",
            7,
        ),
        (
            "<!---\n.. title: Short dashes\n.. date: 2024-07-30\n.. tags: a, b\n--->\nText.\n",
            "Text.\n",
            6,
        ),
        (".. title: Short dashes\n.. date: 2024-07-30\n.. tags: a, b\n\nText.\n", "Text.\n", 5),
        (".. title: Short dashes\n.. date: 2024-07-30\n.. tags: a, b\n", "", 5),
    ],
)
def test_nikola_metadata_without_a_proper_comment_is_front_matter(text, body, body_line):
    """Nikola reads the `.. key: value` lines of a file's first block whatever wraps them
    (its `NikolaMetadata` splits at the first blank line), so `<!-` … `->` and bare lines
    are metadata; postil showed them as text and titled the post after its file."""
    meta, *rest = read(text)
    assert (meta.title, meta.tags, meta.date) == (
        "Short dashes",
        ("a", "b"),
        datetime(2024, 7, 30, tzinfo=timezone.utc),
    )
    assert rest == [body, body_line, []]


def test_a_nikola_date_error_is_at_its_value():
    with pytest.raises(ContentError) as caught:
        read("<!--\n.. title: T\n.. date: next week\n-->\n\nText.\n")
    assert caught.value.location == Location("content/posts/x.md", 3, 10)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("2012/09/15 19:52:05", datetime(2012, 9, 15, 19, 52, 5, tzinfo=timezone.utc)),
        ("2024-07-30 12:00:00 UTC", datetime(2024, 7, 30, 12, tzinfo=timezone.utc)),
        ("2024-07-30 12:00 GMT-05:00", datetime(2024, 7, 30, 17, tzinfo=timezone.utc)),
    ],
)
def test_nikolas_date_forms_are_read(written, expected):
    meta, *_ = read(f"---\ntitle: T\ndate: {written}\n---\n")
    assert meta.date == expected


@pytest.mark.parametrize(
    "text",
    [
        "<!--\nAn ordinary comment.\n-->\n\nText.\n",
        "<!--\n.. note: no title, a key postil does not know\n-->\n\nText.\n",
        "<!--\n.. title: never closed\n\nText.\n",
        "<!-- .. title: on the opening line -->\n\nText.\n",
        "<!-\n.. title: never closed\n\nText.\n",
        ".. note: no title, a key postil does not know\n\nText.\n",
        ".. title: a bare line\nthen prose in the same paragraph.\n\nText.\n",
    ],
)
def test_a_comment_that_is_not_nikola_metadata_stays_the_body(text):
    meta, body, body_line, _ = read(text)
    assert meta.title == "X" and (body, body_line) == (text, 1)


def test_knitr_inline_r_code_in_r_markdown_front_matter_is_left_out_with_one_warning():
    """R Markdown writes `date: "`r Sys.Date()`"`: knitr puts the value in when it knits.
    It stopped the build ("not a date"); now the key is left out with a warning saying so
    (and no second "no date" or "no title" warning). In a `.md` post such text is text."""
    text = (
        '---\ntitle: "Report for `r params$region`"\n'
        "date: \"`r format(Sys.Date(), '%Y-%m-%d')`\"\nauthor: Ada\n---\n\nBody.\n"
    )
    meta, *_, warnings = read(text, "content/posts/report.Rmd")
    assert meta.title == "Report" and meta.date is None and meta.authors == ("Ada",)
    assert warnings == [
        "content/posts/report.Rmd:2:8: warning: `title: Report for `r params$region`` holds "
        "R code that knitr runs when it knits the post; postil does not run code, so "
        "`title` is left out: write its value (`title: …`)",
        "content/posts/report.Rmd:3:7: warning: `date: `r format(Sys.Date(), '%Y-%m-%d')`` "
        "holds R code that knitr runs when it knits the post; postil does not run code, so "
        "`date` is left out: write its value (`date: YYYY-MM-DD`)",
    ]
    meta, *_, warnings = read('---\ntitle: "The `r x` trick"\ndate: 2020-01-01\n---\n')
    assert meta.title == "The `r x` trick" and warnings == []
    with pytest.raises(ContentError, match="is not a date"):
        read('---\ntitle: T\ndate: "`r Sys.Date()`"\n---\n')  # a .md post: a bad date


def test_an_empty_key_beside_another_for_its_value_is_no_duplicate():
    """Hugo Blox's (Wowchemy's, blogdown's) archetypes write `author:` and `authors: []`,
    `author: X` and `authors: [X]`, `doi: ""`, an empty `date:` or `title:`: each stopped
    the build ("`authors` repeats another key", "not a DOI", "not a date", "`title` is
    empty"). An empty key is as if not written, the same value twice is one; two different
    values still conflict."""
    for empty in ("[]", '""', "~", ""):
        meta, *_, warnings = read(
            f"---\ntitle: T\ndate: 2021-02-18\nauthor: Erika\nauthors: {empty}\n---\n"
        )
        assert meta.authors == ("Erika",) and warnings == []
    meta, *_ = read("---\ntitle: T\nauthors: []\ndate: 2021-02-18\n---\n")
    assert meta.authors == ()
    meta, *_, warnings = read('---\ntitle: T\nauthor: "Erika K"\nauthors: [Erika K]\n---\n')
    assert meta.authors == ("Erika K",)  # the same value twice: no conflict
    meta, *_, warnings = read('---\ntitle: ""\ndate:\ndoi: ""\nsummary: \'\'\n---\nBody.\n')
    assert (meta.title, meta.date, meta.doi, meta.summary) == ("X", None, "", "")
    assert [w.split(": warning: ")[1][:22] for w in warnings] == [
        "no `title` and no `# h",
        "post has no `date:`; i",
    ]
    with pytest.raises(ContentError, match="`authors` repeats another key"):
        read("---\ntitle: T\nauthor: A\nauthors: [B]\n---\n")


def test_pelicans_update_date_plugin_key_is_the_update():
    text = "Title: T\nDate: 2013-08-25 12:14\nUpdate: 2014-06-26 09:55\n\nBody.\n"
    meta, *_, warnings = read(text)
    assert meta.updated.isoformat() == "2014-06-26T09:55:00+00:00" and warnings == []


def test_al_folios_styles_block_is_the_posts_css_and_an_end_tag_in_it_a_warning():
    text = "---\ntitle: T\ndate: 2020-01-01\n_styles: >\n  .fake-img {\n    color: red;\n  }\n---\n"
    meta, *_, warnings = read(text)
    assert meta.styles == ".fake-img {\n  color: red;\n}" and warnings == []
    bad, *_, warned = read("---\ntitle: T\ndate: 2020-01-01\nstyles: 'a {}</style><b>'\n---\n")
    assert bad.styles == ""
    assert [w.split(" which")[0] for w in warned] == [
        "content/posts/x.md:4:9: warning: `styles` holds `</`,"
    ]


def test_quartos_date_keywords_are_warned_and_the_file_name_dates_the_post():
    text = "---\ntitle: T\ndate: today\ndate-modified: last-modified\n---\n"
    meta, *_, warnings = read(text, "content/posts/2023-10-22-x.qmd")
    assert meta.date.date().isoformat() == "2023-10-22" and meta.updated is None
    assert [w.split(" means")[0] for w in warnings] == [
        "content/posts/2023-10-22-x.qmd:3:7: warning: `date: today`",
        "content/posts/2023-10-22-x.qmd:4:16: warning: `date-modified: last-modified`",
    ]


def test_quartos_mathjax_configuration_in_the_header_defines_the_posts_macros():
    script = (
        '<script>window.MathJax = {tex: {macros: {RR: "{\\\\bf R}", '
        'ut: ["\\\\underbrace{#1}_{\\\\text{#2}}", 2]}}};</script>'
    )
    text = (
        f"---\ntitle: T\ndate: 2020-01-01\nformat:\n  html:\n    toc: true\n"
        f"    include-in-header:\n      - text: |\n          {script}\n"
        f"      - file: analytics.html\n  pdf: default\n---\n"
    )
    meta, *_, warnings = read(text)
    assert meta.macros == (("RR", "{\\bf R}"), ("ut", "\\underbrace{#1}_{\\text{#2}}"))
    assert warnings == []
    pandoc = f"---\ntitle: T\ndate: 2020-01-01\nheader-includes: '{script}'\n---\n"
    assert read(pandoc)[0].macros == meta.macros
    own = f"---\ntitle: T\ndate: 2020-01-01\nmacros: {{E: 'e'}}\nheader-includes: '{script}'\n---\n"
    assert read(own)[0].macros == (("E", "e"),)  # postil's own key wins


def test_obsidian_aliases_that_are_names_are_their_slugs_beside_the_post():
    text = "---\ntitle: T\ndate: 2020-01-01\naliases: [product rule, Bayes’ Rule, /old/x/]\n---\n"
    meta, *_, warnings = read(text)
    assert meta.aliases == ("product-rule/", "bayes-rule/", "/old/x/") and warnings == []


@pytest.mark.parametrize("tag", ["zh", "en-GB", "zh-Hans-CN", "de-CH-1996", "sr-Latn", "x-klingon"])
def test_lang_is_the_pages_bcp47_language_as_pandoc_and_quarto_write_it(tag):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2024-01-01\nlang: {tag}\n---\n")
    assert meta.lang == tag and warnings == []


@pytest.mark.parametrize(
    ("written", "hint"),
    [("zh_CN", " (`zh-CN`)"), ("Chinese simplified", ""), ("e", ""), ("en-", "")],
)
def test_a_lang_that_is_no_bcp47_tag_warns_at_its_value_and_the_site_language_stays(written, hint):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2024-01-01\nlang: {written}\n---\n")
    assert meta.lang == ""
    (warning,) = warnings
    assert warning.split("\n")[0] == (
        f"content/posts/x.md:4:7: warning: `lang: {written}` is not a BCP 47 language tag, "
        "so the page keeps the site's `language`; write one such as `en`, `zh-Hans` or "
        f"`pt-BR`{hint}"
    )


def test_vitepress_frontmatter_values_are_kept_only_for_a_body_that_names_them():
    head = "---\ntitle: SVD\ndate: 2024-01-01\nlayout: doc\ntags: [a, b]\n---\n"
    meta, *_ = read(head + "# {{ $frontmatter.title }}\n")
    assert meta.vue_values == (("title", "SVD"), ("date", "2024-01-01"), ("layout", "doc"))
    meta, *_ = read(head + "Text.\n")
    assert meta.vue_values == ()


def test_logseq_page_properties_are_the_front_matter():
    """A Logseq page opens with its page properties, `key:: value` lines before the first
    bullet (mldoc's `markdown_property.ml`): `title::` titles the page, `tags::` lists page
    names (`[[a b]]`, `#c`, bare words); Logseq's own keys (`alias`, `public`) are quiet.
    They showed as a paragraph of text, and the page was titled by its file name."""
    meta, body, body_line, warnings = read(
        "title:: Conformal Field Theory\ntags:: [[quantum field theory]], #physics, notes\n"
        "alias:: CFT, [[2d CFT]]\npublic:: true\n\n- Refs\n\t- $c = 1$\n",
        "content/posts/Conformal Field Theory.md",
    )
    assert meta.title == "Conformal Field Theory"
    assert meta.tags == ("quantum field theory", "physics", "notes")
    assert body.startswith("\n- Refs") and body_line == 5
    assert [w for w in warnings if "date" not in w] == []
    meta, body, _, warnings = read(
        "alias:: GR\n- # Tricks\n  collapsed:: true\n", "content/posts/gr.md"
    )
    assert body == "- # Tricks\n  collapsed:: true\n" and not any("alias" in w for w in warnings)


@pytest.mark.parametrize(
    "text",
    [
        "std::vector is a class template.\n",  # no space after `::`
        "Note: the title\n\nbody\n",  # one colon: not Logseq's
        "- item\nkey:: value\n",  # properties of a block, not of the page
    ],
)
def test_text_that_is_no_logseq_page_property_stays_the_body(text):
    meta, body, body_line, _ = read(text)
    assert body == text and body_line == 1


def test_dendron_front_matter_builds_quietly():
    """A Dendron note's front matter: `id` (the note's key in its vault), `desc` (its
    description), `updated` and `created` in milliseconds (`dnode.ts`). `id` and `desc`
    warned as unknown keys, the dates stopped the build."""
    meta, *_, warnings = read(
        "---\nid: 3kzb9jc0yqvrflm8d0jx9ri\ntitle: Flow Matching\ndesc: Notes on flows\n"
        "updated: 1751790790089\ncreated: 1744397095050\n---\n\nBody\n"
    )
    assert meta.title == "Flow Matching" and meta.summary == "Notes on flows"
    assert meta.date is not None and meta.date.year == 2025 and warnings == []
    meta, *_, warnings = read("---\ntitle: T\ndesc: ''\ncreated: 1744397095050\n---\n")
    assert meta.summary == "" and warnings == []


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            '"Simon Byrne, Luis Benet and David Sanders"',
            ("Simon Byrne", "Luis Benet", "David Sanders"),
        ),
        ('"A. Smith & B. Jones"', ("A. Smith", "B. Jones")),
        ('"Doe, John and Roe, Jane"', ("Doe, John", "Roe, Jane")),
        # one name: a comma or `and` inside a name, or a part of one word
        ('"Byrne, Simon"', ("Byrne, Simon",)),
        ('"Tom and Jerry"', ("Tom and Jerry",)),
        ('"Research and Development Team"', ("Research and Development Team",)),
        ('"Jean-Luc Picard, PhD"', ("Jean-Luc Picard, PhD",)),
    ],
)
def test_a_text_of_several_full_names_is_several_authors(written, names):
    """One `author` string naming several people (Franklin.jl's, Hugo's, Jekyll's): cited as
    one, BibTeX read "Simon Byrne, Luis Benet" as a surname and given name."""
    meta, *_ = read(f"---\ntitle: T\ndate: 2020-01-01\nauthor: {written}\n---\n")
    assert meta.authors == names


def test_an_author_written_as_an_html_link_is_the_linked_name():
    meta, *_ = read(
        "---\ntitle: T\ndate: 2020-01-01\n"
        "author: '<a href=\"https://example.org/ml\">Miles Lubin</a>'\n---\n"
    )
    assert meta.authors == ("Miles Lubin",)
    assert [(a.name, a.url) for a in meta.author_details] == [
        ("Miles Lubin", "https://example.org/ml")
    ]


def test_a_hashnode_backups_front_matter_is_read_its_javascript_date_too():
    meta, *_, warnings = read(
        "---\ntitle: T\ndatePublished: Sun Apr 02 2023 10:32:55 GMT+0530 (India Standard Time)"
        "\ncuid: clfz9kmdz000709mf6emoc1cx\nslug: t-post\n"
        "cover: https://cdn.hashnode.com/x.png\ntags: react, axios\n"
        "seoDescription: One line.\nenableToc: true\ndomain: x.hashnode.dev\n---\n"
    )
    assert warnings == []
    assert meta.date == datetime(2023, 4, 2, 10, 32, 55, tzinfo=timezone(timedelta(hours=5.5)))
    assert (meta.slug, meta.tags, meta.summary, meta.toc) == (
        "t-post",
        ("react", "axios"),
        "One line.",
        True,
    )
    assert meta.image is not None and meta.image.endswith("x.png")


def test_hashnode_drafts_and_dev_to_covers_are_read():
    meta, *_, warnings = read("---\ntitle: T\ndate: 2023-01-01\nsaveAsDraft: true\n---\n")
    assert warnings == [] and meta.draft is True
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2023-01-01\npublished: true\n"
        "cover_image: https://e.org/c.png\ntags: 'ml, stats'\n---\n"
    )
    assert warnings == []
    assert meta.image is not None and meta.image.endswith("c.png")
    assert meta.tags == ("ml", "stats")


def test_a_javascript_date_without_its_zone_name_and_a_wrong_one_stay_what_they_were():
    meta, *_ = read("---\ntitle: T\ndate: Tue Sep 06 2022 17:53:48 GMT+0000\n---\n")
    assert meta.date == datetime(2022, 9, 6, 17, 53, 48, tzinfo=timezone.utc)
    with pytest.raises(ContentError):
        read("---\ntitle: T\ndate: Sun Foo 02 2023 10:32:55 GMT+0000 (UTC)\n---\n")


def test_a_hashnode_title_with_unescaped_inner_quotes_is_read_as_written():
    meta, *_, warnings = read(
        '---\ntitle: "Why "sum" and "count" differ"\ndatePublished: 2024-06-20\n---\n'
    )
    assert meta.title == 'Why "sum" and "count" differ'
    assert warnings == []


def test_valid_double_quoted_values_are_unchanged_and_a_lone_inner_quote_still_fails():
    meta, *_ = read('---\ntitle: "A \\"b\\" c"\nsummary: "x: y"\ndate: 2024-06-20\n---\n')
    assert (meta.title, meta.summary) == ('A "b" c', "x: y")
    with pytest.raises(ContentError):
        read('---\ntitle: "open\ndate: 2024-06-20\n---\n')


def test_valid_yaml_with_quotes_in_a_comment_is_read_as_yaml():
    """The mending of Hashnode's unescaped inner quotes runs only on YAML that fails."""
    meta, *_ = read('---\ntitle: "Hello" # "a comment"\ndate: 2020-01-01\n---\n')
    assert meta.title == "Hello"


def test_a_canonical_url_is_the_originals_absolute_url():
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2020-01-01\ncanonicalURL: https://example.org/a/\n---\n"
    )
    assert (meta.canonical, warnings) == ("https://example.org/a/", [])
    with pytest.raises(ContentError) as raised:
        read("---\ntitle: T\ndate: 2020-01-01\ncanonical_url: /a/\n---\n")
    assert "absolute URL" in raised.value.message and raised.value.location.line == 4


def test_loveit_featured_image_is_the_posts_image_and_its_script_switches_are_quiet():
    meta, _, _, warnings = read(
        "---\ntitle: T\ndate: 2024-01-02\nfeaturedImage: /img/cover.png\n"
        "featuredImagePreview: /img/small.png\ntwemoji: false\nlightgallery: true\n"
        "code:\n  copy: true\n  maxShownLines: 50\nhiddenFromHomePage: true\n---\nText\n"
    )
    assert meta.image == "/img/cover.png"  # the preview ranks after it
    assert [w.split(": warning: ")[1][:40] for w in warnings] == [
        "unknown front matter key `hiddenFromHome"  # a difference a reader sees: told
    ]


def test_a_quarto_abstract_is_the_summary_after_a_description():
    """Quarto's listings show `description`, else `abstract` (website-listing-read.ts); its
    TeX stays for the summary's math."""
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2023-04-23\nabstract: 'Find \\(A_n\\) in closed form.'\n---\n"
    )
    assert warnings == [] and meta.summary == "Find \\(A_n\\) in closed form."
    meta, *_ = read("---\ntitle: T\ndate: 2023-04-23\nabstract: Long.\ndescription: Short.\n---\n")
    assert meta.summary == "Short."


@pytest.mark.parametrize(
    "switch", ["use_math", "usemathjax", "mathjax", "katex", "mathjax_autoNumber"]
)
def test_a_themes_math_script_switch_is_quiet_and_a_near_name_is_not(switch):
    *_, warnings = read(f"---\ntitle: T\ndate: 2024-11-19\n{switch}: true\n---\n$x$\n")
    assert warnings == []
    *_, warnings = read("---\ntitle: T\ndate: 2024-11-19\nuse_maths: true\n---\n$x$\n")
    assert [w.split(": warning: ")[1][:38] for w in warnings] == [
        "unknown front matter key `use_maths` i"
    ]


@pytest.mark.parametrize(
    ("lines", "warned"),
    [
        ("header:\n  overlay_color: '#333'\n  overlay_filter: 0.5", False),  # styles only
        ("header: false", True),  # another theme's switch: not read, said so
    ],
)
def test_a_header_that_names_no_image_gives_no_image(lines, warned):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2020-01-01\n{lines}\n---\n")
    assert meta.image == ""
    assert [w.split(": warning: ")[1][:8] for w in warnings] == (["`header`"] if warned else [])


def test_hugos_json_front_matter_is_read_with_its_places():
    # a Hugo notes site (theme cortex) opens each of its 1,432 posts with one JSON line
    text = '{"title": "StOnge2005", "tags": ["paper", "gene_cluster"]}\nCREATED: 2008\n'
    meta, body, body_line, warnings = read(text)
    assert (meta.title, meta.tags, body, body_line) == (
        "StOnge2005",
        ("paper", "gene_cluster"),
        "CREATED: 2008\n",
        2,
    )
    assert meta.title_at == TextAt(1, 12, True)
    text = '{\n  "title": "T",\n  "date": "2020-01-02",\n  "weight": 3\n}\n\nBody.\n'
    meta, body, body_line, warnings = read(text)
    assert (meta.title, meta.date.day, body, body_line) == ("T", 2, "\nBody.\n", 6)
    assert len(warnings) == 1 and "unknown front matter key `weight`" in warnings[0]
    assert warnings[0].startswith("content/posts/x.md:4:3:")


@pytest.mark.parametrize(
    "text",
    [
        '{{< figure src="a.png" >}}\n\nText.\n',  # a shortcode opening the post
        "{% include toc.html %}\n\nText.\n",  # a Liquid tag
        '{"a": 1, "b": 2}\n\nA JSON sample without a title.\n',  # no key of front matter
        '{"title": "T"} is how JSON writes it.\n',  # text after the object on its line
        '{"title": "T",\n\nunclosed\n',
    ],
)
def test_text_opening_with_a_brace_that_is_no_json_front_matter_is_the_body(text):
    meta, body, body_line, _ = read(text)
    assert (body, body_line) == (text, 1)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # R's distill: `first_name` and `last_name` when `name` is missing
        (
            '  - first_name: "Ada"\n    last_name: "Lovelace"\n    url: https://x.org',
            "Ada Lovelace",
        ),
        ("  - first_name: Ada", "Ada"),
        ("  - last_name: Lovelace", "Lovelace"),
        # CSL's parts written on the author
        ("  - given: Grace\n    family: Hopper", "Grace Hopper"),
        # `name` wins over the parts
        ("  - name: Ada King\n    first_name: Ada\n    last_name: Lovelace", "Ada King"),
    ],
)
def test_author_name_in_parts(lines, expected):
    meta, *_, warnings = read(f"---\ntitle: T\ndate: 2019-01-04\nauthor:\n{lines}\n---\n")
    assert meta.authors == (expected,)
    assert warnings == []


def test_distill_author_parts_keep_url_and_affiliation():
    meta, *_ = read(
        "---\ntitle: T\ndate: 2019-01-04\nauthor:\n  - first_name: Ada\n    last_name: Lovelace\n"
        "    url: https://example.org/ada\n    affiliation: Analytical Society\n---\n"
    )
    assert meta.author_details == (
        Author("Ada Lovelace", "https://example.org/ada", ("Analytical Society",)),
    )


def test_author_with_empty_name_parts_is_still_an_error():
    with pytest.raises(ContentError) as err:
        read('---\ntitle: T\nauthor:\n  - first_name: ""\n    url: https://x.org\n---\n')
    assert err.value.location == Location("content/posts/x.md", 4, 5)
    assert "`first_name:` and `last_name:`" in err.value.message


SETUP = "```{r include=F, echo=F}\nknitr::opts_chunk$set(eval=FALSE)\n```\n"


@pytest.mark.parametrize(
    ("text", "title", "body"),
    [
        ("## Dark Theme\n\nText\n", "Dark Theme", "\nText\n"),  # bookdown's section file
        ("### Options {#opts}\n\nText\n", "Options", "\nText\n"),
        # knitr's setup chunk shows nothing, so the heading after it opens the page
        (SETUP + "\n## Cross References\n", "Cross References", ""),
    ],
)  # fmt: skip
def test_an_r_markdown_file_opening_with_a_section_heading_is_titled_by_it(text, title, body):
    meta, read_body, _, warnings = read(text, rel="content/posts/0101-notes.Rmd")
    assert (meta.title, read_body) == (title, body)
    assert not [w for w in warnings if "no `title`" in w]


@pytest.mark.parametrize(
    "text",
    [
        "Intro\n\n## Later\n",  # text first
        "```{r}\nx <- 1\n```\n\n## Later\n",  # a chunk that shows its code
    ],
)
def test_an_r_markdown_heading_after_what_shows_is_no_title(text):
    meta, read_body, _, warnings = read(text, rel="content/posts/0101-notes.Rmd")
    assert (meta.title, read_body) == ("0101 notes", text)
    assert "titled `0101 notes` after its file name" in warnings[0]


@pytest.mark.parametrize(("value", "notation"), [("typst", "Typst"), ("AsciiMath", "AsciiMath")])
def test_math_naming_a_notation_postil_does_not_typeset_warns_at_the_key(value, notation):
    """A Material for MkDocs site's hook typesets `$RR$` as Typst on pages saying
    `math: typst`; postil read such formulas as TeX without a word (`RR` in italics)."""
    *_, warnings = read(f"---\ntitle: T\ndate: 2024-01-01\nmath: {value}\n---\n\nSee $RR$.\n")
    assert warnings == [
        f"content/posts/x.md:4:1: warning: `math: {value}`: this page's formulas are written "
        f"in {notation}, which postil does not typeset; they are read as TeX (LaTeX) math "
        "and will not look as meant; write them in TeX"
    ]


@pytest.mark.parametrize("value", ["true", "false", "katex", "mathjax", "[a, b]"])
def test_math_as_a_themes_switch_stays_quiet(value):
    *_, warnings = read(f"---\ntitle: T\ndate: 2024-01-01\nmath: {value}\n---\n\nSee $x$.\n")
    assert warnings == []


def test_hugo_books_page_switches_are_read_or_quiet():
    """hugo-book's `BookToC: false` hides a page's contents (postil's `toc`); its menu
    switches (`bookHidden`, `bookCollapseSection`, …) change nothing postil shows."""
    meta, *_, warnings = read(
        "---\ntitle: T\ndate: 2024-01-01\nBookToC: false\nbookHidden: true\n"
        "bookCollapseSection: true\nbookFlatSection: false\nbookComments: false\n"
        "bookSearchExclude: true\n---\n\nText.\n"
    )
    assert meta.toc is False and warnings == []
    meta, *_ = read("---\ntitle: T\ndate: 2024-01-01\nBookToC: true\n---\n\nText.\n")
    assert meta.toc is True
