r"""Safety checks on LaTeX before conversion: no HTML-ish commands, only safe link targets.

KaTeX gates such commands behind its `trust` option
(https://katex.org/docs/options.html#trust); postil never trusts them: `\includegraphics` is
refused, `\href`/`\url` accept only http(s) and relative URLs, and the HTML commands
(`\class`, `\cssId`, `\style`, KaTeX's `\htmlClass`, `\htmlId`, `\htmlStyle`, `\htmlData`)
are macros (`macros.BUILTIN_MACROS`) that keep their math and drop their HTML, but for
`\style`'s colour and box properties.
"""

from __future__ import annotations

import re

from postil.math.errors import MathUnsupportedError
from postil.math.macros import read_group

REFUSED = frozenset({"includegraphics"})
LINKS = re.compile(r"\\(href|url)(?![A-Za-z])")
# A refused command: the whole control word (`\classy` is not `\class`), found in one search.
REFUSED_COMMAND = re.compile(r"\\(" + "|".join(sorted(REFUSED)) + r")(?![A-Za-z])")
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def is_safe_url(url: str) -> bool:
    """Tell whether `url` is http(s) or relative (no scheme) and free of control characters.

    Browsers strip tabs and newlines inside a scheme (`java\\nscript:`), so any whitespace
    or control character before the first `/`, `?` or `#` makes the URL unsafe.
    """
    head = re.split(r"[/?#]", url, maxsplit=1)[0]
    if any(ord(c) < 0x21 or c in "\\&" for c in head):
        return False
    scheme = SCHEME.match(url)
    return scheme is None or scheme.group(1).lower() in ("http", "https")


def check_safety(latex: str) -> None:
    """Refuse `\\includegraphics` and unsafe link targets in a formula.

    Raises:
        MathUnsupportedError: naming the command, at its offset.
    """
    match = REFUSED_COMMAND.search(latex)
    if match:
        raise MathUnsupportedError(
            f"\\{match.group(1)} is not allowed in postil math (an image inside a formula "
            "would be raw HTML); put the image in Markdown beside the formula: ![alt](x.png)",
            match.start(),
            "\\" + match.group(1),
        )
    for match in LINKS.finditer(latex):
        url, _ = read_group(latex, match.end())
        if not is_safe_url(url.strip()):
            raise MathUnsupportedError(
                f"\\{match.group(1)} target {url.strip()[:40]!r} is not allowed: only http(s) "
                "and relative URLs are allowed; link to an https:// or relative address",
                match.start(),
                "\\" + match.group(1),
            )
