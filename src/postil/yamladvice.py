"""How to fix a YAML value that YAML reads as syntax: what PyYAML's parser error means.

An author writes `title: [Draft] My post`, `title: @handle's notes`, `title: *Bold* claims`
or `title: 'It's mine'` meaning text; YAML reads the first character as the start of a
list, a reserved indicator, an alias, or a quoted value that ends early, and PyYAML says
"while parsing a block mapping; expected <block end>, but found '<scalar>'", which names
neither the cause nor the fix (YAML 1.2, "Indicator Characters": `[`, `{`, `'`, `"`, `*`,
`&`, `!`, `|`, `>`, `%`, `@`, `` ` `` cannot start plain text). Each such error is told
here at the value, with the value quoted as the fix; single quotes, since YAML reads no
backslash escape inside them and titles hold TeX (`'$\\mathbf{x}$'`).
"""

from __future__ import annotations

import re

import yaml

_KEY_VALUE = re.compile(r"(\s*(?:-\s+)?)([^\s#'\"\[\]{}:][^:]*?):[ \t]+(\S.*?)\s*")
"""A `key: value` line (or a list item's): groups: the indentation, the key, the value."""

_OPENERS = {
    "[": "a `[` starts a YAML list",
    "{": "a `{` starts a YAML mapping",
    '"': 'a `"` starts quoted text',
    "'": "a `'` starts quoted text",
}
"""What YAML reads a value's first character as, for a value that goes on after it ends."""

_RESERVED = {
    "@": "`@` is reserved in YAML and cannot start a value",
    "`": "`` ` `` is reserved in YAML and cannot start a value",
    "%": "`%` cannot start a YAML value",
    "*": "a `*` starting a value is a YAML alias (a reference to an `&anchor`)",
    "&": "a `&` starting a value is a YAML anchor",
    "|": "a `|` starting a value opens a block of text on the lines below",
    ">": "a `>` starting a value opens a folded block of text on the lines below",
    "-": "a `- ` starting a value is a list item",
    "!": "a `!` starting a value is a YAML tag, which postil does not read",
}
"""Why a value cannot start with its first character, as PyYAML's errors show it."""

LONGEST_SHOWN = 60
"""A quoted value longer than this is not written out in the message."""


def quote_advice(err: yaml.MarkedYAMLError) -> tuple[str, int, int] | None:
    """Return (message, line0, col0) for an error caused by a value YAML reads as syntax,
    placed at the value's first character; None for any other error.

    The value is found on the line of the error (PyYAML's mark: where it gave up, on the
    value's line for each case handled), as `key: value` or `- key: value`.
    """
    mark = err.problem_mark
    buffer = getattr(mark, "buffer", None)
    if mark is None or not isinstance(buffer, str):
        return None
    lines = buffer.rstrip("\0").split("\n")
    if mark.line >= len(lines):
        return None
    flow = _flow_advice(err, lines[mark.line], mark.column)
    if flow is not None:
        return flow[0], mark.line, flow[1]
    found = _KEY_VALUE.fullmatch(lines[mark.line])
    if found is None:
        return None
    _, key, value = found.groups()
    col0 = found.start(3)
    why = _why(err, value, mark.column - col0)
    if why is None:
        return None
    fix = _fix(key, value)
    if why.startswith("a `'` inside"):  # the same fix, told as the one rule it breaks
        shown = fix.partition(": ")[2]
        fix = f"write each `'` inside it twice{': ' + shown if shown else ''}"
    return f"{why}; {fix}", mark.line, col0


_FLOW_KEY = re.compile(r"\s*([^\s'\"\[\]{},:?][^,:\[\]{}]*?):\s+")
"""The `key: ` of an item of a one-line mapping, `{label: Notes, url: …}`."""


