r"""Where inline math can close: one scan of a paragraph, then each look-up costs O(log n).

The inline math rule runs at every `$` of a paragraph and, for an opener without a closer,
used to scan to the end of the paragraph each time: a paragraph of n unmatched `$` cost
O(n²) (5,000 took 4 s, 50,000 took 6 min). `Closers` scans the source once for every
candidate closer and answers "first closer at or after `start`, before `end`" by bisection,
so a whole paragraph costs O(n log n) however its dollars are arranged.

    >>> closers = Closers(r"$a $b\$ c$ d")
    >>> closers.dollar(1, 12)
    9
    >>> closers.find("$", 4, 12)
    6
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import MutableMapping
from typing import Any

MEMO_KEY = "_math_closers"
MEMO_SIZE = 8  # sources remembered per document: nested inline parses use a few at once
BALANCE_TRIES = 16  # closers tried for balanced braces before the first is taken: linear
TEX_LIKE = re.compile(r"\\[A-Za-z]|[\^_{}=]")
OPERATOR = re.compile(r"[+\-*/<>:]")  # a binary operator or relation of `PLAIN_TERMS`
PLAIN_TERMS = re.compile(r"[A-Za-z0-9\s+\-*/<>().,;:'|!\[\]]+")
"""One-letter variables' formulas as `Closers.spaced_dollar` takes them without a command:
letters, digits, operators, `:` (a type or a ratio, `$ x : A $`), `;` and brackets
(`$ [a, b] $`, `$ f(x; y) $`)."""
CONTROL_WORD = re.compile(r"\\[A-Za-z]+|\\[^A-Za-z]")
ONE_TERM = re.compile(r"\s+[-+]?(?:\d+(?:\.\d+)?|[A-Za-z]{1,2})\s+")
"""`$ … $`'s TeX as `Closers.spaced_pair` takes it: one number or short name, spaces around."""
NUMERIC_TERMS = re.compile(r"[A-Za-z0-9\s+\-*/<>().,'|!^_{}=\[\]:;]+")
RELATION_END = re.compile(r"(?:[=<>]|\\(?:approx|leq?|geq?|neq?|sim|simeq|equiv|propto))\s*\Z")
"""TeX ending in a relation (`p =`, `x \approx`): a number after its closing `$` completes
the sentence, as knitr writes a computed value after a formula (`$p =$0.39`)."""
PRICE = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?\s")
"""An amount of money at the start of inline math's TeX: a number, maybe signed, then a space
(`$-232,014.11 and [`)."""
SIGNED_DIGIT = re.compile(r"[-+]\d")
CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
"""A CJK character or CJK punctuation (`，`, `。`): scripts written without spaces between
words, where Typora's `$x $` sits between characters (`Closers._beside_cjk`)."""
CJK_REACH = 4
"""How many spaces `Closers._beside_cjk` skips between a `$` and the CJK text beside it."""
LONE_OPERATOR = re.compile(
    r"\s*(?:[-+*/±∓×÷·−]|\\(?:pm|mp|times|div|cdot|ast|star|circ|bullet|oplus|ominus|otimes"
    r"|setminus|cup|cap|wedge|vee|to|rightarrow|leftarrow|Rightarrow|mapsto))\s*"
)
r"""TeX that is one operator (`-`, `+`, `\pm`, `\times`) or arrow: before a digit it is a sign
written in math for the number after it (`$-$1`, `$\pm$5`), as Docsify's KaTeX, KaTeX's
auto-render and MathJax read any `$…$` pair; never a price, whose `$` a digit follows."""


def completes_number(tex: str) -> bool:
    r"""Tell whether inline math `tex`, closed right before a digit, still reads as math:
    it ends in a relation (`RELATION_END`: `p =` before `0.39`) and does not start with a
    digit (`$5 =$4` is a price), or it is one operator or arrow (`LONE_OPERATOR`: `-`
    before `1`). Pandoc's rule (no digit after a closing `$`) keeps everything else text,
    so `$5 and $10` and `$-5 to $10` stay prices."""
    if LONE_OPERATOR.fullmatch(tex):
        return True
    return not tex[:1].isdigit() and RELATION_END.search(tex) is not None


