"""The package's layers, read from the import statements: inner layers never import outer ones.

Innermost first: ``core``, ``sgf``, ``book``, ``games``, ``engine``, ``web``, ``cli``. A module may
import its own layer and those before it; ``core`` imports nothing outside the standard
library; a third-party package that belongs to one edge (the database, the web server, the
terminal, the cluster) is imported only there; and no modules import each other in a circle.
Every import counts, including those inside functions and those for type checking only.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "joseki"
LAYERS = ("core", "sgf", "book", "games", "engine", "web", "cli")
THIRD_PARTY_ALLOWED = {
    "core": set(),
    "sgf": {"sgfmill", "markdown_it", "charset_normalizer"},  # markdown_it: the OGS dialect's comments
    # (joseki.sgf.dialects.markdown); charset_normalizer: a missing or wrong CA (joseki.sgf.text)
}
EDGES = {
    "sqlalchemy": ("book",), "alembic": ("book",), "platformdirs": ("book",),
    "fastapi": ("web",), "starlette": ("web",), "uvicorn": ("web",), "orjson": ("web",), "httptools": ("web",),
    "uvloop": ("web",),
    "typer": ("cli",), "rich": ("cli",), "click": ("cli",),
    "distributed": ("games",), "dask": ("games",),
    "numba": ("book",),  # the pattern search's compiled loops (joseki.book.patterns.kernels)
}
"""Each edge's third-party packages and the layers that may import them."""
NOT_YET_AT_THEIR_EDGE: set[tuple[str, str]] = set()
"""(module, package) imports that break :data:`EDGES` today and are being moved to their edge; none may be added."""


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_migrations" not in p.parts)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "joseki" or len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            if node.module == "joseki":
                found += [(node.lineno, f"joseki.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}:{node.lineno}: relative import; use the full joseki.* name")
    return found


def _name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def test_every_module_belongs_to_a_layer() -> None:
    loose = [_name(p) for p in _modules() if _layer(_name(p)) is None
             and _name(p) not in {"joseki", "joseki.__main__"}]
    assert loose == [], f"modules outside the layers: {loose}"


@pytest.mark.parametrize("path", _modules(), ids=_name)
def test_inner_layers_never_import_outer_ones(path: Path) -> None:
    own = _layer(_name(path))
    if own is None:
        return
    for line, module in _imports(path):
        imported = _layer(module)
        if imported is not None:
            assert imported <= own, (
                f"{_name(path)} (layer {LAYERS[own]}) imports {module} (layer {LAYERS[imported]}) at line {line}")


@pytest.mark.parametrize("layer", sorted(THIRD_PARTY_ALLOWED))
def test_inner_layers_import_only_the_standard_library(layer: str) -> None:
    allowed = THIRD_PARTY_ALLOWED[layer]
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top == "joseki" or top in sys.stdlib_module_names or top in allowed:
                continue
            raise AssertionError(f"{_name(path)} imports {module} at line {line}: not allowed in {layer}")


def test_the_rule_catches_an_outward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from joseki.book.store.database import Store\n")
    assert [m for _, m in _imports(bad) if _layer(m) == LAYERS.index("book")] == ["joseki.book.store.database"]


def _package_of(module: str) -> str:
    return module.split(".")[0]


@pytest.mark.parametrize("path", _modules(), ids=_name)
def test_edge_packages_are_imported_only_at_their_edge(path: Path) -> None:
    own = _layer(_name(path))
    for line, module in _imports(path):
        layers = EDGES.get(_package_of(module))
        if layers is None or own is None or LAYERS[own] in layers:
            continue
        if (_name(path), _package_of(module)) in NOT_YET_AT_THEIR_EDGE:
            continue
        raise AssertionError(f"{_name(path)} imports {module} at line {line}: only {', '.join(layers)} may")


def test_the_list_of_imports_not_yet_at_their_edge_only_shrinks() -> None:
    for module, package in sorted(NOT_YET_AT_THEIR_EDGE):
        path = PACKAGE.parent / (module.replace(".", "/") + ".py")
        assert path.exists() and package in {_package_of(m) for _, m in _imports(path)}, (
            f"{module} no longer imports {package}: take it off NOT_YET_AT_THEIR_EDGE")


def _import_graph() -> dict[str, set[str]]:
    """Each module and the package modules it imports (a name imported from a package counts as its module)."""
    names = {_name(p): p for p in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        graph[name] = set()
        for _, module in _imports(path):
            for candidate in (module, module.rpartition(".")[0]):
                if candidate in names and candidate != name:
                    graph[name].add(candidate)
                    break
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


KNOWN_CIRCLES: list[list[str]] = []
"""Circles being taken apart; none may be added."""


def test_no_modules_import_each_other_in_a_circle() -> None:
    assert [c for c in circles(_import_graph()) if c not in KNOWN_CIRCLES] == []


def test_the_circle_rule_catches_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
