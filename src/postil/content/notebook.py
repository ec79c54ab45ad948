"""Jupyter notebooks as posts: an `.ipynb` file read as the Markdown it shows.

Quarto blogs (`posts/x/index.ipynb`), Jupyter Book, fastpages and Nikola publish notebooks
as posts. `notebook_markdown` turns one (nbformat 4, the format since 2015) into postil's
Markdown, so every later stage reads it as any post:

- a first raw cell holding `---` YAML is the front matter (Quarto's way), and so is
  fastpages' first Markdown cell of `# Title`, `> summary` and `- key: value` lines;
  otherwise the post is titled as a Markdown post is (its opening `# heading`);
- Markdown cells as written, their attached images (`attachment:plot.png`) as `data:` URLs;
- code cells as fenced code in the kernel's language, their outputs after them: text
  (`stream`, `text/plain`, errors without their terminal colours) as a `text` block,
  images (`image/svg+xml`, `image/png`, `image/jpeg`, `image/gif`) as `<img>`s of
  `data:` URLs (an `<img>` runs no script an SVG may hold),
  `text/html` (tables of data frames) as a raw HTML block (a whole document as the
  fragment Jupyter shows: `html_fragment`), `text/latex` as display math,
  `text/markdown` as Markdown; a notebook's `data:` URLs are as large as its outputs are;
- raw cells whose format is HTML as raw HTML; other raw cells are left out;
- outputs are never templates: one holding `{{` or `{%` is wrapped in `{% raw %}` lines
  (`_not_a_template`), so a plotly figure's JavaScript keeps its braces;
- what a cell asks to hide: Quarto's `#| echo: false` (no code), `#| output: false` (no
  outputs), `#| include: false` (neither); Jupyter Book's tags `remove-cell`,
  `remove-input`, `remove-output` (and `hide-…`); fastpages' `#hide`, `#hide_input`.

Positions in the notebook's problems count lines of this Markdown (the diagnostic shows
the line's text). Source: the nbformat 4 schema (`nbformat.v4.nbformat.v4.schema.json`),
Quarto's "Jupyter notebooks" and cell options, Jupyter Book's "Hide or remove content".
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from typing import Any

from postil.errors import ContentError, Location

IMAGE_TYPES = ("image/svg+xml", "image/png", "image/jpeg", "image/gif")
"""Output images, in the order one is chosen when an output has several."""

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
"""A terminal colour or cursor code (tracebacks are coloured)."""

OPTION = re.compile(r"#\|\s*([\w-]+)\s*:\s*(.*?)\s*$")
"""A Quarto cell option line at the top of a code cell: `#| echo: false`."""

FASTPAGES = re.compile(
    r"#\s*(hide|hide_input|hide_output|collapse|collapse[-_](?:hide|show|output))\s*$"
)
"""fastpages' (nbdev's) flags on a code cell's first lines (the `collapse` ones fold code
there; here the code is shown)."""

FASTPAGES_FRONT = re.compile(
    r"#[ \t]+(?P<title>[^\n]+)\n(?:>[ \t]*(?P<summary>[^\n]+)\n)?\s*"
    r"(?P<items>(?:-[ \t]*[\w-]+[ \t]*:[^\n]*(?:\n|\Z))+)\s*\Z"
)
"""fastpages' front matter: a first Markdown cell of `# Title`, `> summary` and `- key: value`
lines."""

HIDE_TAGS = {
    "remove-cell": "cell",
    "hide-cell": "cell",
    "remove-input": "input",
    "hide-input": "input",
    "remove-output": "output",
    "hide-output": "output",
}
"""Jupyter Book's cell tags, and what they leave out."""

HIDE_OPTIONS = {
    ("include", "false"): "cell",
    ("echo", "false"): "input",
    ("output", "false"): "output",
    ("hide", ""): "cell",
    ("hide_input", ""): "input",
    ("hide_output", ""): "output",
}
"""Quarto's cell options and fastpages' flags (name, value), and what they leave out."""


