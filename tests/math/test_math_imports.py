"""The math layer's import graph: `postil.math` never imports `postil.markdown` (or any other
part of postil), and its modules import each other without a cycle, counting imports inside
functions too. The graph is read from the source with `ast`, not by importing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import postil.math

PACKAGE = "postil.math"
ROOT = Path(postil.math.__file__).parent


def _module_name(path: Path) -> str:
    """Return the dotted name of a module file of the package."""
    return PACKAGE if path.name == "__init__.py" else f"{PACKAGE}.{path.stem}"


MODULES = {_module_name(path): path for path in sorted(ROOT.glob("*.py"))}


def _imports(path: Path) -> set[str]:
    """Return every `postil…` module `path` imports, at any depth of its code.

    `from postil.math import engine` names the submodule `postil.math.engine`;
    `from postil.math import latex_to_mathml` names the package itself.
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in MODULES else node.module)
    return {name for name in found if name == "postil" or name.startswith("postil.")}


GRAPH = {name: _imports(path) for name, path in MODULES.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """Return one import cycle of `graph` as a list of modules (first = last), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return []


def test_math_modules_were_found():
    assert {"postil.math.pipeline", "postil.math.convert", "postil.math.markers"} <= set(GRAPH)


def test_math_never_imports_markdown_or_the_rest_of_postil():
    outside = {
        (name, target)
        for name, targets in GRAPH.items()
        for target in targets
        if target != PACKAGE and not target.startswith(PACKAGE + ".")
    }
    assert outside == set()


def test_math_modules_import_each_other_without_a_cycle():
    internal = {name: {t for t in targets if t in MODULES} for name, targets in GRAPH.items()}
    assert _cycle(internal) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []
