"""The package's layers stay visible in its folders, with no import circle (issue #16).

Edges come from every `import`/`from ... import` in src/breaklint, type-only imports under
`if TYPE_CHECKING:` excluded; an import of a package counts as an edge to its __init__."""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "breaklint"

# layer -> layers it must never import (each layer imports only what lies below it: CONTRIBUTING.md).
FORBIDDEN = {
    "analysis": {"rules", "fix", "lint", "report", "confirm", "cli"},
    "rules": {"lint", "report", "confirm", "cli"},
    "fix": {"lint", "report", "confirm", "cli"},
    "report": {"lint", "fix", "confirm", "cli"},
    "lint": {"confirm", "cli", "report"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_nodes(tree)
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                targets.append(prefix)
                targets.extend(f"{prefix}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                targets.extend(alias.name for alias in node.names)
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph[node]:
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_import_circle_of_more_than_two_modules():
    big = [c for c in cycles(import_graph()) if len(c) > 2]
    assert not big, f"import circles: {big}"


def test_layers_import_only_what_lies_below_them():
    wrong = []
    for module, targets in import_graph().items():
        for target in targets:
            if layer(target) in FORBIDDEN.get(layer(module), ()):
                wrong.append(f"{module} -> {target}")
    assert not wrong, "layer violations:\n" + "\n".join(sorted(wrong))


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
