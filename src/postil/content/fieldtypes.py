"""Front matter values as other generators write them, read into postil's types.

Each converter takes a `postil.yamlnodes.Field` (and the site's zone, unused here) and
returns a value of `postil.model.FrontMatter`, or raises `YamlFieldError` at the value. The
sources of the conventions: Jekyll (`tags: a b` is two tags, `published: false`), Hugo
(`images: [a.png]`), Distill and al-folio (`authors:` mappings with `affiliations`), Quarto
(`author:` mappings, `affiliation:`), Jekyll SEO (`image: {path: …}`), Pelican
(`Status: draft`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import yaml
from slugify import slugify

from postil.config import citation_style as read_style
from postil.markdown.mathloader import config_macros
from postil.math.macros import extract_definitions
from postil.model import Author
from postil.yamlnodes import (
    Field,
    YamlFieldError,
    YamlFieldIgnored,
    as_bool,
    as_text,
    as_text_list,
    mapping_fields,
)

IMAGE_KEYS = ("path", "src", "url", "image", "file", "og_image", "feature", "teaser", "thumb")
"""Keys of an `image:` mapping that hold the image itself, the social image first: Jekyll
SEO's `path`, Minimal Mistakes' `og_image`, and the header, list and thumbnail images of
Michael Rose's Jekyll themes (So Simple, HPSTR: `image: {feature: x.jpg, credit: …}`)."""
THEME_IMAGE_KEYS = frozenset({"feature", "teaser", "thumb"})
"""The keys of Michael Rose's themes, whose bare file name is in the site's `/images/`
folder (their templates write `{{ site.url }}/images/{{ page.image.feature }}`)."""

FEATURED_IMAGE_OPTIONS = frozenset(
    {"caption", "focal_point", "preview_only", "placement", "alt_text", "alt"}
)
"""Keys of Hugo Blox's (Wowchemy's) `image:` mapping, which describes how to show the page
bundle's `featured.*` file and never names an image (Hugo Blox finds it by file name)."""


def one_line(text: str) -> str:
    """Return `text` with control characters and noncharacters as spaces, spaces collapsed.

    These are what HTML forbids in a document ("control-character-in-input-stream",
    "noncharacter-in-input-stream", WHATWG HTML §13.2.3.5); YAML's `"\\a"`, `"\\x1b"` or
    `"\\uFFFE"` escapes can put them in a title.
    """
    return " ".join(_FORBIDDEN.sub(" ", text).split())


_FORBIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\ufdd0-\ufdef"
    + "".join(chr(plane << 16 | 0xFFFE) + chr(plane << 16 | 0xFFFF) for plane in range(17))
    + "]"
)
"""The control characters (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) and the
noncharacters (U+FDD0-U+FDEF, and the last two code points of each of the 17 planes)."""


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line, node.start_mark.column


def terms(fld: Field, tz: ZoneInfo | None = None) -> tuple[str, ...]:
    """Return taxonomy terms: a list as written, or one text split into terms.

    One text is split at commas when it has any (`tags: a, b`, Pelican's and Hugo's habit),
    else at spaces (Jekyll: `tags: deep-learning math` is two tags). Duplicates are dropped.
    """
    if isinstance(fld.node, yaml.ScalarNode):
        text = as_text(fld) if fld.node.value.strip() else ""
        items = tuple(text.split(",") if "," in text else text.split())
    else:
        items = as_text_list(fld)
    cleaned = (one_line(item) for item in items)
    return tuple(dict.fromkeys(item for item in cleaned if item))


def authors(fld: Field, tz: ZoneInfo | None = None) -> tuple[Author, ...]:
    """Return the authors: names, or mappings with `name`, `url` and affiliations.

    A mapping (Distill, al-folio, Quarto, Jekyll SEO) needs `name`; `url` links the name;
    `affiliation`/`affiliations` is a text, a mapping with `name`, or a list of either.
    Other keys of a mapping (`email`, `orcid`, …) are accepted and not shown.
    """
    node = fld.node
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    found = []
    for item in items:
        sub = Field(fld.key, item, *_pos(item))
        if isinstance(item, yaml.MappingNode):
            found.append(_author(sub))
        else:
            found.extend(author for name in as_text_list(sub) for author in named(one_line(name)))
    return tuple(author for author in found if author.name)


