"""Typed reading of YAML mappings with exact source positions.

PyYAML's `safe_load` throws away where a value was written and applies YAML 1.1's implicit
typing (`no` -> False, `1.10` -> 1.1, `on` -> True). postil composes the node tree with
`yaml.compose(..., Loader=yaml.SafeLoader)` instead and converts each field by an explicit
rule, so a value is either the type the field wants or an error at its line — never a silently
changed value. The rules (documented in README, "Front matter"):

- text fields take the scalar *as written* (`title: 1984` is the text "1984", `tags: [no]` is
  the tag "no");
- booleans accept only `true` / `false` (any case); `yes`, `no`, `on`, `off` are errors;
- integers accept only decimal digits;
- a mapping must not repeat a key;
- a tab after a line's indentation is read as a space (YAML 1.2 and libyaml allow tabs as
  separators, PyYAML does not); a tab *in* the indentation stays an error, since its width is
  ambiguous;
- nesting deeper than PyYAML's recursion allows is an error, not a crash.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import yaml

from postil.errors import Location
from postil.yamladvice import local_tag, quote_advice, tag_message

_SURROGATE = re.compile("[\ud800-\udfff]")
T = TypeVar("T")


_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's composer when PyYAML was built with it (≈ 15x faster). It gives the same nodes,
tags and marks for ordinary front matter; for anything it rejects, and for text with escape
sequences or characters outside the BMP (where libyaml and PyYAML differ on surrogates), the
pure-Python `SafeLoader` reads the text instead, so errors and values are PyYAML's; but
what libyaml read and PyYAML rejects (a `?` inside a value of `[…]` or `{…}`) stays read."""


def _astral_or_escaped(text: str) -> bool:
    """Return whether `text` has a backslash (a YAML escape) or a non-BMP character."""
    return "\\" in text or (not text.isascii() and max(text) > "\uffff")


class YamlFieldError(ValueError):
    """A YAML value has the wrong type; `line0`/`col0` are 0-based within the YAML text."""

    def __init__(self, message: str, line0: int, col0: int) -> None:
        super().__init__(message)
        self.message = message
        self.line0 = line0
        self.col0 = col0


class YamlFieldErrors(YamlFieldError):
    """Several values that cannot be read, found in one pass over a mapping (`read_all`);
    the first one's message and place are this error's own, so a caller that reports one
    problem reports that."""

    def __init__(self, errors: Sequence[YamlFieldError]) -> None:
        super().__init__(errors[0].message, errors[0].line0, errors[0].col0)
        self.errors = tuple(e for error in errors for e in each_error(error))


def each_error(error: YamlFieldError) -> tuple[YamlFieldError, ...]:
    """Return the problems an error stands for: itself, or a `YamlFieldErrors`' every one."""
    return error.errors if isinstance(error, YamlFieldErrors) else (error,)


def read_all(fields: Iterable[Field], read: Callable[[Field], T]) -> list[tuple[Field, T]]:
    """Return (field, `read(field)`) for every field, reading them all before failing.

    Raises:
        YamlFieldErrors: every field `read` raised `YamlFieldError` for, in order, so a
            configuration with three mistakes reports three (not one a run).
    """
    read_values: list[tuple[Field, T]] = []
    errors: list[YamlFieldError] = []
    for fld in fields:
        try:
            read_values.append((fld, read(fld)))
        except YamlFieldError as e:
            errors.append(e)
    if errors:
        raise YamlFieldErrors(errors)
    return read_values


class YamlFieldIgnored(YamlFieldError):
    """A value postil cannot read but that need not stop the build (another theme's shape of
    a display option): its key is left out, and the message is a warning."""


class YamlFieldGuessed(YamlFieldIgnored):
    """A value that reads two ways (`date: 01-09-2017`): `value` is the reading taken, as
    the generator the file was written for reads it, and the message is a warning naming
    both."""

    def __init__(self, message: str, line0: int, col0: int, value: object) -> None:
        super().__init__(message, line0, col0)
        self.value = value


@dataclass(frozen=True)
class Field:
    """One key of a YAML mapping: its name, the value node, and where the key was written."""

    key: str
    node: yaml.Node
    line0: int
    col0: int


