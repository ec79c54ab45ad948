"""Fixture tests: each plugin's `tests/fixtures/<name>.md` rendered by a parser with that plugin."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file

from postil.bibliography.read import read_bib
from postil.markdown.state import RenderState

FIXTURES = Path(__file__).parents[1] / "fixtures"

# Plugins each fixture file needs: tables are numbered by the figure plugin.
PLUGINS = {
    "sidenote": ("math", "sidenote"),  # display math in a note's margin copy
    "code": ("code",),
    "figure": ("callout", "code", "figure"),  # Quarto's figure divs are fenced divs
    "heading": ("math", "heading"),  # math in headings: ids and labels from its text
    "table": ("table", "figure"),
    "gridtable": ("math", "gridtable", "table", "figure"),  # captions as the pipe tables''
    # Liquid and shortcodes are evaluated by the template plugin, before the links rule
    # (themes' figure includes are figures; in raw HTML their `src` is checked)
    "liquid": ("math", "code", "figure", "links", "liquid", "shortcode", "template", "rawhtml"),
    "shortcode": ("code", "figure", "links", "liquid", "shortcode", "template"),
    # Zola's shortcodes are math, callouts, figures; the rest the template plugin reports
    "zola": (
        "math",
        "code",
        "figure",
        "links",
        "callout",
        "liquid",
        "shortcode",
        "zola",
        "template",
    ),
    # GitBook's blocks are callouts, tabs and code; its other tags are Liquid's
    "gitbook": ("math", "code", "callout", "tabs", "links", "liquid", "gitbook", "template"),
    "chunk": ("code", "widget", "chunk"),  # chunks are read before widget fences
    "toc": ("math", "heading", "toc"),
    "images": ("links", "rawhtml", "images"),
    "attrs": ("attrs", "figure", "heading"),  # figures and heading ids take attributes
    "callout": ("math", "callout", "sidenote", "code", "shortcode"),  # math, notes, code inside
    "cite": ("math", "sidenote", "cite"),  # `$a@b$` is math; citations inside notes
    "tabs": ("math", "code", "tabs"),  # math in titles, code in bodies
    "include": ("include",),
    # numbers, heading ids; Quarto's numbered callouts and code listings
    "xref": ("math", "attrs", "code", "callout", "figure", "heading", "xref"),
    # tufte-jekyll's tags are notes, figures and quotes; the others are the template's
    "tufte": ("math", "sidenote", "code", "figure", "links", "liquid", "template", "tufte"),
    # Quarto's theorems: fenced divs, numbered by the figure plugin, referred to by xref
    # (and by `[@id]`, a citation of the theorem's id, with no bibliography)
    "theorem": ("math", "sidenote", "cite", "callout", "figure", "theorem", "xref"),
    # MyST's directives are math, code chunks, callouts and figures
    "myst": ("math", "code", "figure", "theorem", "callout", "widget", "chunk", "myst"),
    # Pandoc's bracketed spans: math inside, `.aside` a margin note, links take attributes
    "span": ("math", "sidenote", "attrs", "span"),
    # Quarto's margin divs are fenced divs (callout plugin); MyST's directives are MyST's
    # Obsidian's wikilinks become links the links plugin resolves
    "wikilink": ("links", "wikilink"),
    # Obsidian's `%%` comments: code, math, links and escapes read `%%` first
    "comment": ("math", "code", "links", "heading", "comment"),
    # jekyll-scholar's `{% cite %}` tags are citations (the cite fixtures' bibliography)
    "scholar": ("math", "sidenote", "cite", "scholar"),
    # Distill's elements: citations, notes and code blocks (the cite fixtures' bibliography);
    # jekyll-scholar's `{% cite %}` in raw HTML is split out as they are
    "distill": ("math", "sidenote", "cite", "scholar", "code", "distill"),
    # Chirpy's posts: prompts (kramdown attribute lines under quotes), image sizes,
    # captions, colour schemes, code file names
    "chirpy": ("math", "attrs", "callout", "code", "figure", "links", "rawhtml", "images"),
    # kramdown's `\\` line break; math reads its own `\\` first
    "linebreak": ("math", "linebreak"),
    "margin": ("math", "code", "figure", "theorem", "callout", "widget", "chunk", "myst", "margin"),
    # kramdown's abbreviations: never in math or code
    "abbr": ("math", "code", "abbr"),
    # `==marked==`: math reads `$a == b$` first
    "mark": ("math", "mark"),
    # LaTeX's text commands in prose: math and code spans read theirs first
    "latextext": ("math", "latextext"),
    # `:rocket:`: headings keep their ids, math and code are not read
    "emoji": ("math", "heading", "emoji"),
    # kramdown's extensions, beside its attribute lists (`{:/}` is no attribute list)
    "kramdown": ("math", "attrs", "kramdown"),
    # Hexo's tags: callouts, quotes and code; the others are the Liquid plugin's
    "hexo": ("math", "code", "callout", "tabs", "links", "liquid", "hexo", "template"),
    # raw HTML across blank lines: its math is the math plugin's, its code tags the
    # Liquid and shortcode plugins', its figure shortcodes the figure plugin's
    "htmlblock": (
        "math",
        "code",
        "figure",
        "links",
        "liquid",
        "shortcode",
        "htmlblock",
        "template",
    ),
    # links to other generators' heading ids: the ids of headings and figures, the links
    # plugin's record of fragment links
    "fragments": ("math", "figure", "heading", "links", "fragments"),
    # the author's `<table>`: raw HTML blocks (across blank lines too), math in its cells
    "rawtable": ("math", "links", "rawhtml", "htmlblock", "rawtable"),
    # WordPress' `$latex …$`: its rules go before the math plugin's
    "wplatex": ("math", "wplatex"),
    # WordPress' `[caption]`: a figure the figure plugin renders
    "wpcaption": ("figure", "wpcaption"),
    # Logseq's block properties, empty bullets, references and admonitions (callouts)
    "logseq": ("math", "callout", "logseq"),
    "franklin": ("math", "heading", "toc", "callout", "theorem", "figure", "franklin"),
    # dev.to's posts: katex tags are the math plugin's, folds callouts, `{% embed %}`
    # GitBook's, `{% twitter %}` the Liquid plugin's
    "forem": ("math", "code", "callout", "links", "liquid", "gitbook", "forem", "template"),
    # Hashnode's `%[URL]` lines: players and quoted posts of the embed module, else links
    "hashnode": ("math", "links", "hashnode"),
    # Notion's `<aside>` callouts go before the HTML block rules; its `⁍` formulas are math
    "notion": ("math", "htmlblock", "notion"),
    # mdsvex posts: MDX's rules read their expressions and components (callouts)
    "svelte": ("math", "callout", "mdx", "svelte"),
    # Pandoc's letter and Roman numeral lists: markdown-it's list rule with stand-in markers
    "fancylist": ("code", "fancylist"),
    # kramdown's tables: the pipe tables' tokens; `|` inside math is the formula's
    "kramdowntable": ("math", "kramdowntable"),
    # pymdownx.keys' `++ctrl+c++`: code spans and math read `++` first
    "keys": ("math", "keys"),
    # Pandoc's line blocks: after GFM's pipe tables (the parser's) and kramdown's (in
    # Pandoc's Markdown, `| a | b |` rows with no separator are a line block), math inside
    "lineblock": ("math", "kramdowntable", "lineblock"),
    # remark-directive's leaf and text directives beside the callout plugin's containers
    "directive": ("math", "code", "callout", "links", "directive"),
    # the Obsidian Admonition plugin's ```ad-note blocks: callouts, notes and code inside
    "adfence": ("math", "sidenote", "code", "callout", "adfence"),
    # kramdown's destinations with spaces, beside the links plugin and attribute lists
    "spacedlink": ("links", "spacedlink", "attrs"),
}


def fixture_state(name: str) -> RenderState:
    """Return the state a fixture renders with: the cite fixtures cite `fixtures/cite.bib`;
    the franklin fixtures are a Franklin.jl page's (its front matter is Julia), the
    fancylist and lineblock ones a Quarto post's (Pandoc's Markdown)."""
    if name == "franklin":
        return RenderState(front_matter_syntax="julia")
    if name in ("fancylist", "lineblock"):  # Pandoc's Markdown: a Quarto post's
        return RenderState(path="content/posts/post.qmd")
    if name not in ("cite", "scholar", "distill"):
        return RenderState()
    bib = FIXTURES / "cite.bib"
    return RenderState(bibliography=read_bib(bib.read_bytes(), "tests/fixtures/cite.bib").works)


def make_parser(names: tuple[str, ...]) -> MarkdownIt:
    """Return a CommonMark parser with GFM tables and the named postil plugins."""
    md = MarkdownIt("commonmark").enable("table")
    for name in names:
        module = importlib.import_module(f"postil.markdown.{name}")
        getattr(module, f"{name}_plugin")(md)
    return md


CASES = [
    pytest.param(name, line, source, expected, id=f"{name}:{line}:{title}")
    for name in PLUGINS
    for line, title, source, expected in read_fixture_file(FIXTURES / f"{name}.md")
]


@pytest.mark.parametrize(("name", "line", "source", "expected"), CASES)
def test_plugin_fixture_renders_expected_html(name, line, source, expected):
    md = make_parser(PLUGINS[name])
    html = md.render(source, {"postil": fixture_state(name)})
    assert html.rstrip() == expected.rstrip()


def test_every_plugin_has_fixture_cases():
    counts = {name: sum(1 for case in CASES if case.values[0] == name) for name in PLUGINS}
    assert all(count >= 5 for count in counts.values()), counts


@pytest.mark.parametrize("path", ["content/posts/p.md", "content/posts/p.markdown", "p.mdx"])
def test_line_blocks_are_pandocs_only_bar_lines_are_a_paragraph_elsewhere(path):
    """`line_blocks` is Pandoc's extension: CommonMark reads `| ` lines as a paragraph."""
    md = make_parser(PLUGINS["lineblock"])
    html = md.render("| a line\n| another\n", {"postil": RenderState(path=path)})
    assert html == "<p>| a line\n| another</p>\n"


