"""postil's import graph has no cycle, counting imports inside functions too; the math layer
imports nothing else of postil; and the build core never imports the dev server or the
command line. The graph is read from the source with `ast`, not by importing it.

An edge is an explicit import: `from postil.a.b import x` names `postil.a.b` (or the
submodule `postil.a.b.x` when there is one). Importing a submodule also runs its package's
`__init__`, which is not counted: a package that imports its own submodules is Python's
ordinary layout, not a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import postil

ROOT = Path(postil.__file__).parent


def _module_name(path: Path) -> str:
    parts = ["postil", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _imports(path: Path) -> set[str]:
    """Return every postil module `path` imports, at any depth of its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in MODULES else node.module)
    return {name for name in found if name in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


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


def _reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in GRAPH[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_every_module_was_found():
    assert {"postil.build", "postil.cache.store", "postil.serve.engine", "postil.math"} <= set(
        GRAPH
    )


def test_postil_has_no_import_cycle():
    assert _cycle(GRAPH) == []


FIRST_IMPORT = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "postil" or m.startswith("postil.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as error:
        failed.append(f"{name}: {error}")
print("\\n".join(failed))
"""
"""Import each module named first, postil's modules forgotten before each (the libraries
stay loaded, so the run takes a second), and print those that fail."""


def test_every_module_imports_first_in_a_fresh_interpreter():
    """`python -c "import postil.theme"` failed with "cannot import name … from partially
    initialized module": `theme` imported `postil.symlink`, whose package's
    `__init__` imports `discover`, which imports `postil.cache`, whose `keys` imports
    `theme`. The graph above leaves packages' `__init__`s out, so every module is imported
    first here, as a user's script or a test imports it."""
    names = [name for name in MODULES if name != "postil.__main__"]
    done = subprocess.run(
        [sys.executable, "-c", FIRST_IMPORT, *names], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == ""


def test_the_build_never_imports_the_dev_server_or_the_command_line():
    reached = _reachable("postil.build")
    assert not {m for m in reached if m.startswith("postil.serve") or m == "postil.cli"}


def test_a_cycle_is_found_when_there_is_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_math_layer_imports_nothing_else_of_postil():
    """`postil.math` is TeX -> MathML only: never Markdown, the build or anything else."""
    math = {m for m in GRAPH if m == "postil.math" or m.startswith("postil.math.")}
    assert {"postil.math.pipeline", "postil.math.convert", "postil.math.markers"} <= math
    assert {
        (name, target) for name in math for target in GRAPH[name] if target not in math
    } == set()