class Closers:
    """Every closer position in one source string (a paragraph's inline content).

    Args:
        src: the text the inline rule reads (`StateInline.src`).
    """

    def __init__(self, src: str) -> None:
        self.src = src
        self._strict: list[int] = []  # closing `$`s by Pandoc's rule, no digit after
        self._before_digit: list[int] = []  # closing `$`s except for the digit after
        self._unescaped: list[int] = []
        self._found: dict[str, list[int]] = {}
        self._braces: tuple[list[int], list[int]] | None = None  # `{`, `}`: made on demand
        self._pairs: dict[int, int] | None = None  # each `{` -> its `}`: made on demand
        for match in re.finditer(r"\$", src):
            self._classify(match.start())

    def _classify(self, pos: int) -> None:
        """File the `$` at `pos` as escaped, an opener only, or a possible closer."""
        if escaped(self.src, pos):  # `\$`, `\\\$`
            return
        self._unescaped.append(pos)
        if pos == 0 or self.src[pos - 1].isspace() and not escaped(self.src, pos - 1):
            return  # `x $` opens only; `\ $` ends in TeX's control space, so it closes
        if self.src[pos + 1 : pos + 2].isdigit():
            self._before_digit.append(pos)
        else:
            self._strict.append(pos)

    def _brace_positions(self) -> tuple[list[int], list[int]]:
        """Return the positions of the unescaped `{` and of the unescaped `}` of the source."""
        if self._braces is None:
            braces: tuple[list[int], list[int]] = ([], [])
            for match in re.finditer(r"[{}]", self.src):
                if not escaped(self.src, match.start()):
                    braces[match.group() == "}"].append(match.start())
            self._braces = braces
        return self._braces

    def group_end(self, opening: int) -> int:
        """Return the position of the `}` closing the `{` at `opening`, or -1 (none, or an
        escaped brace there): one scan of the source for all its groups, however many are
        asked for or left open (`postil.markdown.latextext`)."""
        if self._pairs is None:
            opens, closes = self._brace_positions()
            braces = sorted([(at, 1) for at in opens] + [(at, -1) for at in closes])
            pairs: dict[int, int] = {}
            stack: list[int] = []
            for at, step in braces:
                if step > 0:
                    stack.append(at)
                elif stack:
                    pairs[stack.pop()] = at
            self._pairs = pairs
        return self._pairs.get(opening, -1)

    def _balanced(self, start: int, close: int) -> bool:
        """Tell if every `{` opened between `start` and `close` is closed before `close`."""
        if self.src.find("{", start, close) < 0:
            return True  # most formulas: nothing to count
        opens, closes = self._brace_positions()
        opened = bisect_left(opens, close) - bisect_left(opens, start)
        return opened <= bisect_left(closes, close) - bisect_left(closes, start)

    def _first_balanced(self, spots: list[int], start: int, end: int) -> int:
        """Return the first of `spots` at or after `start`, before `end`, with every brace
        opened since `start` closed (MathJax's rule: `$\\text{for $i$}$` is one formula);
        after `BALANCE_TRIES` unbalanced ones, the first one (-1: none)."""
        index = bisect_left(spots, start)
        first = spots[index] if index < len(spots) and spots[index] < end else -1
        for spot in spots[index : index + BALANCE_TRIES]:
            if spot >= end:
                break
            if self._balanced(start, spot):
                return spot
        return first

    def unescaped_dollars(self) -> list[int]:
        """Return the positions of every `$` not escaped by a backslash, in order."""
        return self._unescaped

    def dollar(self, start: int, end: int) -> int:
        """Return the `$` closing inline math whose content starts at `start`, or -1.

        Pandoc's rule: not escaped, a non-space right before it and no digit right after
        it (a digit at `end` or beyond does not count); and, as MathJax and KaTeX read it,
        not inside a brace opened after `start` (`_first_balanced`). A `$` with a digit
        after it closes TeX that ends in a relation and starts with no digit (`RELATION_END`:
        `$p =$0.39`, knitr's value after a formula, which MathJax typeset) or that is one
        operator (`$-$1`: `completes_number`), never a price (`$5 and $10`, `$5 =$4`).
        `src[start - 1]` must be the opening `$` and `src[start]` not a `$`, as the inline
        rule guarantees.
        """
        found = self._first_balanced(self._strict, start, end)
        found = end if found < 0 else found
        spots = self._before_digit
        index = bisect_left(spots, start)
        if index < len(spots) and spots[index] < found:
            if completes_number(self.src[start : spots[index]]):
                found = spots[index]
        last = end - 1  # its digit lies outside the span, so it closes
        if start <= last < found and _holds(spots, last):
            found = last
        if found >= end or self._holds_dollar(start, found) or self._price_pair(start, found):
            return -1
        return found

    def _price_pair(self, start: int, close: int) -> bool:
        """Tell whether the `$` at `close` opens a signed amount (`$-99.58`) after an amount
        at `start` (`$-232,014.11 and [$-99.58, $-87.76]`): two prices, as Pandoc's rule
        keeps `$5 and $10`, where it took the first span for math
        (PowerShell/PowerShell#27792: a table's `|` inside it cost a cell)."""
        return SIGNED_DIGIT.match(self.src, close + 1) is not None and (
            PRICE.match(self.src, start) is not None
        )

    def _holds_dollar(self, start: int, close: int) -> bool:
        """Tell if a `$` between `start` and `close` lies outside every brace opened since
        `start`: TeX would have left math there, so `$5 for it. Then $x$` is a price, then
        math (`\\text{for $i$}` keeps its `$`s inside braces)."""
        index = bisect_left(self._unescaped, start)
        inside = self._unescaped[index : bisect_left(self._unescaped, close, index)]
        if len(inside) > BALANCE_TRIES:
            return True  # that many `$` in one formula: not a formula (and stays linear)
        return any(self._balanced(start, spot) for spot in inside)

    def spaced_dollar(self, start: int, end: int) -> int:
        r"""Return the `$` closing `$ … $` or `$x = $`, math with a space inside, or -1.

        Pandoc's rule leaves `$ x $` as text; MathJax, which the posts of Jekyll and Hugo
        sites were written for, reads it as math. It is math here when the next unescaped
        `$` has no digit after it and the TeX between holds a command, a script, a brace
        or `=` (`$ V_1 \times V_2 $`, `$ f = \tilde{V}$`, `$\mathbb{E}(X) = $`), or is
        made of one-letter variables, numbers and operators with a space inside each `$`
        (`$ n $`) or an operator between them (`$k < m $`, `$ x + y$`), so that prices
        (`$ 5 or $ 10`) and a lone letter beside a space (`$y $`) stay text; a digit after
        the `$` is allowed only after a relation (`$x = $0.39`, `RELATION_END`). TeX that starts
        with a digit (`$2, 3, 5, \dots $`) must hold a command and, without its commands,
        be numbers, one-letter variables and operators: `$5 for it. Then $` is a price.
        `src[start - 1]` is the opening `$`; the inline rule asks this when `dollar` found
        no closer.
        """
        close = self._first_balanced(self._unescaped, start, end)
        if close < 0:
            return -1
        if self.src[close + 1 : close + 2].isdigit():  # `$x = $0.39`: knitr's value
            return close if completes_number(self.src[start:close]) else -1
        if self._beside_cjk(start, close):
            return close
        if self.src[close + 1 : close + 2] == "$":
            return -1
        tex = self.src[start:close]
        if tex[:1].isdigit():
            return close if _numeric_formula(tex) else -1
        if TEX_LIKE.search(tex):
            return close
        spaced = self.src[start].isspace() and self.src[close - 1].isspace()
        return close if _variables(tex) and (spaced or OPERATOR.search(tex)) else -1

    def _beside_cjk(self, start: int, close: int) -> bool:
        r"""Tell whether `$…$` from `start` to `close`, with a space inside a `$` (`$x $`,
        `$ y$`), is Typora's inline math in CJK prose (`中文$x $中文`, `$C $的$(i,j)$`): Typora
        pairs any `$…$` (typora/typora-issues#2607, "Inline math does not ignore whitespace"),
        and so does MathJax. Taken only where no other reading is possible: a CJK character
        before the opening `$` or after the closing one (a few spaces between allowed:
        `变量 $ y$ 的`), the closing `$` followed by no letter or digit (it opens no formula,
        and no price) and by a `$` only when that opens the next formula and no `$$` does
        (`_touching_formula`), and TeX that starts with no digit (`$5 元`) and holds no CJK
        (a `$…$` around words is two formulas' ends).
        """
        src = self.src
        after = src[close + 1 : close + 2]
        before = src[max(0, start - 1 - CJK_REACH) : start - 1].rstrip(" \t")[-1:]
        beyond = src[close + 1 : close + 1 + CJK_REACH].lstrip(" \t")[:1]
        if not (CJK.match(beyond) or CJK.match(before)):
            return False
        if after == "$" and not self._touching_formula(close + 1):
            return False
        if after and not CJK.match(after) and after.isalnum():
            return False
        tex = src[start:close].strip()
        return bool(tex) and not tex[0].isdigit() and CJK.search(tex) is None

    def _touching_formula(self, pos: int) -> bool:
        r"""Tell whether the `$` at `pos`, right after a closing `$`, opens the next formula
        (`$\Rightarrow $$A$与`): a non-space follows it and no `$$` follows in the paragraph,
        so `$$` there opens no kramdown formula."""
        after = self.src[pos + 1 : pos + 2]
        return bool(after) and not after.isspace() and self.find("$$", pos + 1, len(self.src)) < 0

    def lone_spaced(self, start: int, end: int) -> int:
        r"""Return the `$` that Typora and MathJax would close `$y $` with and `spaced_dollar`
        does not (a lone letter or a few one-letter variables before a space, in Latin prose:
        `$y $ in memory`), or -1: the inline rule leaves it text with a warning, since a
        shell variable (`$A $B`) or a lone letter is as likely there. So is `$ k$`, the space
        after the opening `$` (MathJax typeset it in a kramdown post's list: `em $ k$
        conjuntos`), which Pandoc's rule leaves text as well. The `$` must be followed by
        no letter, digit or `$` (it opens nothing, and no price).
        """
        close = self._first_balanced(self._unescaped, start, end)
        if close < 0 or self.src[start].isspace() == self.src[close - 1].isspace():
            return -1
        after = self.src[close + 1 : close + 2]
        if after and (after.isalnum() or after == "$"):
            return -1
        tex = self.src[start:close]
        return close if not tex[:1].isdigit() and _variables(tex) else -1

    def spaced_pair(self, start: int, end: int) -> int:
        r"""Return the `$` closing `$ … $` around one signed number or a one- or two-letter
        name, a space inside each `$` (`$ 0.16 $m`, `$ -1 $`, `$ id $`), or -1.

        remark-math (MDX's math) reads any pair as math, where Pandoc's rule and
        `spaced_dollar` leave these as text; only this one-term form is taken, so that a
        `$` that no rule closes never pairs with the opener of a later formula.
        """
        close = self._first_balanced(self._unescaped, start, end)
        if close < 0 or self.src[close + 1 : close + 2] == "$":
            return -1
        return close if ONE_TERM.fullmatch(self.src, start, close) else -1

    def find(self, sub: str, start: int, end: int) -> int:
        """Return what `src.find(sub, start, end)` returns, after one scan per `sub`."""
        if sub not in self._found:
            pattern = "(?=" + re.escape(sub) + ")"  # overlapping: `$$$` holds `$$` twice
            self._found[sub] = [m.start() for m in re.finditer(pattern, self.src)]
        spots = self._found[sub]
        index = bisect_left(spots, start)
        if index < len(spots) and spots[index] + len(sub) <= end:
            return spots[index]
        return -1


