r"""Math macros as `postil.yaml` (`math: macros:`) and front matter (`macros:`) define them.

A macro is `name: body` (`RR: '\mathbb{R}'`, `norm: '\left\lVert #1 \right\rVert'`, the
arguments counted from the highest `#n`), or MathJax's list form (its `TeX: {macros: …}`
configuration, https://docs.mathjax.org/en/latest/input/tex/macros.html): `[body, n]` for
n arguments, `[body, n, default]` for an optional first argument with that default, as
`\newcommand{\name}[n][default]{body}`. A body whose braces do not balance, or that uses a
`#k` beyond its count, is an error at its line.
"""

from __future__ import annotations

import re

import yaml

from postil.errors import plural
from postil.math.texreader import signed_body
from postil.yamlnodes import Field, YamlFieldError, as_text, mapping_fields, read_all

_PARAMETER = re.compile(r"#([1-9])")
_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)


def read_macros(field: Field) -> tuple[tuple[str, str], ...]:
    """Return a `macros` mapping as (name without backslash, body) pairs sorted by name; a
    body with a declared signature is `signed_body`'s.

    Raises:
        YamlFieldError: a value that is neither text nor MathJax's list form, a count that
            does not match the body's `#n`, or a body whose braces do not balance; at the
            value's line and column (`YamlFieldErrors`: every such macro's, `read_all`).
    """
    subs = mapping_fields(field.node, f"`{field.key}`")
    read = read_all(subs, lambda sub: _body(sub, sub.key.lstrip("\\")))
    return tuple(sorted({sub.key.lstrip("\\"): body for sub, body in read}.items()))


def _body(sub: Field, name: str) -> str:
    if isinstance(sub.node, yaml.ScalarNode):
        return _checked(as_text(sub), sub.node, name)
    usage = (
        f"write `{name}: '\\body with #1'` or MathJax's list `{name}: ['\\body with #1', 1]` "
        f"(`['\\body with #1 #2', 2, 'default of #1']` for an optional first argument)"
    )
    items = sub.node.value if isinstance(sub.node, yaml.SequenceNode) else []
    texts = [i.value for i in items if isinstance(i, yaml.ScalarNode)]
    if not 2 <= len(items) <= 3 or len(texts) != len(items) or not texts[1].isdigit():
        raise YamlFieldError(f"macro `{name}` is not a macro definition; {usage}", *_at(sub.node))
    body, count = _checked(texts[0], items[0], name), int(texts[1])
    used = max((int(n) for n in _PARAMETER.findall(body)), default=0)
    default = texts[2] if len(texts) == 3 else None
    if count > 9 or used > count:
        takes = f"takes {plural(count, 'argument')} but its body uses #{used}"
        if count > 9:
            takes = f"takes {count} arguments, but TeX has only #1 … #9"
        raise YamlFieldError(f"macro `{name}` {takes}; {usage}", *_at(items[1]))
    if default is not None and count == 0:
        message = f"macro `{name}` has a default for its first argument but takes none; {usage}"
        raise YamlFieldError(message, *_at(items[1]))
    return signed_body(count, default, body)


def _checked(body: str, node: yaml.Node, name: str) -> str:
    """Return `body` when its braces balance (`\\{`, `\\}` are characters, not braces)."""
    depth = 0
    for match in _BRACE.finditer(body):
        depth += {"{": 1, "}": -1}.get(match.group(0), 0)
        if depth < 0:
            break
    if depth != 0:
        which = "a `{` is never closed" if depth > 0 else "a `}` closes nothing"
        raise YamlFieldError(f"macro `{name}`: {which} in `{body}`; balance its braces", *_at(node))
    return body


def _at(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line, node.start_mark.column
