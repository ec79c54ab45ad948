r"""Equation numbers and references inside MathML: `\label`, `\tag`, `\eqref`, `\ref`.

A numbered display formula becomes a full-width `mtable` whose rows carry a 50 % spacer
cell, the formula's cell(s) and a 50 % cell with the number at the right margin — the
layout Temml uses, which Chromium honours (`mlabeledtr` is not in MathML Core). The row
gets `id="eq-<label>"` so `\eqref` links (`<a href="#eq-x">(1)</a>`) scroll to it.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from postil.math.markers import REF_KINDS, has_markers, read_marker, unhide_label
from postil.math.tables import add_style, align_css


@dataclass(frozen=True)
class EquationRow:
    r"""One row of a display formula as numbering sees it.

    Attributes:
        label: the `\label{…}` text ("eq:var") or None.
        tag: the `\tag{…}` text or None; shown instead of an automatic number.
        star_tag: True for `\tag*{…}` (shown without parentheses).
        numbered: True when the row takes the next automatic number.
    """

    label: str | None = None
    tag: str | None = None
    star_tag: bool = False
    numbered: bool = False

    @property
    def shows_number(self) -> bool:
        """Tell whether the row displays a number (automatic or tag)."""
        return self.numbered or self.tag is not None


_PLAIN_LABEL = re.compile(r"[A-Za-z0-9_]+(?:[:-][A-Za-z0-9_]+)*")


def anchor_id(label: str) -> str:
    """Return the HTML id of an equation label: `eq:var` -> `eq-var` (ASCII letters, digits, -_).

    A label of other characters (`a b`, `a"b`, `a<b`, `é`) keeps its letters and digits and
    gets 8 hex digits of its hash, so two different labels never share an id (`a"b` ->
    `a-b-…`, `a<b` -> `a-b-…`, different). Labels that differ only in `:` against `-`
    (`eq:x`, `eq-x`) do share one; the Markdown plugin reports that.
    """
    readable = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-") or "eq"
    if _PLAIN_LABEL.fullmatch(label):
        return readable
    digest = hashlib.blake2b(label.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"{readable}-{digest}"


def number_texts(rows: Sequence[EquationRow], numbers: Sequence[str | None] | None) -> list[str]:
    r"""Return the text shown for each row ("" for none): "(3)", "(A.1)" or a `\tag*` as is.

    Args:
        rows: the formula's rows.
        numbers: the automatic number of each row (from the document), or None to count
            this formula's numbered rows from 1.
    """
    texts, count = [], 0
    for i, row in enumerate(rows):
        if row.tag is not None:
            texts.append(row.tag if row.star_tag else f"({row.tag})")
        elif row.numbered:
            count += 1
            given = numbers[i] if numbers is not None and i < len(numbers) else None
            texts.append(f"({given if given is not None else count})")
        else:
            texts.append("")
    return texts


def _cell(row: ET.Element, css: str, at: int | None = None) -> ET.Element:
    """Add an `mtd` with inline CSS to `row` (at the end, or at index `at`)."""
    cell = ET.Element("mtd", style=css)
    row.insert(len(row) if at is None else at, cell)
    return cell


TagTree = Callable[[str], list[ET.Element]]
"""Converts a tag holding TeX (`$1'$`) to the MathML of its text (`pipeline` passes one)."""


def _number_row(row: ET.Element, text: str, label: str | None, tag_tree: TagTree | None) -> None:
    """Give one table row its spacer cell, number cell and anchor id.

    amsmath sets `\\tag{…}` in text mode, so a tag holding `$…$` or a text command is
    converted by `tag_tree` (`\\tag{$1'$}` shows (1′)) rather than shown as TeX.
    """
    _cell(row, "padding:0;width:50%", 0)
    number = _cell(row, "padding:0 0 0 1em;width:50%;" + align_css("right"))
    number.set("class", "eqno")
    if tag_tree is not None and ("$" in text or "\\" in text):
        number.extend(tag_tree(text))
    elif text:
        ET.SubElement(number, "mtext").text = text
    if label:
        row.set("id", anchor_id(label))


def attach_numbers(
    content: ET.Element,
    rows: Sequence[EquationRow],
    numbers: Sequence[str | None] | None,
    tag_tree: TagTree | None = None,
) -> None:
    """Put the rows' numbers at the right margin of a display formula, in place.

    A one-row formula is wrapped in a new full-width table; a multi-row one (`align`,
    `gather`) must be a single `mtable` in `content`, whose rows get the numbers.
    """
    if not any(r.shows_number for r in rows):
        return
    texts = number_texts(rows, numbers)
    if len(rows) == 1:
        table = ET.Element("mtable", displaystyle="true")
        only = ET.SubElement(table, "mtr")
        middle = ET.SubElement(only, "mtd")
        middle.extend(list(content))
        content[:] = [table]
        _number_row(only, texts[0], rows[0].label, tag_tree)
    else:
        table = next(content.iter("mtable"))
        table_rows = [r for r in table if r.tag == "mtr"]
        for row_el, text, row in zip(table_rows, texts, rows, strict=False):
            _number_row(row_el, text, row.label, tag_tree)
    add_style(table, "width:100%")
    table.set("class", "numbered")


def _tag_text(text: str, tag_tree: TagTree | None) -> str:
    """Return a tag's text as a reference inside the formula shows it (`$1'$` -> `1′`)."""
    if tag_tree is None or ("$" not in text and "\\" not in text):
        return text
    return "".join("".join(el.itertext()) for el in tag_tree(text))


def resolve_refs(
    content: ET.Element,
    rows: Sequence[EquationRow],
    numbers: Sequence[str | None] | None,
    equations: Mapping[str, str] | None,
    tag_tree: TagTree | None = None,
) -> None:
    r"""Turn `\eqref`/`\ref` markers into links: `<mtext><a href="#eq-x">(1)</a></mtext>`.

    The references are markers left by `rewrite.rewrite_refs`. `mtext` is a MathML text
    integration point, so the HTML parser makes the `<a>` an HTML link. Labels resolve from
    `equations` (the document's), then from this formula's own rows; an unknown label
    shows "??" as LaTeX does (the Markdown plugin reports it).
    """
    if not has_markers(content, REF_KINDS):
        return
    local_numbers = {
        row.label: _tag_text(text.strip("()"), tag_tree)
        for row, text in zip(rows, number_texts(rows, numbers), strict=True)
        if row.label and text
    }
    for el in content.iter():
        found_marker = read_marker(el)
        if found_marker is None or found_marker[0] not in REF_KINDS:
            continue
        kind, label = found_marker[0], unhide_label(found_marker[1])
        found = (equations or {}).get(label) or local_numbers.get(label) or "??"
        link = ET.Element("a", href="#" + anchor_id(label))
        link.text = f"({found})" if kind == "eqref" else found
        el.text = None
        el.append(link)
