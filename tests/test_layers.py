"""The package's layers, read from the import statements: inner layers never import outer ones.

Innermost first: ``core``, ``sgf``, ``book``, ``games``, ``engine``, ``web``, ``cli``. A module may
import its own layer and those before it; ``core`` imports nothing outside the standard
library. Every import counts, including those inside functions.
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
    "sgf": {"sgfmill"},
}


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
    bad.write_text("def f():\n    from joseki.book.store import Store\n")
    assert [m for _, m in _imports(bad) if _layer(m) == LAYERS.index("book")] == ["joseki.book.store"]
