r"""`python -m postil.math`: convert one formula, or trace it through every pass.

    python -m postil.math '\frac{a}{b}'              # the MathML, one tag per line
    python -m postil.math --display '\sum_i x_i'     # display math
    python -m postil.math --trace '\log x'           # the formula after each named pass

With `--trace`, each TeX pass prints the TeX it leaves and each tree pass the MathML (a
pass that changes nothing prints "unchanged"), so a developer sees which pass does what;
markers show as `⟦kind⟧payload` (`markers.visible`).
A formula that cannot be converted prints one line, `error: <message> (at offset N)`, and
exits with status 1 (so does an internal error, named in one line, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys

from postil.math.errors import MathError
from postil.math.markers import visible
from postil.math.pipeline import TEX_PASSES, Formula, to_mathml
from postil.math.serialise import pretty, to_html

TEX_NAMES = frozenset(name for name, _ in TEX_PASSES)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 1 for a math error)."""
    parser = argparse.ArgumentParser(prog="python -m postil.math", description=__doc__)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("latex", help="the TeX source, without $ delimiters")
    parser.add_argument("--display", action="store_true", help="convert as display math")
    parser.add_argument("--trace", action="store_true", help="print the result of every pass")
    args = parser.parse_args(argv)
    printer = _Tracer() if args.trace else None
    try:
        html = to_mathml(Formula(args.latex, args.display), printer)
        if printer is not None:
            print("== output")
        print(pretty(html))
    except MathError as exc:
        print(f"error: {exc.message} (at offset {exc.offset})", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `… | head`: the reader has gone, nothing left to say
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the exit flush quiet
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug on odd input: one line, no traceback
        print(f"error: internal error in the math pipeline: {exc!r}", file=sys.stderr)
        return 1
    return 0


class _Tracer:
    """Print a formula after each pass, or "unchanged" when the pass left it as it was."""

    def __init__(self) -> None:
        self.last = ""

    def __call__(self, name: str, formula: Formula) -> None:
        if name in TEX_NAMES:
            shown = visible(formula.latex)
        else:
            shown = visible(pretty(to_html(formula.root)))
        print(f"== {name}" + (": unchanged" if shown == self.last else ""))
        if shown != self.last:
            print(shown)
        self.last = shown


if __name__ == "__main__":
    sys.exit(main())