@pytest.mark.parametrize("path", ["content/posts/p.md", "content/posts/p.markdown", "p.mdx"])
def test_fancy_lists_are_pandocs_only_a_paragraph_opening_a_letter_stays_one_elsewhere(path):
    """`fancy_lists` is Pandoc's extension; CommonMark, kramdown and goldmark read `e. coli`
    at a paragraph's start as text (fancy lists were read in every post for a while: prose
    opening `c. 1900 …` became a list)."""
    md = make_parser(PLUGINS["fancylist"])
    source = "e. coli grows fast.\n\nc. 1900 it was known.\n\ni. e. a list? No.\n"
    html = md.render(source, {"postil": RenderState(path=path)})
    assert "<ol" not in html and html.count("<p>") == 3


@pytest.mark.parametrize("path", ["content/posts/p.md", "p.mdx"])
def test_numbered_examples_are_pandocs_only_elsewhere_a_paragraph_and_text(path):
    """`example_lists` is Pandoc's extension: in other Markdown `(@) x` is a paragraph and
    `(@x)` text (no example numbers it)."""
    md = make_parser(PLUGINS["fancylist"])
    html = md.render("(@x) An example.\n\nAs (@x) shows.\n", {"postil": RenderState(path=path)})
    assert html == "<p>(@x) An example.</p>\n<p>As (@x) shows.</p>\n"
