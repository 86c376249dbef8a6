"""The package's layers, as docs/architecture.md draws them: no import circle (imports inside
functions and under `if TYPE_CHECKING:` count, as a reader must follow them), and for every pair
of layers, no import from the lower to the higher."""

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


# The layers, bottom first, as docs/architecture.md draws them: each the modules under these
# names (a module belongs to the layer of the longest name it falls under; `gm_tags` itself, and
# everything no other layer names, is the outside).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "text",
        (
            "gm_tags.text",
            "gm_tags.names",
            "gm_tags.reasons",
            "gm_tags.errors",
            "gm_tags.dice",
            "gm_tags.settings",
            "gm_tags.syntax",
        ),
    ),
    ("ruleset", ("gm_tags.ruleset",)),
    ("sheet", ("gm_tags.sheet", "gm_tags.party", "gm_tags.game_document")),
    ("state", ("gm_tags.state",)),
    (
        "reading",
        (
            "gm_tags.scan",
            "gm_tags.lexer",
            "gm_tags.grammar",
            "gm_tags.parse",
            "gm_tags.commands",
            "gm_tags.receipts",
            "gm_tags.rewrite",
            "gm_tags.narrator",
        ),
    ),
    ("execute", ("gm_tags.engine", "gm_tags.checks")),
    ("prompt", ("gm_tags.prompt",)),
    ("families", ("gm_tags.families",)),
    ("pipeline", ("gm_tags.pipeline", "gm_tags.stream")),
    ("facade", ("gm_tags.game",)),
    ("outside", ("gm_tags",)),
]
NAMES = [name for name, _ in LAYERS]


def layer_of(module: str) -> int:
    """The index in `LAYERS` of the layer `module` belongs to."""
    found = [
        (len(prefix), at)
        for at, (_, prefixes) in enumerate(LAYERS)
        for prefix in prefixes
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(found)[1]


def _imports_between(low: int, high: int) -> set[tuple[str, str]]:
    return {
        (module, target)
        for module, targets in GRAPH.items()
        if layer_of(module) == low
        for target in targets
        if layer_of(target) == high
    }


PAIRS = [(low, high) for low in range(len(LAYERS)) for high in range(low + 1, len(LAYERS))]


@pytest.mark.parametrize(
    ("low", "high"), PAIRS, ids=[f"{NAMES[low]}-not-{NAMES[high]}" for low, high in PAIRS]
)
def test_no_layer_imports_one_above_it(low: int, high: int) -> None:
    assert _imports_between(low, high) == set()


def test_every_layer_below_the_outside_holds_a_module() -> None:
    assert {layer_of(module) for module in MODULES} == set(range(len(LAYERS)))


def test_the_architecture_page_draws_the_layers_in_this_order() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    drawing = page.split("```")[1].splitlines()
    drawn = [line.split()[0] for line in drawing if line.strip()]
    assert drawn == NAMES[::-1]


def _within(module: str, *prefixes: str) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


FRONT_DOORS = (
    "gm_tags.service",
    "gm_tags.web",
    "gm_tags.proxy",
    "gm_tags.mcp_server",
    "gm_tags.cli",
)


def test_the_chats_and_the_store_every_front_door_shares_import_none_of_them() -> None:
    """The chats and the store serve every front door alike: none of their modules reaches into
    one (the proxy once took its chats from the service's)."""
    wrong = {
        (module, target)
        for module, targets in GRAPH.items()
        if _within(module, "gm_tags.chats", "gm_tags.store", "gm_tags.history")
        for target in targets
        if _within(target, *FRONT_DOORS)
    }
    assert wrong == set()


def test_the_proxy_imports_no_other_front_door() -> None:
    wrong = {
        (module, target)
        for module, targets in GRAPH.items()
        if _within(module, "gm_tags.proxy")
        for target in targets
        if _within(target, *FRONT_DOORS) and not _within(target, "gm_tags.proxy")
    }
    assert wrong == set()