def _flow_advice(err: yaml.MarkedYAMLError, line: str, col: int) -> tuple[str, int] | None:
    """Return (message, col0 of the item's value) for a `?` or `:` inside an item of a
    one-line mapping or list (`- {label: Notes, url: /notes/?x=1}`, `[a, b?c]`), which
    YAML reads as syntax there (PyYAML: "expected ',' or '}', but got '?'"); else None.

    The item is the text between the `{`, `[` or `,` before the error and the `,`, `}` or
    `]` after it; its value is quoted as the fix.
    """
    context, problem = err.context or "", err.problem or ""
    if not context.startswith("while parsing a flow") or not problem.startswith("expected ','"):
        return None
    if col >= len(line) or line[col] not in "?:" or max(line.rfind(o, 0, col) for o in "{[") < 0:
        return None  # (a `[` never closed reads the next lines as its items: told so elsewhere)
    start = max(line.rfind(opener, 0, col) for opener in "{[,") + 1
    ends = [i for i in (line.find(closer, col) for closer in ",}]") if i >= 0]
    item = line[start : min(ends, default=len(line))]
    key = _FLOW_KEY.match(item)
    value = item[key.end() :] if key else item.strip()
    value_col = start + (key.end() if key else len(item) - len(item.lstrip()))
    quoted = "'" + value.strip().replace("'", "''") + "'"
    written = f"{key.group(1)}: {quoted}" if key else quoted
    return (
        f"a `{line[col]}` inside `{{…}}` or `[…]` on one line is YAML syntax, not text; if "
        f"`{value.strip()}` is text, put it in single quotes: `{written}`",
        value_col,
    )


def _why(err: yaml.MarkedYAMLError, value: str, at: int) -> str | None:
    """Return why YAML does not read `value` as text, given PyYAML's error found `at`
    characters into it, or None when the error is not about its first character."""
    problem, context = err.problem or "", err.context or ""
    first = value[0]
    if problem.startswith("expected <block end>") and first in _OPENERS and at > 0:
        if first == "'" and "'" in value[1:at]:
            return "a `'` inside text in single quotes ends it"
        return f"{_OPENERS[first]}, which ends before the rest of the line"
    if context.startswith("while parsing a flow") and first in "[{" and at > 0:
        return f"{_OPENERS[first]}, and this text is not one"
    starts = (
        problem.startswith("found character")
        or problem.startswith("found undefined alias")
        or problem == "sequence entries are not allowed here"
        or context in ("while scanning an alias", "while scanning an anchor")
        or context == "while scanning a block scalar"
    )
    if starts and first in _RESERVED:
        return _RESERVED[first]
    return None


def _fix(key: str, value: str) -> str:
    """Return the fix: the value in single quotes (a `'` in it doubled), written out when
    short."""
    value = re.sub(r"\s+#\s.*$", "", value)  # a YAML comment after the value stays one
    if value.startswith("'") and value.endswith("'") and len(value) > 1:
        value = value[1:-1].replace("''", "'")  # already quoted, badly: its text
    quoted = "'" + value.replace("'", "''") + "'"
    if len(quoted) > LONGEST_SHOWN:
        return "if it is text, put the whole value in single quotes (a `'` inside written twice)"
    return f"if it is text, put it in single quotes: `{key}: {quoted}`"


def local_tag(node: yaml.Node) -> yaml.ScalarNode | None:
    """Return the first scalar of `node` (itself, or an item of a list or mapping) written
    with a local YAML tag (`!important note`, whose text PyYAML reads as `note`), or None.

    YAML's own tags (`!!str`) are resolved to `tag:yaml.org,2002:…` and are not local.
    """
    if isinstance(node, yaml.ScalarNode):
        return node if node.tag.startswith("!") else None
    if isinstance(node, yaml.SequenceNode):
        items = node.value
    elif isinstance(node, yaml.MappingNode):
        items = [value for _, value in node.value]
    else:
        return None
    return next((found for item in items if (found := local_tag(item)) is not None), None)


def tag_message(key: str, node: yaml.ScalarNode, whole: bool) -> str:
    """Return the error for a value written with a local tag: what was read, and the fix
    (the value quoted when the tagged scalar is the whole value of `key`)."""
    written = f"{node.tag} {node.value}".strip()
    fix = _fix(key, written) if whole else "if it is text, put it in single quotes"
    read = f"it would read `{node.value}`" if node.value else "it would read nothing"
    return f"`{key}`: {_RESERVED['!']} ({read}); {fix}"
