r"""A cursor over a formula's TeX that reads a command's star, options and arguments.

Commands of LaTeX packages (physics, mathtools) read more than a macro's `{…}` arguments:
a star (`\abs*`), an optional `[…]` (`\dv[2]`), a size (`\qty\big(`), or a delimited
argument up to its closing fence (`\qty(…)`, counting nested `(` as MathJax's physics
does, mathjax/MathJax-src#2831). `TexReader` reads them from a formula left to right and
reports a missing argument at the command's offset.
"""

from __future__ import annotations

import re

from postil.math.errors import MathSyntaxError

NAME = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
SIZES = re.compile(r"\\([Bb]igg?)(?![A-Za-z])")
NOT_ARGUMENTS = ("}", "&", "\\\\", "\\right", "\\middle", "\\end")


SIGNATURE = "\x00signature\x00"
"""Starts a macro body that carries its declared signature (`signed_body`): a number of
arguments other than the highest `#n` its body uses, or an optional first argument."""


def signed_body(count: int, default: str | None, body: str) -> str:
    r"""Return a macro body that keeps `\newcommand`'s declared signature.

    Args:
        count: the declared number of arguments (`[2]`), the optional one included.
        default: the optional first argument's default (`[2][x]`), or None when all are
            required.
        body: the replacement text with `#1`…`#9`.

    A body whose arguments are all required and all used stays as written (the common case,
    and the form `macros:` in `postil.yaml` and front matter takes).
    """
    if default is None and count <= macro_arity(body):
        return body
    optional = "" if default is None else "o" + default
    return f"{SIGNATURE}{count}\x00{optional}\x00{body}"


def macro_signature(body: str) -> tuple[int, str | None, str]:
    r"""Return (number of arguments, the optional first one's default or None, the body).

    LaTeX's `\newcommand{\name}[n][default]{body}`: with a default, the first of the n
    arguments is optional, written `\name[value]`, and is the default when no `[` follows
    (LaTeX2e's `\@ifnextchar`, which skips spaces).
    """
    if not body.startswith(SIGNATURE):
        return macro_arity(body), None, body
    count, optional, rest = body[len(SIGNATURE) :].split("\x00", 2)
    return int(count), optional[1:] if optional else None, rest


def macro_spec(body: str) -> str:
    """Return a macro's arguments as `check_arguments` reads them: `o` optional, `m` required."""
    count, default, _ = macro_signature(body)
    return "o" + "m" * (count - 1) if default is not None else "m" * count


DELIMITED = "\x00delimited\x00"
"""Starts the body of a `\\def` whose parameter text holds delimiters (`delimited_body`)."""
PARAMETER = re.compile(r"#([1-9])")


def delimited_body(parameters: str, body: str) -> str:
    r"""Return a macro body that keeps a `\def`'s parameter text (The TeXbook, ch. 20).

    Args:
        parameters: what stands between the name and the body: `(#1,#2)`, `#1.`, `#1#2`.
        body: the replacement text.

    Parameters without delimiters (`#1#2`) are `signed_body`'s, so that one the body does not
    use is still read; otherwise the text before `#1` and after each parameter is kept, and
    `split_delimited` reads a call by it, as TeX, MathJax and KaTeX do (`\def\pair(#1,#2)`
    takes `\pair(a,b)`).
    """
    pieces = PARAMETER.split(parameters)
    count = len(pieces) // 2
    if not "".join(pieces[::2]).strip():
        return signed_body(count, None, body)
    texts = [pieces[0].lstrip()] + pieces[2::2]  # before #1 (TeX skips the spaces after
    # the control word), then after each parameter
    return DELIMITED + "\x00".join([str(count), *texts, body])


def split_delimited(body: str) -> tuple[list[str], str] | None:
    """Return (the text before `#1`, then the delimiter after each parameter; the body) of a
    `delimited_body`, or None for any other body."""
    if not body.startswith(DELIMITED):
        return None
    count, rest = body[len(DELIMITED) :].split("\x00", 1)
    *texts, replacement = rest.split("\x00", int(count) + 1)
    return texts, replacement


def read_delimited(latex: str, pos: int, delimiter: str, command: str) -> tuple[str, int]:
    """Read a delimited argument at `pos`: the text up to `delimiter` outside every group (one
    pair of braces around all of it dropped, as TeX does); return it and the offset after
    the delimiter.

    Raises:
        MathSyntaxError: no `delimiter` before the formula or the group around it ends.
    """
    depth, end = 0, pos
    while end < len(latex):
        char = latex[end]
        if (
            depth == 0
            and latex.startswith(delimiter, end)
            and not _longer_name(latex, end, delimiter)
        ):
            text = latex[pos:end]
            if text.startswith("{") and read_group(text, 0)[1] == len(text):
                text = text[1:-1]
            return text, end + len(delimiter)
        if char == "\\":
            end += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
        end += 1
    raise MathSyntaxError(
        f"{command} is defined with `{delimiter}` after an argument, and none follows",
        pos,
        command,
    )


CONTROL_WORD_END = re.compile(r"(?<!\\)(?:\\\\)*\\[A-Za-z]+$")
"""A control word ending a text (`\\lVert`, not `\\\\x`, a row break then a letter)."""