def notebook_markdown(text: str, rel: str) -> str:
    """Return the Markdown a notebook's cells make (see the module).

    Args:
        text: the `.ipynb` file's text (JSON).
        rel: its site-relative path, for errors.

    Raises:
        ContentError: the text is not JSON (at its line and column), not a notebook, or a
            notebook older than nbformat 4.
    """
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as e:
        raise ContentError(
            f"the file is not a readable notebook: {e.msg}; open and save it in Jupyter",
            Location(rel, e.lineno, e.colno),
        ) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        version = notebook.get("nbformat") if isinstance(notebook, dict) else None
        hint = (
            "convert it with `jupyter nbconvert --to notebook --nbformat 4`"
            if isinstance(version, int) and version < 4
            else "open and save it in Jupyter"
        )
        message = f"the file is not a notebook of nbformat 4 (no `cells`); {hint}"
        raise ContentError(message, Location(rel))
    language = _language(_mapping(notebook.get("metadata")))
    cells = [cell for cell in notebook["cells"] if isinstance(cell, dict)]
    front = _fastpages_front(cells[0]) if cells else None
    parts = [front] if front else []
    parts += [part for cell in cells[1 if front else 0 :] for part in _cell(cell, language)]
    return "\n\n".join(parts) + "\n"


def _language(metadata: dict[str, Any]) -> str:
    """Return the notebook's code language (its kernel's), `python` when it says none."""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        found = metadata.get(key)
        name = found.get(field) if isinstance(found, dict) else None
        if isinstance(name, str) and name:
            return name.lower()
    return "python"


def _fastpages_front(cell: dict[str, Any]) -> str | None:
    """Return fastpages' front matter cell (`FASTPAGES_FRONT`) as YAML front matter, or
    None: the title and summary (`description`) quoted, the `key: value` lines as YAML."""
    if cell.get("cell_type") != "markdown":
        return None
    found = FASTPAGES_FRONT.match(_source(cell.get("source")).strip() + "\n")
    if found is None:
        return None
    lines = [f"title: {json.dumps(found.group('title').strip().strip(chr(34)))}"]
    if found.group("summary"):
        lines.append(f"description: {json.dumps(found.group('summary').strip().strip(chr(34)))}")
    lines += [item.strip()[1:].strip() for item in found.group("items").splitlines() if item]
    return "---\n" + "\n".join(lines) + "\n---"


def _mapping(value: Any) -> dict[str, Any]:
    """Return `value` if it is a JSON object, else an empty one (a damaged field reads as
    absent: a notebook is data written by programs, not by hand)."""
    return value if isinstance(value, dict) else {}


def _source(value: Any) -> str:
    """Return a cell field written as a string or a list of lines, as one string."""
    if isinstance(value, list):
        return "".join(str(line) for line in value)
    return value if isinstance(value, str) else ""


def _cell(cell: dict[str, Any], language: str) -> Iterator[str]:
    """Yield the Markdown blocks of one cell."""
    kind, source = cell.get("cell_type"), _source(cell.get("source"))
    if kind == "markdown":
        yield _attachments(source, _mapping(cell.get("attachments")))
    elif kind == "raw":
        metadata = _mapping(cell.get("metadata"))
        mime = metadata.get("format") or metadata.get("raw_mimetype", "")
        if source.lstrip().startswith("---") or mime in ("text/html", "html"):
            yield source.strip("\n")
    elif kind == "code":
        yield from _code_cell(cell, source, language)


def _attachments(source: str, attachments: dict[str, Any]) -> str:
    """Return a Markdown cell with each `attachment:name` as a `data:` URL of the file."""
    for name, bundle in attachments.items():
        found = _image(_mapping(bundle))
        if found:
            source = source.replace(f"attachment:{name}", found)
    return source