def compose_mapping(
    text: str, repeated: list[Field] | None = None, what: str = "the document"
) -> list[Field] | None:
    """Compose `text` as one YAML mapping and return its fields in written order.

    Returns None for an empty document. Raises `yaml.MarkedYAMLError` on a syntax error, and
    `YamlFieldError` for a character YAML forbids, when the document is not a mapping, a key
    is not text, a key repeats (unless `repeated` is given: see `mapping_fields`), or the
    document nests too deeply to read. Tabs after the indentation are read as spaces
    (columns are unchanged: one tab becomes one space). `what` names the document in
    errors ("the document must be a mapping of `key: value` lines").
    """
    text = spaces_for_tabs(text)
    try:
        node = yaml.compose(text, Loader=_FAST_LOADER)
    except Exception:  # noqa: BLE001 - any failure: the reference loader says exactly what
        node = None
    else:
        if node is None or not _astral_or_escaped(text):
            return None if node is None else mapping_fields(node, what, repeated)
    fast = node
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError:
        # text libyaml read and PyYAML's scanner does not: a `?` inside a plain value of
        # `[…]` or `{…}` (`url: /notes/?x=1`, text in YAML 1.2), which PyYAML ends the
        # value at. It reads the same whether or not the file has a backslash elsewhere.
        if fast is None:
            raise
        node = fast
    except RecursionError:
        raise YamlFieldError("YAML is nested too deeply to read; flatten it", 0, 0) from None
    except yaml.reader.ReaderError as e:
        line0 = text.count("\n", 0, e.position)
        col0 = e.position - (text.rfind("\n", 0, e.position) + 1)
        message = f"character U+{e.character:04X} is not allowed in YAML; delete it"
        raise YamlFieldError(message, line0, col0) from None
    if node is None:
        return None
    return mapping_fields(node, what, repeated)


def spaces_for_tabs(text: str) -> str:
    """Return `text` with every tab after a line's leading whitespace replaced by one space.

    PyYAML rejects tabs that YAML 1.2 allows as separators (`title:<TAB>Hello`, `a<TAB>b`);
    postil's text fields collapse whitespace anyway, so a space means the same. Leading
    whitespace is kept as written, so a tab used for indentation is still reported.
    """
    if "\t" not in text:
        return text
    lines = []
    for line in text.split("\n"):
        rest = line.lstrip(" \t")
        lines.append(line[: len(line) - len(rest)] + rest.replace("\t", " "))
    return "\n".join(lines)


def mapping_fields(node: yaml.Node, what: str, repeated: list[Field] | None = None) -> list[Field]:
    """Return the fields of a mapping node; `what` names it in errors ("`macros`").

    A key written twice with one plain value (`public: true` twice, as Logseq's pages
    repeat a property: its front matter is read line by line, mldoc's
    `markdown_front_matter.ml`) is one field. With two values it is an error, unless
    `repeated` is given (a post's front matter): then the later value is the field, in the
    earlier one's place, and the earlier field goes to `repeated` for a warning. That is
    what the generators posts come from read: Jekyll's Psych, Hugo's `gopkg.in/yaml.v2`
    (`Unmarshal` rejects a repeated key only in its strict mode) and PyYAML all keep the
    last value, so Hugo LoveIt's posts that copied its documentation's front matter (an
    empty `license: ""` near the top, the licence's HTML at the end) built there.
    """
    if not isinstance(node, yaml.MappingNode):
        raise YamlFieldError(f"{what} must be a mapping of `key: value` lines", *_pos(node))
    fields: list[Field] = []
    seen: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise YamlFieldError("a key must be plain text", *_pos(key_node))
        key = key_node.value
        tagged = local_tag(value_node)
        if tagged is not None:  # `title: !important note` would be "note", its text lost
            message = tag_message(key, tagged, tagged is value_node)
            raise YamlFieldError(message, *_pos(tagged))
        if key in seen and _same_scalar(seen[key], value_node):
            continue
        if key in seen and repeated is not None:
            at = next(i for i, f in enumerate(fields) if f.key == key)
            repeated.append(fields[at])
            fields[at] = Field(key, value_node, *_pos(key_node))
            seen[key] = value_node
            continue
        if key in seen:
            raise YamlFieldError(
                f"duplicate key `{key}`: it is already set above; keep one",
                *_pos(key_node),
            )
        seen[key] = value_node
        fields.append(Field(key, value_node, *_pos(key_node)))
    return fields


def _same_scalar(first: yaml.Node, second: yaml.Node) -> bool:
    """Tell if two values are one plain text (`true` and `true`; no list or mapping)."""
    return (
        isinstance(first, yaml.ScalarNode)
        and isinstance(second, yaml.ScalarNode)
        and first.value == second.value
        and first.tag == second.tag
    )


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line, node.start_mark.column


def as_text(field: Field) -> str:
    """Return a scalar's text exactly as written; raise `YamlFieldError` for lists/mappings/null."""
    node = field.node
    if not isinstance(node, yaml.ScalarNode):
        raise YamlFieldError(f"`{field.key}` must be text, not a list or mapping", *_pos(node))
    if node.tag == "tag:yaml.org,2002:null" and node.style is None and node.value in ("", "~"):
        raise YamlFieldError(f"`{field.key}` is empty; write a value or remove it", *_pos(node))
    return _text(node)


