"""The package's import graph: a ground floor, and no cycle between subpackages.

Read from the source (every ``import`` and ``from ... import``, also inside functions),
so that an import hidden in a function to dodge a cycle counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lecture_pkg"
GROUND = {"core", "validation", "_ties"}   # may import only each other


def _unit(module: str) -> str:
    """The subpackage (or top-level module) a dotted name under lecture_pkg belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "lecture_pkg"


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """``unit -> units it imports``: a unit is a subpackage or a top-level module."""
    graph: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        rel = path.relative_to(package.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        here = module if rel.name == "__init__" else module.rsplit(".", 1)[0]
        unit = _unit(module)
        targets = graph.setdefault(unit, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    name = ".".join(base + ([node.module] if node.module else []))
                else:
                    name = node.module or ""
                names = [name] if node.module else [f"{name}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            targets.update(_unit(n) for n in names
                           if n.startswith("lecture_pkg.") and _unit(n) != unit)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a path ``[a, b, ..., a]``, or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_subpackage_imports_another_around_a_cycle():
    graph = import_graph()
    assert {"core", "linear", "kernel_machines", "prototypes"} <= set(graph)
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_ground_floor_imports_no_family():
    graph = import_graph()
    for unit in GROUND & set(graph):
        assert graph[unit] <= GROUND, f"{unit} imports {sorted(graph[unit] - GROUND)}"


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"x": {"a"}, "a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
