r"""Proof trees: bussproofs' `prooftree` environment (MathJax has it; KaTeX does not).

    \begin{prooftree}
    \AxiomC{$A$} \AxiomC{$B$} \RightLabel{$\wedge$I} \BinaryInfC{$A \wedge B$}
    \end{prooftree}

bussproofs reads the commands as a stack machine: `\AxiomC{…}` pushes a leaf, an
`\…InfC{…}` pops its premises (`Unary` 1 … `Quinary` 5) and pushes the inference, drawn
as the premises side by side over a rule over the conclusion; `\RightLabel`/`\LeftLabel`
name the next inference's rule, `\noLine` draws it without a rule. Their arguments are
text, with math in `$…$` ("C" is bussproofs' centred-text form).

`rewrite_prooftrees` writes each tree as TeX the later passes know: an inference is
`\overset{premises}{conclusion}`, the premises a one-column `array` whose `\hline` is the
rule, over a row as wide as the conclusion (`\hphantom`), so the rule spans both. The
conclusion is the base of `mover`, so an inference sits on its conclusion's baseline and
the premises of the next one line up at the bottom, as bussproofs sets them. The label
follows the premises. `\dashedLine` draws a dashed rule, `\doubleLine` one rule; bussproofs'
other forms (`\Axiom$…$` with `\fCenter`, `\DisplayProof`) are refused with their name.
"""

from __future__ import annotations

import re

from postil.math.errors import MathSyntaxError, MathUnsupportedError
from postil.math.macros import read_group

TREE = re.compile(r"\\begin\{prooftree\}(.*?)\\end\{prooftree\}", re.S)
COMMAND = re.compile(r"\\([A-Za-z]+)|(\S)")

PREMISES = {"Unary": 1, "Binary": 2, "Trinary": 3, "Quaternary": 4, "Quinary": 5}
"""Premises each inference command takes (`\\BinaryInfC`: 2)."""

LINES = {
    "noLine": "",
    "singleLine": r"\hline",
    "doubleLine": r"\hline",
    "dashedLine": r"\hdashline",
}
"""bussproofs' rule styles: a rule, a dashed rule (arydshln's `\\hdashline`) or none
(`\\solidLine` is `\\singleLine`); `\\doubleLine` is drawn as one rule (an array's
`\\hline\\hline` is one rule too)."""


def rewrite_prooftrees(latex: str) -> str:
    """Rewrite every `prooftree` environment of a formula as arrays over conclusions.

    Raises:
        MathUnsupportedError: a bussproofs command postil does not draw.
        MathSyntaxError: an inference with fewer premises above it than it takes.
    """
    if "prooftree" not in latex:
        return latex
    return TREE.sub(lambda found: _tree(found.group(1), found.start(1)), latex)


def _tree(body: str, offset: int) -> str:
    """Return the TeX of one tree's commands (trees left on the stack go side by side)."""
    stack: list[str] = []
    labels = {"RightLabel": "", "LeftLabel": ""}
    line = r"\hline"
    pos = 0
    while True:
        found = COMMAND.search(body, pos)
        if found is None:
            break
        name, at = found.group(1), offset + found.start()
        if name is None:
            raise MathSyntaxError(
                f"`{found.group(2)}` in a proof tree: write it in a command's {{…}}", at
            )
        pos = found.end()
        if name == "AxiomC":
            text, pos = read_group(body, pos)
            stack.append(_text(text))
        elif name in labels:
            labels[name], pos = read_group(body, pos)
        elif name in LINES or name == "solidLine":
            line = LINES.get(name, r"\hline")
        elif name.endswith("InfC") and name[:-4] in PREMISES:
            count = PREMISES[name[:-4]]
            if len(stack) < count:
                message = f"\\{name} needs {count} premises above it, found {len(stack)}"
                raise MathSyntaxError(message, at)
            text, pos = read_group(body, pos)
            premises = r" \qquad ".join(stack[len(stack) - count :])
            del stack[len(stack) - count :]
            stack.append(_inference(premises, _text(text), labels, line))
            labels = {"RightLabel": "", "LeftLabel": ""}
            line = r"\hline"
        else:
            raise MathUnsupportedError(
                f"proof tree command \\{name} is not supported; write the tree with "
                "\\AxiomC{…}, \\UnaryInfC{…} … \\QuinaryInfC{…}, \\RightLabel, \\LeftLabel",
                at,
                f"\\{name}",
            )
    return r" \qquad ".join(stack)


def _inference(premises: str, conclusion: str, labels: dict[str, str], line: str) -> str:
    """Return one inference: the premises over a rule over the conclusion."""
    left = rf"{_text(labels['LeftLabel'])}\;" if labels["LeftLabel"] else ""
    right = rf"\;{_text(labels['RightLabel'])}" if labels["RightLabel"] else ""
    rule = rf"\begin{{array}}{{c}}{premises}\\{line}\hphantom{{{conclusion}}}\end{{array}}"
    return rf"\overset{{\displaystyle {left}{rule}{right}}}{{{conclusion}}}"


def _text(text: str) -> str:
    """Return bussproofs' text argument as TeX text (its `$…$` stays math)."""
    return rf"\text{{{text}}}" if text.strip() else r"\text{}"