AUTHOR_LINK = re.compile(
    r"""<a\s[^>]*?href\s*=\s*["']([^"']+)["'][^>]*>(.*?)</a\s*>""", re.I | re.S
)
"""An author written as an HTML link, `<a href="https://…">Miles Lubin</a>` (Franklin.jl's
`authors`, which its templates put in the page as HTML)."""
NAME_LIST = re.compile(r",?\s+and\s+|\s*&\s*|\s*;\s*", re.I)
"""What separates names in one text: ` and `, `&`, `;` (and `, and`)."""


def named(text: str) -> list[Author]:
    """Return the authors one text names: `Simon Byrne, Luis Benet and David Sanders` is three
    (a text of names as Franklin.jl's, Hugo's and Jekyll's single `author` strings hold them:
    cited as one, BibTeX read "Simon Byrne, Luis Benet" as a surname and a given name). The text
    is split only where every part is a full name of two words or more, so `Byrne, Simon`,
    `Tom and Jerry` and `Research and Development` stay one name. An HTML link is the name
    it shows, linked (`AUTHOR_LINK`); other tags are dropped.
    """
    links: dict[str, str] = {}

    def link(found: re.Match[str]) -> str:
        shown = re.sub(r"<[^>]+>", "", found.group(2)).strip()
        links[shown] = found.group(1).strip()
        return shown

    if "<" in text:
        text = re.sub(r"<[^>]+>", "", AUTHOR_LINK.sub(link, text))
    parts = [part.strip() for part in NAME_LIST.split(text) if part.strip()]
    pieces = [piece.strip() for part in parts for piece in part.split(",") if piece.strip()]
    names = [text.strip()]  # one name, unless every part is a full name (two words or more)
    for split in (pieces, parts):
        if len(split) > 1 and all(len(name.split()) >= 2 for name in split):
            names = split
            break
    return [Author(name, links.get(name, "")) for name in names if name]


NAME_PARTS = (("first_name", "last_name"), ("given", "family"))
"""An author's name in two keys, given name first: R's distill (`first_name`, `last_name`:
its `authors_with_first_and_last_names` joins them when `name` is missing) and CSL's
`given`, `family` (Quarto's `name:` mapping, and the same keys written on the author)."""


def _author(fld: Field) -> Author:
    """Return one author written as a mapping: `name` (a text, or Quarto's mapping of
    `given`, `family`, `literal`), or else the two parts of `NAME_PARTS`.

    Raises:
        YamlFieldError: the mapping names no one (at the mapping).
    """
    parts = {sub.key.lower(): sub for sub in mapping_fields(fld.node, f"an author in `{fld.key}`")}
    if "name" in parts and isinstance(parts["name"].node, yaml.MappingNode):
        # Quarto: name: {given: …, family: …}
        name = parts["name"]
        given = {sub.key: one_line(as_text(sub)) for sub in mapping_fields(name.node, "`name`")}
        text = " ".join(filter(None, (given.get("given"), given.get("family")))) or given.get(
            "literal", ""
        )
    elif "name" in parts:
        text = one_line(as_text(parts["name"]))
    else:
        text = next(
            (
                " ".join(filter(None, (one_line(as_text(parts[k])) for k in keys if k in parts)))
                for keys in NAME_PARTS
                if any(key in parts for key in keys)
            ),
            "",
        )
        if not text.strip():
            raise YamlFieldError(
                f"an author in `{fld.key}` has no `name`; add `name: …` (or distill's "
                "`first_name:` and `last_name:`)",
                *_pos(fld.node),
            )
    url = one_line(as_text(parts["url"])) if "url" in parts else ""
    places: list[str] = []
    for key in ("affiliation", "affiliations"):
        if key in parts:
            places += _affiliations(parts[key])
    return Author(text, url, tuple(dict.fromkeys(places)))