def _code_cell(cell: dict[str, Any], source: str, language: str) -> Iterator[str]:
    """Yield a code cell's code and outputs, minus what the cell asks to hide."""
    hidden, code = _hidden(cell, source)
    if "cell" in hidden:
        return
    if code.strip() and "input" not in hidden:
        fence = "`" * max(3, _longest_run(code, "`") + 1)
        yield f"{fence}{language}\n{code.rstrip()}\n{fence}"
    if "output" not in hidden:
        outputs = cell.get("outputs")
        for output in outputs if isinstance(outputs, list) else ():
            if isinstance(output, dict):
                block = _output(output)
                if block:
                    yield _not_a_template(block)


def _hidden(cell: dict[str, Any], source: str) -> tuple[set[str], str]:
    """Return what a code cell hides ("cell", "input", "output") and its code without the
    option lines that say so."""
    tags = _mapping(cell.get("metadata")).get("tags")
    names = [tag for tag in tags if isinstance(tag, str)] if isinstance(tags, list) else []
    hidden = {HIDE_TAGS[tag] for tag in names if tag in HIDE_TAGS}
    lines = source.split("\n")
    while lines:
        quarto, flag = OPTION.match(lines[0]), FASTPAGES.match(lines[0])
        if quarto is not None:
            option = (quarto.group(1), quarto.group(2).lower())
        elif flag is not None:
            option = (flag.group(1), "")
        else:
            break
        lines.pop(0)
        if option in HIDE_OPTIONS:
            hidden.add(HIDE_OPTIONS[option])
    return hidden, "\n".join(lines)


def _output(output: dict[str, Any]) -> str:
    """Return the Markdown of one output ("" for one with nothing to show)."""
    kind = output.get("output_type")
    if kind == "stream":
        return _text_block(_source(output.get("text")))
    if kind == "error":
        lines = output.get("traceback")
        return _text_block("\n".join(map(str, lines)) if isinstance(lines, list) else "")
    data = output.get("data")
    if not isinstance(data, dict):
        return ""
    image = _image(data)
    if image:  # HTML: CommonMark refuses an SVG `data:` URL as a link destination
        size = _size(image, _mapping(_mapping(output.get("metadata")).get(image[5:].split(";")[0])))
        return f'<img src="{image}" alt=""{size}>'

    if "text/html" in data:
        html = html_fragment(_source(data["text/html"]))
        fence = "`" * max(3, _longest_run(html, "`") + 1)
        return f"{fence}{{=html}}\n{html.rstrip()}\n{fence}"
    if "text/latex" in data:
        return _display_math(_source(data["text/latex"]))
    if "text/markdown" in data:
        return _source(data["text/markdown"])
    return _text_block(_source(data.get("text/plain")))


DOCUMENT_START = re.compile(
    r"\A\s*(?:<!--.*?-->\s*)*(?:<!doctype[^>]*>\s*)?(?:<!--.*?-->\s*)*<html\b[^>]*>\s*"
    r"(?:<head\b[^>]*>(?P<head>.*?)</head>\s*)?(?:<body\b[^>]*>)?",
    re.I | re.S,
)
"""The opening of a whole HTML document: doctype, `<html>`, the `<head>` and `<body>` tags."""

DOCUMENT_END = re.compile(r"(?:</body>\s*)?</html>\s*\Z", re.I)

HEAD_ONLY = re.compile(r"<title\b[^>]*>.*?</title>\s*|<(?:meta|base)\b[^>]*>\s*", re.I | re.S)
"""What belongs to a document's head alone: its title, `<meta>` (charset, refresh) and
`<base>` (which would change every relative URL of the page)."""


