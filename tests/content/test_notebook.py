"""Jupyter notebooks read as Markdown (`postil.content.notebook`) and built as posts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.blog import build_into, build_site, make_site, page

from postil.content.notebook import notebook_markdown
from postil.errors import ContentError, Location


def notebook(*cells: dict, language: str = "python") -> str:
    metadata = {"kernelspec": {"name": "k", "language": language, "display_name": "K"}}
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells})


def code(source: str, *outputs: dict, tags: tuple[str, ...] = ()) -> dict:
    return {
        "cell_type": "code",
        "metadata": {"tags": list(tags)},
        "source": source.splitlines(keepends=True),
        "outputs": list(outputs),
        "execution_count": 1,
    }


def result(**data: object) -> dict:
    return {"output_type": "execute_result", "data": data, "metadata": {}, "execution_count": 1}


FRONT = {"cell_type": "raw", "metadata": {}, "source": "---\ntitle: T\ndate: 2024-01-01\n---"}
TEXT = {"cell_type": "markdown", "metadata": {}, "source": ["Some $x$.\n", "\n", "More."]}


def test_cells_become_front_matter_markdown_code_and_outputs_in_order():
    text = notebook(
        FRONT,
        TEXT,
        code("x = 1\nx", result(**{"text/plain": "1"})),
        code("print('a')", {"output_type": "stream", "name": "stdout", "text": ["a\n"]}),
    )
    assert notebook_markdown(text, "n.ipynb") == (
        "---\ntitle: T\ndate: 2024-01-01\n---\n\nSome $x$.\n\nMore.\n\n"
        "```python\nx = 1\nx\n```\n\n```text\n1\n```\n\n"
        "```python\nprint('a')\n```\n\n```text\na\n```\n"
    )


def test_the_kernels_language_names_the_code():
    assert notebook_markdown(notebook(code("1 + 1"), language="julia"), "n.ipynb") == (
        "```julia\n1 + 1\n```\n"
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"image/png": "iVBORw0K\nGgo=\n", "text/plain": "<Figure>"},
            '<img src="data:image/png;base64,iVBORw0KGgo=" alt="">',
        ),
        ({"image/svg+xml": "<svg/>"}, '<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="">'),
        (
            {"text/html": "<table><tr><td>1</td></tr></table>", "text/plain": "x"},
            "```{=html}\n<table><tr><td>1</td></tr></table>\n```",
        ),
        (
            {"text/latex": "$\\displaystyle x^{2}$", "text/plain": "x**2"},
            "$$\n\\displaystyle x^{2}\n$$",
        ),
        ({"text/markdown": "**bold**"}, "**bold**"),
        (  # a whole document (a figure saved as a page): the fragment Jupyter shows
            {
                "text/html": '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8" />'
                '\n<script src="p.js"></script>\n</head>\n<BODY class="b">\n<div id="f">'
                "</div>\n</BODY>\n</html>\n"
            },
            '```{=html}\n<script src="p.js"></script>\n<div id="f"></div>\n```',
        ),
        (  # a comment before it; the head's title, meta and base go, its stylesheet stays
            {
                "text/html": "<!-- saved -->\n<html><head><title>Plot</title>"
                '<meta http-equiv="refresh" content="0"><base href="/x/">'
                '<link rel="stylesheet" href="p.css"></head><body><p>f</p></body></html>'
            },
            '```{=html}\n<link rel="stylesheet" href="p.css">\n<p>f</p>\n```',
        ),
        (  # negative: a fragment that mentions <html> in its text is as it was
            {"text/html": "<p>Write <code>&lt;html&gt;</code></p><html>"},
            "```{=html}\n<p>Write <code>&lt;html&gt;</code></p><html>\n```",
        ),
    ],
)
def test_an_output_is_shown_in_its_richest_form(data, expected):
    assert notebook_markdown(notebook(code("f()", result(**data))), "n.ipynb") == (
        f"```python\nf()\n```\n\n{expected}\n"
    )


def test_an_error_is_its_traceback_without_terminal_colours():
    error = {
        "output_type": "error",
        "ename": "E",
        "evalue": "v",
        "traceback": ["\x1b[0;31mE\x1b[0m: v"],
    }
    assert notebook_markdown(notebook(code("1/0", error)), "n.ipynb").endswith(
        "```text\nE: v\n```\n"
    )


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        (
            code("#| echo: false\nprint(1)", {"output_type": "stream", "text": "1"}),
            "```text\n1\n```\n",
        ),
        (code("#| output: false\nx = 1", result(**{"text/plain": "1"})), "```python\nx = 1\n```\n"),
        (code("#| include: false\nsecret()", result(**{"text/plain": "1"})), "\n"),
        (code("#hide\nsecret()"), "\n"),
        (code("#hide_input\nshow()", result(**{"text/plain": "2"})), "```text\n2\n```\n"),
        (code("x", result(**{"text/plain": "3"}), tags=("remove-input",)), "```text\n3\n```\n"),
        (code("x", result(**{"text/plain": "3"}), tags=("remove-cell",)), "\n"),
        (code("x", result(**{"text/plain": "3"}), tags=("hide-output",)), "```python\nx\n```\n"),
    ],
)
def test_what_a_cell_asks_to_hide_is_left_out(cell, expected):
    assert notebook_markdown(notebook(cell), "n.ipynb") == expected


def test_a_markdown_cells_attachment_is_a_data_url():
    cell = {
        "cell_type": "markdown",
        "metadata": {},
        "source": "![plot](attachment:p.png)",
        "attachments": {"p.png": {"image/png": "iVBO"}},
    }
    assert notebook_markdown(notebook(cell), "n.ipynb") == "![plot](data:image/png;base64,iVBO)\n"


def test_code_holding_backticks_gets_a_longer_fence():
    assert notebook_markdown(notebook(code('s = """```"""')), "n.ipynb") == (
        '````python\ns = """```"""\n````\n'
    )


def test_a_file_that_is_not_json_is_an_error_at_its_line_and_column():
    with pytest.raises(ContentError) as caught:
        notebook_markdown('{\n  "cells": [\n    oops\n  ]\n}', "content/posts/n.ipynb")
    assert caught.value.location == Location("content/posts/n.ipynb", 3, 5)


def test_an_old_notebook_format_says_how_to_convert_it():
    with pytest.raises(ContentError, match="nbconvert --to notebook --nbformat 4"):
        notebook_markdown(json.dumps({"nbformat": 3, "worksheets": []}), "n.ipynb")


def test_a_notebook_post_builds_with_its_math_code_outputs_and_no_checkpoint(tmp_path):
    root = make_site(tmp_path / "site", {})
    folder = root / "content/posts/softmax"
    (folder / ".ipynb_checkpoints").mkdir(parents=True)
    text = notebook(FRONT, TEXT, code("f()", result(**{"image/png": "iVBO", "text/plain": "F"})))
    (folder / "index.ipynb").write_text(text, encoding="utf-8")
    (folder / ".ipynb_checkpoints/index-checkpoint.ipynb").write_text(text, encoding="utf-8")
    out = build_into(root)
    doc = page(out, "posts/softmax/index.html")
    assert doc.xpath("//h1")[0].text_content() == "T"
    body = doc.xpath('//div[@class="post-body"]')[0]
    assert len(body.xpath(".//math")) == 1
    assert body.xpath(".//img/@src") == ["data:image/png;base64,iVBO"]
    assert not (out / "posts/softmax/index.ipynb").exists()
    assert [p.name for p in (out / "posts").iterdir() if p.is_dir()] == ["softmax"]


def test_fastpages_first_cell_is_the_front_matter():
    first = {
        "cell_type": "markdown",
        "metadata": {},
        "source": '# "Softmax: a tour"\n> A short summary.\n\n'
        "- toc: true\n- categories: [ml, math]",
    }
    assert notebook_markdown(notebook(first, TEXT), "n.ipynb") == (
        '---\ntitle: "Softmax: a tour"\ndescription: "A short summary."\ntoc: true\n'
        "categories: [ml, math]\n---\n\nSome $x$.\n\nMore.\n"
    )


def test_a_first_heading_with_text_after_it_is_no_front_matter():
    first = {"cell_type": "markdown", "metadata": {}, "source": "# Title\n\nA paragraph."}
    assert notebook_markdown(notebook(first), "n.ipynb") == "# Title\n\nA paragraph.\n"


def test_fastpages_collapse_flags_are_left_out_of_the_code():
    assert notebook_markdown(notebook(code("#collapse-hide\nimport x")), "n.ipynb") == (
        "```python\nimport x\n```\n"
    )


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12))
_KEYS = st.sampled_from(
    "cell_type source outputs metadata data text tags attachments output_type traceback "
    "image/png text/html text/latex text/plain kernelspec language format name".split()
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=5)),
    max_leaves=30,
)
_CELL = st.fixed_dictionaries(
    {"cell_type": st.sampled_from(["code", "markdown", "raw", "heading"])},
    optional={"source": _VALUE, "outputs": _VALUE, "metadata": _VALUE, "attachments": _VALUE},
)
_NOTEBOOK = st.fixed_dictionaries(
    {"cells": st.lists(st.one_of(_CELL, _VALUE), max_size=5)},
    optional={"metadata": _VALUE, "nbformat": _VALUE},
)


@settings(max_examples=300, deadline=None)
@given(_NOTEBOOK)
def test_a_damaged_notebook_reads_as_far_as_it_can_and_never_raises_another_error(data):
    try:
        assert isinstance(notebook_markdown(json.dumps(data), "n.ipynb"), str)
    except ContentError:
        pass


PNG_3X2 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAC0lEQVR4nGNgwAQAABQAAX3+Hu4AAAAASUVORK5CYII="
)


def test_an_output_image_has_its_size_from_its_header_or_its_metadata():
    plain = result(**{"image/png": PNG_3X2})
    retina = dict(
        result(**{"image/png": PNG_3X2}), metadata={"image/png": {"width": 30, "height": 20}}
    )
    text = notebook_markdown(notebook(code("a", plain), code("b", retina)), "n.ipynb")
    assert f'<img src="data:image/png;base64,{PNG_3X2}" alt="" width="3" height="2">' in text
    assert f'<img src="data:image/png;base64,{PNG_3X2}" alt="" width="30" height="20">' in text


def test_an_output_with_template_syntax_is_wrapped_as_liquid_raw_and_code_is_left_alone():
    html = "<script>if (el) {{ go(); }}</script>"
    text = notebook(code("print('{{ x }}')", result(**{"text/html": html})))
    assert notebook_markdown(text, "n.ipynb") == (
        "```python\nprint('{{ x }}')\n```\n\n"
        "{% raw %}\n\n```{=html}\n" + html + "\n```\n\n{% endraw %}\n"
    )


NOTEBOOK_TEMPLATES = (
    FRONT,
    {"cell_type": "markdown", "metadata": {}, "source": "[Home]({{ site.baseurl }}/)"},
    code(
        "fig.show()  # {{ z }}",
        result(**{"text/html": "<div id='p'></div><script>if (p) {{ f(); }} {% x %}</script>"}),
        {"output_type": "display_data", "metadata": {}, "data": {"text/markdown": "Say {{ y }}"}},
    ),
)


def test_outputs_are_never_templates_while_markdown_cells_still_are(tmp_path):
    root = make_site(tmp_path / "site", {})
    text = notebook(*NOTEBOOK_TEMPLATES)
    (root / "content/posts/plot.ipynb").write_text(text, encoding="utf-8")
    assert [str(w) for w in build_site(root).warnings] == []
    body = page(build_into(root), "posts/plot/index.html").xpath('//div[@class="post-body"]')[0]
    assert body.xpath(".//a/@href") == ["/blog/"]  # the Markdown cell's tag is evaluated
    assert body.xpath("string(.//script)") == "if (p) {{ f(); }} {% x %}"
    assert "Say {{ y }}" in body.text_content()
    assert "# {{ z }}" in body.xpath("string(.//pre)")
