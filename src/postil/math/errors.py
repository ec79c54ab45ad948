"""Errors raised by `postil.math`: every one names the offending command and its offset.

The Markdown plugin turns them into located diagnostics: `offset` is a 0-based character
offset into the LaTeX source the caller passed, so the plugin can add it to the position
of the formula in the post and report `path:line:col`.
"""

from __future__ import annotations


class MathError(ValueError):
    """A formula that cannot be turned into MathML as written.

    Args:
        message: what is wrong and how to fix it (no location; the caller adds it).
        offset: 0-based character offset of the problem inside the LaTeX source.
        command: the offending command or construct (`\\foo`, `\\begin{tikzcd}`), or "".
    """

    def __init__(self, message: str, offset: int = 0, command: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.command = command

    def excerpt(self, latex: str, width: int = 60) -> str:
        """Return a one-line excerpt of `latex` around `offset` and a caret line under it.

        Args:
            latex: the source the offset refers to.
            width: at most this many characters of context on each side.

        Returns:
            Two lines joined by a newline: the excerpt (newlines shown as spaces) and
            spaces then `^` under the offending character.
        """
        start = max(0, self.offset - width)
        line = latex[start : self.offset + width].replace("\n", " ").replace("\t", " ")
        return f"{line}\n{' ' * (self.offset - start)}^"


class MathSyntaxError(MathError):
    """The LaTeX cannot be parsed (unbalanced braces, `\\left` without `\\right`, ...).

    A warning (an error under `--strict`), as Pandoc, Quarto, mystmd and KaTeX's
    `throwOnError: false` report it: the page shows the TeX source in a `math-error` element.
    """


class MathUnsupportedError(MathError):
    """The LaTeX uses a command or environment postil does not support, or one it refuses.

    A warning (an error under `--strict`): the page shows the TeX source in a `math-error`
    element instead of the formula.
    """