def html_fragment(html: str) -> str:
    """Return an HTML output that is a whole document (a plotly or bokeh figure saved as a
    page: `<html><head>…</head><body>…</body></html>`) as the fragment a notebook shows.

    Jupyter renders an output as a fragment (as `innerHTML` parses it, the document's
    `<html>`, `<head>` and `<body>` tags are dropped and what they hold kept); written
    into a page as they are, they are stray tags there (a second `<html>` and `<body>`, a
    second `<meta charset>`, after which the Nu Html Checker gives up on the page). The
    head's scripts, styles and stylesheet links are kept before the body's content; its
    title, `<meta>` and `<base>` go (`HEAD_ONLY`), as the page has its own. Comments before
    the document are passed over. Any other output is returned as it is.
    """
    start = DOCUMENT_START.match(html)
    if start is None:
        return html
    head = HEAD_ONLY.sub("", start["head"] or "").strip()
    body = DOCUMENT_END.sub("", html[start.end() :]).strip()
    return f"{head}\n{body}" if head else body


def _not_a_template(block: str) -> str:
    """Return an output's Markdown wrapped in Liquid's `{% raw %}` lines when it holds
    template syntax (`{{`, `{%`), so that no template tag in it is evaluated.

    An output is what the code printed (plotly's and bokeh's HTML carry JavaScript with
    `{{ … }}` blocks), never a template: Jupyter and nbconvert run no Liquid, and fastpages,
    which ran Jekyll on notebooks, cut such outputs (fastai/fastpages#66, "Escape Liquid
    Tags Present in Code / Code Output"; nbdev escaped `{{` in the HTML it generates,
    AnswerDotAI/nbdev PR #75). Code cells are fenced code, which the template plugin does
    not read; Markdown and raw cells are the author's text and keep their tags.
    """
    if "{{" not in block and "{%" not in block:
        return block
    return f"{{% raw %}}\n\n{block}\n\n{{% endraw %}}"


def _image(data: dict[str, Any]) -> str:
    """Return a `data:` URL of an output's or attachment's image ("" for none)."""
    for mime in IMAGE_TYPES:
        if mime in data:
            payload = _source(data[mime])
            if mime == "image/svg+xml":
                payload = base64.b64encode(payload.encode("utf-8")).decode("ascii")
            return f"data:{mime};base64,{''.join(payload.split())}"
    return ""


def _size(url: str, metadata: dict[str, Any]) -> str:
    """Return ` width="…" height="…"` for an output image, so the page keeps its place
    while it loads: the output's own metadata (Jupyter's `retina` figures give their CSS
    size there), else a PNG's or GIF's pixel size from its header; "" when neither says."""
    width, height = metadata.get("width"), metadata.get("height")
    if not (isinstance(width, int) and isinstance(height, int)):
        width = height = None
        text = url.partition(",")[2][:32]
        try:
            head = base64.b64decode(text[: len(text) // 4 * 4])
        except ValueError:  # binascii.Error: not base64 after all
            head = b""
        if url.startswith("data:image/png") and head[12:16] == b"IHDR":
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        elif url.startswith("data:image/gif") and head[:3] == b"GIF":
            width, height = (
                int.from_bytes(head[6:8], "little"),
                int.from_bytes(head[8:10], "little"),
            )
    return f' width="{width}" height="{height}"' if width and height else ""


def _text_block(text: str) -> str:
    """Return plain text output as a `text` code block ("" for none)."""
    text = ANSI.sub("", text).rstrip()
    if not text.strip():
        return ""
    fence = "`" * max(3, _longest_run(text, "`") + 1)
    return f"{fence}text\n{text}\n{fence}"


def _display_math(latex: str) -> str:
    """Return LaTeX output (`$$…$$`, `$…$`, `\\[…\\]` or an environment) as display math."""
    body = latex.strip()
    for opening, closing in (("$$", "$$"), ("\\[", "\\]"), ("$", "$")):
        if body.startswith(opening) and body.endswith(closing) and len(body) > 2 * len(opening):
            body = body[len(opening) : -len(closing)].strip()
            break
    return f"$$\n{body}\n$$"


def _longest_run(text: str, char: str) -> int:
    """Return the length of the longest run of `char` in `text`."""
    runs = re.findall(f"{re.escape(char)}+", text)
    return max((len(run) for run in runs), default=0)