def substitute_arguments(body: str, args: list[str]) -> str:
    r"""Return a macro body with each `#n` replaced by `args[n - 1]`, kept apart from a
    control word next to it as TeX's tokens are.

    TeX reads a body as tokens, so `\lVert#1` with the argument `x` is `\lVert` then `x`;
    pasted as text it would be `\lVertx`. A space goes between a control word and a letter
    that meets it across the substitution (amsldoc's `\newcommand{\norm}[1]{\lVert#1\rVert}`,
    `\partial#1`, `\mathbf#1`); TeX skips a space after a control word, so nothing else
    changes.
    """

    def argument(match: re.Match[str]) -> str:
        arg = args[int(match.group(1)) - 1]
        if arg[:1].isalpha() and CONTROL_WORD_END.search(body, 0, match.start()):
            arg = " " + arg
        if body[match.end() : match.end() + 1].isalpha() and CONTROL_WORD_END.search(arg):
            arg += " "
        return arg

    return PARAMETER.sub(argument, body)


def _longer_name(latex: str, pos: int, delimiter: str) -> bool:
    r"""Tell whether a delimiter ending in a control word (`\over`) found at `pos` is only the
    start of a longer one (`\overline`): TeX matches delimiters as tokens."""
    after = latex[pos + len(delimiter) : pos + len(delimiter) + 1]
    return after.isalpha() and CONTROL_WORD_END.search(delimiter) is not None


def macro_arity(body: str) -> int:
    """Return how many arguments a macro takes: its declared number (`signed_body`), else
    the highest `#n` its body uses (0 to 9)."""
    if body.startswith(DELIMITED):
        return 0  # read by its delimiters, not as `{…}` arguments
    if body.startswith(SIGNATURE):
        return int(body[len(SIGNATURE) :].split("\x00", 1)[0])
    return max((int(d) for d in re.findall(r"#([1-9])", body)), default=0)


def read_group(latex: str, pos: int) -> tuple[str, int]:
    """Read one TeX argument at `pos` (spaces skipped): a `{…}` group or a single token.

    Returns:
        (the argument without its outer braces, the offset just after it).

    Raises:
        MathSyntaxError: the group is not closed, or there is no argument at all.
    """
    while pos < len(latex) and latex[pos].isspace():
        pos += 1
    if pos >= len(latex):
        raise MathSyntaxError("a command is missing its argument", pos)
    if latex[pos] == "{":
        depth = 0
        for end in range(pos, len(latex)):
            if latex[end] == "\\":
                continue
            if latex[end] == "{" and latex[end - 1 : end] != "\\":
                depth += 1
            elif latex[end] == "}" and latex[end - 1 : end] != "\\":
                depth -= 1
                if depth == 0:
                    return latex[pos + 1 : end], end + 1
        raise MathSyntaxError("unbalanced braces: `{` is never closed", pos, "{")
    match = NAME.match(latex, pos)
    if match:
        return match.group(0), match.end()
    return latex[pos], pos + 1


class TexReader:
    r"""Read the arguments of the command `\name` whose name ends at `pos` in `latex`.

    Attributes:
        latex: the formula's TeX.
        pos: the offset just after what has been read.
        name: the command, with its backslash (`\abs`), named in errors.
        start: the command's offset, where errors point.
    """

    def __init__(self, latex: str, start: int, pos: int, name: str) -> None:
        self.latex, self.start, self.pos, self.name = latex, start, pos, name

    def peek(self) -> str:
        """Skip spaces and return the next character ("" at the end)."""
        while self.pos < len(self.latex) and self.latex[self.pos].isspace():
            self.pos += 1
        return self.latex[self.pos : self.pos + 1]

    def star(self) -> bool:
        """Read a `*` if one follows; return whether it did."""
        if self.peek() == "*":
            self.pos += 1
            return True
        return False

    def optional(self) -> str | None:
        """Read an optional `[…]` argument (braces inside it may hold `]`); None if absent."""
        if self.peek() != "[":
            return None
        return self.fenced("[", "]")

    def size(self) -> str | None:
        r"""Read a size command right after the name (`\big`, `\Bigg`); return it bare."""
        if self.peek() != "\\" or not (match := SIZES.match(self.latex, self.pos)):
            return None
        self.pos = match.end()
        return match.group(1)

    def group(self) -> str | None:
        """Read a `{…}` argument if one follows (its content), else None."""
        if self.peek() != "{":
            return None
        text, self.pos = read_group(self.latex, self.pos)
        return text

    def braced(self, how: str) -> str:
        """Read a required `{…}` argument; raise at the command if it is missing.

        Args:
            how: how to write the command, for the message (`\\abs{…}`).
        """
        text = self.group()
        if text is None:
            raise self.missing(how)
        return text

    def argument(self, how: str) -> str:
        """Read a required argument: a `{…}` group or one token (TeX's rule)."""
        if self.peek() == "" or self.latex.startswith(NOT_ARGUMENTS, self.pos):
            raise self.missing(how)
        text, self.pos = read_group(self.latex, self.pos)
        return text

    def fenced(self, opening: str, closing: str) -> str:
        """Read from an opening fence at `pos` to its closing one; return what is between.

        A nested `opening` needs its own `closing` first (unless they are the same
        character); braces are groups a fence inside never closes.

        Raises:
            MathSyntaxError: the fence is never closed, at the command.
        """
        depth, nested, begin = 0, 0, self.pos + 1
        for index in range(begin, len(self.latex)):
            char = self.latex[index]
            if self.latex[index - 1] == "\\" and char in "{}":
                continue
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth < 0:
                break
            if depth or self.latex[index - 1] == "\\" and char in "|[]":
                continue
            if char == closing and not nested:
                self.pos = index + 1
                return self.latex[begin:index]
            nested += (char == opening and opening != closing) - (char == closing)
        message = f"{self.name}{opening} is never closed: write a matching `{closing}` after it"
        raise MathSyntaxError(message, self.start, self.name)

    def missing(self, how: str) -> MathSyntaxError:
        """Return the error for a missing argument, at the command."""
        message = f"{self.name} is missing its argument: write {how}"
        return MathSyntaxError(message, self.start, self.name)