def _holds(spots: list[int], spot: int) -> bool:
    """Tell if the sorted `spots` hold `spot`."""
    index = bisect_left(spots, spot)
    return index < len(spots) and spots[index] == spot


def closers_for(src: str, env: MutableMapping[str, Any]) -> Closers:
    """Return the `Closers` of `src`, remembered in markdown-it's `env` for this document.

    The inline rule runs once per character position of a paragraph and nested parses
    (link text) reuse the paragraph's source, so a few recent sources are kept.
    """
    memo: dict[str, Closers] = env.setdefault(MEMO_KEY, {})
    found = memo.get(src)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.pop(next(iter(memo)))
        found = memo[src] = Closers(src)
    return found


def _variables(tex: str) -> bool:
    """Tell if `tex` is one-letter variables, numbers and operators, with a letter."""
    if not PLAIN_TERMS.fullmatch(tex) or not any(c.isalpha() for c in tex):
        return False
    return re.search(r"[A-Za-z]{2}", tex) is None


def _numeric_formula(tex: str) -> bool:
    r"""Tell if `tex`, which starts with a digit, is a formula and not prose after a price:
    it holds a command (`\dots`, `\times`) and is otherwise numbers, one-letter variables
    and operators."""
    if CONTROL_WORD.search(tex) is None:
        return False
    rest = CONTROL_WORD.sub(" ", tex)
    return NUMERIC_TERMS.fullmatch(rest) is not None and re.search(r"[A-Za-z]{2}", rest) is None


def escaped(text: str, pos: int) -> bool:
    """Tell if the character at `pos` follows an odd run of backslashes (`\\$`, `\\\\\\$`)."""
    run = pos
    while run > 0 and text[run - 1] == "\\":
        run -= 1
    return (pos - run) % 2 == 1