def _text(node: yaml.ScalarNode) -> str:
    """Return a scalar's value with lone surrogates (from `"\\ud800"` escapes) made U+FFFD.

    A lone surrogate cannot be written as UTF-8, so it would fail the build at output time.
    """
    return _SURROGATE.sub("\ufffd", node.value)


def as_text_list(field: Field) -> tuple[str, ...]:
    """Return a list of scalars as written texts; a single scalar is a one-item list."""
    node = field.node
    if isinstance(node, yaml.ScalarNode):
        return (_text(node),) if node.value.strip() else ()
    if not isinstance(node, yaml.SequenceNode):
        raise YamlFieldError(f"`{field.key}` must be a list of text", *_pos(node))
    items = []
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode):
            raise YamlFieldError(f"each item of `{field.key}` must be text", *_pos(item))
        items.append(_text(item))
    return tuple(items)


def as_bool(field: Field) -> bool:
    """Return `true`/`false` (YAML 1.2 core schema); anything else is an error."""
    text = as_text(field).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    raise YamlFieldError(
        f"`{field.key}` must be true or false, not `{field.node.value}`", *_pos(field.node)
    )


MAX_DIGITS = 15
"""The most digits a whole-number setting may have: any count, page size or rate is far
smaller, and `int()` refuses strings of over 4,300 digits (CVE-2020-10735) anyway."""

_DECIMAL = re.compile(r"[0-9]+", re.ASCII)


def whole_number(text: str) -> int | None:
    """Return `text` (ASCII decimal digits, at most `MAX_DIGITS`) as an int, or None.

    `str.isdigit` is not the test: it accepts `²` and other digits `int()` refuses.
    """
    if not _DECIMAL.fullmatch(text) or len(text.lstrip("0")) > MAX_DIGITS:
        return None
    return int(text)


def as_int(field: Field, minimum: int = 0) -> int:
    """Return a decimal integer ≥ `minimum`; anything else is an error."""
    text = as_text(field).strip()
    number = whole_number(text)
    if number is None or number < minimum:
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise YamlFieldError(
            f"`{field.key}` must be a whole number ≥ {minimum} of at most {MAX_DIGITS} digits,"
            f" not `{shown}`",
            *_pos(field.node),
        )
    return number


def as_str_mapping(field: Field) -> dict[str, str]:
    """Return a mapping of text to text (e.g. math macros), values as written."""
    result = {}
    for sub in mapping_fields(field.node, f"`{field.key}`"):
        result[sub.key] = as_text(sub)
    return result


UNCLOSED = {
    "while scanning a quoted scalar": "this quoted value is never closed; end it with the same "
    "quote on its line",
    "while parsing a flow sequence": "this `[` list is never closed; end it with `]` on its "
    "line, or quote a value that starts with `[`",
    "while parsing a flow mapping": "this `{` mapping is never closed; end it with `}` on its "
    "line, or quote a value that starts with `{`",
}
"""What PyYAML's error means when a quote, `[` or `{` opened on one line is never closed:
PyYAML reports where it gave up (the end of the block, or the next line's `:`), lines
after the cause; the message is put at the opening instead, with the fix."""


def _unclosed(err: yaml.MarkedYAMLError) -> str | None:
    """Return `UNCLOSED`'s message when `err` is an opening never closed on its line."""
    opened, found = err.context_mark, err.problem_mark
    if err.context not in UNCLOSED or opened is None or found is None:
        return None
    ended = "end of stream" in (err.problem or "") or "<stream end>" in (err.problem or "")
    return UNCLOSED[err.context] if ended or found.line > opened.line else None


NO_KEY = (
    "this line is no `key: value` and does not go on with the value above; add `: ` after "
    "its key, or indent it under the key whose value it continues"
)
"""What PyYAML's "could not find expected ':'" means: a line without a key's colon; PyYAML
reports it on the line after, the message is put at the line itself."""


def yaml_error_location(err: yaml.MarkedYAMLError, path: str, first_line: int) -> Location:
    """Return the file location of a PyYAML error in a block starting at file line `first_line`
    (an opening never closed: at the opening, `_unclosed`; a value YAML reads as syntax: at
    the value, `yamladvice.quote_advice`; a line without its key's colon: at that line)."""
    advice = quote_advice(err)
    if advice is not None:
        return Location(path, first_line + advice[1], advice[2] + 1)
    no_key = err.problem == "could not find expected ':'"
    mark = err.context_mark if _unclosed(err) or no_key else err.problem_mark or err.context_mark
    if mark is None:
        return Location(path, first_line, 0)
    return Location(path, first_line + mark.line, mark.column + 1)


