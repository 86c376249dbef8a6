"""The package's layers, as docs/architecture.md draws them: no import circle (imports inside
functions and under `if TYPE_CHECKING:` count, as a reader must follow them), and imports that
point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "gm_tags"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imports(module: str) -> set[str]:
    """Every module of the package `module` imports, wherever the import stands."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the package, one level up per dot past the first
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                stem = ".".join([*parts, node.module] if node.module else parts)
            else:
                stem = node.module or ""
            # `from package import module` imports that module; `from module import name`, the
            # module (as Python does: the package itself is already loaded as its parent).
            names = [
                f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in MODULES else stem
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {module: _imports(module) for module in MODULES}


def _circles() -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in GRAPH[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(GRAPH):
        if module not in order:
            visit(module)
    return groups


def test_no_module_imports_its_way_back_to_itself() -> None:
    assert _circles() == []


def _under(module: str, *prefixes: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


# Each layer, and the layers above it that it must never import.
LAYERS = [
    ("gm_tags.ruleset", ("gm_tags.sheet", "gm_tags.engine", "gm_tags.state", "gm_tags.game")),
    ("gm_tags.state", ("gm_tags.pipeline", "gm_tags.prompt", "gm_tags.game", "gm_tags.history")),
    (
        "gm_tags.engine",
        ("gm_tags.pipeline", "gm_tags.prompt", "gm_tags.game", "gm_tags.history"),
    ),
    ("gm_tags.prompt", ("gm_tags.pipeline", "gm_tags.game", "gm_tags.history")),
    ("gm_tags.pipeline", ("gm_tags.game", "gm_tags.history", "gm_tags.store", "gm_tags.cli")),
    ("gm_tags.game", ("gm_tags.history", "gm_tags.store", "gm_tags.service", "gm_tags.cli")),
]


@pytest.mark.parametrize(("layer", "above"), LAYERS, ids=[layer for layer, _ in LAYERS])
def test_imports_point_down(layer: str, above: tuple[str, ...]) -> None:
    wrong = {
        (module, target)
        for module, targets in GRAPH.items()
        if _under(module, layer)
        for target in targets
        if _under(target, *above)
    }
    assert wrong == set()


def test_the_architecture_page_names_every_layer() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    for layer, _ in LAYERS:
        assert f"`{layer.removeprefix('gm_tags.')}" in page