def _affiliations(fld: Field) -> list[str]:
    """Return institution names: a text, a mapping with `name`, or a list of either."""
    node = fld.node
    items = node.value if isinstance(node, yaml.SequenceNode) else [node]
    names = []
    for item in items:
        if isinstance(item, yaml.MappingNode):
            named = {sub.key: sub for sub in mapping_fields(item, f"`{fld.key}`")}
            if "name" in named:
                names.append(one_line(as_text(named["name"])))
        elif isinstance(item, yaml.ScalarNode) and item.value.strip():
            names.append(one_line(item.value))
    return names


def image(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return the social image: a text, the first of a list (Hugo's `images`), or a mapping's
    `path`/`src`/`url`/`image`/`file` (Jekyll SEO's `image: {path: …}`); "" for Hugo Blox's
    `image: {caption: …, focal_point: …}` (`FEATURED_IMAGE_OPTIONS`), which names none; ""
    for `true`/`false` (`preview: false`, `thumbnail: true`: a theme's switch, no file).

    Raises:
        YamlFieldIgnored: a mapping with none of `IMAGE_KEYS` and keys Hugo Blox does not
            have (another theme's shape: a warning, the key left out).
    """
    node = fld.node
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
        return ""
    if isinstance(node, yaml.SequenceNode):
        return image(Field(fld.key, node.value[0], *_pos(node.value[0]))) if node.value else ""
    if isinstance(node, yaml.MappingNode):
        parts = {sub.key: sub for sub in mapping_fields(node, f"`{fld.key}`")}
        found = next((parts[key] for key in IMAGE_KEYS if key in parts), None)
        if found is None and parts and set(map(str.lower, parts)) <= FEATURED_IMAGE_OPTIONS:
            return ""  # Hugo Blox's options for `featured.jpg`: no image named here
        if found is None:
            raise YamlFieldIgnored(
                f"`{fld.key}` names no image postil reads (none of the keys "
                f"{', '.join(IMAGE_KEYS)}), so the post has no social image; give the image "
                "as text or under `path:`",
                *_pos(node),
            )
        value = image(found)
        if found.key in THEME_IMAGE_KEYS and value and "/" not in value:
            return "/images/" + value  # the themes' `{{ site.url }}/images/{{ … }}`
        return value
    return one_line(as_text(fld))


HEADER_IMAGE_KEYS = ("og_image", "teaser", "image", "overlay_image")
"""Keys of a `header:` mapping that name an image, the social image first: Minimal
Mistakes' `og_image`, its list image `teaser`, its header's `image` or `overlay_image`
(Hugo Academic writes `header: {image: …}` too)."""


def header_image(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return the image a theme's `header:` mapping names (`HEADER_IMAGE_KEYS`), or "" for
    one that names none: its other keys (`overlay_color`, `caption`, `actions`) only style
    the theme's header.

    Raises:
        YamlFieldIgnored: `header` is no mapping (another theme's switch, `header: false`).
    """
    node = fld.node
    if not isinstance(node, yaml.MappingNode):
        raise YamlFieldIgnored(
            f"`{fld.key}` is read as Minimal Mistakes' header mapping (`teaser:`, `image:`, "
            "`overlay_image:`), and this one is no mapping, so it is not read; postil's "
            "pages have no header image: give the social image as `image:`",
            *_pos(node),
        )
    parts = {sub.key.lower(): sub for sub in mapping_fields(node, f"`{fld.key}`")}
    found = next((parts[key] for key in HEADER_IMAGE_KEYS if key in parts), None)
    return "" if found is None else image(found)


def styles(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return the post's own CSS (`styles:`, al-folio's `_styles: >` block), as written.

    Raises:
        YamlFieldIgnored: the text holds `</` (it would end the page's `<style>` element
            early: a warning, the key left out) or is no text.
    """
    if not isinstance(fld.node, yaml.ScalarNode):
        raise YamlFieldIgnored(
            f"`{fld.key}` is CSS text; write it as a `>` or `|` block", *_pos(fld.node)
        )
    text = as_text(fld).strip()
    if "</" in text:
        raise YamlFieldIgnored(
            f"`{fld.key}` holds `</`, which would end the page's style element; CSS needs "
            "no HTML tags: take it out",
            *_pos(fld.node),
        )
    return text


def header_macros(fld: Field, tz: ZoneInfo | None = None) -> tuple[tuple[str, str], ...]:
    """Return the math macros that a MathJax or KaTeX configuration in the page's header
    defines: Quarto's `format: html: include-in-header: [{text: <script>…</script>}]` (or
    `include-in-header:` at the top), Pandoc's `header-includes:` (a text or a list).

    Quarto posts define their macros so (`window.MathJax = {tex: {macros: {…}}}`), which
    postil's math reads as a post's `macros:` (`postil.markdown.mathloader.config_macros`
    reads the configuration, as it does in a post's body). A header file (`file:`, or a
    text Quarto takes for a path) is not read; a value of another shape gives none.

    Returns:
        ((name, body), …) sorted by name, as `macros:` gives them.
    """
    texts: list[str] = []
    _header_texts(fld.node, fld.key.lower(), texts)
    definitions = "".join(config_macros(text) for text in texts if "macros" in text.lower())
    return tuple(sorted(extract_definitions(definitions)[0].items())) if definitions else ()


def _header_texts(node: yaml.Node, key: str, texts: list[str]) -> None:
    """Collect the inline header texts under `node`, the value of `key` (module doc)."""
    if key == "format" and isinstance(node, yaml.MappingNode):
        for key_node, value in node.value:  # `html:`, `html+…:`; never `pdf:`
            if isinstance(key_node, yaml.ScalarNode) and key_node.value.startswith("html"):
                _header_texts(value, "html", texts)
    elif key == "html" and isinstance(node, yaml.MappingNode):
        for key_node, value in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == "include-in-header":
                _header_texts(value, "include-in-header", texts)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _header_texts(item, key, texts)
    elif isinstance(node, yaml.MappingNode):  # `- text: |` (`- file: x.html` is not read)
        texts += [
            v.value for k, v in node.value if k.value == "text" and isinstance(v, yaml.ScalarNode)
        ]
    elif isinstance(node, yaml.ScalarNode) and key == "header-includes":
        texts.append(node.value)  # Pandoc's: the text itself (Quarto's is a file's path)


TOC_OFF = frozenset({"false", "no", "off", "n"})
"""`toc:` values that hide the table of contents: YAML 1.2's `false` and the YAML 1.1 words
Jekyll's parser reads as false."""


def toc(fld: Field, tz: ZoneInfo | None = None) -> bool:
    """Return whether to show a table of contents: false for `false` (and `TOC_OFF`), true
    for any other value: a list or mapping (al-folio's `toc: {sidebar: left}`, Distill's
    sections) or text (`toc: fa`, a real post's typo, which Jekyll's and Hugo's templates
    read as true: a display option is read as they read it, never an error)."""
    if isinstance(fld.node, yaml.SequenceNode | yaml.MappingNode):
        return True
    return as_text(fld).strip().lower() not in TOC_OFF


def hidden_toc(fld: Field, tz: ZoneInfo | None = None) -> bool:
    """Return `toc` from Docusaurus' `hide_table_of_contents:` (`true` hides it)."""
    return not as_bool(fld)


def status_draft(fld: Field, tz: ZoneInfo | None = None) -> bool:
    """Return `draft` from Pelican's `Status:` (`draft` is a draft; `published`, `hidden`,
    and MkDocs' page statuses are not)."""
    return as_text(fld).strip().lower() == "draft"


def citable(fld: Field, tz: ZoneInfo | None = None) -> bool:
    """Return `citation`: `true`/`false`, or a mapping (Quarto's citation metadata) for true."""
    if isinstance(fld.node, yaml.MappingNode):
        return True
    return as_bool(fld)


def paths(fld: Field, tz: ZoneInfo | None = None) -> tuple[str, ...]:
    """Return file paths as written: one text or a list of texts (`bibliography:`)."""
    return tuple(path.strip() for path in as_text_list(fld) if path.strip())


def permalink(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return a post's own URL path (`permalink:`, Hugo's and Pelican's `url:`), normalised
    by `site_path`."""
    node = fld.node
    if not isinstance(node, yaml.ScalarNode):
        raise YamlFieldError(f"`{fld.key}` must be a path such as /2020/01/my-post/", *_pos(node))
    return site_path(as_text(fld), fld.key, node)


CANONICAL_URL = re.compile(r"https?://[^\s<>\"']+\Z")


def canonical_url(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return the URL of a post's original (`canonical_url:`, as dev.to, Jekyll SEO and Hugo's
    PaperMod `canonicalURL:` write it for a post published first elsewhere): the page's
    `<link rel="canonical">`, so search engines credit the original.

    Raises:
        YamlFieldError: not an absolute http(s) URL.
    """
    text = as_text(fld).strip()
    if not CANONICAL_URL.match(text):
        raise YamlFieldError(
            f"`{fld.key}` must be the original's absolute URL, such as "
            "https://example.org/2020/01/my-post/",
            *_pos(fld.node),
        )
    return text


def aliases(fld: Field, tz: ZoneInfo | None = None) -> tuple[str, ...]:
    """Return the paths that redirect to a post (Hugo's `aliases:`, jekyll-redirect-from's
    `redirect_from:`): one text or a list, each normalised by `site_path`, with its `/` kept
    in front when it was written from the site's root (`/old/`); one without is relative to
    the post's folder, as in Quarto (`content.posts.alias_path` resolves it). A blank or
    null value, or a blank item (`aliases:`, as Obsidian's and Quartz's templates leave it),
    is no alias. An alias that is a name, not a path (Obsidian's and Quartz's
    `aliases: [product rule]`: other names of the note, no `/` in them), is its slug beside
    the post (`product-rule/`), as Quartz's AliasRedirects plugin makes its page."""
    node = fld.node
    if node.tag == "tag:yaml.org,2002:null":  # `aliases: ~` / `null`: YAML's "no value"
        return ()
    texts = as_text_list(fld)
    items = node.value if isinstance(node, yaml.SequenceNode) else [node] * len(texts)
    paths = [
        (text.strip().startswith("/"), _alias_path(text), n)
        for text, n in zip(texts, items, strict=True)
    ]
    return tuple("/" * rooted + old_path(path, fld.key, n) for rooted, path, n in paths if path)


def _alias_path(text: str) -> str:
    """Return an alias as a path: a path as written, a note's other name as its slug."""
    path = text.strip()
    if not path or "/" in path or ":" in path or SITE_PATH.fullmatch(path):
        return path
    return slugify(path, allow_unicode=True)


DOI = re.compile(r"(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)", re.I)
"""A DOI as written: bare (`10.59350/abc`), `doi:`, or as its resolver's URL (Crossref's
display guidelines: https://www.crossref.org/display-guidelines/)."""


LANGUAGE_TAG = re.compile(
    r"(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})"  # language, extlang
    r"(?:-[A-Za-z]{4})?"  # script
    r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"  # region
    r"(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*"  # variants
    r"(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*"  # extensions
    r"(?:-[xX](?:-[A-Za-z0-9]{1,8})+)?"  # private use
    r"|[xX](?:-[A-Za-z0-9]{1,8})+"
)
"""A well-formed BCP 47 language tag (RFC 5646, section 2.1's `langtag` and
`privateuse`): `en`, `zh-Hans-CN`, `de-CH-1996`, `x-klingon`."""


def language(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return a page's language tag (`lang: zh`, as Pandoc, Quarto and Hakyll write it).

    Raises:
        YamlFieldIgnored: at the value, for text that is no BCP 47 tag (`lang: Chinese`,
            `lang: zh_CN`): the page keeps the site's language, with a warning.
    """
    text = one_line(as_text(fld)).strip()
    if LANGUAGE_TAG.fullmatch(text) is None:
        hint = f" (`{text.replace('_', '-')}`)" if "_" in text else ""
        raise YamlFieldIgnored(
            f"`{fld.key}: {text}` is not a BCP 47 language tag, so the page keeps the site's "
            f"`language`; write one such as `en`, `zh-Hans` or `pt-BR`{hint}",
            *_pos(fld.node),
        )
    return text


def doi(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return the post's own DOI (`doi:`, as Quarto and Distill write it) without its
    resolver: `https://doi.org/10.59350/abc` is `10.59350/abc`.

    Raises:
        YamlFieldError: at the value, for text that is no DOI.
    """
    text = one_line(as_text(fld))
    found = DOI.fullmatch(text)
    if found is None:
        raise YamlFieldError(
            f"`{fld.key}: {text}` is not a DOI; write it as 10.1234/name", *_pos(fld.node)
        )
    return found.group(1)


SITE_PATH = re.compile(r"[A-Za-z0-9._~/-]*")
"""The characters of a permalink: unreserved URL characters and `/` (RFC 3986)."""

OLD_PATH = re.compile(r"(?:[A-Za-z0-9._~/!$&'()*+,;=@-]|(?!\s)[^\x00-\x7f])*")
"""The characters of an alias, a URL another generator published: `SITE_PATH`'s, RFC
3986's sub-delimiters and `@` (`/contest-2020,-online/`), and letters beyond ASCII, which
it wrote percent-encoded (`/%E6%A6%82%E7%8E%87/`: Jekyll's URL of a file named in Chinese)."""


def old_path(text: str, key: str, node: yaml.Node) -> str:
    """Return an alias as `site_path` normalises it, percent-encoding decoded: a web server
    decodes the URL a reader asks for before it looks for the file (GitHub Pages, nginx),
    so the redirect page is written at `_posts/概率/index.html` for `/_posts/%E6%A6%82%E7%8E%87/`.

    Raises:
        YamlFieldError: as `site_path`, and for percent-encoding that is no UTF-8.
    """
    try:
        return site_path(unquote(text, errors="strict"), key, node, OLD_PATH)
    except UnicodeDecodeError:  # `%FF`: no path; `site_path` says so without `%`
        return site_path(text, key, node)


def site_path(text: str, key: str, node: yaml.Node, chars: re.Pattern[str] = SITE_PATH) -> str:
    """Return a path of the site as postil writes URLs: no leading `/`, a folder's with a
    trailing `/` (`/2012/12/04/x` and `2012/12/04/x/` are `2012/12/04/x/`), a file's as
    written (`old/post.html`: Jekyll's and Pelican's `.html` pages).

    Raises:
        YamlFieldError: at `node`, for a full URL, a query or fragment, `..` or `.` segments,
            a Jekyll placeholder (`:title`), characters other than `chars`' (`SITE_PATH`'s
            for a permalink, `OLD_PATH`'s for an alias), or the site's root.
    """
    path = text.strip()
    example = "such as /2012/12/04/my-post/"
    if ":" in path:
        what = "a full URL" if "//" in path else "a placeholder such as :title"
        raise YamlFieldError(
            f"`{key}: {path}` is {what}; write the path on this site, {example}", *_pos(node)
        )
    segments = path.strip("/").split("/")
    if not chars.fullmatch(path) or any(seg in ("", ".", "..") for seg in segments):
        raise YamlFieldError(
            f"`{key}: {path}` is not a plain path; write one {example}: letters, digits, "
            "`-`, `_`, `.`, `~` between single slashes",
            *_pos(node),
        )
    joined = "/".join(segments)
    return joined if segments[-1].endswith((".html", ".htm")) else joined + "/"


def citation_style(fld: Field, tz: ZoneInfo | None = None) -> str:
    """Return a citation style name: `author-year` or `numeric` (any case)."""
    return read_style(fld)


def ignored(fld: Field, tz: ZoneInfo | None = None) -> Any:
    """Return None: the key is understood and has nothing for postil to do."""
    return None