def yaml_error_message(err: yaml.MarkedYAMLError) -> str:
    """Return PyYAML's problem in one line, without its own (block-relative) position, told
    with its fix where postil knows what causes it."""
    unclosed = _unclosed(err)
    if unclosed is not None:
        return f"YAML syntax error: {unclosed}"
    advice = quote_advice(err)
    if advice is not None:
        return f"YAML syntax error: {advice[0]}"
    if err.problem == "could not find expected ':'" and err.context_mark is not None:
        return f"YAML syntax error: {NO_KEY}"
    parts = [p for p in (err.context, err.problem) if p]
    text = "; ".join(parts) or "invalid YAML"
    if "\t" in text or "found character '\\t'" in text:
        text += " (YAML does not allow tabs for indentation; use spaces)"
    if err.problem == "mapping values are not allowed here":
        text += ' (a value with ": " in it must be quoted: `title: "Attention: a primer"`)'
    return f"YAML syntax error: {text}"


CONTROL_ESCAPES = {
    "\x00": "\\0",
    "\x07": "\\a",
    "\x08": "\\b",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\x1b": "\\e",
}
"""Control characters a double-quoted YAML escape makes, by the escape: `"Why \\alpha"` is
"Why <BEL>lpha", the LaTeX the author meant silently lost."""


def escape_warnings(fields: list[Field]) -> list[tuple[int, int, str]]:
    """Return (line0, col0, message) for each double-quoted value in which an escape such as
    `\\a`, `\\b` or `\\f` turned text into a control character."""
    found = []
    for fld in fields:
        for node in _scalars(fld.node):
            escapes = sorted({CONTROL_ESCAPES[c] for c in str(node.value) if c in CONTROL_ESCAPES})
            if node.style == '"' and escapes:
                named = ", ".join(f"`{e}`" for e in escapes)
                found.append(
                    (
                        *_pos(node),
                        f"`{fld.key}`: the YAML escape {named} in double quotes made a control "
                        f"character; for a backslash write `\\\\` or use single quotes "
                        f"('Why \\alpha matters')",
                    )
                )
    return found


def _scalars(node: yaml.Node) -> list[yaml.ScalarNode]:
    """Return the scalar nodes of a value: itself, or the items of a list or mapping."""
    if isinstance(node, yaml.ScalarNode):
        return [node]
    if isinstance(node, yaml.SequenceNode):
        return [n for item in node.value for n in _scalars(item)]
    if isinstance(node, yaml.MappingNode):
        return [n for _, value in node.value for n in _scalars(value)]
    return []


class _ValueLoader(yaml.SafeLoader):
    """PyYAML's safe loader whose every failure is a `yaml.MarkedYAMLError` at its node.

    The safe constructors raise plain Python errors for values YAML's grammar accepts:
    `2024-13-45` (a timestamp with month 13: `ValueError`), an integer of over 4,300 digits
    (`ValueError`, CVE-2020-10735). Each is re-raised as a `ConstructorError` marked at the
    value, and strings lose their lone surrogates (from `"\\ud800"` escapes), which no UTF-8
    page can hold.
    """

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, OverflowError) as e:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read the value `{_excerpt(node)}`: {e}", node.start_mark
            ) from None

    def construct_yaml_str(self, node: yaml.Node) -> str:
        return _SURROGATE.sub("\ufffd", str(self.construct_scalar(node)))  # type: ignore[arg-type]


_ValueLoader.add_constructor("tag:yaml.org,2002:str", _ValueLoader.construct_yaml_str)


def _excerpt(node: yaml.Node) -> str:
    """Return a node's scalar text, shortened to 40 characters (or its kind)."""
    if not isinstance(node, yaml.ScalarNode):
        return type(node).__name__.removesuffix("Node").lower()
    text = str(node.value)
    return text if len(text) <= 40 else text[:40] + "…"


def load_yaml(text: str) -> Any:
    """Return the YAML document `text` as Python values (PyYAML's safe schema).

    Raises:
        yaml.MarkedYAMLError: a syntax error, or a value its type cannot hold (a date with
            month 13, a 5,000-digit integer), at the value's position.
        YamlFieldError: the text nests too deeply to read, or holds a character YAML forbids.
    """
    try:
        return yaml.load(text, Loader=_ValueLoader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise YamlFieldError("YAML is nested too deeply to read; flatten it", 0, 0) from None
    except yaml.reader.ReaderError as e:
        line0 = text.count("\n", 0, e.position)
        col0 = e.position - (text.rfind("\n", 0, e.position) + 1)
        message = f"character U+{e.character:04X} is not allowed in YAML; delete it"
        raise YamlFieldError(message, line0, col0) from None
