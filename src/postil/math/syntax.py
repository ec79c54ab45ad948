"""Locating syntax errors latex2mathml reports without a position.

latex2mathml raises exception classes (`ExtraLeftOrMissingRightError`, ...) that carry
no offset; this module finds the first unbalanced brace, `\\left`/`\\right` or
`\\begin`/`\\end` in the source so the error points at the right character.
"""

from __future__ import annotations

import re

TOKEN = re.compile(
    r"\\(?:(?:left|right)(?![A-Za-z])|begin\s*\{[^}]*\}|end\s*\{[^}]*\}|[^A-Za-z])|[{}]|%[^\n]*"
)


NOT_A_BRACE = re.compile(r"[^{}]+")
# What can make a `{` or `}` of the TeX something other than a brace token of TOKEN, or
# make a token other than a brace: without any, the braces alone tell.
NOT_ONLY_BRACES = re.compile(r"%|\\(?:left|right|begin|end|[{}])")


def locate_syntax_error(latex: str) -> tuple[int, str]:
    """Return (offset, description) of the first unbalanced construct, or (0, "")."""
    if not NOT_ONLY_BRACES.search(latex) and _braces_pair(latex):
        return 0, ""  # most formulas: told by string operations, without a token loop
    if _balanced(TOKEN.findall(latex)):
        return 0, ""  # the common case, told without a match object for each token
    stack: list[tuple[str, int]] = []
    for match in TOKEN.finditer(latex):
        token = match.group(0)
        if token in ("{", "\\left") or token.startswith("\\begin"):
            stack.append((token, match.start()))
        elif token == "}" or token == "\\right" or token.startswith("\\end"):
            problem = _closes(stack, token)
            if problem:
                return match.start(), problem
    if stack:
        opener, offset = stack[-1]
        return offset, f"{opener} is never closed"
    return 0, ""


def _braces_pair(latex: str) -> bool:
    """Tell whether the `{` and `}` of `latex` pair up (each pair `{}` taken out in turn)."""
    braces = NOT_A_BRACE.sub("", latex)
    while "{}" in braces:
        braces = braces.replace("{}", "")
    return not braces


def _balanced(tokens: list[str]) -> bool:
    """Tell whether `locate_syntax_error` finds no problem in these tokens (same rules)."""
    stack: list[tuple[str, int]] = []
    for token in tokens:
        if token in ("{", "\\left") or token.startswith("\\begin"):
            stack.append((token, 0))
        elif token == "}" or token == "\\right" or token.startswith("\\end"):
            if _closes(stack, token):
                return False
    return not stack


def _closes(stack: list[tuple[str, int]], token: str) -> str:
    """Pop the opener `token` closes; return a description if it does not match."""
    want = {"}": "{", "\\right": "\\left"}.get(token)
    if want is None:
        want = "\\begin" + re.sub(r"\s+", "", token)[4:]
    if not stack:
        return f"{token} has no matching opener"
    opener, _ = stack[-1]
    if re.sub(r"\s+", "", opener) != want:
        return f"{token} closes {opener}"
    stack.pop()
    return ""
